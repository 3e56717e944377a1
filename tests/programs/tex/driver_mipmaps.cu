/*
 * driver_mipmaps.cu: the driver API's mipmapped arrays and texture-object
 * queries, as a driver-API program uses them: cuMipmappedArrayCreate,
 * cuMipmappedArrayGetLevel with cuMemcpyHtoA into each level,
 * cuTexObjectCreate over CU_RESOURCE_TYPE_MIPMAPPED_ARRAY (tex2DLod and
 * tex2DGrad with trilinear filtering, bias and clamps, against the host
 * reference of mip_reference.cuh), cuTexObjectGetTextureDesc,
 * cuTexObjectGetResourceDesc, a CUDA_RESOURCE_VIEW_DESC of a range of
 * levels and cuTexObjectGetResourceViewDesc; the formats CU_AD_FORMAT_HALF,
 * UNORM_INT8X4, SNORM_INT16X1 and UNORM_INT_101010_2 read as floats; the block-compressed and
 * YUV formats cuemu refuses; cuMipmappedArrayDestroy. Prints PASS when all
 * is well.
 */
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>
#include <cuda_fp16.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "../check.cuh"
#include "mip_reference.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)

constexpr int kW = 32, kH = 16, kLevels = 6;

/* Thread i: tex2DLod at level lod[i] and tex2DGrad with gradients
 * (g[i], 0) and (0, g[i] / 2), at (x[i], y[i]). */
__global__ void fetch_mips(cudaTextureObject_t t, const float4 *probe, float *lod_out,
                           float *grad_out) {
  const int i = threadIdx.x;
  const float4 p = probe[i];
  lod_out[i] = tex2DLod<float>(t, p.x, p.y, p.z);
  grad_out[i] = tex2DGrad<float>(t, p.x, p.y, make_float2(p.w, 0.0f),
                                 make_float2(0.0f, 0.5f * p.w));
}

__global__ void fetch_formats(cudaTextureObject_t half2_tex, cudaTextureObject_t unorm_tex,
                              cudaTextureObject_t snorm_tex, cudaTextureObject_t packed_tex,
                              float2 *h, float4 *u, float *s, float4 *p) {
  const int i = threadIdx.x;
  h[i] = tex1D<float2>(half2_tex, 0.5f + 0.75f * i);
  u[i] = tex1D<float4>(unorm_tex, i + 0.5f);
  s[i] = tex1D<float>(snorm_tex, i + 0.5f);
  p[i] = tex1D<float4>(packed_tex, i + 0.5f);
}

/* A 1-D array of `format` and `channels` filled from `data`. */
static CUarray array_1d(CUarray_format format, unsigned channels, size_t width,
                        const void *data, size_t bytes) {
  CUDA_ARRAY_DESCRIPTOR d = {};
  d.Width = width;
  d.Format = format;
  d.NumChannels = channels;
  CUarray a = nullptr;
  CU(cuArrayCreate(&a, &d));
  CU(cuMemcpyHtoA(a, 0, data, bytes));
  return a;
}

static CUtexObject texture_1d(CUarray a, CUfilter_mode filter) {
  CUDA_RESOURCE_DESC rd = {};
  rd.resType = CU_RESOURCE_TYPE_ARRAY;
  rd.res.array.hArray = a;
  CUDA_TEXTURE_DESC td = {};
  td.addressMode[0] = CU_TR_ADDRESS_MODE_CLAMP;
  td.filterMode = filter;
  CUtexObject t = 0;
  CU(cuTexObjectCreate(&t, &rd, &td, nullptr));
  return t;
}

