/*
 * cuemu_blas_level1.c: cuBLAS's level 1 (axpy, dot, nrm2, asum, scal,
 * copy, swap, iamax, iamin, rot) for S, D, C and Z. One operation record
 * and one routine serve every type: elements are loaded and stored through
 * double complex (sums are therefore taken in double precision).
 */
#include <math.h>
#include <stdlib.h>

#include "cuemu_blas.h"

enum kind { AXPY, DOT, NRM2, ASUM, SCAL, COPY, SWAP, IAMAX, IAMIN, ROT };

typedef struct l1_op {
  cuemu_blas_op base;
  enum kind kind;
  int t, rt, st; /* the vectors', the result's and the scalars' types */
  int conj;      /* dotc */
  int64_t n, incx, incy;
  void *x, *y, *result;
  const void *alpha, *s; /* alpha (axpy, scal); c and s (rot) */
} l1_op;

/* The offset of element i of a vector of n elements with increment inc
 * (BLAS: a negative increment walks from the end). */
static int64_t at(int64_t i, int64_t n, int64_t inc) {
  return inc >= 0 ? i * inc : (n - 1 - i) * -inc;
}

static double abs1(double complex v) { return fabs(creal(v)) + fabs(cimag(v)); }

static void run_l1(cuemu_blas_op *base) {
  l1_op *o = (l1_op *)base;
  int64_t n = o->n;
  int t = o->t;
  double complex r = 0;
  switch (o->kind) {
  case AXPY: {
    double complex a = cuemu__blas_load(o->st, o->alpha, 0);
    /* BLAS: alpha 0 leaves y as it is (x is not read: a NaN there does
     * not reach y). */
    for (int64_t i = 0; a != 0 && i < n; ++i) {
      int64_t yi = at(i, n, o->incy);
      cuemu__blas_store(t, o->y, yi,
                        cuemu__blas_load(t, o->y, yi) +
                            a * cuemu__blas_load(t, o->x, at(i, n, o->incx)));
    }
    return;
  }
  case DOT:
    for (int64_t i = 0; i < n; ++i) {
      double complex xv = cuemu__blas_load(t, o->x, at(i, n, o->incx));
      r += (o->conj ? conj(xv) : xv) *
           cuemu__blas_load(t, o->y, at(i, n, o->incy));
    }
    break;
  case NRM2: {
    /* Scaled, so that neither overflow nor underflow spoils the sum. A
     * NaN anywhere makes the norm NaN (as reference BLAS's nrm2), which
     * fmax() alone would drop; an infinity with no NaN makes it +inf. */
    double scale = 0, sum = 0;
    int nan = 0;
    for (int64_t i = 0; i < n; ++i) {
      double complex v = cuemu__blas_load(t, o->x, i * o->incx);
      nan |= isnan(creal(v)) || isnan(cimag(v));
      scale = fmax(scale, fmax(fabs(creal(v)), fabs(cimag(v))));
    }
    if (nan)
      scale = NAN;
    if (scale > 0 && isfinite(scale))
      for (int64_t i = 0; i < n; ++i) {
        double complex v = cuemu__blas_load(t, o->x, i * o->incx) / scale;
        sum += creal(v) * creal(v) + cimag(v) * cimag(v);
      }
    r = isfinite(scale) ? scale * sqrt(sum) : scale;
    break;
  }
  case ASUM:
    for (int64_t i = 0; i < n; ++i)
      r += abs1(cuemu__blas_load(t, o->x, i * o->incx));
    break;
  case SCAL: {
    double complex a = cuemu__blas_load(o->st, o->alpha, 0);
    for (int64_t i = 0; i < n; ++i)
      cuemu__blas_store(t, o->x, i * o->incx,
                        a * cuemu__blas_load(t, o->x, i * o->incx));
    return;
  }
  case COPY:
    for (int64_t i = 0; i < n; ++i)
      cuemu__blas_store(t, o->y, at(i, n, o->incy),
                        cuemu__blas_load(t, o->x, at(i, n, o->incx)));
    cuemu__blas_vector_wrote(o->y, n, o->incy, cuemu__blas_type_size(t));
    return;
  case SWAP:
    for (int64_t i = 0; i < n; ++i) {
      int64_t xi = at(i, n, o->incx), yi = at(i, n, o->incy);
      double complex xv = cuemu__blas_load(t, o->x, xi);
      cuemu__blas_store(t, o->x, xi, cuemu__blas_load(t, o->y, yi));
      cuemu__blas_store(t, o->y, yi, xv);
    }
    return;
  case IAMAX:
  case IAMIN: {
    /* The first (1-based) index of the largest or smallest |re| + |im|. */
    int64_t best = 0;
    double bv = 0;
    for (int64_t i = 0; i < n; ++i) {
      double v = abs1(cuemu__blas_load(t, o->x, i * o->incx));
      if (i == 0 || (o->kind == IAMAX ? v > bv : v < bv))
        best = i, bv = v;
    }
    r = n > 0 ? (double)(best + 1) : 0;
    break;
  }
  case ROT: {
    double c = creal(cuemu__blas_load(o->rt, o->alpha, 0));
    double complex s = cuemu__blas_load(o->st, o->s, 0);
    for (int64_t i = 0; i < n; ++i) {
      int64_t xi = at(i, n, o->incx), yi = at(i, n, o->incy);
      double complex xv = cuemu__blas_load(t, o->x, xi),
                     yv = cuemu__blas_load(t, o->y, yi);
      cuemu__blas_store(t, o->x, xi, c * xv + s * yv);
      cuemu__blas_store(t, o->y, yi, c * yv - conj(s) * xv);
    }
    return;
  }
  }
  cuemu__blas_store(o->rt, o->result, 0, r);
  cuemu__blas_vector_wrote(o->result, 1, 1, cuemu__blas_type_size(o->rt));
}

