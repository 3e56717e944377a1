// Each block waits for a flag that the NEXT block sets (a look-back in
// reverse: block 0 waits on block 1, which waits on block 2, ...), polled
// with a plain volatile loop that calls nothing and uses no atomics. The
// grid is small enough for the device to hold every block at once, so a GPU
// completes it whatever order it starts the blocks in. Each block counts
// its runs: every block runs exactly once.
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

static const int kBlocks = 12;
static const int kThreads = 64;

__global__ void chain(volatile int *flags, unsigned long long *sums,
                      unsigned *runs) {
  __shared__ unsigned long long partial[kThreads];
  unsigned b = blockIdx.x;
  if (threadIdx.x == 0)
    atomicAdd(&runs[b], 1u);
  partial[threadIdx.x] = b * 1000ull + threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long mine = 0;
    for (int i = 0; i < kThreads; ++i)
      mine += partial[i];
    if (b + 1 < gridDim.x) {
      while (flags[b + 1] == 0) {
      }
      __threadfence();
      mine += sums[b + 1];
    }
    sums[b] = mine;
    __threadfence();
    flags[b] = 1;
  }
}

int main() {
  int *flags;
  unsigned long long *sums;
  unsigned *runs;
  CHECK(cudaMalloc(&flags, kBlocks * sizeof(int)));
  CHECK(cudaMallocManaged(&runs, kBlocks * sizeof(unsigned)));
  CHECK(cudaMemset(runs, 0, kBlocks * sizeof(unsigned)));
  CHECK(cudaMallocManaged(&sums, kBlocks * sizeof(unsigned long long)));
  for (int launch = 0; launch < 2; ++launch) {
    CHECK(cudaMemset(flags, 0, kBlocks * sizeof(int)));
    chain<<<kBlocks, kThreads>>>(flags, sums, runs);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
  }
  for (int b = 0; b < kBlocks; ++b)
    if (runs[b] != 2) {
      printf("FAIL: block %d ran %u times in two launches\n", b, runs[b]);
      return 1;
    }
  unsigned long long want = 0;
  for (int b = kBlocks - 1; b >= 0; --b) {
    for (int t = 0; t < kThreads; ++t)
      want += (unsigned long long)b * 1000ull + (unsigned long long)t;
    if (sums[b] != want) {
      printf("FAIL: block %d: %llu, expected %llu\n", b, sums[b], want);
      return 1;
    }
  }
  printf("PASS\n");
  return 0;
}
