/*
 * cuda_fp8.h in kernel and host code: __nv_cvt_float_to_fp8 with both saturation modes and
 * both formats, the constructors (which saturate), the pairs' and quadruples' packing order,
 * the conversions back (through __half_raw) and the integer operators. The expected bytes are
 * what NVIDIA's own host implementation of cuda_fp8.hpp gives (CUDA 13.0), which a GPU's
 * cvt.rn.satfinite matches: ties to even (1.0625 -> 1.0, 1.1875 -> 1.25), 464 (halfway
 * above E4M3's 448) -> 448, infinity -> the largest finite value when saturating, NaN -> 0x7F.
 * __nv_fp8_e8m0 (scale factors, rounded toward zero or up) and CCCL's numeric_limits of the
 * FP8 types, which were 0 (CCCL was configured without FP8), are checked too.
 * Before cuemu emulated FP8, cuda_fp8.h only declared the types ("incomplete type").
 */
#include <cuda/std/limits>
#include <cuda_fp8.h>
#include <cstring>

#include "../check.cuh"

struct row {
  unsigned in;   /* a float's bits */
  unsigned char e4m3_sat, e4m3_nosat, e5m2_sat, e5m2_nosat;
};

static const row table[] = {
    {0x00000000u, 0x00, 0x00, 0x00, 0x00}, {0x80000000u, 0x80, 0x80, 0x80, 0x80},
    {0x3f800000u, 0x38, 0x38, 0x3c, 0x3c}, {0xbf800000u, 0xb8, 0xb8, 0xbc, 0xbc},
    {0x3f880000u, 0x38, 0x38, 0x3c, 0x3c}, {0x3f980000u, 0x3a, 0x3a, 0x3d, 0x3d},
    {0x40490fdbu, 0x45, 0x45, 0x42, 0x42}, {0x43e00000u, 0x7e, 0x7e, 0x5f, 0x5f},
    {0x43e80000u, 0x7e, 0x7e, 0x5f, 0x5f}, {0x43e88000u, 0x7e, 0x7f, 0x5f, 0x5f},
    {0x43f00000u, 0x7e, 0x7f, 0x60, 0x60}, {0xc47a0000u, 0xfe, 0xff, 0xe4, 0xe4},
    {0x47600000u, 0x7e, 0x7f, 0x7b, 0x7b}, {0x476fff00u, 0x7e, 0x7f, 0x7b, 0x7b},
    {0x47700000u, 0x7e, 0x7f, 0x7b, 0x7c}, {0x49742400u, 0x7e, 0x7f, 0x7b, 0x7c},
    {0x3a800000u, 0x00, 0x00, 0x14, 0x14}, {0x3ac00000u, 0x01, 0x01, 0x16, 0x16},
    {0x3b400000u, 0x02, 0x02, 0x1a, 0x1a}, {0x37800000u, 0x00, 0x00, 0x01, 0x01},
    {0x37c00000u, 0x00, 0x00, 0x02, 0x02}, {0x37000000u, 0x00, 0x00, 0x00, 0x00},
    {0x38800000u, 0x00, 0x00, 0x04, 0x04}, {0x3dcccccdu, 0x1d, 0x1d, 0x2e, 0x2e},
    {0xbe99999au, 0xaa, 0xaa, 0xb5, 0xb5}, {0x7f7fffffu, 0x7e, 0x7f, 0x7b, 0x7c},
    {0x7f800000u, 0x7e, 0x7f, 0x7b, 0x7c}, {0xff800000u, 0xfe, 0xff, 0xfb, 0xfc},
    {0x7fc00000u, 0x7f, 0x7f, 0x7f, 0x7f}, {0xffc00000u, 0x7f, 0x7f, 0x7f, 0x7f},
    {0x43700000u, 0x77, 0x77, 0x5c, 0x5c}, {0x43680000u, 0x76, 0x76, 0x5b, 0x5b},
    {0x3c600000u, 0x07, 0x07, 0x23, 0x23}, {0x3c800000u, 0x08, 0x08, 0x24, 0x24},
    {0x418c0000u, 0x59, 0x59, 0x4c, 0x4c}, {0xc2c00000u, 0xec, 0xec, 0xd6, 0xd6},
};
static const int rows = sizeof table / sizeof table[0];

