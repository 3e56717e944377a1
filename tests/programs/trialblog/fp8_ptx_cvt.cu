/*
 * FP8 conversions written as inline PTX, as CUTLASS-style code for sm_89+ writes them:
 * cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32 (two floats, the first into the upper byte),
 * .f16x2 sources, and cvt.rn.f16x2.{e4m3x2,e5m2x2} back. Each result is compared with
 * cuda_fp8.h's conversion of the same value (which matches NVIDIA's host code bit for bit).
 * Before the fix, cuemu's PTX translation refused the .e4m3x2 type ("unsupported modifier").
 */
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cstring>

#include "../check.cuh"

struct out_t {
  unsigned short e4_f32, e5_f32, e4_relu, e4_f16, e5_f16;
  unsigned back_e4, back_e5;
};

__global__ void ptx_cvt(const float *x, int n, out_t *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float hi = x[i], lo = x[n - 1 - i];
  out_t o;
  asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(o.e4_f32) : "f"(hi), "f"(lo));
  asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(o.e5_f32) : "f"(hi), "f"(lo));
  asm("cvt.rn.satfinite.relu.e4m3x2.f32 %0, %1, %2;" : "=h"(o.e4_relu) : "f"(hi), "f"(lo));
  __half2 h2 = __floats2half2_rn(lo, hi); /* .x low, .y high */
  unsigned hbits;
  memcpy(&hbits, &h2, 4);
  asm("cvt.rn.satfinite.e4m3x2.f16x2 %0, %1;" : "=h"(o.e4_f16) : "r"(hbits));
  asm("cvt.rn.satfinite.e5m2x2.f16x2 %0, %1;" : "=h"(o.e5_f16) : "r"(hbits));
  asm("cvt.rn.f16x2.e4m3x2 %0, %1;" : "=r"(o.back_e4) : "h"(o.e4_f32));
  asm("cvt.rn.f16x2.e5m2x2 %0, %1;" : "=r"(o.back_e5) : "h"(o.e5_f32));
  out[i] = o;
}

static unsigned short pair(unsigned char hi, unsigned char lo) { return (unsigned short)(hi << 8 | lo); }

int main() {
  const float special[] = {0.f, -0.f, 1.0625f, -1.1875f, 464.f, 465.f, -1000.f, 61440.f, 1e-3f,
                           0.0009765625f, 3.14159265f, -2.5e-5f, __builtin_inff(), -__builtin_inff(),
                           __builtin_nanf(""), 0.1f, 240.f, -17.25f};
  const int ns = sizeof special / sizeof special[0], n = ns + 200;
  float x[n];
  for (int i = 0; i < ns; ++i) x[i] = special[i];
  for (int i = ns; i < n; ++i) x[i] = ((i * 37) % 201 - 100) * 0.173f * (float)(1 << (i % 9));
  float *dx;
  out_t *dout, out[n];
  cudaMalloc(&dx, sizeof x);
  cudaMalloc(&dout, sizeof out);
  cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice);
  ptx_cvt<<<(n + 63) / 64, 64>>>(dx, n, dout);
  CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int i = 0; i < n; ++i) {
    float hi = x[i], lo = x[n - 1 - i];
    unsigned char e4h = __nv_cvt_float_to_fp8(hi, __NV_SATFINITE, __NV_E4M3);
    unsigned char e4l = __nv_cvt_float_to_fp8(lo, __NV_SATFINITE, __NV_E4M3);
    unsigned char e5h = __nv_cvt_float_to_fp8(hi, __NV_SATFINITE, __NV_E5M2);
    unsigned char e5l = __nv_cvt_float_to_fp8(lo, __NV_SATFINITE, __NV_E5M2);
    const out_t &o = out[i];
    bool ok = o.e4_f32 == pair(e4h, e4l) && o.e5_f32 == pair(e5h, e5l);
    /* relu: a negative result is +0, NaN stays NaN. */
    unsigned char rh = (e4h & 0x80) ? ((e4h & 0x7f) == 0x7f ? 0x7f : 0) : e4h;
    unsigned char rl = (e4l & 0x80) ? ((e4l & 0x7f) == 0x7f ? 0x7f : 0) : e4l;
    ok = ok && o.e4_relu == pair(rh, rl);
    __half_raw hh = __half_raw(__float2half_rn(hi)), hl = __half_raw(__float2half_rn(lo));
    ok = ok && o.e4_f16 == pair(__nv_cvt_halfraw_to_fp8(hh, __NV_SATFINITE, __NV_E4M3),
                                __nv_cvt_halfraw_to_fp8(hl, __NV_SATFINITE, __NV_E4M3));
    ok = ok && o.e5_f16 == pair(__nv_cvt_halfraw_to_fp8(hh, __NV_SATFINITE, __NV_E5M2),
                                __nv_cvt_halfraw_to_fp8(hl, __NV_SATFINITE, __NV_E5M2));
    __half2_raw b4 = __nv_cvt_fp8x2_to_halfraw2(o.e4_f32, __NV_E4M3);
    __half2_raw b5 = __nv_cvt_fp8x2_to_halfraw2(o.e5_f32, __NV_E5M2);
    ok = ok && o.back_e4 == ((unsigned)b4.y << 16 | b4.x) && o.back_e5 == ((unsigned)b5.y << 16 | b5.x);
    if (!ok)
      std::fprintf(stderr, "x = %a, %a: e4 %04x e5 %04x relu %04x f16 %04x/%04x back %08x/%08x\n", hi, lo,
                   o.e4_f32, o.e5_f32, o.e4_relu, o.e4_f16, o.e5_f16, o.back_e4, o.back_e5);
    CHECK(ok);
  }
  /* Spelled out: 464 ties to 448 (0x7e), 1.0625 ties to 1.0 (0x38). */
  CHECK(out[4].e4_f32 >> 8 == 0x7e && out[2].e4_f32 >> 8 == 0x38);
  return finish();
}
