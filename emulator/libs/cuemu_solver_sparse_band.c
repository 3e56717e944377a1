/*
 * cuemu_solver_sparse_band.c: the direct solver of cuSOLVER's sparse API
 * (cuemu_solver_sparse.h): reverse Cuthill-McKee ordering, band LU with
 * partial pivoting and band Cholesky, and their solves.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cuemu_solver_sparse.h"

/* The most memory a band factor may take: past it, ALLOC_FAILED (a GPU
 * runs out of memory on such matrices too). */
#define CUEMU_SP_BAND_BYTES ((size_t)1 << 31)

cusolverStatus_t cuemu__sp_csr(cusolverSpHandle_t h, int64_t m, int64_t n,
                               int64_t nnz, const struct cusparseMatDescr *d,
                               const void *values, const int *row_ptr,
                               const int *col_ind, cuemu_solver_type type,
                               cuemu_sp_csr *a) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (m < 0 || n < 0 || nnz < 0 || !d || (m > 0 && !row_ptr) ||
      (nnz > 0 && !col_ind))
    return CUSOLVER_STATUS_INVALID_VALUE;
  if (d->type != CUEMU_SP_MATRIX_GENERAL || (d->base != 0 && d->base != 1))
    return (cusolverStatus_t)CUEMU_SOLVER_MATRIX_TYPE_NOT_SUPPORTED;
  *a = (cuemu_sp_csr){m, n, nnz, row_ptr, col_ind, values, type, d->base};
  return CUSOLVER_STATUS_SUCCESS;
}

/* The symmetric pattern of the square a (A + A^T, no diagonal) as
 * adjacency lists: start[n + 1], adj. 0 when out of memory. */
static int symmetric_pattern(const cuemu_sp_csr *a, int64_t **start,
                             int64_t **adj) {
  int64_t n = a->n;
  int64_t *count = calloc((size_t)n + 1, sizeof *count);
  if (!count)
    return 0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = a->row_ptr[i] - a->base; k < a->row_ptr[i + 1] - a->base;
         ++k) {
      int64_t j = a->col_ind[k] - a->base;
      if (j != i && j >= 0 && j < n)
        count[i + 1]++, count[j + 1]++;
    }
  for (int64_t i = 0; i < n; ++i)
    count[i + 1] += count[i];
  int64_t *list = malloc(((size_t)count[n] + 1) * sizeof *list);
  int64_t *fill = malloc(((size_t)n + 1) * sizeof *fill);
  if (!list || !fill) {
    free(count), free(list), free(fill);
    return 0;
  }
  memcpy(fill, count, (size_t)n * sizeof *fill);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = a->row_ptr[i] - a->base; k < a->row_ptr[i + 1] - a->base;
         ++k) {
      int64_t j = a->col_ind[k] - a->base;
      if (j != i && j >= 0 && j < n)
        list[fill[i]++] = j, list[fill[j]++] = i;
    }
  free(fill);
  *start = count, *adj = list;
  return 1;
}

int cuemu__sp_rcm(const cuemu_sp_csr *a, int64_t *p) {
  int64_t n = a->n, *start, *adj;
  if (n == 0)
    return 1;
  if (!symmetric_pattern(a, &start, &adj))
    return 0;
  char *seen = calloc((size_t)n, 1);
  int64_t *degree = malloc((size_t)n * sizeof *degree);
  if (!seen || !degree) {
    free(start), free(adj), free(seen), free(degree);
    return 0;
  }
  for (int64_t i = 0; i < n; ++i)
    degree[i] = start[i + 1] - start[i];
  /* Breadth-first from a node of least degree in each component, the
   * neighbours of each node in increasing degree; then reversed. */
  int64_t done = 0;
  while (done < n) {
    int64_t root = -1;
    for (int64_t i = 0; i < n; ++i)
      if (!seen[i] && (root < 0 || degree[i] < degree[root]))
        root = i;
    int64_t head = done;
    p[done++] = root, seen[root] = 1;
    while (head < done) {
      int64_t v = p[head++], first = done;
      for (int64_t k = start[v]; k < start[v + 1]; ++k)
        if (!seen[adj[k]])
          seen[adj[k]] = 1, p[done++] = adj[k];
      /* Insertion sort of the new ones by degree (few at a time). */
      for (int64_t i = first + 1; i < done; ++i)
        for (int64_t j = i; j > first && degree[p[j]] < degree[p[j - 1]]; --j) {
          int64_t t = p[j];
          p[j] = p[j - 1], p[j - 1] = t;
        }
    }
  }
  for (int64_t i = 0; i < n / 2; ++i) {
    int64_t t = p[i];
    p[i] = p[n - 1 - i], p[n - 1 - i] = t;
  }
  free(start), free(adj), free(seen), free(degree);
  return 1;
}

