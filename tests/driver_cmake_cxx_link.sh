#!/bin/sh
# driver_cmake_cxx_link.sh: the CMake project tests/driver/cmake_cxx_link, a
# CUDA program that links a C++ static library and cuBLAS by -lcublas (as
# Altis's benchmarks do), configured with CMAKE_CUDA_COMPILER=cuemu-nvcc.
# CMake links it with the C++ compiler and the folders of cuemu-nvcc -v's
# LIBRARIES line, which lead -lcublas to cuemu-toolkit/lib64/emulated's link
# to the script for cuemu's cuBLAS, as nvcc's lead it to the toolkit's
# (before, it found NVIDIA's libcublas on the system's library path, whose
# cublasCreate fails without a GPU). The folder has no script of a library
# that cuemu refuses (libnppc), so that a link naming one without calling
# it finds what it found before. With nvcc present, the project builds with
# it too.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
[ -x "$builddir_abs/cuemu-nvcc" ] ||
  tool_missing driver_cmake_cxx_link.sh "cuemu-nvcc is not built"
command -v cmake >/dev/null 2>&1 ||
  tool_missing driver_cmake_cxx_link.sh "cmake is not installed (scripts/setup.sh installs it)"
p=$srcdir/tests/driver/cmake_cxx_link
work=$builddir_abs/tests/tmp/driver_cmake_cxx_link.$$
mkdir -p "$work" || exit 1
failed=0

step configure cmake -S "$p" -B build -DCMAKE_CUDA_COMPILER="$builddir_abs/cuemu-nvcc" &&
  step build cmake --build build --verbose &&
  step ctest env -u LD_LIBRARY_PATH ctest --test-dir build --output-on-failure &&
  if ! grep -q 'c++ .*-L[^ ]*cuemu-toolkit/lib64/emulated .*-lcublas' "$work/build.log"; then
    fail "the program was not linked by the C++ compiler with cuemu-toolkit/lib64/emulated before -lcublas (see $work/build.log)"
  else
    echo "PASS: a CUDA program with a C++ library, linked by the C++ compiler, gets cuemu's cuBLAS from -lcublas"
  fi

emulated=${CUEMU_LIB_DIR:-$builddir_abs/.libs}/cuemu-toolkit/lib64/emulated
if [ -e "$emulated/libcublas.so" ] && [ -e "$emulated/libcudart.so" ] &&
  [ ! -e "$emulated/libnppc.so" ] && [ ! -e "$emulated/libcusolverMg.so" ]; then
  echo "PASS: lib64/emulated links cuBLAS's and the runtime's scripts, not the refused libraries'"
else
  fail "lib64/emulated ($emulated) does not hold exactly the emulated libraries' scripts"
fi

real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ] && [ -z "${CUEMU_SKIP_NVCC:-}" ]; then
  # Configured and built as one recorded step (scripts/nvcc_verified.py).
  step nvcc-build nvcc_build driver_cmake_cxx_link.sh:project sh -c \
    'cmake -S "$1" -B with_nvcc -DCMAKE_CUDA_COMPILER="$2" &&
     cmake --build with_nvcc' sh "$p" "$real" &&
    echo "PASS: nvcc builds it"
fi

[ "$failed" -eq 0 ] && rm -rf "$work"
echo "driver_cmake_cxx_link.sh: $failed failed"
[ "$failed" -eq 0 ]
