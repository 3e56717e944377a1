/*
 * cuemu_solver.h: what the files of cuemu's cuSOLVER (its dense API,
 * libcuemu_cusolver.so, emulator/libs/libs.am) share: cuSOLVER's ABI
 * constants (the values of cusolver_common.h and cublas_api.h, so that the
 * library builds without the CUDA toolkit), the handle, the element types,
 * the complex-double working copy every computation runs on and the path
 * of a computation onto its handle's stream. Only the cuemu_solver*.c files
 * include it.
 */
#ifndef CUEMU_SOLVER_H
#define CUEMU_SOLVER_H

#include <complex.h>
#include <stddef.h>
#include <stdint.h>

#define CUEMU_SOLVER_EXPORT __attribute__((visibility("default")))

/* cusolver_common.h's version (CUSOLVER_VER_MAJOR, _MINOR, _PATCH;
 * CUSOLVER_VERSION is major * 1000 + minor * 100 + patch). */
#define CUEMU_SOLVER_MAJOR 12
#define CUEMU_SOLVER_MINOR 0
#define CUEMU_SOLVER_PATCH 4
#define CUEMU_SOLVER_VERSION 12004

/* cusolverStatus_t (the values cuemu returns). */
typedef enum {
  CUSOLVER_STATUS_SUCCESS = 0,
  CUSOLVER_STATUS_NOT_INITIALIZED = 1,
  CUSOLVER_STATUS_ALLOC_FAILED = 2,
  CUSOLVER_STATUS_INVALID_VALUE = 3,
  CUSOLVER_STATUS_ARCH_MISMATCH = 4,
  CUSOLVER_STATUS_EXECUTION_FAILED = 6,
  CUSOLVER_STATUS_INTERNAL_ERROR = 7,
  CUSOLVER_STATUS_NOT_SUPPORTED = 9
} cusolverStatus_t;

/* cublasFillMode_t, cublasOperation_t, cublasSideMode_t,
 * cusolverEigMode_t. */
enum { CUEMU_LOWER = 0, CUEMU_UPPER = 1 };
enum { CUEMU_OP_N = 0, CUEMU_OP_T = 1, CUEMU_OP_C = 2 };
enum { CUEMU_SIDE_LEFT = 0, CUEMU_SIDE_RIGHT = 1 };
enum { CUEMU_EIG_NOVECTOR = 0, CUEMU_EIG_VECTOR = 1 };
/* cusolverDeterministicMode_t, cusolverMathMode_t */
enum { CUEMU_DETERMINISTIC = 1, CUEMU_NON_DETERMINISTIC = 2 };
enum { CUEMU_DEFAULT_MATH = 1, CUEMU_BF16X9_MATH = 2 };
/* cudaDataType values of the four element types (the generic API). */
enum {
  CUEMU_DT_R_32F = 0,
  CUEMU_DT_R_64F = 1,
  CUEMU_DT_C_32F = 4,
  CUEMU_DT_C_64F = 5
};
/* cusolverDnFunction_t's CUSOLVERDN_GETRF and cusolverAlgMode_t's 0 and
 * 1, the only settings cusolverDnSetAdvOptions takes. */
enum { CUEMU_DN_GETRF = 0 };

/* ---- Handles ---------------------------------------------------------------
 */

typedef struct cusolverDnContext {
  int device;
  void *stream;
  int deterministic, math;
  int emulation; /* cudaEmulationStrategy_t, kept and read back */
} * cusolverDnHandle_t;

/* cusolverDnParams_t: the generic API's options, all default. */
typedef struct cusolverDnParams {
  int getrf_alg;
} * cusolverDnParams_t;

/* ---- Elements
 * ----------------------------------------------------------------
 */

/* The four element types of the S, D, C and Z functions. */
typedef enum {
  CUEMU_SOLVER_S,
  CUEMU_SOLVER_D,
  CUEMU_SOLVER_C,
  CUEMU_SOLVER_Z
} cuemu_solver_type;

/* The working element: every computation runs in complex double on a copy
 * (the real types keep a zero imaginary part throughout). */
typedef double complex cuemu_solver_value;

/* A workspace-size query (every _bufferSize): cuemu's solvers work on
 * their own copies and need no workspace, so the size is one element, that
 * a program's allocation of it is not empty; a handle of NULL is not
 * initialised, a bad argument (`bad`) or a NULL lwork an invalid value. */
