// Texture-object filters on an RGBA8 cudaArray read as normalized floats:
// Sobel edge magnitude (clamp), a bilateral filter (border), a bilinear resize
// with normalized coordinates, and a surface writer.
#ifndef TRIALIMG_TEXTURE_FILTERS_CUH
#define TRIALIMG_TEXTURE_FILTERS_CUH
#include <cuda_runtime.h>
#include <vec_math.h>

#define BILATERAL_RADIUS 2
__constant__ float c_spatial[2 * BILATERAL_RADIUS + 1];

__device__ __host__ inline float luminance(float4 c) { return 0.299f * c.x + 0.587f * c.y + 0.114f * c.z; }

__device__ inline float lumAt(cudaTextureObject_t tex, int x, int y) {
  return luminance(tex2D<float4>(tex, x + 0.5f, y + 0.5f));
}

__global__ void sobelTex(float *out, int w, int h, cudaTextureObject_t tex) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float ul = lumAt(tex, x - 1, y - 1), um = lumAt(tex, x, y - 1), ur = lumAt(tex, x + 1, y - 1);
  float ml = lumAt(tex, x - 1, y), mr = lumAt(tex, x + 1, y);
  float ll = lumAt(tex, x - 1, y + 1), lm = lumAt(tex, x, y + 1), lr = lumAt(tex, x + 1, y + 1);
  float gx = (ur + 2.f * mr + lr) - (ul + 2.f * ml + ll);
  float gy = (ll + 2.f * lm + lr) - (ul + 2.f * um + ur);
  out[y * w + x] = sqrtf(gx * gx + gy * gy);
}

__global__ void bilateralTex(uchar4 *out, int w, int h, float invTwoSigmaR2, cudaTextureObject_t tex) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  const float3 center = make_float3(tex2D<float4>(tex, x + 0.5f, y + 0.5f));
  float3 sum = make_float3(0.f);
  float wsum = 0.f;
  for (int dy = -BILATERAL_RADIUS; dy <= BILATERAL_RADIUS; dy++)
    for (int dx = -BILATERAL_RADIUS; dx <= BILATERAL_RADIUS; dx++) {
      const float3 c = make_float3(tex2D<float4>(tex, x + dx + 0.5f, y + dy + 0.5f));
      const float3 diff = c - center;
      float wgt = c_spatial[dx + BILATERAL_RADIUS] * c_spatial[dy + BILATERAL_RADIUS] * __expf(-dot(diff, diff) * invTwoSigmaR2);
      sum += wgt * c;
      wsum += wgt;
    }
  float s = 255.f / wsum;
  out[y * w + x] = make_uchar4(__float2uint_rn(sum.x * s), __float2uint_rn(sum.y * s), __float2uint_rn(sum.z * s), 255);
}

__global__ void resizeTex(float4 *out, int ow, int oh, cudaTextureObject_t tex) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= ow || y >= oh) return;
  float u = (x + 0.5f) / ow, v = (y + 0.5f) / oh;
  out[y * ow + x] = tex2D<float4>(tex, u, v);
}

// Writes an edge map into a surface-bound array: white where the gradient is strong.
__global__ void edgesToSurface(cudaSurfaceObject_t surf, const float *mag, int w, int h, float threshold) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  unsigned char v = mag[y * w + x] > threshold ? 255 : 0;
  uchar4 px = make_uchar4(v, (unsigned char)(x & 255), (unsigned char)(y & 255), 255);
  surf2Dwrite(px, surf, x * sizeof(uchar4), y);
}

// Reads the surface back, inverts it and writes it again (in place).
__global__ void invertSurface(cudaSurfaceObject_t surf, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  uchar4 p;
  surf2Dread(&p, surf, x * (int)sizeof(uchar4), y);
  p.x = 255 - p.x;
  surf2Dwrite(p, surf, x * (int)sizeof(uchar4), y, cudaBoundaryModeTrap);
}

#endif  // TRIALIMG_TEXTURE_FILTERS_CUH
