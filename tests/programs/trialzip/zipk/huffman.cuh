// huffman.cuh: a byte-oriented canonical Huffman codec.
// The stream is MSB-first: bit p of the stream is bit (31 - p % 32) of word p / 32.
#ifndef ZIPK_HUFFMAN_CUH
#define ZIPK_HUFFMAN_CUH
#include <cstdint>
#include "common.cuh"

namespace zip {
namespace huff {

constexpr int kSymbols = 256;
constexpr int kMaxLen = 20;
constexpr int kChunk = 256;  // symbols per independently decodable chunk

// The code book lives in constant memory: every thread of a warp reads
// mostly the same few entries.
__constant__ uint32_t c_codes[kSymbols];
__constant__ uint8_t c_lengths[kSymbols];

template <int BLOCK>
__global__ void histogram_kernel(const uint8_t *__restrict__ in, size_t n, unsigned *hist) {
  __shared__ unsigned local[kSymbols];
  for (int i = threadIdx.x; i < kSymbols; i += BLOCK) local[i] = 0;
  __syncthreads();
  for (size_t i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += size_t(BLOCK) * gridDim.x)
    atomicAdd(&local[in[i]], 1u);
  __syncthreads();
  for (int i = threadIdx.x; i < kSymbols; i += BLOCK)
    if (local[i]) atomicAdd(&hist[i], local[i]);
}

__global__ void code_lengths_kernel(const uint8_t *__restrict__ in, size_t n, uint64_t *bits) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) bits[i] = c_lengths[in[i]];
}

// Each thread writes its symbol's code at the offset the scan gave it; a
// code can straddle two words, so both halves go in with atomicOr.
__global__ void encode_kernel(const uint8_t *__restrict__ in, const uint64_t *__restrict__ offsets,
                              size_t n, uint32_t *words) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const uint8_t s = in[i];
  const uint32_t code = c_codes[s];
  const unsigned len = c_lengths[s];
  const uint64_t pos = offsets[i];
  const size_t word = pos >> 5;
  const unsigned shift = pos & 31;
  if (shift + len <= 32) {
    atomicOr(&words[word], code << (32 - shift - len));
  } else {
    const unsigned spill = shift + len - 32;
    atomicOr(&words[word], code >> spill);
    atomicOr(&words[word + 1], code << (32 - spill));
  }
}

__global__ void chunk_starts_kernel(const uint64_t *offsets, size_t n, uint64_t *starts) {
  size_t c = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (c * kChunk < n) starts[c] = offsets[c * kChunk];
}

// Canonical decoding tables, built on the host.
struct DecodeTable {
  uint32_t first_code[kMaxLen + 1];
  uint32_t count[kMaxLen + 1];
  uint32_t first_index[kMaxLen + 1];
  uint8_t symbols[kSymbols];
  int max_len;
};

// One thread per chunk; the block shares the decoding table.
__global__ void decode_kernel(const uint32_t *__restrict__ words, const uint64_t *__restrict__ starts,
                              const DecodeTable *table, size_t n, uint8_t *out) {
  __shared__ DecodeTable t;
  const int words_of_table = sizeof(DecodeTable) / sizeof(uint32_t);
  for (int i = threadIdx.x; i < words_of_table; i += blockDim.x)
    reinterpret_cast<uint32_t *>(&t)[i] = reinterpret_cast<const uint32_t *>(table)[i];
  __syncthreads();
  const size_t chunk = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  const size_t first = chunk * kChunk;
  if (first >= n) return;
  const size_t last = min(n, first + kChunk);
  uint64_t pos = starts[chunk];
  for (size_t i = first; i < last; ++i) {
    const size_t w = pos >> 5;
    const unsigned s = pos & 31;
    const uint32_t window = __funnelshift_l(words[w + 1], words[w], s);
    for (int len = 1; len <= t.max_len; ++len) {
      const uint32_t code = window >> (32 - len);
      const uint32_t k = code - t.first_code[len];
      if (k < t.count[len]) {
        out[i] = t.symbols[t.first_index[len] + k];
        pos += len;
        break;
      }
    }
  }
}

}  // namespace huff
}  // namespace zip
#endif  // ZIPK_HUFFMAN_CUH
