/* measure.cu: probabilities, their total by a block reduction (shared
 * memory and shuffles on double), the cumulative distribution by
 * thrust::inclusive_scan and cub::DeviceScan, sampling with cuRAND's Philox
 * (host API and device API), a collapse and renormalisation.
 * From tests/programs_trialquant.sh (a trial of quantum-circuit simulators
 * written the way public state-vector projects write them: a CMake project
 * with a static library of kernels and a header-only gate library; here
 * each program is whole).
 * CUEMU_OPTIONS: -lcurand
 * NVCC_OPTIONS: -lcurand
 */
#include <vector>
#include <algorithm>
#include <thrust/device_vector.h>
#include <thrust/scan.h>
#include <thrust/execution_policy.h>
#include <cub/cub.cuh>
#include <curand.h>
#include <curand_kernel.h>
#include "qsim/common.cuh"
#include "qsim/gates.cuh"
#include "qsim/statevec.cuh"
#include "qsim/host_sim.h"

#define CURAND_CHECK(call)                                                     \
  do {                                                                         \
    curandStatus_t st_ = (call);                                               \
    if (st_ != CURAND_STATUS_SUCCESS) {                                        \
      std::fprintf(stderr, "cuRAND error %d at %s:%d\n", (int)st_, __FILE__, __LINE__); \
      std::exit(EXIT_FAILURE);                                                 \
    }                                                                          \
  } while (0)

using namespace qsim;

// Binary search of each uniform in the cumulative distribution.
__global__ void sample_kernel(const double *cdf, qsim::index_t dim, const double *u, int shots,
                              unsigned *counts) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= shots) return;
  double x = u[s] * cdf[dim - 1];
  qsim::index_t lo = 0, hi = dim - 1;
  while (lo < hi) {
    qsim::index_t mid = (lo + hi) / 2;
    if (cdf[mid] < x) lo = mid + 1; else hi = mid;
  }
  atomicAdd(&counts[lo], 1u);
}

__global__ void device_sample_kernel(const double *cdf, qsim::index_t dim, unsigned long long seed,
                                     int shots_per_thread, unsigned *counts) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  curandStatePhilox4_32_10_t st;
  curand_init(seed, tid, 0, &st);
  for (int k = 0; k < shots_per_thread; ++k) {
    double x = curand_uniform_double(&st) * cdf[dim - 1];
    qsim::index_t lo = 0, hi = dim - 1;
    while (lo < hi) {
      qsim::index_t mid = (lo + hi) >> 1;
      if (cdf[mid] < x) lo = mid + 1; else hi = mid;
    }
    atomicAdd(&counts[lo], 1u);
  }
  if (tid == 0) printf("device sampler: %d threads x %d shots\n", gridDim.x * blockDim.x, shots_per_thread);
}

// Chi-square-like check: every outcome with p*shots >= 20 within 6 sigma.
static bool counts_agree(const std::vector<unsigned> &counts, const std::vector<double> &p, int shots) {
  long total = 0;
  int bad = 0;
  for (size_t i = 0; i < p.size(); ++i) {
    total += counts[i];
    double mu = p[i] * shots, sd = std::sqrt(mu * (1 - p[i]));
    if (mu >= 20 && std::fabs(counts[i] - mu) > 6 * sd + 1) ++bad;
    if (p[i] == 0 && counts[i] != 0) ++bad;
  }
  return total == shots && bad == 0;
}

