/*
 * reloc_main.cu: the other half (reloc_kernels.cu): fills an array, has
 * the other file's kernel add one, and, built with -rdc=true (RELOC_RDC),
 * doubles it with the other file's device function.
 */
#include <cstdio>

void launch_add_one(int *d, int n);
#ifdef RELOC_RDC
extern __device__ int twice(int v);
#endif

__global__ void fill(int *p) {
  p[threadIdx.x] = threadIdx.x;
}

__global__ void doubled(int *p) {
#ifdef RELOC_RDC
  p[threadIdx.x] = twice(p[threadIdx.x]);
#else
  p[threadIdx.x] = 2 * p[threadIdx.x];
#endif
}

int main() {
  const int n = 32;
  int *d = nullptr, h[n];
  cudaMalloc(&d, n * sizeof(int));
  fill<<<1, n>>>(d);
  launch_add_one(d, n);
  doubled<<<1, n>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int ok = 1;
  for (int i = 0; i < n; i++)
    ok &= h[i] == 2 * (i + 1);
  cudaFree(d);
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
