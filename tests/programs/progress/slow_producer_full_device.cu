// A grid one block larger than the device holds at once, in which the first
// block to start computes for long (seconds in the emulator) before it sets
// a volatile flag that every other block polls: on a GPU the first block is
// resident, ends, and the last block starts then. With every other resident
// block spinning and nothing starting or ending for over a second, the
// emulator must not take the wait for one on a block that cannot be
// resident: the block it waits for runs. Each block counts its runs.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                        \
  do {                                                                     \
    cudaError_t err_ = (call);                                             \
    if (err_ != cudaSuccess) {                                             \
      printf("FAIL: %s: %s\n", #call, cudaGetErrorString(err_));           \
      return 1;                                                            \
    }                                                                      \
  } while (0)

static const int kThreads = 64;
static const size_t kShared = 40 * 1024;

__device__ unsigned tickets;

__global__ void slow_producer(volatile int *flag, unsigned *runs, float *out,
                              int steps) {
  extern __shared__ float scratch[];
  __shared__ unsigned ticket;
  if (threadIdx.x == 0) {
    atomicAdd(&runs[blockIdx.x], 1u);
    ticket = atomicAdd(&tickets, 1u);
  }
  __syncthreads();
  if (threadIdx.x != 0)
    return;
  if (ticket == 0) {
    // The producer: a long computation of one thread, then the flag.
    float x = blockIdx.x;
    for (int i = 0; i < steps; ++i)
      x = x * 0.999999f + 0.5f;
    scratch[0] = x;
    out[0] = scratch[0];
    __threadfence();
    *flag = 1;
  } else {
    while (*flag == 0) {
    }
  }
}

int main() {
  int device = 0, sms = 0, per_sm = 0;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  CHECK(cudaFuncSetAttribute(slow_producer,
                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                             (int)kShared));
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &per_sm, slow_producer, kThreads, kShared));
  int blocks = sms * per_sm + 1;
  int *flag;
  unsigned *runs;
  float *out;
  CHECK(cudaMalloc(&flag, sizeof(int)));
  CHECK(cudaMemset(flag, 0, sizeof(int)));
  CHECK(cudaMallocManaged(&runs, blocks * sizeof(unsigned)));
  CHECK(cudaMemset(runs, 0, blocks * sizeof(unsigned)));
  CHECK(cudaMallocManaged(&out, sizeof(float)));
  slow_producer<<<blocks, kThreads, kShared>>>(flag, runs, out, 600000000);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  for (int b = 0; b < blocks; ++b)
    if (runs[b] != 1) {
      printf("FAIL: block %d ran %u times\n", b, runs[b]);
      return 1;
    }
  printf("PASS\n");
  return 0;
}
