/*
 * cuemu_solver_nonsymmetric.c: cuSOLVER's nonsymmetric eigen-solver, the
 * 64-bit generic cusolverDnXgeev (with its buffer size): the eigenvalues
 * of a general n x n A and, optionally, its right and left eigenvectors
 * (A v = w v, u^H A = w u^H), each of unit 2-norm with its largest
 * component real, as LAPACK's geev. The complex Schur form A = Z T Z^H
 * (Householder reduction to Hessenberg form, then single-shift complex QR
 * with Wilkinson's shift), the vectors from T by substitution. A real A
 * with real W, VL and VR gets LAPACK's dgeev form: W's first n entries
 * the real parts, the last n the imaginary ones, a conjugate pair next to
 * each other (the positive imaginary part first) with the real and
 * imaginary parts of the first's vector in two columns. On a
 * complex-double copy, in the handle's stream order; A is left as it was.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_runtime.h>

#include "cuemu_solver.h"

#define MAX1(x) ((x) > 1 ? (x) : 1)
#define AT(a, i, j) ((a)[(int64_t)(j)*n + (i)])

/* ---- The complex Schur form
 * ---------------------------------------------------
 */

/* a (n x n) := its Hessenberg form Q^H a Q, z := z Q. */
static void hessenberg(cuemu_solver_value *a, cuemu_solver_value *z, int64_t n,
                       cuemu_solver_value *v) {
  for (int64_t j = 0; j + 2 < n; ++j) {
    int64_t len = n - j - 1;
    cuemu_solver_value tau =
        cuemu__solver_reflector(&AT(a, j + 1, j), &AT(a, j + 2, j), len - 1);
    v[0] = 1;
    for (int64_t s = 1; s < len; ++s) {
      v[s] = AT(a, j + 1 + s, j);
      AT(a, j + 1 + s, j) = 0;
    }
    cuemu__solver_reflect_left(v, conj(tau), &AT(a, j + 1, j + 1), len,
                               n - j - 1, n);
    cuemu__solver_reflect_right(v, tau, &AT(a, 0, j + 1), n, len, n);
    cuemu__solver_reflect_right(v, tau, &AT(z, 0, j + 1), n, len, n);
  }
}

/* Rows k and k+1 of h := G (columns from j0), columns k and k+1 of h (rows
 * to i1) and of z := . G^H, G = [c s; -conj(s) c]. */
static void rotate(cuemu_solver_value *h, cuemu_solver_value *z, int64_t n,
                   int64_t k, int64_t j0, int64_t i1, double c,
                   cuemu_solver_value s) {
  for (int64_t j = j0; j < n; ++j) {
    cuemu_solver_value x = AT(h, k, j), y = AT(h, k + 1, j);
    AT(h, k, j) = c * x + s * y;
    AT(h, k + 1, j) = -conj(s) * x + c * y;
  }
  for (int64_t i = 0; i <= i1; ++i) {
    cuemu_solver_value x = AT(h, i, k), y = AT(h, i, k + 1);
    AT(h, i, k) = c * x + conj(s) * y;
    AT(h, i, k + 1) = -s * x + c * y;
  }
  for (int64_t i = 0; i < n; ++i) {
    cuemu_solver_value x = AT(z, i, k), y = AT(z, i, k + 1);
    AT(z, i, k) = c * x + conj(s) * y;
    AT(z, i, k + 1) = -s * x + c * y;
  }
}

/* The rotation's c and s with G [x; y] = [r; 0]. */
static void givens(cuemu_solver_value x, cuemu_solver_value y, double *c,
                   cuemu_solver_value *s) {
  double ax = cabs(x), r = hypot(ax, cabs(y));
  if (r == 0) {
    *c = 1;
    *s = 0;
  } else if (ax == 0) {
    *c = 0;
    *s = 1;
  } else {
    *c = ax / r;
    *s = x / ax * conj(y) / r;
  }
}

/* The Hessenberg h := T (upper triangular), z := z Z: 0, or k + 1 when the
 * iterations ran out with T's rows above k + 1 unconverged (LAPACK's
 * info). */
