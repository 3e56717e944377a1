#!/bin/sh
# driver_libcuda_link.sh: a program that calls the driver API or NVRTC
# links only with the driver library or NVRTC's, as with nvcc, whose link
# without it fails with "undefined reference to `cuInit'" (or
# `nvrtcCreateProgram'): each function of cuemu's cuda.h and nvrtc.h
# refers to its symbol of libcuda.so.1 or libnvrtc.so.13
# (CUEMU_LIBRARY_SYMBOL), so that a CI build with cuemu fails where the
# project's GPU build would.
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
# tests/driver/libnvrtc_link/nvrtc_calls.cu (nvrtcCreateProgram,
# nvrtcCompileProgram, nvrtcGetPTX ...), as 1 to 5 and 7 for NVRTC:
#   N1. without -lnvrtc it fails, naming nvrtcCreateProgram, with a note
#      that says to link -lnvrtc;
#   N2. with -lnvrtc, -L<toolkit>/lib64 -lnvrtc, the toolkit's
#      lib64/libnvrtc.so by its path (CMake's CUDA::nvrtc) or -Xlinker
#      -lnvrtc, it builds and runs;
#   N3. its object links with -lnvrtc, and not without;
#   N4. cuemu-run runs it;
#   N5. a shared library links without -lnvrtc, nvrtcCreateProgram
#      undefined;
#   N7. every function of cuemu_nvrtc_functions.h refers to its symbol.
# With nvcc present, the programs build with it (driver_calls.cu with
# -lcuda, nvrtc_calls.cu with -lnvrtc). Run by `make check` with
# AM_TESTS_ENVIRONMENT.

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

# refused LABEL WHO LIBRARY COMMAND...: COMMAND fails and says that two
# functions of LIBRARY (cuda: cuInit and cuMemAlloc_v2; nvrtc:
# nvrtcCreateProgram and nvrtcCompileProgram) are undefined, as ld says
# for nvcc, and cuemu-nvcc's note says that WHO (the source, or "the
# program") should link -lLIBRARY.
refused() {
  label=$1
  who=$2
  library=$3
  shift 3
  case $library in
  cuda) first=cuInit second=cuMemAlloc_v2 api="the driver API (cu.*)"
    owner=driver ;;
  *) first=nvrtcCreateProgram second=nvrtcCompileProgram
    api="NVRTC (nvrtc.*)" owner=NVRTC ;;
  esac
  if (cd "$work" && "$@") >"$work/refused.log" 2>&1; then
    fail "$label: linked without -l$library"
  elif grep -q "undefined reference to \`$first'" "$work/refused.log" &&
    grep -q "undefined reference to \`$second'" "$work/refused.log" &&
    grep -q "note: $who calls $api, whose functions are the $owner library's: link it with -l$library" \
      "$work/refused.log"; then
    echo "PASS: $label: undefined reference to \`$first', and the note"
  else
    fail "$label: the message:"
    sed 's/^/  | /' "$work/refused.log" | head -20
  fi
}

refused "1. without -lcuda" "$p/driver_calls.cu" cuda "$cc" "$p/driver_calls.cu" -o alone

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
  refused "3. its object without -lcuda" "the program" cuda "$cc" calls.o -o from_object
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

# NVRTC: the same links of tests/driver/libnvrtc_link/nvrtc_calls.cu.
r=$srcdir/tests/driver/libnvrtc_link
refused "N1. without -lnvrtc" "$r/nvrtc_calls.cu" nvrtc "$cc" "$r/nvrtc_calls.cu" -o rtc_alone
n=0
for link in "-lnvrtc" "-L$toolkit/lib64 -lnvrtc" "$toolkit/lib64/libnvrtc.so" \
  "-Xlinker -lnvrtc"; do
  n=$((n + 1))
  # shellcheck disable=SC2086 # the link's words
  step "rtc_linked$n" "$cc" "$r/nvrtc_calls.cu" -o "rtc_linked$n" $link &&
    passes "rtc_linked$n" "./rtc_linked$n" && echo "PASS: N2. linked with $link"
done
if step rtc_object "$cc" -c "$r/nvrtc_calls.cu" -o rtc_calls.o; then
  refused "N3. its object without -lnvrtc" "the program" nvrtc "$cc" rtc_calls.o -o rtc_from_object
  step rtc_from_object "$cc" rtc_calls.o -o rtc_from_object -lnvrtc &&
    passes "N3. its object with -lnvrtc" ./rtc_from_object
fi
passes "N4. cuemu-run" "$run" "$r/nvrtc_calls.cu"
if step rtc_shared "$cc" -Xcompiler -fPIC -shared "$r/nvrtc_calls.cu" \
  -o librtc_calls.so; then
  if nm -D --undefined-only "$work/librtc_calls.so" | grep -q " nvrtcCreateProgram$"; then
    echo "PASS: N5. -shared links, nvrtcCreateProgram undefined"
  else
    fail "N5. librtc_calls.so does not leave nvrtcCreateProgram undefined"
  fi
fi
# N7. Each function of the list that libnvrtc.so.13 exports.
sed -n 's/^CUEMU_NVRTC_FUNCTION([^,]*, \(nvrtc[A-Za-z0-9_]*\),.*/\1/p' \
  "$srcdir/shims/cuda_builtins/cuemu_nvrtc_functions.h" | LC_ALL=C sort -u \
  >"$work/rtc_expected"
{
  echo '#include <nvrtc.h>'
  echo 'const void *const functions[] = {'
  sed 's/.*/  reinterpret_cast<const void *>(\&::&),/' "$work/rtc_expected"
  echo '};'
  echo 'int main() { return functions[0] ? 0 : 1; }'
} >"$work/rtc_functions.cu"
if step rtc_functions "$cc" -c rtc_functions.cu -o rtc_functions.o; then
  nm --undefined-only "$work/rtc_functions.o" |
    sed -n 's/^ *U \(nvrtc[A-Z][A-Za-z0-9_]*\)$/\1/p' | LC_ALL=C sort -u \
    >"$work/rtc_undefined"
  if [ -s "$work/rtc_expected" ] && cmp -s "$work/rtc_expected" "$work/rtc_undefined"; then
    echo "PASS: N7. $(wc -l <"$work/rtc_expected") functions refer to their symbols"
  else
    fail "N7. symbols expected (<) and undefined (>):"
    diff "$work/rtc_expected" "$work/rtc_undefined" | head -20 | sed 's/^/  | /'
  fi
fi

nvcc=$(find_nvcc)
if [ -n "$nvcc" ]; then
  if (cd "$work" && nvcc_build driver_libcuda_link.sh:driver_calls "$nvcc" \
    -arch=sm_90 "$p/driver_calls.cu" -o nvcc_calls -lcuda &&
    nvcc_build driver_libcuda_link.sh:entry_points "$nvcc" \
      -arch=sm_90 "$p/entry_points.cu" -o nvcc_entry &&
    nvcc_build driver_libcuda_link.sh:nvrtc_calls "$nvcc" \
      -arch=sm_90 "$r/nvrtc_calls.cu" -o nvcc_rtc -lnvrtc) >"$work/nvcc.log" 2>&1; then
    echo "PASS: nvcc builds the programs"
  else
    fail "nvcc:"
    sed 's/^/  | /' "$work/nvcc.log" | head -20
  fi
fi

[ "$failed" -eq 0 ] || exit 1
echo "driver_libcuda_link.sh: all passed"