/* Checks, records and enqueues one level 1 call; for a result to host
 * memory, waits for it. */
static cublasStatus_t l1c(cublasHandle_t h, const char *name, enum kind kind,
                          int t, int64_t n, const void *alpha, int st,
                          const void *x, int64_t incx, const void *y,
                          int64_t incy, void *result, int rt, int conj) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  int has_result = kind == DOT || kind == NRM2 || kind == ASUM ||
                   kind == IAMAX || kind == IAMIN;
  int has_y = kind == AXPY || kind == DOT || kind == COPY || kind == SWAP ||
              kind == ROT;
  if (has_result && !result)
    return CUBLAS_STATUS_INVALID_VALUE;
  int device = h->pointer_mode == CUBLAS_POINTER_MODE_DEVICE;
  /* Calls that read x only with a positive increment: nothing to do for
   * n <= 0 or incx <= 0 but to write the result 0. */
  int strided = kind == NRM2 || kind == ASUM || kind == SCAL || kind == IAMAX ||
                kind == IAMIN;
  if (n <= 0 || (strided && incx <= 0)) {
    if (!has_result)
      return CUBLAS_STATUS_SUCCESS;
    if (!device) {
      cuemu__blas_store(rt, result, 0, 0);
      return CUBLAS_STATUS_SUCCESS;
    }
    n = 0;
  }
  if ((kind == AXPY || kind == SCAL || kind == ROT) && !alpha)
    return CUBLAS_STATUS_INVALID_VALUE;
  l1_op *o = (l1_op *)cuemu__blas_op_new(sizeof *o, name, run_l1);
  if (!o)
    return CUBLAS_STATUS_ALLOC_FAILED;
  o->kind = kind, o->t = t, o->rt = rt, o->st = st, o->conj = conj;
  o->n = n, o->incx = incx, o->incy = incy;
  o->x = (void *)x, o->y = (void *)y, o->result = result;
  size_t es = cuemu__blas_type_size(t);
  int ok = 1;
  if (kind == ROT) {
    /* alpha is c (a real) and `result` is s. */
    o->alpha =
        cuemu__blas_scalar(h, &o->base, 0, alpha, cuemu__blas_type_size(rt));
    o->s =
        cuemu__blas_scalar(h, &o->base, 1, result, cuemu__blas_type_size(st));
    o->result = NULL;
    if (device)
      ok = cuemu__libs_device_range(name, "c", alpha,
                                    cuemu__blas_type_size(rt)) &&
           cuemu__libs_device_range(name, "s", result,
                                    cuemu__blas_type_size(st));
  } else if (alpha) {
    o->alpha =
        cuemu__blas_scalar(h, &o->base, 0, alpha, cuemu__blas_type_size(st));
    if (device)
      ok = cuemu__libs_device_range(name, "alpha", alpha,
                                    cuemu__blas_type_size(st));
  }
  if (ok && has_result && device)
    ok = cuemu__libs_device_range(name, "result", result,
                                  cuemu__blas_type_size(rt));
  if (ok && n > 0)
    ok = cuemu__libs_device_range(name, "x", x,
                                  cuemu__blas_vector_bytes(n, incx, es)) &&
         (!has_y || cuemu__libs_device_range(
                        name, "y", y, cuemu__blas_vector_bytes(n, incy, es)));
  if (!ok) {
    free(o);
    return CUBLAS_STATUS_SUCCESS;
  }
  cublasStatus_t status = cuemu__blas_submit(h, &o->base);
  if (status == CUBLAS_STATUS_SUCCESS && has_result && !device)
    status = cuemu__blas_wait(h, name);
  return status;
}