static int schur(cuemu_solver_value *h, cuemu_solver_value *z, int64_t n) {
  int64_t hi = n - 1, iter = 0, total = 0;
  while (hi > 0) {
    int64_t l = hi;
    for (; l > 0; --l) {
      double near = cabs(AT(h, l - 1, l - 1)) + cabs(AT(h, l, l));
      if (cabs(AT(h, l, l - 1)) <= DBL_EPSILON * (near > 0 ? near : 1)) {
        AT(h, l, l - 1) = 0;
        break;
      }
    }
    if (l == hi) {
      --hi;
      iter = 0;
      continue;
    }
    if (++total > 30 * n)
      return (int)(hi + 1);
    ++iter;
    /* The shift: Wilkinson's, the trailing 2 x 2's eigenvalue nearer its
     * last entry; now and then an exceptional one. */
    cuemu_solver_value a = AT(h, hi - 1, hi - 1), b = AT(h, hi - 1, hi),
                       c = AT(h, hi, hi - 1), d = AT(h, hi, hi), mu;
    if (iter % 10 == 0)
      mu = d + 0.75 * cabs(c);
    else {
      cuemu_solver_value m = (a + d) / 2,
                         disc = csqrt((a - d) * (a - d) / 4 + b * c);
      mu = cabs(m + disc - d) < cabs(m - disc - d) ? m + disc : m - disc;
    }
    cuemu_solver_value x = AT(h, l, l) - mu, y = AT(h, l + 1, l);
    for (int64_t k = l; k < hi; ++k) {
      if (k > l) {
        x = AT(h, k, k - 1);
        y = AT(h, k + 1, k - 1);
      }
      double cs;
      cuemu_solver_value sn;
      givens(x, y, &cs, &sn);
      rotate(h, z, n, k, k > l ? k - 1 : l, k + 2 < hi ? k + 2 : hi, cs, sn);
      if (k > l)
        AT(h, k + 1, k - 1) = 0;
    }
  }
  return 0;
}

/* ---- The eigenvectors
 * ---------------------------------------------------------
 */

/* Unit 2-norm, the largest component (in modulus) real and positive. */
static void normalize(cuemu_solver_value *x, int64_t n) {
  double norm = 0, big = -1;
  int64_t at = 0;
  for (int64_t i = 0; i < n; ++i) {
    norm = hypot(norm, cabs(x[i]));
    if (cabs(x[i]) > big) {
      big = cabs(x[i]);
      at = i;
    }
  }
  if (norm == 0)
    return;
  cuemu_solver_value phase = conj(x[at]) / cabs(x[at]) / norm;
  for (int64_t i = 0; i < n; ++i)
    x[i] *= phase;
  x[at] = creal(x[at]);
}

/* The right (left = 0) or left eigenvectors of A = Z T Z^H into v (n x n,
 * column k for T's k-th eigenvalue); y is n of scratch. */
static void eigenvectors(const cuemu_solver_value *t,
                         const cuemu_solver_value *z, int64_t n, int left,
                         cuemu_solver_value *v, cuemu_solver_value *y) {
  double tnorm = 0;
  for (int64_t i = 0; i < n * n; ++i)
    tnorm = hypot(tnorm, cabs(t[i]));
  double small = DBL_EPSILON * (tnorm > 0 ? tnorm : 1);
  for (int64_t k = 0; k < n; ++k) {
    cuemu_solver_value w = AT(t, k, k);
    memset(y, 0, (size_t)n * sizeof *y);
    y[k] = 1;
    if (!left) {
      /* (T - w) y = 0 with y_k = 1: upward from k. */
      for (int64_t j = k - 1; j >= 0; --j) {
        cuemu_solver_value s = 0;
        for (int64_t l = j + 1; l <= k; ++l)
          s += AT(t, j, l) * y[l];
        cuemu_solver_value d = AT(t, j, j) - w;
        y[j] = -s / (cabs(d) < small ? small : d);
      }
    } else {
      /* (T^H - conj(w)) y = 0 with y_k = 1: downward from k. */
      for (int64_t j = k + 1; j < n; ++j) {
        cuemu_solver_value s = 0;
        for (int64_t l = k; l < j; ++l)
          s += conj(AT(t, l, j)) * y[l];
        cuemu_solver_value d = conj(AT(t, j, j) - w);
        y[j] = -s / (cabs(d) < small ? small : d);
      }
    }
    for (int64_t i = 0; i < n; ++i) {
      cuemu_solver_value s = 0;
      for (int64_t l = 0; l < n; ++l)
        s += AT(z, i, l) * y[l];
      AT(v, i, k) = s;
    }
    normalize(v + k * n, n);
  }
}

/* ---- Runs in stream order
 * ------------------------------------------------
 */

/* One Xgeev: jobvl in c->jobu, jobvr in c->jobvt (1: vectors), W in c->s,
 * VL in c->u, VR in c->vt; `vectors` set for LAPACK's real form. */
