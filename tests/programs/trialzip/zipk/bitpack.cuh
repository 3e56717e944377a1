// bitpack.cuh: fixed-width bit-packing of 32-bit integer columns, in groups
// of 32 values (one warp each), as columnar databases store them.
#ifndef ZIPK_BITPACK_CUH
#define ZIPK_BITPACK_CUH
#include <cstdint>
#include <utility>
#include "bits.cuh"

namespace zip {
namespace pack {

constexpr int kGroup = 32;

// OR of every value, to find the width with __clz.
__global__ void or_reduce(const uint32_t *__restrict__ in, size_t n, uint32_t *result) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  uint32_t v = i < n ? in[i] : 0u;
  for (int off = 16; off > 0; off >>= 1) v |= __shfl_xor_sync(kFullMask, v, off);
  if ((threadIdx.x & 31) == 0) atomicOr(result, v);
}

// Frame of reference: the minimum, subtracted before packing.
__global__ void min_reduce(const uint32_t *__restrict__ in, size_t n, uint32_t *result) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  uint32_t v = i < n ? in[i] : 0xffffffffu;
  for (int off = 16; off > 0; off >>= 1) v = min(v, __shfl_down_sync(kFullMask, v, off));
  if ((threadIdx.x & 31) == 0) atomicMin(result, v);
}

// Packs groups of 32 values into w words each. Every lane takes every
// value in turn through a shuffle; lane j < w assembles word j.
__global__ void pack_kernel(const uint32_t *__restrict__ in, size_t groups, unsigned w,
                            uint32_t reference, uint32_t *out) {
  const size_t warp = (blockIdx.x * size_t(blockDim.x) + threadIdx.x) / 32;
  const int lane = threadIdx.x & 31;
  if (warp >= groups) return;  // whole warps leave together
  const uint32_t v = in[warp * kGroup + lane] - reference;
  uint32_t word = 0;
  const int lo = lane * 32;
  for (int k = 0; k < kGroup; ++k) {
    const uint32_t vk = __shfl_sync(kFullMask, v, k);
    const int off = k * int(w) - lo;
    if (off > -int(w) && off < 32) {
      const uint64_t wide = static_cast<uint64_t>(vk & low_mask(w));
      word |= off >= 0 ? static_cast<uint32_t>(wide << off) : static_cast<uint32_t>(wide >> -off);
    }
  }
  if (lane < int(w)) out[warp * w + lane] = word;
}

// Unpacks with the width known at run time: lanes load the group's words
// coalesced, then each lane gathers its two words with shuffles.
__global__ void unpack_kernel(const uint32_t *__restrict__ packed, size_t groups, unsigned w,
                              uint32_t reference, uint32_t *out) {
  const size_t warp = (blockIdx.x * size_t(blockDim.x) + threadIdx.x) / 32;
  const int lane = threadIdx.x & 31;
  if (warp >= groups) return;
  const uint32_t mine = lane < int(w) ? packed[warp * w + lane] : 0u;
  const unsigned pos = lane * w;
  const int word = pos >> 5;
  const unsigned shift = pos & 31;
  const uint32_t lo = __shfl_sync(kFullMask, mine, word);
  const uint32_t hi = __shfl_sync(kFullMask, mine, (word + 1) & 31);
  out[warp * kGroup + lane] = (__funnelshift_r(lo, hi, shift) & low_mask(w)) + reference;
}

// The same with the width a template parameter, as FOR codecs specialise.
template <unsigned W>
__global__ void unpack_fixed(const uint32_t *__restrict__ packed, size_t groups, uint32_t *out) {
  const size_t g = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (g >= groups) return;
  const uint32_t *src = packed + g * W;
  uint32_t *dst = out + g * kGroup;
#pragma unroll
  for (unsigned i = 0; i < kGroup; ++i) {
    constexpr uint32_t mask = W == 32 ? 0xffffffffu : ((1u << W) - 1u);
    const unsigned pos = i * W;
    const uint64_t two = (pos + W > 32 * ((pos >> 5) + 1))
                             ? (static_cast<uint64_t>(src[(pos >> 5) + 1]) << 32) | src[pos >> 5]
                             : src[pos >> 5];
    dst[i] = static_cast<uint32_t>(two >> (pos & 31)) & mask;
  }
}

