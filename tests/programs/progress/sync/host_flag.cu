// host_flag.cu: a kernel waits for a flag in managed memory that the host
// thread raises after the launch returns, as collaborative CPU-GPU programs
// do. With asynchronous streams it completes (PASS). With
// CUEMU_STREAMS=sync the launch does not return before the kernel ends, so
// the flag is never raised: tests/streams_sync_host_flag.sh checks that the
// report says so (exit status 1 here).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void wait_for_host(const volatile int *flag, int *out) {
  while (*flag == 0) {}
  out[threadIdx.x] = *flag + threadIdx.x;
}

int main() {
  int *flag, *out;
  if (cudaMallocManaged(&flag, sizeof(int)) != cudaSuccess ||
      cudaMallocManaged(&out, 32 * sizeof(int)) != cudaSuccess)
    return 2;
  *flag = 0;
  wait_for_host<<<1, 32>>>(flag, out);
  *(volatile int *)flag = 7;
  cudaError_t e = cudaDeviceSynchronize();
  bool ok = e == cudaSuccess;
  for (int i = 0; i < 32 && ok; ++i) ok = out[i] == 7 + i;
  std::printf("%s (%s)\n", ok ? "PASS" : "FAIL", cudaGetErrorName(e));
  return ok ? 0 : 1;
}
