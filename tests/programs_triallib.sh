#!/bin/sh
# programs_triallib.sh: the programs of tests/programs/triallib, from a
# trial of NVIDIA's CUDALibrarySamples (cuBLAS, cuRAND, cuSPARSE, cuSOLVER
# and cuFFT samples built with their own CMake and cuemu-nvcc): what those
# samples call that cuemu's libraries refused or answered wrongly, written
# again in their style (blas_emulation.cu: CUDA 13's emulation settings,
# emulated compute types and CUBLAS_GEMM_AUTOTUNE; sparse_capture.cu:
# cusparseSpVV with a host result captured into a graph; fft_jit_callback.cu:
# cuFFT's LTO callbacks from NVRTC's LTO IR), built with
# cuemu-nvcc as one combined program and run.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
PROGRAMS_COMBINE=1 exec sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/triallib"