cusolverStatus_t cuemu__solver_work_size(cusolverDnHandle_t h, int bad,
                                         int *lwork);

/* The bytes of one element of `type`; of its real counterpart. */
size_t cuemu__solver_size(cuemu_solver_type type);
size_t cuemu__solver_real_size(cuemu_solver_type type);
int cuemu__solver_is_complex(cuemu_solver_type type);
/* The element type of a cudaDataType (the generic API); -1 for the others. */
int cuemu__solver_from_data_type(int data_type);

/* Stores `value` at info[i] (a devInfo array in device memory), written
 * as its kernel's store is (cuemu_rt_library_wrote(): initcheck). */
void cuemu__solver_info_set(int *info, int64_t i, int value);

/* Element i of the array p of `type`, and storing v there. */
cuemu_solver_value cuemu__solver_load(const void *p, cuemu_solver_type type,
                                      int64_t i);
void cuemu__solver_store(void *p, cuemu_solver_type type, int64_t i,
                         cuemu_solver_value v);
/* Storing the real number v at element i of the real array p of `type`'s
 * precision (singular values, eigenvalues). */
void cuemu__solver_store_real(void *p, cuemu_solver_type type, int64_t i,
                              double v);

/* A rows x cols column-major matrix of `type` at p with leading dimension
 * ld, copied into a new dense working matrix (leading dimension rows);
 * NULL when out of memory. And the copy written back. */
cuemu_solver_value *cuemu__solver_get(const void *p, cuemu_solver_type type,
                                      int64_t rows, int64_t cols, int64_t ld);
void cuemu__solver_put(void *p, cuemu_solver_type type, int64_t rows,
                       int64_t cols, int64_t ld, const cuemu_solver_value *a);
/* Only the triangle uplo names (with the diagonal) of the dense n x n a
 * written back, as LAPACK's factorizations write. */
void cuemu__solver_put_triangle(void *p, cuemu_solver_type type, int64_t n,
                                int64_t ld, int uplo,
                                const cuemu_solver_value *a);

/* The object of syevj's and gesvdj's settings (syevjInfo_t, gesvdjInfo_t:
 * tolerance, 0 for the default, the element type's machine epsilon; the
 * maximum of sweeps, 100 by default; sorting) and the report of the last
 * call that ran with it (residual, executed sweeps; batched when that call
 * was a batched one, which has none). */
typedef struct cuemu_solver_jacobi {
  double tol;
  int max_sweeps, sort;
  double residual;
  int sweeps, batched;
} cuemu_solver_jacobi;

/* The tolerance a call with j runs with: j's, or the element type's
 * machine epsilon (cuSOLVER's default). */
double cuemu__solver_jacobi_tolerance(const cuemu_solver_jacobi *j,
                                      cuemu_solver_type type);

/* The limits a Jacobi solver runs under and what it reports: tol relative
 * to the matrix's norm, the sweeps it may make; sweeps done and the
 * residual on return. */
typedef struct {
  double tol;
  int max_sweeps;
  int unsorted; /* the results in the order the sweeps leave them */
  int sweeps;
  double residual;
} cuemu_solver_sweeps;

/* The eigenvalues a selective eigen-solver (syevdx, sygvdx, Xsyevdx)
 * keeps: `range` is cusolverEigRange_t (CUEMU_RANGE_*; 0 in a call that
 * keeps all), the interval (vl, vu] or the 1-based indices il..iu of the
 * ascending eigenvalues; their count goes to meig, the host's int, or
 * int64_t when meig64 is set. */
enum { CUEMU_RANGE_ALL = 1001, CUEMU_RANGE_I = 1002, CUEMU_RANGE_V = 1003 };
typedef struct {
  int range;
  double vl, vu;
  int64_t il, iu;
  void *meig;
  int meig64;
} cuemu_solver_range;

/* The argument of a selective call that is wrong, as LAPACK's syevx counts
 * them: 1 the range, 2 the interval (vu <= vl, for an n > 0), 3 il (less
 * than 1, more than max(1, n)), 4 iu (less than min(n, il), more than n);
 * 0 when they are right. */
int cuemu__solver_range_bad(const cuemu_solver_range *r, int64_t n);
/* Keeps r's part of the n ascending eigenvalues w: moves it to w[0..m),
 * writes m to r's meig (r->range 0: all, no meig) and returns m; *first is
 * the index the kept ones had in w, where their vectors are. */
