// mip_chain.cu - builds a box-filtered mip chain of a float image with surface
// writes (one kernel per level, reading the previous level's surface with clamping),
// then samples it with tex2DLod (point and linear mip filtering) and tex2DGrad.
#include "common.h"
#include <vector>

__global__ void downsample(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float a = surf2Dread<float>(src, (2 * x) * 4, 2 * y, cudaBoundaryModeClamp);
  float b = surf2Dread<float>(src, (2 * x + 1) * 4, 2 * y, cudaBoundaryModeClamp);
  float c = surf2Dread<float>(src, (2 * x) * 4, 2 * y + 1, cudaBoundaryModeClamp);
  float d = surf2Dread<float>(src, (2 * x + 1) * 4, 2 * y + 1, cudaBoundaryModeClamp);
  surf2Dwrite((a + b + c + d) * 0.25f, dst, x * 4, y);
}

__global__ void sample_lod(cudaTextureObject_t t, const float4 *q, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2DLod<float>(t, q[i].x, q[i].y, q[i].z);
}
__global__ void sample_grad(cudaTextureObject_t t, const float4 *q, float *out, int n, int W, int H) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = q[i].w;  // footprint in texels of level 0
    out[i] = tex2DGrad<float>(t, q[i].x, q[i].y, make_float2(s / W, 0), make_float2(0, s / H));
  }
}

int main() {
  const int W = 64, H = 32, LEVELS = 7;
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaMipmappedArray_t mip;
  CK(cudaMallocMipmappedArray(&mip, &fd, make_cudaExtent(W, H, 0), LEVELS, cudaArraySurfaceLoadStore));
  std::vector<std::vector<float>> lv(LEVELS);
  lv[0].resize(W * H);
  for (int i = 0; i < W * H; i++) lv[0][i] = (float)((i * 2654435761u) >> 24);
  cudaArray_t l0; CK(cudaGetMipmappedArrayLevel(&l0, mip, 0));
  CK(cudaMemcpy2DToArray(l0, 0, 0, lv[0].data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
  int w = W, h = H;
  for (int l = 1; l < LEVELS; l++) {
    int pw = w, ph = h; w = w > 1 ? w / 2 : 1; h = h > 1 ? h / 2 : 1;
    cudaArray_t a, b;
    CK(cudaGetMipmappedArrayLevel(&a, mip, l - 1)); CK(cudaGetMipmappedArrayLevel(&b, mip, l));
    cudaExtent ext; cudaChannelFormatDesc got; unsigned flags;
    CK(cudaArrayGetInfo(&got, &ext, &flags, b));
    EXPECT(ext.width == (size_t)w && ext.height == (size_t)h && got.x == 32 &&
           got.f == cudaChannelFormatKindFloat, "level %d info %zux%zu", l, ext.width, ext.height);
    cudaResourceDesc rd = {}; rd.resType = cudaResourceTypeArray;
    cudaSurfaceObject_t sa, sb;
    rd.res.array.array = a; CK(cudaCreateSurfaceObject(&sa, &rd));
    rd.res.array.array = b; CK(cudaCreateSurfaceObject(&sb, &rd));
    downsample<<<dim3((w + 7) / 8, (h + 7) / 8), dim3(8, 8)>>>(sa, sb, w, h);
    CK(cudaGetLastError());
    CK(cudaDestroySurfaceObject(sa)); CK(cudaDestroySurfaceObject(sb));
    lv[l].resize(w * h);
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
        auto P = [&](int i, int j) { i = i < pw ? i : pw - 1; j = j < ph ? j : ph - 1; return lv[l - 1][j * pw + i]; };
        lv[l][y * w + x] = (P(2 * x, 2 * y) + P(2 * x + 1, 2 * y) + P(2 * x, 2 * y + 1) + P(2 * x + 1, 2 * y + 1)) * 0.25f;
      }
    std::vector<float> back(w * h);
    CK(cudaMemcpy2DFromArray(back.data(), w * 4, b, 0, 0, w * 4, h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < w * h; i++) EXPECT(back[i] == lv[l][i], "level %d texel %d: %g vs %g", l, i, back[i], lv[l][i]);
  }

  auto sample_level = [&](int l, float u, float v, bool lin) {
    int lw = W >> l ? W >> l : 1, lh = H >> l ? H >> l : 1;
    auto f = [&](int i, int j) { return HF4{lv[l][j * lw + i], 0, 0, 1}; };
    return host_tex2D(f, lw, lh, H_CLAMP, true, lin, u, v).x;
  };
  const int N = 256;
  std::vector<float4> q(N);
  float lods[] = {0.0f, 0.25f, 1.0f, 1.375f, 2.75f, 3.125f, 5.625f, 6.0f, 9.0f, -1.0f};
  for (int i = 0; i < N; i++)
    q[i] = make_float4(((i * 37) % 97) / 97.0f, ((i * 53) % 89) / 89.0f, lods[i % 10], (float)(1 << (i % 5)));
  float4 *dq; float *dout; std::vector<float> out(N);
  CK(cudaMalloc(&dq, N * 16)); CK(cudaMalloc(&dout, N * 4));
  CK(cudaMemcpy(dq, q.data(), N * 16, cudaMemcpyHostToDevice));
  for (int mode = 0; mode < 2; mode++) {
    cudaResourceDesc rd = {}; rd.resType = cudaResourceTypeMipmappedArray; rd.res.mipmap.mipmap = mip;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    td.mipmapFilterMode = mode ? cudaFilterModeLinear : cudaFilterModePoint;
    td.normalizedCoords = 1; td.maxMipmapLevelClamp = LEVELS - 1; td.minMipmapLevelClamp = 0;
    cudaTextureObject_t t; CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    sample_lod<<<N / 64, 64>>>(t, dq, dout, N);
    CK(cudaMemcpy(out.data(), dout, N * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
      float lod = fminf(fmaxf(q[i].z, 0.0f), LEVELS - 1.0f), r;
      if (!mode) r = sample_level((int)floorf(lod + 0.5f), q[i].x, q[i].y, true);
      else {
        int l0 = (int)floorf(lod); float f = q8(lod - l0);
        r = l0 + 1 < LEVELS ? (1 - f) * sample_level(l0, q[i].x, q[i].y, true) + f * sample_level(l0 + 1, q[i].x, q[i].y, true)
                            : sample_level(l0, q[i].x, q[i].y, true);
      }
      EXPECT(near_(out[i], r, 1e-5f), "lod %s %d (lod %g): got %g want %g", mode ? "linear" : "point", i, q[i].z, out[i], r);
    }
    sample_grad<<<N / 64, 64>>>(t, dq, dout, N, W, H);
    CK(cudaMemcpy(out.data(), dout, N * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
      int l = i % 5;  // log2 of the footprint
      float r = sample_level(l, q[i].x, q[i].y, true);
      EXPECT(near_(out[i], r, 1e-5f), "grad %d (footprint %g): got %g want %g", i, q[i].w, out[i], r);
    }
    CK(cudaDestroyTextureObject(t));
  }
  CK(cudaFreeMipmappedArray(mip)); CK(cudaFree(dq)); CK(cudaFree(dout));
  return finish("mip_chain");
}
