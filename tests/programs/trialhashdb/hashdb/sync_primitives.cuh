#pragma once
// Synchronisation idioms of GPU database kernels: warp-aggregated atomics
// with coalesced groups, labeled partitions, libcu++ semaphores, and a
// single-pass chained scan whose blocks wait for their predecessor.
#include <cstdint>
#include <new>
#include <cooperative_groups.h>
#include <cuda/atomic>
#include <cuda/semaphore>
#include <cuda/std/limits>
#include <hashdb/common.cuh>
#include <hashdb/hash_functions.cuh>

namespace hashdb {
namespace cg = cooperative_groups;

// Warp-aggregated increment: the active lanes elect one leader, which
// reserves room for all of them with a single atomicAdd.
__device__ __forceinline__ unsigned int aggregated_increment(unsigned int* counter) {
  cg::coalesced_group active = cg::coalesced_threads();
  unsigned int base = 0;
  if (active.thread_rank() == 0) base = atomicAdd(counter, active.size());
  return active.shfl(base, 0) + active.thread_rank();
}

// Stream compaction of the rows that satisfy a predicate.
template <typename Pred>
__global__ void filter_rows(const uint32_t* in, size_t n, uint32_t* out, unsigned int* out_count, Pred pred) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n && pred(in[i])) out[aggregated_increment(out_count)] = in[i];
}

// Duplicate keys of a warp meet in a labeled partition; its leader adds the
// group's count once.
__global__ void labeled_counts(const uint32_t* keys, size_t n, unsigned int* counts) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const uint32_t key = keys[i];
  cg::coalesced_group active = cg::coalesced_threads();
  cg::coalesced_group same = cg::labeled_partition(active, key);
  if (same.thread_rank() == 0) atomicAdd(counts + key, same.size());
}

using DeviceSemaphore = cuda::binary_semaphore<cuda::thread_scope_device>;

__global__ void init_semaphores(DeviceSemaphore* sems, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) new (sems + i) DeviceSemaphore(1);
}

// Per-bucket running maxima and counts under a binary semaphore.
__global__ void semaphore_update(DeviceSemaphore* sems, unsigned long long* maxima, unsigned int* counts,
                                 int num_buckets, const uint32_t* keys, const uint32_t* vals, size_t n) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const int b = int(keys[i] % unsigned(num_buckets));
  sems[b].acquire();
  volatile unsigned long long* m = maxima + b;
  if (*m < vals[i]) *m = vals[i];
  volatile unsigned int* c = counts + b;
  *c = *c + 1;
  sems[b].release();
}

// Single-pass chained scan of per-block counts: blocks take their index
// from a counter (so predecessors have started), wait for the predecessor's
// inclusive prefix, and publish their own.
struct ScanState {
  unsigned int* next_block;
  unsigned int* ready;      // per block: 1 when prefix[b] is published
  unsigned long long* prefix;
};

template <int BlockSize>
__global__ void chained_scan(ScanState st, const uint32_t* in, size_t n, unsigned long long* out) {
  __shared__ unsigned int block_id;
  __shared__ unsigned long long partial[BlockSize];
  __shared__ unsigned long long exclusive;
  if (threadIdx.x == 0) block_id = atomicAdd(st.next_block, 1u);
  __syncthreads();
  const size_t i = size_t(block_id) * BlockSize + threadIdx.x;
  partial[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  // Hillis-Steele inclusive scan in shared memory.
  for (int off = 1; off < BlockSize; off <<= 1) {
    const unsigned long long add = threadIdx.x >= unsigned(off) ? partial[threadIdx.x - off] : 0ull;
    __syncthreads();
    partial[threadIdx.x] += add;
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    unsigned long long before = 0;
    if (block_id > 0) {
      cuda::atomic_ref<unsigned int, cuda::thread_scope_device> flag(st.ready[block_id - 1]);
      unsigned ns = 32;
      while (flag.load(cuda::std::memory_order_acquire) == 0) {
        __nanosleep(ns);
        ns = ns < 1024 ? ns * 2 : ns;
      }
      before = st.prefix[block_id - 1];
    }
    exclusive = before;
    st.prefix[block_id] = before + partial[BlockSize - 1];
    cuda::atomic_ref<unsigned int, cuda::thread_scope_device>(st.ready[block_id])
        .store(1u, cuda::std::memory_order_release);
  }
  __syncthreads();
  if (i < n) out[i] = exclusive + partial[threadIdx.x];
}

// A hash set of 16-bit fingerprints: atomicCAS on unsigned short, a
// block-scope atomic on a shared counter, one global atomic per block.
__global__ void fingerprint_insert(unsigned short* table, uint32_t capacity, const uint32_t* keys, size_t n,
                                   unsigned int* fresh) {
  __shared__ unsigned int block_fresh;
  if (threadIdx.x == 0) block_fresh = 0;
  __syncthreads();
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) {
    const uint32_t h = fmix32(keys[i]);
    const unsigned short fp = static_cast<unsigned short>((h >> 16) | 1u);  // never 0 (empty)
    uint32_t slot = __umulhi(h, capacity);  // range reduction without a modulo
    for (uint32_t probe = 0; probe < capacity; ++probe) {
      const unsigned short prev = atomicCAS(table + slot, static_cast<unsigned short>(0), fp);
      if (prev == 0) {
        atomicAdd_block(&block_fresh, 1u);
        break;
      }
      if (prev == fp) break;
      slot = slot + 1 == capacity ? 0 : slot + 1;
    }
  }
  __syncthreads();
  if (threadIdx.x == 0 && block_fresh) atomicAdd(fresh, block_fresh);
}

}  // namespace hashdb