int64_t cuemu__solver_range_keep(const cuemu_solver_range *r, double *w,
                                 int64_t n, int64_t *first);
/* Writes m to r's meig (nothing when r keeps all). */
void cuemu__solver_range_count(const cuemu_solver_range *r, int64_t m);

/* ---- The path onto the stream
 * ------------------------------------------------
 */

/* One computation, run in its stream's order: run(data), then data is
 * freed with free(). */
typedef void (*cuemu_solver_run)(void *data);

/* One call's arguments, as its run in stream order reads them: the
 * matrices are device memory, with their leading dimensions; `pivots` is
 * int (ipiv64 0) or int64_t (1), NULL for none. */
typedef struct {
  cuemu_solver_type type;
  int op, uplo, side, vectors;
  signed char jobu, jobvt;
  int64_t m, n, k, nrhs;
  void *a, *b, *tau, *s, *u, *vt;
  int64_t lda, ldb, ldu, ldvt;
  void *pivots;
  int ipiv64;
  int *info;
  /* syevj and gesvdj: their settings and where the run reports (NULL for
   * the other calls); econ for gesvdj's thin U and V. */
  struct cuemu_solver_jacobi *jacobi;
  double tol;
  int max_sweeps, econ;
  /* syevjBatched and gesvdjBatched: the count of matrices (0: not a
   * batched call) and whether their results stay unsorted. */
  int64_t batch;
  int unsorted;
  /* sygvd and sygvj: the problem type (cusolverEigType_t, 1 to 3). */
  int itype;
  /* Xtrtri: a unit diagonal (cublasDiagType_t's CUBLAS_DIAG_UNIT). */
  int unit;
  /* syevdx, sygvdx and Xsyevdx: the eigenvalues kept (range 0 for the
   * other calls, which keep all). */
  cuemu_solver_range select;
} cuemu_solver_call;

/* The 1-based pivots ipiv[0..count) written to the call's device pivots,
 * int or int64_t (call->ipiv64); nothing when it has none. */
void cuemu__solver_put_pivots(const cuemu_solver_call *call,
                              const int64_t *ipiv, int64_t count);

/* Copies *call and enqueues run on it (cuemu__solver_submit). */
cusolverStatus_t cuemu__solver_enqueue(cusolverDnHandle_t h,
                                       void (*run)(void *call),
                                       const cuemu_solver_call *call);
/* The same and, for a selective call (call->select.range set), waits for
 * the stream: its meig is the host's. */
cusolverStatus_t cuemu__solver_range_enqueue(cusolverDnHandle_t h,
                                             void (*run)(void *call),
                                             const cuemu_solver_call *call);

/* Enqueues run(data) on h's stream (kept by a graph being captured);
 * data is malloc'ed and taken over, freed after the run (or at once when
 * the enqueue fails). */
cusolverStatus_t cuemu__solver_submit(cusolverDnHandle_t h,
                                      cuemu_solver_run run, void *data);

/* Checks the device memory a call names (cuemu__libs_device_range: a range
 * that is not device memory is a sticky fault and 0). */
int cuemu__solver_check(const char *name, const char *arg, const void *p,
                        size_t bytes);
/* The same for a column-major rows x cols matrix with leading dimension
 * ld; for a devInfo (NULL passes). */
int cuemu__solver_check_matrix(const char *name, const char *arg, const void *p,
                               int64_t rows, int64_t cols, int64_t ld,
                               size_t element);
int cuemu__solver_check_info(const char *name, int *info);
/* Whether op applies a Q of reflectors as cuSOLVER's ormqr and ormtr take
 * it: N, C, and T for the real types (C is T for them too). */
int cuemu__solver_q_op(cuemu_solver_type type, int op);
/* The bytes a column-major rows x cols matrix with leading dimension ld
 * spans. */
size_t cuemu__solver_span(int64_t rows, int64_t cols, int64_t ld,
                          size_t element);

/* A combination of data types the 64-bit generic API does not take here:
 * prints "cuemu: <name>: ... is not emulated" on stderr and gives
 * CUSOLVER_STATUS_NOT_SUPPORTED. */
cusolverStatus_t cuemu__solver_unsupported(const char *name);
/* The element type of a generic eigen-solver's or SVD's A when the other
 * types agree with it: W's or S's the real counterpart, the compute type
 * A's own; -1 otherwise. */
