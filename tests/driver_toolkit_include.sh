#!/bin/sh
# driver_toolkit_include.sh: cuemu's own toolkit include folder
# (cuemu-toolkit/include, links to the shims) named with -I, as FindCUDA's
# CUDA_INCLUDE_DIRS names it when CUDA_TOOLKIT_ROOT_DIR points at cuemu's
# toolkit (an SGEMM tutorial's CMake build), or with -isystem (CMake's
# CUDA::cudart). A shim that reaches the
# header after it with #include_next (<cuda/barrier> reaching libcu++'s)
# must not find itself again through that folder: the program uses
# cuda::barrier and cuda::memcpy_async
# (tests/driver/toolkit_include/barrier_copy.cu). nvcc builds it with the
# real toolkit's include folder. Host code that includes <cuda_runtime.h>
# for the vector types alone (tests/driver/toolkit_include/
# host_vector_types.cpp), compiled and linked by the host compiler with
# that folder and no CUDA library, links and runs, optimised or not, as
# with the real toolkit's folder: the headers once made every such unit
# define functions that call libcuemu (the debugger's view of the built-in
# variables, NVVM's shared-memory pointer), so its link failed.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing driver_toolkit_include.sh "cuemu-nvcc is not built"
toolkit=${CUEMU_LIB_DIR:-$builddir_abs/.libs}/cuemu-toolkit
[ -d "$toolkit/include" ] ||
  tool_missing driver_toolkit_include.sh "$toolkit is not built"
p=$srcdir/tests/driver/toolkit_include
work=$builddir_abs/tests/tmp/driver_toolkit_include.$$
mkdir -p "$work" || exit 1
failed=0

step barrier-I "$nvcc" -I"$toolkit/include" "$p/barrier_copy.cu" \
  -o barrier_I &&
  passes "cuda::barrier with -I naming cuemu-toolkit include" ./barrier_I
step barrier-I-space "$nvcc" -I "$toolkit/include/" -arch=sm_86 \
  "$p/barrier_copy.cu" -o barrier_I_space &&
  passes "cuda::barrier with -I naming cuemu-toolkit include as a separate word with a trailing slash" ./barrier_I_space
step barrier-isystem "$nvcc" -isystem "$toolkit/include" "$p/barrier_copy.cu" \
  -o barrier_isystem &&
  passes "cuda::barrier with -isystem naming cuemu-toolkit include" ./barrier_isystem

for cxx in ${GXX:-g++} ${CLANGXX:-clang++}; do
  command -v "$cxx" >/dev/null 2>&1 || continue
  for opt in -O0 -O2; do
    name=host-types-$(basename "$cxx")$opt
    step "$name" "$cxx" $opt -I"$toolkit/include" \
      "$p/host_vector_types.cpp" -o "$name" &&
      passes "$(basename "$cxx") $opt links host code that includes <cuda_runtime.h> without a CUDA library" "./$name"
  done
done

if [ -n "$(find_nvcc)" ]; then
  real=$(find_nvcc)
  (cd "$work" && nvcc_build driver_toolkit_include.sh:barrier_copy "$real" \
    -arch=sm_90 -I"$(dirname "$(dirname "$real")")/include" \
    "$p/barrier_copy.cu" -o nv_barrier_copy) || fail "nvcc: barrier_copy.cu"
  include=$(dirname "$(dirname "$real")")/include
  step host-types-nvidia "${GXX:-g++}" -I"$include" "$p/host_vector_types.cpp" \
    -o host_types_nvidia &&
    passes "the host compiler links host_vector_types.cpp with the real toolkit's folder" ./host_types_nvidia
else
  echo "SKIP: nvcc builds: no nvcc"
fi

echo "driver_toolkit_include.sh: $failed failed"
[ "$failed" -eq 0 ] && rm -rf "$work"
[ "$failed" -eq 0 ]
