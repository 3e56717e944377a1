/*
 * tex_filtering.cu: texture fetches of 1D, 2D and 3D arrays and of pitched
 * and linear memory, checked bit for bit against values worked out by hand
 * from the Programming Guide's rules (appendix "Texture Fetching"):
 * nearest point T[floor(x)]; linear (1-a)T[i] + aT[i+1] with i =
 * floor(x - 0.5) and a = frac(x - 0.5) rounded to 8 fractional bits; every
 * address mode (wrap and mirror with normalized coordinates; clamp and
 * border); element and normalized-float read modes of 8-, 16- and 32-bit
 * integers and of half and float channels.
 *
 * The texel values are chosen so that every expected value is exact in
 * single precision: where the 9-bit weight differs from the exact fraction
 * (x = 1.3 gives a = 205/256, not 0.8), the expected value says so.
 */
#include <cmath>
#include <cstdio>

#include "tex_common.cuh"

/* A 1D float array of 4 texels: 0, 256, 512, 1024. */
static cudaArray_t float_array_1d() {
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t a = nullptr;
  CHECK(cudaMallocArray(&a, &fd, 4) == cudaSuccess);
  const float t[4] = {0, 256, 512, 1024};
  CHECK(cudaMemcpy2DToArray(a, 0, 0, t, sizeof t, sizeof t, 1,
                            cudaMemcpyHostToDevice) == cudaSuccess);
  return a;
}

static void unnormalized_1d(cudaArray_t a) {
  cudaTextureObject_t point = make_texture(
      a, tex_desc(cudaAddressModeClamp, cudaFilterModePoint,
                  cudaReadModeElementType, 0));
  const Probe pp[] = {{2.9f}, {-3.0f}, {7.0f}, {0.0f}, {1.0f}, {3.99f}};
  const float pe[] = {512, 0, 1024, 0, 256, 1024};
  expect_floats<Tex1D>("1D point clamp", point, pp, pe, 6);

  cudaTextureObject_t linear = make_texture(
      a, tex_desc(cudaAddressModeClamp, cudaFilterModeLinear,
                  cudaReadModeElementType, 0));
  /* x = 1.0: xB 0.5, a = 128/256: 128. x = 1.3: a = 204.8 -> 205/256:
   * 205 (not 204.8). x = 2.1: i 1, a = 153.6 -> 154: 102 + 308 = 410.
   * x = 3.2: i 2, a = 179.2 -> 179: 77*2 + 179*4 = 870 (not 870.4).
   * x = 4.3 and x = 0.2 clamp to the end texels. */
  const Probe lp[] = {{1.0f}, {1.3f}, {2.1f}, {3.2f}, {4.3f}, {0.2f}, {0.5f}};
  const float le[] = {128, 205, 410, 870, 1024, 0, 0};
  expect_floats<Tex1D>("1D linear clamp", linear, lp, le, 7);

  /* Border: texels outside read the border colour (-1, ...). x = 0.25:
   * i -1, a = 192/256: 64/256 * -1 + 0 = -0.25. Point at 4.5: border. */
  cudaTextureDesc bd = tex_desc(cudaAddressModeBorder, cudaFilterModeLinear,
                                cudaReadModeElementType, 0);
  bd.borderColor[0] = -1.0f;
  cudaTextureObject_t border = make_texture(a, bd);
  const Probe bp[] = {{0.25f}, {4.5f}, {4.0f}, {2.0f}};
  /* x = 4.0: i 3, a = 0.5: 0.5 * 1024 + 0.5 * -1 = 511.5. */
  const float be[] = {-0.25f, -1.0f, 511.5f, 384.0f};
  expect_floats<Tex1D>("1D linear border", border, bp, be, 4);
  bd.filterMode = cudaFilterModePoint;
  cudaTextureObject_t border_point = make_texture(a, bd);
  const Probe bpp[] = {{-0.5f}, {4.0f}, {3.5f}};
  const float bpe[] = {-1.0f, -1.0f, 1024.0f};
  expect_floats<Tex1D>("1D point border", border_point, bpp, bpe, 3);

  /* Wrap and mirror with unnormalized coordinates act as clamp. */
  cudaTextureObject_t wrap_unnorm = make_texture(
      a, tex_desc(cudaAddressModeWrap, cudaFilterModePoint,
                  cudaReadModeElementType, 0));
  const Probe wp[] = {{5.0f}, {-1.0f}};
  const float we[] = {1024, 0};
  expect_floats<Tex1D>("1D wrap unnormalized", wrap_unnorm, wp, we, 2);
  for (cudaTextureObject_t t : {point, linear, border, border_point,
                                wrap_unnorm})
    CHECK(cudaDestroyTextureObject(t) == cudaSuccess);
}

