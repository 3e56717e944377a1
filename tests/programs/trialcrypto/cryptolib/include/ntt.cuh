// ntt.cuh - number-theoretic transform over the Goldilocks prime 2^64 - 2^32 + 1.
#pragma once
#include "common.cuh"

namespace gl {

constexpr uint64_t P = 0xFFFFFFFF00000001ull;
constexpr uint64_t EPS = 0xFFFFFFFFull;  // 2^64 mod P

__device__ __forceinline__ uint64_t add(uint64_t a, uint64_t b) {
  uint64_t r;
  uint32_t carry;
  asm("add.cc.u64 %0, %2, %3;\n\t"
      "addc.u32 %1, 0, 0;"
      : "=l"(r), "=r"(carry)
      : "l"(a), "l"(b));
  if (carry) r += EPS;
  return r >= P ? r - P : r;
}

__device__ __forceinline__ uint64_t sub(uint64_t a, uint64_t b) {
  uint64_t r;
  uint32_t borrow;
  asm("sub.cc.u64 %0, %2, %3;\n\t"
      "subc.u32 %1, 0, 0;"
      : "=l"(r), "=r"(borrow)
      : "l"(a), "l"(b));
  return borrow ? r - EPS : r;  // r + P mod 2^64
}

// Reduces the 128-bit value hi:lo.
__device__ __forceinline__ uint64_t reduce128(uint64_t lo, uint64_t hi) {
  const uint64_t hh = hi >> 32;
  const uint64_t hl = hi & EPS;
  uint64_t t0;
  uint32_t borrow;
  asm("sub.cc.u64 %0, %2, %3;\n\t"
      "subc.u32 %1, 0, 0;"
      : "=l"(t0), "=r"(borrow)
      : "l"(lo), "l"(hh));
  if (borrow) t0 -= EPS;
  const uint64_t t1 = hl * EPS;
  uint64_t t2 = t0 + t1;
  if (t2 < t1) t2 += EPS;
  return t2 >= P ? t2 - P : t2;
}

__device__ __forceinline__ uint64_t mul(uint64_t a, uint64_t b) {
  uint64_t lo, hi;
  asm("mul.lo.u64 %0, %2, %3;\n\t"
      "mul.hi.u64 %1, %2, %3;"
      : "=l"(lo), "=l"(hi)
      : "l"(a), "l"(b));
  return reduce128(lo, hi);
}

// The same product through the intrinsic, used by the pointwise kernel.
__device__ __forceinline__ uint64_t mul_intrinsic(uint64_t a, uint64_t b) {
  return reduce128(a * b, __umul64hi(a, b));
}

}  // namespace gl

// One block transforms one polynomial of 2^LOG_N coefficients in dynamic
// shared memory. twiddles[k] = w^k for k < n/2, w a primitive n-th root (or
// its inverse for the inverse transform); scale multiplies every output
// (n^-1 for the inverse, 1 otherwise).
template <int LOG_N>
__global__ void ntt_block(uint64_t *__restrict__ data, const uint64_t *__restrict__ twiddles, uint64_t scale) {
  constexpr int N = 1 << LOG_N;
  extern __shared__ uint64_t s_poly[];
  uint64_t *poly = data + (size_t)blockIdx.x * N;
  // Bit-reversed load.
  for (int i = threadIdx.x; i < N; i += blockDim.x) {
    const unsigned r = __brev((unsigned)i) >> (32 - LOG_N);
    s_poly[r] = poly[i];
  }
  __syncthreads();
#pragma unroll 1
  for (int half = 1; half < N; half <<= 1) {
    const int step = N / (2 * half);
    for (int b = threadIdx.x; b < N / 2; b += blockDim.x) {
      const int j = b % half;
      const int base = (b / half) * 2 * half;
      const uint64_t w = twiddles[j * step];
      const uint64_t u = s_poly[base + j];
      const uint64_t v = gl::mul(s_poly[base + j + half], w);
      s_poly[base + j] = gl::add(u, v);
      s_poly[base + j + half] = gl::sub(u, v);
    }
    __syncthreads();
  }
  for (int i = threadIdx.x; i < N; i += blockDim.x) poly[i] = scale == 1 ? s_poly[i] : gl::mul(s_poly[i], scale);
}

__global__ void pointwise_mul(uint64_t *a, const uint64_t *b, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    a[i] = gl::mul_intrinsic(a[i], b[i]);
}
