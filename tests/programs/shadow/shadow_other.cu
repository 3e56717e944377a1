// shadow_other.cu: the unit of tests/programs/shadow that defines
// linked_count, which shadow_main.cu declares `extern` (with -rdc=true).
// NVCC_OPTIONS: -rdc=true
#include "shadow.cuh"

__device__ int linked_count = 1;

__global__ void bump_linked() { linked_count += 10; }

int shadow_other_checks(int expected) {
  bump_linked<<<1, 1>>>();
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 1;
  // The host's object keeps its initial value; the device's is read
  // through the symbol calls.
  int value = 0;
  SHADOW_CHECK("linked_count's host object", linked_count == 1);
  SHADOW_CHECK("cudaMemcpyFromSymbol of linked_count",
               cudaMemcpyFromSymbol(&value, linked_count, sizeof value) ==
                       cudaSuccess &&
                   value == expected + 10);
  return 0;
}
