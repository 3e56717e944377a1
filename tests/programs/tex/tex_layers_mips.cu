/*
 * tex_layers_mips.cu: layered, cubemap and layered-cubemap textures,
 * tex2Dgather, and mipmapped arrays through tex*Lod and tex*Grad, checked
 * against values worked out by hand: the layer index is clamped into the
 * array's layers; a cubemap direction selects the face of its largest
 * component and the face coordinates (s / m + 1) / 2, (t / m + 1) / 2 of
 * the Programming Guide's table; gather returns one component of the four
 * texels of the bilinear footprint, counter-clockwise from the lower left;
 * the level of detail is the given level (plus the descriptor's bias),
 * clamped to the descriptor's and the array's range, or log2 of the
 * longest gradient in texels; linear mipmap filtering blends two levels
 * with a 9-bit weight.
 */
#include <cstdio>

#include "tex_common.cuh"

struct Tex1DLayered {
  __device__ float operator()(cudaTextureObject_t t, const Probe &p) const {
    return tex1DLayered<float>(t, p.x, p.layer);
  }
};
struct Tex2DLayered {
  __device__ float operator()(cudaTextureObject_t t, const Probe &p) const {
    float v;
    tex2DLayered(&v, t, p.x, p.y, p.layer); /* the pointer-output form */
    return v;
  }
};
struct TexCube {
  __device__ float operator()(cudaTextureObject_t t, const Probe &p) const {
    return texCubemap<float>(t, p.x, p.y, p.z);
  }
};
struct TexCubeLayered {
  __device__ float operator()(cudaTextureObject_t t, const Probe &p) const {
    return texCubemapLayered<float>(t, p.x, p.y, p.z, p.layer);
  }
};
struct Tex1DLod {
  __device__ float operator()(cudaTextureObject_t t, const Probe &p) const {
    return tex1DLod<float>(t, p.x, p.level);
  }
};
struct Tex2DLod {
  __device__ float operator()(cudaTextureObject_t t, const Probe &p) const {
    bool resident = false;
    float v = tex2DLod<float>(t, p.x, p.y, p.level, &resident);
    return resident ? v : -1.0f;
  }
};
/* Gradients (p.level, 0) and (0, p.z) in normalized units. */
struct Tex2DGrad {
  __device__ float operator()(cudaTextureObject_t t, const Probe &p) const {
    return tex2DGrad<float>(t, p.x, p.y, make_float2(p.level, 0.0f),
                            make_float2(0.0f, p.z));
  }
};
struct Tex1DGrad {
  __device__ float operator()(cudaTextureObject_t t, const Probe &p) const {
    return tex1DGrad<float>(t, p.x, p.level, 0.0f);
  }
};

/* Every fetch form CUDA declares, in value and pointer-output form (and the
 * sparse forms with isResident): compiled by both compilers, never
 * launched (each needs a texture of its own shape). */
