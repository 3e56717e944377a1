/*
 * mip_views.cu: mipmapped textures against a host reference
 * (mip_reference.cuh): tex2DLod and tex2DGrad over a 16 x 8 mipmapped
 * array of distinct texels, with point and linear filtering in and between
 * levels, the clamps and the bias; tex1DLod and tex3DLod; then resource
 * views (a range of layers, a range of levels with clamps relative to the
 * first, the elements reinterpreted in another format), their queries
 * (cudaGetTextureObjectResourceViewDesc, cudaGetTextureObjectTextureDesc),
 * the views CUDA refuses, half, normalized 16-bit and 10-10-10-2 channels
 * filtered, normalized reads through linear, pitch-2D, layered and
 * mipmapped resources, and
 * the refused block-compressed formats. Prints PASS when all is well.
 */
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "../check.cuh"
#include "mip_reference.cuh"

/* One fetch: normalized (x, y), a level, and gradients. */
struct Fetch2 {
  float x, y, lod, dxx, dxy, dyx, dyy;
};

/* out[i]: tex2DLod (grad == 0) or tex2DGrad (grad == 1) of probe i. */
__global__ void fetch_mip(cudaTextureObject_t t, const Fetch2 *p, float *out, int n,
                          int grad) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const Fetch2 f = p[i];
  out[i] = grad ? tex2DGrad<float>(t, f.x, f.y, make_float2(f.dxx, f.dxy),
                                   make_float2(f.dyx, f.dyy))
                : tex2DLod<float>(t, f.x, f.y, f.lod);
}

/* Thread i: level 0.5 i, or the gradients g = 2^i / 32. */
__global__ void fetch_1d_3d(cudaTextureObject_t t1, cudaTextureObject_t t3, float *out) {
  const int i = threadIdx.x;
  const float g = static_cast<float>(1 << i) / 32.0f;
  out[i] = tex1DLod<float>(t1, 0.3f, 0.5f * i);
  out[8 + i] = tex3DLod<float>(t3, 0.6f, 0.4f, 0.7f, 0.5f * i);
  out[16 + i] = tex1DGrad<float>(t1, 0.3f, 0.75f * g, 0.5f * g);
  out[24 + i] = tex3DGrad<float>(t3, 0.6f, 0.4f, 0.7f, make_float4(g, 0, 0, 0),
                                 make_float4(0, 0.5f * g, 0.75f * g, 0));
}

/* Thread i: direction i of `dirs` at level 0.5 i. */
__global__ void fetch_cube(cudaTextureObject_t t, const float4 *dirs, float *out) {
  const int i = threadIdx.x;
  out[i] = texCubemapLod<float>(t, dirs[i].x, dirs[i].y, dirs[i].z, dirs[i].w);
}

__global__ void fetch_layers(cudaTextureObject_t t, float *out) {
  const int layer = threadIdx.x;
  out[layer] = tex2DLayered<float>(t, 1.5f, 0.5f, layer);
}

__global__ void fetch_reinterpreted(cudaTextureObject_t as_bytes, cudaTextureObject_t as_float,
                                    uchar4 *bytes, float *floats) {
  const int i = threadIdx.x;
  bytes[i] = tex1D<uchar4>(as_bytes, i + 0.5f);
  floats[i] = tex1D<float>(as_float, i + 0.5f);
}

/* Normalized reads through every kind of resource: linear memory
 * (tex1Dfetch), pitch-2D memory (tex2D, linear filtering), a layered array
 * (tex2DLayered) and a mipmapped array (tex2DLod between two levels). */
__global__ void fetch_normalized(cudaTextureObject_t linear, cudaTextureObject_t pitch,
                                 cudaTextureObject_t layered, cudaTextureObject_t mip,
                                 float *out) {
  const int i = threadIdx.x;
  out[i] = tex1Dfetch<float>(linear, i);
  out[8 + i] = tex2D<float>(pitch, 0.25f + 0.9f * i, 1.2f);
  out[16 + i] = tex2DLayered<float>(layered, i + 0.5f, 0.5f, i % 3);
  out[24 + i] = tex2DLod<float>(mip, 0.1f * i + 0.05f, 0.3f, 0.5f);
}

__global__ void fetch_packed(cudaTextureObject_t t, float4 *out) {
  out[threadIdx.x] = tex1D<float4>(t, 0.75f + 0.5f * threadIdx.x);
}

__global__ void fetch_linear_2d(cudaTextureObject_t t, const float2 *at, float *out) {
  const int i = threadIdx.x;
  out[i] = tex2D<float>(t, at[i].x, at[i].y);
}

template <class T> static T *device_copy(const std::vector<T> &v) {
  T *d = nullptr;
  CHECK(cudaMalloc(&d, v.size() * sizeof(T)) == cudaSuccess);
  CHECK(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice) ==
        cudaSuccess);
  return d;
}

template <class T> static std::vector<T> host_copy(const T *d, size_t n) {
  std::vector<T> v(n);
  CHECK(cudaMemcpy(v.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess);
  return v;
}

/* Copies w x h x d packed floats from the host into array `a`. */
static void copy_floats_3d(cudaArray_t a, const float *host, size_t w, size_t h, size_t d) {
  cudaMemcpy3DParms c;
  std::memset(&c, 0, sizeof c);
  c.srcPtr = make_cudaPitchedPtr(const_cast<float *>(host), w * sizeof(float), w, h);
  c.dstArray = a;
  c.extent = make_cudaExtent(w, h, d);
  c.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&c) == cudaSuccess);
}

