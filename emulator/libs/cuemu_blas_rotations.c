/*
 * cuemu_blas_rotations.c: cuBLAS's construction of plane rotations (rotg
 * for S, D, C and Z; rotmg for S and D) and the application of a modified
 * rotation (rotm, S and D), as reference BLAS computes them. Their scalars
 * are host memory in CUBLAS_POINTER_MODE_HOST (computed at the call, as
 * their results must be there when it returns) and device memory in
 * CUBLAS_POINTER_MODE_DEVICE (computed in stream order).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cuemu_blas.h"

enum kind { ROTG, ROTMG, ROTM };

typedef struct rot_op {
  cuemu_blas_op base;
  enum kind kind;
  int t; /* the type of a, b and s (rotg) or of every argument */
  /* rotg: a, b, c, s; rotmg: d1, d2, x1, y1, param. */
  void *p[5];
  /* rotm: the vectors, and the five values of param (copied at the call
   * in host pointer mode, else read from p[4] when the work runs). */
  int64_t n, incx, incy;
  void *x, *y;
  int param_copied;
  double param[5];
} rot_op;

static int64_t at(int64_t i, int64_t n, int64_t inc) {
  return inc >= 0 ? i * inc : (n - 1 - i) * -inc;
}

static int real_of(int t) {
  return t == CUEMU_C_32F ? CUEMU_R_32F : t == CUEMU_C_64F ? CUEMU_R_64F : t;
}

/* rotg: the rotation [c s; -conj(s) c] that zeroes b, as reference BLAS's
 * srotg and crotg: a becomes r; for a real rotation b becomes the value z
 * from which c and s can be recovered, for a complex one it is kept. */
static void rotg(const rot_op *o) {
  int t = o->t, rt = real_of(t);
  double complex a = cuemu__blas_load(t, o->p[0], 0),
                 b = cuemu__blas_load(t, o->p[1], 0);
  double c;
  double complex s;
  if (t == CUEMU_C_32F || t == CUEMU_C_64F) {
    if (cabs(a) == 0) {
      c = 0, s = 1, a = b;
    } else {
      double scale = cabs(a) + cabs(b);
      double norm = scale * hypot(cabs(a / scale), cabs(b / scale));
      double complex alpha = a / cabs(a);
      c = cabs(a) / norm, s = alpha * conj(b) / norm, a = alpha * norm;
    }
    cuemu__blas_store(t, o->p[0], 0, a);
  } else {
    double ra = creal(a), rb = creal(b);
    double roe = fabs(ra) > fabs(rb) ? ra : rb, scale = fabs(ra) + fabs(rb);
    double r = 0, z = 0;
    if (scale == 0) {
      c = 1, s = 0;
    } else {
      r = copysign(scale * hypot(ra / scale, rb / scale), roe);
      c = ra / r, s = rb / r, z = 1;
      if (fabs(ra) > fabs(rb))
        z = creal(s);
      else if (c != 0)
        z = 1 / c;
    }
    cuemu__blas_store(t, o->p[0], 0, r);
    cuemu__blas_store(t, o->p[1], 0, z);
  }
  cuemu__blas_store(rt, o->p[2], 0, c);
  cuemu__blas_store(t, o->p[3], 0, s);
  /* c and s are outputs only: written, as the kernel's stores (initcheck). */
  cuemu__blas_vector_wrote(o->p[2], 1, 1, cuemu__blas_type_size(rt));
  cuemu__blas_vector_wrote(o->p[3], 1, 1, cuemu__blas_type_size(t));
}

/* Stores element i of rotmg's param, an output only (its flag, and the
 * entries of H that the flag uses): written, as the kernel's store
 * (initcheck). */
static void store_param(int t, void *param, int64_t i, double v) {
  cuemu__blas_store(t, param, i, v);
  size_t es = cuemu__blas_type_size(t);
  cuemu__blas_vector_wrote((char *)param + (size_t)i * es, 1, 1, es);
}

/* rotmg: the modified rotation H that zeroes the second element of
 * (sqrt(d1) x1, sqrt(d2) y1), as reference BLAS's srotmg, with its
 * rescaling by gam = 4096 that keeps d1 and d2 in range. */