__global__ void all_fetch_forms(cudaTextureObject_t t, float4 *o) {
  float4 v;
  bool r;
  const float2 g2 = make_float2(0.1f, 0.2f);
  const float4 g4 = make_float4(0.1f, 0.2f, 0.3f, 0.0f);
  o[0] = tex1Dfetch<float4>(t, 1); tex1Dfetch(&v, t, 1);
  o[1] = tex1D<float4>(t, 1); tex1D(&v, t, 1);
  o[2] = tex2D<float4>(t, 1, 2); tex2D(&v, t, 1, 2);
  o[3] = tex2D<float4>(t, 1, 2, &r); tex2D(&v, t, 1, 2, &r);
  o[4] = tex3D<float4>(t, 1, 2, 3); tex3D(&v, t, 1, 2, 3);
  o[5] = tex3D<float4>(t, 1, 2, 3, &r); tex3D(&v, t, 1, 2, 3, &r);
  o[6] = tex1DLayered<float4>(t, 1, 0); tex1DLayered(&v, t, 1, 0);
  o[7] = tex2DLayered<float4>(t, 1, 2, 0); tex2DLayered(&v, t, 1, 2, 0);
  o[8] = tex2DLayered<float4>(t, 1, 2, 0, &r);
  tex2DLayered(&v, t, 1, 2, 0, &r);
  o[9] = texCubemap<float4>(t, 1, 2, 3); texCubemap(&v, t, 1, 2, 3);
  o[10] = texCubemapLayered<float4>(t, 1, 2, 3, 0);
  texCubemapLayered(&v, t, 1, 2, 3, 0);
  o[11] = tex2Dgather<float4>(t, 1, 2, 1); tex2Dgather(&v, t, 1, 2, 1);
  o[12] = tex2Dgather<float4>(t, 1, 2, &r, 1); tex2Dgather(&v, t, 1, 2, &r, 1);
  o[13] = tex1DLod<float4>(t, 1, 0.5f); tex1DLod(&v, t, 1, 0.5f);
  o[14] = tex2DLod<float4>(t, 1, 2, 0.5f); tex2DLod(&v, t, 1, 2, 0.5f);
  o[15] = tex2DLod<float4>(t, 1, 2, 0.5f, &r); tex2DLod(&v, t, 1, 2, 0.5f, &r);
  o[16] = tex3DLod<float4>(t, 1, 2, 3, 0.5f); tex3DLod(&v, t, 1, 2, 3, 0.5f);
  o[17] = tex3DLod<float4>(t, 1, 2, 3, 0.5f, &r);
  tex3DLod(&v, t, 1, 2, 3, 0.5f, &r);
  o[18] = tex1DLayeredLod<float4>(t, 1, 0, 0.5f);
  tex1DLayeredLod(&v, t, 1, 0, 0.5f);
  o[19] = tex2DLayeredLod<float4>(t, 1, 2, 0, 0.5f);
  tex2DLayeredLod(&v, t, 1, 2, 0, 0.5f);
  o[20] = tex2DLayeredLod<float4>(t, 1, 2, 0, 0.5f, &r);
  tex2DLayeredLod(&v, t, 1, 2, 0, 0.5f, &r);
  o[21] = texCubemapLod<float4>(t, 1, 2, 3, 0.5f);
  texCubemapLod(&v, t, 1, 2, 3, 0.5f);
  o[22] = texCubemapGrad<float4>(t, 1, 2, 3, g4, g4);
  texCubemapGrad(&v, t, 1, 2, 3, g4, g4);
  o[23] = texCubemapLayeredLod<float4>(t, 1, 2, 3, 0, 0.5f);
  texCubemapLayeredLod(&v, t, 1, 2, 3, 0, 0.5f);
  o[24] = tex1DGrad<float4>(t, 1, 0.1f, 0.2f); tex1DGrad(&v, t, 1, 0.1f, 0.2f);
  o[25] = tex2DGrad<float4>(t, 1, 2, g2, g2); tex2DGrad(&v, t, 1, 2, g2, g2);
  o[26] = tex2DGrad<float4>(t, 1, 2, g2, g2, &r);
  tex2DGrad(&v, t, 1, 2, g2, g2, &r);
  o[27] = tex3DGrad<float4>(t, 1, 2, 3, g4, g4);
  tex3DGrad(&v, t, 1, 2, 3, g4, g4);
  o[28] = tex3DGrad<float4>(t, 1, 2, 3, g4, g4, &r);
  tex3DGrad(&v, t, 1, 2, 3, g4, g4, &r);
  o[29] = tex1DLayeredGrad<float4>(t, 1, 0, 0.1f, 0.2f);
  tex1DLayeredGrad(&v, t, 1, 0, 0.1f, 0.2f);
  o[30] = tex2DLayeredGrad<float4>(t, 1, 2, 0, g2, g2);
  tex2DLayeredGrad(&v, t, 1, 2, 0, g2, g2);
  o[31] = tex2DLayeredGrad<float4>(t, 1, 2, 0, g2, g2, &r);
  tex2DLayeredGrad(&v, t, 1, 2, 0, g2, g2, &r);
  o[32] = texCubemapLayeredGrad<float4>(t, 1, 2, 3, 0, g4, g4);
  texCubemapLayeredGrad(&v, t, 1, 2, 3, 0, g4, g4);
  o[33] = v;
  /* Integer element types of every width and count. */
  char c = tex1Dfetch<char>(t, 0);
  uchar2 u2 = tex1Dfetch<uchar2>(t, 0);
  short4 s4 = tex1Dfetch<short4>(t, 0);
  uint1 i1 = tex1Dfetch<uint1>(t, 0);
  int4 i4 = tex1Dfetch<int4>(t, 0);
  o[34] = make_float4(c + u2.y, s4.w, (float)i1.x, (float)i4.z);
}