static void normalized_1d(cudaArray_t a) {
  /* Wrap: x -> frac(x), then x * 4 texels. Point 1.125 -> 0.125 -> 0.5:
   * T0; -0.125 -> 0.875 -> 3.5: T3. Linear 0.0 -> u 0, xB -0.5: i -1
   * (wraps to 3), a = 0.5: 512; 1.125 -> xB 0: T0. */
  cudaTextureObject_t wp = make_texture(
      a, tex_desc(cudaAddressModeWrap, cudaFilterModePoint,
                  cudaReadModeElementType, 1));
  const Probe wpp[] = {{1.125f}, {-0.125f}, {0.5f}, {2.375f}};
  const float wpe[] = {0, 1024, 512, 256};
  expect_floats<Tex1D>("1D point wrap", wp, wpp, wpe, 4);
  cudaTextureObject_t wl = make_texture(
      a, tex_desc(cudaAddressModeWrap, cudaFilterModeLinear,
                  cudaReadModeElementType, 1));
  const Probe wlp[] = {{0.0f}, {1.125f}, {-0.125f}, {0.9375f}};
  /* 0.9375 -> u 3.75, xB 3.25: i 3, a = 64: 192/256 * 1024 + 64/256 * T0 =
   * 768. */
  const float wle[] = {512, 0, 1024, 768};
  expect_floats<Tex1D>("1D linear wrap", wl, wlp, wle, 4);

  /* Mirror: frac(x) when floor(x) is even, 1 - frac(x) when odd. Point
   * 1.25 -> 0.75 -> 3: T3; -0.25 -> 0.25 -> 1: T1. Linear 0.0: i -1
   * mirrors to 0: T0 = 0; 1.0 -> floor 1 odd -> 1.0 -> u 4, xB 3.5: T3 and
   * T4 (mirrors to 3): 1024. */
  cudaTextureObject_t mp = make_texture(
      a, tex_desc(cudaAddressModeMirror, cudaFilterModePoint,
                  cudaReadModeElementType, 1));
  const Probe mpp[] = {{1.25f}, {-0.25f}, {2.6f}};
  /* 2.6 -> floor 2 even -> 0.6 -> 2.4: T2. */
  const float mpe[] = {1024, 256, 512};
  expect_floats<Tex1D>("1D point mirror", mp, mpp, mpe, 3);
  cudaTextureObject_t ml = make_texture(
      a, tex_desc(cudaAddressModeMirror, cudaFilterModeLinear,
                  cudaReadModeElementType, 1));
  const Probe mlp[] = {{0.0f}, {1.0f}, {1.5f}};
  /* 1.5 -> floor 1 odd -> 0.5 -> 2.0, xB 1.5: 0.5*256 + 0.5*512 = 384. */
  const float mle[] = {0, 1024, 384};
  expect_floats<Tex1D>("1D linear mirror", ml, mlp, mle, 3);

  /* Clamp, normalized: 0.3 -> 1.2, xB 0.7: a = 179: 179; -1 -> T0;
   * 2 -> T3. */
  cudaTextureObject_t cl = make_texture(
      a, tex_desc(cudaAddressModeClamp, cudaFilterModeLinear,
                  cudaReadModeElementType, 1));
  const Probe clp[] = {{0.3f}, {-1.0f}, {2.0f}};
  const float cle[] = {179, 0, 1024};
  expect_floats<Tex1D>("1D linear clamp normalized", cl, clp, cle, 3);
  for (cudaTextureObject_t t : {wp, wl, mp, ml, cl})
    CHECK(cudaDestroyTextureObject(t) == cudaSuccess);
}

/* Reads an unsigned char texture as normalized floats and as elements. */
struct Tex1DUchar {
  __device__ float operator()(cudaTextureObject_t t, const Probe &p) const {
    return (float)tex1D<unsigned char>(t, p.x);
  }
};
struct Tex1DShortAsInt {
  __device__ float operator()(cudaTextureObject_t t, const Probe &p) const {
    return (float)tex1D<int>(t, p.x);
  }
};

