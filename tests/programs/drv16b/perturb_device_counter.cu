// perturb_device_counter.cu: a kernel that counts into a __device__
// variable by atomicAdd, run under schedule perturbation
// (CUEMU_CHECK_SCHEDULES=1, set here before the first CUDA call; a GPU
// ignores it). Perturbation runs a launch twice, restoring what the first
// run wrote; it once restored only tracked allocations, and a __device__
// variable that no host call had named was not one, so the counter ended
// twice too high. A second kernel, racing on another __device__ variable
// (every thread stores its own index into it), must be reported: the two
// orders leave different values.
#include <cstdlib>
#include <cstring>

#include "../check.cuh"

#ifdef __CUEMU__
#include <cuemu/cuemu.h>
#endif

__device__ unsigned counter;
__device__ int last_writer;
__device__ unsigned hits[4], plain_total;

__global__ void count(unsigned *out) {
  atomicAdd(&counter, 1u);
  atomicAdd(&hits[threadIdx.x % 4], 2u);
  if (threadIdx.x == 0 && blockIdx.x == 0)
    *out = 7;
}

__global__ void race() { last_writer = blockIdx.x * blockDim.x + threadIdx.x; }

int main() {
  setenv("CUEMU_CHECK_SCHEDULES", "1", 1);
  unsigned *out;
  CHECK(cudaMalloc(&out, sizeof *out) == cudaSuccess);
  for (int round = 0; round < 3; ++round) {
    count<<<4, 64>>>(out);
    CHECK(cudaGetLastError() == cudaSuccess);
  }
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  unsigned c = 0, h[4] = {0, 0, 0, 0};
  CHECK(cudaMemcpyFromSymbol(&c, counter, sizeof c) == cudaSuccess);
  CHECK(cudaMemcpyFromSymbol(h, hits, sizeof h) == cudaSuccess);
  CHECK(c == 3 * 4 * 64);
  for (int i = 0; i < 4; ++i)
    CHECK(h[i] == 3 * 4 * 64 / 4 * 2);
  unsigned o = 0;
  CHECK(cudaMemcpy(&o, out, sizeof o, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(o == 7);
  // A GPU leaves some thread's index; perturbation finds the two orders
  // disagree and reports it; the launch goes on (cuemu only).
  race<<<2, 32>>>();
  cudaError_t e = cudaDeviceSynchronize();
  CHECK(e == cudaSuccess);
#ifdef __CUEMU__
  const char *report = "";
  CHECK(cuemu_check_reports(&report) == 1);
  CHECK(std::strstr(report, "schedule perturbation") != nullptr);
  cuemu_check_reports_clear(); /* expected: the exit status stays 0 */
#endif
  return finish();
}
