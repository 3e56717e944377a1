// A persistent kernel launched normally (not cooperatively) with a software
// grid barrier: grid = 2 x the SM count, which the device holds at once, so
// on a GPU every block is resident and the barrier (an atomic counter and a
// volatile generation flag) completes. Each round every block reads what
// its neighbour wrote in the round before.
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

static const int kThreads = 128;
static const int kRounds = 12;

__device__ unsigned barrier_arrived;
__device__ unsigned barrier_generation;

// Every block's thread 0 arrives; the last one opens the next generation,
// the others poll the generation through a volatile pointer.
__device__ void grid_barrier(unsigned nblocks) {
  __syncthreads();
  if (threadIdx.x == 0) {
    volatile unsigned *generation = &barrier_generation;
    unsigned seen = *generation;
    __threadfence();
    if (atomicAdd(&barrier_arrived, 1u) == nblocks - 1) {
      atomicExch(&barrier_arrived, 0u);
      __threadfence();
      *generation = seen + 1;
    } else {
      while (*generation == seen) {
      }
    }
    __threadfence();
  }
  __syncthreads();
}

__global__ void persistent(unsigned *ping, unsigned *pong, int rounds) {
  unsigned n = gridDim.x;
  unsigned b = blockIdx.x;
  for (int r = 0; r < rounds; ++r) {
    unsigned *from = (r % 2) ? pong : ping;
    unsigned *to = (r % 2) ? ping : pong;
    if (threadIdx.x == 0)
      to[b] = from[(b + 1) % n] * 3u + b + (unsigned)r;
    grid_barrier(n);
  }
}

int main() {
  int device = 0, sms = 0, per_sm = 0;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, persistent,
                                                      kThreads, 0));
  if (per_sm < 2) {
    printf("FAIL: %d blocks of %d threads per SM, expected at least 2\n",
           per_sm, kThreads);
    return 1;
  }
  int blocks = 2 * sms;
  unsigned *ping, *pong;
  CHECK(cudaMallocManaged(&ping, blocks * sizeof(unsigned)));
  CHECK(cudaMallocManaged(&pong, blocks * sizeof(unsigned)));
  unsigned *want = new unsigned[blocks], *next = new unsigned[blocks];
  for (int i = 0; i < blocks; ++i)
    ping[i] = want[i] = 7u * (unsigned)i + 1u;
  for (int launch = 0; launch < 2; ++launch) {
    for (int i = 0; i < blocks; ++i)
      ping[i] = 7u * (unsigned)i + 1u;
    persistent<<<blocks, kThreads>>>(ping, pong, kRounds);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
  }
  for (int r = 0; r < kRounds; ++r) {
    for (int b = 0; b < blocks; ++b)
      next[b] = want[(b + 1) % blocks] * 3u + (unsigned)b + (unsigned)r;
    for (int b = 0; b < blocks; ++b)
      want[b] = next[b];
  }
  const unsigned *got = (kRounds % 2) ? pong : ping;
  for (int b = 0; b < blocks; ++b)
    if (got[b] != want[b]) {
      printf("FAIL: block %d holds %u, expected %u\n", b, got[b], want[b]);
      return 1;
    }
  printf("PASS\n");
  return 0;
}
