#!/bin/sh
# host_code.sh: host code that the host compiler compiles itself with the
# cuemu toolkit's include folder (tests/driver/host_code), as CMake's C and
# CXX languages do in a project whose CUDA compiler is cuemu-nvcc:
# - host_cxx11.cpp, compiled with -std=c++11 (CMAKE_CXX_STANDARD 11, as
#   NVIDIA's CUDALibrarySamples set it), includes cuda_runtime.h and the
#   libraries' headers, links -lcudart and -lcurand, and runs. The shims
#   had C++14 forms (a loop in a constexpr function, std::decay_t,
#   std::index_sequence, a deduced return type): 10 errors;
# - host_c.c, a C program (CUDALibrarySamples' cuSPARSE samples are C),
#   includes cuComplex.h, cublas_v2.h, cufft.h, cusolverDn.h and
#   cusparse.h, links -lcudart, -lcusparse and -lcublas, and runs. The
#   shims' cuComplex.h refused C ("the CUDA shims are C++ headers"), and
#   cuda_fp16.h, cuda_bf16.h and library_types.h had no C forms;
# - host_c_fft.c, a C program that includes <cufftXt.h> first (NVIDIA's
#   cufft.h and cuComplex.h then come after the shims' vector_types.h),
#   links -lcufft and runs: "unknown type name '__host__'" before.
# With NVIDIA's headers both build. Both g++/gcc and clang++/clang where
# there is one.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
toolkit=$builddir_abs/.libs/cuemu-toolkit
[ -f "$toolkit/lib64/libcudart.so" ] ||
  tool_missing host_code.sh "$toolkit/lib64/libcudart.so is not built"
[ -f "${CUDA_PATH:-/usr/local/cuda}/include/curand.h" ] ||
  tool_missing host_code.sh "the CUDA toolkit's curand.h is not installed"

work=$builddir_abs/tests/tmp/host_code.$$
mkdir -p "$work" || exit 1
failed=0
d=$srcdir/tests/driver/host_code
src=$d/host_cxx11.cpp
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
for cc in ${CC:-gcc} clang; do
  command -v "$cc" >/dev/null 2>&1 || continue
  cname=$(basename "$cc")
  if step "$cname" "$cc" -std=c99 -Wall -isystem "$toolkit/include" "$d/host_c.c" \
    -o "host_$cname" -L"$toolkit/lib64" -lcudart -lcusparse -lcublas -lm \
    -Wl,-rpath,"$toolkit/lib64"; then
    passes "$cname -std=c99 builds a C program with the libraries' headers, and it runs" \
      "./host_$cname"
  fi
  if step "${cname}_fft" "$cc" -std=c99 -Wall -isystem "$toolkit/include" "$d/host_c_fft.c" \
    -o "host_${cname}_fft" -L"$toolkit/lib64" -lcudart -lcufft -lm \
    -Wl,-rpath,"$toolkit/lib64"; then
    passes "$cname -std=c99 builds a C program that includes <cufftXt.h> first, and it runs" \
      "./host_${cname}_fft"
  fi
done
rm -rf "$work"
[ "$failed" -eq 0 ]
