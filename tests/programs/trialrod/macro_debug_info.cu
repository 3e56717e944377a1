/* CUEMU_OPTIONS: -O2 -Xcompiler -g3,-fopenmp
 * NVCC_OPTIONS: -Xcompiler -g3,-fopenmp
 * Reduced from an academic suite's debug configuration
 * (`NVCC_FLAGS += -Xcompiler -g3`, macro information for gdb): -g3 makes
 * the host compiler's -E keep every #define in its output, and cuemu's
 * preprocessing pass then handed the translation a unit whose
 * `#define __device__ ...` lines took the qualifiers' meanings away
 * ("'__global__' does not name a type"). */
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