static void rotmg(const rot_op *o) {
  const double gam = 4096, gamsq = gam * gam, rgamsq = 1 / gamsq;
  int t = o->t;
  double d1 = creal(cuemu__blas_load(t, o->p[0], 0)),
         d2 = creal(cuemu__blas_load(t, o->p[1], 0)),
         x1 = creal(cuemu__blas_load(t, o->p[2], 0)),
         y1 = creal(cuemu__blas_load(t, o->p[3], 0));
  double flag, h11 = 0, h12 = 0, h21 = 0, h22 = 0;
  if (d1 < 0) {
    flag = -1, d1 = d2 = x1 = 0;
  } else {
    double p2 = d2 * y1;
    if (p2 == 0) {
      store_param(t, o->p[4], 0, -2);
      return;
    }
    double p1 = d1 * x1, q2 = p2 * y1, q1 = p1 * x1;
    if (fabs(q1) > fabs(q2)) {
      h21 = -y1 / x1, h12 = p2 / p1;
      double u = 1 - h12 * h21;
      if (u > 0)
        flag = 0, d1 /= u, d2 /= u, x1 *= u;
      else
        flag = -1, h11 = h12 = h21 = h22 = 0, d1 = d2 = x1 = 0;
    } else if (q2 < 0) {
      flag = -1, h11 = h12 = h21 = h22 = 0, d1 = d2 = x1 = 0;
    } else {
      flag = 1, h11 = p1 / p2, h22 = x1 / y1;
      double u = 1 + h11 * h22, temp = d2 / u;
      d2 = d1 / u, d1 = temp, x1 = y1 * u;
    }
    /* Rescaling makes every element of H explicit (flag -1). */
    while (d1 != 0 && (d1 <= rgamsq || d1 >= gamsq)) {
      if (flag == 0)
        h11 = h22 = 1;
      else if (flag == 1)
        h21 = -1, h12 = 1;
      flag = -1;
      if (d1 <= rgamsq)
        d1 *= gamsq, x1 /= gam, h11 /= gam, h12 /= gam;
      else
        d1 /= gamsq, x1 *= gam, h11 *= gam, h12 *= gam;
    }
    while (d2 != 0 && (fabs(d2) <= rgamsq || fabs(d2) >= gamsq)) {
      if (flag == 0)
        h11 = h22 = 1;
      else if (flag == 1)
        h21 = -1, h12 = 1;
      flag = -1;
      if (fabs(d2) <= rgamsq)
        d2 *= gamsq, h21 /= gam, h22 /= gam;
      else
        d2 /= gamsq, h21 *= gam, h22 *= gam;
    }
  }
  /* param: flag, h11, h21, h12, h22; the elements that the flag implies
   * (1, -1 or 0) are not written. */
  if (flag < 0) {
    store_param(t, o->p[4], 1, h11);
    store_param(t, o->p[4], 4, h22);
  }
  if (flag <= 0) {
    store_param(t, o->p[4], 2, h21);
    store_param(t, o->p[4], 3, h12);
  }
  if (flag > 0) {
    store_param(t, o->p[4], 1, h11);
    store_param(t, o->p[4], 4, h22);
  }
  store_param(t, o->p[4], 0, flag);
  cuemu__blas_store(t, o->p[0], 0, d1);
  cuemu__blas_store(t, o->p[1], 0, d2);
  cuemu__blas_store(t, o->p[2], 0, x1);
}

/* rotm: (x, y) = H (x, y) for the H that param describes. */
static void rotm(const rot_op *o) {
  double p[5];
  for (int i = 0; i < 5; ++i)
    p[i] = o->param_copied ? o->param[i]
                           : creal(cuemu__blas_load(o->t, o->p[4], i));
  double h11 = p[1], h21 = p[2], h12 = p[3], h22 = p[4];
  if (p[0] == -2)
    return;
  if (p[0] == 0)
    h11 = h22 = 1;
  else if (p[0] == 1)
    h12 = 1, h21 = -1;
  for (int64_t i = 0; i < o->n; ++i) {
    int64_t xi = at(i, o->n, o->incx), yi = at(i, o->n, o->incy);
    double xv = creal(cuemu__blas_load(o->t, o->x, xi)),
           yv = creal(cuemu__blas_load(o->t, o->y, yi));
    cuemu__blas_store(o->t, o->x, xi, h11 * xv + h12 * yv);
    cuemu__blas_store(o->t, o->y, yi, h21 * xv + h22 * yv);
  }
}

static void run_rot(cuemu_blas_op *base) {
  rot_op *o = (rot_op *)base;
  if (o->kind == ROTG) {
    rotg(o);
  } else if (o->kind == ROTMG) {
    rotmg(o);
  } else {
    rotm(o);
  }
}

/* Runs a rotg or rotmg of `count` scalars p (sizes in `bytes`): at once in
 * host pointer mode, in stream order in device pointer mode. */
