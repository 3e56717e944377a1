// init_copy_source_3d.cu: a deliberately buggy program for the checkers (tests/checkers.sh).
// CHECK: init
// EXPECT: init cudaMemcpy source 64 of the 768 bytes line 22 line 39
#include <cstdio>
#include <cuda_runtime.h>

/* Writes every row of every slice of a pitched box but the last row of
 * slice `skip`. */
__global__ void fill_but_one_row(cudaPitchedPtr box, int height, int skip) {
  int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
  if (z == skip && y == height - 1)
    return;
  char *slice = (char *)box.ptr + z * box.pitch * height;
  ((int *)(slice + y * box.pitch))[x] = x + y + z;
}

int main() {
  const int width = 16, height = 4, depth = 3;
  static int host[depth][height][width];
  cudaExtent extent = make_cudaExtent(width * sizeof(int), height, depth);
  cudaPitchedPtr box;
  cudaMalloc3D(&box, extent);
  fill_but_one_row<<<dim3(height, depth), width>>>(box, height, 2);
  cudaMemcpy3DParms p = {};
  p.srcPtr = box;
  p.dstPtr = make_cudaPitchedPtr(host, width * sizeof(int), width, height);
  p.kind = cudaMemcpyDeviceToHost;
  /* Slices 0 and 1 were written whole: no report. */
  p.extent = make_cudaExtent(width * sizeof(int), height, 2);
  cudaMemcpy3D(&p);
  /* Rows 0 to 2 of every slice were written: no report. */
  p.extent = make_cudaExtent(width * sizeof(int), height - 1, depth);
  cudaMemcpy3D(&p);
  /* The whole box: the last row of slice 2 (64 of the 768 bytes copied)
   * was never written. The padding between rows, past each row's 64 bytes,
   * is no part of the copy. */
  p.extent = extent;
  cudaError_t e = cudaSuccess;
  if (cudaMemcpy3D(&p) != cudaSuccess)
    e = cudaGetLastError();
  printf("%s %d\n", cudaGetErrorName(e), host[1][1][1]);
  cudaFree(box.ptr);
  return 0;
}