template <unsigned... Ws>
bool unpack_fixed_dispatch(unsigned w, const uint32_t *packed, size_t groups, uint32_t *out,
                           std::integer_sequence<unsigned, Ws...>) {
  const int threads = 64;
  const int blocks = static_cast<int>(div_up<size_t>(groups, threads));
  bool launched = false;
  ((w == Ws + 1 ? (unpack_fixed<Ws + 1><<<blocks, threads>>>(packed, groups, out), launched = true)
                : false),
   ...);
  return launched;
}

// Bit-plane (bit-sliced) layout: plane b of a group is the ballot of bit b.
__global__ void pack_planes(const uint32_t *__restrict__ in, size_t groups, unsigned w,
                            uint32_t *planes) {
  const size_t warp = (blockIdx.x * size_t(blockDim.x) + threadIdx.x) / 32;
  const int lane = threadIdx.x & 31;
  if (warp >= groups) return;
  const uint32_t v = in[warp * kGroup + lane];
  for (unsigned b = 0; b < w; ++b) {
    const uint32_t plane = __ballot_sync(kFullMask, (v >> b) & 1u);
    if (lane == 0) planes[warp * w + b] = plane;
  }
}

__global__ void unpack_planes(const uint32_t *__restrict__ planes, size_t groups, unsigned w,
                              uint32_t *out) {
  const size_t warp = (blockIdx.x * size_t(blockDim.x) + threadIdx.x) / 32;
  const int lane = threadIdx.x & 31;
  if (warp >= groups) return;
  uint32_t v = 0;
  for (unsigned b = 0; b < w; ++b) v |= ((planes[warp * w + b] >> lane) & 1u) << b;
  out[warp * kGroup + lane] = v;
}

// Delta coding of a sorted column: zig-zag deltas, then a warp-level
// inclusive scan to decode.
__global__ void delta_encode(const uint32_t *__restrict__ in, size_t n, uint32_t *out) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) {
    const uint32_t prev = (i % kGroup) ? in[i - 1] : 0u;
    out[i] = zigzag(static_cast<int32_t>(in[i] - prev));
  }
}

__global__ void delta_decode(const uint32_t *__restrict__ in, size_t n, uint32_t *out) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  const int lane = threadIdx.x & 31;
  uint32_t v = i < n ? static_cast<uint32_t>(unzigzag(in[i])) : 0u;
  for (int off = 1; off < 32; off <<= 1) {
    const uint32_t up = __shfl_up_sync(kFullMask, v, off);
    if (lane >= off) v += up;
  }
  if (i < n) out[i] = v;
}

// Intrinsics that codecs lean on, each against a host model.
struct BitFacts {
  uint32_t brev, popc, ffs, bswap, perm, clz;
  uint32_t popcll, ffsll, clzll;
  uint64_t shl, shr;
};

__global__ void bit_facts(const uint32_t *__restrict__ in, size_t n, BitFacts *out) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const uint32_t v = in[i];
  const uint64_t v64 = (static_cast<uint64_t>(v) << 32) | __brev(v ^ 0x5a5a5a5au);
  BitFacts f;
  f.brev = __brev(v);
  f.popc = __popc(v);
  f.ffs = __ffs(static_cast<int>(v));
  f.bswap = __byte_perm(v, 0, 0x0123);
  f.perm = __byte_perm(v, 0xa0b1c2d3u, 0x7351);
  f.clz = __clz(static_cast<int>(v));
  f.popcll = __popcll(v64);
  f.ffsll = __ffsll(static_cast<long long>(v64));
  f.clzll = __clzll(static_cast<long long>(v64 >> (v & 63)));
  f.shl = v64 << (v & 63);
  f.shr = v64 >> ((v >> 8) & 63);
  out[i] = f;
}

}  // namespace pack
}  // namespace zip
#endif  // ZIPK_BITPACK_CUH
