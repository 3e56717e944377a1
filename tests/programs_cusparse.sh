#!/bin/sh
# cuemu's cuSPARSE (tests/programs/cusparse, docs/cusparse.md):
# - builds and runs the folder's programs with cuemu-nvcc (programs.sh;
#   each links -lcusparse through its CUEMU_OPTIONS line): a conjugate
#   gradient solver with cuBLAS on one stream (sparse_cg.cu), SpMV and
#   SpMM against a host reference and cublasDgemm in CSR, COO and 1-based
#   64-bit indices, conversions and sparse vectors (sparse_products.cu),
#   triangular solves (sparse_spsv.cu), csrilu02 and csric02 as
#   preconditioners with SpSV (sparse_ilu.cu), status codes and a host
#   array, after Csr2cscEx2, SDDMM, gtsv2 and the BSR and Blocked-ELL
#   formats (sparse_errors.cu with sparse_formats.h, one build);
# - checks that the programs link cuemu's library, not NVIDIA's, also
#   when NVIDIA's libcusparse.so is named by its path, and that the host
#   compiler links the cuemu toolkit's -lcusparse;
# - builds a CMake project linking CUDA::cusparse, and runs it;
# - builds one program with nvcc and NVIDIA's cuSPARSE where there is one
#   (tests/nvcc_kernels.sh compiles all of them).

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
. "$srcdir/tests/library_programs.sh"
library_setup cusparse cuSPARSE cusparse.h
library_path_link "$dir/cmake/version.cu"
library_host_link 'int cusparseGetProperty(int, int *);' \
  'int main(void) { int v = 0; return cusparseGetProperty(0, &v) != 0 || v < 12; }'
library_cmake version
library_nvcc sparse_cg sparse_cg.cu -lcusparse -lcublas
library_finish
