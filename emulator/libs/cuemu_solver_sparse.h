/*
 * cuemu_solver_sparse.h: what the files of cuSOLVER's sparse API
 * (cusolverSp*, cuemu_solver_sparse*.c, in libcuemu_cusolver.so) share:
 * the handle, a CSR matrix as a call gives it, and the direct solver that
 * every solve runs (cuemu_solver_sparse_band.c).
 *
 * The solver: the matrix is reordered by reverse Cuthill-McKee on the
 * pattern of A + A^T (whatever ordering the program asks for: the solution
 * is the same up to rounding), then factored as a band matrix, whose width
 * the ordering keeps small for the matrices such programs solve (2D and 3D
 * grids, finite elements): LU with partial pivoting for the QR and LU
 * solvers (a square system has one solution, which both find), Cholesky
 * (LL^H) for the Cholesky solvers. Values are complex double throughout
 * (cuemu_solver_value), as the dense solvers'.
 */
#ifndef CUEMU_SOLVER_SPARSE_H
#define CUEMU_SOLVER_SPARSE_H

#include <stddef.h>
#include <stdint.h>

#include "cuemu_libs.h"
#include "cuemu_solver.h"

/* cusolverSpHandle_t */
typedef struct cusolverSpContext {
  int device;
  void *stream;
} * cusolverSpHandle_t;

/* cusolverStatus_t's CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED; and
 * cusparseMatrixType_t's CUSPARSE_MATRIX_TYPE_GENERAL, the only type the
 * sparse solvers take. */
enum { CUEMU_SOLVER_MATRIX_TYPE_NOT_SUPPORTED = 8 };
enum { CUEMU_SP_MATRIX_GENERAL = 0 };

/* A CSR matrix of m rows and n columns as a call gives it: 32-bit row
 * offsets and column indices of index base `base`, values of `type`. */
typedef struct {
  int64_t m, n, nnz;
  const int *row_ptr, *col_ind;
  const void *values;
  cuemu_solver_type type;
  int base;
} cuemu_sp_csr;

/* The checks every call with a matrix makes: NOT_INITIALIZED for a NULL
 * handle, INVALID_VALUE for negative sizes, a NULL descriptor or array
 * (of a non-empty matrix), MATRIX_TYPE_NOT_SUPPORTED for a descriptor
 * that is not GENERAL or whose base is neither 0 nor 1. Fills *a. */
cusolverStatus_t cuemu__sp_csr(cusolverSpHandle_t h, int64_t m, int64_t n,
                               int64_t nnz, const struct cusparseMatDescr *d,
                               const void *values, const int *row_ptr,
                               const int *col_ind, cuemu_solver_type type,
                               cuemu_sp_csr *a);

/* The reverse Cuthill-McKee ordering of the symmetric pattern of a's
 * square matrix (A + A^T): p[new] = old, n entries. 0 when out of memory. */
int cuemu__sp_rcm(const cuemu_sp_csr *a, int64_t *p);

/* A factored band matrix: the matrix reordered (perm[new] = old), its
 * lower and upper widths, and either LU with partial pivoting (pivots)
 * in LAPACK's gbtrf storage, or Cholesky's lower factor (cholesky set).
 * `zero` is the first pivot whose magnitude is at most `tol` (or, for
 * Cholesky, not positive), in the original numbering, -1 for none. */
typedef struct {
  int64_t n, kl, ku, ld;
  int cholesky;
  cuemu_solver_value *ab;
  int64_t *perm, *pivots;
  double *pivot_size; /* |U(j,j)| or L(j,j), new numbering */
} cuemu_sp_factor;

/* Factors the square a (its lower triangle alone for Cholesky, the upper
 * taken as its conjugate transpose, as cuSOLVER reads it), shifted by
 * -mu on the diagonal. ALLOC_FAILED when the band does not fit in memory.
 * Free with cuemu__sp_factor_free. */
cusolverStatus_t cuemu__sp_factor(const cuemu_sp_csr *a, int cholesky,
                                  cuemu_solver_value mu, cuemu_sp_factor *f);
void cuemu__sp_factor_free(cuemu_sp_factor *f);

/* The first pivot of f whose size is at most tol, in the original
 * numbering (the row or column index), or -1. */
int cuemu__sp_zero_pivot(const cuemu_sp_factor *f, double tol);

/* x = A^-1 b for the factored A: b and x are arrays of f's n values of
 * `type` (they may be the same array). */
void cuemu__sp_solve(const cuemu_sp_factor *f, cuemu_solver_type type,
                     const void *b, void *x);

/* LU factors made explicit (cuemu_solver_sparse_lu.c): P A Q^T = L U for
 * n x n A, P[i] the original row of row i and Q[j] the original column of
 * column j, L unit lower triangular (its diagonal stored) and U upper
 * triangular in 0-based CSR (rows: n + 1 offsets). */
typedef struct {
  int64_t n;
  int *P, *Q;
  int *l_rows, *l_cols, *u_rows, *u_cols;
  cuemu_solver_value *l_vals, *u_vals;
} cuemu_sp_lu;

/* The explicit factors of the square a, whose band LU f is
 * (cuemu__sp_factor, not Cholesky): the same row order (its pivots), the
 * fill computed row by row. ALLOC_FAILED when out of memory. */
cusolverStatus_t cuemu__sp_lu_explicit(const cuemu_sp_csr *a,
                                       const cuemu_sp_factor *f,
                                       cuemu_sp_lu *lu);
void cuemu__sp_lu_free(cuemu_sp_lu *lu);

/* LU without pivoting of B = P A Q^T onto the pattern of lu's factors
 * (cusolverRf's refactorization): lu's values are recomputed from a's;
 * entries of the elimination outside the pattern are dropped. A pivot of
 * magnitude below `zero` becomes `boost` when boost > 0 (*boosted set);
 * returns the first zero pivot's row (of B), or -1. */
int64_t cuemu__sp_lu_refactor(const cuemu_sp_csr *a, cuemu_sp_lu *lu,
                              double zero, double boost, int *boosted);

/* x = A^-1 b by lu (A = P^T L U Q), b and x of `type` (they may be the
 * same array). */
void cuemu__sp_lu_solve(const cuemu_sp_lu *lu, cuemu_solver_type type,
                        const void *b, void *x);

#endif /* CUEMU_SOLVER_SPARSE_H */
