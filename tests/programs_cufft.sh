#!/bin/sh
# cuemu's cuFFT (tests/programs/cufft, docs/cufft.md):
# - builds and runs the folder's programs with cuemu-nvcc (programs.sh;
#   each links -lcufft through its CUEMU_OPTIONS line): 1-D transforms of
#   every type against a direct DFT for lengths with small and prime
#   factors and 1 (fft_accuracy.cu), a convolution through FFTs in stream
#   order (fft_convolution.cu), 2-D and 3-D plans with R2C/C2R roundtrips
#   in and out of place (fft_multidim.cu), the advanced layout and work
#   areas (fft_plan_many.cu), status codes (fft_errors.cu), a host
#   array as input (fft_fault.cu) and executions captured into a graph
#   and replayed (fft_graph.cu), cufftXt's single-GPU calls with half
#   precision (fft_xt.cu), load and store callbacks from __device__
#   function pointers (fft_callbacks.cu), multi-GPU descriptors on one
#   device and, run again, on two (fft_multi_gpu.cu), a spectral Poisson
#   solver (fft_poisson.cu),
#   cuFFTW, FFTW's interface (-lcufftw) on host arrays (fftw_interface.cu);
# - checks that every function cufft.h declares is exported by cuemu's
#   cuFFT, and that the programs link cuemu's library, not NVIDIA's, also
#   when NVIDIA's libcufft.so is named by its path;
# - checks that every function cufftw.h declares is exported by it too;
# - builds a CMake project linking CUDA::cufft, and runs it;
# - builds one program with nvcc and NVIDIA's cuFFT where there is one
#   (tests/nvcc_kernels.sh compiles all of them).

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
. "$srcdir/tests/library_programs.sh"
library_setup cufft cuFFT cufft.h
# fft_multi_gpu.cu again with two emulated devices: its multi-GPU plans.
if CUEMU_DEVICE=count=2 "$work/programs/fft_multi_gpu" >"$work/multi_gpu.out" 2>&1 &&
  grep -qx PASS "$work/multi_gpu.out"; then
  echo "PASS: fft_multi_gpu on two devices"
else
  fail "fft_multi_gpu on two devices: $(tail -3 "$work/multi_gpu.out")"
fi

# exported HEADER NAMES...: every function NAMES lists (HEADER's) is
# exported by cuemu's cuFFT.
library=$builddir_abs/.libs/libcuemu_cufft.so
exported() {
  header=$1
  shift
  missing=
  for f in "$@"; do
    nm -D --defined-only "$library" | awk '{ sub(/@.*/, "", $3); print $3 }' |
      grep -qx "$f" ||
      missing="$missing $f"
  done
  if [ -z "$missing" ]; then
    echo "PASS: the $# functions of $header are exported by libcuemu_cufft.so"
  else
    fail "$header functions not exported:$missing"
  fi
}

# Every function of cufft.h is cuemu's.
# shellcheck disable=SC2046 # one name a word
exported cufft.h $(grep -o 'CUFFTAPI *cufft[A-Za-z0-9_]*' \
  "$toolkit/include/cufft.h" | awk '{print $2}' | sort -u)

# The library a program links: cuemu's, also for NVIDIA's path.
cat >"$work/version.cu" <<'SOURCE'
#include <cstdio>
#include <cufft.h>
int main() {
  int v = 0;
  if (cufftGetVersion(&v) == CUFFT_SUCCESS && v / 1000 == CUFFT_VER_MAJOR)
    std::printf("PASS\n");
  return 0;
}
SOURCE
library_path_link "$work/version.cu"
library_host_link 'int cufftGetVersion(int *);' \
  'int main(void) { int v = 0; return cufftGetVersion(&v) != 0 || v < 12000; }'

# Every function of cufftw.h (cuFFTW, FFTW's interface) is cuemu's too
# (fftw_malloc and fftwf_malloc are declared through a macro).
# shellcheck disable=SC2046 # one name a word
exported cufftw.h $(grep -o 'CUFFTAPI *fftwf*_[A-Za-z0-9_]*' \
  "$toolkit/include/cufftw.h" | awk '{print $2}' | sort -u) fftw_malloc \
  fftwf_malloc

library_cmake convolution
library_nvcc fft_convolution fft_convolution.cu -lcufft
library_finish