static void layered() {
  /* 1D layered: 3 layers of 2 texels, T = 10 * layer + x. */
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t a1 = nullptr;
  CHECK(cudaMalloc3DArray(&a1, &fd, make_cudaExtent(2, 0, 3),
                          cudaArrayLayered) == cudaSuccess);
  float v1[6] = {0, 1, 10, 11, 20, 21};
  cudaMemcpy3DParms cp;
  std::memset(&cp, 0, sizeof cp);
  cp.srcPtr = make_cudaPitchedPtr(v1, 2 * sizeof(float), 2, 1);
  cp.dstArray = a1;
  cp.extent = make_cudaExtent(2, 1, 3);
  cp.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&cp) == cudaSuccess);
  cudaTextureObject_t t1 = make_texture(
      a1, tex_desc(cudaAddressModeClamp, cudaFilterModeLinear,
                   cudaReadModeElementType, 0));
  /* x = 1: halfway between the layer's two texels; layers 7 and -2 clamp
   * to 2 and 0. */
  const Probe p1[] = {{1.0f, 0, 0, 1}, {1.0f, 0, 0, 7}, {0.5f, 0, 0, -2},
                      {1.5f, 0, 0, 2}};
  const float e1[] = {10.5f, 20.5f, 0.0f, 21.0f};
  expect_floats<Tex1DLayered>("1D layered", t1, p1, e1, 4);

  /* 2D layered: 2 layers of 2x2; layer L = 1000 L + the 2D values. */
  cudaArray_t a2 = nullptr;
  CHECK(cudaMalloc3DArray(&a2, &fd, make_cudaExtent(2, 2, 2),
                          cudaArrayLayered) == cudaSuccess);
  float v2[8] = {0, 256, 512, 1024, 1000, 1256, 1512, 2024};
  cp.srcPtr = make_cudaPitchedPtr(v2, 2 * sizeof(float), 2, 2);
  cp.dstArray = a2;
  cp.extent = make_cudaExtent(2, 2, 2);
  CHECK(cudaMemcpy3D(&cp) == cudaSuccess);
  cudaTextureObject_t t2 = make_texture(
      a2, tex_desc(cudaAddressModeClamp, cudaFilterModeLinear,
                   cudaReadModeElementType, 0));
  const Probe p2[] = {{1.0f, 1.0f, 0, 1}, {0.75f, 1.25f, 0, 0},
                      {1.0f, 1.0f, 0, 5}};
  const float e2[] = {1448, 496, 1448};
  expect_floats<Tex2DLayered>("2D layered", t2, p2, e2, 3);
  CHECK(cudaDestroyTextureObject(t1) == cudaSuccess);
  CHECK(cudaDestroyTextureObject(t2) == cudaSuccess);
  CHECK(cudaFreeArray(a1) == cudaSuccess);
  CHECK(cudaFreeArray(a2) == cudaSuccess);
}

