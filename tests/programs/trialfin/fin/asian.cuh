// asian.cuh: path pricing from pre-generated normals (cuRAND host API),
// dimension-major as quasi-random generators lay them out.
#ifndef FIN_ASIAN_CUH
#define FIN_ASIAN_CUH
#include "reduce.cuh"

namespace fin {

struct AsianParams {
  double spot, strike, rate, vol, expiry;
  int steps;
};

// z[d * npaths + path] is the normal of path `path` at step d.
template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    asian_paths_kernel(const double *__restrict__ z, int npaths, AsianParams p,
                       double *__restrict__ out /* [3]: geometric, arithmetic, european */) {
  const double dt = p.expiry / p.steps;
  const double drift = (p.rate - 0.5 * p.vol * p.vol) * dt;
  const double diff = p.vol * sqrt(dt);
  double geo = 0.0, ari = 0.0, eur = 0.0;
  for (int path = blockIdx.x * BLOCK + threadIdx.x; path < npaths; path += BLOCK * gridDim.x) {
    double logs = log(p.spot), sum_log = 0.0, sum = 0.0;
    for (int d = 0; d < p.steps; ++d) {
      logs += drift + diff * z[(size_t)d * npaths + path];
      sum_log += logs;
      sum += exp(logs);
    }
    geo += fmax(exp(sum_log / p.steps) - p.strike, 0.0);
    ari += fmax(sum / p.steps - p.strike, 0.0);
    eur += fmax(exp(logs) - p.strike, 0.0);
  }
  cg_reduce_add(geo, &out[0]);
  cg_reduce_add(ari, &out[1]);
  cg_reduce_add(eur, &out[2]);
}

} // namespace fin

#endif // FIN_ASIAN_CUH
