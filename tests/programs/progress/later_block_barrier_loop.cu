// Blocks whose threads wait for items that the NEXT block decides, in a
// loop with a __syncthreads() in every round (the shape of a graph
// colouring kernel's rounds: each thread re-reads its vertex's state and
// its neighbours', through a volatile pointer, until they are final). The
// barriers keep completing, but nothing changes until the next block runs.
// The grid is small enough for the device to hold every block at once, so
// a GPU completes it whatever order it starts the blocks in.
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
static const int kThreads = 128;

// Item i (one per thread) is final once it holds a non-zero value: the last
// block's items are final at once, the others take the value of the item
// one block further on, plus one.
__global__ void rounds(volatile int *item, int n) {
  const int i = threadIdx.x + blockIdx.x * blockDim.x;
  bool again;
  do {
    again = false;
    __syncthreads();
    if (i < n && item[i] == 0) {
      const int next = i + (int)blockDim.x;
      if (next >= n) {
        item[i] = 1;
      } else {
        const int v = item[next];
        if (v != 0)
          item[i] = v + 1;
        else
          again = true;
      }
    }
  } while (__syncthreads_or(again));
}

int main() {
  const int n = kBlocks * kThreads;
  int *item;
  CHECK(cudaMallocManaged(&item, n * sizeof(int)));
  for (int i = 0; i < n; ++i)
    item[i] = 0;
  rounds<<<kBlocks, kThreads>>>(item, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < n; ++i) {
    const int expect = kBlocks - i / kThreads;
    if (item[i] != expect) {
      printf("FAIL: item[%d] = %d, expected %d\n", i, item[i], expect);
      return 1;
    }
  }
  printf("PASS\n");
  return 0;
}