static void cubemaps() {
  /* Faces of 2x2; face f (of layer L) holds 100 L + 10 f + (2y + x). */
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t c = nullptr, cl = nullptr;
  CHECK(cudaMalloc3DArray(&c, &fd, make_cudaExtent(2, 2, 6),
                          cudaArrayCubemap) == cudaSuccess);
  CHECK(cudaMalloc3DArray(&cl, &fd, make_cudaExtent(2, 2, 12),
                          cudaArrayCubemap | cudaArrayLayered) == cudaSuccess);
  float v[48];
  for (int i = 0; i < 48; ++i)
    v[i] = 100.0f * (i / 24) + 10.0f * (i / 4 % 6) + (float)(i % 4);
  cudaMemcpy3DParms cp;
  std::memset(&cp, 0, sizeof cp);
  cp.srcPtr = make_cudaPitchedPtr(v, 2 * sizeof(float), 2, 2);
  cp.dstArray = c;
  cp.extent = make_cudaExtent(2, 2, 6);
  cp.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&cp) == cudaSuccess);
  cp.dstArray = cl;
  cp.extent = make_cudaExtent(2, 2, 12);
  CHECK(cudaMemcpy3D(&cp) == cudaSuccess);
  cudaTextureDesc d = tex_desc(cudaAddressModeClamp, cudaFilterModePoint,
                               cudaReadModeElementType, 1);
  cudaTextureObject_t tc = make_texture(c, d);
  /* (1, 0, 0): face +x, s = -z = 0, t = -y = 0 -> (0.5, 0.5) -> texel
   *   (1, 1): 3.
   * (0, -1, 0.5): face -y, s = x = 0 -> 0.5, t = -z = -0.5 -> 0.25 ->
   *   texel (1, 0): 31.
   * (-0.5, 0.25, -1): face -z, s = -x = 0.5 -> 0.75, t = -y = -0.25 ->
   *   0.375 -> texel (1, 0): 51.
   * (-1, -0.5, 0.9): face -x, s = z = 0.9 -> 0.95, t = -y = 0.5 -> 0.75
   *   -> texel (1, 1): 13.
   * (0.2, 0.3, 0.8): face +z, s = x / 0.8 = 0.25 -> 0.625, t = -y / 0.8
   *   = -0.375 -> 0.3125 -> texel (1, 0): 41.
   * (0.1, 2, -0.3): face +y, s = x / 2 -> 0.525, t = z / 2 -> 0.425 ->
   *   texel (1, 0): 21. */
  const Probe pc[] = {{1, 0, 0},         {0, -1, 0.5f},     {-0.5f, 0.25f, -1},
                      {-1, -0.5f, 0.9f}, {0.2f, 0.3f, 0.8f}, {0.1f, 2, -0.3f}};
  const float ec[] = {3, 31, 51, 13, 41, 21};
  expect_floats<TexCube>("cubemap", tc, pc, ec, 6);
  cudaTextureObject_t tcl = make_texture(cl, d);
  /* Layer 1, (0.3, 1, -0.9): face +y, s 0.65, t 0.05 -> texel (1, 0):
   * 100 + 20 + 1. Layer 9 clamps to 1. */
  const Probe pl[] = {{0.3f, 1, -0.9f, 1}, {1, 0, 0, 0}, {1, 0, 0, 9}};
  const float el[] = {121, 3, 103};
  expect_floats<TexCubeLayered>("layered cubemap", tcl, pl, el, 3);
  /* Linear filtering inside a face: (1, 0, 0) is the centre of face +x,
   * where its four texels meet: (0 + 1 + 2 + 3) / 4. */
  d.filterMode = cudaFilterModeLinear;
  cudaTextureObject_t tcf = make_texture(c, d);
  const Probe pf[] = {{1, 0, 0}};
  const float ef[] = {1.5f};
  expect_floats<TexCube>("cubemap linear", tcf, pf, ef, 1);
  /* Seamless filtering across faces is refused, not approximated. */
  d.seamlessCubemap = 1;
  cudaResourceDesc r = array_resource(c);
  cudaTextureObject_t bad = 0;
  CHECK(cudaCreateTextureObject(&bad, &r, &d, nullptr) ==
        cudaErrorNotSupported);
  cudaGetLastError();
  for (cudaTextureObject_t t : {tc, tcl, tcf})
    CHECK(cudaDestroyTextureObject(t) == cudaSuccess);
  CHECK(cudaFreeArray(c) == cudaSuccess);
  CHECK(cudaFreeArray(cl) == cudaSuccess);
}

