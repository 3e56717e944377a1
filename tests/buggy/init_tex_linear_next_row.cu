// init_tex_linear_next_row.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: init
// EXPECT: init tex2D uninitialised cudaArray element (3,4) (5,4) line 20 line 22
#include <cstdio>
#include <cuda_runtime.h>

/* Only the top half of the array's rows is copied in, and the texture
 * filters linearly. A fetch at the centre of the last written row gives
 * that row alone: the next row's 9-bit weight is 0, and it is not reported
 * (tests/programs/checkers/texture_reads_written.cu). A fetch half-way to
 * the next, unwritten row blends it in, and so does a fetch 1/256 of a
 * texel past the centre, whose weight (1/256) is the smallest nonzero one:
 * both are reported, each at its line, with the unwritten element's
 * coordinates. */
__global__ void rows(cudaTextureObject_t tex, int h, float *out) {
  int x = threadIdx.x;
  float centre = h / 2 - 0.5f;
  float v = tex2D<float>(tex, x + 0.5f, centre);
  if (x == 3)
    v += tex2D<float>(tex, x + 0.5f, h / 2.0f);
  if (x == 5)
    v += tex2D<float>(tex, x + 0.5f, centre + 1.0f / 256.0f);
  out[x] = v;
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
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex;
  cudaCreateTextureObject(&tex, &res, &td, NULL);
  float *out;
  cudaMalloc(&out, w * sizeof(float));
  rows<<<1, w>>>(tex, h, out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
