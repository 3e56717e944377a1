// Matrix-free conjugate gradients for -lap(u) = f on the unit square
// (5-point stencil, homogeneous Dirichlet), n*n interior unknowns.
#ifndef CFD_POISSON_CUH
#define CFD_POISSON_CUH

#include <cassert>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "cuda_check.cuh"
#include "reduce.cuh"

namespace cg = cooperative_groups;

namespace cfd {

// y = A x with A the 5-point negative Laplacian scaled by h^2.
__device__ __forceinline__ double apply_laplacian(const double *__restrict__ x,
                                                  int i, int j, int n) {
  const int c = j * n + i;
  double s = 4.0 * __ldg(&x[c]);
  if (i > 0) s -= __ldg(&x[c - 1]);
  if (i < n - 1) s -= __ldg(&x[c + 1]);
  if (j > 0) s -= __ldg(&x[c - n]);
  if (j < n - 1) s -= __ldg(&x[c + n]);
  return s;
}

// ---- One launch per operation ------------------------------------------

template <int BLOCK>
__global__ void spmv_dot_kernel(const double *__restrict__ p,
                                double *__restrict__ ap, int n,
                                double *__restrict__ p_ap) {
  const int total = n * n;
  double local = 0.0;
  for (int c = blockIdx.x * BLOCK + threadIdx.x; c < total;
       c += BLOCK * gridDim.x) {
    const double v = apply_laplacian(p, c % n, c / n, n);
    ap[c] = v;
    local += v * p[c];
  }
  block_sum_atomic<BLOCK>(local, p_ap);
}

// x += alpha p, r -= alpha Ap, and r.r into *rr (cooperative_groups reduce).
template <int BLOCK>
__global__ void update_xr_kernel(double *__restrict__ x, double *__restrict__ r,
                                 const double *__restrict__ p,
                                 const double *__restrict__ ap,
                                 const double *__restrict__ rr_old,
                                 const double *__restrict__ p_ap, int total,
                                 double *__restrict__ rr_new) {
  const double alpha = *rr_old / *p_ap;
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  __shared__ double warp_sums[BLOCK / 32];
  double local = 0.0;
  for (int c = blockIdx.x * BLOCK + threadIdx.x; c < total;
       c += BLOCK * gridDim.x) {
    x[c] += alpha * __ldg(&p[c]);
    const double rc = r[c] - alpha * __ldg(&ap[c]);
    r[c] = rc;
    local += rc * rc;
  }
  const double wsum = cg::reduce(warp, local, cg::plus<double>());
  if (warp.thread_rank() == 0)
    warp_sums[warp.meta_group_rank()] = wsum;
  block.sync();
  if (warp.meta_group_rank() == 0) {
    double v = warp.thread_rank() < BLOCK / 32 ? warp_sums[warp.thread_rank()] : 0.0;
    v = cg::reduce(warp, v, cg::plus<double>());
    if (warp.thread_rank() == 0) {
      assert(!isnan(v) && "residual is NaN");
      atomicAdd(rr_new, v);
    }
  }
}

__global__ void update_p_kernel(double *__restrict__ p,
                                const double *__restrict__ r,
                                const double *__restrict__ rr_new,
                                const double *__restrict__ rr_old, int total) {
  const double beta = *rr_new / *rr_old;
  for (int c = blockIdx.x * blockDim.x + threadIdx.x; c < total;
       c += blockDim.x * gridDim.x)
    p[c] = __ldg(&r[c]) + beta * p[c];
}

// ---- Persistent cooperative kernel ---------------------------------------

struct CgWork {
  double *x, *r, *p, *ap;
  double *scalars; // [0..1] p.Ap by parity, [2..3] r.r by parity
  int *iterations;
  double *final_rr;
};

template <int BLOCK>
__global__ void cg_persistent_kernel(CgWork w, int n, double rr0, double tol2,
                                     int max_iter, int print_every) {
  cg::grid_group grid = cg::this_grid();
  const int total = n * n;
  const int stride = BLOCK * gridDim.x;
  const int first = blockIdx.x * BLOCK + threadIdx.x;
  double rr = rr0;
  int k = 0;
  for (; k < max_iter && rr > tol2; ++k) {
    double *p_ap = &w.scalars[k & 1];
    double *rr_new = &w.scalars[2 + (k & 1)];
    double local = 0.0;
    for (int c = first; c < total; c += stride) {
      const double v = apply_laplacian(w.p, c % n, c / n, n);
      w.ap[c] = v;
      local += v * w.p[c];
    }
    block_sum_atomic<BLOCK>(local, p_ap);
    grid.sync();

    if (grid.thread_rank() == 0) {
      // Zero the other parity's accumulators for the next iteration.
      w.scalars[(k + 1) & 1] = 0.0;
      w.scalars[2 + ((k + 1) & 1)] = 0.0;
    }
    const double alpha = rr / *p_ap;
    local = 0.0;
    for (int c = first; c < total; c += stride) {
      w.x[c] += alpha * w.p[c];
      const double rc = w.r[c] - alpha * w.ap[c];
      w.r[c] = rc;
      local += rc * rc;
    }
    block_sum_atomic<BLOCK>(local, rr_new);
    grid.sync();

    const double rr_next = *rr_new;
    assert(!isnan(rr_next));
    const double beta = rr_next / rr;
    rr = rr_next;
    if (blockIdx.x == 0 && threadIdx.x == 0 && print_every > 0 &&
        (k + 1) % print_every == 0)
      printf("  [persistent] iteration %4d  residual %.6e\n", k + 1, sqrt(rr));
    for (int c = first; c < total; c += stride)
      w.p[c] = w.r[c] + beta * w.p[c];
    grid.sync();
  }
  if (grid.thread_rank() == 0) {
    *w.iterations = k;
    *w.final_rr = rr;
  }
}

} // namespace cfd

#endif // CFD_POISSON_CUH