static void formats() {
  /* Half, two channels, filtered linearly. */
  const float hv[8] = {1.0f, -2.0f, 0.5f, 64.0f, 3.0f, 0.25f, -8.0f, 1024.0f};
  __half hh[8];
  for (int i = 0; i < 8; ++i) hh[i] = __float2half(hv[i]);
  CUarray ha = array_1d(CU_AD_FORMAT_HALF, 2, 4, hh, sizeof hh);
  /* Normalized 8-bit, four channels; normalized signed 16-bit, one. */
  unsigned char ub[16];
  for (int i = 0; i < 16; ++i) ub[i] = static_cast<unsigned char>(17 * i);
  CUarray ua = array_1d(CU_AD_FORMAT_UNORM_INT8X4, 4, 4, ub, sizeof ub);
  const short sv[4] = {-32768, -32767, 16384, 32767};
  CUDA_ARRAY_DESCRIPTOR back = {};
  CUarray sa = array_1d(CU_AD_FORMAT_SNORM_INT16X1, 1, 4, sv, sizeof sv);
  /* 10-10-10-2 in one word: x in the low bits (cuemu's assumption, the
   * usual R10G10B10A2 layout; CUDA's documentation does not draw it). */
  const unsigned pv[4] = {0u, 0xffffffffu, 1023u | (512u << 10) | (1u << 20) | (2u << 30),
                          (3u << 30) | (100u << 20)};
  CUarray pa = array_1d(CU_AD_FORMAT_UNORM_INT_101010_2, 4, 4, pv, sizeof pv);
  CU(cuArrayGetDescriptor(&back, pa));
  CHECK(back.Format == CU_AD_FORMAT_UNORM_INT_101010_2 && back.NumChannels == 4);
  CU(cuArrayGetDescriptor(&back, ua));
  CHECK(back.Format == CU_AD_FORMAT_UNORM_INT8X4 && back.NumChannels == 4 &&
        back.Width == 4);
  CU(cuArrayGetDescriptor(&back, ha));
  CHECK(back.Format == CU_AD_FORMAT_HALF && back.NumChannels == 2);
  CUtexObject th = texture_1d(ha, CU_TR_FILTER_MODE_LINEAR);
  CUtexObject tu = texture_1d(ua, CU_TR_FILTER_MODE_POINT);
  CUtexObject ts = texture_1d(sa, CU_TR_FILTER_MODE_POINT);
  CUtexObject tp = texture_1d(pa, CU_TR_FILTER_MODE_POINT);
  CUdeviceptr out;
  CU(cuMemAlloc(&out, 4 * (sizeof(float2) + 2 * sizeof(float4) + sizeof(float))));
  float2 *h = reinterpret_cast<float2 *>(out);
  float4 *u = reinterpret_cast<float4 *>(h + 4);
  float4 *pk = u + 4;
  float *s = reinterpret_cast<float *>(pk + 4);
  fetch_formats<<<1, 4>>>(th, tu, ts, tp, h, u, s, pk);
  CU(cuCtxSynchronize());
  float2 gh[4];
  float4 gu[4], gp[4];
  float gs[4];
  CU(cuMemcpyDtoH(gh, reinterpret_cast<CUdeviceptr>(h), sizeof gh));
  CU(cuMemcpyDtoH(gu, reinterpret_cast<CUdeviceptr>(u), sizeof gu));
  CU(cuMemcpyDtoH(gs, reinterpret_cast<CUdeviceptr>(s), sizeof gs));
  CU(cuMemcpyDtoH(gp, reinterpret_cast<CUdeviceptr>(pk), sizeof gp));
  for (int i = 0; i < 4; ++i)
    CHECK(gp[i].x == (pv[i] & 1023u) / 1023.0f && gp[i].y == ((pv[i] >> 10) & 1023u) / 1023.0f &&
          gp[i].z == ((pv[i] >> 20) & 1023u) / 1023.0f && gp[i].w == (pv[i] >> 30) / 3.0f);
  CHECK(gp[1].x == 1.0f && gp[1].w == 1.0f && gp[2].x == 1.0f && gp[3].z == 100.0f / 1023.0f);
  for (int i = 0; i < 4; ++i) {
    /* x = 0.5 + 0.75 i: texels floor(x - 0.5) and the next, weight frac. */
    const float xb = 0.75f * i;
    const int j = static_cast<int>(xb);
    const float a = ref_weight(xb - j);
    const int k = j + 1 < 4 ? j + 1 : 3;
    CHECK(ref_close(gh[i].x, (1 - a) * hv[2 * j] + a * hv[2 * k]));
    CHECK(ref_close(gh[i].y, (1 - a) * hv[2 * j + 1] + a * hv[2 * k + 1]));
    CHECK(gu[i].x == ub[4 * i] / 255.0f && gu[i].y == ub[4 * i + 1] / 255.0f &&
          gu[i].z == ub[4 * i + 2] / 255.0f && gu[i].w == ub[4 * i + 3] / 255.0f);
  }
  /* Signed: -32768 and -32767 both give -1. */
  CHECK(gs[0] == -1.0f && gs[1] == -1.0f && gs[2] == 16384.0f / 32767.0f && gs[3] == 1.0f);
  /* A channel count other than the format's is invalid. */
  CUDA_ARRAY_DESCRIPTOR d = {};
  d.Width = 4;
  d.Format = CU_AD_FORMAT_UNORM_INT8X4;
  d.NumChannels = 2;
  CUarray bad = nullptr;
  CHECK(cuArrayCreate(&bad, &d) == CUDA_ERROR_INVALID_VALUE);
  /* A value that is no format. */
  d.Format = static_cast<CUarray_format>(0x7f);
  CHECK(cuArrayCreate(&bad, &d) == CUDA_ERROR_INVALID_VALUE);
#ifdef __CUEMU__
  /* Block-compressed and YUV formats are refused, naming the format. */
  d.NumChannels = 4;
  const CUarray_format refused[] = {CU_AD_FORMAT_BC1_UNORM, CU_AD_FORMAT_BC7_UNORM_SRGB,
                                    CU_AD_FORMAT_NV12, CU_AD_FORMAT_P010, CU_AD_FORMAT_YUY2};
  for (CUarray_format f : refused) {
    d.Format = f;
    CHECK(cuArrayCreate(&bad, &d) == CUDA_ERROR_NOT_SUPPORTED);
  }
#endif
  for (CUtexObject t : {th, tu, ts, tp}) CU(cuTexObjectDestroy(t));
  for (CUarray a : {ha, ua, sa, pa}) CU(cuArrayDestroy(a));
  CU(cuMemFree(out));
}