static cublasStatus_t l1(cublasHandle_t h, const char *name, enum kind kind,
                         int t, int64_t n, const void *alpha, int st,
                         const void *x, int64_t incx, const void *y,
                         int64_t incy, void *result, int rt) {
  return l1c(h, name, kind, t, n, alpha, st, x, incx, y, incy, result, rt, 0);
}

#define CUEMU_AXPY_DEF(NAME, I, T, TYPE, ...)                                  \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(cublasHandle_t h, I n, const T *alpha, \
                                        const T *x, I incx, T *y, I incy) {    \
    return l1(h, #NAME, AXPY, TYPE, n, alpha, TYPE, x, incx, y, incy, NULL,    \
              TYPE);                                                           \
  }
#define CUEMU_AXPY(...) CUEMU_BLAS_ILP64(CUEMU_AXPY_DEF, __VA_ARGS__)
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_AXPY, axpy_v2)

/* dot, dotu and dotc (the conjugate of x). */
static cublasStatus_t dot(cublasHandle_t h, const char *name, int t, int conj,
                          int64_t n, const void *x, int64_t incx, const void *y,
                          int64_t incy, void *result) {
  return l1c(h, name, DOT, t, n, NULL, t, x, incx, y, incy, result, t, conj);
}
#define CUEMU_DOT_DEF(NAME, I, T, TYPE, R, RTYPE, CONJ, ...)                   \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(cublasHandle_t h, I n, const T *x,     \
                                        I incx, const T *y, I incy,            \
                                        T *result) {                           \
    return dot(h, #NAME, TYPE, CONJ, n, x, incx, y, incy, result);             \
  }
#define CUEMU_DOT(...) CUEMU_BLAS_ILP64(CUEMU_DOT_DEF, __VA_ARGS__)
CUEMU_BLAS_SD(CUEMU_BLAS_TYPED, CUEMU_DOT, dot_v2, 0)
CUEMU_BLAS_CZ(CUEMU_BLAS_TYPED, CUEMU_DOT, dotu_v2, 0)
CUEMU_BLAS_CZ(CUEMU_BLAS_TYPED, CUEMU_DOT, dotc_v2, 1)

/* R is the result's type; the index of iamax and iamin is an I. */
/* The names of the forms with two letters: complex vectors with real
 * results or scalars (Scnrm2, Csscal, ...), and the indices (Isamax,
 * ...); X as CUEMU_BLAS_SDCZ's. */
#define CUEMU_BLAS_REAL_OF_COMPLEX(X, ...)                                     \
  X(Sc, float complex, CUEMU_C_32F, float, CUEMU_R_32F, __VA_ARGS__)           \
  X(Dz, double complex, CUEMU_C_64F, double, CUEMU_R_64F, __VA_ARGS__)
#define CUEMU_BLAS_COMPLEX_BY_REAL(X, ...)                                     \
  X(Cs, float complex, CUEMU_C_32F, float, CUEMU_R_32F, __VA_ARGS__)           \
  X(Zd, double complex, CUEMU_C_64F, double, CUEMU_R_64F, __VA_ARGS__)
#define CUEMU_BLAS_INDEXED(X, ...)                                             \
  X(Is, float, CUEMU_R_32F, float, CUEMU_R_32F, __VA_ARGS__)                   \
  X(Id, double, CUEMU_R_64F, double, CUEMU_R_64F, __VA_ARGS__)                 \
  X(Ic, float complex, CUEMU_C_32F, float, CUEMU_R_32F, __VA_ARGS__)           \
  X(Iz, double complex, CUEMU_C_64F, double, CUEMU_R_64F, __VA_ARGS__)

/* nrm2 and asum (a result of the real type R); iamax and iamin (an index
 * of the integer type I). */
#define CUEMU_REDUCE_DEF(NAME, I, T, TYPE, RES, RESTYPE, KIND)                 \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(cublasHandle_t h, I n, const T *x,     \
                                        I incx, RES *result) {                 \
    return l1(h, #NAME, KIND, TYPE, n, NULL, TYPE, x, incx, NULL, 0, result,   \
              RESTYPE);                                                        \
  }
