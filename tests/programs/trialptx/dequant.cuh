#pragma once
#include <cuda_fp16.h>
#include <cstdint>

// int4 -> fp16 dequantization with the magic-number trick (lop3 + sub.f16x2 + fma.rn.f16x2).
template <int lut>
__device__ __forceinline__ uint32_t lop3(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t r;
  asm volatile("lop3.b32 %0, %1, %2, %3, %4;\n" : "=r"(r) : "r"(a), "r"(b), "r"(c), "n"(lut));
  return r;
}

// Unpacks 8 unsigned int4 (nibbles of q, order 0,4,1,5,2,6,3,7 interleaved as the packers do)
// into 4 half2 holding q-8 (symmetric), scaled by s.
__device__ __forceinline__ void dequant_u4x8(uint32_t q, half2 s, half2 (&out)[4]) {
  const uint32_t LO = 0x000f000f, HI = 0x00f000f0, EX = 0x64006400;
  const uint32_t SUB = 0x64086408;   // {1032, 1032}: 1024 + 8
  const uint32_t MUL = 0x2c002c00;   // 1/16
  const uint32_t ADD = 0xd480d480;   // -72 = -(64 + 8)
  uint32_t* o = reinterpret_cast<uint32_t*>(out);
#pragma unroll
  for (int i = 0; i < 2; ++i) {
    uint32_t x = q >> (8 * i);
    uint32_t lo = lop3<(0xf0 & 0xcc) | 0xaa>(x, LO, EX);
    uint32_t hi = lop3<(0xf0 & 0xcc) | 0xaa>(x, HI, EX);
    asm volatile("sub.f16x2 %0, %1, %2;\n" : "=r"(o[2 * i]) : "r"(lo), "r"(SUB));
    asm volatile("fma.rn.f16x2 %0, %1, %2, %3;\n" : "=r"(o[2 * i + 1]) : "r"(hi), "r"(MUL), "r"(ADD));
  }
  for (int i = 0; i < 4; ++i) out[i] = __hmul2(out[i], s);
}

// Byte permutes as used for int8 -> fp16 conversion.
__device__ __forceinline__ uint32_t prmt(uint32_t a, uint32_t b, uint32_t sel) {
  uint32_t r;
  asm volatile("prmt.b32 %0, %1, %2, %3;\n" : "=r"(r) : "r"(a), "r"(b), "r"(sel));
  return r;
}

__device__ __forceinline__ float fast_exp2(float x) {
  float r;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}
__device__ __forceinline__ uint32_t ex2_h2(uint32_t x) {
  uint32_t r;
  asm("ex2.approx.f16x2 %0, %1;" : "=r"(r) : "r"(x));
  return r;
}
__device__ __forceinline__ float tanh_fast(float x) {
  float r;
  asm("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}
__device__ __forceinline__ float rcp_fast(float x) {
  float r;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}
__device__ __forceinline__ uint32_t max_h2(uint32_t a, uint32_t b) {
  uint32_t r;
  asm("max.f16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
__device__ __forceinline__ bool h_gt(unsigned short a, unsigned short b) {
  unsigned r;
  asm("{ .reg .pred p; setp.gt.f16 p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "h"(a), "h"(b));
  return r;
}

template <int GROUP>
__global__ void dequant_gemv(const uint32_t* __restrict__ qw, const half* __restrict__ scales,
                             const half* __restrict__ x, float* __restrict__ y, int K) {
  // One warp per output row; each lane handles 8 weights per step.
  int row = blockIdx.x;
  int lane = threadIdx.x;
  float acc = 0.f;
  for (int k8 = lane; k8 < K / 8; k8 += 32) {
    uint32_t q = __ldg(qw + (size_t)row * (K / 8) + k8);
    half s = scales[(size_t)row * (K / GROUP) + (k8 * 8) / GROUP];
    half2 w[4];
    dequant_u4x8(q, __half2half2(s), w);
    // Packed order: out[0] = {n0, n4}, out[1] = {n1, n5}, out[2] = {n2, n6}, out[3] = {n3, n7}
    // (nibble j of q is weight j in this packing).
    const half* xv = x + k8 * 8;
    acc += __half2float(w[0].x) * __half2float(xv[0]) + __half2float(w[0].y) * __half2float(xv[4]);
    acc += __half2float(w[1].x) * __half2float(xv[1]) + __half2float(w[1].y) * __half2float(xv[5]);
    acc += __half2float(w[2].x) * __half2float(xv[2]) + __half2float(w[2].y) * __half2float(xv[6]);
    acc += __half2float(w[3].x) * __half2float(xv[3]) + __half2float(w[3].y) * __half2float(xv[7]);
  }
  acc += __shfl_xor_sync(0xffffffff, acc, 16);
  acc += __shfl_xor_sync(0xffffffff, acc, 8);
  acc += __shfl_xor_sync(0xffffffff, acc, 4);
  acc += __shfl_xor_sync(0xffffffff, acc, 2);
  acc += __shfl_xor_sync(0xffffffff, acc, 1);
  if (lane == 0) y[row] = acc;
}
