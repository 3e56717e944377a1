/*
 * cuemu_solver_spectral.c: the eigen-solver and the SVD of cuemu's
 * cuSOLVER on dense working matrices in complex double (cuemu_solver.h):
 * cyclic two-sided Jacobi for Hermitian matrices and one-sided (Hestenes)
 * Jacobi for the SVD, each rotation made real by a unit phase first.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cuemu_solver.h"

#define AT(a, ld, i, j) ((a)[(int64_t)(j) * (ld) + (i)])
#define SWEEPS 60

/* The real rotation that zeroes the off-diagonal g of the symmetric 2 x 2
 * [app g; g aqq] (Rutishauser's formulas): c and s. */
static void jacobi_rotation(double app, double aqq, double g, double *c,
                            double *s) {
  double theta = (aqq - app) / (2 * g);
  double t = (theta >= 0 ? 1 : -1) / (fabs(theta) + sqrt(theta * theta + 1));
  *c = 1 / sqrt(t * t + 1);
  *s = *c * t;
}

/* Columns p and q of a (rows x ...) := [a_p a_q] [c s; -s c]. */
static void rotate_columns(cuemu_solver_value *a, int64_t rows, int64_t p,
                           int64_t q, double c, double s) {
  for (int64_t i = 0; i < rows; ++i) {
    cuemu_solver_value x = AT(a, rows, i, p), y = AT(a, rows, i, q);
    AT(a, rows, i, p) = c * x - s * y;
    AT(a, rows, i, q) = s * x + c * y;
  }
}

void cuemu__solver_hermitian(cuemu_solver_value *a, int64_t n, int uplo) {
  for (int64_t j = 0; j < n; ++j) {
    AT(a, n, j, j) = creal(AT(a, n, j, j));
    for (int64_t i = j + 1; i < n; ++i) {
      if (uplo == CUEMU_LOWER)
        AT(a, n, j, i) = conj(AT(a, n, i, j));
      else
        AT(a, n, i, j) = conj(AT(a, n, j, i));
    }
  }
}

/* The Frobenius norm of the n x n a's off-diagonal part. */
static double off_diagonal(const cuemu_solver_value *a, int64_t n) {
  double off = 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i)
      if (i != j)
        off = hypot(off, cabs(AT(a, n, i, j)));
  return off;
}

int cuemu__solver_eigh(cuemu_solver_value *a, int64_t n, double *w,
                       int vectors) {
  return cuemu__solver_eigh_jacobi(a, n, w, vectors, NULL);
}