#define CUEMU_NORM(NAME, T, TYPE, R, RTYPE, KIND, ...)                         \
  CUEMU_BLAS_ILP64(CUEMU_REDUCE_DEF, NAME, T, TYPE, R, RTYPE, KIND)
#define CUEMU_INDEX_DEF(NAME, I, T, TYPE, KIND)                                \
  CUEMU_REDUCE_DEF(NAME, I, T, TYPE, I, CUEMU_BLAS_INT_TYPE(I), KIND)
#define CUEMU_INDEX(NAME, T, TYPE, R, RTYPE, KIND, ...)                        \
  CUEMU_BLAS_ILP64(CUEMU_INDEX_DEF, NAME, T, TYPE, KIND)
CUEMU_BLAS_SD(CUEMU_BLAS_TYPED, CUEMU_NORM, nrm2_v2, NRM2)
CUEMU_BLAS_REAL_OF_COMPLEX(CUEMU_BLAS_TYPED, CUEMU_NORM, nrm2_v2, NRM2)
CUEMU_BLAS_SD(CUEMU_BLAS_TYPED, CUEMU_NORM, asum_v2, ASUM)
CUEMU_BLAS_REAL_OF_COMPLEX(CUEMU_BLAS_TYPED, CUEMU_NORM, asum_v2, ASUM)
CUEMU_BLAS_INDEXED(CUEMU_BLAS_TYPED, CUEMU_INDEX, amax_v2, IAMAX)
CUEMU_BLAS_INDEXED(CUEMU_BLAS_TYPED, CUEMU_INDEX, amin_v2, IAMIN)

/* scal, and Csscal and Zdscal with a real alpha. */
#define CUEMU_SCAL_DEF(NAME, I, A, T, TYPE, ATYPE)                             \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(cublasHandle_t h, I n, const A *alpha, \
                                        T *x, I incx) {                        \
    return l1(h, #NAME, SCAL, TYPE, n, alpha, ATYPE, x, incx, NULL, 0, NULL,   \
              TYPE);                                                           \
  }
#define CUEMU_SCAL(NAME, T, TYPE, R, RTYPE, ...)                               \
  CUEMU_BLAS_ILP64(CUEMU_SCAL_DEF, NAME, T, T, TYPE, TYPE)
#define CUEMU_REAL_SCAL(NAME, T, TYPE, R, RTYPE, ...)                          \
  CUEMU_BLAS_ILP64(CUEMU_SCAL_DEF, NAME, R, T, TYPE, RTYPE)
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_SCAL, scal_v2)
CUEMU_BLAS_COMPLEX_BY_REAL(CUEMU_BLAS_TYPED, CUEMU_REAL_SCAL, scal_v2)

#define CUEMU_PAIR_DEF(NAME, I, T, TYPE, R, RTYPE, KIND, ...)                  \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(cublasHandle_t h, I n, const T *x,     \
                                        I incx, T *y, I incy) {                \
    return l1(h, #NAME, KIND, TYPE, n, NULL, TYPE, x, incx, y, incy, NULL,     \
              TYPE);                                                           \
  }
#define CUEMU_PAIR(...) CUEMU_BLAS_ILP64(CUEMU_PAIR_DEF, __VA_ARGS__)
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_PAIR, copy_v2, COPY)
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_PAIR, swap_v2, SWAP)

