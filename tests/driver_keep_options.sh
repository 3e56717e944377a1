#!/bin/sh
# driver_keep_options.sh: the nvcc options that trialopts found doing
# nothing in cuemu-nvcc (docs/nvcc-checks.md):
# - --keep / -keep-dir DIR keep each pass's preprocessed and translated
#   unit under nvcc's names: NAME.cpp1.ii and NAME.cudafe1.gpu (the device
#   pass: __CUDA_ARCH__ defined), NAME.cpp4.ii and NAME.cudafe1.cpp (the
#   host pass), in DIR or, without -keep-dir, the current folder; the
#   program built still runs (PASS); a missing DIR fails the compile with
#   the host compiler's words, as nvcc's (without --keep, DIR is unused);
# - --resource-usage (-res-usage) prints ptxas's lines for each kernel on
#   stderr: 'Used 32 registers' (cudaFuncGetAttributes' numRegs), the
#   static shared memory ('256 bytes smem') and the stack frame (the local
#   size), for -c and a whole program;
# - -forward-unknown-opts gives an unknown option to the host compiler and
#   to the link as -Xlinker OPTION, as nvcc does (-Wshadow: ld refuses
#   it), -forward-unknown-to-host-linker to the link only (--no-undefined
#   links), -forward-unknown-to-host-compiler to the compiler only.
# nvcc builds the program. Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir=$(cd "$builddir" && pwd)
nvcc=$builddir/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing driver_keep_options.sh "$nvcc is not built"
src=$srcdir/tests/programs/copts2/options/usage.cu
work=$builddir/tests/tmp/driver_keep_options.$$
mkdir -p "$work/kept" "$work/here" || exit 1
trap 'rm -rf "$work"' EXIT
failed=0

# --keep with -keep-dir, then --keep alone in the current folder.
step keep-dir "$nvcc" --keep -keep-dir kept -o app "$src" &&
  passes "the program built with --keep runs" ./app
kept=$(cd "$work/kept" && ls | tr '\n' ' ')
if [ "$kept" = "usage.cpp1.ii usage.cpp4.ii usage.cudafe1.cpp usage.cudafe1.gpu " ] &&
  grep -q device_pass_marker "$work/kept/usage.cpp1.ii" &&
  grep -q device_pass_marker "$work/kept/usage.cudafe1.gpu" &&
  ! grep -q host_pass_marker "$work/kept/usage.cudafe1.gpu" &&
  grep -q host_pass_marker "$work/kept/usage.cpp4.ii" &&
  grep -q host_pass_marker "$work/kept/usage.cudafe1.cpp" &&
  ! grep -q device_pass_marker "$work/kept/usage.cudafe1.cpp"; then
  echo "PASS: --keep -keep-dir keeps each pass's units under nvcc's names"
else
  fail "--keep -keep-dir kept: $kept"
fi
step keep-here sh -c "cd here && '$nvcc' -keep -c -o usage.o '$src'" &&
  if [ -s "$work/here/usage.cudafe1.cpp" ] && [ -s "$work/here/usage.cpp1.ii" ]
  then
    echo "PASS: --keep without -keep-dir keeps them in the current folder"
  else
    fail "--keep -c kept: $(ls "$work/here" | tr '\n' ' ')"
  fi

# A -keep-dir that is missing: with --keep, nvcc 13.0 fails with the host
# compiler's words for the first unit it keeps (g++'s cc1plus), before
# compiling (before: a warning, and the compile went on); without --keep
# the folder is not used and the compile succeeds, as nvcc's.
if (cd "$work" && "$nvcc" --keep -keep-dir missing -c -o gone.o "$src") \
  >"$work/missing.out" 2>&1; then
  fail "--keep -keep-dir missing compiled"
