// statevec.cuh: the state-vector kernels that the trial's CMake project
// builds as a static library (src/statevec.cu there), for cuDoubleComplex
// states; here header-only, so that each program is whole.
#ifndef QSIM_STATEVEC_CUH
#define QSIM_STATEVEC_CUH
#include "common.cuh"
#include "gates.cuh"
#include "reduce.cuh"

namespace qsim {

namespace {

__global__ void init_kernel(cuDoubleComplex *state, index_t n, bool uniform) {
  index_t i = (index_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (uniform)
    state[i] = make_cuDoubleComplex(rsqrt((double)n), 0.0);
  else
    state[i] = make_cuDoubleComplex(i == 0 ? 1.0 : 0.0, 0.0);
}

__global__ void oracle_kernel(cuDoubleComplex *state, index_t marked) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    state[marked].x = -state[marked].x;
    state[marked].y = -state[marked].y;
  }
}

constexpr int kBlock = 256;

// Sums the amplitudes (real and imaginary parts separately) into mean[0..1].
__global__ void __launch_bounds__(kBlock) amplitude_sum_kernel(const cuDoubleComplex *state, index_t n, double *sums) {
  double re = 0, im = 0;
  for (index_t i = (index_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (index_t)gridDim.x * blockDim.x) {
    re += state[i].x;
    im += state[i].y;
  }
  re = block_reduce_sum<kBlock>(re);
  im = block_reduce_sum<kBlock>(im);
  if (threadIdx.x == 0) {
    atomicAdd(&sums[0], re);
    atomicAdd(&sums[1], im);
  }
}

__global__ void reflect_kernel(cuDoubleComplex *state, index_t n, const double *sums) {
  index_t i = (index_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double mre = sums[0] / n, mim = sums[1] / n;
  state[i].x = 2 * mre - state[i].x;
  state[i].y = 2 * mim - state[i].y;
}

__global__ void __launch_bounds__(kBlock) norm_kernel(const cuDoubleComplex *state, index_t n, double *partial) {
  extern __shared__ double sdata[];
  double acc = 0;
  for (index_t i = (index_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (index_t)gridDim.x * blockDim.x)
    acc += cuCreal(state[i]) * cuCreal(state[i]) + cuCimag(state[i]) * cuCimag(state[i]);
  sdata[threadIdx.x] = acc;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (threadIdx.x < s) sdata[threadIdx.x] += sdata[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x < 32) {
    double v = sdata[threadIdx.x] + sdata[threadIdx.x + 32];
    v = warp_reduce_sum(v);
    if (threadIdx.x == 0) partial[blockIdx.x] = v;
  }
}

__global__ void prob_kernel(const cuDoubleComplex *state, double *probs, index_t n) {
  index_t i = (index_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    cuDoubleComplex a = state[i];
    probs[i] = a.x * a.x + a.y * a.y;
  }
}

__global__ void collapse_kernel(cuDoubleComplex *state, index_t n, int q, int outcome, double inv_norm) {
  index_t i = (index_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int bit = (int)((i >> q) & 1ULL);
  if (bit != outcome)
    state[i] = make_cuDoubleComplex(0.0, 0.0);
  else
    state[i] = cuCmul(state[i], make_cuDoubleComplex(inv_norm, 0.0));
}

}  // namespace

inline void init_zero_state(cuDoubleComplex *d_state, int n_qubits, cudaStream_t s = 0) {
  index_t n = 1ULL << n_qubits;
  init_kernel<<<blocks_for(n, 256), 256, 0, s>>>(d_state, n, false);
  CUDA_CHECK(cudaGetLastError());
}

inline void init_uniform_state(cuDoubleComplex *d_state, int n_qubits, cudaStream_t s = 0) {
  index_t n = 1ULL << n_qubits;
  init_kernel<<<blocks_for(n, 256), 256, 0, s>>>(d_state, n, true);
  CUDA_CHECK(cudaGetLastError());
}

inline void oracle_phase_flip(cuDoubleComplex *d_state, int n_qubits, unsigned long long marked, cudaStream_t s = 0) {
  (void)n_qubits;
  oracle_kernel<<<1, 32, 0, s>>>(d_state, marked);
  CUDA_CHECK(cudaGetLastError());
}

inline void grover_diffusion(cuDoubleComplex *d_state, int n_qubits, cuDoubleComplex *d_scratch, cudaStream_t s = 0) {
  index_t n = 1ULL << n_qubits;
  double *sums = reinterpret_cast<double *>(d_scratch);
  CUDA_CHECK(cudaMemsetAsync(sums, 0, 2 * sizeof(double), s));
  amplitude_sum_kernel<<<8, kBlock, 0, s>>>(d_state, n, sums);
  CUDA_CHECK(cudaGetLastError());
  reflect_kernel<<<blocks_for(n, 256), 256, 0, s>>>(d_state, n, sums);
  CUDA_CHECK(cudaGetLastError());
}

inline double total_probability(const cuDoubleComplex *d_state, int n_qubits, double *d_partial, int max_blocks) {
  index_t n = 1ULL << n_qubits;
  int blocks = (int)blocks_for(n, kBlock);
  if (blocks > max_blocks) blocks = max_blocks;
  norm_kernel<<<blocks, kBlock, kBlock * sizeof(double)>>>(d_state, n, d_partial);
  CUDA_CHECK_KERNEL();
  double h[1024];
  CUDA_CHECK(cudaMemcpy(h, d_partial, blocks * sizeof(double), cudaMemcpyDeviceToHost));
  double total = 0;
  for (int b = 0; b < blocks; ++b) total += h[b];
  return total;
}

inline void probabilities(const cuDoubleComplex *d_state, double *d_probs, int n_qubits, cudaStream_t s = 0) {
  index_t n = 1ULL << n_qubits;
  prob_kernel<<<blocks_for(n, 256), 256, 0, s>>>(d_state, d_probs, n);
  CUDA_CHECK(cudaGetLastError());
}

inline void collapse(cuDoubleComplex *d_state, int n_qubits, int q, int outcome, double p, cudaStream_t s = 0) {
  index_t n = 1ULL << n_qubits;
  collapse_kernel<<<blocks_for(n, 256), 256, 0, s>>>(d_state, n, q, outcome, 1.0 / sqrt(p));
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace qsim

#endif  // QSIM_STATEVEC_CUH
