#pragma once
#include <cub/block/block_load.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_store.cuh>

#include "dtype.cuh"

namespace mlk {

// Top-k over each row of logits: the row is loaded blocked (BlockLoad with a
// warp transpose), padded with -inf, sorted descending with its indices by
// BlockRadixSort, and the first k pairs stored; the probabilities of the k
// are a softmax over them (for top-k sampling).
template <typename T, int BlockThreads, int ItemsPerThread>
__global__ void topk_kernel(float *__restrict__ top_vals, int *__restrict__ top_idx,
                            float *__restrict__ top_probs, const T *__restrict__ logits, int vocab,
                            int k, float temperature) {
  using Load = cub::BlockLoad<float, BlockThreads, ItemsPerThread, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using Sort = cub::BlockRadixSort<float, BlockThreads, ItemsPerThread, int>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Sort::TempStorage sort;
  } temp;
  __shared__ float s_max, s_sum;

  const T *row = logits + static_cast<size_t>(blockIdx.x) * vocab;
  float keys[ItemsPerThread];
  int idx[ItemsPerThread];
  // Convert into a float staging pass via a transform load.
  float staged[ItemsPerThread];
#pragma unroll
  for (int i = 0; i < ItemsPerThread; ++i) {
    const int c = threadIdx.x * ItemsPerThread + i;
    staged[i] = c < vocab ? to_float(row[c]) : -INFINITY;
    idx[i] = c;
  }
  (void)staged;
  // The same values again through BlockLoad from a float view (rows of
  // float logits only); for other types the staged copy is kept.
  if (std::is_same<T, float>::value) {
    Load(temp.load).Load(reinterpret_cast<const float *>(row), keys, vocab, -INFINITY);
    __syncthreads();
  } else {
#pragma unroll
    for (int i = 0; i < ItemsPerThread; ++i) keys[i] = staged[i];
  }
  Sort(temp.sort).SortDescending(keys, idx);
  __syncthreads();
  // After the sort, thread t holds ranks t * ItemsPerThread + i (blocked).
  if (threadIdx.x == 0) s_max = keys[0];
  __syncthreads();
  float part = 0.f;
#pragma unroll
  for (int i = 0; i < ItemsPerThread; ++i) {
    const int rank = threadIdx.x * ItemsPerThread + i;
    if (rank < k) part += __expf((keys[i] - s_max) / temperature);
  }
  // A plain atomicAdd into shared memory for the sum of k terms.
  if (threadIdx.x == 0) s_sum = 0.f;
  __syncthreads();
  if (part != 0.f) atomicAdd(&s_sum, part);
  __syncthreads();
#pragma unroll
  for (int i = 0; i < ItemsPerThread; ++i) {
    const int rank = threadIdx.x * ItemsPerThread + i;
    if (rank < k) {
      const size_t o = static_cast<size_t>(blockIdx.x) * k + rank;
      top_vals[o] = keys[i];
      top_idx[o] = idx[i];
      top_probs[o] = __expf((keys[i] - s_max) / temperature) / s_sum;
    }
  }
}

}  // namespace mlk
