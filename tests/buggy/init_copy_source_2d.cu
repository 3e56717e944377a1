// init_copy_source_2d.cu: a deliberately buggy program for the checkers (tests/checkers.sh).
// CHECK: init
// EXPECT: init cudaMemcpy source 32 of the 512 bytes (the first: byte 60) line 27
#include <cstdio>
#include <cuda_runtime.h>

/* Writes columns 0 to cols - 2 of each of the rows of a pitched table: the
 * last column of every row stays unwritten. */
__global__ void fill_but_last_column(int *table, size_t pitch, int cols) {
  int col = threadIdx.x, row = blockIdx.x;
  int *line = (int *)((char *)table + row * pitch);
  if (col < cols - 1)
    line[col] = row * cols + col;
}

int main() {
  const int rows = 8, cols = 16;
  int host[rows][cols];
  int *dev;
  size_t pitch;
  cudaMallocPitch(&dev, &pitch, cols * sizeof(int), rows);
  fill_but_last_column<<<rows, cols>>>(dev, pitch, cols);
  /* The written columns alone (the pitch's padding is never read): no report. */
  cudaMemcpy2D(host, sizeof host[0], dev, pitch, (cols - 1) * sizeof(int),
               rows, cudaMemcpyDeviceToHost);
  /* Whole rows: 4 unwritten bytes in each of the 8 rows (32 of 512). */
  cudaError_t e = cudaMemcpy2D(host, sizeof host[0], dev, pitch,
                               cols * sizeof(int), rows,
                               cudaMemcpyDeviceToHost);
  printf("%s %d\n", cudaGetErrorName(e), host[1][0]);
  cudaFree(dev);
  return 0;
}