__global__ void gather_kernel(cudaTextureObject_t f, cudaTextureObject_t u,
                              float4 *out_f, uchar4 *out_u) {
  out_f[0] = tex2Dgather<float4>(f, 1.5f, 1.5f);
  out_f[1] = tex2Dgather<float4>(f, 0.25f, 2.9f, 0);
  out_u[0] = tex2Dgather<uchar4>(u, 0.5f, 0.5f, 2);
  bool resident = false;
  out_u[1] = tex2Dgather<uchar4>(u, 1.5f, 0.5f, &resident, 3);
  if (!resident)
    out_u[1].x = 99;
}

static void gather() {
  /* 3x3 floats T(x, y) = 10 y + x. At (1.5, 1.5) the footprint is
   * i = j = 1: (1, 2) = 21, (2, 2) = 22, (2, 1) = 12, (1, 1) = 11. At
   * (0.25, 2.9): i = -1 (clamped to 0), j = 2 (and 3 clamped to 2):
   * (0, 2), (0, 2), (0, 2), (0, 2) = 20. */
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t a = nullptr, b = nullptr;
  CHECK(cudaMallocArray(&a, &fd, 3, 3, cudaArrayTextureGather) ==
        cudaSuccess);
  float v[9];
  for (int i = 0; i < 9; ++i)
    v[i] = 10.0f * (i / 3) + (float)(i % 3);
  CHECK(cudaMemcpy2DToArray(a, 0, 0, v, 3 * sizeof(float), 3 * sizeof(float),
                            3, cudaMemcpyHostToDevice) == cudaSuccess);
  /* 2x2 uchar4 T(x, y) = (x, y, 10 x + y, 200 + x + 2 y), element reads:
   * component 2 at (0.5, 0.5): (0, 1) 1, (1, 1) 11, (1, 0) 10, (0, 0) 0;
   * component 3 at (1.5, 0.5): i = 1, 2 clamped to 1: 203, 203, 201, 201. */
  cudaChannelFormatDesc ud = cudaCreateChannelDesc<uchar4>();
  CHECK(cudaMallocArray(&b, &ud, 2, 2, cudaArrayTextureGather) ==
        cudaSuccess);
  uchar4 u[4];
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 2; ++x)
      u[y * 2 + x] = make_uchar4(x, y, 10 * x + y, 200 + x + 2 * y);
  CHECK(cudaMemcpy2DToArray(b, 0, 0, u, 2 * sizeof(uchar4), 2 * sizeof(uchar4),
                            2, cudaMemcpyHostToDevice) == cudaSuccess);
  cudaTextureObject_t tf = make_texture(
      a, tex_desc(cudaAddressModeClamp, cudaFilterModePoint,
                  cudaReadModeElementType, 0));
  cudaTextureObject_t tu = make_texture(
      b, tex_desc(cudaAddressModeClamp, cudaFilterModePoint,
                  cudaReadModeElementType, 0));
  float4 *of = nullptr;
  uchar4 *ou = nullptr;
  CHECK(cudaMallocManaged(&of, 2 * sizeof(float4)) == cudaSuccess);
  CHECK(cudaMallocManaged(&ou, 2 * sizeof(uchar4)) == cudaSuccess);
  gather_kernel<<<1, 1>>>(tf, tu, of, ou);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(of[0].x == 21 && of[0].y == 22 && of[0].z == 12 && of[0].w == 11);
  CHECK(of[1].x == 20 && of[1].y == 20 && of[1].z == 20 && of[1].w == 20);
  CHECK(ou[0].x == 1 && ou[0].y == 11 && ou[0].z == 10 && ou[0].w == 0);
  CHECK(ou[1].x == 203 && ou[1].y == 203 && ou[1].z == 201 && ou[1].w == 201);
  CHECK(cudaDestroyTextureObject(tf) == cudaSuccess);
  CHECK(cudaDestroyTextureObject(tu) == cudaSuccess);
  cudaFree(of);
  cudaFree(ou);
  CHECK(cudaFreeArray(a) == cudaSuccess);
  CHECK(cudaFreeArray(b) == cudaSuccess);
}