#define CUEMU_ROT_DEF(NAME, I, T, C, S, TYPE, CTYPE, STYPE)                    \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(cublasHandle_t h, I n, T *x, I incx,   \
                                        T *y, I incy, const C *c,              \
                                        const S *s) {                          \
    if (!s)                                                                    \
      return h ? CUBLAS_STATUS_INVALID_VALUE : CUBLAS_STATUS_NOT_INITIALIZED;  \
    return l1(h, #NAME, ROT, TYPE, n, c, STYPE, x, incx, y, incy, (void *)s,   \
              CTYPE);                                                          \
  }
/* rot: c real, s of the vectors' type (real for Csrot and Zdrot). */
#define CUEMU_ROT(NAME, T, TYPE, R, RTYPE, ...)                                \
  CUEMU_BLAS_ILP64(CUEMU_ROT_DEF, NAME, T, R, T, TYPE, RTYPE, TYPE)
#define CUEMU_REAL_ROT(NAME, T, TYPE, R, RTYPE, ...)                           \
  CUEMU_BLAS_ILP64(CUEMU_ROT_DEF, NAME, T, R, R, TYPE, RTYPE, RTYPE)
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_ROT, rot_v2)
CUEMU_BLAS_COMPLEX_BY_REAL(CUEMU_BLAS_TYPED, CUEMU_REAL_ROT, rot_v2)

/* The Ex forms: the types as arguments. cuemu computes every type in
 * double (complex) and rounds once, so the execution type changes nothing;
 * x and y must be of one type, a floating type cuemu has (half, bfloat16,
 * float, double, complex float or complex double), else NOT_SUPPORTED. */
static int ex_type(int t) {
  return t == CUEMU_R_16F || t == CUEMU_R_16BF || t == CUEMU_R_32F ||
         t == CUEMU_R_64F || t == CUEMU_C_32F || t == CUEMU_C_64F;
}
static int ex_exec(int t) {
  return t == CUEMU_R_32F || t == CUEMU_R_64F || t == CUEMU_C_32F ||
         t == CUEMU_C_64F;
}

/* Checks the types of an Ex call (yt -1 where there is no y, st -1 where
 * there is no scalar or result, et -1 where there is no execution type),
 * then makes it. */
static cublasStatus_t ex(cublasHandle_t h, const char *name, enum kind kind,
                         int conj, int64_t n, const void *alpha, int st,
                         const void *x, int xt, int64_t incx, const void *y,
                         int yt, int64_t incy, void *result, int et) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  int index = kind == IAMAX || kind == IAMIN;
  if (!ex_type(xt) || (yt != -1 && yt != xt) ||
      (st != -1 && !index && !ex_type(st)) || (et != -1 && !ex_exec(et)))
    return CUBLAS_STATUS_NOT_SUPPORTED;
  int rt = st == -1 ? xt : st;
  return l1c(h, name, kind, xt, n, alpha,
             kind == AXPY || kind == SCAL ? st : xt, x, incx, y, incy, result,
             rt, conj);
}

#define CUEMU_AXPY_EX_DEF(NAME, I, ...)                                        \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(                                       \
      cublasHandle_t h, I n, const void *alpha, int at, const void *x, int xt, \
      I incx, void *y, int yt, I incy, int et) {                               \
    return ex(h, #NAME, AXPY, 0, n, alpha, at, x, xt, incx, y, yt, incy, NULL, \
              et);                                                             \
  }
#define CUEMU_DOT_EX_DEF(NAME, I, CONJ, ...)                                   \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(                                       \
      cublasHandle_t h, I n, const void *x, int xt, I incx, const void *y,     \
      int yt, I incy, void *result, int rt, int et) {                          \
    return ex(h, #NAME, DOT, CONJ, n, NULL, rt, x, xt, incx, y, yt, incy,      \
              result, et);                                                     \
  }
#define CUEMU_NORM_EX_DEF(NAME, I, KIND, ...)                                  \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(cublasHandle_t h, I n, const void *x,  \
                                        int xt, I incx, void *result, int rt,  \
                                        int et) {                              \
    return ex(h, #NAME, KIND, 0, n, NULL, rt, x, xt, incx, NULL, -1, 0,        \
              result, et);                                                     \
  }
#define CUEMU_INDEX_EX_DEF(NAME, I, KIND, ...)                                 \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(cublasHandle_t h, I n, const void *x,  \
                                        int xt, I incx, I *result) {           \
    return ex(h, #NAME, KIND, 0, n, NULL, CUEMU_BLAS_INT_TYPE(I), x, xt, incx, \
              NULL, -1, 0, result, -1);                                        \
  }