static void run_geev(void *p) {
  cuemu_solver_call *c = p;
  int64_t n = c->n;
  int real = c->vectors;
  cuemu_solver_value *h = cuemu__solver_get(c->a, c->type, n, n, c->lda);
  cuemu_solver_value *z = calloc((size_t)MAX1(n * n), sizeof *z);
  cuemu_solver_value *vl = malloc((size_t)MAX1(n * n) * sizeof *vl);
  cuemu_solver_value *vr = malloc((size_t)MAX1(n * n) * sizeof *vr);
  cuemu_solver_value *y = malloc((size_t)MAX1(n) * sizeof *y);
  int64_t *order = malloc((size_t)MAX1(n) * sizeof *order);
  if (!h || !z || !vl || !vr || !y || !order)
    goto out;
  double anorm = 0;
  for (int64_t i = 0; i < n * n; ++i)
    anorm = hypot(anorm, cabs(h[i]));
  for (int64_t i = 0; i < n; ++i)
    AT(z, i, i) = 1;
  hessenberg(h, z, n, y);
  int info = schur(h, z, n);
  if (!info) {
    if (c->jobvt)
      eigenvectors(h, z, n, 0, vr, y);
    if (c->jobu)
      eigenvectors(h, z, n, 1, vl, y);
  }
  /* The output order: T's, or for the real form each conjugate pair
   * together, the positive imaginary part first (k: the pair's second,
   * or -1 for a real eigenvalue). */
  int64_t count = 0;
  double tol = 100 * (double)n * DBL_EPSILON * (anorm > 0 ? anorm : 1);
  char *used = calloc((size_t)MAX1(n), 1);
  if (!used)
    goto out;
  for (int64_t i = 0; i < n; ++i) {
    if (used[i])
      continue;
    used[i] = 1;
    cuemu_solver_value w = AT(h, i, i);
    if (!real || fabs(cimag(w)) <= tol) {
      order[count++] = i;
      continue;
    }
    int64_t j = -1;
    for (int64_t q = 0; q < n; ++q)
      if (!used[q] &&
          (j < 0 || cabs(AT(h, q, q) - conj(w)) < cabs(AT(h, j, j) - conj(w))))
        j = q;
    if (j < 0) {
      order[count++] = i; /* no partner left: kept as it is */
      continue;
    }
    used[j] = 1;
    int64_t first = cimag(w) > 0 ? i : j;
    order[count++] = first;
    order[count++] = -1 - (first == i ? j : i);
  }
  free(used);
  size_t e = cuemu__solver_size(c->type);
  for (int64_t k = 0; k < n && !info; ++k) {
    int64_t src = order[k] >= 0 ? order[k] : -1 - order[k];
    int second = order[k] < 0;
    /* A pair's second takes the first's values, conjugated. */
    int64_t from = second ? order[k - 1] : src;
    cuemu_solver_value w = AT(h, from, from);
    if (real) {
      int pair = second || (k + 1 < n && order[k + 1] < 0);
      double im = pair ? (second ? -fabs(cimag(w)) : fabs(cimag(w))) : 0;
      cuemu__solver_store_real(c->s, c->type, k, creal(w));
      cuemu__solver_store_real(c->s, c->type, n + k, im);
      /* Columns: a real vector's real part; a pair's first the real part
       * of its vector, its second the imaginary part. */
      for (int side = 0; side < 2; ++side) {
        const cuemu_solver_value *vs = side ? vl : vr;
        void *dst = side ? c->u : c->vt;
        int64_t ld = side ? c->ldu : c->ldvt;
        if (!(side ? c->jobu : c->jobvt))
          continue;
        for (int64_t i = 0; i < n; ++i)
          cuemu__solver_store(dst, c->type, k * ld + i,
                              second ? cimag(AT(vs, i, from))
                                     : creal(AT(vs, i, from)));
        cuemu_rt_library_wrote((char *)dst + (size_t)(k * ld) * e,
                               (size_t)n * e);
      }
    } else {
      cuemu__solver_store(c->s, c->type, k, w);
      cuemu_rt_library_wrote((char *)c->s + (size_t)k * e, e);
      if (c->jobvt)
        cuemu__solver_put((char *)c->vt + (size_t)(k * c->ldvt) * e, c->type, n,
                          1, c->ldvt, vr + src * n);
      if (c->jobu)
        cuemu__solver_put((char *)c->u + (size_t)(k * c->ldu) * e, c->type, n,
                          1, c->ldu, vl + src * n);
    }
  }
  if (c->info)
    cuemu__solver_info_set(c->info, 0, info);
out:
  free(h);
  free(z);
  free(vl);
  free(vr);
  free(y);
  free(order);
}

