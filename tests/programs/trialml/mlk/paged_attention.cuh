#pragma once
#include "dtype.cuh"
#include "reduce.cuh"

namespace mlk {

// Decode-time attention over a paged KV cache. Layouts:
//   q            [num_seqs, num_heads, HeadDim]
//   k/v cache    [num_pages, num_kv_heads, PageSize, HeadDim]  (CacheT)
//   block_tables [num_seqs, max_pages_per_seq]
//   out          [num_seqs, num_heads, HeadDim]
// One block per (head, seq). A thread group of kGroup threads owns one
// key: each thread loads 16 bytes of it (uint4) and the group reduces the
// dot product with shuffles. The logits live in dynamic shared memory.
template <typename T, typename CacheT, int HeadDim, int PageSize, int NumThreads>
__global__ void __launch_bounds__(NumThreads)
paged_attention_decode_kernel(T *__restrict__ out, const T *__restrict__ q,
                              const CacheT *__restrict__ k_cache, const CacheT *__restrict__ v_cache,
                              const int *__restrict__ block_tables, const int *__restrict__ context_lens,
                              int max_pages_per_seq, int num_kv_heads, float scale, float kv_scale) {
  constexpr int kElemsPer16B = 16 / sizeof(CacheT);
  constexpr int kGroup = HeadDim / kElemsPer16B;  // threads per key
  static_assert(kGroup <= kWarpSize && (kWarpSize % kGroup) == 0, "group must divide a warp");
  constexpr int kKeysPerPass = NumThreads / kGroup;
  constexpr int kWarps = NumThreads / kWarpSize;

  const int head = blockIdx.x, seq = blockIdx.y;
  const int num_heads = gridDim.x;
  const int kv_head = head / (num_heads / num_kv_heads);
  const int ctx = context_lens[seq];
  const int *table = block_tables + seq * max_pages_per_seq;

  extern __shared__ __align__(16) unsigned char shared_raw[];
  float *logits = reinterpret_cast<float *>(shared_raw);    // [ctx]
  __shared__ float s_q[HeadDim];
  __shared__ float s_out[kWarps][HeadDim];

  for (int d = threadIdx.x; d < HeadDim; d += NumThreads)
    s_q[d] = to_float(q[(static_cast<size_t>(seq) * num_heads + head) * HeadDim + d]) * scale;
  __syncthreads();

  const int group = threadIdx.x / kGroup, in_group = threadIdx.x % kGroup;
  float local_max = -FLT_MAX;
  for (int t0 = 0; t0 < ctx; t0 += kKeysPerPass) {
    const int t = t0 + group;
    float dot = 0.f;
    if (t < ctx) {
      const int page = table[t / PageSize];
      const size_t row = ((static_cast<size_t>(page) * num_kv_heads + kv_head) * PageSize + t % PageSize) * HeadDim;
      const uint4 raw = reinterpret_cast<const uint4 *>(k_cache + row)[in_group];
      const CacheT *k = reinterpret_cast<const CacheT *>(&raw);
#pragma unroll
      for (int e = 0; e < kElemsPer16B; ++e) dot += s_q[in_group * kElemsPer16B + e] * to_float(k[e]) * kv_scale;
    }
#pragma unroll
    for (int mask = kGroup / 2; mask > 0; mask >>= 1) dot += __shfl_xor_sync(0xffffffffu, dot, mask);
    if (t < ctx && in_group == 0) {
      logits[t] = dot;
      local_max = fmaxf(local_max, dot);
    }
  }
  const float m = block_all_reduce<float, MaxOp, NumThreads>(local_max, MaxOp(), -FLT_MAX);
  float local_sum = 0.f;
  for (int t = threadIdx.x; t < ctx; t += NumThreads) {
    const float p = __expf(logits[t] - m);
    logits[t] = p;
    local_sum += p;
  }
  const float sum = block_all_reduce<float, SumOp, NumThreads>(local_sum, SumOp(), 0.f);
  const float inv = 1.f / (sum + 1e-6f);

  // Values: each warp takes tokens warp, warp + kWarps, ...; each lane
  // accumulates dims lane, lane + 32, ... in float.
  const int warp = threadIdx.x / kWarpSize, lane = threadIdx.x % kWarpSize;
  float acc[HeadDim / kWarpSize] = {};
  for (int t = warp; t < ctx; t += kWarps) {
    const int page = table[t / PageSize];
    const CacheT *v = v_cache + ((static_cast<size_t>(page) * num_kv_heads + kv_head) * PageSize + t % PageSize) * HeadDim;
    const float p = logits[t];
#pragma unroll
    for (int i = 0; i < HeadDim / kWarpSize; ++i) acc[i] += p * to_float(v[lane + i * kWarpSize]) * kv_scale;
  }
#pragma unroll
  for (int i = 0; i < HeadDim / kWarpSize; ++i) s_out[warp][lane + i * kWarpSize] = acc[i];
  __syncthreads();
  for (int d = threadIdx.x; d < HeadDim; d += NumThreads) {
    float r = 0.f;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) r += s_out[w][d];
    out[(static_cast<size_t>(seq) * num_heads + head) * HeadDim + d] = from_float<T>(r * inv);
  }
}

}  // namespace mlk
