/*
 * cuemu_solver_factor.c: the factorizations of cuemu's cuSOLVER on dense
 * working matrices in complex double (cuemu_solver.h): LU with partial
 * pivoting (LAPACK's getf2 order, right-looking), Cholesky, Householder QR
 * in LAPACK's reflector form, and the solves and products that use them.
 */
#include <math.h>
#include <stdlib.h>

#include "cuemu_solver.h"

#define AT(a, ld, i, j) ((a)[(int64_t)(j) * (ld) + (i)])

int cuemu__solver_lu(cuemu_solver_value *a, int64_t m, int64_t n,
                     int64_t *ipiv) {
  int info = 0;
  int64_t steps = m < n ? m : n;
  for (int64_t k = 0; k < steps; ++k) {
    int64_t p = k;
    if (ipiv) {
      /* The pivot: the largest |re| + |im| in the column, as LAPACK's
       * i?amax measures. */
      double best = -1;
      for (int64_t i = k; i < m; ++i) {
        double v = fabs(creal(AT(a, m, i, k))) + fabs(cimag(AT(a, m, i, k)));
        if (v > best) {
          best = v;
          p = i;
        }
      }
      ipiv[k] = p + 1;
      if (p != k)
        for (int64_t j = 0; j < n; ++j) {
          cuemu_solver_value t = AT(a, m, k, j);
          AT(a, m, k, j) = AT(a, m, p, j);
          AT(a, m, p, j) = t;
        }
    }
    cuemu_solver_value d = AT(a, m, k, k);
    if (d == 0) {
      /* LAPACK records the first zero pivot and goes on without dividing. */
      if (!info)
        info = (int)(k + 1);
      continue;
    }
    for (int64_t i = k + 1; i < m; ++i)
      AT(a, m, i, k) /= d;
    for (int64_t j = k + 1; j < n; ++j) {
      cuemu_solver_value u = AT(a, m, k, j);
      if (u != 0)
        for (int64_t i = k + 1; i < m; ++i)
          AT(a, m, i, j) -= AT(a, m, i, k) * u;
    }
  }
  return info;
}

/* The element (i, j) of op(A). */
static cuemu_solver_value op_at(const cuemu_solver_value *a, int64_t n, int op,
                                int64_t i, int64_t j) {
  if (op == CUEMU_OP_N)
    return AT(a, n, i, j);
  return op == CUEMU_OP_T ? AT(a, n, j, i) : conj(AT(a, n, j, i));
}

void cuemu__solver_triangular_solve(const cuemu_solver_value *t, int64_t n,
                                    int op, int lower, int unit,
                                    cuemu_solver_value *b) {
  int forward = (op == CUEMU_OP_N) == lower; /* op(T) lower */
  for (int64_t s = 0; s < n; ++s) {
    int64_t i = forward ? s : n - 1 - s;
    cuemu_solver_value v = b[i];
    if (forward)
      for (int64_t j = 0; j < i; ++j)
        v -= op_at(t, n, op, i, j) * b[j];
    else
      for (int64_t j = i + 1; j < n; ++j)
        v -= op_at(t, n, op, i, j) * b[j];
    b[i] = unit ? v : v / op_at(t, n, op, i, i);
  }
}

void cuemu__solver_lu_solve(const cuemu_solver_value *lu, int64_t n,
                            const int64_t *ipiv, int op, cuemu_solver_value *b,
                            int64_t nrhs) {
  for (int64_t c = 0; c < nrhs; ++c) {
    cuemu_solver_value *x = b + c * n;
    if (op == CUEMU_OP_N) {
      /* A = P L U: x = U^-1 L^-1 P^T b. */
      for (int64_t k = 0; ipiv && k < n; ++k) {
        int64_t p = ipiv[k] - 1;
        cuemu_solver_value t = x[k];
        x[k] = x[p];
        x[p] = t;
      }
      cuemu__solver_triangular_solve(lu, n, op, 1, 1, x);
      cuemu__solver_triangular_solve(lu, n, op, 0, 0, x);
    } else {
      /* op(A) = op(U) op(L) P^T: x = P op(L)^-1 op(U)^-1 b. */
      cuemu__solver_triangular_solve(lu, n, op, 0, 0, x);
      cuemu__solver_triangular_solve(lu, n, op, 1, 1, x);
      for (int64_t k = n - 1; ipiv && k >= 0; --k) {
        int64_t p = ipiv[k] - 1;
        cuemu_solver_value t = x[k];
        x[k] = x[p];
        x[p] = t;
      }
    }
  }
}

int cuemu__solver_cholesky(cuemu_solver_value *a, int64_t n, int uplo) {
  /* The lower form L L^H; the upper one is U = L^H, read and written
   * through the conjugate transpose. */
  int lower = uplo == CUEMU_LOWER;
#define L(i, j) (*(lower ? &AT(a, n, i, j) : &AT(a, n, j, i)))
#define LV(i, j) (lower ? AT(a, n, i, j) : conj(AT(a, n, j, i)))
  for (int64_t j = 0; j < n; ++j) {
    double d = creal(LV(j, j));
    for (int64_t k = 0; k < j; ++k)
      d -= creal(LV(j, k) * conj(LV(j, k)));
    if (!(d > 0)) {
      L(j, j) = d;
      return (int)(j + 1);
    }
    d = sqrt(d);
    L(j, j) = d;
    for (int64_t i = j + 1; i < n; ++i) {
      cuemu_solver_value v = LV(i, j);
      for (int64_t k = 0; k < j; ++k)
        v -= LV(i, k) * conj(LV(j, k));
      v /= d;
      L(i, j) = lower ? v : conj(v);
    }
  }
#undef L
#undef LV
  return 0;
}

