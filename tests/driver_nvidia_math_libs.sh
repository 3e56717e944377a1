#!/bin/sh
# driver_nvidia_math_libs.sh: a program linked with NVIDIA's cuBLAS (a
# project that names the system toolkit's lib64 itself:
# link_directories(/usr/local/cuda/lib64) and -lcublas in a target that
# CMake links with the C++ compiler, as trial pub9's Bruce-Lee-LY/cuda_hgemm
# does) warns at start that NVIDIA's cuBLAS is in it, naming the library
# and the remedy, and runs on cuemu's cuBLAS with the cuemu toolkit's lib64
# first in LD_LIBRARY_PATH, which holds cuemu's libraries under NVIDIA's
# file names (libcublas.so.13, emulator/libs/libs.am). Before, its
# cublasCreate answered CUBLAS_STATUS_NOT_INITIALIZED with no word of why.
# A stand-in library plays NVIDIA's (stand_in_cublas.c), its symbols
# versioned libcublas.so.13 as NVIDIA's are, so that the program asks for
# that version: cuemu's libraries define the version node of each NVIDIA
# file name that links to them (emulator/libs/*.map), and ld.so runs the
# program without "no version information available". nvcc builds the
# program.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing driver_nvidia_math_libs.sh "$nvcc is not built"
p=$srcdir/tests/driver/nvidia_cublas
work=$builddir_abs/tests/tmp/driver_nvidia_math_libs.$$
mkdir -p "$work/nvidia/lib64" || exit 1
failed=0
cc=${CC:-gcc}
lib=$builddir_abs/.libs
toolkit=$lib/cuemu-toolkit/lib64

printf 'libcublas.so.13 {\n  global:\n    *;\n};\n' >"$work/stand_in.map"
step stand-in sh -c "$cc -shared -fPIC -Wl,-soname,libcublas.so.13 \
    -Wl,--version-script,stand_in.map \
    '$p/stand_in_cublas.c' -o nvidia/lib64/libcublas.so.13 &&
  ln -s libcublas.so.13 nvidia/lib64/libcublas.so" &&
  step object "$nvcc" -c "$p/scaled_sgemm.cu" -o scaled_sgemm.o &&
  step link sh -c "${CXX:-g++} scaled_sgemm.o -o foreign \
    -L'$work/nvidia/lib64' -lcublas -L'$lib' '$lib/libcuemu_by_path.a' \
    -lcuemu_cudart -Wl,-rpath,'$work/nvidia/lib64'" && {
  ( cd "$work" && ./foreign ) >"$work/foreign.log" 2>&1
  if grep -qF "cuemu: warning: NVIDIA's cuBLAS is linked into this program ($work/nvidia/lib64/libcublas.so.13)" \
      "$work/foreign.log" &&
    grep -qF "cuemu-toolkit/lib64) first in LD_LIBRARY_PATH" "$work/foreign.log" &&
    [ "$(grep -c "NVIDIA's cuBLAS is" "$work/foreign.log")" = 1 ] &&
    grep -qx "cublasCreate: 1" "$work/foreign.log"; then
    echo "PASS: NVIDIA's cuBLAS in the program is warned of once, with the remedy"
  else
    fail "no warning of NVIDIA's cuBLAS:"
    sed 's/^/  | /' "$work/foreign.log" | head -10
  fi
  ( cd "$work" && LD_LIBRARY_PATH=$toolkit${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
    ./foreign ) >"$work/toolkit.log" 2>&1
  if grep -qx PASS "$work/toolkit.log" && ! grep -q "NVIDIA's" "$work/toolkit.log" &&
    ! grep -q "no version information" "$work/toolkit.log"; then
    echo "PASS: with the toolkit's lib64 first in LD_LIBRARY_PATH it runs on cuemu's cuBLAS, without a version warning"
  else
    fail "the program does not run on cuemu's cuBLAS from the toolkit's lib64:"
    sed 's/^/  | /' "$work/toolkit.log" | head -10
  fi
  # A program that cuemu-nvcc links has no warning.
  step by-nvcc "$nvcc" "$p/scaled_sgemm.cu" -o by_nvcc -lcublas &&
    ( cd "$work" && ./by_nvcc ) >"$work/by_nvcc.log" 2>&1
  if grep -qx PASS "$work/by_nvcc.log" && ! grep -q "cuemu: warning" "$work/by_nvcc.log"; then
    echo "PASS: a program that cuemu-nvcc links runs without a warning"
  else
    fail "a program that cuemu-nvcc links:"
    sed 's/^/  | /' "$work/by_nvcc.log" | head -10
  fi
}

# Each of cuemu's libraries under an NVIDIA file name defines the version
# node of that name, as NVIDIA's library does.
for f in libcublas.so.13 libcublasLt.so.13 libcurand.so.10 libcufft.so.12 \
    libcufftw.so.12 libcusparse.so.12 libcusolver.so.12 libnvrtc.so.13; do
  if readelf -V "$toolkit/$f" 2>/dev/null | grep -q "Name: $f\$"; then
    echo "PASS: lib64/$f defines the version $f"
  else
    fail "lib64/$f defines no version $f"
  fi
done

real=$(find_nvcc)
if [ -n "$real" ] && [ -z "${CUEMU_SKIP_NVCC:-}" ]; then
  step real-nvcc nvcc_build driver_nvidia_math_libs.sh:scaled_sgemm "$real" \
    -arch=sm_90 -o scaled_sgemm_nvcc "$p/scaled_sgemm.cu" -lcublas &&
    echo "PASS: nvcc builds the program"
fi

[ "$failed" -eq 0 ] && rm -rf "$work"
exit $failed
