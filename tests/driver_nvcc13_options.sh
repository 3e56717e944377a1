#!/bin/sh
# driver_nvcc13_options.sh: more of nvcc 13's options, which cuemu-nvcc
# refused as unknown (tests/driver/nvcc13_options).
# - Accepted without an effect here, as their meaning is nvcc's device
#   code, diagnostics or build system: -split-compile-extended,
#   -no-err-no, -brief-diag, -device-stack-protector, -opt-info,
#   -gen-opt-lto, -jobserver, -nodlink, -hls, -aug-hls, --no-align-double.
# - -noeh (--no-exceptions) gives the host compiler -fno-exceptions, as
#   nvcc does: host code that throws is refused.
# - -frandom-seed goes to the host compiler too.
# - -sanitize memcheck builds cuemu's memory checker in (nvcc instruments
#   for compute-sanitizer's memcheck); its report names the kernel and the
#   line. nvcc 13.0 takes no other tool: -sanitize racecheck is refused
#   with its message.
# - -clean deletes what the same command would write, running nothing.
# - -r (--relocatable-link) joins objects, or the objects of sources, into
#   one relocatable object that links as they would: -rdc=true objects
#   whose files call each other's device functions (the default name is
#   a.out, as nvcc's).
# With nvcc present, it builds the same commands. Run by `make check`.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing driver_nvcc13_options.sh "$nvcc is not built"

work=$builddir_abs/tests/tmp/driver_nvcc13_options.$$
mkdir -p "$work" || exit 1
failed=0
d=$srcdir/tests/driver/nvcc13_options

# The -rdc=true objects of the two files, which the tests below link.
step rdc_main "$nvcc" -rdc=true -DRELOC_RDC -c -o main.o "$d/reloc_main.cu" &&
  step rdc_kernels "$nvcc" -rdc=true -c -o kernels.o "$d/reloc_kernels.cu" ||
  exit 1

# Options of a compile, and two of a link (nvcc itself crashes on -nodlink
# with -hls use-lcs, and on -hls use-lcs with -aug-hls).
compile_options='-split-compile-extended 2 -no-err-no -brief-diag true -device-stack-protector true -opt-info inline -gen-opt-lto -jobserver -nodlink --no-align-double -frandom-seed 12'
step compiled "$nvcc" $compile_options -c -o compiled.o "$d/reloc_kernels.cu" &&
  echo "PASS: a compile with $compile_options"
for options in "-hls use-lcs" -aug-hls; do
  if step "linked$options" "$nvcc" $options -o linked main.o kernels.o; then
    passes "a link with $options" ./linked
  fi
done

printf '#include <cstdio>\nint main() {\n  try {\n    throw 1;\n  } catch (int e) {\n    std::printf("%%d\\n", e);\n  }\n}\n' \
  >"$work/throws.cu"
if (cd "$work" && "$nvcc" -noeh -c -o throws.o throws.cu) >"$work/throws.log" 2>&1; then
  fail "-noeh: host code that throws compiled"
elif grep -q "throws.cu:4:.*exception handling disabled" "$work/throws.log"; then
  echo "PASS: -noeh: host code that throws is refused"
else
  fail "-noeh: unexpected error: $(head -5 "$work/throws.log")"
fi

if step sanitize "$nvcc" -sanitize memcheck -o sanitized "$d/oob_write.cu"; then
  (cd "$work" && CUEMU_QUIET=0 ./sanitized) >"$work/sanitized.out" 2>&1
  if grep -q "kernel shifted: memcheck: out-of-bounds write of 4 bytes.*oob_write.cu:8" \
    "$work/sanitized.out"; then
    echo "PASS: -sanitize memcheck reports the write past the allocation"
  else
    fail "-sanitize memcheck: no report: $(head -5 "$work/sanitized.out")"
  fi
fi
if (cd "$work" && "$nvcc" -sanitize racecheck -c -o race.o "$d/oob_write.cu") \
  >"$work/race.log" 2>&1; then
  fail "-sanitize racecheck was taken (nvcc 13.0 refuses it)"
