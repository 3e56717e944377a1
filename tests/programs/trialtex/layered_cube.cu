// layered_cube.cu - a sprite atlas as a layered 2-D texture (tex2DLayered, linear
// filtering) and an environment cubemap (texCubemap) looked up by reflection vectors.
#include "common.h"
#include <vector>

__global__ void sample_layers(cudaTextureObject_t t, float *out, int w, int h, int layers) {
  int x = threadIdx.x, y = blockIdx.x, l = blockIdx.y;
  if (x >= w || y >= h) return;
  out[(l * h + y) * w + x] = tex2DLayered<float>(t, x * 0.73f + 0.2f, y * 0.61f + 0.4f, l);
}

__global__ void env_lookup(cudaTextureObject_t t, const float3 *dirs, float4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = texCubemap<float4>(t, dirs[i].x, dirs[i].y, dirs[i].z);
}

int main() {
  // Layered: 4 layers of 16x12 floats.
  const int W = 16, H = 12, L = 4;
  std::vector<float> h(W * H * L);
  for (int i = 0; i < W * H * L; i++) h[i] = (float)((i * 37) % 101) - 50.0f;
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  CK(cudaMalloc3DArray(&arr, &fd, make_cudaExtent(W, H, L), cudaArrayLayered));
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(h.data(), W * sizeof(float), W, H);
  p.dstArray = arr; p.extent = make_cudaExtent(W, H, L); p.kind = cudaMemcpyHostToDevice;
  CK(cudaMemcpy3D(&p));
  cudaResourceDesc rd = {}; rd.resType = cudaResourceTypeArray; rd.res.array.array = arr;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear; td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex; CK(cudaCreateTextureObject(&tex, &rd, &td, nullptr));
  float *dout; CK(cudaMalloc(&dout, W * H * L * 4));
  sample_layers<<<dim3(H, L), W>>>(tex, dout, W, H, L);
  CK(cudaGetLastError());
  std::vector<float> out(W * H * L);
  CK(cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost));
  for (int l = 0; l < L; l++)
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
        auto f = [&](int i, int j) { return HF4{h[(l * H + j) * W + i], 0, 0, 1}; };
        HF4 r = host_tex2D(f, W, H, H_CLAMP, false, true, x * 0.73f + 0.2f, y * 0.61f + 0.4f);
        EXPECT(near_(out[(l * H + y) * W + x], r.x, 1e-5f), "layer %d (%d,%d) got %g want %g", l, x,
               y, out[(l * H + y) * W + x], r.x);
      }

  // Cubemap: 8x8 faces of uchar4, face f texel (i,j) = (f*40, i*30, j*30, 255).
  const int S = 8;
  std::vector<uchar4> cube(S * S * 6);
  for (int f = 0; f < 6; f++)
    for (int j = 0; j < S; j++)
      for (int i = 0; i < S; i++) cube[(f * S + j) * S + i] = make_uchar4(f * 40, i * 30, j * 30, 255);
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar4>();
  cudaArray_t carr;
  CK(cudaMalloc3DArray(&carr, &cd, make_cudaExtent(S, S, 6), cudaArrayCubemap));
  cudaMemcpy3DParms q = {};
  q.srcPtr = make_cudaPitchedPtr(cube.data(), S * 4, S, S);
  q.dstArray = carr; q.extent = make_cudaExtent(S, S, 6); q.kind = cudaMemcpyHostToDevice;
  CK(cudaMemcpy3D(&q));
  rd.res.array.array = carr;
  td.filterMode = cudaFilterModePoint; td.readMode = cudaReadModeNormalizedFloat;
  td.normalizedCoords = 1;
  cudaTextureObject_t ctex; CK(cudaCreateTextureObject(&ctex, &rd, &td, nullptr));
  const int N = 600;
  std::vector<float3> dirs(N);
  for (int i = 0; i < N; i++) {
    float th = i * 0.1237f, ph = i * 0.0531f;
    dirs[i] = make_float3(cosf(th) * sinf(ph * 3.0f) * 1.5f, sinf(th) * sinf(ph * 3.0f),
                          cosf(ph * 3.0f) * 0.8f + 0.01f);
  }
  float3 *ddirs; float4 *dc;
  CK(cudaMalloc(&ddirs, N * sizeof(float3))); CK(cudaMalloc(&dc, N * sizeof(float4)));
  CK(cudaMemcpy(ddirs, dirs.data(), N * sizeof(float3), cudaMemcpyHostToDevice));
  env_lookup<<<(N + 127) / 128, 128>>>(ctex, ddirs, dc, N);
  std::vector<float4> cres(N);
  CK(cudaMemcpy(cres.data(), dc, N * sizeof(float4), cudaMemcpyDeviceToHost));
  for (int k = 0; k < N; k++) {
    // Programming Guide table "Cubemap fetch": face, then (s/m + 1)/2, (t/m + 1)/2.
    float x = dirs[k].x, y = dirs[k].y, z = dirs[k].z;
    float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), m, s, t; int face;
    if (ax >= ay && ax >= az) { m = ax; face = x >= 0 ? 0 : 1; s = x >= 0 ? -z : z; t = -y; }
    else if (ay >= az) { m = ay; face = y >= 0 ? 2 : 3; s = x; t = y >= 0 ? z : -z; }
    else { m = az; face = z >= 0 ? 4 : 5; s = z >= 0 ? x : -x; t = -y; }
    float u = (s / m + 1) * 0.5f * S, v = (t / m + 1) * 0.5f * S;
    int i = (int)floorf(u), j = (int)floorf(v);
    i = i < 0 ? 0 : i >= S ? S - 1 : i; j = j < 0 ? 0 : j >= S ? S - 1 : j;
    uchar4 e = cube[(face * S + j) * S + i];
    float4 o = cres[k];
    EXPECT(o.x == e.x / 255.0f && o.y == e.y / 255.0f && o.z == e.z / 255.0f && o.w == 1.0f,
           "cube dir %d (%g,%g,%g): got %g %g %g want face %d texel %d,%d", k, x, y, z, o.x * 255,
           o.y * 255 / 30, o.z * 255 / 30, face, i, j);
  }
  CK(cudaDestroyTextureObject(tex)); CK(cudaDestroyTextureObject(ctex));
  CK(cudaFreeArray(arr)); CK(cudaFreeArray(carr));
  return finish("layered_cube");
}