#define CUEMU_SCAL_EX_DEF(NAME, I, ...)                                        \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(cublasHandle_t h, I n,                 \
                                        const void *alpha, int at, void *x,    \
                                        int xt, I incx, int et) {              \
    return ex(h, #NAME, SCAL, 0, n, alpha, at, x, xt, incx, NULL, -1, 0, NULL, \
              et);                                                             \
  }
#define CUEMU_PAIR_EX_DEF(NAME, I, KIND, ...)                                  \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(cublasHandle_t h, I n, void *x,        \
                                        int xt, I incx, void *y, int yt,       \
                                        I incy) {                              \
    return ex(h, #NAME, KIND, 0, n, NULL, -1, x, xt, incx, y, yt, incy, NULL,  \
              -1);                                                             \
  }
CUEMU_BLAS_ILP64(CUEMU_AXPY_EX_DEF, cublasAxpyEx)
CUEMU_BLAS_ILP64(CUEMU_DOT_EX_DEF, cublasDotEx, 0)
CUEMU_BLAS_ILP64(CUEMU_DOT_EX_DEF, cublasDotcEx, 1)
CUEMU_BLAS_ILP64(CUEMU_NORM_EX_DEF, cublasNrm2Ex, NRM2)
CUEMU_BLAS_ILP64(CUEMU_NORM_EX_DEF, cublasAsumEx, ASUM)
CUEMU_BLAS_ILP64(CUEMU_INDEX_EX_DEF, cublasIamaxEx, IAMAX)
CUEMU_BLAS_ILP64(CUEMU_INDEX_EX_DEF, cublasIaminEx, IAMIN)
CUEMU_BLAS_ILP64(CUEMU_SCAL_EX_DEF, cublasScalEx)
CUEMU_BLAS_ILP64(CUEMU_PAIR_EX_DEF, cublasCopyEx, COPY)
CUEMU_BLAS_ILP64(CUEMU_PAIR_EX_DEF, cublasSwapEx, SWAP)
/* RotEx: c and s of csType (c's real part taken: a complex csType is
 * Crot's and Zrot's s, a real one Csrot's and Zdrot's). */