/* A mipmapped float array with the reference's texels. */
static cudaMipmappedArray_t make_mipmapped(const MipLevels &m, cudaExtent extent) {
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaMipmappedArray_t a = nullptr;
  CHECK(cudaMallocMipmappedArray(&a, &fd, extent, m.levels()) == cudaSuccess);
  for (int l = 0; l < m.levels(); ++l) {
    cudaArray_t level = nullptr;
    CHECK(cudaGetMipmappedArrayLevel(&level, a, l) == cudaSuccess);
    const size_t row = m.width[l] * sizeof(float);
    CHECK(cudaMemcpy2DToArray(level, 0, 0, m.texel[l].data(), row, row, m.height[l],
                              cudaMemcpyHostToDevice) == cudaSuccess);
  }
  return a;
}

static cudaTextureDesc mip_desc(const MipSampler &s) {
  cudaTextureDesc d;
  std::memset(&d, 0, sizeof d);
  d.addressMode[0] = d.addressMode[1] = d.addressMode[2] = cudaAddressModeClamp;
  d.filterMode = s.linear ? cudaFilterModeLinear : cudaFilterModePoint;
  d.mipmapFilterMode = s.mip_linear ? cudaFilterModeLinear : cudaFilterModePoint;
  d.mipmapLevelBias = s.bias;
  d.minMipmapLevelClamp = s.min_clamp;
  d.maxMipmapLevelClamp = s.max_clamp;
  d.readMode = cudaReadModeElementType;
  d.normalizedCoords = 1;
  return d;
}

static cudaTextureObject_t mip_texture(cudaMipmappedArray_t a, const MipSampler &s,
                                       const cudaResourceViewDesc *view = nullptr) {
  cudaResourceDesc r;
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeMipmappedArray;
  r.res.mipmap.mipmap = a;
  cudaTextureDesc d = mip_desc(s);
  cudaTextureObject_t t = 0;
  CHECK(cudaCreateTextureObject(&t, &r, &d, view) == cudaSuccess);
  return t;
}

/* Fetches every probe through tex2DLod and tex2DGrad and compares with the
 * reference (levels `first` on of `m`, as a view sees them). */
static void compare_2d(const char *what, cudaTextureObject_t t, const MipLevels &m,
                       const MipSampler &s, const std::vector<Fetch2> &probes) {
  Fetch2 *dp = device_copy(probes);
  float *dout = nullptr;
  const int n = static_cast<int>(probes.size());
  CHECK(cudaMalloc(&dout, n * sizeof(float)) == cudaSuccess);
  for (int grad = 0; grad < 2; ++grad) {
    fetch_mip<<<(n + 63) / 64, 64>>>(t, dp, dout, n, grad);
    CHECK(cudaGetLastError() == cudaSuccess);
    std::vector<float> got = host_copy(dout, n);
    for (int i = 0; i < n; ++i) {
      const Fetch2 &f = probes[i];
      const float want = grad ? ref_grad(m, s, f.x, f.y, f.dxx, f.dxy, f.dyx, f.dyy)
                              : ref_lod(m, s, f.x, f.y, f.lod);
      if (!ref_close(got[i], want)) {
        std::fprintf(stderr, "%s %s probe %d (%g, %g, lod %g): got %.9g, want %.9g\n",
                     what, grad ? "tex2DGrad" : "tex2DLod", i, f.x, f.y, f.lod, got[i],
                     want);
        ++check_failures;
      }
    }
  }
  cudaFree(dp);
  cudaFree(dout);
}

/* Probes over the texture: coordinates off the texel centres, levels and
 * gradients from 0 to past the last level. */
static std::vector<Fetch2> probes() {
  std::vector<Fetch2> p;
  const float lods[] = {-1.0f, 0.0f, 0.3f, 0.8f, 1.0f, 1.3f, 1.7f, 2.2f, 2.9f, 3.4f, 6.0f};
  const float grads[] = {0.01f, 0.07f, 0.1f, 0.15f, 0.3f, 0.45f, 0.7f, 1.5f};
  int k = 0;
  for (float lod : lods)
    for (int c = 0; c < 4; ++c, ++k) {
      const float x = 0.07f + 0.23f * c + 0.011f * k, y = 0.91f - 0.19f * c;
      const float g = grads[k % 8];
      /* Alternate which gradient is the longer, and mix in the other axis. */
      if (k % 2)
        p.push_back({x, y, lod, g, 0.25f * g, 0.1f * g, 0.2f * g});
      else
        p.push_back({x, y, lod, 0.05f * g, 0.0f, 0.3f * g, g});
    }
  return p;
}