int cuemu__solver_eigh_jacobi(cuemu_solver_value *a, int64_t n, double *w,
                              int vectors, cuemu_solver_sweeps *ctl) {
  cuemu_solver_value *v = calloc((size_t)(n > 0 ? n * n : 1), sizeof *v);
  if (!v)
    return 1;
  for (int64_t i = 0; i < n; ++i)
    AT(v, n, i, i) = 1;
  double norm = 0;
  for (int64_t i = 0; i < n * n; ++i)
    norm = hypot(norm, cabs(a[i]));
  int converged = 0, sweeps = ctl ? ctl->max_sweeps : SWEEPS;
  if (ctl)
    ctl->sweeps = 0;
  for (int sweep = 0; sweep < sweeps && !converged; ++sweep) {
    if (ctl && off_diagonal(a, n) <= ctl->tol * norm) {
      converged = 1;
      break;
    }
    if (ctl)
      ctl->sweeps = sweep + 1;
    converged = 1;
    for (int64_t p = 0; p < n; ++p)
      for (int64_t q = p + 1; q < n; ++q) {
        double g = cabs(AT(a, n, p, q));
        if (g <= DBL_EPSILON * norm)
          continue;
        converged = 0;
        /* D = diag(1, ..., conj(e) at q, ...) makes (D^H A D)_pq = g. */
        cuemu_solver_value e = AT(a, n, p, q) / g;
        for (int64_t i = 0; i < n; ++i) {
          AT(a, n, i, q) *= conj(e);
          AT(v, n, i, q) *= conj(e);
        }
        for (int64_t j = 0; j < n; ++j)
          AT(a, n, q, j) *= e;
        double c, s;
        jacobi_rotation(creal(AT(a, n, p, p)), creal(AT(a, n, q, q)), g, &c,
                        &s);
        /* A := J^T A J, V := V J with J = [c s; -s c] on (p, q). */
        rotate_columns(a, n, p, q, c, s);
        rotate_columns(v, n, p, q, c, s);
        for (int64_t j = 0; j < n; ++j) {
          cuemu_solver_value x = AT(a, n, p, j), y = AT(a, n, q, j);
          AT(a, n, p, j) = c * x - s * y;
          AT(a, n, q, j) = s * x + c * y;
        }
        AT(a, n, p, q) = AT(a, n, q, p) = 0;
      }
  }
  if (ctl) {
    ctl->residual = off_diagonal(a, n);
    converged = converged || ctl->residual <= ctl->tol * norm;
    goto done;
  }
  /* Sweeps that ran out with only rounding-level elements left off the
   * diagonal have converged too. */
  for (int64_t j = 0; j < n && !converged; ++j)
    for (int64_t i = 0; i < n; ++i)
      if (i != j && cabs(AT(a, n, i, j)) > 64 * DBL_EPSILON * norm)
        goto done;
  converged = 1;
done:
  /* Ascending eigenvalues, their vectors with them (selection sort). */
  for (int64_t i = 0; i < n; ++i)
    w[i] = creal(AT(a, n, i, i));
  for (int64_t i = 0; i < n && !(ctl && ctl->unsorted); ++i) {
    int64_t m = i;
    for (int64_t j = i + 1; j < n; ++j)
      if (w[j] < w[m])
        m = j;
    if (m != i) {
      double t = w[i];
      w[i] = w[m];
      w[m] = t;
      for (int64_t r = 0; r < n; ++r) {
        cuemu_solver_value x = AT(v, n, r, i);
        AT(v, n, r, i) = AT(v, n, r, m);
        AT(v, n, r, m) = x;
      }
    }
  }
  if (vectors)
    memcpy(a, v, (size_t)(n * n) * sizeof *v);
  free(v);
  return !converged;
}

static double column_norm2(const cuemu_solver_value *a, int64_t rows,
                           int64_t j) {
  double s = 0;
  for (int64_t i = 0; i < rows; ++i)
    s += creal(AT(a, rows, i, j) * conj(AT(a, rows, i, j)));
  return s;
}

/* Makes column j of u (m rows) orthonormal to the columns before it, from
 * its own values, or from the unit vectors when they are (nearly) in their
 * span: the completion of U's basis. */
static void orthonormalize(cuemu_solver_value *u, int64_t m, int64_t j) {
  for (int64_t attempt = -1; attempt < m; ++attempt) {
    if (attempt >= 0)
      for (int64_t i = 0; i < m; ++i)
        AT(u, m, i, j) = i == attempt;
    for (int pass = 0; pass < 2; ++pass)
      for (int64_t k = 0; k < j; ++k) {
        cuemu_solver_value d = 0;
        for (int64_t i = 0; i < m; ++i)
          d += conj(AT(u, m, i, k)) * AT(u, m, i, j);
        for (int64_t i = 0; i < m; ++i)
          AT(u, m, i, j) -= d * AT(u, m, i, k);
      }
    double norm = sqrt(column_norm2(u, m, j));
    if (norm > 1e-8) {
      for (int64_t i = 0; i < m; ++i)
        AT(u, m, i, j) /= norm;
      return;
    }
  }
}

int cuemu__solver_svd(const cuemu_solver_value *a, int64_t m, int64_t n,
                      double *s, cuemu_solver_value *u,
                      cuemu_solver_value *vt) {
  return cuemu__solver_svd_jacobi(a, m, n, s, u, vt, NULL);
}

