// binomial.cuh: CRR trees for American options, one block per option, the
// tree's current level in (dynamic) shared memory.
#ifndef FIN_BINOMIAL_CUH
#define FIN_BINOMIAL_CUH
#include "common.cuh"

namespace fin {

struct TreeParams {
  double pu_disc, pd_disc; // discounted up/down probabilities
  double u;                // up factor
};

template <typename Real, int THREADS>
__global__ void __launch_bounds__(THREADS)
    binomial_american_kernel(const OptionData *__restrict__ opts, Real *__restrict__ prices,
                             int steps) {
  extern __shared__ __align__(16) unsigned char tree_raw[];
  Real *values = reinterpret_cast<Real *>(tree_raw);
  const OptionData o = opts[blockIdx.x];
  const Real dt = Real(o.expiry) / steps;
  const Real u = exp(Real(o.vol) * sqrt(dt));
  const Real d = Real(1) / u;
  const Real disc = exp(-Real(o.rate) * dt);
  const Real p = (exp(Real(o.rate) * dt) - d) / (u - d);
  const Real pu = disc * p, pd = disc * (Real(1) - p);
  const Real S = Real(o.spot), K = Real(o.strike);
  const bool call = o.type == OptionType::Call;

  for (int i = threadIdx.x; i <= steps; i += THREADS) {
    Real s = S * pow(u, Real(2 * i - steps));
    values[i] = call ? fmax(s - K, Real(0)) : fmax(K - s, Real(0));
  }
  __syncthreads();
  for (int j = steps - 1; j >= 0; --j) {
    // Each thread computes its nodes of level j into registers first, then
    // writes them after a barrier: level j reads level j+1 in place.
    constexpr int MAX_PER_THREAD = 8;
    Real next[MAX_PER_THREAD];
    int count = 0;
    for (int i = threadIdx.x; i <= j; i += THREADS, ++count) {
      Real cont = pu * values[i + 1] + pd * values[i];
      Real s = S * pow(u, Real(2 * i - j));
      Real ex = call ? s - K : K - s;
      next[count] = fmax(cont, ex);
    }
    __syncthreads();
    count = 0;
    for (int i = threadIdx.x; i <= j; i += THREADS, ++count) values[i] = next[count];
    __syncthreads();
  }
  if (threadIdx.x == 0) prices[blockIdx.x] = values[0];
}

// The library entry point (src/binomial.cu in the trial project).
template <typename Real>
void price_american_binomial(const OptionData *d_opts, Real *d_prices, int nopts, int steps,
                             cudaStream_t stream = 0) {
  constexpr int threads = 128;
  if (steps + 1 > threads * 8) {
    std::fprintf(stderr, "price_american_binomial: %d steps is too many\n", steps);
    std::exit(EXIT_FAILURE);
  }
  const size_t smem = (steps + 1) * sizeof(Real);
  auto kernel = binomial_american_kernel<Real, threads>;
  if (smem > 48 * 1024)
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    (int)smem));
  kernel<<<nopts, threads, smem, stream>>>(d_opts, d_prices, steps);
  CHECK_LAST_KERNEL();
}

} // namespace fin

#endif // FIN_BINOMIAL_CUH
