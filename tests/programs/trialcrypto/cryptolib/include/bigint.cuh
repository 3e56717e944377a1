// bigint.cuh - fixed-size multi-precision arithmetic in inline PTX, and
// Montgomery multiplication over 256-bit moduli.
#pragma once
#include "common.cuh"

namespace mp {

// Carry-chain primitives, one instruction each, in the style of most GPU
// big-number code: the carry flag travels between consecutive asm volatile
// statements.
__device__ __forceinline__ uint32_t add_cc(uint32_t a, uint32_t b) {
  uint32_t r;
  asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
__device__ __forceinline__ uint32_t addc_cc(uint32_t a, uint32_t b) {
  uint32_t r;
  asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
__device__ __forceinline__ uint32_t addc(uint32_t a, uint32_t b) {
  uint32_t r;
  asm volatile("addc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
__device__ __forceinline__ uint32_t sub_cc(uint32_t a, uint32_t b) {
  uint32_t r;
  asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
__device__ __forceinline__ uint32_t subc_cc(uint32_t a, uint32_t b) {
  uint32_t r;
  asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
__device__ __forceinline__ uint32_t subc(uint32_t a, uint32_t b) {
  uint32_t r;
  asm volatile("subc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
// acc += lo(a*b) (+ carry), in place.
__device__ __forceinline__ void mad_lo_cc(uint32_t &acc, uint32_t a, uint32_t b) {
  asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(acc) : "r"(a), "r"(b));
}
__device__ __forceinline__ void madc_lo_cc(uint32_t &acc, uint32_t a, uint32_t b) {
  asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(acc) : "r"(a), "r"(b));
}
__device__ __forceinline__ void mad_hi_cc(uint32_t &acc, uint32_t a, uint32_t b) {
  asm volatile("mad.hi.cc.u32 %0, %1, %2, %0;" : "+r"(acc) : "r"(a), "r"(b));
}
__device__ __forceinline__ void madc_hi_cc(uint32_t &acc, uint32_t a, uint32_t b) {
  asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(acc) : "r"(a), "r"(b));
}

template <int N>
struct Num {
  uint32_t w[N];
};

// r = a + b, returns the carry out.
template <int N>
__device__ __forceinline__ uint32_t add(uint32_t r[N], const uint32_t a[N], const uint32_t b[N]) {
  r[0] = add_cc(a[0], b[0]);
#pragma unroll
  for (int i = 1; i < N; ++i) r[i] = addc_cc(a[i], b[i]);
  return addc(0, 0);
}

// r = a - b, returns 1 when it borrowed.
template <int N>
__device__ __forceinline__ uint32_t sub(uint32_t r[N], const uint32_t a[N], const uint32_t b[N]) {
  r[0] = sub_cc(a[0], b[0]);
#pragma unroll
  for (int i = 1; i < N; ++i) r[i] = subc_cc(a[i], b[i]);
  return subc(0, 0) & 1;
}

// t[off .. off+N] += m * n, carry propagated up to t[top-1].
template <int N, int TOP>
__device__ __forceinline__ void mul_add_row(uint32_t (&t)[TOP], int off, uint32_t m, const uint32_t n[N]) {
  // Low halves.
  mad_lo_cc(t[off], n[0], m);
#pragma unroll
  for (int j = 1; j < N; ++j) madc_lo_cc(t[off + j], n[j], m);
#pragma unroll
  for (int k = off + N; k < TOP - 1; ++k) t[k] = addc_cc(t[k], 0);
  t[TOP - 1] = addc(t[TOP - 1], 0);
  // High halves, one word up.
  mad_hi_cc(t[off + 1], n[0], m);
#pragma unroll
  for (int j = 1; j < N; ++j) madc_hi_cc(t[off + 1 + j], n[j], m);
#pragma unroll
  for (int k = off + N + 1; k < TOP - 1; ++k) t[k] = addc_cc(t[k], 0);
  if (off + N + 1 < TOP) t[TOP - 1] = addc(t[TOP - 1], 0);
}

// Montgomery multiplication: r = a * b * 2^(-32N) mod n, with nprime =
// -n^(-1) mod 2^32, inputs below n.
template <int N>
__device__ __forceinline__ void mont_mul(uint32_t r[N], const uint32_t a[N], const uint32_t b[N],
                                         const uint32_t n[N], uint32_t nprime) {
  uint32_t t[2 * N + 2];
#pragma unroll
  for (int i = 0; i < 2 * N + 2; ++i) t[i] = 0;
#pragma unroll
  for (int i = 0; i < N; ++i) mul_add_row<N>(t, i, b[i], a);
#pragma unroll
  for (int i = 0; i < N; ++i) {
    const uint32_t m = t[i] * nprime;
    mul_add_row<N>(t, i, m, n);
  }
  uint32_t d[N];
  const uint32_t borrow = sub<N>(d, t + N, n);
  const bool keep = borrow && t[2 * N] == 0;
#pragma unroll
  for (int i = 0; i < N; ++i) r[i] = keep ? t[N + i] : d[i];
}

// 64-bit limb helpers (add.cc.u64 chains) used by the 64-bit code paths.
__device__ __forceinline__ void add128(uint64_t &lo, uint64_t &hi, uint64_t a_lo, uint64_t a_hi) {
  asm volatile(
      "add.cc.u64 %0, %0, %2;\n\t"
      "addc.u64 %1, %1, %3;"
      : "+l"(lo), "+l"(hi)
      : "l"(a_lo), "l"(a_hi));
}

}  // namespace mp

// Each thread computes base^exp mod n (256-bit), square and multiply over
// the exponent's bits from the top, in the Montgomery domain.
struct ModCtx256 {
  uint32_t n[8];
  uint32_t r2[8];   // 2^512 mod n
  uint32_t one[8];  // 2^256 mod n
  uint32_t nprime;
};

__global__ void modexp256(const mp::Num<8> *__restrict__ base, const mp::Num<8> *__restrict__ exps,
                          mp::Num<8> *__restrict__ out, int count, ModCtx256 ctx);

// Device functions compiled into the library (relocatable device code).
__device__ void mont_sqr256(uint32_t r[8], const uint32_t a[8], const ModCtx256 &ctx);
