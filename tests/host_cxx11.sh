#!/bin/sh
# host_cxx11.sh: a .cpp file that the host compiler compiles itself with
# -std=c++11 and the cuemu toolkit's include folder (as CMake's CXX
# language does for a target linking CUDA::cudart, with
# CMAKE_CXX_STANDARD 11, as NVIDIA's CUDALibrarySamples set it) includes
# cuda_runtime.h and the libraries' headers, links the toolkit's
# -lcudart and -lcurand, and runs (tests/driver/host_cxx11). With NVIDIA's
# headers this builds; the shims had C++14 forms (a loop in a constexpr
# function, std::decay_t, std::index_sequence, a deduced return type):
# 10 errors. Both g++ and clang++ where there is one.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
toolkit=$builddir_abs/.libs/cuemu-toolkit
[ -f "$toolkit/lib64/libcudart.so" ] ||
  tool_missing host_cxx11.sh "$toolkit/lib64/libcudart.so is not built"
[ -f "${CUDA_PATH:-/usr/local/cuda}/include/curand.h" ] ||
  tool_missing host_cxx11.sh "the CUDA toolkit's curand.h is not installed"

work=$builddir_abs/tests/tmp/host_cxx11.$$
mkdir -p "$work" || exit 1
failed=0
src=$srcdir/tests/driver/host_cxx11/host_cxx11.cpp
for cxx in ${GXX:-g++} ${CLANGXX:-clang++}; do
  command -v "$cxx" >/dev/null 2>&1 || continue
  name=$(basename "$cxx")
  if step "$name" "$cxx" -std=c++11 -Wall -isystem "$toolkit/include" "$src" \
    -o "host_$name" -L"$toolkit/lib64" -lcudart -lcurand \
    -Wl,-rpath,"$toolkit/lib64"; then
    passes "$name -std=c++11 builds host code with the toolkit's headers, and it runs" \
      "./host_$name"
  fi
done
rm -rf "$work"
[ "$failed" -eq 0 ]
