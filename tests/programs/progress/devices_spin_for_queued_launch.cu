// A kernel on device 0 waits for a flag that a kernel on device 1, launched
// after it, sets: on two GPUs both run at once and the wait ends. The
// emulator runs launches one after the other on its worker pool, so the
// second launch waits for the first, which spins. The watchdog does not
// count a launch that waits for the pool as hung, but when the launches
// that run start no block for a while it gives the waiting one workers of
// its own, as for blocks that spin for blocks not started
// (docs/streams.md): the flag is set and both launches end (after about
// 1.3 s).
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
#include <cuda_runtime.h>

#define CHECK(call)                                                        \
  do {                                                                     \
    cudaError_t err_ = (call);                                             \
    if (err_ != cudaSuccess) {                                             \
      printf("FAIL: %s: %s\n", #call, cudaGetErrorString(err_));           \
      return 1;                                                            \
    }                                                                      \
  } while (0)

// Block 0's first thread waits for the flag; the other blocks end at once.
__global__ void wait_for_flag(volatile int *flag, int *seen) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    while (*flag == 0) {
    }
    *seen = 1;
  }
}

__global__ void raise_flag(volatile int *flag) {
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0)
    *flag = 1;
}

int main() {
  setenv("CUEMU_DEVICE", "count=2", 1);
  int count = 0;
  CHECK(cudaGetDeviceCount(&count));
  if (count != 2) {
    printf("FAIL: %d devices, expected 2\n", count);
    return 1;
  }
  int *flag, *seen;
  CHECK(cudaMallocManaged(&flag, sizeof(int)));
  CHECK(cudaMallocManaged(&seen, sizeof(int)));
  *flag = 0;
  *seen = 0;
  CHECK(cudaSetDevice(0));
  wait_for_flag<<<64, 32>>>(flag, seen);
  CHECK(cudaGetLastError());
  // The launches are asynchronous: give the first time to take the pool.
  usleep(200 * 1000);
  CHECK(cudaSetDevice(1));
  raise_flag<<<4, 32>>>(flag);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaSetDevice(0));
  CHECK(cudaDeviceSynchronize());
  if (*seen != 1) {
    printf("FAIL: the waiting kernel did not see the flag\n");
    return 1;
  }
  printf("PASS\n");
  return 0;
}
