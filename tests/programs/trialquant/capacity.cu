/* capacity.cu: how many qubits fit, the way a simulator's register
 * constructor finds out: the device's memory from cudaMemGetInfo, the
 * largest state vector that fits allocated, and one qubit more (twice the
 * bytes, more than the device has) refused with cudaErrorMemoryAllocation,
 * (by cudaMalloc and cudaMallocAsync), which is not sticky: the program
 * goes on with a smaller register.
 * From tests/programs_trialquant.sh (a trial of quantum-circuit simulators). */
#include <cstdio>
#include <cuComplex.h>
#include "qsim/common.cuh"

using namespace qsim;

int main() {
  size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  int fails = 0;
  fails += report("total memory is totalGlobalMem", total_bytes == prop.totalGlobalMem);
  // The register that does not fit: more amplitudes than the device's bytes hold.
  int too_many = 0;
  while ((sizeof(cuDoubleComplex) << too_many) <= total_bytes) ++too_many;
  cuDoubleComplex *state = nullptr;
  cudaError_t err = cudaMalloc(&state, sizeof(cuDoubleComplex) << too_many);
  std::printf("%d qubits (%zu MiB on a device of %zu MiB): %s\n", too_many,
              (sizeof(cuDoubleComplex) << too_many) >> 20, total_bytes >> 20, cudaGetErrorString(err));
  fails += report("a register larger than the device is refused", err == cudaErrorMemoryAllocation);
  fails += report("the error is the last error", cudaGetLastError() == cudaErrorMemoryAllocation);
  fails += report("and not sticky", cudaGetLastError() == cudaSuccess);
  err = cudaMallocAsync(&state, sizeof(cuDoubleComplex) << too_many, 0);
  fails += report("from the stream-ordered allocator too", err == cudaErrorMemoryAllocation);
  cudaGetLastError();
  // Two registers that fit one by one but not together (each over half the device).
  cuDoubleComplex *a = nullptr, *b = nullptr;
  size_t half = total_bytes / 2 + (64u << 20);
  err = cudaMalloc(&a, half);
  if (err == cudaSuccess) {
    cudaError_t second = cudaMalloc(&b, half);
    fails += report("two registers over the device's memory are refused", second == cudaErrorMemoryAllocation);
    cudaGetLastError();
    CUDA_CHECK(cudaFree(a));
    err = cudaMalloc(&b, half);
    fails += report("freed memory is given again", err == cudaSuccess);
    CUDA_CHECK(cudaFree(b));
  } else {
    fails += report("half the device allocates", false);
  }
  // A register that fits: 20 qubits, written and read back.
  CUDA_CHECK(cudaMalloc(&state, sizeof(cuDoubleComplex) << 20));
  CUDA_CHECK(cudaMemset(state, 0, sizeof(cuDoubleComplex) << 20));
  CUDA_CHECK(cudaFree(state));
  std::printf("%s\n", fails ? "FAIL" : "PASS");
  return fails ? 1 : 0;
}
