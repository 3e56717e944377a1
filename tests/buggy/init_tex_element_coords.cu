// init_tex_element_coords.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: init
// EXPECT: init uninitialised cudaArray element (1,2,1) (2,1) layer (1,2) level line 18 line 20 line 22
#include <cstdio>
#include <cuda_runtime.h>

/* Fetches of elements nothing wrote, each reported with the element's
 * coordinates as a user counts them: a 3D array whose second slice was
 * never copied in (element (1,2,1)), a layered array of which only layer 0
 * was (element (2,1) of layer 1), and a mipmapped array of which only level
 * 0 was (element (1,2) of level 1, read by tex2DLod). */
__global__ void reads(cudaTextureObject_t volume, cudaTextureObject_t layers,
                      cudaTextureObject_t mips, float *out) {
  int x = threadIdx.x;
  float v = 0.0f;
  if (x == 0) {
    v += tex3D<float>(volume, 0.5f, 0.5f, 0.5f);
    v += tex3D<float>(volume, 1.5f, 2.5f, 1.5f);
    v += tex2DLayered<float>(layers, 2.5f, 1.5f, 0);
    v += tex2DLayered<float>(layers, 2.5f, 1.5f, 1);
    v += tex2DLod<float>(mips, 0.3f, 0.6f, 0.0f);
    v += tex2DLod<float>(mips, 0.3f, 0.6f, 1.0f);
  }
  out[x] = v;
}

static cudaTextureObject_t texture_of(const cudaResourceDesc &res,
                                      int normalized) {
  cudaTextureDesc td = {};
  td.filterMode = cudaFilterModePoint;
  td.mipmapFilterMode = cudaFilterModePoint;
  td.maxMipmapLevelClamp = 8.0f;
  td.normalizedCoords = normalized;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex;
  cudaCreateTextureObject(&tex, &res, &td, NULL);
  return tex;
}

int main() {
  const int w = 8, h = 4, n = 8;
  float host[n * n];
  for (int i = 0; i < n * n; ++i)
    host[i] = (float)i;
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();

  /* A 3D array of 2 slices and a layered array of 3 layers: the first
   * slice or layer of each copied in. */
  cudaArray_t volume, layers;
  cudaMalloc3DArray(&volume, &desc, make_cudaExtent(w, h, 2));
  cudaMalloc3DArray(&layers, &desc, make_cudaExtent(w, h, 3), cudaArrayLayered);
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(host, w * sizeof(float), w, h);
  p.extent = make_cudaExtent(w, h, 1);
  p.kind = cudaMemcpyHostToDevice;
  p.dstArray = volume;
  cudaMemcpy3D(&p);
  p.dstArray = layers;
  cudaMemcpy3D(&p);

  /* A mipmapped array of n x n: level 0 copied in, level 1 (n/2 x n/2)
   * not. */
  cudaMipmappedArray_t mipmapped;
  cudaMallocMipmappedArray(&mipmapped, &desc, make_cudaExtent(n, n, 0), 3);
  cudaArray_t level0;
  cudaGetMipmappedArrayLevel(&level0, mipmapped, 0);
  cudaMemcpy2DToArray(level0, 0, 0, host, n * sizeof(float), n * sizeof(float),
                      n, cudaMemcpyHostToDevice);

  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = volume;
  cudaTextureObject_t tvolume = texture_of(res, 0);
  res.res.array.array = layers;
  cudaTextureObject_t tlayers = texture_of(res, 0);
  res = cudaResourceDesc{};
  res.resType = cudaResourceTypeMipmappedArray;
  res.res.mipmap.mipmap = mipmapped;
  cudaTextureObject_t tmips = texture_of(res, 1);

  float *out;
  cudaMalloc(&out, 32 * sizeof(float));
  reads<<<1, 32>>>(tvolume, tlayers, tmips, out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
