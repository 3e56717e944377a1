// volume_slices.cu - a CT-style volume written slice by slice with surf3Dwrite,
// resampled by tex3D (point and trilinear, wrap and clamp), with a sub-box
// copied between volumes by cudaMemcpy3D with positions on both sides.
#include "common.h"
#include <vector>

__global__ void write_volume(cudaSurfaceObject_t s, int w, int h, int d) {
  int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
  if (x < w && y < h && z < d) surf3Dwrite((float)(x * 3 + y * 5 - z * 7) + 0.25f * (x % 3), s, x * 4, y, z);
}
__global__ void resample(cudaTextureObject_t t, const float4 *p, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex3D<float>(t, p[i].x, p[i].y, p[i].z);
}

int main() {
  const int W = 10, H = 9, D = 7;
  auto val = [](int x, int y, int z) { return (float)(x * 3 + y * 5 - z * 7) + 0.25f * (x % 3); };
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t vol;
  CK(cudaMalloc3DArray(&vol, &fd, make_cudaExtent(W, H, D), cudaArraySurfaceLoadStore));
  cudaResourceDesc rd = {}; rd.resType = cudaResourceTypeArray; rd.res.array.array = vol;
  cudaSurfaceObject_t s; CK(cudaCreateSurfaceObject(&s, &rd));
  write_volume<<<dim3(H, D), 32>>>(s, W, H, D);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  CK(cudaDestroySurfaceObject(s));
  cudaExtent ext; cudaChannelFormatDesc got; unsigned flags;
  CK(cudaArrayGetInfo(&got, &ext, &flags, vol));
  EXPECT(ext.width == W && ext.height == H && ext.depth == D && (flags & cudaArraySurfaceLoadStore), "3-D info");

  const int N = 500;
  std::vector<float4> p(N);
  for (int i = 0; i < N; i++) p[i] = make_float4(((i * 71) % 113) / 50.0f - 0.6f, ((i * 29) % 101) / 45.0f - 0.5f, ((i * 13) % 97) / 40.0f - 0.4f, 0);
  float4 *dp; float *dout; std::vector<float> out(N);
  CK(cudaMalloc(&dp, N * 16)); CK(cudaMalloc(&dout, N * 4));
  CK(cudaMemcpy(dp, p.data(), N * 16, cudaMemcpyHostToDevice));
  for (int cfg = 0; cfg < 4; cfg++) {
    bool lin = cfg & 1, wrap = cfg & 2;
    cudaTextureDesc td = {};
    for (int k = 0; k < 3; k++) td.addressMode[k] = wrap ? cudaAddressModeWrap : cudaAddressModeClamp;
    td.filterMode = lin ? cudaFilterModeLinear : cudaFilterModePoint;
    td.normalizedCoords = 1;
    cudaTextureObject_t t; CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    resample<<<(N + 127) / 128, 128>>>(t, dp, dout, N);
    CK(cudaMemcpy(out.data(), dout, N * 4, cudaMemcpyDeviceToHost));
    HostAddr m = wrap ? H_WRAP : H_CLAMP;
    for (int i = 0; i < N; i++) {
      float x = host_coord(p[i].x, W, m, true), y = host_coord(p[i].y, H, m, true), z = host_coord(p[i].z, D, m, true);
      auto T = [&](int a, int b, int c) { return val(host_index(a, W, m), host_index(b, H, m), host_index(c, D, m)); };
      float r;
      if (!lin) r = T((int)floorf(x), (int)floorf(y), (int)floorf(z));
      else {
        x -= 0.5f; y -= 0.5f; z -= 0.5f;
        int a = (int)floorf(x), b = (int)floorf(y), c = (int)floorf(z);
        float al = q8(frac_(x)), be = q8(frac_(y)), ga = q8(frac_(z));
        r = (1 - al) * (1 - be) * (1 - ga) * T(a, b, c) + al * (1 - be) * (1 - ga) * T(a + 1, b, c) +
            (1 - al) * be * (1 - ga) * T(a, b + 1, c) + al * be * (1 - ga) * T(a + 1, b + 1, c) +
            (1 - al) * (1 - be) * ga * T(a, b, c + 1) + al * (1 - be) * ga * T(a + 1, b, c + 1) +
            (1 - al) * be * ga * T(a, b + 1, c + 1) + al * be * ga * T(a + 1, b + 1, c + 1);
      }
      EXPECT(near_(out[i], r, 1e-5f), "cfg %d sample %d (%g,%g,%g): got %g want %g", cfg, i, p[i].x, p[i].y, p[i].z, out[i], r);
    }
    CK(cudaDestroyTextureObject(t));
  }

  // Sub-box copy: vol[2..6, 1..5, 3..5] -> dst at (1, 2, 0), then back to host.
  cudaArray_t dst; CK(cudaMalloc3DArray(&dst, &fd, make_cudaExtent(8, 8, 4)));
  std::vector<float> zero(8 * 8 * 4, -1.0f);
  cudaMemcpy3DParms c = {};
  c.srcPtr = make_cudaPitchedPtr(zero.data(), 32, 8, 8); c.dstArray = dst;
  c.extent = make_cudaExtent(8, 8, 4); c.kind = cudaMemcpyHostToDevice;
  CK(cudaMemcpy3D(&c));
  c = {};
  c.srcArray = vol; c.srcPos = make_cudaPos(2, 1, 3);
  c.dstArray = dst; c.dstPos = make_cudaPos(1, 2, 0);
  c.extent = make_cudaExtent(5, 5, 3); c.kind = cudaMemcpyDeviceToDevice;
  CK(cudaMemcpy3D(&c));
  std::vector<float> back(8 * 8 * 4);
  c = {};
  c.srcArray = dst; c.dstPtr = make_cudaPitchedPtr(back.data(), 32, 8, 8);
  c.extent = make_cudaExtent(8, 8, 4); c.kind = cudaMemcpyDeviceToHost;
  CK(cudaMemcpy3D(&c));
  for (int z = 0; z < 4; z++)
    for (int y = 0; y < 8; y++)
      for (int x = 0; x < 8; x++) {
        bool in = x >= 1 && x < 6 && y >= 2 && y < 7 && z < 3;
        float want = in ? val(x - 1 + 2, y - 2 + 1, z + 3) : -1.0f;
        EXPECT(back[(z * 8 + y) * 8 + x] == want, "box (%d,%d,%d): %g want %g", x, y, z, back[(z * 8 + y) * 8 + x], want);
      }
  CK(cudaFreeArray(vol)); CK(cudaFreeArray(dst)); CK(cudaFree(dp)); CK(cudaFree(dout));
  return finish("volume_slices");
}
