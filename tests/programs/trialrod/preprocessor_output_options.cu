/* CUEMU_OPTIONS: -Xcompiler -dD,-fdirectives-only,-fopenmp
 * NVCC_OPTIONS: -Xcompiler -dD,-fdirectives-only,-fopenmp
 * The host compiler's options that change the form of its -E output
 * (-dD keeps the #define lines, -fdirectives-only leaves macros
 * unexpanded; cuemu also drops -P, -dN, -dI and -dU there) are taken by
 * nvcc, whose own preprocessing they do not disturb; cuemu's
 * preprocessing pass once passed them on, and the translation of its
 * output failed. (macro_debug_info.cu is the -g3 of a suite's debug
 * flags.) */
#include <cstdio>

#define BLOCK 64
#define SQUARE(x) ((x) * (x))
#ifdef _OPENMP
#define HOST_THREADS 1
#else
#define HOST_THREADS 0
#endif

__device__ __host__ inline int twice(int v) { return 2 * v; }

__global__ void squares(int *out) {
  __shared__ int s[BLOCK];
  int t = threadIdx.x;
  s[t] = SQUARE(t);
  __syncthreads();
  out[blockIdx.x * BLOCK + t] = twice(s[BLOCK - 1 - t]);
}

int main() {
  int *d, h[2 * BLOCK];
  cudaMalloc(&d, sizeof h);
  squares<<<2, BLOCK>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  int bad = 0;
  for (int i = 0; i < 2 * BLOCK; i++) {
    int t = i % BLOCK;
    if (h[i] != twice(SQUARE(BLOCK - 1 - t)))
      bad++;
  }
  if (!HOST_THREADS) {
    printf("_OPENMP is not defined\n");
    bad++;
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
