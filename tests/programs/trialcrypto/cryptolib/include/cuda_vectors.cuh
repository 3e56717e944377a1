// cuda_vectors.cuh - 64-bit lanes as uint2 (x low, y high), the way GPU
// miners write Keccak and Blake: operators on uint2, rotations by funnel
// shifts, conversions through mov.b64.
#pragma once
#include "common.cuh"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 320
#error "funnel shifts need sm_32 or later"
#endif

static __device__ __forceinline__ uint2 operator^(uint2 a, uint2 b) { return make_uint2(a.x ^ b.x, a.y ^ b.y); }
static __device__ __forceinline__ uint2 operator&(uint2 a, uint2 b) { return make_uint2(a.x & b.x, a.y & b.y); }
static __device__ __forceinline__ uint2 operator|(uint2 a, uint2 b) { return make_uint2(a.x | b.x, a.y | b.y); }
static __device__ __forceinline__ uint2 operator~(uint2 a) { return make_uint2(~a.x, ~a.y); }
static __device__ __forceinline__ void operator^=(uint2 &a, uint2 b) { a = a ^ b; }
static __device__ __forceinline__ uint2 operator+(uint2 a, uint2 b) {
  uint2 r;
  asm("add.cc.u32 %0, %2, %4;\n\t"
      "addc.u32 %1, %3, %5;"
      : "=r"(r.x), "=r"(r.y)
      : "r"(a.x), "r"(a.y), "r"(b.x), "r"(b.y));
  return r;
}

__device__ __forceinline__ uint2 vectorize(uint64_t v) {
  uint2 r;
  asm("mov.b64 {%0,%1}, %2;" : "=r"(r.x), "=r"(r.y) : "l"(v));
  return r;
}
__device__ __forceinline__ uint64_t devectorize(uint2 v) {
  uint64_t r;
  asm("mov.b64 %0, {%1,%2};" : "=l"(r) : "r"(v.x), "r"(v.y));
  return r;
}

// Rotations of the 64-bit value by a compile-time or run-time amount.
__device__ __forceinline__ uint2 ROL2(const uint2 a, const int offset) {
  uint2 r;
  if (offset >= 32) {
    r.x = __funnelshift_l(a.x, a.y, offset);
    r.y = __funnelshift_l(a.y, a.x, offset);
  } else {
    r.x = __funnelshift_l(a.y, a.x, offset);
    r.y = __funnelshift_l(a.x, a.y, offset);
  }
  return r;
}
__device__ __forceinline__ uint2 ROR2(const uint2 a, const int offset) {
  uint2 r;
  if (offset < 32) {
    asm("shf.r.wrap.b32 %0, %1, %2, %3;" : "=r"(r.x) : "r"(a.x), "r"(a.y), "r"(offset));
    asm("shf.r.wrap.b32 %0, %1, %2, %3;" : "=r"(r.y) : "r"(a.y), "r"(a.x), "r"(offset));
  } else {
    asm("shf.r.wrap.b32 %0, %1, %2, %3;" : "=r"(r.x) : "r"(a.y), "r"(a.x), "r"(offset));
    asm("shf.r.wrap.b32 %0, %1, %2, %3;" : "=r"(r.y) : "r"(a.x), "r"(a.y), "r"(offset));
  }
  return r;
}
__device__ __forceinline__ uint2 SWAPUINT2(uint2 v) { return make_uint2(v.y, v.x); }

__host__ __device__ __forceinline__ uint64_t cuda_swab64(uint64_t x) {
#ifdef __CUDA_ARCH__
  uint2 v = vectorize(x);
  return devectorize(make_uint2(__byte_perm(v.y, 0, 0x0123), __byte_perm(v.x, 0, 0x0123)));
#else
  return __builtin_bswap64(x);
#endif
}
