/*
 * write_past_end.cu: a kernel whose bound test is off by one (`i > rows`
 * for `i >= rows`), so that the thread of index `rows` writes a row past
 * the end of its output, as HeCBench bezier-surface's kernel does. On a GPU
 * the row usually lands unnoticed in the rest of the allocation's 2 MiB
 * page; cuemu's guard after each allocation makes the write fault, the
 * launch fails with cudaErrorIllegalAddress, and the report says how far
 * past the end of which allocation the address is
 * (tests/write_past_end.sh). The output fills its pages exactly (16 rows of
 * 256 floats), so the extra row starts in the guard. Prints PASS when the
 * launch succeeds with the rows right, as on a GPU.
 */
#include <cstdio>

#include <cuda_runtime.h>

__global__ void fill_rows(float *out, int rows, int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > rows)
    return;
  for (int j = 0; j < cols; ++j)
    out[i * cols + j] = (float)(i * 1000 + j);  // row
}

int main() {
  const int rows = 16, cols = 256;
  float *out = nullptr;
  if (cudaMalloc(&out, rows * cols * sizeof(float)) != cudaSuccess) {
    std::printf("FAIL: cudaMalloc\n");
    return 1;
  }
  fill_rows<<<1, 32>>>(out, rows, cols);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::printf("launch: %s\n", cudaGetErrorName(e));
    return 1;
  }
  static float host[rows * cols];
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  for (int i = 0; i < rows * cols; ++i)
    if (host[i] != (float)((i / cols) * 1000 + i % cols)) {
      std::printf("FAIL: out[%d] = %g\n", i, host[i]);
      return 1;
    }
  std::printf("PASS\n");
  return 0;
}
