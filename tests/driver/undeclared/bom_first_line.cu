#include <cstdio>

// bom_first_line.cu: a file saved with a UTF-8 byte-order mark and CRLF
// line ends, as Windows editors save it, whose first line includes
// <cstdio>: nvcc and g++ ignore the mark, so printf is declared and no
// warning is due (tests/driver_nvcc_undeclared.sh).

__global__ void store(int *out) { out[threadIdx.x] = 40 + threadIdx.x; }

int main() {
  int *d = nullptr, h[2] = {0, 0};
  cudaMalloc(&d, sizeof h);
  store<<<1, 2>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  printf(h[0] == 40 && h[1] == 41 ? "PASS\n" : "FAIL\n");
  return h[0] == 40 && h[1] == 41 ? 0 : 1;
}
