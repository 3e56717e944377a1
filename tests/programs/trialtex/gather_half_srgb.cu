// gather_half_srgb.cu - a 4-tap PCF-style gather (tex2Dgather of each component),
// an HDR image in half-float RGBA filtered bilinearly, and sRGB decoding of an
// 8-bit photo while filtering.
#include "common.h"
#include <cuda_fp16.h>
#include <vector>

__global__ void gather(cudaTextureObject_t t, float4 *out, int w, int h) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x >= w || y >= h) return;
  float u = x + 0.3f, v = y + 0.8f;
  for (int c = 0; c < 4; c++) {
    float4 g;
    switch (c) {
    case 0: g = tex2Dgather<float4>(t, u, v, 0); break;
    case 1: g = tex2Dgather<float4>(t, u, v, 1); break;
    case 2: g = tex2Dgather<float4>(t, u, v, 2); break;
    default: g = tex2Dgather<float4>(t, u, v, 3); break;
    }
    out[(y * w + x) * 4 + c] = g;
  }
}
__global__ void filt(cudaTextureObject_t t, float4 *out, int w, int h, float sx, float sy) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x < w && y < h) out[y * w + x] = tex2D<float4>(t, x * sx + 0.1f, y * sy + 0.35f);
}

static float srgb_to_linear(float c) {
  double d = c;
  return (float)(d <= 0.04045 ? d / 12.92 : pow((d + 0.055) / 1.055, 2.4));
}

int main() {
  const int W = 12, H = 9;
  std::vector<uchar4> img(W * H);
  for (int i = 0; i < W * H; i++) img[i] = make_uchar4((i * 29) & 255, (i * 11 + 5) & 255, (i * 71) & 255, (i * 13) & 255);
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar4>();
  cudaArray_t a; CK(cudaMallocArray(&a, &cd, W, H, cudaArrayTextureGather));
  CK(cudaMemcpy2DToArray(a, 0, 0, img.data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
  cudaResourceDesc rd = {}; rd.resType = cudaResourceTypeArray; rd.res.array.array = a;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint; td.readMode = cudaReadModeNormalizedFloat;
  cudaTextureObject_t t; CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  float4 *d; CK(cudaMalloc(&d, W * H * 4 * sizeof(float4)));
  gather<<<H, 32>>>(t, d, W, H);
  CK(cudaGetLastError());
  std::vector<float4> g(W * H * 4);
  CK(cudaMemcpy(g.data(), d, g.size() * sizeof(float4), cudaMemcpyDeviceToHost));
  auto comp = [&](int i, int j, int c) {
    i = i < 0 ? 0 : i >= W ? W - 1 : i; j = j < 0 ? 0 : j >= H ? H - 1 : j;
    uchar4 p = img[j * W + i];
    return (c == 0 ? p.x : c == 1 ? p.y : c == 2 ? p.z : p.w) / 255.0f;
  };
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      int i = (int)floorf(x + 0.3f - 0.5f), j = (int)floorf(y + 0.8f - 0.5f);
      for (int c = 0; c < 4; c++) {
        float4 o = g[(y * W + x) * 4 + c];
        // PTX tld4: (i, j+1), (i+1, j+1), (i+1, j), (i, j).
        EXPECT(o.x == comp(i, j + 1, c) && o.y == comp(i + 1, j + 1, c) && o.z == comp(i + 1, j, c) &&
               o.w == comp(i, j, c), "gather (%d,%d) comp %d", x, y, c);
      }
    }
  CK(cudaDestroyTextureObject(t));

  // sRGB decode with linear filtering.
  td.filterMode = cudaFilterModeLinear; td.sRGB = 1;
  CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  float4 *dout; CK(cudaMalloc(&dout, W * H * sizeof(float4)));
  std::vector<float4> out(W * H);
  filt<<<H, 32>>>(t, dout, W, H, 0.93f, 0.87f);
  CK(cudaMemcpy(out.data(), dout, out.size() * sizeof(float4), cudaMemcpyDeviceToHost));
  auto fs = [&](int i, int j) { uchar4 p = img[j * W + i];
    return HF4{srgb_to_linear(p.x / 255.0f), srgb_to_linear(p.y / 255.0f), srgb_to_linear(p.z / 255.0f), p.w / 255.0f}; };
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      HF4 r = host_tex2D(fs, W, H, H_CLAMP, false, true, x * 0.93f + 0.1f, y * 0.87f + 0.35f);
      float4 o = out[y * W + x];
      EXPECT(near_(o.x, r.x, 1e-4f) && near_(o.y, r.y, 1e-4f) && near_(o.z, r.z, 1e-4f) && near_(o.w, r.w, 1e-5f),
             "srgb (%d,%d): got %g %g %g %g want %g %g %g %g", x, y, o.x, o.y, o.z, o.w, r.x, r.y, r.z, r.w);
    }
  CK(cudaDestroyTextureObject(t));

  // Half-float HDR image.
  std::vector<__half> hdr(W * H * 4);
  std::vector<float> hdrf(W * H * 4);
  for (int i = 0; i < W * H * 4; i++) { hdr[i] = __float2half(sinf(i * 0.7f) * 40.0f); hdrf[i] = __half2float(hdr[i]); }
  cudaChannelFormatDesc hd = cudaCreateChannelDescHalf4();
  cudaArray_t ha; CK(cudaMallocArray(&ha, &hd, W, H));
  CK(cudaMemcpy2DToArray(ha, 0, 0, hdr.data(), W * 8, W * 8, H, cudaMemcpyHostToDevice));
  rd.res.array.array = ha;
  td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeMirror; td.normalizedCoords = 1;
  td.filterMode = cudaFilterModeLinear; td.readMode = cudaReadModeElementType;
  CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  filt<<<H, 32>>>(t, dout, W, H, 0.21f, 0.33f);
  CK(cudaMemcpy(out.data(), dout, out.size() * sizeof(float4), cudaMemcpyDeviceToHost));
  auto fh = [&](int i, int j) { const float *p = &hdrf[(j * W + i) * 4]; return HF4{p[0], p[1], p[2], p[3]}; };
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      HF4 r = host_tex2D(fh, W, H, H_MIRROR, true, true, x * 0.21f + 0.1f, y * 0.33f + 0.35f);
      float4 o = out[y * W + x];
      EXPECT(near_(o.x, r.x, 1e-5f) && near_(o.y, r.y, 1e-5f) && near_(o.z, r.z, 1e-5f) && near_(o.w, r.w, 1e-5f),
             "half (%d,%d): got %g %g %g %g want %g %g %g %g", x, y, o.x, o.y, o.z, o.w, r.x, r.y, r.z, r.w);
    }
  cudaChannelFormatDesc got; CK(cudaGetChannelDesc(&got, ha));
  EXPECT(got.x == 16 && got.y == 16 && got.z == 16 && got.w == 16 && got.f == cudaChannelFormatKindFloat, "half channel desc");
  CK(cudaDestroyTextureObject(t));
  CK(cudaFreeArray(a)); CK(cudaFreeArray(ha)); CK(cudaFree(d)); CK(cudaFree(dout));
  return finish("gather_half_srgb");
}