void cuemu__solver_cholesky_solve(const cuemu_solver_value *f, int64_t n,
                                  int uplo, cuemu_solver_value *b,
                                  int64_t nrhs) {
  for (int64_t c = 0; c < nrhs; ++c) {
    cuemu_solver_value *x = b + c * n;
    if (uplo == CUEMU_LOWER) {
      /* A = L L^H */
      cuemu__solver_triangular_solve(f, n, CUEMU_OP_N, 1, 0, x);
      cuemu__solver_triangular_solve(f, n, CUEMU_OP_C, 1, 0, x);
    } else {
      /* A = U^H U */
      cuemu__solver_triangular_solve(f, n, CUEMU_OP_C, 0, 0, x);
      cuemu__solver_triangular_solve(f, n, CUEMU_OP_N, 0, 0, x);
    }
  }
}

/* LAPACK's larfg: the reflector H = I - tau v v^H (v[0] = 1) with
 * H^H [alpha; x] = [beta; 0], beta real; x becomes v's tail, alpha beta. */
cuemu_solver_value cuemu__solver_reflector(cuemu_solver_value *alpha,
                                           cuemu_solver_value *x, int64_t len) {
  double xnorm = 0;
  for (int64_t i = 0; i < len; ++i)
    xnorm = hypot(xnorm, cabs(x[i]));
  if (xnorm == 0 && cimag(*alpha) == 0)
    return 0;
  double beta = hypot(cabs(*alpha), xnorm);
  if (creal(*alpha) >= 0)
    beta = -beta;
  cuemu_solver_value tau = (beta - *alpha) / beta;
  cuemu_solver_value scale = 1 / (*alpha - beta);
  for (int64_t i = 0; i < len; ++i)
    x[i] *= scale;
  *alpha = beta;
  return tau;
}

/* c (m x n, leading dimension ldc) := (I - tau v v^H) c from the left,
 * v of length m. */
void cuemu__solver_reflect_left(const cuemu_solver_value *v,
                                cuemu_solver_value tau, cuemu_solver_value *c,
                                int64_t m, int64_t n, int64_t ldc) {
  if (tau == 0)
    return;
  for (int64_t j = 0; j < n; ++j) {
    cuemu_solver_value w = 0;
    for (int64_t i = 0; i < m; ++i)
      w += conj(v[i]) * AT(c, ldc, i, j);
    w *= tau;
    for (int64_t i = 0; i < m; ++i)
      AT(c, ldc, i, j) -= v[i] * w;
  }
}

/* c (m x n) := c (I - tau v v^H) from the right, v of length n. */
void cuemu__solver_reflect_right(const cuemu_solver_value *v,
                                 cuemu_solver_value tau, cuemu_solver_value *c,
                                 int64_t m, int64_t n, int64_t ldc) {
  if (tau == 0)
    return;
  for (int64_t i = 0; i < m; ++i) {
    cuemu_solver_value w = 0;
    for (int64_t j = 0; j < n; ++j)
      w += AT(c, ldc, i, j) * v[j];
    w *= tau;
    for (int64_t j = 0; j < n; ++j)
      AT(c, ldc, i, j) -= w * conj(v[j]);
  }
}

void cuemu__solver_qr(cuemu_solver_value *a, int64_t m, int64_t n,
                      cuemu_solver_value *tau) {
  int64_t k = m < n ? m : n;
  cuemu_solver_value *v = malloc((size_t)(m > 0 ? m : 1) * sizeof *v);
  if (!v)
    return;
  for (int64_t i = 0; i < k; ++i) {
    tau[i] = cuemu__solver_reflector(&AT(a, m, i, i), &AT(a, m, i + 1, i),
                                     m - i - 1);
    /* H(i)^H applied to the trailing columns. */
    v[0] = 1;
    for (int64_t r = 1; r < m - i; ++r)
      v[r] = AT(a, m, i + r, i);
    cuemu__solver_reflect_left(v, conj(tau[i]), &AT(a, m, i, i + 1), m - i,
                               n - i - 1, m);
  }
  free(v);
}

void cuemu__solver_apply_q(const cuemu_solver_value *vs, int64_t nv, int64_t k,
                           const cuemu_solver_value *tau, int side, int op,
                           int real, cuemu_solver_value *c, int64_t m,
                           int64_t n) {
  /* Q = H(1) ... H(k); Q^H = H(k)^H ... H(1)^H; H(i)^H has conj(tau). For a
   * real matrix T is C. */
  int adjoint = op != CUEMU_OP_N;
  (void)real;
  cuemu_solver_value *v = malloc((size_t)(nv > 0 ? nv : 1) * sizeof *v);
  if (!v)
    return;
  /* From the left Q C applies H(k) first; Q^H C H(1)^H first. From the
   * right C Q applies H(1) first; C Q^H H(k)^H first. */
  int forward = (side == CUEMU_SIDE_LEFT) == adjoint;
  for (int64_t s = 0; s < k; ++s) {
    int64_t i = forward ? s : k - 1 - s;
    int64_t len = nv - i;
    v[0] = 1;
    for (int64_t r = 1; r < len; ++r)
      v[r] = AT(vs, nv, i + r, i);
    cuemu_solver_value t = adjoint ? conj(tau[i]) : tau[i];
    if (side == CUEMU_SIDE_LEFT)
      cuemu__solver_reflect_left(v, t, &AT(c, m, i, 0), len, n, m);
    else
      cuemu__solver_reflect_right(v, t, &AT(c, m, 0, i), m, len, m);
  }
  free(v);
}