int main() {
  const int n = 12;
  const index_t dim = 1ULL << n;
  int fails = 0;
  // A state with structure: rotations on every qubit, some entanglement.
  cuDoubleComplex *d_state;
  CUDA_CHECK(cudaMalloc(&d_state, dim * sizeof(cuDoubleComplex)));
  init_zero_state(d_state, n);
  host::State ref = host::zero_state(n);
  host::cplx m[4];
  for (int q = 0; q < n; ++q) {
    Mat2<cuDoubleComplex> g = rot_y<cuDoubleComplex>(0.3 + 0.2 * q);
    apply_gate(d_state, n, q, g);
    for (int k = 0; k < 4; ++k) m[k] = host::cplx(g.m[k].x, g.m[k].y);
    host::apply1(ref, q, m);
  }
  Mat2<cuDoubleComplex> x = pauli_x<cuDoubleComplex>();
  for (int k = 0; k < 4; ++k) m[k] = host::cplx(x.m[k].x, x.m[k].y);
  for (int q = 0; q + 1 < n; q += 3) {
    apply_controlled(d_state, n, q, q + 1, x);
    host::apply_c1(ref, q, q + 1, m);
  }

  // Total probability by the block reduction.
  double *d_partial;
  CUDA_CHECK(cudaMalloc(&d_partial, 64 * sizeof(double)));
  double total = total_probability(d_state, n, d_partial, 7);
  fails += report("norm reduction", std::fabs(total - 1.0) < 1e-12);

  // Probabilities and their cumulative sums, two ways.
  thrust::device_vector<double> probs(dim), cdf(dim), cdf2(dim);
  probabilities(d_state, thrust::raw_pointer_cast(probs.data()), n);
  CUDA_CHECK_KERNEL();
  thrust::inclusive_scan(thrust::device, probs.begin(), probs.end(), cdf.begin());
  void *d_temp = nullptr;
  size_t temp_bytes = 0;
  CUDA_CHECK(cub::DeviceScan::InclusiveSum(d_temp, temp_bytes, thrust::raw_pointer_cast(probs.data()),
                                           thrust::raw_pointer_cast(cdf2.data()), (int)dim));
  CUDA_CHECK(cudaMalloc(&d_temp, temp_bytes));
  CUDA_CHECK(cub::DeviceScan::InclusiveSum(d_temp, temp_bytes, thrust::raw_pointer_cast(probs.data()),
                                           thrust::raw_pointer_cast(cdf2.data()), (int)dim));
  CUDA_CHECK_KERNEL();
  std::vector<double> h_p(dim), h_cdf(dim), h_cdf2(dim);
  thrust::copy(probs.begin(), probs.end(), h_p.begin());
  thrust::copy(cdf.begin(), cdf.end(), h_cdf.begin());
  thrust::copy(cdf2.begin(), cdf2.end(), h_cdf2.begin());
  double perr = 0, cerr = 0, acc = 0;
  for (index_t i = 0; i < dim; ++i) {
    perr = std::fmax(perr, std::fabs(h_p[i] - std::norm(ref[i])));
    acc += std::norm(ref[i]);
    cerr = std::fmax(cerr, std::fmax(std::fabs(h_cdf[i] - acc), std::fabs(h_cdf2[i] - acc)));
  }
  fails += report("probabilities and cdf", perr < 1e-12 && cerr < 1e-10);

  // Host-API sampling: Philox uniforms, then a binary search per shot.
  const int shots = 1 << 16;
  curandGenerator_t gen;
  CURAND_CHECK(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_PHILOX4_32_10));
  CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(gen, 42ULL));
  double *d_u;
  unsigned *d_counts;
  CUDA_CHECK(cudaMalloc(&d_u, shots * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&d_counts, dim * sizeof(unsigned)));
  CUDA_CHECK(cudaMemset(d_counts, 0, dim * sizeof(unsigned)));
  CURAND_CHECK(curandGenerateUniformDouble(gen, d_u, shots));
  GpuTimer timer;
  timer.start();
  sample_kernel<<<shots / 256, 256>>>(thrust::raw_pointer_cast(cdf.data()), dim, d_u, shots, d_counts);
  float ms = timer.stop();
  CUDA_CHECK_KERNEL();
  std::vector<unsigned> counts(dim);
  CUDA_CHECK(cudaMemcpy(counts.data(), d_counts, dim * sizeof(unsigned), cudaMemcpyDeviceToHost));
  std::printf("host-API sampling of %d shots: %.3f ms\n", shots, ms);
  fails += report("sampling host API", counts_agree(counts, h_p, shots));

  // Device-API sampling.
  CUDA_CHECK(cudaMemset(d_counts, 0, dim * sizeof(unsigned)));
  device_sample_kernel<<<32, 128>>>(thrust::raw_pointer_cast(cdf2.data()), dim, 7ULL, 16, d_counts);
  CUDA_CHECK_KERNEL();
  CUDA_CHECK(cudaMemcpy(counts.data(), d_counts, dim * sizeof(unsigned), cudaMemcpyDeviceToHost));
  fails += report("sampling device API", counts_agree(counts, h_p, 32 * 128 * 16));

  // Collapse qubit 4 onto |1> and renormalise.
  double p1 = 0;
  for (index_t i = 0; i < dim; ++i)
    if (i & 16) p1 += h_p[i];
  collapse(d_state, n, 4, 1, p1);
  CUDA_CHECK_KERNEL();
  double total_after = total_probability(d_state, n, d_partial, 16);
  std::vector<cuDoubleComplex> h(dim);
  CUDA_CHECK(cudaMemcpy(h.data(), d_state, dim * sizeof(cuDoubleComplex), cudaMemcpyDeviceToHost));
  double colerr = 0;
  for (index_t i = 0; i < dim; ++i) {
    host::cplx want = (i & 16) ? ref[i] / std::sqrt(p1) : host::cplx(0, 0);
    colerr = std::fmax(colerr, std::abs(host::cplx(h[i].x, h[i].y) - want));
  }
  fails += report("collapse", colerr < 1e-12 && std::fabs(total_after - 1) < 1e-12);

  CURAND_CHECK(curandDestroyGenerator(gen));
  CUDA_CHECK(cudaFree(d_u));
  CUDA_CHECK(cudaFree(d_counts));
  CUDA_CHECK(cudaFree(d_temp));
  CUDA_CHECK(cudaFree(d_partial));
  CUDA_CHECK(cudaFree(d_state));
  std::printf("%s\n", fails ? "FAIL" : "PASS");
  return fails ? 1 : 0;
}
