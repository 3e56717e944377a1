/* gate_overrun.cu: a gate on a qubit past the register (target n + 1, a
 * simulator's classic off-by-one) writes up to 2.5 times the state
 * vector's size past its start. On a GPU that is an illegal address or
 * another allocation's bytes; in cuemu it must never be the bytes of
 * whatever the host mapped next (another allocation, or the loader's own
 * data, which crashed the process without a message): each allocation is
 * followed by a guard as large as itself, at least 2 MiB, so the launch
 * ends with cudaErrorIllegalAddress and the register allocated before it
 * (managed, so that the host reads it after the sticky error) is intact.
 * From tests/programs_trialquant.sh (a trial of quantum-circuit simulators). */
#include <cstdio>
#include "qsim/common.cuh"
#include "qsim/gates.cuh"

using namespace qsim;

int main() {
  const int n = 10;
  const size_t bytes = sizeof(cuDoubleComplex) << n;
  cuDoubleComplex *other = nullptr, *state = nullptr;
  CUDA_CHECK(cudaMallocManaged(&other, bytes));
  for (index_t i = 0; i < (1ULL << n); ++i) other[i] = make_cuDoubleComplex(1.0, (double)i);
  CUDA_CHECK(cudaMalloc(&state, bytes));
  CUDA_CHECK(cudaMemset(state, 0, bytes));
  apply_gate(state, n, n + 1, hadamard<cuDoubleComplex>());
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("gate on qubit %d of a %d-qubit register: %s\n", n + 1, n, cudaGetErrorString(err));
  int changed = 0;
  for (index_t i = 0; i < (1ULL << n); ++i) changed += other[i].x != 1.0 || other[i].y != (double)i;
  std::printf("amplitudes of the other register changed: %d\n", changed);
  int fails = 0;
  fails += report("the overrun is an illegal address", err == cudaErrorIllegalAddress);
  fails += report("the other register is intact", changed == 0);
  std::printf("%s\n", fails ? "FAIL" : "PASS");
  return fails ? 1 : 0;
}
