/*
 * device_clocks.cu: clock() and clock64() of device code count the device's
 * cycles: clock() is the low 32 bits of the counter that clock64() reads,
 * and host code's clock() stays the C library's. (That the counter runs at
 * cudaDevAttrClockRate is measured by bench/, not here.) Prints PASS when
 * all is well.
 */
#include <ctime>

#include <cuda_runtime.h>

#include "check.cuh"

__global__ void read_clocks(long long *out) {
  long long before = clock64();
  clock_t low = clock();
  long long after = clock64();
  out[threadIdx.x * 3 + 0] = before;
  out[threadIdx.x * 3 + 1] = (long long)low;
  out[threadIdx.x * 3 + 2] = after;
}

int main() {
  long long *out = nullptr;
  CHECK(cudaMallocManaged(&out, 3 * 32 * sizeof(long long)) == cudaSuccess);
  std::clock_t host_before = std::clock();
  read_clocks<<<1, 32>>>(out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int t = 0; t < 32; ++t) {
    unsigned long long before = (unsigned long long)out[t * 3];
    unsigned long long after = (unsigned long long)out[t * 3 + 2];
    unsigned low = (unsigned)out[t * 3 + 1];
    CHECK(before <= after);
    /* clock() lies between the two reads of clock64(), modulo 2^32. */
    CHECK((unsigned)(low - (unsigned)before) <= (unsigned)(after - before));
  }
  /* The host's clock() counts the process's CPU time: it does not move by
   * anything like a cycle counter in this short run. */
  CHECK(std::clock() - host_before < 10 * CLOCKS_PER_SEC);
  CHECK(cudaFree(out) == cudaSuccess);
  return finish();
}