void cuemu__sp_factor_free(cuemu_sp_factor *f) {
  free(f->ab), free(f->perm), free(f->pivots), free(f->pivot_size);
  memset(f, 0, sizeof *f);
}

/* Element (i, j) of the band storage (new numbering). */
static inline cuemu_solver_value *at(const cuemu_sp_factor *f, int64_t i,
                                     int64_t j) {
  return &f->ab[(f->kl + f->ku + i - j) + j * f->ld];
}

/* Cholesky's lower factor: L(i, j) for j <= i <= j + kl. */
static inline cuemu_solver_value *lat(const cuemu_sp_factor *f, int64_t i,
                                      int64_t j) {
  return &f->ab[(i - j) + j * f->ld];
}

/* Band LU with partial pivoting (LAPACK's gbtf2). */
static void factor_lu(cuemu_sp_factor *f) {
  int64_t n = f->n, kl = f->kl, kv = f->kl + f->ku, ju = 0;
  for (int64_t j = 0; j < n; ++j) {
    int64_t km = kl < n - 1 - j ? kl : n - 1 - j, jp = 0;
    double best = -1;
    for (int64_t q = 0; q <= km; ++q)
      if (cabs(*at(f, j + q, j)) > best)
        best = cabs(*at(f, j + q, j)), jp = q;
    f->pivots[j] = j + jp;
    f->pivot_size[j] = best;
    if (best == 0)
      continue;
    int64_t last = j + kv < n - 1 ? j + kv : n - 1;
    if (j + f->ku + jp > ju)
      ju = j + f->ku + jp < last ? j + f->ku + jp : last;
    if (jp)
      for (int64_t c = j; c <= ju; ++c) {
        cuemu_solver_value t = *at(f, j, c);
        *at(f, j, c) = *at(f, j + jp, c), *at(f, j + jp, c) = t;
      }
    cuemu_solver_value pivot = *at(f, j, j);
    for (int64_t q = 1; q <= km; ++q)
      *at(f, j + q, j) /= pivot;
    for (int64_t c = j + 1; c <= ju; ++c) {
      cuemu_solver_value u = *at(f, j, c);
      if (u != 0)
        for (int64_t q = 1; q <= km; ++q)
          *at(f, j + q, c) -= *at(f, j + q, j) * u;
    }
  }
}

/* Band Cholesky, A = L L^H, on the lower band. */
static void factor_cholesky(cuemu_sp_factor *f) {
  int64_t n = f->n, kl = f->kl;
  for (int64_t j = 0; j < n; ++j) {
    double d = creal(*lat(f, j, j));
    int64_t from = j - kl > 0 ? j - kl : 0;
    for (int64_t k = from; k < j; ++k) {
      cuemu_solver_value l = *lat(f, j, k);
      d -= creal(l * conj(l));
    }
    if (!(d > 0)) {
      f->pivot_size[j] = d > 0 ? sqrt(d) : 0;
      /* Not positive definite: the rest is not computed. */
      for (int64_t r = j + 1; r < n; ++r)
        f->pivot_size[r] = 0;
      return;
    }
    double ljj = sqrt(d);
    f->pivot_size[j] = ljj;
    *lat(f, j, j) = ljj;
    int64_t to = j + kl < n - 1 ? j + kl : n - 1;
    for (int64_t i = j + 1; i <= to; ++i) {
      cuemu_solver_value s = *lat(f, i, j);
      int64_t k0 = i - kl > from ? i - kl : from;
      for (int64_t k = k0; k < j; ++k)
        s -= *lat(f, i, k) * conj(*lat(f, j, k));
      *lat(f, i, j) = s / ljj;
    }
  }
}

