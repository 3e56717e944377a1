#!/bin/sh
# driver_libcuda_link.sh: a program that calls the driver API links only
# with the driver library, as with nvcc, whose link without it fails with
# "undefined reference to `cuInit'": each function of cuemu's cuda.h
# refers to its symbol of libcuda.so.1 (CUEMU_DRV_SYMBOL), so that a CI
# build with cuemu fails where the project's GPU build would.
# tests/driver/libcuda_link/driver_calls.cu (cuInit, cuMemAlloc,
# cuLaunchKernel ...):
#   1. cuemu-nvcc without -lcuda fails, naming the functions as ld does
#      for nvcc (cuMemAlloc_v2: CUDA's symbol of the newest version), with
#      a note that says to link -lcuda;
#   2. with -lcuda, -lcuda twice, -L<toolkit>/lib64/stubs -lcuda, the
#      stub library by its path (a Makefile's
#      $(CUDA_PATH)/lib64/stubs/libcuda.so, cuemu's toolkit's or NVIDIA's)
#      or -Xlinker -lcuda, it builds and runs;
#   3. its object (-c) links with -lcuda, and not without;
#   4. cuemu-run runs it (it has no build file that could say -lcuda, and
#      links the driver library itself);
#   5. a shared library (-shared) links without -lcuda, as nvcc's does,
#      and keeps the driver's symbols undefined for the program's link.
# tests/driver/libcuda_link/entry_points.cu, which includes cuda.h and
# finds the driver's functions with cudaGetDriverEntryPointByVersion:
#   6. links without -lcuda and runs (the runtime's call).
#   7. Every function of cuda.h that libcuda.so.1 exports under its own
#      name refers to that symbol: an object that takes the address of
#      each leaves exactly those undefined.
# With nvcc present, both programs build with it (driver_calls.cu with
# -lcuda). Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir=$(cd "$builddir" && pwd)
cc=$builddir/cuemu-nvcc
run=$builddir/cuemu-run
toolkit=$builddir/.libs/cuemu-toolkit
[ -x "$cc" ] || tool_missing driver_libcuda_link.sh "$cc is not built"
[ -f "$toolkit/compat/libcuda.so.1" ] ||
  tool_missing driver_libcuda_link.sh "$toolkit/compat/libcuda.so.1 is not built"

work=$builddir/tests/tmp/driver_libcuda_link.$$
rm -rf "$work"
mkdir -p "$work" || exit 1
trap 'rm -rf "$work"' EXIT
p=$srcdir/tests/driver/libcuda_link
failed=0

# refused LABEL WHO COMMAND...: COMMAND fails and says that cuInit and
# cuMemAlloc_v2 are undefined, as ld says for nvcc, and cuemu-nvcc's note
# says that WHO (the source, or "the program") should link -lcuda.
refused() {
  label=$1
  who=$2
  shift 2
  if (cd "$work" && "$@") >"$work/refused.log" 2>&1; then
    fail "$label: linked without the driver library"
  elif grep -q "undefined reference to \`cuInit'" "$work/refused.log" &&
    grep -q "undefined reference to \`cuMemAlloc_v2'" "$work/refused.log" &&
    grep -q "note: $who calls the driver API (cu.*), whose functions are the driver library's: link it with -lcuda" \
      "$work/refused.log"; then
    echo "PASS: $label: undefined reference to \`cuInit', and the note"
  else
    fail "$label: the message:"
    sed 's/^/  | /' "$work/refused.log" | head -20
  fi
}

refused "1. without -lcuda" "$p/driver_calls.cu" "$cc" "$p/driver_calls.cu" -o alone

# NVIDIA's stub library by its path too, where a toolkit has one (the
# program then needs libcuda.so.1, which its run path finds in cuemu's
# toolkit).
nvidia_stub=${CUDA_HOME:-/usr/local/cuda}/lib64/stubs/libcuda.so
[ -f "$nvidia_stub" ] || nvidia_stub=
n=0
for link in "-lcuda" "-lcuda -lcuda" "-L$toolkit/lib64/stubs -lcuda" \
  "$toolkit/lib64/stubs/libcuda.so" "-Xlinker -lcuda" ${nvidia_stub:+"$nvidia_stub"}; do
  n=$((n + 1))
  # shellcheck disable=SC2086 # the link's words
  step "linked$n" "$cc" "$p/driver_calls.cu" -o "linked$n" $link &&
    passes "linked$n" "./linked$n" && echo "PASS: 2. linked with $link"
