/* qft_grover.cu: the QFT from H, controlled phases and SWAPs on 10 qubits
 * against the host's, its inverse giving the identity, a basis state's
 * transform, and Grover's search with a phase-flip oracle.
 * From tests/programs_trialquant.sh (a trial of quantum-circuit simulators
 * written the way public state-vector projects write them: a CMake project
 * with a static library of kernels and a header-only gate library; here
 * each program is whole).
 */
#include <vector>
#include "qsim/common.cuh"
#include "qsim/gates.cuh"
#include "qsim/statevec.cuh"
#include "qsim/host_sim.h"

using namespace qsim;

static void qft(cuDoubleComplex *d, int n, bool inverse) {
  Mat2<cuDoubleComplex> h = hadamard<cuDoubleComplex>();
  if (!inverse) {
    for (int j = n - 1; j >= 0; --j) {
      apply_gate(d, n, j, h);
      for (int k = j - 1; k >= 0; --k) apply_cphase(d, n, k, j, M_PI / double(1 << (j - k)));
    }
    for (int i = 0; i < n / 2; ++i) apply_swap(d, n, i, n - 1 - i);
  } else {
    for (int i = 0; i < n / 2; ++i) apply_swap(d, n, i, n - 1 - i);
    for (int j = 0; j < n; ++j) {
      for (int k = 0; k < j; ++k) apply_cphase(d, n, k, j, -M_PI / double(1 << (j - k)));
      apply_gate(d, n, j, h);
    }
  }
}

static bool test_qft(int n) {
  const index_t dim = 1ULL << n;
  host::State ref = host::random_state(n, 2024), orig = ref;
  cuDoubleComplex *d;
  CUDA_CHECK(cudaMalloc(&d, dim * sizeof(cuDoubleComplex)));
  CUDA_CHECK(cudaMemcpy(d, ref.data(), dim * sizeof(cuDoubleComplex), cudaMemcpyHostToDevice));
  GpuTimer t;
  t.start();
  qft(d, n, false);
  float ms = t.stop();
  host::qft(ref, n);
  host::State got(dim);
  CUDA_CHECK(cudaMemcpy(got.data(), d, dim * sizeof(cuDoubleComplex), cudaMemcpyDeviceToHost));
  double e1 = host::max_diff(got, ref);
  // The QFT of a basis state |x> has amplitudes e^{2 pi i x k / N} / sqrt(N): check one too.
  qft(d, n, true);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(got.data(), d, dim * sizeof(cuDoubleComplex), cudaMemcpyDeviceToHost));
  double e2 = host::max_diff(got, orig);
  const index_t x = 37;
  init_zero_state(d, n);
  apply_gate(d, n, 0, pauli_x<cuDoubleComplex>());
  apply_gate(d, n, 2, pauli_x<cuDoubleComplex>());
  apply_gate(d, n, 5, pauli_x<cuDoubleComplex>());
  qft(d, n, false);
  CUDA_CHECK(cudaMemcpy(got.data(), d, dim * sizeof(cuDoubleComplex), cudaMemcpyDeviceToHost));
  double e3 = 0;
  for (index_t k = 0; k < dim; ++k)
    e3 = std::fmax(e3, std::abs(got[k] - std::polar(1.0 / std::sqrt((double)dim), 2 * M_PI * double(x * k) / dim)));
  CUDA_CHECK(cudaFree(d));
  std::printf("QFT on %d qubits: %.3f ms; vs host %.3e, inverse %.3e, basis %.3e\n", n, ms, e1, e2, e3);
  return e1 < 1e-10 && e2 < 1e-10 && e3 < 1e-10;
}

static bool test_grover(int n, unsigned long long marked) {
  const index_t dim = 1ULL << n;
  cuDoubleComplex *d, *scratch;
  CUDA_CHECK(cudaMalloc(&d, dim * sizeof(cuDoubleComplex)));
  CUDA_CHECK(cudaMalloc(&scratch, sizeof(cuDoubleComplex)));
  init_uniform_state(d, n);
  int iters = (int)std::floor(M_PI / 4 * std::sqrt((double)dim));
  // Host model: two amplitudes, the marked one and the rest.
  double am = 1 / std::sqrt((double)dim), ar = am;
  for (int it = 0; it < iters; ++it) {
    oracle_phase_flip(d, n, marked);
    grover_diffusion(d, n, scratch);
    double mean = (-am + (dim - 1) * ar) / dim;
    am = 2 * mean + am;
    ar = 2 * mean - ar;
  }
  CUDA_CHECK_KERNEL();
  std::vector<cuDoubleComplex> h(dim);
  CUDA_CHECK(cudaMemcpy(h.data(), d, dim * sizeof(cuDoubleComplex), cudaMemcpyDeviceToHost));
  index_t best = 0;
  double err = 0;
  for (index_t i = 0; i < dim; ++i) {
    if (cuCabs(h[i]) > cuCabs(h[best])) best = i;
    err = std::fmax(err, std::fabs(h[i].x - (i == marked ? am : ar)) + std::fabs(h[i].y));
  }
  double p = h[marked].x * h[marked].x + h[marked].y * h[marked].y;
  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaFree(scratch));
  std::printf("Grover n=%d, %d iterations: found %llu (marked %llu), p=%.6f, error %.3e\n", n, iters, best, marked, p, err);
  return best == marked && p > 0.99 && err < 1e-10;
}

int main() {
  int fails = 0;
  fails += report("qft", test_qft(10));
  fails += report("grover", test_grover(10, 613));
  std::printf("%s\n", fails ? "FAIL" : "PASS");
  return fails ? 1 : 0;
}