template <class T>
static cudaArray_t array_1d(const T *values, int n,
                            cudaChannelFormatDesc fd) {
  cudaArray_t a = nullptr;
  CHECK(cudaMallocArray(&a, &fd, n) == cudaSuccess);
  CHECK(cudaMemcpy2DToArray(a, 0, 0, values, n * sizeof(T), n * sizeof(T), 1,
                            cudaMemcpyHostToDevice) == cudaSuccess);
  return a;
}

static void read_modes() {
  /* 8-bit unsigned: v / 255. */
  const unsigned char u8[4] = {0, 255, 51, 204};
  cudaArray_t a8 = array_1d(u8, 4, cudaCreateChannelDesc<unsigned char>());
  cudaTextureObject_t n8 = make_texture(
      a8, tex_desc(cudaAddressModeClamp, cudaFilterModeLinear,
                   cudaReadModeNormalizedFloat, 0));
  /* 1.5 -> 1.0; 2.5 -> 51/255 = 0.2; 1.0 -> (0 + 1) / 2; 1.25 -> a 192:
   * 0.75. */
  const Probe p8[] = {{0.5f}, {1.5f}, {2.5f}, {1.0f}, {1.25f}};
  const float e8[] = {0.0f, 1.0f, 51.0f / 255.0f, 0.5f, 0.75f};
  expect_floats<Tex1D>("uchar normalized", n8, p8, e8, 5);
  cudaTextureObject_t el8 = make_texture(
      a8, tex_desc(cudaAddressModeClamp, cudaFilterModePoint,
                   cudaReadModeElementType, 0));
  const Probe q8[] = {{1.5f}, {3.5f}};
  const float f8[] = {255, 204};
  expect_floats<Tex1DUchar>("uchar element", el8, q8, f8, 2);

  /* 8-bit signed: v / 127, with -128 clamped to -1. */
  const signed char s8[4] = {-128, -127, 127, 0};
  cudaArray_t as8 = array_1d(s8, 4, cudaCreateChannelDesc<signed char>());
  cudaTextureObject_t ns8 = make_texture(
      as8, tex_desc(cudaAddressModeClamp, cudaFilterModePoint,
                    cudaReadModeNormalizedFloat, 0));
  const Probe ps8[] = {{0.5f}, {1.5f}, {2.5f}, {3.5f}};
  const float es8[] = {-1.0f, -1.0f, 1.0f, 0.0f};
  expect_floats<Tex1D>("schar normalized", ns8, ps8, es8, 4);

  /* 16-bit: v / 65535 and v / 32767; element reads sign-extend. */
  const unsigned short u16[2] = {65535, 0};
  cudaArray_t a16 = array_1d(u16, 2, cudaCreateChannelDesc<unsigned short>());
  cudaTextureObject_t n16 = make_texture(
      a16, tex_desc(cudaAddressModeClamp, cudaFilterModeLinear,
                    cudaReadModeNormalizedFloat, 0));
  const Probe p16[] = {{0.5f}, {1.5f}, {1.0f}};
  const float e16[] = {1.0f, 0.0f, 0.5f};
  expect_floats<Tex1D>("ushort normalized", n16, p16, e16, 3);
  const short s16[2] = {-5, 32767};
  cudaArray_t as16 = array_1d(s16, 2, cudaCreateChannelDesc<short>());
  cudaTextureObject_t es = make_texture(
      as16, tex_desc(cudaAddressModeClamp, cudaFilterModePoint,
                     cudaReadModeElementType, 0));
  const Probe ps16[] = {{0.5f}, {1.5f}};
  const float fs16[] = {-5.0f, 32767.0f};
  expect_floats<Tex1DShortAsInt>("short element", es, ps16, fs16, 2);
  cudaTextureObject_t ns16 = make_texture(
      as16, tex_desc(cudaAddressModeClamp, cudaFilterModePoint,
                     cudaReadModeNormalizedFloat, 0));
  const float gs16[] = {-5.0f / 32767.0f, 1.0f};
  expect_floats<Tex1D>("short normalized", ns16, ps16, gs16, 2);

  /* Half channels read as floats; linear filtering works on them. */
  const unsigned short h[2] = {0x3C00u, 0xC000u}; /* 1.0, -2.0 */
  cudaArray_t ah = array_1d(h, 2, cudaCreateChannelDescHalf());
  cudaTextureObject_t th = make_texture(
      ah, tex_desc(cudaAddressModeClamp, cudaFilterModeLinear,
                   cudaReadModeElementType, 0));
  const Probe ph[] = {{0.5f}, {1.5f}, {1.0f}};
  const float eh[] = {1.0f, -2.0f, -0.5f};
  expect_floats<Tex1D>("half", th, ph, eh, 3);

  /* 32-bit integers cannot be read as normalized floats, and integer
   * element reads cannot be filtered linearly. */
  const int i32[1] = {7};
  cudaArray_t a32 = array_1d(i32, 1, cudaCreateChannelDesc<int>());
  cudaResourceDesc r = array_resource(a32);
  cudaTextureObject_t bad = 0;
  cudaTextureDesc d = tex_desc(cudaAddressModeClamp, cudaFilterModePoint,
                               cudaReadModeNormalizedFloat, 0);
  CHECK(cudaCreateTextureObject(&bad, &r, &d, nullptr) ==
        cudaErrorInvalidValue);
  d = tex_desc(cudaAddressModeClamp, cudaFilterModeLinear,
               cudaReadModeElementType, 0);
  r = array_resource(a8);
  CHECK(cudaCreateTextureObject(&bad, &r, &d, nullptr) ==
        cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);

  for (cudaTextureObject_t t : {n8, el8, ns8, n16, es, ns16, th})
    CHECK(cudaDestroyTextureObject(t) == cudaSuccess);
  for (cudaArray_t x : {a8, as8, a16, as16, ah, a32})
    CHECK(cudaFreeArray(x) == cudaSuccess);
}