/* Fills each level of `m` with the constant 100 * (level + 1). */
static void fill_levels(cudaMipmappedArray_t m, unsigned levels, size_t w,
                        size_t h) {
  for (unsigned l = 0; l < levels; ++l) {
    cudaArray_t a = nullptr;
    CHECK(cudaGetMipmappedArrayLevel(&a, m, l) == cudaSuccess);
    size_t lw = w >> l ? w >> l : 1, lh = h >> l ? h >> l : 1;
    float v[64];
    for (size_t i = 0; i < lw * lh; ++i)
      v[i] = 100.0f * (l + 1);
    CHECK(cudaMemcpy2DToArray(a, 0, 0, v, lw * sizeof(float),
                              lw * sizeof(float), lh,
                              cudaMemcpyHostToDevice) == cudaSuccess);
    cudaChannelFormatDesc fd;
    cudaExtent e;
    unsigned flags = 1;
    CHECK(cudaArrayGetInfo(&fd, &e, &flags, a) == cudaSuccess);
    CHECK(e.width == lw && flags == 0 && fd.x == 32 &&
          fd.f == cudaChannelFormatKindFloat);
    /* A level belongs to its mipmapped array. */
    CHECK(cudaFreeArray(a) == cudaErrorInvalidValue);
    cudaGetLastError();
  }
}

static cudaTextureObject_t mip_texture(cudaMipmappedArray_t m,
                                       cudaTextureFilterMode mip_filter,
                                       float min_clamp, float max_clamp,
                                       float bias) {
  cudaResourceDesc r;
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeMipmappedArray;
  r.res.mipmap.mipmap = m;
  cudaTextureDesc d = tex_desc(cudaAddressModeClamp, cudaFilterModePoint,
                               cudaReadModeElementType, 1);
  d.mipmapFilterMode = mip_filter;
  d.minMipmapLevelClamp = min_clamp;
  d.maxMipmapLevelClamp = max_clamp;
  d.mipmapLevelBias = bias;
  cudaTextureObject_t t = 0;
  CHECK(cudaCreateTextureObject(&t, &r, &d, nullptr) == cudaSuccess);
  return t;
}

