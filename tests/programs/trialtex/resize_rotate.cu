// resize_rotate.cu - bilinear resize and rotation of an RGBA8 image and a float
// height map through texture objects, every address mode, against the host model.
#include "common.h"
#include <vector>

__global__ void rotate_rgba(cudaTextureObject_t tex, float4 *out, int w, int h, float angle,
                            float scale) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float u = (float)x / w - 0.5f, v = (float)y / h - 0.5f;
  float c = cosf(angle), s = sinf(angle);
  float tu = (u * c - v * s) * scale + 0.5f;
  float tv = (u * s + v * c) * scale + 0.5f;
  out[y * w + x] = tex2D<float4>(tex, tu, tv);
}

__global__ void resize_float(cudaTextureObject_t tex, float *out, int w, int h, float sx, float sy) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  out[y * w + x] = tex2D<float>(tex, (x + 0.5f) * sx, (y + 0.5f) * sy);
}

static cudaTextureAddressMode dev_mode(HostAddr m) {
  return m == H_WRAP ? cudaAddressModeWrap : m == H_CLAMP ? cudaAddressModeClamp
       : m == H_MIRROR ? cudaAddressModeMirror : cudaAddressModeBorder;
}

int main() {
  const int W = 37, H = 23, OW = 64, OH = 48;
  std::vector<uchar4> img(W * H);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      img[y * W + x] = make_uchar4((x * 7 + y * 3) & 255, (x * y) & 255, (255 - x * 5) & 255,
                                   (x ^ y) * 9 & 255);
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar4>();
  cudaArray_t arr;
  CK(cudaMallocArray(&arr, &cd, W, H));
  CK(cudaMemcpy2DToArray(arr, 0, 0, img.data(), W * sizeof(uchar4), W * sizeof(uchar4), H,
                         cudaMemcpyHostToDevice));
  float4 *dout; CK(cudaMalloc(&dout, OW * OH * sizeof(float4)));
  std::vector<float4> out(OW * OH);
  const char *names[] = {"wrap", "clamp", "mirror", "border"};
  for (int mi = 0; mi < 4; mi++) {
    HostAddr m = (HostAddr)mi;
    cudaResourceDesc rd = {}; rd.resType = cudaResourceTypeArray; rd.res.array.array = arr;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = dev_mode(m);
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeNormalizedFloat;
    td.normalizedCoords = 1;
    td.borderColor[0] = 0.25f; td.borderColor[1] = 0.5f; td.borderColor[2] = 0.75f; td.borderColor[3] = 1.0f;
    cudaTextureObject_t tex; CK(cudaCreateTextureObject(&tex, &rd, &td, nullptr));
    dim3 b(16, 8), g((OW + 15) / 16, (OH + 7) / 8);
    float angle = 0.6f + mi * 0.3f, scale = 1.7f;
    rotate_rgba<<<g, b>>>(tex, dout, OW, OH, angle, scale);
    CK(cudaGetLastError());
    CK(cudaMemcpy(out.data(), dout, out.size() * sizeof(float4), cudaMemcpyDeviceToHost));
    auto fetch = [&](int i, int j) { uchar4 t = img[j * W + i];
      return HF4{t.x / 255.0f, t.y / 255.0f, t.z / 255.0f, t.w / 255.0f}; };
    for (int y = 0; y < OH; y++)
      for (int x = 0; x < OW; x++) {
        float u = (float)x / OW - 0.5f, v = (float)y / OH - 0.5f;
        float c = cosf(angle), s = sinf(angle);
        float tu = (u * c - v * s) * scale + 0.5f, tv = (u * s + v * c) * scale + 0.5f;
        HF4 r = host_tex2D(fetch, W, H, m, true, true, tu, tv, HF4{0.25f, 0.5f, 0.75f, 1.0f});
        float4 o = out[y * OW + x];
        EXPECT(near_(o.x, r.x, 1e-5f) && near_(o.y, r.y, 1e-5f) && near_(o.z, r.z, 1e-5f) &&
               near_(o.w, r.w, 1e-5f), "%s (%d,%d): got %g %g %g %g want %g %g %g %g",
               names[mi], x, y, o.x, o.y, o.z, o.w, r.x, r.y, r.z, r.w);
      }
    CK(cudaDestroyTextureObject(tex));
  }

  // Float height map, unnormalized coordinates, clamp and border.
  std::vector<float> hm(W * H);
  for (int i = 0; i < W * H; i++) hm[i] = sinf(i * 0.37f) * 100.0f;
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t farr; CK(cudaMallocArray(&farr, &fd, W, H));
  CK(cudaMemcpy2DToArray(farr, 0, 0, hm.data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
  float *dres; CK(cudaMalloc(&dres, OW * OH * 4));
  std::vector<float> res(OW * OH);
  for (int mi = 0; mi < 4; mi++) {
    HostAddr m = (HostAddr)mi;
    cudaResourceDesc rd = {}; rd.resType = cudaResourceTypeArray; rd.res.array.array = farr;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = dev_mode(m);
    td.filterMode = cudaFilterModeLinear; td.readMode = cudaReadModeElementType;
    td.normalizedCoords = (m == H_WRAP || m == H_MIRROR);
    cudaTextureObject_t tex; CK(cudaCreateTextureObject(&tex, &rd, &td, nullptr));
    float sx = td.normalizedCoords ? 1.3f / OW : (float)W / OW * 1.25f;
    float sy = td.normalizedCoords ? 1.1f / OH : (float)H / OH * 1.25f;
    dim3 b(16, 8), g((OW + 15) / 16, (OH + 7) / 8);
    resize_float<<<g, b>>>(tex, dres, OW, OH, sx, sy);
    CK(cudaMemcpy(res.data(), dres, res.size() * 4, cudaMemcpyDeviceToHost));
    // Wrap and mirror with unnormalized coordinates would act as clamp; here they are normalized.
    auto fetch = [&](int i, int j) { return HF4{hm[j * W + i], 0, 0, 1}; };
    for (int y = 0; y < OH; y++)
      for (int x = 0; x < OW; x++) {
        HF4 r = host_tex2D(fetch, W, H, m, td.normalizedCoords, true, (x + 0.5f) * sx, (y + 0.5f) * sy);
        EXPECT(near_(res[y * OW + x], r.x, 1e-5f), "float %s (%d,%d): got %g want %g", names[mi],
               x, y, res[y * OW + x], r.x);
      }
    CK(cudaDestroyTextureObject(tex));
  }
  CK(cudaFreeArray(arr)); CK(cudaFreeArray(farr)); CK(cudaFree(dout)); CK(cudaFree(dres));
  return finish("resize_rotate");
}
