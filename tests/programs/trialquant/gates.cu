/* gates.cu: a random circuit of one-qubit, controlled and SWAP gates on 12
 * qubits in cuDoubleComplex, thrust::complex<double> and cuFloatComplex, a
 * fused gate kernel template and a gate in __constant__ memory, against a
 * host simulator.
 * From tests/programs_trialquant.sh (a trial of quantum-circuit simulators
 * written the way public state-vector projects write them: a CMake project
 * with a static library of kernels and a header-only gate library; here
 * each program is whole).
 */
#include <vector>
#include <complex>
#include "qsim/common.cuh"
#include "qsim/gates.cuh"
#include "qsim/host_sim.h"

using namespace qsim;

__constant__ cuDoubleComplex c_gate[4];

__global__ void apply_constant_gate(cuDoubleComplex *state, int n_qubits, int target) {
  index_t tid = (index_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= (1ULL << (n_qubits - 1))) return;
  index_t i0 = insert_zero_bit(tid, target), i1 = i0 | (1ULL << target);
  cuDoubleComplex a0 = state[i0], a1 = state[i1];
  state[i0] = cuCadd(cuCmul(c_gate[0], a0), cuCmul(c_gate[1], a1));
  state[i1] = cuCadd(cuCmul(c_gate[2], a0), cuCmul(c_gate[3], a1));
}

template <typename T> static void to_host_m(const Mat2<T> &g, host::cplx m[4]) {
  typedef ComplexOps<T> Ops;
  for (int k = 0; k < 4; ++k) m[k] = host::cplx(Ops::re(g.m[k]), Ops::im(g.m[k]));
}

struct Op {
  int kind;  // 0: H, 1: RY, 2: RZ, 3: CX, 4: SWAP, 5: phase
  int a, b;
  double theta;
};

static std::vector<Op> make_circuit(int n, int depth) {
  std::vector<Op> ops;
  unsigned s = 12345u;
  for (int d = 0; d < depth; ++d) {
    s = s * 1103515245u + 12345u;
    Op op;
    op.kind = (s >> 16) % 6;
    op.a = (s >> 8) % n;
    op.b = (op.a + 1 + (s >> 4) % (n - 1)) % n;
    op.theta = 0.1 + 0.37 * d;
    ops.push_back(op);
  }
  return ops;
}

template <typename T>
static double run_circuit(int n, const std::vector<Op> &ops, const char *label) {
  typedef ComplexOps<T> Ops;
  const index_t dim = 1ULL << n;
  std::vector<T> h_state(dim);
  host::State ref = host::random_state(n, 99);
  for (index_t i = 0; i < dim; ++i) h_state[i] = Ops::make(ref[i].real(), ref[i].imag());
  T *d_state;
  CUDA_CHECK(cudaMalloc(&d_state, dim * sizeof(T)));
  CUDA_CHECK(cudaMemcpy(d_state, h_state.data(), dim * sizeof(T), cudaMemcpyHostToDevice));

  GpuTimer timer;
  timer.start();
  host::cplx m[4];
  for (const Op &op : ops) {
    Mat2<T> g;
    switch (op.kind) {
      case 0: g = hadamard<T>(); break;
      case 1: g = rot_y<T>(op.theta); break;
      case 2: g = rot_z<T>(op.theta); break;
      case 3: g = pauli_x<T>(); break;
      case 5: g = phase<T>(op.theta); break;
      default: break;
    }
    if (op.kind == 4) {
      apply_swap(d_state, n, op.a, op.b);
      host::swap(ref, op.a, op.b);
    } else if (op.kind == 3) {
      apply_controlled(d_state, n, op.a, op.b, g);
      to_host_m(g, m);
      host::apply_c1(ref, op.a, op.b, m);
    } else {
      apply_gate(d_state, n, op.a, g);
      to_host_m(g, m);
      host::apply1(ref, op.a, m);
    }
  }
  float ms = timer.stop();
  CUDA_CHECK(cudaMemcpy(h_state.data(), d_state, dim * sizeof(T), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_state));
  double err = 0;
  for (index_t i = 0; i < dim; ++i)
    err = std::fmax(err, std::abs(host::cplx(Ops::re(h_state[i]), Ops::im(h_state[i])) - ref[i]));
  std::printf("%-24s %zu gates on %d qubits: %.3f ms, max error %.3e\n", label, ops.size(), n, ms, err);
  return err;
}

static double fused_test(int n) {
  typedef cuDoubleComplex T;
  const index_t dim = 1ULL << n;
  host::State ref = host::random_state(n, 7);
  std::vector<T> h(dim);
  for (index_t i = 0; i < dim; ++i) h[i] = make_cuDoubleComplex(ref[i].real(), ref[i].imag());
  Mat2<T> gates[3] = {hadamard<T>(), rot_z<T>(0.7), rot_y<T>(-1.3)};
  T *d_state;
  Mat2<T> *d_gates;
  CUDA_CHECK(cudaMalloc(&d_state, dim * sizeof(T)));
  CUDA_CHECK(cudaMalloc(&d_gates, sizeof(gates)));
  CUDA_CHECK(cudaMemcpy(d_state, h.data(), dim * sizeof(T), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_gates, gates, sizeof(gates), cudaMemcpyHostToDevice));
  const int target = 5;
  fused_kernel<T, 3><<<blocks_for(dim / 2, 128), 128>>>(d_state, n, target, d_gates);
  CUDA_CHECK_KERNEL();
  host::cplx m[4];
  for (int k = 0; k < 3; ++k) {
    to_host_m(gates[k], m);
    host::apply1(ref, target, m);
  }
  // The same gate again from __constant__ memory.
  Mat2<T> x = pauli_x<T>();
  CUDA_CHECK(cudaMemcpyToSymbol(c_gate, x.m, sizeof(x.m)));
  apply_constant_gate<<<blocks_for(dim / 2, 64), 64>>>(d_state, n, 2);
  CUDA_CHECK_KERNEL();
  to_host_m(x, m);
  host::apply1(ref, 2, m);
  CUDA_CHECK(cudaMemcpy(h.data(), d_state, dim * sizeof(T), cudaMemcpyDeviceToHost));
  double err = 0;
  for (index_t i = 0; i < dim; ++i)
    err = std::fmax(err, std::abs(host::cplx(h[i].x, h[i].y) - ref[i]));
  CUDA_CHECK(cudaFree(d_state));
  CUDA_CHECK(cudaFree(d_gates));
  std::printf("fused 3-gate + constant X: max error %.3e\n", err);
  return err;
}

int main() {
  const int n = 12;
  std::vector<Op> ops = make_circuit(n, 60);
  int fails = 0;
  fails += report("gates cuDoubleComplex", run_circuit<cuDoubleComplex>(n, ops, "cuDoubleComplex") < 1e-12);
  fails += report("gates thrust::complex", run_circuit<thrust::complex<double> >(n, ops, "thrust::complex<double>") < 1e-12);
  fails += report("gates cuFloatComplex", run_circuit<cuFloatComplex>(n, ops, "cuFloatComplex") < 1e-4);
  fails += report("gates fused", fused_test(n) < 1e-12);
  std::printf("%s\n", fails ? "FAIL" : "PASS");
  return fails ? 1 : 0;
}