int cuemu__solver_spectral_type(int type_a, int type_real, int compute);
/* A generic API's bufferSize for element type t (-1: unsupported):
 * one element's bytes on the device, none on the host. */
cusolverStatus_t cuemu__solver_generic_size(cusolverDnHandle_t h,
                                            const char *name, int t,
                                            size_t *device, size_t *host);

/* Writes info into devInfo (device memory) in h's stream order: the
 * argument errors of LAPACK (info = -i for the i-th argument, counting
 * from the first after the handle) go this way, with
 * CUSOLVER_STATUS_INVALID_VALUE returned. */
cusolverStatus_t cuemu__solver_bad_argument(cusolverDnHandle_t h, int *devInfo,
                                            int argument);
/* The checks of a call that begins (uplo, n, A, lda): uplo (LAPACK's
 * argument 1), n (2) and lda (4), each a bad argument (above) when wrong;
 * CUSOLVER_STATUS_SUCCESS when all hold. */
cusolverStatus_t cuemu__solver_check_triangle(cusolverDnHandle_t h, int uplo,
                                              int64_t n, int64_t lda,
                                              int *info);

/* ---- Numerics (on dense working matrices, leading dimension = rows) ---------
 */

/* LU with partial pivoting of the m x n matrix a (ipiv 1-based, NULL for
 * none): LAPACK's info. */
int cuemu__solver_lu(cuemu_solver_value *a, int64_t m, int64_t n,
                     int64_t *ipiv);
/* op(A) X = B with A's LU (n x n), B n x nrhs. */
void cuemu__solver_lu_solve(const cuemu_solver_value *lu, int64_t n,
                            const int64_t *ipiv, int op, cuemu_solver_value *b,
                            int64_t nrhs);
/* Solves op(T) x = b in place for the triangle of t (n x n) that `lower`
 * names, as op transposes it; unit diagonal or not. */
void cuemu__solver_triangular_solve(const cuemu_solver_value *t, int64_t n,
                                    int op, int lower, int unit,
                                    cuemu_solver_value *b);
/* Cholesky of the n x n Hermitian matrix a, uplo's triangle: info. */
int cuemu__solver_cholesky(cuemu_solver_value *a, int64_t n, int uplo);
void cuemu__solver_cholesky_solve(const cuemu_solver_value *f, int64_t n,
                                  int uplo, cuemu_solver_value *b,
                                  int64_t nrhs);

/* Householder QR of the m x n matrix a in LAPACK's form (tau: min(m, n)). */
void cuemu__solver_qr(cuemu_solver_value *a, int64_t m, int64_t n,
                      cuemu_solver_value *tau);
/* LAPACK's larfg: the reflector H = I - tau v v^H (v's unit entry apart)
 * with H^H [alpha; x] = [beta; 0], beta real; x (len) becomes v's other
 * entries, *alpha beta; returns tau. */
cuemu_solver_value cuemu__solver_reflector(cuemu_solver_value *alpha,
                                           cuemu_solver_value *x, int64_t len);
/* c (m x n, leading dimension ldc) := (I - tau v v^H) c, v of length m;
 * and c := c (I - tau v v^H), v of length n. */
void cuemu__solver_reflect_left(const cuemu_solver_value *v,
                                cuemu_solver_value tau, cuemu_solver_value *c,
                                int64_t m, int64_t n, int64_t ldc);
void cuemu__solver_reflect_right(const cuemu_solver_value *v,
                                 cuemu_solver_value tau, cuemu_solver_value *c,
                                 int64_t m, int64_t n, int64_t ldc);
/* Applies Q = H(1) ... H(k) of the reflectors in v (nv x k, the length of
 * each reflector nv) to the m x n matrix c from `side`, op N, T or C. */
void cuemu__solver_apply_q(const cuemu_solver_value *v, int64_t nv, int64_t k,
                           const cuemu_solver_value *tau, int side, int op,
                           int real, cuemu_solver_value *c, int64_t m,
                           int64_t n);

/* Fills the n x n a's other triangle from uplo's (conjugated), the
 * diagonal made real: the full Hermitian matrix that triangle stands for. */
void cuemu__solver_hermitian(cuemu_solver_value *a, int64_t n, int uplo);

