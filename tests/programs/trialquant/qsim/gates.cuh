// gates.cuh: the header-only templated gate library. Every one-qubit gate runs
// one thread per amplitude pair: the pair's lower index is the thread index
// with a zero bit inserted at the target position.
#ifndef QSIM_GATES_CUH
#define QSIM_GATES_CUH
#include "common.cuh"
#include "complex_traits.cuh"

namespace qsim {

__host__ __device__ inline index_t insert_zero_bit(index_t i, int bit) {
  index_t low = i & ((1ULL << bit) - 1);
  index_t high = i >> bit;
  return (high << (bit + 1)) | low;
}

__host__ __device__ inline index_t insert_two_zero_bits(index_t i, int b0, int b1) {
  int lo = b0 < b1 ? b0 : b1;
  int hi = b0 < b1 ? b1 : b0;
  return insert_zero_bit(insert_zero_bit(i, lo), hi);
}

template <typename T>
__global__ void apply_matrix_kernel(T *state, int n_qubits, int target, Mat2<T> g) {
  typedef ComplexOps<T> Ops;
  index_t pairs = 1ULL << (n_qubits - 1);
  index_t tid = (index_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= pairs) return;
  index_t i0 = insert_zero_bit(tid, target);
  index_t i1 = i0 | (1ULL << target);
  T a0 = state[i0];
  T a1 = state[i1];
  state[i0] = Ops::add(Ops::mul(g.m[0], a0), Ops::mul(g.m[1], a1));
  state[i1] = Ops::add(Ops::mul(g.m[2], a0), Ops::mul(g.m[3], a1));
}

// Controlled 2x2 gate: only pairs whose control bit is set are touched.
template <typename T>
__global__ void apply_controlled_kernel(T *state, int n_qubits, int control, int target, Mat2<T> g) {
  typedef ComplexOps<T> Ops;
  index_t quads = 1ULL << (n_qubits - 2);
  for (index_t tid = (index_t)blockIdx.x * blockDim.x + threadIdx.x; tid < quads;
       tid += (index_t)gridDim.x * blockDim.x) {
    index_t base = insert_two_zero_bits(tid, control, target) | (1ULL << control);
    index_t i0 = base;
    index_t i1 = base | (1ULL << target);
    T a0 = state[i0];
    T a1 = state[i1];
    state[i0] = Ops::add(Ops::mul(g.m[0], a0), Ops::mul(g.m[1], a1));
    state[i1] = Ops::add(Ops::mul(g.m[2], a0), Ops::mul(g.m[3], a1));
  }
}

template <typename T>
__global__ void swap_kernel(T *state, int n_qubits, int q0, int q1) {
  index_t quads = 1ULL << (n_qubits - 2);
  index_t tid = (index_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= quads) return;
  index_t base = insert_two_zero_bits(tid, q0, q1);
  index_t i01 = base | (1ULL << q0);
  index_t i10 = base | (1ULL << q1);
  T tmp = state[i01];
  state[i01] = state[i10];
  state[i10] = tmp;
}

// Controlled phase: multiplies amplitudes with both bits set by e^{i phi}.
template <typename T>
__global__ void cphase_kernel(T *state, int n_qubits, int q0, int q1, double phi) {
  typedef ComplexOps<T> Ops;
  index_t n = 1ULL << n_qubits;
  index_t mask = (1ULL << q0) | (1ULL << q1);
  T ph = Ops::make(cos(phi), sin(phi));
  for (index_t i = (index_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (index_t)gridDim.x * blockDim.x)
    if ((i & mask) == mask) state[i] = Ops::mul(state[i], ph);
}

// Fused gate: the product of K 2x2 matrices on one target, fused on the fly.
template <typename T, int K>
__global__ void fused_kernel(T *state, int n_qubits, int target, const Mat2<T> *gates) {
  typedef ComplexOps<T> Ops;
  __shared__ Mat2<T> fused;
  if (threadIdx.x == 0) {
    Mat2<T> acc = gates[0];
#pragma unroll
    for (int k = 1; k < K; ++k) {
      Mat2<T> g = gates[k], r;
      r.m[0] = Ops::add(Ops::mul(g.m[0], acc.m[0]), Ops::mul(g.m[1], acc.m[2]));
      r.m[1] = Ops::add(Ops::mul(g.m[0], acc.m[1]), Ops::mul(g.m[1], acc.m[3]));
      r.m[2] = Ops::add(Ops::mul(g.m[2], acc.m[0]), Ops::mul(g.m[3], acc.m[2]));
      r.m[3] = Ops::add(Ops::mul(g.m[2], acc.m[1]), Ops::mul(g.m[3], acc.m[3]));
      acc = r;
    }
    fused = acc;
  }
  __syncthreads();
  index_t pairs = 1ULL << (n_qubits - 1);
  index_t tid = (index_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= pairs) return;
  index_t i0 = insert_zero_bit(tid, target);
  index_t i1 = i0 | (1ULL << target);
  T a0 = state[i0], a1 = state[i1];
  state[i0] = Ops::add(Ops::mul(fused.m[0], a0), Ops::mul(fused.m[1], a1));
  state[i1] = Ops::add(Ops::mul(fused.m[2], a0), Ops::mul(fused.m[3], a1));
}

template <typename T> Mat2<T> hadamard() {
  typedef ComplexOps<T> Ops;
  const double s = 1.0 / std::sqrt(2.0);
  Mat2<T> g = {{Ops::make(s, 0), Ops::make(s, 0), Ops::make(s, 0), Ops::make(-s, 0)}};
  return g;
}
template <typename T> Mat2<T> pauli_x() {
  typedef ComplexOps<T> Ops;
  Mat2<T> g = {{Ops::make(0, 0), Ops::make(1, 0), Ops::make(1, 0), Ops::make(0, 0)}};
  return g;
}
template <typename T> Mat2<T> rot_y(double theta) {
  typedef ComplexOps<T> Ops;
  double c = std::cos(theta / 2), s = std::sin(theta / 2);
  Mat2<T> g = {{Ops::make(c, 0), Ops::make(-s, 0), Ops::make(s, 0), Ops::make(c, 0)}};
  return g;
}
template <typename T> Mat2<T> rot_z(double theta) {
  typedef ComplexOps<T> Ops;
  Mat2<T> g = {{Ops::make(std::cos(-theta / 2), std::sin(-theta / 2)), Ops::make(0, 0),
                Ops::make(0, 0), Ops::make(std::cos(theta / 2), std::sin(theta / 2))}};
  return g;
}
template <typename T> Mat2<T> phase(double phi) {
  typedef ComplexOps<T> Ops;
  Mat2<T> g = {{Ops::make(1, 0), Ops::make(0, 0), Ops::make(0, 0), Ops::make(std::cos(phi), std::sin(phi))}};
  return g;
}

// Host-side launch helpers, the way a small simulator class wraps them.
template <typename T>
void apply_gate(T *d_state, int n, int target, const Mat2<T> &g, cudaStream_t s = 0) {
  const unsigned threads = 256;
  apply_matrix_kernel<<<blocks_for(1ULL << (n - 1), threads), threads, 0, s>>>(d_state, n, target, g);
  CUDA_CHECK(cudaGetLastError());
}
template <typename T>
void apply_controlled(T *d_state, int n, int c, int t, const Mat2<T> &g, cudaStream_t s = 0) {
  apply_controlled_kernel<T><<<8, 128, 0, s>>>(d_state, n, c, t, g);
  CUDA_CHECK(cudaGetLastError());
}
template <typename T>
void apply_swap(T *d_state, int n, int q0, int q1, cudaStream_t s = 0) {
  swap_kernel<<<blocks_for(1ULL << (n - 2), 128), 128, 0, s>>>(d_state, n, q0, q1);
  CUDA_CHECK(cudaGetLastError());
}
template <typename T>
void apply_cphase(T *d_state, int n, int q0, int q1, double phi, cudaStream_t s = 0) {
  cphase_kernel<<<16, 256, 0, s>>>(d_state, n, q0, q1, phi);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace qsim

#endif  // QSIM_GATES_CUH
