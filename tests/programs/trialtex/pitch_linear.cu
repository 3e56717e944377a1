// pitch_linear.cu - textures over plain device memory: a pitched float image
// (cudaMallocPitch + cudaResourceTypePitch2D) resampled bilinearly, a signed 8-bit
// normal map read as normalized floats, and 1-D linear buffers (tex1Dfetch) of
// int4 and short2 elements, the latter also as normalized floats.
#include "common.h"
#include <vector>

__global__ void resample(cudaTextureObject_t t, float *out, int w, int h) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x < w && y < h) out[y * w + x] = tex2D<float>(t, x * 1.37f - 2.0f, y * 1.21f - 1.5f);
}
__global__ void normals(cudaTextureObject_t t, float2 *out, int w, int h) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x < w && y < h) out[y * w + x] = tex2D<float2>(t, x + 0.5f, y + 0.5f);
}
__global__ void fetch_lin(cudaTextureObject_t ti, cudaTextureObject_t ts, cudaTextureObject_t tn,
                          int4 *oi, short2 *os, float2 *on, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  oi[i] = tex1Dfetch<int4>(ti, i);
  os[i] = tex1Dfetch<short2>(ts, n - 1 - i);
  on[i] = tex1Dfetch<float2>(tn, i);
}

int main() {
  const int W = 40, H = 30;
  float *img; size_t pitch;
  CK(cudaMallocPitch(&img, &pitch, W * sizeof(float), H));
  std::vector<float> h(W * H);
  for (int i = 0; i < W * H; i++) h[i] = cosf(i * 0.11f) * 8.0f + (i % 7);
  CK(cudaMemcpy2D(img, pitch, h.data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
  cudaResourceDesc rd = {}; rd.resType = cudaResourceTypePitch2D;
  rd.res.pitch2D.devPtr = img; rd.res.pitch2D.desc = cudaCreateChannelDesc<float>();
  rd.res.pitch2D.width = W; rd.res.pitch2D.height = H; rd.res.pitch2D.pitchInBytes = pitch;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeBorder;
  td.filterMode = cudaFilterModeLinear; td.readMode = cudaReadModeElementType;
  td.borderColor[0] = -3.0f;
  cudaTextureObject_t t; CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  float *dout; CK(cudaMalloc(&dout, W * H * 4));
  resample<<<H, 64>>>(t, dout, W, H);
  CK(cudaGetLastError());
  std::vector<float> out(W * H);
  CK(cudaMemcpy(out.data(), dout, W * H * 4, cudaMemcpyDeviceToHost));
  auto f = [&](int i, int j) { return HF4{h[j * W + i], 0, 0, 1}; };
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      HF4 r = host_tex2D(f, W, H, H_BORDER, false, true, x * 1.37f - 2.0f, y * 1.21f - 1.5f, HF4{-3, 0, 0, 0});
      EXPECT(near_(out[y * W + x], r.x, 1e-5f), "pitch (%d,%d): got %g want %g", x, y, out[y * W + x], r.x);
    }
  cudaResourceDesc got;
  CK(cudaGetTextureObjectResourceDesc(&got, t));
  EXPECT(got.resType == cudaResourceTypePitch2D && got.res.pitch2D.devPtr == img &&
         got.res.pitch2D.pitchInBytes == pitch && got.res.pitch2D.width == W, "pitch2D resource desc");
  CK(cudaDestroyTextureObject(t));

  // Signed 8-bit normal map.
  char2 *nm; size_t npitch;
  CK(cudaMallocPitch(&nm, &npitch, W * sizeof(char2), H));
  std::vector<char2> hn(W * H);
  for (int i = 0; i < W * H; i++) hn[i] = make_char2((signed char)(i * 37 - 128), (signed char)(127 - i * 5));
  CK(cudaMemcpy2D(nm, npitch, hn.data(), W * 2, W * 2, H, cudaMemcpyHostToDevice));
  rd.res.pitch2D.devPtr = nm; rd.res.pitch2D.desc = cudaCreateChannelDesc<char2>();
  rd.res.pitch2D.pitchInBytes = npitch;
  td = {}; td.filterMode = cudaFilterModePoint; td.readMode = cudaReadModeNormalizedFloat;
  CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  float2 *dn; CK(cudaMalloc(&dn, W * H * sizeof(float2)));
  normals<<<H, 64>>>(t, dn, W, H);
  std::vector<float2> on(W * H);
  CK(cudaMemcpy(on.data(), dn, on.size() * sizeof(float2), cudaMemcpyDeviceToHost));
  auto snorm8 = [](signed char c) { return fmaxf(c / 127.0f, -1.0f); };
  for (int i = 0; i < W * H; i++)
    EXPECT(on[i].x == snorm8(hn[i].x) && on[i].y == snorm8(hn[i].y), "snorm %d: %g %g (%d %d)", i, on[i].x, on[i].y, hn[i].x, hn[i].y);
  CK(cudaDestroyTextureObject(t));

  // 1-D linear buffers.
  const int N = 1000;
  std::vector<int4> vi(N); std::vector<short2> vs(N);
  for (int i = 0; i < N; i++) { vi[i] = make_int4(i, -i * 3, i * 100000, ~i); vs[i] = make_short2((short)(i * 97 - 32768), (short)(i * 31)); }
  int4 *bi; short2 *bs; CK(cudaMalloc(&bi, N * 16)); CK(cudaMalloc(&bs, N * 4));
  CK(cudaMemcpy(bi, vi.data(), N * 16, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(bs, vs.data(), N * 4, cudaMemcpyHostToDevice));
  cudaResourceDesc lr = {}; lr.resType = cudaResourceTypeLinear;
  lr.res.linear.devPtr = bi; lr.res.linear.desc = cudaCreateChannelDesc<int4>(); lr.res.linear.sizeInBytes = N * 16;
  cudaTextureDesc ld = {}; ld.readMode = cudaReadModeElementType;
  cudaTextureObject_t ti, ts, tn;
  CK(cudaCreateTextureObject(&ti, &lr, &ld, nullptr));
  lr.res.linear.devPtr = bs; lr.res.linear.desc = cudaCreateChannelDesc<short2>(); lr.res.linear.sizeInBytes = N * 4;
  CK(cudaCreateTextureObject(&ts, &lr, &ld, nullptr));
  ld.readMode = cudaReadModeNormalizedFloat;
  CK(cudaCreateTextureObject(&tn, &lr, &ld, nullptr));
  int4 *oi; short2 *os; float2 *onn;
  CK(cudaMalloc(&oi, N * 16)); CK(cudaMalloc(&os, N * 4)); CK(cudaMalloc(&onn, N * 8));
  fetch_lin<<<(N + 255) / 256, 256>>>(ti, ts, tn, oi, os, onn, N);
  CK(cudaGetLastError());
  std::vector<int4> ri(N); std::vector<short2> rs(N); std::vector<float2> rn(N);
  CK(cudaMemcpy(ri.data(), oi, N * 16, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(rs.data(), os, N * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(rn.data(), onn, N * 8, cudaMemcpyDeviceToHost));
  auto snorm16 = [](short c) { return fmaxf(c / 32767.0f, -1.0f); };
  for (int i = 0; i < N; i++) {
    EXPECT(ri[i].x == vi[i].x && ri[i].y == vi[i].y && ri[i].z == vi[i].z && ri[i].w == vi[i].w, "int4 %d", i);
    EXPECT(rs[i].x == vs[N - 1 - i].x && rs[i].y == vs[N - 1 - i].y, "short2 %d", i);
    EXPECT(rn[i].x == snorm16(vs[i].x) && rn[i].y == snorm16(vs[i].y), "short2 norm %d: %g %g", i, rn[i].x, rn[i].y);
  }
  CK(cudaDestroyTextureObject(ti)); CK(cudaDestroyTextureObject(ts)); CK(cudaDestroyTextureObject(tn));
  CK(cudaFree(img)); CK(cudaFree(nm)); CK(cudaFree(bi)); CK(cudaFree(bs)); CK(cudaFree(oi)); CK(cudaFree(os));
  CK(cudaFree(onn)); CK(cudaFree(dout)); CK(cudaFree(dn));
  return finish("pitch_linear");
}