int cuemu__solver_svd_jacobi(const cuemu_solver_value *a, int64_t m, int64_t n,
                             double *s, cuemu_solver_value *u,
                             cuemu_solver_value *vt, cuemu_solver_sweeps *ctl) {
  /* u's first n columns start as A and are rotated until orthogonal:
   * A V = U S. */
  cuemu_solver_value *v = calloc((size_t)(n > 0 ? n * n : 1), sizeof *v);
  if (!v)
    return 1;
  memset(u, 0, (size_t)(m * m) * sizeof *u);
  memcpy(u, a, (size_t)(m * n) * sizeof *u);
  for (int64_t i = 0; i < n; ++i)
    AT(v, n, i, i) = 1;
  int converged = 0, sweeps = ctl ? ctl->max_sweeps : SWEEPS;
  double tol = ctl && ctl->tol > DBL_EPSILON ? ctl->tol : DBL_EPSILON;
  if (ctl)
    ctl->sweeps = 0;
  for (int sweep = 0; sweep < sweeps && !converged; ++sweep) {
    converged = 1;
    for (int64_t p = 0; p < n; ++p)
      for (int64_t q = p + 1; q < n; ++q) {
        double alpha = column_norm2(u, m, p), beta = column_norm2(u, m, q);
        cuemu_solver_value gamma = 0;
        for (int64_t i = 0; i < m; ++i)
          gamma += conj(AT(u, m, i, p)) * AT(u, m, i, q);
        double g = cabs(gamma);
        if (g == 0 || g <= tol * sqrt(alpha * beta))
          continue;
        if (ctl && converged)
          ctl->sweeps = sweep + 1;
        converged = 0;
        cuemu_solver_value e = gamma / g;
        for (int64_t i = 0; i < m; ++i)
          AT(u, m, i, q) *= conj(e);
        for (int64_t i = 0; i < n; ++i)
          AT(v, n, i, q) *= conj(e);
        double c, sn;
        jacobi_rotation(alpha, beta, g, &c, &sn);
        rotate_columns(u, m, p, q, c, sn);
        rotate_columns(v, n, p, q, c, sn);
      }
  }
  for (int64_t j = 0; j < n; ++j)
    s[j] = sqrt(column_norm2(u, m, j));
  if (ctl) {
    /* (U^H A V)_pq = u_p^H (A v_q) with u_p = (A v_p) / s_p: the
     * rotated columns' inner products, each divided by s_p. */
    double off = 0;
    int orthogonal = 1;
    for (int64_t p = 0; p < n; ++p)
      for (int64_t q = 0; q < n && s[p] > 0; ++q)
        if (q != p) {
          cuemu_solver_value d = 0;
          for (int64_t i = 0; i < m; ++i)
            d += conj(AT(u, m, i, p)) * AT(u, m, i, q);
          off = hypot(off, cabs(d) / s[p]);
          orthogonal = orthogonal && cabs(d) <= tol * s[p] * s[q];
        }
    ctl->residual = off;
    /* The last sweep allowed may have made every pair orthogonal. */
    converged = converged || orthogonal;
  }
  /* Descending singular values, U's and V's columns with them. */
  for (int64_t i = 0; i < n && !(ctl && ctl->unsorted); ++i) {
    int64_t k = i;
    for (int64_t j = i + 1; j < n; ++j)
      if (s[j] > s[k])
        k = j;
    if (k != i) {
      double t = s[i];
      s[i] = s[k];
      s[k] = t;
      for (int64_t r = 0; r < m; ++r) {
        cuemu_solver_value x = AT(u, m, r, i);
        AT(u, m, r, i) = AT(u, m, r, k);
        AT(u, m, r, k) = x;
      }
      for (int64_t r = 0; r < n; ++r) {
        cuemu_solver_value x = AT(v, n, r, i);
        AT(v, n, r, i) = AT(v, n, r, k);
        AT(v, n, r, k) = x;
      }
    }
  }
  double largest = 0;
  for (int64_t j = 0; j < n; ++j)
    largest = s[j] > largest ? s[j] : largest;
  double tiny = (largest > 0 ? largest : 1) * DBL_EPSILON * (double)(m > n ? m : n);
  for (int64_t j = 0; j < m; ++j) {
    if (j < n && s[j] > tiny) {
      for (int64_t i = 0; i < m; ++i)
        AT(u, m, i, j) /= s[j];
    } else
      orthonormalize(u, m, j);
  }
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      AT(vt, n, i, j) = conj(AT(v, n, j, i));
  free(v);
  return !converged;
}