elif [ "$(head -2 "$work/missing.out")" = "cc1plus: fatal error: opening output file missing/usage.cpp4.ii: No such file or directory
compilation terminated." ] && [ ! -e "$work/gone.o" ]; then
  echo "PASS: --keep -keep-dir with a missing folder fails as nvcc's"
else
  fail "--keep -keep-dir missing: $(head -3 "$work/missing.out")"
fi
step keep-dir-unused "$nvcc" -keep-dir missing -c -o unused.o "$src"

# ptxas's -v (-Xptxas -v, --ptxas-options=..., a comma list) prints the
# same lines, as nvcc's ptxas does; the other ptxas options are noted.
for how in "--resource-usage -c -o usage.o" "--resource-usage -o app_res" \
  "-Xptxas -v -c -o usage_v.o" "--ptxas-options=-warn-spills,-v -o app_v"; do
  # shellcheck disable=SC2086
  (cd "$work" && "$nvcc" $how "$src") >"$work/res.out" 2>"$work/res.err"
  if grep -qx "ptxas info    : Compiling entry function '_Z6stagedPf' for 'sm_90'" \
    "$work/res.err" &&
    grep -qx "ptxas info    : Used 32 registers, 256 bytes smem" "$work/res.err" &&
    grep -qx "ptxas info    : Used 32 registers" "$work/res.err" &&
    grep -q "^    [1-9][0-9]* bytes stack frame, 0 bytes spill stores" \
      "$work/res.err" && [ ! -s "$work/res.out" ]; then
    ! grep -q "Xptxas -v is accepted" "$work/res.err" &&
    echo "PASS: $how prints each kernel's resources on stderr"
  else
    fail "$how printed:"
    sed 's/^/  | /' "$work/res.err" "$work/res.out" | head -12
  fi
done

# -M with -odir DIR: the rule's target is DIR/NAME.o, as nvcc writes it
# (a Makefile that keeps its objects in DIR; without it, make never sees a
# header change). -MT still wins.
step deps-odir "$nvcc" -M -odir objs "$src" &&
  step deps-odir-mt "$nvcc" -M -odir objs -MT t.o "$src" &&
  if head -1 "$work/deps-odir.log" | grep -q '^objs/usage\.o *:' &&
    head -1 "$work/deps-odir-mt.log" | grep -q '^t\.o *:'; then
    echo "PASS: -M -odir DIR names DIR/usage.o"
  else
    fail "-M -odir objs: $(head -1 "$work/deps-odir.log")"
  fi

# -forward-unknown-opts and its two halves.
if (cd "$work" && "$nvcc" -forward-unknown-opts -Wshadow -o fw "$src") \
  >"$work/fw.log" 2>&1; then
  fail "-forward-unknown-opts -Wshadow linked (nvcc gives -Wshadow to ld)"
elif grep -q "unrecognized option '-Wshadow'" "$work/fw.log"; then
  echo "PASS: -forward-unknown-opts gives the option to the linker too"
else
  fail "-forward-unknown-opts -Wshadow: $(head -3 "$work/fw.log")"
fi
step fw-compile "$nvcc" -forward-unknown-opts -Wshadow -c -o fw.o "$src" &&
  step fw-host "$nvcc" -forward-unknown-to-host-compiler -Wshadow -o fw_host \
    "$src" &&
  step fw-linker "$nvcc" -forward-unknown-to-host-linker --no-undefined \
    -o fw_linker "$src" &&
  passes "-forward-unknown-to-host-linker --no-undefined links and runs" \
    ./fw_linker
if (cd "$work" && "$nvcc" -forward-unknown-to-host-linker -Wshadow \
  -o fw2 "$src") >"$work/fw2.log" 2>&1; then
  fail "-forward-unknown-to-host-linker -Wshadow linked"
else
  echo "PASS: -forward-unknown-to-host-linker gives the option to ld"
fi

real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ] && [ -z "${CUEMU_SKIP_NVCC:-}" ]; then
  step real-nvcc nvcc_build driver_keep_options.sh:app "$real" -arch=sm_90 \
    --resource-usage -o app_nvcc "$src" &&
    echo "PASS: nvcc builds the program"
fi

exit $failed
