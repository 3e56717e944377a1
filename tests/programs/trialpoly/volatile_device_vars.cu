/* volatile_device_vars.cu: volatile __device__ and __managed__ variables,
 * as Parboil's BFS and other pre-cooperative-groups code declare the
 * counters of a grid barrier built from atomics (`__device__ volatile int
 * count;`): they compile (cuemu's registration of a device variable took
 * its address as `const void *`, which a volatile object's is not), copy
 * to and from their symbols, and a persistent kernel spins on them. */
#include <cstdio>
#include <cuda_runtime.h>

__device__ volatile int g_count;
volatile __device__ int g_generation;
__device__ volatile unsigned int g_slots[4];
__managed__ volatile int m_done;
__device__ const volatile int *g_seen;

/* A grid-wide barrier from atomics on volatile counters. */
__device__ void grid_barrier(int nblocks) {
  __syncthreads();
  if (threadIdx.x == 0) {
    int generation = g_generation;
    __threadfence();
    if (atomicAdd((int *)&g_count, 1) == nblocks - 1) {
      g_count = 0;
      __threadfence();
      g_generation = generation + 1;
    } else {
      while (g_generation == generation) {
      }
    }
  }
  __syncthreads();
}

__global__ void rounds(int *out, int nrounds) {
  for (int r = 0; r < nrounds; ++r) {
    if (threadIdx.x == 0)
      atomicAdd((unsigned int *)&g_slots[r & 3], 1u);
    grid_barrier(gridDim.x);
    /* Every block sees every block's arrival of this round. */
    if (threadIdx.x == 0 && g_slots[r & 3] < (unsigned)(gridDim.x * (r / 4 + 1)))
      atomicAdd(out, 1);
    grid_barrier(gridDim.x);
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    g_seen = &g_count;
    m_done = 1;
  }
}

int main() {
  int *d_bad, bad = 0, zero = 0, generation = -1;
  unsigned slots[4] = {0, 0, 0, 0};
  cudaMalloc(&d_bad, sizeof(int));
  cudaMemcpy(d_bad, &zero, sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpyToSymbol(g_count, &zero, sizeof(int));
  cudaMemcpyToSymbol(g_generation, &zero, sizeof(int));
  cudaMemcpyToSymbol(g_slots, slots, sizeof slots);
  m_done = 0;
  rounds<<<4, 64>>>(d_bad, 10);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(&bad, d_bad, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpyFromSymbol(&generation, g_generation, sizeof(int));
  cudaMemcpyFromSymbol(slots, g_slots, sizeof slots);
  void *count_address = nullptr;
  const volatile int *seen = nullptr;
  cudaGetSymbolAddress(&count_address, g_count);
  cudaMemcpyFromSymbol(&seen, g_seen, sizeof seen);
  int ok = e == cudaSuccess && bad == 0 && generation == 20 && slots[0] == 12 &&
           slots[1] == 12 && slots[2] == 8 && slots[3] == 8 && m_done == 1 &&
           (const void *)seen == count_address;
  if (!ok)
    printf("%s: bad %d, generation %d, slots %u %u %u %u, done %d\n",
           cudaGetErrorString(e), bad, generation, slots[0], slots[1], slots[2],
           slots[3], (int)m_done);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