static cublasStatus_t scalars(cublasHandle_t h, const char *name,
                              enum kind kind, int t, void *const *p,
                              const size_t *bytes, const char *const *names,
                              int count) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  for (int i = 0; i < count; ++i)
    if (!p[i])
      return CUBLAS_STATUS_INVALID_VALUE;
  rot_op *o = (rot_op *)cuemu__blas_op_new(sizeof *o, name, run_rot);
  if (!o)
    return CUBLAS_STATUS_ALLOC_FAILED;
  o->kind = kind, o->t = t;
  memcpy(o->p, p, (size_t)count * sizeof *p);
  if (h->pointer_mode != CUBLAS_POINTER_MODE_DEVICE) {
    run_rot(&o->base);
    free(o);
    return CUBLAS_STATUS_SUCCESS;
  }
  for (int i = 0; i < count; ++i)
    if (!cuemu__libs_device_range(name, names[i], p[i], bytes[i])) {
      free(o);
      return CUBLAS_STATUS_SUCCESS;
    }
  return cuemu__blas_submit(h, &o->base);
}

#define CUEMU_ROTG(NAME, T, TYPE, R, RTYPE, ...)                               \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(cublasHandle_t h, T *a, T *b, R *c,    \
                                        T *s) {                                \
    void *p[] = {a, b, c, s};                                                  \
    const size_t bytes[] = {sizeof *a, sizeof *b, sizeof *c, sizeof *s};       \
    const char *const names[] = {"a", "b", "c", "s"};                          \
    return scalars(h, #NAME, ROTG, TYPE, p, bytes, names, 4);                  \
  }
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_ROTG, rotg_v2)

#define CUEMU_ROTMG(NAME, T, TYPE, ...)                                        \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(cublasHandle_t h, T *d1, T *d2, T *x1, \
                                        const T *y1, T *param) {               \
    void *p[] = {d1, d2, x1, (void *)y1, param};                               \
    const size_t bytes[] = {sizeof(T), sizeof(T), sizeof(T), sizeof(T),        \
                            5 * sizeof(T)};                                    \
    const char *const names[] = {"d1", "d2", "x1", "y1", "param"};             \
    return scalars(h, #NAME, ROTMG, TYPE, p, bytes, names, 5);                 \
  }
CUEMU_BLAS_SD(CUEMU_BLAS_TYPED, CUEMU_ROTMG, rotmg_v2)

static cublasStatus_t rotm_call(cublasHandle_t h, const char *name, int t,
                                int64_t n, void *x, int64_t incx, void *y,
                                int64_t incy, const void *param) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (n <= 0)
    return CUBLAS_STATUS_SUCCESS;
  if (!param)
    return CUBLAS_STATUS_INVALID_VALUE;
  rot_op *o = (rot_op *)cuemu__blas_op_new(sizeof *o, name, run_rot);
  if (!o)
    return CUBLAS_STATUS_ALLOC_FAILED;
  o->kind = ROTM, o->t = t, o->n = n, o->x = x, o->incx = incx, o->y = y,
  o->incy = incy, o->p[4] = (void *)param;
  size_t es = cuemu__blas_type_size(t);
  int ok = 1;
  if (h->pointer_mode != CUBLAS_POINTER_MODE_DEVICE) {
    o->param_copied = 1;
    for (int i = 0; i < 5; ++i)
      o->param[i] = creal(cuemu__blas_load(t, param, i));
  } else {
    ok = cuemu__libs_device_range(name, "param", param, 5 * es);
  }
  ok = ok &&
       cuemu__libs_device_range(name, "x", x,
                                cuemu__blas_vector_bytes(n, incx, es)) &&
       cuemu__libs_device_range(name, "y", y,
                                cuemu__blas_vector_bytes(n, incy, es));
  if (!ok) {
    free(o);
    return CUBLAS_STATUS_SUCCESS;
  }
  return cuemu__blas_submit(h, &o->base);
}

