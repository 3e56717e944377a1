// lsm.cuh: kernels of the Longstaff-Schwartz American Monte Carlo.
#ifndef FIN_LSM_CUH
#define FIN_LSM_CUH
#include <curand_kernel.h>
#include "common.cuh"

namespace fin {

constexpr int kBasis = 3; // 1, x, x^2 with x = S / K

// paths[step * npaths + path], step 1..steps (step 0 is the spot).
__global__ void lsm_paths_kernel(double *paths, int npaths, int steps, OptionData o,
                                 unsigned long long seed) {
  const int path = blockIdx.x * blockDim.x + threadIdx.x;
  if (path >= npaths) return;
  curandStatePhilox4_32_10_t state;
  curand_init(seed, path / 2, 0, &state); // paths 2k and 2k+1 are antithetic
  const double sign = (path & 1) ? -1.0 : 1.0;
  const double dt = o.expiry / steps;
  const double drift = (o.rate - 0.5 * o.vol * o.vol) * dt, diff = o.vol * sqrt(dt);
  double s = o.spot;
  for (int t = 1; t <= steps; ++t) {
    s *= exp(drift + diff * sign * curand_normal_double(&state));
    paths[(size_t)(t - 1) * npaths + path] = s;
  }
}

__device__ __forceinline__ double exercise_value(const OptionData &o, double s) {
  return o.type == OptionType::Call ? s - o.strike : o.strike - s;
}

// value[path] = discounted payoff at expiry.
__global__ void lsm_terminal_kernel(const double *last, double *value, int npaths, OptionData o) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < npaths; i += blockDim.x * gridDim.x)
    value[i] = fmax(exercise_value(o, last[i]), 0.0);
}

// Discount one step and build the regression: X (column-major, npaths x 3)
// and Y, rows zeroed where the option is out of the money.
__global__ void lsm_regression_kernel(const double *spot, double *value, double *X, double *Y,
                                      int npaths, OptionData o, double disc) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < npaths; i += blockDim.x * gridDim.x) {
    const double s = spot[i];
    value[i] *= disc;
    const bool itm = exercise_value(o, s) > 0.0;
    const double x = s / o.strike;
    X[i] = itm ? 1.0 : 0.0;
    X[npaths + i] = itm ? x : 0.0;
    X[2 * npaths + i] = itm ? x * x : 0.0;
    Y[i] = itm ? value[i] : 0.0;
  }
}

__global__ void lsm_exercise_kernel(const double *spot, double *value, const double *beta,
                                    int npaths, OptionData o) {
  const double b0 = beta[0], b1 = beta[1], b2 = beta[2];
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < npaths; i += blockDim.x * gridDim.x) {
    const double s = spot[i];
    const double ex = exercise_value(o, s);
    if (ex > 0.0) {
      const double x = s / o.strike;
      const double cont = b0 + x * (b1 + x * b2);
      if (ex > cont) value[i] = ex;
    }
  }
}

} // namespace fin

#endif // FIN_LSM_CUH
