#!/bin/sh
# driver_cmake_include_root.sh: the CMake project
# tests/driver/cmake_include_root, which takes the toolkit's root from the
# include folder CMake read from `nvcc -v` (CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES
# less /include) and links cuBLAS and the runtime found there alone, as
# stephen-sorley/cuda-cmake's CUDASetup.cmake does (trial pub21). cuemu-nvcc -v
# named the shims' folder, whose root holds no library, so such a project
# found NVIDIA's cuBLAS under /usr/local/cuda and failed to link a C++ file
# compiled against cuemu's headers; it names cuemu-toolkit/include, as nvcc 13
# names its toolkit's targets/x86_64-linux/include. With nvcc present, the
# project configures and builds with it too.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
[ -x "$builddir_abs/cuemu-nvcc" ] ||
  tool_missing driver_cmake_include_root.sh "cuemu-nvcc is not built"
command -v cmake >/dev/null 2>&1 ||
  tool_missing driver_cmake_include_root.sh "cmake is not installed (scripts/setup.sh installs it)"
p=$srcdir/tests/driver/cmake_include_root
work=$builddir_abs/tests/tmp/driver_cmake_include_root.$$
mkdir -p "$work" || exit 1
failed=0

step configure cmake -S "$p" -B build -DCMAKE_CUDA_COMPILER="$builddir_abs/cuemu-nvcc" &&
  step build cmake --build build --verbose &&
  step ctest env -u LD_LIBRARY_PATH ctest --test-dir build --output-on-failure &&
  if ! grep -q 'include_root cuBLAS: .*cuemu-toolkit/lib64/libcublas.so' "$work/configure.log"; then
    fail "the project did not find cuemu-toolkit's cuBLAS from the include folder (see $work/configure.log)"
  else
    echo "PASS: a project that finds cuBLAS from the include folder's root gets cuemu's"
  fi

real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ] && [ -z "${CUEMU_SKIP_NVCC:-}" ]; then
  # Configured and built as one recorded step (scripts/nvcc_verified.py).
  step nvcc-build nvcc_build driver_cmake_include_root.sh:project sh -c \
    'cmake -S "$1" -B with_nvcc -DCMAKE_CUDA_COMPILER="$2" &&
     cmake --build with_nvcc' sh "$p" "$real" &&
    echo "PASS: nvcc builds it"
fi

[ "$failed" -eq 0 ] && rm -rf "$work"
echo "driver_cmake_include_root.sh: $failed failed"
[ "$failed" -eq 0 ]