/* E8M0: a float's bits, then RZ/NOSAT, RZ/SATFINITE, RP/NOSAT, RP/SATFINITE. */
static const row e8m0_table[] = {
    {0x3f800000u, 0x7f, 0x7f, 0x7f, 0x7f}, {0x3fc00000u, 0x7f, 0x7f, 0x80, 0x80},
    {0x40400000u, 0x80, 0x80, 0x81, 0x81}, {0x3f400000u, 0x7e, 0x7e, 0x7f, 0x7f},
    {0xc0c00000u, 0x81, 0x81, 0x82, 0x82}, {0x000ae398u, 0x00, 0x00, 0x00, 0x00},
    {0x00400000u, 0x00, 0x00, 0x00, 0x00}, {0x7e967699u, 0xfd, 0xfd, 0xfe, 0xfe},
    {0x7f61b1e6u, 0xfe, 0xfe, 0xff, 0xfe}, {0x7f800000u, 0xff, 0xfe, 0xff, 0xfe},
    {0x7fc00000u, 0xff, 0xff, 0xff, 0xff}, {0x00000000u, 0x00, 0x00, 0x00, 0x00},
};
static const int e8m0_rows = sizeof e8m0_table / sizeof e8m0_table[0];

__global__ void scales(const float *in, unsigned char *out, int n, float *limits) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[4 * i + 0] = __nv_cvt_float_to_e8m0(in[i], __NV_NOSAT, cudaRoundZero);
    out[4 * i + 1] = __nv_cvt_float_to_e8m0(in[i], __NV_SATFINITE, cudaRoundZero);
    out[4 * i + 2] = __nv_cvt_float_to_e8m0(in[i], __NV_NOSAT, cudaRoundPosInf);
    out[4 * i + 3] = __nv_cvt_float_to_e8m0(in[i], __NV_SATFINITE, cudaRoundPosInf);
  }
  if (i == 0) {
    limits[0] = float(cuda::std::numeric_limits<__nv_fp8_e4m3>::max());
    limits[1] = float(cuda::std::numeric_limits<__nv_fp8_e5m2>::max());
    limits[2] = float(cuda::std::numeric_limits<__nv_fp8_e4m3>::lowest());
    limits[3] = float(cuda::std::numeric_limits<__nv_fp8_e4m3>::min());
    limits[4] = float(__nv_fp8_e8m0(1000));   /* integers round up: 1024 */
    limits[5] = float(__nv_fp8_e8m0(-0.3));   /* the magnitude: 0.5 */
  }
}

struct result {
  unsigned char cvt[4];   /* the four columns of the table */
  unsigned char ctor[2];  /* __nv_fp8_e4m3(f), __nv_fp8_e5m2(f) */
  float back[2];          /* float() of the constructed values */
};

__global__ void convert(const float *in, result *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float f = in[i];
  result r;
  r.cvt[0] = __nv_cvt_float_to_fp8(f, __NV_SATFINITE, __NV_E4M3);
  r.cvt[1] = __nv_cvt_float_to_fp8(f, __NV_NOSAT, __NV_E4M3);
  r.cvt[2] = __nv_cvt_float_to_fp8(f, __NV_SATFINITE, __NV_E5M2);
  r.cvt[3] = __nv_cvt_float_to_fp8(f, __NV_NOSAT, __NV_E5M2);
  __nv_fp8_e4m3 a(f);
  __nv_fp8_e5m2 b(f);
  r.ctor[0] = a.__x;
  r.ctor[1] = b.__x;
  r.back[0] = float(a);
  r.back[1] = float(b);
  out[i] = r;
}

__global__ void packed(unsigned *x4, unsigned short *x2, int *ints, unsigned short *halves) {
  __nv_fp8x4_e4m3 q(make_float4(1.f, -2.f, 500.f, 0.5f));
  __nv_fp8x2_e5m2 p(make_float2(3.f, -0.25f));
  *x4 = q.__x;
  *x2 = p.__x;
  __nv_fp8_e4m3 a(-300.f), b(200);
  ints[0] = (int)a;
  ints[1] = (unsigned char)a;
  ints[2] = (signed char)b;
  ints[3] = (unsigned char)b;
  halves[0] = __nv_cvt_fp8_to_halfraw(0x01, __NV_E4M3).x;
  halves[1] = __nv_cvt_fp8_to_halfraw(0x7f, __NV_E4M3).x;
  halves[2] = __nv_cvt_fp8_to_halfraw(0xfe, __NV_E4M3).x;
  halves[3] = __nv_cvt_fp8_to_halfraw(0x83, __NV_E5M2).x;
  halves[4] = __nv_cvt_double_to_fp8(-__builtin_nan(""), __NV_SATFINITE, __NV_E5M2);
}

