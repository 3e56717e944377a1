#!/bin/sh
# driver_toolkit_cccl_folder.sh: cuemu-toolkit/include/cccl, the folder
# where CUDA 13's toolkit keeps CCCL. A public SPH project's
# CMakeLists.txt finds Thrust with find_path(... PATHS
# ${CUDAToolkit_INCLUDE_DIRS}/cccl), and its configure failed ("set to
# NOTFOUND") with CMAKE_CUDA_COMPILER=cuemu-nvcc: cuemu's toolkit had no
# cccl/. A CMake project that looks there is configured
# (tests/driver/toolkit_cccl_folder/CMakeLists.txt), and a program built
# with -I naming that folder, as a Makefile's -I$(CUDA_PATH)/include/cccl
# does, runs (that one built before the folder existed too: cuemu-nvcc
# finds CCCL past its own toolkit). nvcc builds the program with its own
# toolkit's folder.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] ||
  tool_missing driver_toolkit_cccl_folder.sh "cuemu-nvcc is not built"
toolkit=${CUEMU_LIB_DIR:-$builddir_abs/.libs}/cuemu-toolkit
[ -d "$toolkit/include" ] ||
  tool_missing driver_toolkit_cccl_folder.sh "$toolkit is not built"
real=$(find_nvcc 2>/dev/null)
cccl=
for d in "${real:+$(dirname "$(dirname "$real")")}" /usr/local/cuda; do
  if [ -n "$d" ] && [ -f "$d/include/cccl/thrust/version.h" ]; then
    cccl=$d/include/cccl
    break
  fi
done
[ -n "$cccl" ] ||
  tool_missing driver_toolkit_cccl_folder.sh "no CUDA toolkit with include/cccl"
p=$srcdir/tests/driver/toolkit_cccl_folder
work=$builddir_abs/tests/tmp/driver_toolkit_cccl_folder.$$
mkdir -p "$work" || exit 1
failed=0

if [ -f "$toolkit/include/cccl/thrust/version.h" ]; then
  echo "PASS: $toolkit/include/cccl has thrust/version.h"
else
  fail "$toolkit/include/cccl has no thrust/version.h"
fi

if command -v cmake >/dev/null 2>&1; then
  step cmake-configure env PATH="$toolkit/bin:$PATH" cmake -S "$p" \
    -B cmake -DCUDAToolkit_ROOT="$toolkit" &&
    if grep -q "CCCL_INCLUDE_DIR=$toolkit/include/cccl" \
        "$work/cmake-configure.log"; then
      echo "PASS: find_path finds thrust/version.h in CUDAToolkit_INCLUDE_DIRS/cccl"
    else
      fail "CCCL_INCLUDE_DIR is not $toolkit/include/cccl: $(grep CCCL_ "$work/cmake-configure.log")"
    fi
else
  echo "SKIP: cmake is not installed"
fi

step build-I "$nvcc" -I"$toolkit/include/cccl" "$p/cccl_version.cu" \
  -o cccl_version &&
  passes "-I naming cuemu-toolkit's CCCL folder, Thrust's version and cuda::std::array" \
    ./cccl_version

if [ -n "$real" ] && [ -z "${CUEMU_SKIP_NVCC:-}" ]; then
  (cd "$work" && nvcc_build driver_toolkit_cccl_folder.sh:cccl_version "$real" \
    -I"$cccl" "$p/cccl_version.cu" -o nv_cccl_version) ||
    fail "nvcc: cccl_version.cu"
else
  echo "SKIP: nvcc builds: no nvcc"
fi

echo "driver_toolkit_cccl_folder.sh: $failed failed"
[ "$failed" -eq 0 ] && rm -rf "$work"
[ "$failed" -eq 0 ]
