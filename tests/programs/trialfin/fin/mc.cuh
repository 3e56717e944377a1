// mc.cuh: Monte Carlo European pricing with the cuRAND device API.
#ifndef FIN_MC_CUH
#define FIN_MC_CUH
#include <curand_kernel.h>
#include "reduce.cuh"

namespace fin {

struct GbmParams {
  double spot, strike, rate, vol, expiry;
  int is_call;
};

template <typename State>
__global__ void init_rng_kernel(State *states, unsigned long long seed, int n) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id < n) curand_init(seed, id, 0, &states[id]);
}

__device__ __forceinline__ double payoff(const GbmParams &p, double st) {
  return p.is_call ? fmax(st - p.strike, 0.0) : fmax(p.strike - st, 0.0);
}

// Each thread prices `pairs` antithetic pairs; per-block sums of the payoff
// and its square go to block_sum/block_sq. The state is read from and
// written back to global memory so that a second launch continues the
// stream.
template <typename State>
__global__ void mc_european_kernel(State *states, GbmParams p, int pairs, double *block_sum,
                                   double *block_sq) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  State local = states[id];
  const double drift = (p.rate - 0.5 * p.vol * p.vol) * p.expiry;
  const double diffusion = p.vol * sqrt(p.expiry);
  double sum = 0.0, sq = 0.0;
  for (int i = 0; i < pairs; ++i) {
    double2 z = curand_normal2_double(&local);
    // Two antithetic pairs per double2.
    double a = 0.5 * (payoff(p, p.spot * exp(drift + diffusion * z.x)) +
                      payoff(p, p.spot * exp(drift - diffusion * z.x)));
    double b = 0.5 * (payoff(p, p.spot * exp(drift + diffusion * z.y)) +
                      payoff(p, p.spot * exp(drift - diffusion * z.y)));
    sum += a + b;
    sq += a * a + b * b;
  }
  states[id] = local;
  sum = block_reduce_sum(sum);
  __syncthreads(); // warp_sums is reused
  sq = block_reduce_sum(sq);
  if (threadIdx.x == 0) {
    block_sum[blockIdx.x] = sum;
    block_sq[blockIdx.x] = sq;
  }
}

// The same estimator reduced with cooperative_groups::reduce and atomics.
template <typename State>
__global__ void mc_european_cg_kernel(State *states, GbmParams p, int pairs, double *acc) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  State local = states[id];
  const double drift = (p.rate - 0.5 * p.vol * p.vol) * p.expiry;
  const double diffusion = p.vol * sqrt(p.expiry);
  double sum = 0.0, sq = 0.0;
  for (int i = 0; i < pairs; ++i) {
    double2 z = curand_normal2_double(&local);
    double a = 0.5 * (payoff(p, p.spot * exp(drift + diffusion * z.x)) +
                      payoff(p, p.spot * exp(drift - diffusion * z.x)));
    double b = 0.5 * (payoff(p, p.spot * exp(drift + diffusion * z.y)) +
                      payoff(p, p.spot * exp(drift - diffusion * z.y)));
    sum += a + b;
    sq += a * a + b * b;
  }
  states[id] = local;
  cg_reduce_add(sum, &acc[0]);
  cg_reduce_add(sq, &acc[1]);
}

} // namespace fin

#endif // FIN_MC_CUH
