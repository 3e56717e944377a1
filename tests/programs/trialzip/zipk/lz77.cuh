// lz77.cuh: an LZ77-style block compressor: one thread block per 4 KB
// chunk, the chunk and a hash table of recent positions in shared memory,
// each thread parsing its own 32-byte segment greedily, tokens appended
// with warp-aggregated atomics.
#ifndef ZIPK_LZ77_CUH
#define ZIPK_LZ77_CUH
#include <cstdint>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include "common.cuh"
#include "ref.cuh"

namespace zip {
namespace lz {

namespace cg = cooperative_groups;

constexpr int kChunk = 4096;
constexpr int kThreads = 128;
constexpr int kSegment = kChunk / kThreads;
constexpr int kHashBits = 12;
constexpr int kMinMatch = 4;
constexpr int kMaxTokens = kThreads * (kSegment / kMinMatch + 1);

enum Kind { kLiteralOnly = 0, kWithMatch = 1 };

struct Stats {
  unsigned long long tokens[2];
  unsigned long long matched_bytes;
};

__device__ __forceinline__ uint32_t read4(const unsigned char *p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

__device__ __forceinline__ uint32_t hash4(uint32_t x) {
  return (x * 2654435761u) >> (32 - kHashBits);
}

// Appends one token and its literals; the threads that arrive together
// share one atomicAdd for the slots and one for the literal bytes.
__device__ void emit(ref::LzToken tok, const unsigned char *lits, unsigned *token_count,
                     unsigned *literal_count, ref::LzToken *tokens, unsigned char *literals,
                     Stats *stats) {
  cg::coalesced_group g = cg::coalesced_threads();
  unsigned slot_base = 0, lit_base = 0;
  const unsigned lit_total = cg::reduce(g, unsigned(tok.lit_len), cg::plus<unsigned>());
  const unsigned lit_before = cg::exclusive_scan(g, unsigned(tok.lit_len));
  if (g.thread_rank() == 0) {
    slot_base = atomicAdd(token_count, g.size());
    lit_base = atomicAdd(literal_count, lit_total);
  }
  slot_base = g.shfl(slot_base, 0);
  lit_base = g.shfl(lit_base, 0);
  tok.lit_off = lit_base + lit_before;
  for (unsigned i = 0; i < tok.lit_len; ++i) literals[tok.lit_off + i] = lits[i];
  tokens[slot_base + g.thread_rank()] = tok;

  // Statistics by kind, aggregated over the lanes that agree.
  const int kind = tok.match_len ? kWithMatch : kLiteralOnly;
  const unsigned peers = __match_any_sync(__activemask(), kind);
  const int leader = __ffs(peers) - 1;
  if (int(threadIdx.x & 31) == leader) atomicAdd(&stats->tokens[kind], __popc(peers));
  if (tok.match_len) atomicAdd(&stats->matched_bytes, 1ull * tok.match_len);
}

__global__ void __launch_bounds__(kThreads)
compress_kernel(const unsigned char *__restrict__ in, size_t n, ref::LzToken *tokens,
                unsigned *token_counts, unsigned char *literals, unsigned *literal_counts,
                Stats *stats) {
  extern __shared__ unsigned char smem[];
  unsigned char *chunk = smem;
  int *table = reinterpret_cast<int *>(smem + kChunk);
  int *prev = table + (1 << kHashBits);

  const size_t start = size_t(blockIdx.x) * kChunk;
  const int len = static_cast<int>(min(size_t(kChunk), n - start));
  for (int i = threadIdx.x; i < len; i += blockDim.x) chunk[i] = in[start + i];
  for (int i = threadIdx.x; i < (1 << kHashBits); i += blockDim.x) table[i] = -1;
  __syncthreads();

  const int seg_begin = threadIdx.x * kSegment;
  const int seg_end = min(seg_begin + kSegment, len);
  for (int p = seg_begin; p < seg_end; ++p)
    prev[p] = p + kMinMatch <= len ? atomicExch(&table[hash4(read4(chunk + p))], p) : -1;
  __syncthreads();

  ref::LzToken *my_tokens = tokens + size_t(blockIdx.x) * kMaxTokens;
  unsigned char *my_literals = literals + start;
  int lit_start = seg_begin;
  int p = seg_begin;
  while (p < seg_end) {
    int best_len = 0, best_dist = 0;
    if (p + kMinMatch <= seg_end) {
      const int cands[2] = {prev[p], table[hash4(read4(chunk + p))]};
      for (int c : cands) {
        if (c < 0 || c >= p) continue;
        int l = 0;
        while (p + l < seg_end && chunk[c + l] == chunk[p + l]) ++l;
        if (l >= kMinMatch && l > best_len) {
          best_len = l;
          best_dist = p - c;
        }
      }
    }
    if (best_len) {
      ref::LzToken t{uint32_t(lit_start), 0, uint16_t(p - lit_start), uint16_t(best_len),
                     uint32_t(best_dist)};
      emit(t, chunk + lit_start, &token_counts[blockIdx.x], &literal_counts[blockIdx.x],
           my_tokens, my_literals, stats);
      p += best_len;
      lit_start = p;
    } else {
      ++p;
    }
  }
  if (lit_start < seg_end) {
    ref::LzToken t{uint32_t(lit_start), 0, uint16_t(seg_end - lit_start), 0, 0};
    emit(t, chunk + lit_start, &token_counts[blockIdx.x], &literal_counts[blockIdx.x],
         my_tokens, my_literals, stats);
  }
}

inline size_t shared_bytes() { return kChunk + sizeof(int) * ((1 << kHashBits) + kChunk); }

}  // namespace lz
}  // namespace zip
#endif  // ZIPK_LZ77_CUH