done

if step object "$cc" -c "$p/driver_calls.cu" -o calls.o; then
  refused "3. its object without -lcuda" "the program" "$cc" calls.o -o from_object
  step from_object "$cc" calls.o -o from_object -lcuda &&
    passes "3. its object with -lcuda" ./from_object
fi

passes "4. cuemu-run" "$run" "$p/driver_calls.cu"

if step shared "$cc" -Xcompiler -fPIC -shared "$p/driver_calls.cu" \
  -o libcalls.so; then
  if nm -D --undefined-only "$work/libcalls.so" | grep -q " cuInit$"; then
    echo "PASS: 5. -shared links, cuInit undefined"
  else
    fail "5. libcalls.so does not leave cuInit undefined"
  fi
fi

step entry_points "$cc" "$p/entry_points.cu" -o entry_points &&
  passes "6. cudaGetDriverEntryPointByVersion without -lcuda" ./entry_points

# 7. The exports' rows whose symbol is their function's name, with
# cuda.h's renaming (cuMemAlloc is cuMemAlloc_v2), are the symbols that
# taking the functions' addresses must leave undefined.
exports=$srcdir/emulator/export/cuemu_libcuda_exports.h
names=$srcdir/shims/cuda_builtins/cuemu_driver_names.h
sed -n 's/^CUEMU_LIBCUDA_EXPORT(\([A-Za-z0-9_]*\), \([A-Za-z0-9_]*\),.*/\1 \2/p' \
  "$exports" >"$work/rows"
awk 'NR == FNR { if ($1 == "#define") renamed[$2] = $3; next }
     { f = ($2 in renamed) ? renamed[$2] : $2; if ($1 == f) print f }' \
  "$names" "$work/rows" | LC_ALL=C sort -u >"$work/expected"
{
  echo '#include <cuda.h>'
  echo '#pragma GCC diagnostic ignored "-Wdeprecated-declarations"'
  echo 'const void *const functions[] = {'
  cut -d' ' -f2 "$work/rows" | LC_ALL=C sort -u |
    sed 's/.*/  reinterpret_cast<const void *>(\&::&),/'
  echo '};'
  echo 'int main() { return functions[0] ? 0 : 1; }'
} >"$work/all_functions.cu"
if step all_functions "$cc" -c all_functions.cu -o all_functions.o; then
  nm --undefined-only "$work/all_functions.o" |
    sed -n 's/^ *U \(cu[A-Z][A-Za-z0-9_]*\)$/\1/p' | LC_ALL=C sort -u \
    >"$work/undefined"
  if cmp -s "$work/expected" "$work/undefined"; then
    echo "PASS: 7. $(wc -l <"$work/expected") functions refer to their symbols"
  else
    fail "7. symbols expected (<) and undefined (>):"
    diff "$work/expected" "$work/undefined" | head -20 | sed 's/^/  | /'
  fi
fi

nvcc=$(find_nvcc)
if [ -n "$nvcc" ]; then
  if (cd "$work" && nvcc_build driver_libcuda_link.sh:driver_calls "$nvcc" \
    -arch=sm_90 "$p/driver_calls.cu" -o nvcc_calls -lcuda &&
    nvcc_build driver_libcuda_link.sh:entry_points "$nvcc" \
      -arch=sm_90 "$p/entry_points.cu" -o nvcc_entry) >"$work/nvcc.log" 2>&1; then
    echo "PASS: nvcc builds both programs"
  else
    fail "nvcc:"
    sed 's/^/  | /' "$work/nvcc.log" | head -20
  fi
fi

[ "$failed" -eq 0 ] || exit 1
echo "driver_libcuda_link.sh: all passed"
