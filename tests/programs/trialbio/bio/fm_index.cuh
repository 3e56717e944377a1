// fm_index.cuh: an FM-index of a DNA text (BWT packed 2 bits a base, the
// occurrence counts at checkpoints as a struct of arrays) and the backward
// search of exact matches, one thread per read.
#ifndef TRIALBIO_FM_INDEX_CUH
#define TRIALBIO_FM_INDEX_CUH
#include "bio_common.cuh"

namespace fm {

constexpr int kCheckpoint = 64;  // bases between occurrence checkpoints

// The device view: every array is read through the read-only cache.
struct FmIndexView {
  const uint32_t* bwt;     // 16 bases a word; the sentinel is stored as A
  const uint32_t* occ[4];  // occ[c][k]: count of c in bwt[0, k * kCheckpoint)
  uint32_t C[5];           // C[c]: count of bases smaller than c, plus 1 for '$'
  uint32_t length;         // BWT length, sentinel included
  uint32_t dollar;         // row of the sentinel in the BWT
};

// Occurrences of c in bwt[0, i).
__device__ __forceinline__ uint32_t occ(const FmIndexView& ix, int c, uint32_t i) {
  const uint32_t k = i / kCheckpoint;
  uint32_t count = __ldg(&ix.occ[c][k]);
  uint32_t pos = k * kCheckpoint;
  // Whole words: a base equal to c gives 00 after XOR with the pattern.
  const uint32_t pattern = 0x55555555u * (uint32_t)c;
  while (pos + 16 <= i) {
    const uint32_t x = __ldg(&ix.bwt[pos / 16]) ^ pattern;
    count += __popc(~(x | (x >> 1)) & 0x55555555u);
    pos += 16;
  }
  if (pos < i) {
    const uint32_t x = __ldg(&ix.bwt[pos / 16]) ^ pattern;
    const uint32_t keep = (1u << (2 * (i - pos))) - 1u;
    count += __popc(~(x | (x >> 1)) & 0x55555555u & keep);
  }
  // The sentinel is stored as A and must not count.
  if (c == 0 && ix.dollar < i && ix.dollar >= k * kCheckpoint) --count;
  return count;
}

template <int READ_LEN>
__global__ void backward_search_kernel(FmIndexView ix, const uint32_t* __restrict__ reads, int nreads,
                                       uint2* __restrict__ ranges) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= nreads) return;
  constexpr int kWords = (READ_LEN + 15) / 16;
  const uint32_t* read = reads + (size_t)r * kWords;
  uint32_t lo = 0, hi = ix.length;
  for (int i = READ_LEN - 1; i >= 0 && lo < hi; --i) {
    const int c = (int)bio::Packer<2>::get(read, i);
    lo = ix.C[c] + occ(ix, c, lo);
    hi = ix.C[c] + occ(ix, c, hi);
  }
  ranges[r] = make_uint2(lo, hi > lo ? hi : lo);
}

}  // namespace fm

#endif  // TRIALBIO_FM_INDEX_CUH