/* ---- Checks and calls
 * --------------------------------------------------------
 */

/* A's element type, and whether the real form applies (real): W, VL, VR
 * and the compute type A's; -1 for another combination. */
static int geev_type(int type_a, int type_w, int type_vl, int type_vr,
                     int compute, int want_l, int want_r) {
  int t = cuemu__solver_from_data_type(type_a);
  if (t < 0 || compute != type_a || type_w != type_a ||
      (want_l && type_vl != type_a) || (want_r && type_vr != type_a))
    return -1;
  return t;
}

CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnXgeev_bufferSize(
    cusolverDnHandle_t h, cusolverDnParams_t params, int jobvl, int jobvr,
    int64_t n, int type_a, const void *a, int64_t lda, int type_w,
    const void *w, int type_vl, const void *vl, int64_t ldvl, int type_vr,
    const void *vr, int64_t ldvr, int compute, size_t *device, size_t *host) {
  (void)params, (void)a, (void)w, (void)vl, (void)ldvl, (void)vr, (void)ldvr;
  if (h && (n < 0 || lda < MAX1(n)))
    return CUSOLVER_STATUS_INVALID_VALUE;
  return cuemu__solver_generic_size(
      h, "cusolverDnXgeev_bufferSize",
      geev_type(type_a, type_w, type_vl, type_vr, compute,
                jobvl == CUEMU_EIG_VECTOR, jobvr == CUEMU_EIG_VECTOR),
      device, host);
}

/* Its arguments count as LAPACK's geev counts them (jobvl 1, jobvr 2, n 3,
 * A 4, lda 5, W 6, VL 7, ldvl 8, VR 9, ldvr 10). A real A with a complex W
 * is CUSOLVER_STATUS_NOT_SUPPORTED. */
CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnXgeev(
    cusolverDnHandle_t h, cusolverDnParams_t params, int jobvl, int jobvr,
    int64_t n, int type_a, void *a, int64_t lda, int type_w, void *w,
    int type_vl, void *vl, int64_t ldvl, int type_vr, void *vr, int64_t ldvr,
    int compute, void *device_buffer, size_t device_bytes, void *host_buffer,
    size_t host_bytes, int *info) {
  (void)params, (void)device_buffer, (void)device_bytes, (void)host_buffer,
      (void)host_bytes;
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  int want_l = jobvl == CUEMU_EIG_VECTOR, want_r = jobvr == CUEMU_EIG_VECTOR;
  int t = geev_type(type_a, type_w, type_vl, type_vr, compute, want_l, want_r);
  if (t < 0)
    return cuemu__solver_unsupported("cusolverDnXgeev");
  if (!want_l && jobvl != CUEMU_EIG_NOVECTOR)
    return cuemu__solver_bad_argument(h, info, 1);
  if (!want_r && jobvr != CUEMU_EIG_NOVECTOR)
    return cuemu__solver_bad_argument(h, info, 2);
  if (n < 0)
    return cuemu__solver_bad_argument(h, info, 3);
  if (lda < MAX1(n))
    return cuemu__solver_bad_argument(h, info, 5);
  if (ldvl < 1 || (want_l && ldvl < n))
    return cuemu__solver_bad_argument(h, info, 8);
  if (ldvr < 1 || (want_r && ldvr < n))
    return cuemu__solver_bad_argument(h, info, 10);
  int real = !cuemu__solver_is_complex(t);
  const char *name = "cusolverDnXgeev";
  size_t e = cuemu__solver_size(t);
  if (!cuemu__solver_check_matrix(name, "A", a, n, n, lda, e) ||
      !cuemu__solver_check_matrix(name, "W", w, (real ? 2 : 1) * n, 1,
                                  MAX1((real ? 2 : 1) * n), e) ||
      (want_l && !cuemu__solver_check_matrix(name, "VL", vl, n, n, ldvl, e)) ||
      (want_r && !cuemu__solver_check_matrix(name, "VR", vr, n, n, ldvr, e)) ||
      !cuemu__solver_check_info(name, info))
    return CUSOLVER_STATUS_SUCCESS;
  cuemu_solver_call c = {.type = t,
                         .vectors = real,
                         .jobu = (signed char)want_l,
                         .jobvt = (signed char)want_r,
                         .n = n,
                         .a = a,
                         .lda = lda,
                         .s = w,
                         .u = vl,
                         .ldu = ldvl,
                         .vt = vr,
                         .ldvt = ldvr,
                         .info = info};
  return cuemu__solver_enqueue(h, run_geev, &c);
}
