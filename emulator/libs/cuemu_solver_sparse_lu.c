/*
 * cuemu_solver_sparse_lu.c: explicit sparse LU factors (cuemu_solver_sparse.h)
 * for cusolverSpXcsrluNnzHost and csrluExtractHost, and the refactorization
 * and solves of cusolverRf on them.
 *
 * The row order is the band factorization's (its reverse Cuthill-McKee
 * ordering and partial pivoting), so B = P A Q^T needs no pivoting; its
 * factors are computed row by row (the i-k-j order), each row's fill found
 * as it is eliminated.
 */
#include <stdlib.h>
#include <string.h>

#include "cuemu_solver_sparse.h"

void cuemu__sp_lu_free(cuemu_sp_lu *lu) {
  free(lu->P), free(lu->Q), free(lu->l_rows), free(lu->l_cols);
  free(lu->u_rows), free(lu->u_cols), free(lu->l_vals), free(lu->u_vals);
  memset(lu, 0, sizeof *lu);
}

/* A growing array of (column, value) entries of one factor. */
typedef struct {
  int *cols;
  cuemu_solver_value *vals;
  size_t n, cap;
} entries;

static int push(entries *e, int col, cuemu_solver_value v) {
  if (e->n == e->cap) {
    size_t cap = e->cap ? 2 * e->cap : 1024;
    int *cols = realloc(e->cols, cap * sizeof *cols);
    if (cols)
      e->cols = cols;
    cuemu_solver_value *vals = realloc(e->vals, cap * sizeof *vals);
    if (vals)
      e->vals = vals;
    if (!cols || !vals)
      return 0;
    e->cap = cap;
  }
  e->cols[e->n] = col, e->vals[e->n] = v, e->n++;
  return 1;
}

cusolverStatus_t cuemu__sp_lu_explicit(const cuemu_sp_csr *a,
                                       const cuemu_sp_factor *f,
                                       cuemu_sp_lu *lu) {
  int64_t n = a->n;
  memset(lu, 0, sizeof *lu);
  lu->n = n;
  lu->P = malloc(((size_t)n + 1) * sizeof *lu->P);
  lu->Q = malloc(((size_t)n + 1) * sizeof *lu->Q);
  lu->l_rows = malloc(((size_t)n + 1) * sizeof *lu->l_rows);
  lu->u_rows = malloc(((size_t)n + 1) * sizeof *lu->u_rows);
  int64_t *order = malloc(((size_t)n + 1) * sizeof *order);
  int *qinv = malloc(((size_t)n + 1) * sizeof *qinv);
  cuemu_solver_value *x = calloc((size_t)n + 1, sizeof *x);
  char *mark = calloc((size_t)n + 1, 1);
  entries l = {0}, u = {0};
  int ok =
      lu->P && lu->Q && lu->l_rows && lu->u_rows && order && qinv && x && mark;
  /* The row order of the pivoting, applied to the reordered matrix. */
  for (int64_t i = 0; ok && i < n; ++i)
    order[i] = i;
  for (int64_t j = 0; ok && j < n; ++j) {
    int64_t p = f->pivots[j], t = order[j];
    order[j] = order[p], order[p] = t;
  }
  for (int64_t i = 0; ok && i < n; ++i) {
    lu->P[i] = (int)f->perm[order[i]];
    lu->Q[i] = (int)f->perm[i];
    qinv[f->perm[i]] = (int)i;
  }
  for (int64_t i = 0; ok && i < n; ++i) {
    /* Row i of B, scattered; its columns' range. */
    int64_t first = n, last = i, src = lu->P[i];
    for (int64_t k = a->row_ptr[src] - a->base;
         k < a->row_ptr[src + 1] - a->base; ++k) {
      int64_t c = a->col_ind[k] - a->base;
      if (c < 0 || c >= n)
        continue;
      int64_t j = qinv[c];
      x[j] += cuemu__solver_load(a->values, a->type, k);
      mark[j] = 1;
      first = j < first ? j : first;
      last = j > last ? j : last;
    }
    lu->l_rows[i] = (int)l.n, lu->u_rows[i] = (int)u.n;
    for (int64_t k = first; ok && k < i; ++k) {
      if (!mark[k])
        continue;
      cuemu_solver_value m = x[k] / u.vals[lu->u_rows[k]]; /* U(k, k) */
      ok = push(&l, (int)k, m);
      for (int q = lu->u_rows[k] + 1; ok && q < lu->u_rows[k + 1]; ++q) {
        int j = u.cols[q];
        if (!mark[j])
          mark[j] = 1, x[j] = 0;
        x[j] -= m * u.vals[q];
        last = j > last ? j : last;
      }
      mark[k] = 0, x[k] = 0;
    }
    ok = ok && push(&l, (int)i, 1);
    /* U's row: the diagonal first, stored even when zero. */
    ok = ok && push(&u, (int)i, x[i]);
    mark[i] = 0, x[i] = 0;
    for (int64_t j = i + 1; ok && j <= last; ++j)
      if (mark[j]) {
        ok = push(&u, (int)j, x[j]);
        mark[j] = 0, x[j] = 0;
      }
  }
  if (ok) {
    lu->l_rows[n] = (int)l.n, lu->u_rows[n] = (int)u.n;
    lu->l_cols = l.cols, lu->l_vals = l.vals;
    lu->u_cols = u.cols, lu->u_vals = u.vals;
  } else {
    free(l.cols), free(l.vals), free(u.cols), free(u.vals);
    cuemu__sp_lu_free(lu);
  }
  free(order), free(qinv), free(x), free(mark);
  return ok ? CUSOLVER_STATUS_SUCCESS : CUSOLVER_STATUS_ALLOC_FAILED;
}

