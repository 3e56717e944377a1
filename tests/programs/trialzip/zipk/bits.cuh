// bits.cuh: bit-manipulation helpers with host twins, so the host reference
// computes exactly what the device does.
#ifndef ZIPK_BITS_CUH
#define ZIPK_BITS_CUH
#include <cstdint>
#include "common.cuh"

namespace zip {

__host__ __device__ inline unsigned bit_width(uint32_t v) {
#ifdef __CUDA_ARCH__
  return 32u - __clz(v);
#else
  return v ? 32u - __builtin_clz(v) : 0u;
#endif
}

__host__ __device__ inline uint32_t low_mask(unsigned w) {
  return w >= 32 ? 0xffffffffu : ((1u << w) - 1u);
}

// Zig-zag for signed deltas, as frame-of-reference encoders do.
__host__ __device__ inline uint32_t zigzag(int32_t v) {
  return (static_cast<uint32_t>(v) << 1) ^ static_cast<uint32_t>(v >> 31);
}
__host__ __device__ inline int32_t unzigzag(uint32_t v) {
  return static_cast<int32_t>(v >> 1) ^ -static_cast<int32_t>(v & 1);
}

// Reads w bits starting at bit 'pos' of a little-endian word stream.
__host__ __device__ inline uint32_t extract_bits(const uint32_t *words, uint64_t pos, unsigned w) {
  uint64_t word = pos >> 5;
  unsigned shift = static_cast<unsigned>(pos & 31);
  uint32_t lo = words[word];
  uint32_t hi = (shift + w > 32) ? words[word + 1] : 0u;
#ifdef __CUDA_ARCH__
  return __funnelshift_r(lo, hi, shift) & low_mask(w);
#else
  uint64_t both = (static_cast<uint64_t>(hi) << 32) | lo;
  return static_cast<uint32_t>(both >> shift) & low_mask(w);
#endif
}

// MurmurHash3's 64-bit finaliser.
__host__ __device__ inline uint64_t fmix64(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return k;
}

__host__ __device__ inline uint64_t mulhi64(uint64_t a, uint64_t b) {
#ifdef __CUDA_ARCH__
  return __umul64hi(a, b);
#else
  return static_cast<uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
#endif
}

}  // namespace zip
#endif  // ZIPK_BITS_CUH