static float as_float(unsigned u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

int main() {
  CHECK(sizeof(__nv_fp8_e4m3) == 1 && sizeof(__nv_fp8x2_e5m2) == 2 && sizeof(__nv_fp8x4_e4m3) == 4);
  float hin[rows];
  for (int i = 0; i < rows; ++i) hin[i] = as_float(table[i].in);
  float *din;
  result *dout;
  cudaMalloc(&din, sizeof hin);
  cudaMalloc(&dout, rows * sizeof(result));
  cudaMemcpy(din, hin, sizeof hin, cudaMemcpyHostToDevice);
  convert<<<1, 64>>>(din, dout, rows);
  result out[rows];
  CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int i = 0; i < rows; ++i) {
    const row &t = table[i];
    const unsigned char want[4] = {t.e4m3_sat, t.e4m3_nosat, t.e5m2_sat, t.e5m2_nosat};
    for (int c = 0; c < 4; ++c) {
      if (out[i].cvt[c] != want[c])
        std::fprintf(stderr, "input 0x%08x column %d: 0x%02x, expected 0x%02x\n", t.in, c,
                     out[i].cvt[c], want[c]);
      CHECK(out[i].cvt[c] == want[c]);
    }
    CHECK(out[i].ctor[0] == t.e4m3_sat && out[i].ctor[1] == t.e5m2_sat);
    /* The host compilation of the same functions agrees. */
    CHECK(__nv_cvt_float_to_fp8(hin[i], __NV_NOSAT, __NV_E4M3) == t.e4m3_nosat);
    CHECK(__nv_fp8_e5m2(hin[i]).__x == t.e5m2_sat);
  }
  /* 1.0625 (a tie) goes to 1.0; 464 saturates to 448; 2^-16 is E5M2's smallest subnormal. */
  CHECK(out[4].back[0] == 1.0f && out[8].back[0] == 448.0f && out[19].back[1] == as_float(0x37800000u));
  CHECK(out[26].back[1] == 57344.0f && out[27].back[0] == -448.0f);
  CHECK(out[28].back[0] != out[28].back[0]); /* NaN stays NaN */

  unsigned *x4;
  unsigned short *x2, *halves;
  int *ints;
  cudaMalloc(&x4, 4);
  cudaMalloc(&x2, 2);
  cudaMalloc(&ints, 4 * sizeof(int));
  cudaMalloc(&halves, 5 * sizeof(unsigned short));
  packed<<<1, 1>>>(x4, x2, ints, halves);
  unsigned hx4 = 0;
  unsigned short hx2 = 0, hh[5] = {};
  int hi[4] = {};
  cudaMemcpy(&hx4, x4, 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(&hx2, x2, 2, cudaMemcpyDeviceToHost);
  cudaMemcpy(hi, ints, sizeof hi, cudaMemcpyDeviceToHost);
  CHECK(cudaMemcpy(hh, halves, sizeof hh, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(hx4 == 0x307ec038u); /* .x in the low byte */
  CHECK(hx2 == 0xb442u);
  CHECK(hi[0] == -288 && hi[1] == 0 && hi[2] == 127 && hi[3] == 192);
  CHECK(hh[0] == 0x1800 && hh[1] == 0x7fff && hh[2] == 0xdf00 && hh[3] == 0x8300);
  CHECK(hh[4] == 0xfe); /* from double, a NaN keeps its sign */

  float e8in[e8m0_rows], *de8in, *dlimits, limits[6] = {};
  unsigned char *de8out, e8out[4 * e8m0_rows] = {};
  for (int i = 0; i < e8m0_rows; ++i) e8in[i] = as_float(e8m0_table[i].in);
  cudaMalloc(&de8in, sizeof e8in);
  cudaMalloc(&de8out, sizeof e8out);
  cudaMalloc(&dlimits, sizeof limits);
  cudaMemcpy(de8in, e8in, sizeof e8in, cudaMemcpyHostToDevice);
  scales<<<1, 32>>>(de8in, de8out, e8m0_rows, dlimits);
  cudaMemcpy(e8out, de8out, sizeof e8out, cudaMemcpyDeviceToHost);
  CHECK(cudaMemcpy(limits, dlimits, sizeof limits, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int i = 0; i < e8m0_rows; ++i) {
    const row &t = e8m0_table[i];
    const unsigned char want[4] = {t.e4m3_sat, t.e4m3_nosat, t.e5m2_sat, t.e5m2_nosat};
    for (int c = 0; c < 4; ++c) {
      if (e8out[4 * i + c] != want[c])
        std::fprintf(stderr, "e8m0 of 0x%08x column %d: 0x%02x, expected 0x%02x\n", t.in, c,
                     e8out[4 * i + c], want[c]);
      CHECK(e8out[4 * i + c] == want[c]);
    }
  }
  if (limits[0] != 448.f || limits[1] != 57344.f || limits[2] != -448.f || limits[3] != 0.015625f)
    std::fprintf(stderr, "numeric_limits: %g %g %g %g\n", limits[0], limits[1], limits[2], limits[3]);
  CHECK(limits[0] == 448.f && limits[1] == 57344.f && limits[2] == -448.f && limits[3] == 0.015625f);
  CHECK(limits[4] == 1024.f && limits[5] == 0.5f);
  return finish();
}
