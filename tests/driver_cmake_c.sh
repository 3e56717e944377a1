#!/bin/sh
# driver_cmake_c.sh: a CMake project of C and CUDA languages
# (tests/driver/cmake_c) whose C file includes <cuda_runtime.h> through
# CUDA::cudart's include folder (cuemu-toolkit's), as NVIDIA's header allows.
# cuemu's runtime headers have a C view (cuemu_runtime_c_decls.h): the C
# file compiles as C, with CUDA::cudart and with CUDA::cudart_static, and
# the project's test passes; compiled as C++ (-DHOST_AS_CXX=ON) too. With
# nvcc present, the project builds with it as it is (the C file compiled as C).
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
command -v cmake >/dev/null 2>&1 ||
  tool_missing driver_cmake_c.sh "cmake is not installed (scripts/setup.sh installs it)"
nvcc=$builddir_abs/cuemu-nvcc
p=$srcdir/tests/driver/cmake_c
work=$builddir_abs/tests/tmp/driver_cmake_c.$$
mkdir -p "$work" || exit 1
failed=0

for lib in shared static; do
  flag=OFF
  [ "$lib" = static ] && flag=ON
  step "configure-c-$lib" cmake -S "$p" -B "as_c_$lib" \
    -DCMAKE_CUDA_COMPILER="$nvcc" -DCUDART_STATIC=$flag &&
    step "build-c-$lib" cmake --build "as_c_$lib" --verbose &&
    step "ctest-c-$lib" ctest --test-dir "as_c_$lib" --output-on-failure &&
    if grep -q -- '-x c++\|LANGUAGE CXX' "$work/build-c-$lib.log" ||
      ! grep -q 'cuemu-toolkit/include.* -c .*host\.c' \
        "$work/build-c-$lib.log"; then
      fail "host.c was not compiled as C against cuemu-toolkit's include folder ($lib)"
    else
      echo "PASS: host.c (C, cuda_runtime.h) with CUDA::cudart$([ $lib = static ] && echo _static): builds and runs"
    fi
done

step configure-cxx cmake -S "$p" -B as_cxx -DCMAKE_CUDA_COMPILER="$nvcc" \
  -DHOST_AS_CXX=ON &&
  step build-cxx cmake --build as_cxx &&
  step ctest-cxx ctest --test-dir as_cxx --output-on-failure &&
  echo "PASS: with set_source_files_properties(host.c PROPERTIES LANGUAGE CXX), it builds and runs"

real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ] && [ -z "${CUEMU_SKIP_NVCC:-}" ]; then
  # Configured and built as one recorded step (scripts/nvcc_verified.py).
  step nvcc-build nvcc_build driver_cmake_c.sh:project sh -c \
    'cmake -S "$1" -B with_nvcc -DCMAKE_CUDA_COMPILER="$2" &&
     cmake --build with_nvcc' sh "$p" "$real" &&
    echo "PASS: nvcc builds it with host.c as C"
fi

rm -rf "$work"
exit $failed