static void mipmaps() {
  /* 1D, width 8: levels 8, 4, 2, 1 (asking for 10 gives the 4 there are). */
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaMipmappedArray_t m1 = nullptr;
  CHECK(cudaMallocMipmappedArray(&m1, &fd, make_cudaExtent(8, 0, 0), 10) ==
        cudaSuccess);
  cudaArray_t none = nullptr;
  CHECK(cudaGetMipmappedArrayLevel(&none, m1, 4) == cudaErrorInvalidValue);
  cudaGetLastError();
  fill_levels(m1, 4, 8, 1);
  cudaTextureObject_t point = mip_texture(m1, cudaFilterModePoint, 0, 3, 0);
  /* Nearest level: 1.0 -> 1; 1.4 -> 1; 1.6 -> 2; 10 -> 3 (clamped); -1 ->
   * 0. */
  const Probe pp[] = {{0.5f, 0, 0, 0, 1.0f}, {0.5f, 0, 0, 0, 1.4f},
                      {0.5f, 0, 0, 0, 1.6f}, {0.5f, 0, 0, 0, 10.0f},
                      {0.5f, 0, 0, 0, -1.0f}};
  const float pe[] = {200, 200, 300, 400, 100};
  expect_floats<Tex1DLod>("mipmap point", point, pp, pe, 5);
  cudaTextureObject_t lin = mip_texture(m1, cudaFilterModeLinear, 0, 3, 0);
  /* 1.5: (200 + 300) / 2. 1.3: weight 76.8 -> 77: 179/256 * 200 + 77/256 *
   * 300 = 139.84375 + 90.234375. 2.999: weight 255.7 -> 256: level 3. */
  const Probe lp[] = {{0.5f, 0, 0, 0, 1.5f}, {0.5f, 0, 0, 0, 1.3f},
                      {0.5f, 0, 0, 0, 2.999f}, {0.5f, 0, 0, 0, 0.0f}};
  const float le[] = {250, 230.078125f, 400, 100};
  expect_floats<Tex1DLod>("mipmap linear", lin, lp, le, 4);
  /* The descriptor's clamps and bias: min 1, max 2, bias 0.5. */
  cudaTextureObject_t clamped = mip_texture(m1, cudaFilterModePoint, 1, 2, 0);
  const Probe cp[] = {{0.5f, 0, 0, 0, 0.0f}, {0.5f, 0, 0, 0, 3.0f}};
  const float ce[] = {200, 300};
  expect_floats<Tex1DLod>("mipmap clamps", clamped, cp, ce, 2);
  cudaTextureObject_t biased = mip_texture(m1, cudaFilterModePoint, 0, 3, 1.0f);
  const Probe bp[] = {{0.5f, 0, 0, 0, 0.0f}, {0.5f, 0, 0, 0, 1.0f}};
  const float be[] = {200, 300};
  expect_floats<Tex1DLod>("mipmap bias", biased, bp, be, 2);
  /* Gradients: dx = 0.25 normalized = 2 texels of level 0: lod 1. */
  const Probe gp[] = {{0.5f, 0, 0, 0, 0.25f}, {0.5f, 0, 0, 0, 0.5f},
                      {0.5f, 0, 0, 0, 0.01f}};
  const float ge[] = {200, 300, 100};
  expect_floats<Tex1DGrad>("tex1DGrad", point, gp, ge, 3);

  /* 2D, 8 x 4: levels 8x4, 4x2, 2x1, 1x1. */
  cudaMipmappedArray_t m2 = nullptr;
  CHECK(cudaMallocMipmappedArray(&m2, &fd, make_cudaExtent(8, 4, 0), 4) ==
        cudaSuccess);
  fill_levels(m2, 4, 8, 4);
  cudaTextureObject_t t2 = mip_texture(m2, cudaFilterModePoint, 0, 3, 0);
  const Probe p2[] = {{0.5f, 0.5f, 0, 0, 2.0f}, {0.1f, 0.9f, 0, 0, 0.4f}};
  const float e2[] = {300, 100};
  expect_floats<Tex2DLod>("tex2DLod", t2, p2, e2, 2);
  /* tex2DGrad with dPdx = (level, 0), dPdy = (0, z): the longer in texels
   * of level 0 wins: (0.25 * 8 = 2, 0) -> lod 1; dPdy 0.5 * 4 = 2 against
   * dPdx 0.0625 * 8 = 0.5 -> lod 1; dPdy 1 * 4 = 4 -> lod 2. */
  const Probe g2[] = {{0.5f, 0.5f, 0.0f, 0, 0.25f},
                      {0.5f, 0.5f, 0.5f, 0, 0.0625f},
                      {0.5f, 0.5f, 1.0f, 0, 0.0f}};
  const float ge2[] = {200, 200, 300};
  expect_floats<Tex2DGrad>("tex2DGrad", t2, g2, ge2, 3);
  /* A texture without mipmaps samples level 0 whatever the level. */
  cudaArray_t plain = nullptr;
  CHECK(cudaMallocArray(&plain, &fd, 2, 2) == cudaSuccess);
  const float pv[4] = {7, 7, 7, 7};
  CHECK(cudaMemcpy2DToArray(plain, 0, 0, pv, 8, 8, 2, cudaMemcpyHostToDevice) ==
        cudaSuccess);
  cudaTextureObject_t tp = make_texture(
      plain, tex_desc(cudaAddressModeClamp, cudaFilterModePoint,
                      cudaReadModeElementType, 1));
  const Probe pl[] = {{0.5f, 0.5f, 0, 0, 3.0f}};
  const float el[] = {7};
  expect_floats<Tex2DLod>("tex2DLod without mipmaps", tp, pl, el, 1);
  for (cudaTextureObject_t t : {point, lin, clamped, biased, t2, tp})
    CHECK(cudaDestroyTextureObject(t) == cudaSuccess);
  CHECK(cudaFreeMipmappedArray(m1) == cudaSuccess);
  CHECK(cudaFreeMipmappedArray(m2) == cudaSuccess);
  CHECK(cudaFreeMipmappedArray(m2) == cudaErrorInvalidValue);
  cudaGetLastError();
  CHECK(cudaFreeArray(plain) == cudaSuccess);
}

int main() {
  layered();
  cubemaps();
  gather();
  mipmaps();
  return finish();
}