/* sRGB: the colour channels of an 8-bit unsigned texture read as
 * normalized floats go from sRGB to linear (c / 12.92 up to 0.04045, else
 * ((c + 0.055) / 1.055)^2.4); alpha does not. */
struct Tex1DRgba {
  __device__ float operator()(cudaTextureObject_t t, const Probe &p) const {
    float4 v = tex1D<float4>(t, p.x);
    return p.layer == 0 ? v.x : p.layer == 1 ? v.y : p.layer == 2 ? v.z : v.w;
  }
};

static float srgb(unsigned char v) {
  double c = (float)v / 255.0f;
  return (float)(c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4));
}

static void srgb_and_normalized_kinds() {
  const uchar4 texel[1] = {make_uchar4(10, 128, 255, 128)};
  cudaArray_t a = array_1d(texel, 1, cudaCreateChannelDesc<uchar4>());
  cudaTextureDesc d = tex_desc(cudaAddressModeClamp, cudaFilterModePoint,
                               cudaReadModeNormalizedFloat, 0);
  d.sRGB = 1;
  cudaTextureObject_t t = make_texture(a, d);
  const Probe p[] = {{0.5f, 0, 0, 0}, {0.5f, 0, 0, 1}, {0.5f, 0, 0, 2},
                     {0.5f, 0, 0, 3}};
  const float e[] = {srgb(10), srgb(128), 1.0f, 128.0f / 255.0f};
  /* Worked out: 10 -> 0.0030352698; 128 -> 0.2158605. */
  CHECK(std::fabs(e[0] - 0.0030352698f) < 1e-9f);
  CHECK(std::fabs(e[1] - 0.2158605f) < 1e-6f);
  expect_floats<Tex1DRgba>("sRGB", t, p, e, 4);
  /* A normalized kind reads as normalized floats in either read mode. */
  const unsigned char n8[2] = {0, 51};
  cudaChannelFormatDesc nd =
      cudaCreateChannelDesc<cudaChannelFormatKindUnsignedNormalized8X1>();
  cudaArray_t an = array_1d(n8, 2, nd);
  cudaTextureObject_t tn = make_texture(
      an, tex_desc(cudaAddressModeClamp, cudaFilterModeLinear,
                   cudaReadModeElementType, 0));
  const Probe pn[] = {{1.5f}, {1.0f}};
  const float en[] = {0.2f, 0.1f};
  expect_floats<Tex1D>("UnsignedNormalized8X1", tn, pn, en, 2);
  CHECK(cudaDestroyTextureObject(t) == cudaSuccess);
  CHECK(cudaDestroyTextureObject(tn) == cudaSuccess);
  CHECK(cudaFreeArray(a) == cudaSuccess);
  CHECK(cudaFreeArray(an) == cudaSuccess);
}

