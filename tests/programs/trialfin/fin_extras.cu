/* fin_extras.cu: the less common parts of a pricing engine: option data in
 * __constant__ memory, occupancy-chosen launch sizes, Sobol states of the
 * cuRAND device API with the library's direction vectors and scramble
 * constants, log-normal draws, payoffs from a separately compiled file, a
 * CUDA graph of the repricing, managed memory.
 * From tests/programs_trialfin.sh (a trial of computational-finance code:
 * a CMake project with a static library of pricing kernels; here each
 * program is whole, the library's functions in its headers).
 * CUEMU_OPTIONS: -Xcompiler -O0 --extended-lambda -lcurand
 * NVCC_OPTIONS: --extended-lambda -lcurand */
#include <vector>
#include <curand.h>
#include <curand_kernel.h>
#include "fin/common.cuh"
#include "fin/curand_check.h"
#include "fin/payoff_rdc.cuh"
#include "fin/reduce.cuh"

using namespace fin;

__constant__ OptionData c_option;

__global__ void sobol_digital_kernel(curandStateScrambledSobol64_t *states, int n, double *acc) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  double sum = 0.0;
  if (id < n) {
    curandStateScrambledSobol64_t st = states[id];
    const OptionData o = c_option;
    const double mu = log(o.spot) + (o.rate - 0.5 * o.vol * o.vol) * o.expiry;
    const double s = curand_log_normal_double(&st, mu, o.vol * sqrt(o.expiry));
    sum = digital_payoff(s, o.strike);
    states[id] = st;
  }
  cg_reduce_add(sum, acc);
}

__global__ void init_sobol(curandStateScrambledSobol64_t *states, curandDirectionVectors64_t *dv,
                           unsigned long long *scramble, int n) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id < n) curand_init(dv[0], scramble[0], id + 1, &states[id]);
}

__global__ void barrier_kernel(const double *paths, int npaths, int steps, double k, double *out) {
  for (int p = blockIdx.x * blockDim.x + threadIdx.x; p < npaths; p += blockDim.x * gridDim.x) {
    double m = 0.0;
    for (int t = 0; t < steps; ++t) m = fmax(m, paths[(size_t)t * npaths + p]);
    out[p] = knock_out_call(paths[(size_t)(steps - 1) * npaths + p], k, m);
  }
}

__global__ void scale_kernel(double *v, int n, double f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= f;
}

int main() {
  int fails = 0;
  // Digital call by quasi-random device states.
  OptionData o{100.0, 105.0, 0.02, 0.3, 0.75, OptionType::Call};
  CUDA_CHECK(cudaMemcpyToSymbol(c_option, &o, sizeof o));
  int min_grid = 0, block = 0;
  CUDA_CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, sobol_digital_kernel, 0, 0));
  const int n = 1 << 15;
  const int grid = (n + block - 1) / block;
  curandDirectionVectors64_t *h_dv;
  unsigned long long *h_scramble;
  CURAND_CHECK(curandGetDirectionVectors64(&h_dv, CURAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6));
  CURAND_CHECK(curandGetScrambleConstants64(&h_scramble));
  curandDirectionVectors64_t *d_dv;
  unsigned long long *d_scramble;
  curandStateScrambledSobol64_t *d_states;
  double *acc;
  CUDA_CHECK(cudaMalloc(&d_dv, sizeof(curandDirectionVectors64_t)));
  CUDA_CHECK(cudaMalloc(&d_scramble, sizeof(unsigned long long)));
  CUDA_CHECK(cudaMalloc(&d_states, n * sizeof *d_states));
  CUDA_CHECK(cudaMallocManaged(&acc, sizeof(double)));
  *acc = 0.0;
  CUDA_CHECK(cudaMemcpy(d_dv, h_dv, sizeof(curandDirectionVectors64_t), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_scramble, h_scramble, sizeof(unsigned long long), cudaMemcpyHostToDevice));
  init_sobol<<<grid, block>>>(d_states, d_dv, d_scramble, n);
  sobol_digital_kernel<<<grid, block>>>(d_states, n, acc);
  CUDA_CHECK(cudaDeviceSynchronize());
  const double sqrtT = std::sqrt(o.expiry);
  const double d2 = (std::log(o.spot / o.strike) + (o.rate - 0.5 * o.vol * o.vol) * o.expiry) /
                    (o.vol * sqrtT);
  const double exact = std::exp(-o.rate * o.expiry) * host_norm_cdf(d2);
  const double qmc = std::exp(-o.rate * o.expiry) * *acc / n;
  std::printf("digital: block %d (min grid %d), qmc %.6f exact %.6f\n", block, min_grid, qmc, exact);
  fails += report("sobol64 digital", std::fabs(qmc - exact) < 2e-3);

  // Barrier option on paths from the host API, the level in a __device__
  // variable of another translation unit; scaled by a captured graph.
  const int npaths = 4096, steps = 32;
  double *paths, *out;
  CUDA_CHECK(cudaMalloc(&paths, sizeof(double) * npaths * steps));
  CUDA_CHECK(cudaMalloc(&out, sizeof(double) * npaths));
  std::vector<double> h(npaths * (size_t)steps);
  for (int p = 0; p < npaths; ++p)
    for (int t = 0; t < steps; ++t) h[(size_t)t * npaths + p] = 90.0 + (p % 40) + 0.5 * t;
  CUDA_CHECK(cudaMemcpy(paths, h.data(), sizeof(double) * h.size(), cudaMemcpyHostToDevice));
  const double level = 120.0;
  CUDA_CHECK(cudaMemcpyToSymbol(barrier_level, &level, sizeof level));
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  barrier_kernel<<<32, 128, 0, s>>>(paths, npaths, steps, 100.0, out);
  scale_kernel<<<(npaths + 255) / 256, 256, 0, s>>>(out, npaths, 0.5);
  CUDA_CHECK(cudaStreamEndCapture(s, &graph));
  CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CUDA_CHECK(cudaGraphLaunch(exec, s));
  CUDA_CHECK(cudaStreamSynchronize(s));
  std::vector<double> got(npaths);
  CUDA_CHECK(cudaMemcpy(got.data(), out, sizeof(double) * npaths, cudaMemcpyDeviceToHost));
  double err = 0.0;
  for (int p = 0; p < npaths; ++p) {
    double m = 0.0;
    for (int t = 0; t < steps; ++t) m = std::fmax(m, h[(size_t)t * npaths + p]);
    double last = h[(size_t)(steps - 1) * npaths + p];
    double want = 0.5 * (m >= level ? 0.0 : std::fmax(last - 100.0, 0.0));
    err = std::fmax(err, std::fabs(want - got[p]));
  }
  fails += report("rdc barrier in a graph", err == 0.0);
  CUDA_CHECK(cudaGraphExecDestroy(exec));
  CUDA_CHECK(cudaGraphDestroy(graph));
  CUDA_CHECK(cudaStreamDestroy(s));
  CUDA_CHECK(cudaFree(acc));
  std::printf("%s\n", fails ? "FAIL" : "PASS");
  return fails ? EXIT_FAILURE : EXIT_SUCCESS;
}
