// init_tex_array_unwritten.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: init
// EXPECT: init tex2D uninitialised cudaArray line 14
#include <cstdio>
#include <cuda_runtime.h>

/* A histogram of a texture whose array was never filled: the copy that
 * should have filled it fails (its source pitch is narrower than a row),
 * unchecked, and every fetch reads elements nothing wrote. */
__global__ void histogram(cudaTextureObject_t tex, int w, int h, int *bins) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  if (x < w && y < h) {
    unsigned char v = tex2D<unsigned char>(tex, x + 0.5f, y + 0.5f);
    atomicAdd(&bins[v % 4], 1);
  }
}

int main() {
  const int w = 32, h = 4;
  unsigned char host[w * h];
  for (int i = 0; i < w * h; ++i)
    host[i] = (unsigned char)i;
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<unsigned char>();
  cudaArray_t array;
  cudaMallocArray(&array, &desc, w, h);
  cudaMemcpy2DToArray(array, 0, 0, host, w / 2, w, h, cudaMemcpyHostToDevice);
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = array;
  cudaTextureDesc td = {};
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex;
  cudaCreateTextureObject(&tex, &res, &td, NULL);
  int *bins;
  cudaMalloc(&bins, 4 * sizeof(int));
  cudaMemset(bins, 0, 4 * sizeof(int));
  histogram<<<dim3(1, h), w>>>(tex, w, h, bins);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