static void mipmapped_2d() {
  /* 16 x 8: levels 16x8, 8x4, 4x2, 2x1, 1x1; distinct integer texels. */
  MipLevels m(16, 8, 5, [](int l, int x, int y) {
    return static_cast<float>(64 * l + (7 * x + 13 * y) % 61);
  });
  cudaMipmappedArray_t a = make_mipmapped(m, make_cudaExtent(16, 8, 0));
  const std::vector<Fetch2> p = probes();
  const MipSampler samplers[] = {
      {false, false, 0.0f, 0.0f, 4.0f}, {true, false, 0.0f, 0.0f, 4.0f},
      {false, true, 0.0f, 0.0f, 4.0f},  {true, true, 0.0f, 0.0f, 4.0f},
      {true, true, 0.6f, 0.0f, 4.0f},   {true, true, -0.4f, 0.5f, 2.25f},
      {false, true, 0.0f, 1.0f, 3.0f}};
  for (const MipSampler &s : samplers) {
    cudaTextureObject_t t = mip_texture(a, s);
    char what[96];
    std::snprintf(what, sizeof what, "2D (filter %d, mip %d, bias %g, clamps %g..%g)",
                  s.linear, s.mip_linear, s.bias, s.min_clamp, s.max_clamp);
    compare_2d(what, t, m, s, p);
    /* The texture description reads back as given. */
    cudaTextureDesc back;
    CHECK(cudaGetTextureObjectTextureDesc(&back, t) == cudaSuccess);
    const cudaTextureDesc given = mip_desc(s);
    CHECK(back.filterMode == given.filterMode &&
          back.mipmapFilterMode == given.mipmapFilterMode &&
          back.mipmapLevelBias == given.mipmapLevelBias &&
          back.minMipmapLevelClamp == given.minMipmapLevelClamp &&
          back.maxMipmapLevelClamp == given.maxMipmapLevelClamp &&
          back.normalizedCoords == 1 && back.addressMode[1] == cudaAddressModeClamp);
    CHECK(cudaDestroyTextureObject(t) == cudaSuccess);
  }

  /* A view of levels 1 to 3: level 0 of the view is level 1 of the array,
   * and the clamps count from there (min clamp 0.5 is level 1.5). */
  cudaResourceViewDesc v;
  std::memset(&v, 0, sizeof v);
  v.format = cudaResViewFormatFloat1;
  v.width = 16;
  v.height = 8;
  v.firstMipmapLevel = 1;
  v.lastMipmapLevel = 3;
  MipLevels sub(8, 4, 3, [&](int l, int x, int y) {
    return m.texel[l + 1][y * m.width[l + 1] + x];
  });
  const MipSampler vs = {true, true, 0.0f, 0.5f, 10.0f};
  cudaTextureObject_t tv = mip_texture(a, vs, &v);
  /* tex2DGrad measures gradients in texels of the view's level 0. */
  compare_2d("view of levels 1..3", tv, sub, vs, p);
  cudaResourceViewDesc vb;
  CHECK(cudaGetTextureObjectResourceViewDesc(&vb, tv) == cudaSuccess);
  CHECK(vb.format == cudaResViewFormatFloat1 && vb.width == 16 && vb.height == 8 &&
        vb.firstMipmapLevel == 1 && vb.lastMipmapLevel == 3 && vb.firstLayer == 0);
  CHECK(cudaDestroyTextureObject(tv) == cudaSuccess);

  /* Views CUDA refuses: a level past the last, a width other than the
   * resource's, a format of another size. */
  cudaResourceDesc r;
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeMipmappedArray;
  r.res.mipmap.mipmap = a;
  const cudaTextureDesc d = mip_desc(vs);
  cudaTextureObject_t bad = 0;
  cudaResourceViewDesc w = v;
  w.lastMipmapLevel = 5;
  CHECK(cudaCreateTextureObject(&bad, &r, &d, &w) == cudaErrorInvalidValue);
  w = v;
  w.width = 8;
  CHECK(cudaCreateTextureObject(&bad, &r, &d, &w) == cudaErrorInvalidValue);
  w = v;
  w.format = cudaResViewFormatUnsignedShort1;
  CHECK(cudaCreateTextureObject(&bad, &r, &d, &w) == cudaErrorInvalidValue);
  w = v;
  w.firstLayer = 1;
  w.lastLayer = 1;
  CHECK(cudaCreateTextureObject(&bad, &r, &d, &w) == cudaErrorInvalidValue);
  /* Ordinary arrays are not sparse, deferred-mapping or multi-planar:
   * CUDA's queries of those say cudaErrorInvalidValue. */
  cudaArraySparseProperties sparse;
  cudaArrayMemoryRequirements req;
  cudaArray_t level0 = nullptr, plane = nullptr;
  CHECK(cudaGetMipmappedArrayLevel(&level0, a, 0) == cudaSuccess);
  CHECK(cudaMipmappedArrayGetSparseProperties(&sparse, a) == cudaErrorInvalidValue);
  CHECK(cudaMipmappedArrayGetMemoryRequirements(&req, a, 0) == cudaErrorInvalidValue);
  CHECK(cudaArrayGetSparseProperties(&sparse, level0) == cudaErrorInvalidValue);
  CHECK(cudaArrayGetMemoryRequirements(&req, level0, 0) == cudaErrorInvalidValue);
  CHECK(cudaArrayGetPlane(&plane, level0, 0) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK(cudaFreeMipmappedArray(a) == cudaSuccess);
}

/* texCubemapLod over a mipmapped 4 x 4 cubemap of 3 levels (also with
 * seamlessCubemap and point filtering): face f of
 * level l holds 100 l + 10 f + 4 y + x; the face and its coordinates
 * follow the Programming Guide's table (major axis; s, t from the other
 * two, divided by it). */
static void cubemap(const cudaTextureDesc &d) {
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaMipmappedArray_t a = nullptr;
  CHECK(cudaMallocMipmappedArray(&a, &fd, make_cudaExtent(4, 4, 6), 3, cudaArrayCubemap) ==
        cudaSuccess);
  for (int l = 0; l < 3; ++l) {
    const int n = 4 >> l;
    std::vector<float> faces(6 * n * n);
    for (int f = 0; f < 6; ++f)
      for (int i = 0; i < n * n; ++i)
        faces[f * n * n + i] = static_cast<float>(100 * l + 10 * f + 4 * (i / n) + i % n);
    cudaArray_t lv = nullptr;
    CHECK(cudaGetMipmappedArrayLevel(&lv, a, l) == cudaSuccess);
    copy_floats_3d(lv, faces.data(), n, n, 6);
  }
  cudaResourceDesc r;
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeMipmappedArray;
  r.res.mipmap.mipmap = a;
  cudaTextureObject_t t = 0, seamless = 0;
  CHECK(cudaCreateTextureObject(&t, &r, &d, nullptr) == cudaSuccess);
  /* Seamless with point filtering: the address modes give way to clamp, so
   * the results are the same whatever they say. */
  cudaTextureDesc ds = d;
  ds.seamlessCubemap = 1;
  ds.addressMode[0] = ds.addressMode[1] = ds.addressMode[2] = cudaAddressModeBorder;
  ds.borderColor[0] = -1.0f;
  CHECK(cudaCreateTextureObject(&seamless, &r, &ds, nullptr) == cudaSuccess);
  /* Direction, level; the face f, and s, t in [0, 1]. */
  const std::vector<float4> dirs = {
      {1.0f, 0.2f, -0.3f, 0.0f},  {-2.0f, 0.5f, 1.0f, 1.0f}, {0.1f, 1.0f, 0.6f, 0.5f},
      {0.3f, -1.0f, -0.2f, 2.0f}, {0.2f, 0.1f, 1.0f, 1.5f},  {-0.7f, -0.2f, -1.0f, 0.0f}};
  auto face_st = [](float x, float y, float z, int *face, float *s, float *u) {
    const float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
    float sc, tc, m;
    if (ax >= ay && ax >= az) {
      *face = x > 0 ? 0 : 1, m = ax, sc = x > 0 ? -z : z, tc = -y;
    } else if (ay >= az) {
      *face = y > 0 ? 2 : 3, m = ay, sc = x, tc = y > 0 ? z : -z;
    } else {
      *face = z > 0 ? 4 : 5, m = az, sc = z > 0 ? x : -x, tc = -y;
    }
    *s = (sc / m + 1) / 2;
    *u = (tc / m + 1) / 2;
  };
  float4 *ddirs = device_copy(dirs);
  float *dout = nullptr;
  CHECK(cudaMalloc(&dout, 2 * dirs.size() * sizeof(float)) == cudaSuccess);
  fetch_cube<<<1, static_cast<unsigned>(dirs.size())>>>(t, ddirs, dout);
  fetch_cube<<<1, static_cast<unsigned>(dirs.size())>>>(seamless, ddirs, dout + dirs.size());
  CHECK(cudaGetLastError() == cudaSuccess);
  std::vector<float> got = host_copy(dout, 2 * dirs.size());
  for (size_t i = 0; i < dirs.size(); ++i) {
    CHECK(got[dirs.size() + i] == got[i]);
    int f;
    float s, u;
    face_st(dirs[i].x, dirs[i].y, dirs[i].z, &f, &s, &u);
    auto level = [&](int l) {
      const int n = 4 >> l;
      const int x = static_cast<int>(s * n) < n ? static_cast<int>(s * n) : n - 1;
      const int y = static_cast<int>(u * n) < n ? static_cast<int>(u * n) : n - 1;
      return static_cast<float>(100 * l + 10 * f + 4 * y + x);
    };
    const float lod = dirs[i].w;
    const int l = static_cast<int>(lod);
    const float want = lod == l ? level(l) : 0.5f * level(l) + 0.5f * level(l + 1);
    if (!ref_close(got[i], want)) {
      std::fprintf(stderr, "texCubemapLod %zu: got %g, want %g\n", i, got[i], want);
      ++check_failures;
    }
  }
  cudaFree(ddirs);
  cudaFree(dout);
  CHECK(cudaDestroyTextureObject(t) == cudaSuccess);
  CHECK(cudaDestroyTextureObject(seamless) == cudaSuccess);
  /* Seamless linear filtering (across faces) is not emulated: refused. */
  ds.filterMode = cudaFilterModeLinear;
#ifdef __CUEMU__
  CHECK(cudaCreateTextureObject(&seamless, &r, &ds, nullptr) == cudaErrorNotSupported);
  cudaGetLastError();
#endif
  CHECK(cudaFreeMipmappedArray(a) == cudaSuccess);
}

/* tex1DLod over 8 texels and tex3DLod over 4 x 4 x 4, point sampling,
 * linear between levels; the reference samples each level by hand. */
static void mipmapped_1d_3d() {
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaMipmappedArray_t a1 = nullptr, a3 = nullptr;
  CHECK(cudaMallocMipmappedArray(&a1, &fd, make_cudaExtent(8, 0, 0), 4) == cudaSuccess);
  CHECK(cudaMallocMipmappedArray(&a3, &fd, make_cudaExtent(4, 4, 4), 3) == cudaSuccess);
  float level1d[4][8], level3d[3][64];
  for (int l = 0; l < 4; ++l) {
    const int n = 8 >> l;
    for (int x = 0; x < n; ++x)
      level1d[l][x] = static_cast<float>(10 * l + x);
    cudaArray_t lv = nullptr;
    CHECK(cudaGetMipmappedArrayLevel(&lv, a1, l) == cudaSuccess);
    CHECK(cudaMemcpy2DToArray(lv, 0, 0, level1d[l], n * 4, n * 4, 1,
                              cudaMemcpyHostToDevice) == cudaSuccess);
  }
  for (int l = 0; l < 3; ++l) {
    const int n = 4 >> l;
    for (int i = 0; i < n * n * n; ++i)
      level3d[l][i] = static_cast<float>(100 * l + i);
    cudaArray_t lv = nullptr;
    CHECK(cudaGetMipmappedArrayLevel(&lv, a3, l) == cudaSuccess);
    copy_floats_3d(lv, level3d[l], n, n, n);
  }
  cudaResourceDesc r;
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeMipmappedArray;
  const MipSampler s = {false, true, 0.0f, 0.0f, 16.0f};
  const cudaTextureDesc d = mip_desc(s);
  cudaTextureObject_t t1 = 0, t3 = 0;
  r.res.mipmap.mipmap = a1;
  CHECK(cudaCreateTextureObject(&t1, &r, &d, nullptr) == cudaSuccess);
  r.res.mipmap.mipmap = a3;
  CHECK(cudaCreateTextureObject(&t3, &r, &d, nullptr) == cudaSuccess);
  float *dout = nullptr;
  CHECK(cudaMalloc(&dout, 32 * sizeof(float)) == cudaSuccess);
  fetch_1d_3d<<<1, 8>>>(t1, t3, dout);
  CHECK(cudaGetLastError() == cudaSuccess);
  std::vector<float> got = host_copy(dout, 32);
  for (int i = 0; i < 8; ++i) {
    /* Level 0.5 i: levels floor and floor + 1, weight 0 or 1/2. */
    auto one_d = [&](int l) { return level1d[l][static_cast<int>(0.3f * (8 >> l))]; };
    auto three_d = [&](int l) {
      const int n = 4 >> l;
      const int x = static_cast<int>(0.6f * n), y = static_cast<int>(0.4f * n),
                z = static_cast<int>(0.7f * n);
      return level3d[l][(z * n + y) * n + x];
    };
    const float lod1 = std::fmin(0.5f * i, 3.0f), lod3 = std::fmin(0.5f * i, 2.0f);
    const int a = static_cast<int>(lod1), b = static_cast<int>(lod3);
    const float want1 = lod1 == a ? one_d(a) : 0.5f * one_d(a) + 0.5f * one_d(a + 1);
    const float want3 = lod3 == b ? three_d(b) : 0.5f * three_d(b) + 0.5f * three_d(b + 1);
    CHECK(ref_close(got[i], want1));
    CHECK(ref_close(got[8 + i], want3));
    /* Gradients: the longer in texels of level 0 gives the level: 1D
     * max(0.75 g, 0.5 g) * 8; 3D max(g, |(0.5 g, 0.75 g)|) * 4. */
    const float g = static_cast<float>(1 << i) / 32.0f;
    const float g1 = std::log2(0.75f * g * 8.0f);
    const float g3 = std::log2(std::fmax(g, std::sqrt(0.25f * g * g + 0.5625f * g * g)) * 4.0f);
    auto blend = [](float lambda, int top, auto level) {
      lambda = std::fmax(0.0f, std::fmin(static_cast<float>(top), lambda));
      const int l = static_cast<int>(lambda);
      const float a = ref_weight(lambda - l);
      return a == 0.0f || l == top ? level(l) : (1 - a) * level(l) + a * level(l + 1);
    };
    CHECK(ref_close(got[16 + i], blend(g1, 3, one_d)));
    CHECK(ref_close(got[24 + i], blend(g3, 2, three_d)));
  }
  cudaFree(dout);
  cubemap(d);
  CHECK(cudaDestroyTextureObject(t1) == cudaSuccess);
  CHECK(cudaDestroyTextureObject(t3) == cudaSuccess);
  CHECK(cudaFreeMipmappedArray(a1) == cudaSuccess);
  CHECK(cudaFreeMipmappedArray(a3) == cudaSuccess);
}

/* Views of layers and of the element format. */
static void views() {
  /* A 4 x 2 array of 5 layers; layer L holds 10 L + x. */
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t layered = nullptr;
  CHECK(cudaMalloc3DArray(&layered, &fd, make_cudaExtent(4, 2, 5), cudaArrayLayered) ==
        cudaSuccess);
  std::vector<float> host(4 * 2 * 5);
  for (int l = 0; l < 5; ++l)
    for (int i = 0; i < 8; ++i)
      host[l * 8 + i] = static_cast<float>(10 * l + i % 4);
  copy_floats_3d(layered, host.data(), 4, 2, 5);
  cudaResourceDesc r;
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  r.res.array.array = layered;
  cudaTextureDesc d;
  std::memset(&d, 0, sizeof d);
  d.addressMode[0] = d.addressMode[1] = cudaAddressModeClamp;
  d.filterMode = cudaFilterModePoint;
  d.readMode = cudaReadModeElementType;
  cudaResourceViewDesc v;
  std::memset(&v, 0, sizeof v);
  v.width = 4;
  v.height = 2;
  v.depth = 5;
  v.firstLayer = 1;
  v.lastLayer = 3;
  cudaTextureObject_t t = 0;
  CHECK(cudaCreateTextureObject(&t, &r, &d, &v) == cudaSuccess);
  float *dout = nullptr;
  CHECK(cudaMalloc(&dout, 8 * sizeof(float)) == cudaSuccess);
  fetch_layers<<<1, 5>>>(t, dout);
  CHECK(cudaGetLastError() == cudaSuccess);
  std::vector<float> got = host_copy(dout, 5);
  /* Layer k of the view is layer 1 + k, clamped into layers 1 to 3; x 1.5
   * reads texel 1. */
  const float want[5] = {11, 21, 31, 31, 31};
  for (int k = 0; k < 5; ++k)
    CHECK(got[k] == want[k]);
  CHECK(cudaDestroyTextureObject(t) == cudaSuccess);
  cudaTextureObject_t bad = 0;
  cudaResourceViewDesc w = v;
  w.lastLayer = 5;
  CHECK(cudaCreateTextureObject(&bad, &r, &d, &w) == cudaErrorInvalidValue);
  w = v;
  w.depth = 3; /* the depth is the resource's, whatever the layers */
  CHECK(cudaCreateTextureObject(&bad, &r, &d, &w) == cudaErrorInvalidValue);
  cudaGetLastError();
  CHECK(cudaFreeArray(layered) == cudaSuccess);

  /* Four 32-bit unsigned integers viewed as uchar4 and as float. */
  cudaChannelFormatDesc ud = cudaCreateChannelDesc<unsigned>();
  cudaArray_t words = nullptr;
  CHECK(cudaMallocArray(&words, &ud, 4) == cudaSuccess);
  const float fl[4] = {1.5f, -2.0f, 3.25f, 1e10f};
  unsigned bits[4];
  std::memcpy(bits, fl, sizeof bits);
  bits[0] = 0x04030201u;
  CHECK(cudaMemcpy2DToArray(words, 0, 0, bits, 16, 16, 1, cudaMemcpyHostToDevice) ==
        cudaSuccess);
  r.res.array.array = words;
  std::memset(&v, 0, sizeof v);
  v.width = 4;
  v.format = cudaResViewFormatUnsignedChar4;
  cudaTextureObject_t as_bytes = 0, as_float = 0;
  CHECK(cudaCreateTextureObject(&as_bytes, &r, &d, &v) == cudaSuccess);
  v.format = cudaResViewFormatFloat1;
  CHECK(cudaCreateTextureObject(&as_float, &r, &d, &v) == cudaSuccess);
  uchar4 *db = nullptr;
  CHECK(cudaMalloc(&db, 4 * sizeof(uchar4)) == cudaSuccess);
  fetch_reinterpreted<<<1, 4>>>(as_bytes, as_float, db, dout);
  CHECK(cudaGetLastError() == cudaSuccess);
  std::vector<uchar4> gb = host_copy(db, 4);
  std::vector<float> gf = host_copy(dout, 4);
  for (int i = 0; i < 4; ++i) {
    unsigned char want_bytes[4];
    std::memcpy(want_bytes, &bits[i], 4);
    CHECK(gb[i].x == want_bytes[0] && gb[i].y == want_bytes[1] &&
          gb[i].z == want_bytes[2] && gb[i].w == want_bytes[3]);
    float want_float;
    std::memcpy(&want_float, &bits[i], 4);
    CHECK(gf[i] == want_float);
  }
  CHECK(gb[0].x == 1 && gb[0].w == 4 && gf[2] == 3.25f);
  /* Block-compressed views are not emulated (cuemu says so); over a format
   * CUDA does not allow for them they are invalid. */
  cudaChannelFormatDesc u2 = cudaCreateChannelDesc<uint2>();
  cudaArray_t blocks = nullptr;
  CHECK(cudaMallocArray(&blocks, &u2, 2, 2) == cudaSuccess);
  r.res.array.array = blocks;
  std::memset(&v, 0, sizeof v);
  v.format = cudaResViewFormatUnsignedBlockCompressed1;
  v.width = 8;
  v.height = 8;
  const cudaError_t bc = cudaCreateTextureObject(&bad, &r, &d, &v);
#ifdef __CUEMU__
  CHECK(bc == cudaErrorNotSupported);
#else
  CHECK(bc == cudaSuccess || bc == cudaErrorNotSupported);
  if (bc == cudaSuccess)
    cudaDestroyTextureObject(bad);
#endif
  r.res.array.array = words;
  CHECK(cudaCreateTextureObject(&bad, &r, &d, &v) == cudaErrorInvalidValue);
  /* A view needs an array. */
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeLinear;
  r.res.linear.devPtr = dout;
  r.res.linear.desc = cudaCreateChannelDesc<float>();
  r.res.linear.sizeInBytes = 16;
  std::memset(&v, 0, sizeof v);
  v.format = cudaResViewFormatFloat1;
  v.width = 4;
  CHECK(cudaCreateTextureObject(&bad, &r, &d, &v) == cudaErrorInvalidValue);
  cudaGetLastError();
  CHECK(cudaDestroyTextureObject(as_bytes) == cudaSuccess);
  CHECK(cudaDestroyTextureObject(as_float) == cudaSuccess);
  CHECK(cudaFreeArray(words) == cudaSuccess);
  CHECK(cudaFreeArray(blocks) == cudaSuccess);
  cudaFree(db);
  cudaFree(dout);
}

/* Half and normalized 16-bit channels, filtered linearly. */
static void narrow_formats() {
  const int w = 4, h = 2;
  const float values[w * h] = {0, 1, 2.5f, -3, 100, 0.125f, 7, 2048};
  __half hv[w * h];
  unsigned short nv[w * h];
  for (int i = 0; i < w * h; ++i) {
    hv[i] = __float2half(values[i]);
    nv[i] = static_cast<unsigned short>(i * 9000);
  }
  cudaChannelFormatDesc hd = cudaCreateChannelDescHalf();
  cudaChannelFormatDesc nd = cudaCreateChannelDesc<unsigned short>();
  cudaArray_t ha = nullptr, na = nullptr;
  CHECK(cudaMallocArray(&ha, &hd, w, h) == cudaSuccess);
  CHECK(cudaMallocArray(&na, &nd, w, h) == cudaSuccess);
  CHECK(cudaMemcpy2DToArray(ha, 0, 0, hv, w * 2, w * 2, h, cudaMemcpyHostToDevice) ==
        cudaSuccess);
  CHECK(cudaMemcpy2DToArray(na, 0, 0, nv, w * 2, w * 2, h, cudaMemcpyHostToDevice) ==
        cudaSuccess);
  cudaResourceDesc r;
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  cudaTextureDesc d;
  std::memset(&d, 0, sizeof d);
  d.addressMode[0] = d.addressMode[1] = cudaAddressModeClamp;
  d.filterMode = cudaFilterModeLinear;
  d.readMode = cudaReadModeElementType;
  cudaTextureObject_t th = 0, tn = 0;
  r.res.array.array = ha;
  CHECK(cudaCreateTextureObject(&th, &r, &d, nullptr) == cudaSuccess);
  d.readMode = cudaReadModeNormalizedFloat;
  r.res.array.array = na;
  CHECK(cudaCreateTextureObject(&tn, &r, &d, nullptr) == cudaSuccess);
  const std::vector<float2> at = {{0.5f, 0.5f}, {1.25f, 0.75f}, {2.9f, 1.6f},
                                  {3.5f, 1.5f}, {1.0f, 1.0f},   {2.3f, 0.2f}};
  float2 *dat = device_copy(at);
  float *dout = nullptr;
  CHECK(cudaMalloc(&dout, at.size() * sizeof(float)) == cudaSuccess);
  for (int pass = 0; pass < 2; ++pass) {
    fetch_linear_2d<<<1, static_cast<unsigned>(at.size())>>>(pass ? tn : th, dat, dout);
    CHECK(cudaGetLastError() == cudaSuccess);
    std::vector<float> got = host_copy(dout, at.size());
    MipLevels one(w, h, 1, [&](int, int x, int y) {
      return pass ? nv[y * w + x] / 65535.0f : values[y * w + x];
    });
    const MipSampler s = {true, false, 0, 0, 0};
    for (size_t i = 0; i < at.size(); ++i) {
      const float want = ref_lod(one, s, at[i].x / w, at[i].y / h, 0);
      if (!ref_close(got[i], want)) {
        std::fprintf(stderr, "%s at (%g, %g): got %.9g, want %.9g\n",
                     pass ? "unorm16" : "half", at[i].x, at[i].y, got[i], want);
        ++check_failures;
      }
    }
  }
  CHECK(cudaDestroyTextureObject(th) == cudaSuccess);
  CHECK(cudaDestroyTextureObject(tn) == cudaSuccess);
  CHECK(cudaFreeArray(ha) == cudaSuccess);
  CHECK(cudaFreeArray(na) == cudaSuccess);
  cudaFree(dat);
  cudaFree(dout);
  /* 10-10-10-2 words (x in the low bits), filtered linearly: x = 0.75 +
   * 0.5 i, texels floor(x - 0.5) and the next with weight frac(x - 0.5). */
  const unsigned words[3] = {1023u | (3u << 30), (512u << 10) | (1u << 30), 700u << 20};
  cudaChannelFormatDesc pd =
      cudaCreateChannelDesc<cudaChannelFormatKindUnsignedNormalized1010102>();
  CHECK(pd.x == 10 && pd.y == 10 && pd.z == 10 && pd.w == 2);
  cudaArray_t pa = nullptr;
  CHECK(cudaMallocArray(&pa, &pd, 3) == cudaSuccess);
  CHECK(cudaMemcpy2DToArray(pa, 0, 0, words, 12, 12, 1, cudaMemcpyHostToDevice) ==
        cudaSuccess);
  r.res.array.array = pa;
  d.readMode = cudaReadModeElementType;
  cudaTextureObject_t tpk = 0;
  CHECK(cudaCreateTextureObject(&tpk, &r, &d, nullptr) == cudaSuccess);
  float4 *dpk = nullptr;
  CHECK(cudaMalloc(&dpk, 4 * sizeof(float4)) == cudaSuccess);
  fetch_packed<<<1, 4>>>(tpk, dpk);
  CHECK(cudaGetLastError() == cudaSuccess);
  std::vector<float4> gp = host_copy(dpk, 4);
  for (int i = 0; i < 4; ++i) {
    const float xb = 0.25f + 0.5f * i;
    const int j = static_cast<int>(xb), k = j + 1 < 3 ? j + 1 : 2;
    const float a = ref_weight(xb - j);
    auto ch = [&](int t, int c) {
      return c < 3 ? ((words[t] >> (10 * c)) & 1023u) / 1023.0f : (words[t] >> 30) / 3.0f;
    };
    const float got[4] = {gp[i].x, gp[i].y, gp[i].z, gp[i].w};
    for (int c = 0; c < 4; ++c)
      CHECK(ref_close(got[c], (1 - a) * ch(j, c) + a * ch(k, c)));
  }
  CHECK(cudaDestroyTextureObject(tpk) == cudaSuccess);
  CHECK(cudaFreeArray(pa) == cudaSuccess);
  cudaFree(dpk);
#ifdef __CUEMU__
  /* Block-compressed arrays are not emulated: refused, naming the format. */
  cudaChannelFormatDesc bc =
      cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsignedBlockCompressed1);
  cudaArray_t none = nullptr;
  CHECK(cudaMallocArray(&none, &bc, 8, 8) == cudaErrorInvalidChannelDescriptor);
  cudaGetLastError();
#endif
}

