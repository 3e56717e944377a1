// normal_maps.cu - signed and unsigned normalized textures filtered bilinearly
// (char4 normal maps, ushort1 depth maps), a 1-D gradient ramp with mirror
// addressing, and element-type uchar4 point reads of the same array.
#include "common.h"
#include <vector>

__global__ void sample2(cudaTextureObject_t t, float4 *out, int w, int h, float s) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x < w && y < h) out[y * w + x] = tex2D<float4>(t, (x + 0.37f) * s, (y + 0.81f) * s);
}
__global__ void sample_depth(cudaTextureObject_t t, float *out, int w, int h) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x < w && y < h) out[y * w + x] = tex2D<float>(t, x * 0.77f + 0.1f, y * 0.66f + 0.2f);
}
__global__ void ramp(cudaTextureObject_t t, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float>(t, i * 0.0173f - 1.3f);
}
__global__ void raw(cudaTextureObject_t t, uchar4 *out, int w, int h) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x < w && y < h) out[y * w + x] = tex2D<uchar4>(t, x + 0.5f, y + 0.5f);
}

int main() {
  const int W = 19, H = 11;
  std::vector<char4> nm(W * H);
  for (int i = 0; i < W * H; i++) nm[i] = make_char4((signed char)(i * 41), (signed char)(-i * 23), (signed char)(i % 2 ? -128 : 127), (signed char)(i * 7));
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<char4>();
  cudaArray_t a; CK(cudaMallocArray(&a, &cd, W, H));
  CK(cudaMemcpy2DToArray(a, 0, 0, nm.data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
  cudaResourceDesc rd = {}; rd.resType = cudaResourceTypeArray; rd.res.array.array = a;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear; td.readMode = cudaReadModeNormalizedFloat;
  cudaTextureObject_t t; CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  float4 *d4; CK(cudaMalloc(&d4, W * H * 16));
  sample2<<<H, 32>>>(t, d4, W, H, 0.9f);
  std::vector<float4> o4(W * H);
  CK(cudaMemcpy(o4.data(), d4, W * H * 16, cudaMemcpyDeviceToHost));
  auto sn = [](signed char c) { return fmaxf(c / 127.0f, -1.0f); };
  auto f = [&](int i, int j) { char4 c = nm[j * W + i]; return HF4{sn(c.x), sn(c.y), sn(c.z), sn(c.w)}; };
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      HF4 r = host_tex2D(f, W, H, H_CLAMP, false, true, (x + 0.37f) * 0.9f, (y + 0.81f) * 0.9f);
      float4 o = o4[y * W + x];
      EXPECT(near_(o.x, r.x, 1e-5f) && near_(o.y, r.y, 1e-5f) && near_(o.z, r.z, 1e-5f) && near_(o.w, r.w, 1e-5f),
             "snorm (%d,%d): got %g %g %g %g want %g %g %g %g", x, y, o.x, o.y, o.z, o.w, r.x, r.y, r.z, r.w);
    }
  CK(cudaDestroyTextureObject(t));

  // Depth map: ushort1 read as normalized float, linear, border.
  std::vector<unsigned short> dm(W * H);
  for (int i = 0; i < W * H; i++) dm[i] = (unsigned short)(i * 2711);
  cudaChannelFormatDesc ud = cudaCreateChannelDesc<unsigned short>();
  cudaArray_t da; CK(cudaMallocArray(&da, &ud, W, H));
  CK(cudaMemcpy2DToArray(da, 0, 0, dm.data(), W * 2, W * 2, H, cudaMemcpyHostToDevice));
  rd.res.array.array = da;
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeBorder;
  td.borderColor[0] = 0.5f;
  CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  float *d1; CK(cudaMalloc(&d1, W * H * 4));
  sample_depth<<<H, 32>>>(t, d1, W, H);
  std::vector<float> o1(W * H);
  CK(cudaMemcpy(o1.data(), d1, W * H * 4, cudaMemcpyDeviceToHost));
  auto fd = [&](int i, int j) { return HF4{dm[j * W + i] / 65535.0f, 0, 0, 1}; };
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      HF4 r = host_tex2D(fd, W, H, H_BORDER, false, true, x * 0.77f + 0.1f, y * 0.66f + 0.2f, HF4{0.5f, 0, 0, 0});
      EXPECT(near_(o1[y * W + x], r.x, 1e-5f), "depth (%d,%d): got %g want %g", x, y, o1[y * W + x], r.x);
    }
  CK(cudaDestroyTextureObject(t));

  // 1-D ramp of 8 floats, normalized, mirror, linear.
  const int R = 8, N = 200;
  float rampv[R] = {0, 1, 4, 9, 16, 25, 36, 49};
  cudaChannelFormatDesc fdesc = cudaCreateChannelDesc<float>();
  cudaArray_t ra; CK(cudaMallocArray(&ra, &fdesc, R));
  CK(cudaMemcpyToArray(ra, 0, 0, rampv, sizeof rampv, cudaMemcpyHostToDevice));
  rd.res.array.array = ra;
  td = {}; td.addressMode[0] = cudaAddressModeMirror; td.filterMode = cudaFilterModeLinear; td.normalizedCoords = 1;
  CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  float *dr; CK(cudaMalloc(&dr, N * 4));
  ramp<<<1, N>>>(t, dr, N);
  std::vector<float> orr(N);
  CK(cudaMemcpy(orr.data(), dr, N * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < N; i++) {
    auto fr = [&](int a, int) { return HF4{rampv[a], 0, 0, 1}; };
    // A 1-D texture is the 2-D model with one row.
    HF4 r = host_tex2D(fr, R, 1, H_MIRROR, true, true, i * 0.0173f - 1.3f, 0.5f);
    EXPECT(near_(orr[i], r.x, 1e-5f), "ramp %d (x %g): got %g want %g", i, i * 0.0173f - 1.3f, orr[i], r.x);
  }
  CK(cudaDestroyTextureObject(t));

  // Element-type uchar4 reads.
  std::vector<uchar4> px(W * H);
  for (int i = 0; i < W * H; i++) px[i] = make_uchar4(i, 255 - i, i * 3, 7);
  cudaChannelFormatDesc pd = cudaCreateChannelDesc<uchar4>();
  cudaArray_t pa; CK(cudaMallocArray(&pa, &pd, W, H));
  CK(cudaMemcpy2DToArray(pa, 0, 0, px.data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
  rd.res.array.array = pa;
  td = {}; td.readMode = cudaReadModeElementType;
  CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  uchar4 *du; CK(cudaMalloc(&du, W * H * 4));
  raw<<<H, 32>>>(t, du, W, H);
  std::vector<uchar4> ou(W * H);
  CK(cudaMemcpy(ou.data(), du, W * H * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < W * H; i++)
    EXPECT(ou[i].x == px[i].x && ou[i].y == px[i].y && ou[i].z == px[i].z && ou[i].w == px[i].w, "uchar4 %d", i);
  CK(cudaDestroyTextureObject(t));
  CK(cudaFreeArray(a)); CK(cudaFreeArray(da)); CK(cudaFreeArray(ra)); CK(cudaFreeArray(pa));
  CK(cudaFree(d4)); CK(cudaFree(d1)); CK(cudaFree(dr)); CK(cudaFree(du));
  return finish("normal_maps");
}
