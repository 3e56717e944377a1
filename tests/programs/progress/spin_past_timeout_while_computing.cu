// A block that polls a flag for longer than the emulator's spin timeout
// while the block that sets it computes: on a GPU the wait simply lasts as
// long as the computation. The emulator ends a block whose threads only
// yield for CUEMU_SPIN_TIMEOUT seconds (a deadlock), but not while another
// running block computes, another block ends or a poll finds its flag
// changed: the launch progresses, only slower than the wait (a checked
// build of a graph colouring was ended so after 10 s). The program sets a
// spin timeout of 0.2 s for itself, far below the producer's computation
// (about a second of processor time in the emulator).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                        \
  do {                                                                     \
    cudaError_t err_ = (call);                                             \
    if (err_ != cudaSuccess) {                                             \
      printf("FAIL: %s: %s\n", #call, cudaGetErrorString(err_));           \
      return 1;                                                            \
    }                                                                      \
  } while (0)

__device__ unsigned tickets;

__global__ void produce_or_wait(volatile int *flag, float *out, int steps) {
  __shared__ unsigned ticket;
  if (threadIdx.x == 0)
    ticket = atomicAdd(&tickets, 1u);
  __syncthreads();
  if (threadIdx.x != 0)
    return;
  if (ticket == 0) {
    // The producer: one thread's long computation, then the flag.
    float x = blockIdx.x;
    for (int i = 0; i < steps; ++i)
      x = x * 0.999999f + 0.5f;
    out[0] = x;
    __threadfence();
    *flag = 1;
  } else {
    while (*flag == 0) {
    }
    out[1] = 1.0f;
  }
}

int main() {
  // Read by the emulator at each launch; a GPU has no such timeout.
  setenv("CUEMU_SPIN_TIMEOUT", "0.2", 1);
  int *flag = nullptr;
  float *out = nullptr;
  CHECK(cudaMalloc(&flag, sizeof(int)));
  CHECK(cudaMalloc(&out, 2 * sizeof(float)));
  CHECK(cudaMemset(flag, 0, sizeof(int)));
  CHECK(cudaMemset(out, 0, 2 * sizeof(float)));
  produce_or_wait<<<2, 32>>>(flag, out, 300000000);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  float host[2];
  CHECK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
  if (host[1] != 1.0f || !(host[0] > 0.0f)) {
    printf("FAIL: the waiting block did not finish (%g %g)\n", host[0],
           host[1]);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