#define CUEMU_ROTM_DEF(NAME, I, T, TYPE, ...)                                  \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(cublasHandle_t h, I n, T *x, I incx,   \
                                        T *y, I incy, const T *param) {        \
    return rotm_call(h, #NAME, TYPE, n, x, incx, y, incy, param);              \
  }
#define CUEMU_ROTM(...) CUEMU_BLAS_ILP64(CUEMU_ROTM_DEF, __VA_ARGS__)
CUEMU_BLAS_SD(CUEMU_BLAS_TYPED, CUEMU_ROTM, rotm_v2)

/* The Ex forms: the types as arguments; cuemu takes those of the typed
 * forms only (rotg: a, b and s of one type, c its real type; rotm and
 * rotmg: float or double throughout), else NOT_SUPPORTED. The execution
 * type changes nothing (double arithmetic). */
static int ex_real(int t) { return t == CUEMU_R_32F || t == CUEMU_R_64F; }
static int ex_any(int t) {
  return ex_real(t) || t == CUEMU_C_32F || t == CUEMU_C_64F;
}

CUEMU_BLAS_EXPORT cublasStatus_t cublasRotgEx(cublasHandle_t h, void *a,
                                              void *b, int abt, void *c,
                                              void *s, int cst, int et) {
  if (h && (!ex_any(abt) || cst != abt || !ex_any(et)))
    return CUBLAS_STATUS_NOT_SUPPORTED;
  size_t es = cuemu__blas_type_size(abt);
  void *p[] = {a, b, c, s};
  const size_t bytes[] = {es, es, cuemu__blas_type_size(real_of(abt)), es};
  const char *const names[] = {"a", "b", "c", "s"};
  return scalars(h, "cublasRotgEx", ROTG, abt, p, bytes, names, 4);
}

CUEMU_BLAS_EXPORT cublasStatus_t cublasRotmgEx(cublasHandle_t h, void *d1,
                                               int d1t, void *d2, int d2t,
                                               void *x1, int x1t,
                                               const void *y1, int y1t,
                                               void *param, int pt, int et) {
  if (h && (!ex_real(d1t) || d2t != d1t || x1t != d1t || y1t != d1t ||
            pt != d1t || !ex_any(et)))
    return CUBLAS_STATUS_NOT_SUPPORTED;
  size_t es = cuemu__blas_type_size(d1t);
  void *p[] = {d1, d2, x1, (void *)y1, param};
  const size_t bytes[] = {es, es, es, es, 5 * es};
  const char *const names[] = {"d1", "d2", "x1", "y1", "param"};
  return scalars(h, "cublasRotmgEx", ROTMG, d1t, p, bytes, names, 5);
}

#define CUEMU_ROTM_EX_DEF(NAME, I, ...)                                        \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(                                       \
      cublasHandle_t h, I n, void *x, int xt, I incx, void *y, int yt, I incy, \
      const void *param, int pt, int et) {                                     \
    if (h && (!ex_real(xt) || yt != xt || pt != xt || !ex_any(et)))            \
      return CUBLAS_STATUS_NOT_SUPPORTED;                                      \
    return rotm_call(h, #NAME, xt, n, x, incx, y, incy, param);                \
  }
CUEMU_BLAS_ILP64(CUEMU_ROTM_EX_DEF, cublasRotmEx)

/* The legacy API (cublas.h). Its Crotg and Zrotg take b by value (b is
 * not changed by a complex rotation). */
#define CUEMU_LEGACY_ROTG(L, T, TYPE, R, RTYPE, ...)                           \
  CUEMU_BLAS_EXPORT void cublas##L##rotg(T *a, T *b, R *c, T *s) {             \
    CUEMU_BLAS_LEGACY(cublas##L##rotg_v2, a, b, c, s);                         \
  }
#define CUEMU_LEGACY_CROTG(L, T, TYPE, R, RTYPE, ...)                          \
  CUEMU_BLAS_EXPORT void cublas##L##rotg(T *a, T b, R *c, T *s) {              \
    CUEMU_BLAS_LEGACY(cublas##L##rotg_v2, a, &b, c, s);                        \
  }
CUEMU_BLAS_SD(CUEMU_LEGACY_ROTG)
CUEMU_BLAS_CZ(CUEMU_LEGACY_CROTG)
#define CUEMU_LEGACY_ROTM(L, T, TYPE, R, RTYPE, ...)                           \
  CUEMU_BLAS_EXPORT void cublas##L##rotm(int n, T *x, int incx, T *y,          \
                                         int incy, const T *param) {           \
    CUEMU_BLAS_LEGACY(cublas##L##rotm_v2, n, x, incx, y, incy, param);         \
  }
#define CUEMU_LEGACY_ROTMG(L, T, TYPE, R, RTYPE, ...)                          \
  CUEMU_BLAS_EXPORT void cublas##L##rotmg(T *d1, T *d2, T *x1, const T *y1,    \
                                          T *param) {                          \
    CUEMU_BLAS_LEGACY(cublas##L##rotmg_v2, d1, d2, x1, y1, param);             \
  }
CUEMU_BLAS_SD(CUEMU_LEGACY_ROTM)
CUEMU_BLAS_SD(CUEMU_LEGACY_ROTMG)
