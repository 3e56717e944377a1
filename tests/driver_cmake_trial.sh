#!/bin/sh
# driver_cmake_trial.sh: the CMake project tests/driver/cmake_trial, forms
# of public CMake projects that failed with cuemu (FindCUDA's
# cuda_add_executable and separable cuda_add_library, pointed at cuemu with
# CUDA_TOOLKIT_ROOT_DIR; architectures read from `nvcc --list-gpu-arch`;
# -Xfatbin=-compress-all; a unit with a library's class whose virtual
# functions are defined inline after it, linked without that library, as
# mpi.h's C++ bindings are), configured once with
# CMAKE_CUDA_COMPILER=cuemu-nvcc, built and run by ctest without
# LD_LIBRARY_PATH. With nvcc present, its sources also compile with it
# (tests/driver_makefile_options.sh compares --list-gpu-arch and
# --list-gpu-code with nvcc's, without needing CMake).
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
[ -x "$builddir_abs/cuemu-nvcc" ] ||
  tool_missing driver_cmake_trial.sh "cuemu-nvcc is not built"
command -v cmake >/dev/null 2>&1 ||
  tool_missing driver_cmake_trial.sh "cmake is not installed (scripts/setup.sh installs it)"
toolkit=${CUEMU_LIB_DIR:-$builddir_abs/.libs}/cuemu-toolkit
[ -d "$toolkit" ] || tool_missing driver_cmake_trial.sh "$toolkit is not built"
p=$srcdir/tests/driver/cmake_trial
work=$builddir_abs/tests/tmp/driver_cmake_trial.$$
mkdir -p "$work" || exit 1
failed=0

step configure cmake -S "$p" -B build -DCMAKE_BUILD_TYPE=Release \
  -DCUDA_TOOLKIT_ROOT_DIR="$toolkit" -DCMAKE_CUDA_COMPILER="$builddir_abs/cuemu-nvcc" &&
  step build cmake --build build &&
  step ctest env -u LD_LIBRARY_PATH ctest --test-dir build --output-on-failure &&
  echo "PASS: FindCUDA project (cuda_add_executable, separable cuda_add_library) pointed at cuemu-toolkit; architectures from --list-gpu-arch; -Xfatbin=-compress-all; an unused inline vtable's library left unlinked"

real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ] && [ -z "${CUEMU_SKIP_NVCC:-}" ]; then
  step nvcc-scale nvcc_build driver_cmake_trial.sh:scale timeout 600 \
    "$real" -std=c++17 -arch=sm_90 -DSCALE_FACTOR=3 -c "$p/scale_main.cu" \
    -o /dev/null &&
    step nvcc-offsets nvcc_build driver_cmake_trial.sh:offsets timeout 600 \
      "$real" -std=c++17 -arch=sm_90 -dc "$p/offsets.cu" -o /dev/null &&
    step nvcc-offsets-main nvcc_build driver_cmake_trial.sh:offsets_main \
      timeout 600 "$real" -std=c++17 -arch=sm_90 -dc "$p/offsets_main.cu" \
      -o /dev/null &&
    step nvcc-inline-key nvcc_build driver_cmake_trial.sh:inline_key_function \
      timeout 600 "$real" -std=c++17 -arch=sm_90 \
      "$p/inline_key_function.cu" -o "$work/inline_key_function" &&
    echo "PASS: nvcc compiles the sources (and links inline_key_function without its class's library)"
fi

rm -rf "$work"
echo "driver_cmake_trial.sh: $failed failed"
[ "$failed" -eq 0 ]