int main() {
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));

  /* A 32 x 16 mipmapped array of 6 levels, each filled with cuMemcpyHtoA. */
  MipLevels m(kW, kH, kLevels, [](int l, int x, int y) {
    return static_cast<float>(100 * l + (3 * x + 11 * y) % 97);
  });
  CUDA_ARRAY3D_DESCRIPTOR ad = {};
  ad.Width = kW;
  ad.Height = kH;
  ad.Format = CU_AD_FORMAT_FLOAT;
  ad.NumChannels = 1;
  CUmipmappedArray mip = nullptr;
  CU(cuMipmappedArrayCreate(&mip, &ad, kLevels));
  for (int l = 0; l < kLevels; ++l) {
    CUarray level = nullptr;
    CU(cuMipmappedArrayGetLevel(&level, mip, l));
    CUDA_ARRAY3D_DESCRIPTOR ld = {};
    CU(cuArray3DGetDescriptor(&ld, level));
    CHECK(ld.Width == static_cast<size_t>(m.width[l]) &&
          ld.Height == static_cast<size_t>(m.height[l]) && ld.Format == CU_AD_FORMAT_FLOAT);
    CU(cuMemcpyHtoA(level, 0, m.texel[l].data(), m.texel[l].size() * sizeof(float)));
  }
  CUarray past = nullptr;
  CHECK(cuMipmappedArrayGetLevel(&past, mip, kLevels) == CUDA_ERROR_INVALID_VALUE);

  CUDA_RESOURCE_DESC rd = {};
  rd.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
  rd.res.mipmap.hMipmappedArray = mip;
  CUDA_TEXTURE_DESC td = {};
  td.addressMode[0] = td.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP;
  td.filterMode = CU_TR_FILTER_MODE_LINEAR;
  td.mipmapFilterMode = CU_TR_FILTER_MODE_LINEAR;
  td.flags = CU_TRSF_NORMALIZED_COORDINATES;
  td.mipmapLevelBias = 0.25f;
  td.minMipmapLevelClamp = 0.5f;
  td.maxMipmapLevelClamp = 4.0f;
  td.borderColor[2] = 0.5f;
  CUtexObject tex = 0;
  CU(cuTexObjectCreate(&tex, &rd, &td, nullptr));

  /* The descriptions read back. */
  CUDA_TEXTURE_DESC tback = {};
  CU(cuTexObjectGetTextureDesc(&tback, tex));
  CHECK(tback.flags == CU_TRSF_NORMALIZED_COORDINATES &&
        tback.filterMode == CU_TR_FILTER_MODE_LINEAR &&
        tback.mipmapFilterMode == CU_TR_FILTER_MODE_LINEAR &&
        tback.mipmapLevelBias == 0.25f && tback.minMipmapLevelClamp == 0.5f &&
        tback.maxMipmapLevelClamp == 4.0f && tback.borderColor[2] == 0.5f &&
        tback.addressMode[1] == CU_TR_ADDRESS_MODE_CLAMP);
  CUDA_RESOURCE_DESC rback = {};
  CU(cuTexObjectGetResourceDesc(&rback, tex));
  CHECK(rback.resType == CU_RESOURCE_TYPE_MIPMAPPED_ARRAY &&
        rback.res.mipmap.hMipmappedArray == mip);

  /* A view of levels 2 to 4 (the clamps count from level 2). */
  CUDA_RESOURCE_VIEW_DESC vd = {};
  vd.format = CU_RES_VIEW_FORMAT_FLOAT_1X32;
  vd.width = kW;
  vd.height = kH;
  vd.firstMipmapLevel = 2;
  vd.lastMipmapLevel = 4;
  CUtexObject view = 0;
  CU(cuTexObjectCreate(&view, &rd, &td, &vd));
  CUDA_RESOURCE_VIEW_DESC vback = {};
  CU(cuTexObjectGetResourceViewDesc(&vback, view));
  CHECK(vback.format == CU_RES_VIEW_FORMAT_FLOAT_1X32 && vback.width == kW &&
        vback.height == kH && vback.firstMipmapLevel == 2 && vback.lastMipmapLevel == 4);
  CU(cuTexObjectGetResourceViewDesc(&vback, tex));
  CHECK(vback.format == CU_RES_VIEW_FORMAT_NONE && vback.lastMipmapLevel == 0);
  MipLevels sub(kW >> 2, kH >> 2, 3, [&](int l, int x, int y) {
    return m.texel[l + 2][y * m.width[l + 2] + x];
  });

  /* Probes: levels and gradients from below level 0 to past the last. */
  std::vector<float4> probes;
  for (int i = 0; i < 32; ++i)
    probes.push_back(make_float4(0.03f + 0.031f * i, 0.97f - 0.029f * i, -0.5f + 0.23f * i,
                                 0.004f * (1 << (i % 9)) * (1.0f + 0.1f * (i % 3))));
  CUdeviceptr dprobe, dlod, dgrad;
  CU(cuMemAlloc(&dprobe, probes.size() * sizeof(float4)));
  CU(cuMemAlloc(&dlod, probes.size() * sizeof(float)));
  CU(cuMemAlloc(&dgrad, probes.size() * sizeof(float)));
  CU(cuMemcpyHtoD(dprobe, probes.data(), probes.size() * sizeof(float4)));
  const MipSampler s = {true, true, 0.25f, 0.5f, 4.0f};
  for (int pass = 0; pass < 2; ++pass) {
    const MipLevels &ref = pass ? sub : m;
    fetch_mips<<<1, static_cast<unsigned>(probes.size())>>>(
        pass ? view : tex, reinterpret_cast<const float4 *>(dprobe),
        reinterpret_cast<float *>(dlod), reinterpret_cast<float *>(dgrad));
    CU(cuCtxSynchronize());
    std::vector<float> lod(probes.size()), grad(probes.size());
    CU(cuMemcpyDtoH(lod.data(), dlod, lod.size() * sizeof(float)));
    CU(cuMemcpyDtoH(grad.data(), dgrad, grad.size() * sizeof(float)));
    for (size_t i = 0; i < probes.size(); ++i) {
      const float4 p = probes[i];
      const float want_lod = ref_lod(ref, s, p.x, p.y, p.z);
      const float want_grad = ref_grad(ref, s, p.x, p.y, p.w, 0.0f, 0.0f, 0.5f * p.w);
      if (!ref_close(lod[i], want_lod) || !ref_close(grad[i], want_grad)) {
        std::fprintf(stderr, "%s probe %zu: lod %.9g (want %.9g), grad %.9g (want %.9g)\n",
                     pass ? "view" : "texture", i, lod[i], want_lod, grad[i], want_grad);
        ++check_failures;
      }
    }
  }

  /* Ordinary arrays are not sparse, deferred-mapping or multi-planar. */
  CUDA_ARRAY_SPARSE_PROPERTIES sparse;
  CUDA_ARRAY_MEMORY_REQUIREMENTS req;
  CUarray level0 = nullptr, plane = nullptr;
  CU(cuMipmappedArrayGetLevel(&level0, mip, 0));
  CHECK(cuMipmappedArrayGetSparseProperties(&sparse, mip) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuMipmappedArrayGetMemoryRequirements(&req, mip, dev) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuArrayGetSparseProperties(&sparse, level0) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuArrayGetMemoryRequirements(&req, level0, dev) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuArrayGetPlane(&plane, level0, 0) == CUDA_ERROR_INVALID_VALUE);

  /* A view of a level past the last is invalid. */
  vd.lastMipmapLevel = kLevels;
  CUtexObject bad = 0;
  CHECK(cuTexObjectCreate(&bad, &rd, &td, &vd) == CUDA_ERROR_INVALID_VALUE);

  formats();

  CU(cuTexObjectDestroy(tex));
  CU(cuTexObjectDestroy(view));
  CU(cuMipmappedArrayDestroy(mip));
#ifdef __CUEMU__
  /* cuemu refuses a handle that was destroyed (CUDA leaves it undefined). */
  CHECK(cuMipmappedArrayGetLevel(&past, mip, 0) != CUDA_SUCCESS);
#endif
  CU(cuMemFree(dprobe));
  CU(cuMemFree(dlod));
  CU(cuMemFree(dgrad));
  CU(cuDevicePrimaryCtxRelease(dev));
  return finish();
}
