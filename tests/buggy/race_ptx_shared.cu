// race_ptx_shared.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh):
// inline PTX stores and loads of shared memory are seen at the user's lines.
// CHECK: race
// EXPECT: race shared RAW line 16 line 18
#include <cstdio>
#include <cuda_runtime.h>

/* Each thread reads its left neighbour's element without a barrier after
 * the writes (tests/programs/ptx_barrier_order.cu has the bar.sync). */
__global__ void shift_left(unsigned *out) {
  __shared__ unsigned tile[128];
  unsigned t = threadIdx.x, v = 0;
  unsigned long long mine, left;
  asm("cvta.to.shared.u64 %0, %1;" : "=l"(mine) : "l"(&tile[t]));
  asm("cvta.to.shared.u64 %0, %1;" : "=l"(left) : "l"(&tile[t ? t - 1 : 0]));
  asm volatile("st.shared.u32 [%0], %1;" ::"l"(mine), "r"(2 * t) : "memory");
  /* missing bar.sync 0; */
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "l"(left) : "memory");
  out[t] = v;
}

int main() {
  unsigned *d;
  cudaMalloc(&d, 128 * sizeof(unsigned));
  shift_left<<<1, 128>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
