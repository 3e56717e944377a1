// atomic_later_flag.cu: each block waits for a flag that the next block
// sets, or for one of kCancel cancel flags that nothing sets, reading the
// flag and then every cancel flag with atomics in a loop that does not
// yield (no volatile access, no __nanosleep). An atomic read again and
// again at one address is taken for a spin, and so is one that the thread
// comes back to among up to 1,024 other accesses; here the flag comes back
// after kCancel (1100) others, so no block sees the spin, but the watchdog
// sees that no block starts while each running block runs one thread that
// does not wait, and starts more workers (CUEMU_WORKERS=2 asks for two;
// the grid is small enough for a GPU to hold every block at once). Run by
// tests/progress_watchdog.sh, which also expects the watchdog's note on
// stderr.
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

static const int kBlocks = 6;
static const int kThreads = 64;
static const int kCancel = 1100;

// Whether any of the cancel flags is set, each read with an atomic.
__device__ bool cancelled(int *cancel) {
  bool any = false;
  for (int k = 0; k < kCancel; ++k)
    any |= atomicAdd(&cancel[k], 0) != 0;
  return any;
}

__global__ void chain(int *flags, int *cancel, unsigned *runs,
                      unsigned *order) {
  __shared__ unsigned seen;
  unsigned b = blockIdx.x;
  if (threadIdx.x == 0) {
    atomicAdd(&runs[b], 1u);
    if (b + 1 < gridDim.x)
      while (atomicAdd(&flags[b + 1], 0) == 0 && !cancelled(cancel)) {
      }
    seen = atomicAdd(order, 1u);
  }
  __syncthreads();
  if (threadIdx.x == 0)
    atomicExch(&flags[b], 1);
  if (seen != gridDim.x - 1 - b && threadIdx.x == 1)
    atomicAdd(&runs[b], 100u); // out of order: fails the check below
}

int main() {
  int *flags, *cancel;
  unsigned *runs, *order;
  CHECK(cudaMalloc(&flags, kBlocks * sizeof(int)));
  CHECK(cudaMemset(flags, 0, kBlocks * sizeof(int)));
  CHECK(cudaMalloc(&cancel, kCancel * sizeof(int)));
  CHECK(cudaMemset(cancel, 0, kCancel * sizeof(int)));
  CHECK(cudaMallocManaged(&runs, kBlocks * sizeof(unsigned)));
  CHECK(cudaMemset(runs, 0, kBlocks * sizeof(unsigned)));
  CHECK(cudaMallocManaged(&order, sizeof(unsigned)));
  CHECK(cudaMemset(order, 0, sizeof(unsigned)));
  chain<<<kBlocks, kThreads>>>(flags, cancel, runs, order);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  for (int b = 0; b < kBlocks; ++b)
    if (runs[b] != 1) {
      printf("FAIL: block %d: %u (ran more than once, or out of order)\n", b,
             runs[b]);
      return 1;
    }
  printf("PASS\n");
  return 0;
}
