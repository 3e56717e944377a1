// kmer_kernels.cuh: canonical k-mers of reads and a global open-addressing
// hash table of their counts.
#ifndef TRIALBIO_KMER_KERNELS_CUH
#define TRIALBIO_KMER_KERNELS_CUH
#include "bio_common.cuh"

namespace kmer {

constexpr unsigned long long kEmpty = ~0ull;

// Reverse complement of a k-mer of 2-bit codes (A=0 C=1 G=2 T=3): reverse
// the 2-bit groups of the word, complement by XOR, shift into place.
__host__ __device__ __forceinline__ uint64_t revcomp(uint64_t x, int k) {
  x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
  x = ((x >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((x & 0x0F0F0F0F0F0F0F0Full) << 4);
  x = ((x >> 8) & 0x00FF00FF00FF00FFull) | ((x & 0x00FF00FF00FF00FFull) << 8);
  x = ((x >> 16) & 0x0000FFFF0000FFFFull) | ((x & 0x0000FFFF0000FFFFull) << 16);
  x = (x >> 32) | (x << 32);
  x = ~x;
  return x >> (64 - 2 * k);
}

__host__ __device__ __forceinline__ uint64_t mix64(uint64_t key) {
  key ^= key >> 33;
  key *= 0xff51afd7ed558ccdull;
  key ^= key >> 33;
  key *= 0xc4ceb9fe1a85ec53ull;
  key ^= key >> 33;
  return key;
}

// The canonical k-mer starting at pos, or kEmpty when it has a base that is
// not ACGT.
template <int K>
__host__ __device__ inline uint64_t canonical_at(const char* seq, int pos) {
  uint64_t fwd = 0;
  for (int i = 0; i < K; ++i) {
    const int c = bio::dna_code(seq[pos + i]);
    if (c < 0) return kEmpty;
    fwd = (fwd << 2) | (uint64_t)c;
  }
  const uint64_t rc = revcomp(fwd, K);
  return fwd < rc ? fwd : rc;
}

template <int K>
__global__ void extract_kernel(const char* __restrict__ seq, int n, unsigned long long* out) {
  for (int pos = blockIdx.x * blockDim.x + threadIdx.x; pos + K <= n; pos += gridDim.x * blockDim.x)
    out[pos] = canonical_at<K>(seq, pos);
}

template <int K>
__global__ void count_kernel(const char* __restrict__ seq, int n, unsigned long long* keys,
                             unsigned int* counts, unsigned int capacity, unsigned int* overflow) {
  for (int pos = blockIdx.x * blockDim.x + threadIdx.x; pos + K <= n; pos += gridDim.x * blockDim.x) {
    const unsigned long long key = canonical_at<K>(seq, pos);
    if (key == kEmpty) continue;
    unsigned int slot = (unsigned int)(mix64(key) & (capacity - 1));
    for (unsigned int probe = 0; probe < capacity; ++probe) {
      const unsigned long long prev = atomicCAS(&keys[slot], kEmpty, key);
      if (prev == kEmpty || prev == key) {
        atomicAdd(&counts[slot], 1u);
        break;
      }
      slot = (slot + 1) & (capacity - 1);
      if (probe + 1 == capacity) atomicAdd(overflow, 1u);
    }
  }
}

// Histogram of the counts: bins in shared memory, merged into global.
template <int BINS>
__global__ void histogram_kernel(const unsigned int* counts, unsigned int capacity, unsigned int* hist) {
  __shared__ unsigned int s_hist[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) s_hist[b] = 0;
  __syncthreads();
  for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < capacity; i += gridDim.x * blockDim.x) {
    const unsigned int c = counts[i];
    if (c) atomicAdd(&s_hist[c < BINS ? c : BINS - 1], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    if (s_hist[b]) atomicAdd(&hist[b], s_hist[b]);
}

}  // namespace kmer

#endif  // TRIALBIO_KMER_KERNELS_CUH
