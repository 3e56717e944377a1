// init_tex_half_array.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: init
// EXPECT: init tex2D uninitialised cudaArray element (3,7) line 16
#include <cstdio>
#include <cuda_runtime.h>

/* Only the top half of the array's rows is copied in. Each thread reads a
 * texel of the written half (not reported: reading only that half is
 * correct, tests/programs/checkers/texture_reads_written.cu) and one of
 * the unwritten half, reported at its line. */
__global__ void rows(cudaTextureObject_t tex, int w, int h, float *out) {
  int x = threadIdx.x;
  float top = tex2D<float>(tex, x + 0.5f, 0.5f);
  float bottom = 0.0f;
  if (x == 3)
    bottom = tex2D<float>(tex, x + 0.5f, h - 0.5f);
  out[x] = top + bottom;
}

int main() {
  const int w = 16, h = 8;
  float host[w * h];
  for (int i = 0; i < w * h; ++i)
    host[i] = (float)i;
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t array;
  cudaMallocArray(&array, &desc, w, h);
  cudaMemcpy2DToArray(array, 0, 0, host, w * sizeof(float), w * sizeof(float),
                      h / 2, cudaMemcpyHostToDevice);
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = array;
  cudaTextureDesc td = {};
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex;
  cudaCreateTextureObject(&tex, &res, &td, NULL);
  float *out;
  cudaMalloc(&out, w * sizeof(float));
  rows<<<1, w>>>(tex, w, h, out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
