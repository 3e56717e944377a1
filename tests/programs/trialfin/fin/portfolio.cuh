// portfolio.cuh: a book of European options on a few underlyings, repriced
// under bumped market data.
#ifndef FIN_PORTFOLIO_CUH
#define FIN_PORTFOLIO_CUH
#include "black_scholes.cuh"
#include "common.cuh"

namespace fin {

struct Position {
  int underlying; // index into the market arrays
  double strike, expiry, quantity;
  OptionType type;
};

struct Bump {
  double spot_rel; // relative spot bump, applied to every underlying
  double vol_abs;  // absolute vol bump
};

__device__ __host__ inline double bs_price_dh(double S, double K, double r, double v, double T,
                                              OptionType type) {
  const double sqrtT = sqrt(T);
  const double d1 = (log(S / K) + (r + 0.5 * v * v) * T) / (v * sqrtT);
  const double d2 = d1 - v * sqrtT;
#ifdef __CUDA_ARCH__
  const double nd1 = normcdf(d1), nd2 = normcdf(d2);
#else
  const double nd1 = host_norm_cdf(d1), nd2 = host_norm_cdf(d2);
#endif
  const double df = exp(-r * T);
  return type == OptionType::Call ? S * nd1 - K * df * nd2 : K * df * (1.0 - nd2) - S * (1.0 - nd1);
}

// pv[i] = quantity * price of position i under the bump.
__global__ void reprice_kernel(const Position *__restrict__ book, int n, const double *spot,
                               const double *vol, double rate, Bump bump, double *pv) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    const Position p = book[i];
    const double S = spot[p.underlying] * (1.0 + bump.spot_rel);
    const double v = vol[p.underlying] + bump.vol_abs;
    pv[i] = p.quantity * bs_price_dh(S, p.strike, rate, v, p.expiry, p.type);
  }
}

// P&L of the book under scenario s: spot shocks z[s * nund + u] (log returns).
__global__ void scenario_pnl_kernel(const Position *__restrict__ book, int n, const double *spot,
                                    const double *vol, double rate, const double *shocks,
                                    int nund, int nscen, double base_pv, double *pnl) {
  extern __shared__ double shocked[]; // nund spots of this block's scenario
  for (int s = blockIdx.x; s < nscen; s += gridDim.x) {
    for (int u = threadIdx.x; u < nund; u += blockDim.x)
      shocked[u] = spot[u] * exp(shocks[(size_t)s * nund + u]);
    __syncthreads();
    double sum = 0.0;
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
      const Position p = book[i];
      sum += p.quantity *
             bs_price_dh(shocked[p.underlying], p.strike, rate, vol[p.underlying], p.expiry, p.type);
    }
    // Block reduction in shared memory after the spots.
    double *red = shocked + nund;
    red[threadIdx.x] = sum;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
      if (threadIdx.x < stride) red[threadIdx.x] += red[threadIdx.x + stride];
      __syncthreads();
    }
    if (threadIdx.x == 0) pnl[s] = red[0] - base_pv;
    __syncthreads();
  }
}

} // namespace fin

#endif // FIN_PORTFOLIO_CUH