static void two_d() {
  /* 2x2: row 0 = 0, 256; row 1 = 512, 1024. (1, 1): all weights 1/4: 448.
   * (0.75, 1.25): a 64, b 192: 64*64/65536*256 + 192*192/65536*512 +
   * 64*192/65536*1024 = 16 + 288 + 192 = 496. */
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t a = nullptr;
  CHECK(cudaMallocArray(&a, &fd, 2, 2) == cudaSuccess);
  const float t[4] = {0, 256, 512, 1024};
  CHECK(cudaMemcpy2DToArray(a, 0, 0, t, 2 * sizeof(float), 2 * sizeof(float),
                            2, cudaMemcpyHostToDevice) == cudaSuccess);
  cudaTextureObject_t lin = make_texture(
      a, tex_desc(cudaAddressModeClamp, cudaFilterModeLinear,
                  cudaReadModeElementType, 0));
  const Probe p[] = {{1.0f, 1.0f}, {0.75f, 1.25f}, {1.5f, 0.5f},
                     {5.0f, -3.0f}};
  const float e[] = {448, 496, 256, 256};
  expect_floats<Tex2D>("2D linear", lin, p, e, 4);
  /* Border in y only: (1.5, 2.0) -> rows 1 and 2 (border 100): texel
   * (1,1) 1024 and border: (1024 + 100) / 2 = 562. */
  cudaTextureDesc d = tex_desc(cudaAddressModeClamp, cudaFilterModeLinear,
                               cudaReadModeElementType, 0);
  d.addressMode[1] = cudaAddressModeBorder;
  d.borderColor[0] = 100.0f;
  cudaTextureObject_t mixed = make_texture(a, d);
  const Probe pm[] = {{1.5f, 2.0f}, {-4.0f, 0.5f}};
  const float em[] = {562, 0};
  expect_floats<Tex2D>("2D clamp x, border y", mixed, pm, em, 2);

  /* Pitched memory: 3 x 2 floats, rows 512 bytes apart. */
  float *pitched = nullptr;
  size_t pitch = 0;
  CHECK(cudaMallocPitch(&pitched, &pitch, 3 * sizeof(float), 2) ==
        cudaSuccess);
  const float rows[6] = {1, 2, 3, 4, 5, 6};
  CHECK(cudaMemcpy2D(pitched, pitch, rows, 3 * sizeof(float), 3 * sizeof(float),
                     2, cudaMemcpyHostToDevice) == cudaSuccess);
  cudaResourceDesc r;
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypePitch2D;
  r.res.pitch2D.devPtr = pitched;
  r.res.pitch2D.desc = fd;
  r.res.pitch2D.width = 3;
  r.res.pitch2D.height = 2;
  r.res.pitch2D.pitchInBytes = pitch;
  cudaTextureObject_t tp = 0;
  d = tex_desc(cudaAddressModeClamp, cudaFilterModeLinear,
               cudaReadModeElementType, 0);
  CHECK(cudaCreateTextureObject(&tp, &r, &d, nullptr) == cudaSuccess);
  /* (2, 1): (2 + 3 + 5 + 6) / 4 = 4. (2.5, 1.5): texel (2, 1) = 6. */
  const Probe pp[] = {{2.0f, 1.0f}, {2.5f, 1.5f}, {0.5f, 0.5f}};
  const float ep[] = {4, 6, 1};
  expect_floats<Tex2D>("pitch2D linear", tp, pp, ep, 3);
  for (cudaTextureObject_t x : {lin, mixed, tp})
    CHECK(cudaDestroyTextureObject(x) == cudaSuccess);
  CHECK(cudaFreeArray(a) == cudaSuccess);
  CHECK(cudaFree(pitched) == cudaSuccess);
}