cusolverStatus_t cuemu__sp_factor(const cuemu_sp_csr *a, int cholesky,
                                  cuemu_solver_value mu, cuemu_sp_factor *f) {
  memset(f, 0, sizeof *f);
  int64_t n = a->n;
  f->n = n, f->cholesky = cholesky;
  f->perm = malloc(((size_t)n + 1) * sizeof *f->perm);
  int64_t *inverse = malloc(((size_t)n + 1) * sizeof *inverse);
  if (!f->perm || !inverse || !cuemu__sp_rcm(a, f->perm)) {
    free(inverse);
    cuemu__sp_factor_free(f);
    return CUSOLVER_STATUS_ALLOC_FAILED;
  }
  for (int64_t i = 0; i < n; ++i)
    inverse[f->perm[i]] = i;
  /* The widths of the reordered matrix (of its lower triangle and that
   * triangle's transpose for Cholesky). */
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = a->row_ptr[i] - a->base; k < a->row_ptr[i + 1] - a->base;
         ++k) {
      int64_t j = a->col_ind[k] - a->base;
      if (j < 0 || j >= n || (cholesky && j > i))
        continue;
      int64_t d = inverse[i] - inverse[j];
      if (cholesky && d < 0)
        d = -d;
      if (d > f->kl)
        f->kl = d;
      if (-d > f->ku)
        f->ku = -d;
    }
  f->ld = cholesky ? f->kl + 1 : 2 * f->kl + f->ku + 1;
  if (cholesky)
    f->ku = 0;
  size_t count = (size_t)f->ld * (size_t)(n ? n : 1);
  if ((double)count * sizeof(cuemu_solver_value) > (double)CUEMU_SP_BAND_BYTES)
    count = 0;
  f->ab = count ? calloc(count, sizeof *f->ab) : NULL;
  f->pivots = malloc(((size_t)n + 1) * sizeof *f->pivots);
  f->pivot_size = malloc(((size_t)n + 1) * sizeof *f->pivot_size);
  if (!f->ab || !f->pivots || !f->pivot_size) {
    free(inverse);
    cuemu__sp_factor_free(f);
    return CUSOLVER_STATUS_ALLOC_FAILED;
  }
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = a->row_ptr[i] - a->base; k < a->row_ptr[i + 1] - a->base;
         ++k) {
      int64_t j = a->col_ind[k] - a->base;
      if (j < 0 || j >= n || (cholesky && j > i))
        continue;
      cuemu_solver_value v = cuemu__solver_load(a->values, a->type, k);
      int64_t r = inverse[i], c = inverse[j];
      if (!cholesky)
        *at(f, r, c) += v;
      else if (r >= c)
        *lat(f, r, c) += v;
      else
        *lat(f, c, r) += conj(v);
    }
  for (int64_t i = 0; i < n && mu != 0; ++i)
    if (cholesky)
      *lat(f, i, i) -= mu;
    else
      *at(f, i, i) -= mu;
  free(inverse);
  if (cholesky)
    factor_cholesky(f);
  else
    factor_lu(f);
  return CUSOLVER_STATUS_SUCCESS;
}

int cuemu__sp_zero_pivot(const cuemu_sp_factor *f, double tol) {
  for (int64_t j = 0; j < f->n; ++j)
    if (f->pivot_size[j] <= tol || (f->cholesky && !(f->pivot_size[j] > 0)))
      return (int)f->perm[j];
  return -1;
}

void cuemu__sp_solve(const cuemu_sp_factor *f, cuemu_solver_type type,
                     const void *b, void *x) {
  int64_t n = f->n, kl = f->kl, kv = f->kl + f->ku;
  cuemu_solver_value *y = malloc(((size_t)n + 1) * sizeof *y);
  if (!y)
    return;
  for (int64_t i = 0; i < n; ++i)
    y[i] = cuemu__solver_load(b, type, f->perm[i]);
  if (f->cholesky) {
    /* L z = y, then L^H w = z. */
    for (int64_t j = 0; j < n; ++j) {
      y[j] /= *lat(f, j, j);
      int64_t to = j + kl < n - 1 ? j + kl : n - 1;
      for (int64_t i = j + 1; i <= to; ++i)
        y[i] -= *lat(f, i, j) * y[j];
    }
    for (int64_t j = n - 1; j >= 0; --j) {
      int64_t to = j + kl < n - 1 ? j + kl : n - 1;
      for (int64_t i = j + 1; i <= to; ++i)
        y[j] -= conj(*lat(f, i, j)) * y[i];
      y[j] /= *lat(f, j, j);
    }
  } else {
    /* P L: the row interchanges and multipliers in order, then U. */
    for (int64_t j = 0; j < n; ++j) {
      int64_t lm = kl < n - 1 - j ? kl : n - 1 - j, p = f->pivots[j];
      if (p != j) {
        cuemu_solver_value t = y[j];
        y[j] = y[p], y[p] = t;
      }
      for (int64_t q = 1; q <= lm; ++q)
        y[j + q] -= *at(f, j + q, j) * y[j];
    }
    for (int64_t j = n - 1; j >= 0; --j) {
      y[j] /= *at(f, j, j);
      int64_t from = j - kv > 0 ? j - kv : 0;
      for (int64_t i = from; i < j; ++i)
        y[i] -= *at(f, i, j) * y[j];
    }
  }
  for (int64_t i = 0; i < n; ++i)
    cuemu__solver_store(x, type, f->perm[i], y[i]);
  free(y);
}
