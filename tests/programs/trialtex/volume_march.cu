// volume_march.cu - emission/absorption ray marching through a 3-D scalar volume
// (cudaMalloc3DArray + cudaMemcpy3D, trilinear filtering, normalized coordinates),
// plus a transfer-function lookup in a 1-D float4 texture.
#include "common.h"
#include <vector>

struct Cam { float ox, oy, oz, step; int steps; };

__global__ void march(cudaTextureObject_t vol, cudaTextureObject_t tf, float4 *img, int w, int h,
                      Cam cam) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float dx = ((x + 0.5f) / w - 0.5f) * 0.6f, dy = ((y + 0.5f) / h - 0.5f) * 0.6f, dz = 1.0f;
  float4 acc = make_float4(0, 0, 0, 0);
  for (int s = 0; s < cam.steps; s++) {
    float t = s * cam.step;
    float px = cam.ox + dx * t, py = cam.oy + dy * t, pz = cam.oz + dz * t;
    float d = tex3D<float>(vol, px, py, pz);
    float4 c = tex1D<float4>(tf, d);
    float a = c.w * (1.0f - acc.w);
    acc.x += c.x * a; acc.y += c.y * a; acc.z += c.z * a; acc.w += a;
  }
  img[y * w + x] = acc;
}

int main() {
  const int N = 24, TF = 16, W = 32, H = 32;
  std::vector<unsigned char> vol(N * N * N);
  for (int z = 0; z < N; z++)
    for (int y = 0; y < N; y++)
      for (int x = 0; x < N; x++) {
        float fx = x - 11.5f, fy = y - 11.5f, fz = z - 11.5f;
        float r = sqrtf(fx * fx + fy * fy + fz * fz);
        vol[(z * N + y) * N + x] = (unsigned char)(r < 11 ? 255 - (int)(r * 20) : (x * 13 + z) % 40);
      }
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<unsigned char>();
  cudaArray_t va;
  CK(cudaMalloc3DArray(&va, &cd, make_cudaExtent(N, N, N)));
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(vol.data(), N, N, N);
  p.dstArray = va; p.extent = make_cudaExtent(N, N, N); p.kind = cudaMemcpyHostToDevice;
  CK(cudaMemcpy3D(&p));
  cudaResourceDesc rd = {}; rd.resType = cudaResourceTypeArray; rd.res.array.array = va;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeBorder; td.addressMode[2] = cudaAddressModeBorder;
  td.filterMode = cudaFilterModeLinear; td.readMode = cudaReadModeNormalizedFloat; td.normalizedCoords = 1;
  cudaTextureObject_t vt; CK(cudaCreateTextureObject(&vt, &rd, &td, nullptr));

  std::vector<float4> tf(TF);
  for (int i = 0; i < TF; i++)
    tf[i] = make_float4(i / 15.0f, 1.0f - i / 15.0f, (i % 4) / 3.0f, i * i / 2250.0f);
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float4>();
  cudaArray_t ta; CK(cudaMallocArray(&ta, &fd, TF));
  CK(cudaMemcpy2DToArray(ta, 0, 0, tf.data(), TF * 16, TF * 16, 1, cudaMemcpyHostToDevice));
  rd.res.array.array = ta;
  td.addressMode[0] = cudaAddressModeClamp; td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tt; CK(cudaCreateTextureObject(&tt, &rd, &td, nullptr));

  Cam cam = {0.5f, 0.5f, -0.2f, 0.023f, 64};
  float4 *dimg; CK(cudaMalloc(&dimg, W * H * sizeof(float4)));
  march<<<dim3(W / 8, H / 8), dim3(8, 8)>>>(vt, tt, dimg, W, H, cam);
  CK(cudaGetLastError());
  std::vector<float4> img(W * H);
  CK(cudaMemcpy(img.data(), dimg, img.size() * sizeof(float4), cudaMemcpyDeviceToHost));

  // Host model: trilinear with 9-bit weights, border 0; 1-D linear TF lookup.
  auto tex3 = [&](float x, float y, float z) {
    x = x * N - 0.5f; y = y * N - 0.5f; z = z * N - 0.5f;
    int i = (int)floorf(x), j = (int)floorf(y), k = (int)floorf(z);
    float a = q8(frac_(x)), b = q8(frac_(y)), c = q8(frac_(z));
    auto T = [&](int ii, int jj, int kk) -> float {
      if (ii < 0 || jj < 0 || kk < 0 || ii >= N || jj >= N || kk >= N) return 0.0f;
      return vol[(kk * N + jj) * N + ii] / 255.0f;
    };
    return (1 - a) * (1 - b) * (1 - c) * T(i, j, k) + a * (1 - b) * (1 - c) * T(i + 1, j, k) +
           (1 - a) * b * (1 - c) * T(i, j + 1, k) + a * b * (1 - c) * T(i + 1, j + 1, k) +
           (1 - a) * (1 - b) * c * T(i, j, k + 1) + a * (1 - b) * c * T(i + 1, j, k + 1) +
           (1 - a) * b * c * T(i, j + 1, k + 1) + a * b * c * T(i + 1, j + 1, k + 1);
  };
  auto tex1 = [&](float x) {
    x = x * TF - 0.5f; int i = (int)floorf(x); float a = q8(frac_(x));
    auto T = [&](int ii) { ii = ii < 0 ? 0 : ii >= TF ? TF - 1 : ii; return tf[ii]; };
    float4 l = T(i), r = T(i + 1);
    return make_float4((1 - a) * l.x + a * r.x, (1 - a) * l.y + a * r.y, (1 - a) * l.z + a * r.z,
                       (1 - a) * l.w + a * r.w);
  };
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      float dx = ((x + 0.5f) / W - 0.5f) * 0.6f, dy = ((y + 0.5f) / H - 0.5f) * 0.6f, dz = 1.0f;
      float4 acc = make_float4(0, 0, 0, 0);
      for (int s = 0; s < cam.steps; s++) {
        float t = s * cam.step;
        float d = tex3(cam.ox + dx * t, cam.oy + dy * t, cam.oz + dz * t);
        float4 c = tex1(d);
        float a = c.w * (1.0f - acc.w);
        acc.x += c.x * a; acc.y += c.y * a; acc.z += c.z * a; acc.w += a;
      }
      float4 o = img[y * W + x];
      EXPECT(near_(o.x, acc.x, 1e-4f) && near_(o.y, acc.y, 1e-4f) && near_(o.z, acc.z, 1e-4f) &&
             near_(o.w, acc.w, 1e-4f), "pixel (%d,%d) got %g %g %g %g want %g %g %g %g", x, y, o.x,
             o.y, o.z, o.w, acc.x, acc.y, acc.z, acc.w);
    }
  CK(cudaDestroyTextureObject(vt)); CK(cudaDestroyTextureObject(tt));
  CK(cudaFreeArray(va)); CK(cudaFreeArray(ta)); CK(cudaFree(dimg));
  return finish("volume_march");
}
