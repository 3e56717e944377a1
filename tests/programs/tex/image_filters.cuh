/*
 * image_filters.cuh: two image filters the way public samples write them:
 * a Sobel edge detector reading an 8-bit image through a texture with
 * point sampling, and a bilinear resize reading an RGBA image through a
 * texture with normalized coordinates and linear filtering.
 */
#ifndef IMAGE_FILTERS_CUH
#define IMAGE_FILTERS_CUH

#include <cuda_runtime.h>

namespace filters {

/* The Sobel magnitude |gx| + |gy| of pixel (x, y), clamped to 255. */
__device__ inline unsigned char sobel_at(cudaTextureObject_t tex, int x,
                                         int y) {
  /* Texel centres are at integer + 0.5. */
  float fx = x + 0.5f, fy = y + 0.5f;
  int ul = tex2D<unsigned char>(tex, fx - 1, fy - 1);
  int um = tex2D<unsigned char>(tex, fx, fy - 1);
  int ur = tex2D<unsigned char>(tex, fx + 1, fy - 1);
  int ml = tex2D<unsigned char>(tex, fx - 1, fy);
  int mr = tex2D<unsigned char>(tex, fx + 1, fy);
  int ll = tex2D<unsigned char>(tex, fx - 1, fy + 1);
  int lm = tex2D<unsigned char>(tex, fx, fy + 1);
  int lr = tex2D<unsigned char>(tex, fx + 1, fy + 1);
  int gx = (ur + 2 * mr + lr) - (ul + 2 * ml + ll);
  int gy = (ll + 2 * lm + lr) - (ul + 2 * um + ur);
  int m = abs(gx) + abs(gy);
  return (unsigned char)(m > 255 ? 255 : m);
}

template <int BlockW, int BlockH>
__global__ void __launch_bounds__(BlockW *BlockH)
    sobel(cudaTextureObject_t tex, unsigned char *out, int w, int h,
          size_t pitch) {
  int x = blockIdx.x * BlockW + threadIdx.x;
  int y = blockIdx.y * BlockH + threadIdx.y;
  if (x < w && y < h)
    out[y * pitch + x] = sobel_at(tex, x, y);
}

/* Resizes to w x h: each output pixel samples the input at its centre in
 * normalized coordinates; results are rounded back to 8 bits. */
__global__ void resize_bilinear(cudaTextureObject_t tex, uchar4 *out, int w,
                                int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  float u = (x + 0.5f) / w, v = (y + 0.5f) / h;
  float4 c = tex2D<float4>(tex, u, v);
  out[y * w + x] = make_uchar4((unsigned char)(c.x * 255.0f + 0.5f),
                               (unsigned char)(c.y * 255.0f + 0.5f),
                               (unsigned char)(c.z * 255.0f + 0.5f),
                               (unsigned char)(c.w * 255.0f + 0.5f));
}

} // namespace filters

#endif