#define CUEMU_ROT_EX_DEF(NAME, I, ...)                                         \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(                                       \
      cublasHandle_t h, I n, void *x, int xt, I incx, void *y, int yt, I incy, \
      const void *c, const void *s, int cst, int et) {                         \
    if (!s)                                                                    \
      return h ? CUBLAS_STATUS_INVALID_VALUE : CUBLAS_STATUS_NOT_INITIALIZED;  \
    if (h && (!ex_type(xt) || yt != xt || !ex_type(cst) || !ex_exec(et)))      \
      return CUBLAS_STATUS_NOT_SUPPORTED;                                      \
    return l1(h, #NAME, ROT, xt, n, c, cst, x, incx, y, incy, (void *)s, cst); \
  }
CUEMU_BLAS_ILP64(CUEMU_ROT_EX_DEF, cublasRotEx)

/* The legacy API (cublas.h): scalars by value, results returned, statuses
 * kept for cublasGetError; from the same tables. */
#define CUEMU_LEGACY_AXPY(L, T, TYPE, R, RTYPE, ...)                           \
  CUEMU_BLAS_EXPORT void cublas##L##axpy(int n, T alpha, const T *x, int incx, \
                                         T *y, int incy) {                     \
    CUEMU_BLAS_LEGACY(cublas##L##axpy_v2, n, &alpha, x, incx, y, incy);        \
  }
CUEMU_BLAS_SDCZ(CUEMU_LEGACY_AXPY)

#define CUEMU_LEGACY_DOT(L, T, TYPE, R, RTYPE, NAME, ...)                      \
  CUEMU_BLAS_EXPORT T cublas##L##NAME(int n, const T *x, int incx, const T *y, \
                                      int incy) {                              \
    T r = 0;                                                                   \
    CUEMU_BLAS_LEGACY(cublas##L##NAME##_v2, n, x, incx, y, incy, &r);          \
    return r;                                                                  \
  }
CUEMU_BLAS_SD(CUEMU_LEGACY_DOT, dot)
CUEMU_BLAS_CZ(CUEMU_LEGACY_DOT, dotu)
CUEMU_BLAS_CZ(CUEMU_LEGACY_DOT, dotc)

/* nrm2, asum (RES R) and iamax, iamin (RES int). */
#define CUEMU_LEGACY_REDUCE(L, T, TYPE, R, RTYPE, NAME, RES, ...)              \
  CUEMU_BLAS_EXPORT RES cublas##L##NAME(int n, const T *x, int incx) {         \
    RES r = 0;                                                                 \
    CUEMU_BLAS_LEGACY(cublas##L##NAME##_v2, n, x, incx, &r);                   \
    return r;                                                                  \
  }
#define CUEMU_LEGACY_NORM(L, T, TYPE, R, RTYPE, NAME, ...)                     \
  CUEMU_LEGACY_REDUCE(L, T, TYPE, R, RTYPE, NAME, R)
CUEMU_BLAS_SD(CUEMU_LEGACY_NORM, nrm2)
CUEMU_BLAS_REAL_OF_COMPLEX(CUEMU_LEGACY_NORM, nrm2)
CUEMU_BLAS_SD(CUEMU_LEGACY_NORM, asum)
CUEMU_BLAS_REAL_OF_COMPLEX(CUEMU_LEGACY_NORM, asum)
CUEMU_BLAS_INDEXED(CUEMU_LEGACY_REDUCE, amax, int)
CUEMU_BLAS_INDEXED(CUEMU_LEGACY_REDUCE, amin, int)

/* scal (A: alpha's type, T or, for Csscal and Zdscal, R). */
#define CUEMU_LEGACY_SCAL(L, T, TYPE, R, RTYPE, A, ...)                        \
  CUEMU_BLAS_EXPORT void cublas##L##scal(int n, A alpha, T *x, int incx) {     \
    CUEMU_BLAS_LEGACY(cublas##L##scal_v2, n, &alpha, x, incx);                 \
  }
#define CUEMU_LEGACY_TSCAL(L, T, TYPE, R, RTYPE, ...)                          \
  CUEMU_LEGACY_SCAL(L, T, TYPE, R, RTYPE, T)
#define CUEMU_LEGACY_RSCAL(L, T, TYPE, R, RTYPE, ...)                          \
  CUEMU_LEGACY_SCAL(L, T, TYPE, R, RTYPE, R)
CUEMU_BLAS_SDCZ(CUEMU_LEGACY_TSCAL)
CUEMU_BLAS_COMPLEX_BY_REAL(CUEMU_LEGACY_RSCAL)

#define CUEMU_LEGACY_PAIR(L, T, TYPE, R, RTYPE, NAME, ...)                     \
  CUEMU_BLAS_EXPORT void cublas##L##NAME(int n, T *x, int incx, T *y,          \
                                         int incy) {                           \
    CUEMU_BLAS_LEGACY(cublas##L##NAME##_v2, n, x, incx, y, incy);              \
  }
CUEMU_BLAS_SDCZ(CUEMU_LEGACY_PAIR, copy)
CUEMU_BLAS_SDCZ(CUEMU_LEGACY_PAIR, swap)

/* rot: c of type R, s of type S (T, or R for Csrot and Zdrot). */
#define CUEMU_LEGACY_ROT(L, T, TYPE, R, RTYPE, S, ...)                         \
  CUEMU_BLAS_EXPORT void cublas##L##rot(int n, T *x, int incx, T *y, int incy, \
                                        R c, S s) {                            \
    CUEMU_BLAS_LEGACY(cublas##L##rot_v2, n, x, incx, y, incy, &c, &s);         \
  }
#define CUEMU_LEGACY_TROT(L, T, TYPE, R, RTYPE, ...)                           \
  CUEMU_LEGACY_ROT(L, T, TYPE, R, RTYPE, T)
#define CUEMU_LEGACY_RROT(L, T, TYPE, R, RTYPE, ...)                           \
  CUEMU_LEGACY_ROT(L, T, TYPE, R, RTYPE, R)
CUEMU_BLAS_SDCZ(CUEMU_LEGACY_TROT)
CUEMU_BLAS_COMPLEX_BY_REAL(CUEMU_LEGACY_RROT)