static void normalized_paths() {
  /* Signed 8-bit linear memory: v / 127, -128 clamped to -1. */
  const signed char sb[8] = {-128, -127, -1, 0, 1, 64, 126, 127};
  /* Unsigned 16-bit pitch-2D memory, 8 x 2, rows 64 bytes apart. */
  std::vector<unsigned short> pv(32 * 2);
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 8; ++x)
      pv[y * 32 + x] = static_cast<unsigned short>(4099 * x + 30001 * y);
  signed char *dsb = device_copy(std::vector<signed char>(sb, sb + 8));
  unsigned short *dpv = device_copy(pv);
  cudaResourceDesc r;
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeLinear;
  r.res.linear.devPtr = dsb;
  r.res.linear.desc = cudaCreateChannelDesc<signed char>();
  r.res.linear.sizeInBytes = 8;
  cudaTextureDesc d;
  std::memset(&d, 0, sizeof d);
  d.addressMode[0] = d.addressMode[1] = cudaAddressModeClamp;
  d.readMode = cudaReadModeNormalizedFloat;
  cudaTextureObject_t tl = 0, tp = 0, tla = 0, tm = 0;
  CHECK(cudaCreateTextureObject(&tl, &r, &d, nullptr) == cudaSuccess);
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypePitch2D;
  r.res.pitch2D.devPtr = dpv;
  r.res.pitch2D.desc = cudaCreateChannelDesc<unsigned short>();
  r.res.pitch2D.width = 8;
  r.res.pitch2D.height = 2;
  r.res.pitch2D.pitchInBytes = 64;
  d.filterMode = cudaFilterModeLinear;
  CHECK(cudaCreateTextureObject(&tp, &r, &d, nullptr) == cudaSuccess);
  /* An unsigned 8-bit layered array 8 x 1 x 3: layer L, texel x holds
   * 80 L + 9 x. */
  cudaChannelFormatDesc ud = cudaCreateChannelDesc<unsigned char>();
  cudaArray_t la = nullptr;
  CHECK(cudaMalloc3DArray(&la, &ud, make_cudaExtent(8, 1, 3), cudaArrayLayered) ==
        cudaSuccess);
  unsigned char lv[24];
  for (int i = 0; i < 24; ++i)
    lv[i] = static_cast<unsigned char>(80 * (i / 8) + 9 * (i % 8));
  cudaMemcpy3DParms c;
  std::memset(&c, 0, sizeof c);
  c.srcPtr = make_cudaPitchedPtr(lv, 8, 8, 1);
  c.dstArray = la;
  c.extent = make_cudaExtent(8, 1, 3);
  c.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&c) == cudaSuccess);
  d.filterMode = cudaFilterModePoint;
  r = cudaResourceDesc();
  r.resType = cudaResourceTypeArray;
  r.res.array.array = la;
  CHECK(cudaCreateTextureObject(&tla, &r, &d, nullptr) == cudaSuccess);
  /* A mipmapped unsigned 16-bit 8 x 8 array of two levels. */
  cudaChannelFormatDesc u16 = cudaCreateChannelDesc<unsigned short>();
  cudaMipmappedArray_t ma = nullptr;
  CHECK(cudaMallocMipmappedArray(&ma, &u16, make_cudaExtent(8, 8, 0), 2) == cudaSuccess);
  MipLevels m(8, 8, 2, [](int l, int x, int y) {
    return static_cast<float>(20000 * l + 1000 * x + 7 * y);
  });
  for (int l = 0; l < 2; ++l) {
    std::vector<unsigned short> raw(m.texel[l].begin(), m.texel[l].end());
    for (float &t : m.texel[l])
      t /= 65535.0f;
    cudaArray_t level = nullptr;
    CHECK(cudaGetMipmappedArrayLevel(&level, ma, l) == cudaSuccess);
    const size_t row = m.width[l] * 2;
    CHECK(cudaMemcpy2DToArray(level, 0, 0, raw.data(), row, row, m.height[l],
                              cudaMemcpyHostToDevice) == cudaSuccess);
  }
  r.resType = cudaResourceTypeMipmappedArray;
  r.res.mipmap.mipmap = ma;
  d.normalizedCoords = 1;
  d.mipmapFilterMode = cudaFilterModeLinear;
  d.maxMipmapLevelClamp = 1;
  CHECK(cudaCreateTextureObject(&tm, &r, &d, nullptr) == cudaSuccess);
  float *dout = nullptr;
  CHECK(cudaMalloc(&dout, 32 * sizeof(float)) == cudaSuccess);
  fetch_normalized<<<1, 8>>>(tl, tp, tla, tm, dout);
  CHECK(cudaGetLastError() == cudaSuccess);
  std::vector<float> got = host_copy(dout, 32);
  MipLevels pitch(8, 2, 1, [&](int, int x, int y) { return pv[y * 32 + x] / 65535.0f; });
  const MipSampler lin = {true, false, 0, 0, 0}, mips = {false, true, 0, 0, 1};
  for (int i = 0; i < 8; ++i) {
    CHECK(got[i] == (sb[i] == -128 ? -1.0f : sb[i] / 127.0f));
    CHECK(ref_close(got[8 + i], ref_lod(pitch, lin, (0.25f + 0.9f * i) / 8, 1.2f / 2, 0)));
    CHECK(got[16 + i] == lv[8 * (i % 3) + i] / 255.0f);
    CHECK(ref_close(got[24 + i], ref_lod(m, mips, 0.1f * i + 0.05f, 0.3f, 0.5f)));
  }
  for (cudaTextureObject_t t : {tl, tp, tla, tm})
    CHECK(cudaDestroyTextureObject(t) == cudaSuccess);
  CHECK(cudaFreeArray(la) == cudaSuccess);
  CHECK(cudaFreeMipmappedArray(ma) == cudaSuccess);
  cudaFree(dsb);
  cudaFree(dpv);
  cudaFree(dout);
}

int main() {
  mipmapped_2d();
  mipmapped_1d_3d();
  views();
  narrow_formats();
  normalized_paths();
  return finish();
}
