// std_brings.cu: <memory> brings uint32_t and <cstdio> printf with nvcc
// 13.0 (g++ 12): nvcc builds it, and cuemu-nvcc gives no warning.
#include <cstdio>
#include <memory>

__global__ void fill(uint32_t *p) { p[threadIdx.x] = threadIdx.x; }

int main() {
  uint32_t *d, h[4] = {9, 9, 9, 9};
  cudaMalloc(&d, sizeof h);
  fill<<<1, 4>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int ok = h[0] == 0 && h[3] == 3;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
