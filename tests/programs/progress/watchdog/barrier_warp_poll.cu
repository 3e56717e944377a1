// A persistent kernel launched normally, with a sense-reversing software grid
// barrier like an option pricer's: thread 0 of each block adds itself to a
// counter in device memory and polls a volatile sense word, while the other
// 63 threads of its block (31 of them its warp-mates) wait at
// __syncthreads(). Grid = 2 x the SM count, which the device holds at once.
// Each poll of such a lane costs far more than a lone thread's (its warp's
// lockstep looks at the waiting lanes), and a spinning block looked at the
// clock only every 4,096 yields (about 1 M polls, 0.3 s here): the launch got
// its blocks from the watchdog after 1 s, with its note, instead of from the
// spinning blocks within tens of milliseconds (progress_watchdog.sh runs this
// with CUEMU_QUIET=0 and wants no note).
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
static const int kRounds = 3;
static const int kLaunches = 3;

__device__ void grid_sync(int *count, volatile int *sense, int nblocks) {
  __syncthreads();
  if (threadIdx.x == 0) {
    int mine = *sense;
    __threadfence();
    if (atomicAdd(count, 1) == nblocks - 1) {
      atomicExch(count, 0);
      __threadfence();
      *sense = !mine;
    } else {
      while (*sense == mine) {
      }
    }
    __threadfence();
  }
  __syncthreads();
}

// Round r: every block's thread 0 writes from its neighbour's value of the
// round before, then the grid meets.
__global__ void rounds(unsigned *ping, unsigned *pong, int *count,
                       volatile int *sense) {
  unsigned n = gridDim.x, b = blockIdx.x;
  for (int r = 0; r < kRounds; ++r) {
    unsigned *from = (r % 2) ? pong : ping;
    unsigned *to = (r % 2) ? ping : pong;
    if (threadIdx.x == 0)
      to[b] = from[(b + 1) % n] * 5u + b + (unsigned)r;
    grid_sync(count, sense, (int)n);
  }
}

int main() {
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  int blocks = 2 * sms;
  unsigned *ping, *pong;
  int *count, *sense;
  CHECK(cudaMallocManaged(&ping, blocks * sizeof(unsigned)));
  CHECK(cudaMallocManaged(&pong, blocks * sizeof(unsigned)));
  CHECK(cudaMalloc(&count, sizeof(int)));
  CHECK(cudaMalloc(&sense, sizeof(int)));
  CHECK(cudaMemset(count, 0, sizeof(int)));
  CHECK(cudaMemset(sense, 0, sizeof(int)));
  unsigned *want = new unsigned[blocks], *next = new unsigned[blocks];
  for (int launch = 0; launch < kLaunches; ++launch) {
    for (int i = 0; i < blocks; ++i)
      ping[i] = want[i] = 3u * (unsigned)i + (unsigned)launch;
    rounds<<<blocks, kThreads>>>(ping, pong, count, sense);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    for (int r = 0; r < kRounds; ++r) {
      for (int i = 0; i < blocks; ++i)
        next[i] = want[(i + 1) % blocks] * 5u + (unsigned)i + (unsigned)r;
      for (int i = 0; i < blocks; ++i)
        want[i] = next[i];
    }
    const unsigned *got = (kRounds % 2) ? pong : ping;
    for (int i = 0; i < blocks; ++i)
      if (got[i] != want[i]) {
        printf("FAIL: launch %d block %d: %u, expected %u\n", launch, i,
               got[i], want[i]);
        return 1;
      }
  }
  delete[] want;
  delete[] next;
  printf("PASS\n");
  return 0;
}