/* Eigen-decomposition of the n x n Hermitian a (full): w ascending, a's
 * columns the eigenvectors when vectors is set. 0, or 1 when the Jacobi
 * sweeps did not converge. */
int cuemu__solver_eigh(cuemu_solver_value *a, int64_t n, double *w,
                       int vectors);
/* The same under the limits of `ctl` (syevj): converged when the
 * Frobenius norm of the off-diagonal part is at most ctl->tol times A's;
 * ctl->residual is that norm at the end, ctl->sweeps the sweeps made. */
int cuemu__solver_eigh_jacobi(cuemu_solver_value *a, int64_t n, double *w,
                              int vectors, cuemu_solver_sweeps *ctl);
/* SVD of the m x n matrix a (m >= n): s descending (n), u m x m (columns
 * beyond n completed to an orthonormal basis), vt n x n. */
int cuemu__solver_svd(const cuemu_solver_value *a, int64_t m, int64_t n,
                      double *s, cuemu_solver_value *u, cuemu_solver_value *vt);
/* The same under the limits of `ctl` (gesvdj): a pair of columns is
 * orthogonal when |u_p^H u_q| <= ctl->tol |u_p| |u_q|; ctl->residual is
 * the Frobenius norm of U^H A V's off-diagonal part. */
int cuemu__solver_svd_jacobi(const cuemu_solver_value *a, int64_t m, int64_t n,
                             double *s, cuemu_solver_value *u,
                             cuemu_solver_value *vt, cuemu_solver_sweeps *ctl);

/* The syevd-style call (syevd, syevj, syevjBatched, Xsyevd, syevdx,
 * Xsyevdx): checks the arguments and enqueues; jacobi NULL for syevd,
 * batch 0 but for syevjBatched, range NULL but for syevdx (whose range
 * and meig have been checked; the eigenvalues it keeps ascending in W, the
 * vectors in A's first columns). */
cusolverStatus_t cuemu__solver_syevd(cusolverDnHandle_t h,
                                     cuemu_solver_type type, int jobz, int uplo,
                                     int64_t n, void *a, int64_t lda, void *w,
                                     int *info, cuemu_solver_jacobi *jacobi,
                                     int64_t batch,
                                     const cuemu_solver_range *range);
/* The sygvd-style call (sygvd, sygvj, sygvdx): checks the arguments and
 * enqueues; jacobi NULL but for sygvj, range NULL but for sygvdx. */
cusolverStatus_t cuemu__solver_sygv(cusolverDnHandle_t h,
                                    cuemu_solver_type type, int itype, int jobz,
                                    int uplo, int64_t n, void *a, int64_t lda,
                                    void *b, int64_t ldb, void *w, int *info,
                                    cuemu_solver_jacobi *jacobi,
                                    const cuemu_solver_range *range);

/* ---- Iterative refinement (cuemu_solver_irs.c) -----------------------------
 */

/* The lowest precision an iterative-refinement solver may factorize in:
 * the main one's own, single, half, bfloat16 or TF32. */
typedef enum {
  CUEMU_IRS_SAME,
  CUEMU_IRS_SINGLE,
  CUEMU_IRS_HALF,
  CUEMU_IRS_BF16,
  CUEMU_IRS_TF32
} cuemu_solver_low;

/* One gesv (m = n) or gels call: device matrices A (m x n), B (m x nrhs),
 * X (n x nrhs); pivots (gesv's dipiv, NULL for IRSXgesv, which has none),
 * info (device), niters (host). max_iters 0 means 50; no_fallback leaves
 * a refinement that failed as it is (IRSParamsDisableFallback);
 * no_refinement solves once with the low-precision factors
 * (CUSOLVER_IRS_REFINE_NONE). */
typedef struct {
  cuemu_solver_type type;
  cuemu_solver_low low;
  int gels;
  int64_t m, n, nrhs;
  void *a, *b, *x;
  int64_t lda, ldb, ldx;
  int *pivots, *info;
  int *niters;
  int max_iters, no_fallback, no_refinement, expert;
} cuemu_solver_irs;

/* Checks the call's arguments as LAPACK does, enqueues it and waits for
 * the handle's stream (niters is the host's); `name` names the function in
 * messages. */
cusolverStatus_t cuemu__solver_irs(cusolverDnHandle_t h, const char *name,
                                   cuemu_solver_irs c);

#endif /* CUEMU_SOLVER_H */