int64_t cuemu__sp_lu_refactor(const cuemu_sp_csr *a, cuemu_sp_lu *lu,
                              double zero, double boost, int *boosted) {
  int64_t n = lu->n, zero_row = -1;
  int *qinv = malloc(((size_t)n + 1) * sizeof *qinv);
  cuemu_solver_value *x = calloc((size_t)n + 1, sizeof *x);
  if (!qinv || !x) {
    free(qinv), free(x);
    return 0;
  }
  for (int64_t j = 0; j < n; ++j)
    qinv[lu->Q[j]] = (int)j;
  *boosted = 0;
  for (int64_t i = 0; i < n; ++i) {
    int src = lu->P[i];
    for (int64_t k = a->row_ptr[src] - a->base;
         k < a->row_ptr[src + 1] - a->base; ++k) {
      int64_t c = a->col_ind[k] - a->base;
      if (c >= 0 && c < n)
        x[qinv[c]] += cuemu__solver_load(a->values, a->type, k);
    }
    /* L's row (its stored unit diagonal last), in increasing columns. */
    for (int q = lu->l_rows[i]; q < lu->l_rows[i + 1]; ++q) {
      int k = lu->l_cols[q];
      if (k == i)
        continue;
      cuemu_solver_value m = x[k] / lu->u_vals[lu->u_rows[k]];
      lu->l_vals[q] = m;
      for (int r = lu->u_rows[k] + 1; r < lu->u_rows[k + 1]; ++r)
        x[lu->u_cols[r]] -= m * lu->u_vals[r];
      x[k] = 0;
    }
    for (int q = lu->u_rows[i]; q < lu->u_rows[i + 1]; ++q) {
      int j = lu->u_cols[q];
      cuemu_solver_value v = x[j];
      if (j == i && cabs(v) < zero) {
        if (zero_row < 0)
          zero_row = i;
        if (boost > 0)
          v = boost, *boosted = 1;
      }
      lu->u_vals[q] = v;
    }
    /* The rest of the row (outside the pattern) is dropped: every place
     * written is cleared, the row's own and those its eliminations
     * touched. */
    for (int64_t k = a->row_ptr[src] - a->base;
         k < a->row_ptr[src + 1] - a->base; ++k) {
      int64_t c = a->col_ind[k] - a->base;
      if (c >= 0 && c < n)
        x[qinv[c]] = 0;
    }
    for (int q = lu->l_rows[i]; q < lu->l_rows[i + 1]; ++q)
      for (int r = lu->u_rows[lu->l_cols[q]]; r < lu->u_rows[lu->l_cols[q] + 1];
           ++r)
        x[lu->u_cols[r]] = 0;
  }
  free(qinv), free(x);
  return zero_row;
}

void cuemu__sp_lu_solve(const cuemu_sp_lu *lu, cuemu_solver_type type,
                        const void *b, void *x) {
  int64_t n = lu->n;
  cuemu_solver_value *y = malloc(((size_t)n + 1) * sizeof *y);
  if (!y)
    return;
  for (int64_t i = 0; i < n; ++i)
    y[i] = cuemu__solver_load(b, type, lu->P[i]);
  for (int64_t i = 0; i < n; ++i)
    for (int q = lu->l_rows[i]; q < lu->l_rows[i + 1]; ++q)
      if (lu->l_cols[q] != i)
        y[i] -= lu->l_vals[q] * y[lu->l_cols[q]];
  for (int64_t i = n - 1; i >= 0; --i) {
    for (int q = lu->u_rows[i] + 1; q < lu->u_rows[i + 1]; ++q)
      y[i] -= lu->u_vals[q] * y[lu->u_cols[q]];
    y[i] /= lu->u_vals[lu->u_rows[i]];
  }
  for (int64_t j = 0; j < n; ++j)
    cuemu__solver_store(x, type, lu->Q[j], y[j]);
  free(y);
}