static void three_d() {
  /* 2x2x2 with T(x, y, z) = 64 * (x + 2y + 4z): trilinear filtering of a
   * linear function gives it back at the weights: (1.25, 0.75, 1.0) ->
   * fractions 0.75, 0.25, 0.5 -> 64 * (0.75 + 0.5 + 2) = 208. */
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t a = nullptr;
  CHECK(cudaMalloc3DArray(&a, &fd, make_cudaExtent(2, 2, 2)) == cudaSuccess);
  float t[8];
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 2; ++x)
        t[(z * 2 + y) * 2 + x] = 64.0f * (x + 2 * y + 4 * z);
  cudaMemcpy3DParms cp;
  std::memset(&cp, 0, sizeof cp);
  cp.srcPtr = make_cudaPitchedPtr(t, 2 * sizeof(float), 2, 2);
  cp.dstArray = a;
  cp.extent = make_cudaExtent(2, 2, 2);
  cp.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&cp) == cudaSuccess);
  cudaTextureObject_t lin = make_texture(
      a, tex_desc(cudaAddressModeClamp, cudaFilterModeLinear,
                  cudaReadModeElementType, 0));
  const Probe p[] = {{1.0f, 1.0f, 1.0f}, {1.25f, 0.75f, 1.0f},
                     {1.5f, 1.5f, 0.5f}, {0.3f, 0.5f, 1.5f}};
  /* (0.3, 0.5, 1.5): x clamps to texel 0 on both sides: 64 * (0 + 0 + 4). */
  const float e[] = {224, 208, 64 * 3, 256};
  expect_floats<Tex3D>("3D linear", lin, p, e, 4);
  cudaTextureObject_t wrap = make_texture(
      a, tex_desc(cudaAddressModeWrap, cudaFilterModePoint,
                  cudaReadModeElementType, 1));
  const Probe pw[] = {{1.75f, -0.25f, 2.5f}};
  /* -> (0.75, 0.75, 0.5) * 2 = (1.5, 1.5, 1.0): texel (1, 1, 1) = 448. */
  const float ew[] = {448};
  expect_floats<Tex3D>("3D point wrap", wrap, pw, ew, 1);
  CHECK(cudaDestroyTextureObject(lin) == cudaSuccess);
  CHECK(cudaDestroyTextureObject(wrap) == cudaSuccess);
  CHECK(cudaFreeArray(a) == cudaSuccess);
}

/* tex1Dfetch over linear memory: no filtering; out of range reads zero. */
struct Fetch1D {
  __device__ float operator()(cudaTextureObject_t t, const Probe &p) const {
    return tex1Dfetch<float>(t, (int)p.x);
  }
};

static void linear_memory() {
  float *d = nullptr;
  CHECK(cudaMalloc(&d, 8 * sizeof(float)) == cudaSuccess);
  const float v[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  CHECK(cudaMemcpy(d, v, sizeof v, cudaMemcpyHostToDevice) == cudaSuccess);
  cudaResourceDesc r;
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeLinear;
  r.res.linear.devPtr = d;
  r.res.linear.desc = cudaCreateChannelDesc<float>();
  r.res.linear.sizeInBytes = sizeof v;
  cudaTextureDesc td = tex_desc(cudaAddressModeClamp, cudaFilterModePoint,
                                cudaReadModeElementType, 0);
  cudaTextureObject_t t = 0;
  CHECK(cudaCreateTextureObject(&t, &r, &td, nullptr) == cudaSuccess);
  const Probe p[] = {{0}, {7}, {8}, {-1}, {3}};
  const float e[] = {1, 8, 0, 0, 4};
  expect_floats<Fetch1D>("tex1Dfetch", t, p, e, 5);
  cudaResourceDesc back;
  CHECK(cudaGetTextureObjectResourceDesc(&back, t) == cudaSuccess);
  CHECK(back.resType == cudaResourceTypeLinear && back.res.linear.devPtr == d &&
        back.res.linear.sizeInBytes == sizeof v);
  /* A pointer off the texture alignment (512 bytes) is refused. */
  r.res.linear.devPtr = d + 1;
  cudaTextureObject_t off = 0;
  CHECK(cudaCreateTextureObject(&off, &r, &td, nullptr) ==
        cudaErrorInvalidValue);
  CHECK(cudaDestroyTextureObject(t) == cudaSuccess);
  CHECK(cudaDestroyTextureObject(t) == cudaErrorInvalidValue);
  CHECK(cudaFree(d) == cudaSuccess);
}

int main() {
  cudaGetLastError();
  cudaArray_t a = float_array_1d();
  unnormalized_1d(a);
  normalized_1d(a);
  CHECK(cudaFreeArray(a) == cudaSuccess);
  read_modes();
  srgb_and_normalized_kinds();
  two_d();
  three_d();
  linear_memory();
  return finish();
}