elif grep -q "Value 'racecheck' is not defined for option 'sanitize'" "$work/race.log"; then
  echo "PASS: -sanitize racecheck is refused as nvcc refuses it"
else
  fail "-sanitize racecheck: unexpected error: $(head -3 "$work/race.log")"
fi

if step rlink "$nvcc" -r main.o kernels.o && mv "$work/a.out" "$work/joined.o" &&
  step rlinked "$nvcc" -o joined joined.o; then
  passes "-r joins -rdc=true objects into one (a.out)" ./joined
fi
if step rlink_sources "$nvcc" -rdc=true -DRELOC_RDC -r -o both.o \
  "$d/reloc_main.cu" "$d/reloc_kernels.cu" &&
  step rlinked_sources "$nvcc" -o both both.o; then
  passes "-r compiles sources into one relocatable object" ./both
fi

# -clean (--clean-targets) runs nothing and deletes what the command would
# write: the object and -MD's dependency file of -c, a program; with
# --dryrun it only shows the rm.
if step clean_made "$nvcc" -c -MD "$d/oob_write.cu" &&
  step clean_program "$nvcc" -o program "$d/oob_write.cu" &&
  [ -f "$work/oob_write.o" ] && [ -f "$work/oob_write.d" ] &&
  step clean_dry "$nvcc" --clean-targets --dryrun -o program "$d/oob_write.cu" &&
  [ -f "$work/program" ] && grep -q '^#\$ rm program$' "$work/clean_dry.log" &&
  step clean_c "$nvcc" -clean -c -MD "$d/oob_write.cu" &&
  step clean_link "$nvcc" -clean -o program "$d/oob_write.cu" &&
  [ ! -e "$work/oob_write.o" ] && [ ! -e "$work/oob_write.d" ] &&
  [ ! -e "$work/program" ]; then
  echo "PASS: -clean deletes the object, the dependency file and the program"
else
  fail "-clean: $(ls "$work")"
fi

real=$(find_nvcc)
if [ -n "$real" ]; then
  # Each command stands alone: nvcc_build does not build again what it
  # recorded (tests/nvcc_builds.txt), so no command reads another's output.
  (cd "$work" && mkdir nv && cd nv &&
    nvcc_build driver_nvcc13_options.sh:compiled "$real" $compile_options -c \
      -o compiled.o "$d/reloc_kernels.cu" &&
    # A label and an output of its own per command (a label is one word
    # in the record; an output that a command of the record's key names
    # must not be another's, whose bytes differ from build to build).
    for options in "-hls use-lcs" -aug-hls; do
      label=linked$(echo $options | tr ' ' _)
      nvcc_build "driver_nvcc13_options.sh:$label" "$real" $options \
        -rdc=true -DRELOC_RDC -o "$label" "$d/reloc_main.cu" "$d/reloc_kernels.cu" ||
        exit 1
    done &&
    nvcc_build driver_nvcc13_options.sh:sanitize "$real" -sanitize memcheck \
      -o nv_sanitized "$d/oob_write.cu" &&
    nvcc_build driver_nvcc13_options.sh:rlink "$real" -rdc=true -DRELOC_RDC -r \
      -o nv_both.o "$d/reloc_main.cu" "$d/reloc_kernels.cu") >"$work/nvcc.log" 2>&1 ||
    fail "nvcc refuses a command of this test: $(tail -5 "$work/nvcc.log")"
  if (cd "$work" && "$real" -sanitize racecheck -c -o nv_race.o "$d/oob_write.cu") \
    >/dev/null 2>&1; then
    fail "nvcc takes -sanitize racecheck: the test is wrong"
  fi
  if (cd "$work" && "$real" -noeh -c -o nv_throws.o throws.cu) >/dev/null 2>&1; then
    fail "nvcc compiles throws.cu with -noeh: the test is wrong"
  fi
fi

rm -rf "$work"
exit "$failed"
