#!/bin/sh
# cuemu's cuSOLVER, its dense and sparse APIs (tests/programs/cusolver,
# docs/cusolver.md):
# - builds and runs the folder's programs with cuemu-nvcc (programs.sh;
#   each links -lcusolver through its CUEMU_OPTIONS line): a linear solver
#   in the style of the samples' cuSolverDn_LinearSolver, Cholesky, LU and
#   QR with cuBLAS on one stream (solver_linear.cu); the sparse API's
#   solvers, orderings, low-level Cholesky, QR and LU with its factors
#   extracted for the refactorization API, cusolverRf (solver_sparse.cu);
#   every factorization in S, D, C and Z and the 64-bit generic API checked by residuals
#   (solver_types.cu); syevd/heevd and gesvd, then syevj/heevj, gesvdj,
#   their batched forms, sygvd/hegvj, Xsyevd, Xgesvd, potrfBatched and
#   potrsBatched (solver_spectral.cu with solver_jacobi.h, one build); bad
#   arguments, singular and indefinite matrices, stream order and a host
#   array (solver_errors.cu); the iterative-refinement <T1><T2>gesv and
#   gels (solver_irs.cu); the selective eigen-solvers syevdx/heevdx,
#   sygvdx/hegvdx and Xsyevdx, then the symmetric indefinite sytrf and
#   Xsytrs, the tridiagonal sytrd/hetrd, orgtr/ungtr and ormtr/unmtr, the
#   bidiagonal gebrd and orgbr/ungbr, the generic Xtrtri and XsyevBatched,
#   Xgesvdp, Xgesvdr and gesvdaStridedBatched, laswp, lauum, Xlarft, the
#   emulation strategy and the logger, Xgeev (solver_selective.cu with
#   solver_indefinite.h, solver_tridiagonal.h, solver_bidiagonal.h,
#   solver_generic.h, solver_svd_variants.h, solver_auxiliary.h and
#   solver_nonsymmetric.h, one build);
# - checks that the programs link cuemu's library, not NVIDIA's, also
#   when NVIDIA's libcusolver.so is named by its path, and that the host
#   compiler links the cuemu toolkit's -lcusolver;
# - builds a CMake project linking CUDA::cusolver, and runs it;
# - builds the smallest program with nvcc and NVIDIA's cuSOLVER where there
#   is one (tests/nvcc_kernels.sh compiles all of them, with their
#   NVCC_OPTIONS -lcusolver).

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
. "$srcdir/tests/library_programs.sh"
library_setup cusolver cuSOLVER cusolverDn.h
library_path_link "$dir/cmake/version.cu"
library_host_link 'int cusolverGetProperty(int, int *);' \
  'int main(void) { int v = 0; return cusolverGetProperty(0, &v) != 0 || v < 12; }'
library_cmake version
library_nvcc version.cu cmake/version.cu -lcusolver -lcublas
library_finish
