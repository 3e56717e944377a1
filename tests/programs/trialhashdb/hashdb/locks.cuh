#pragma once
// Per-bucket spin locks and a ticket lock, in the three styles found in GPU
// data-structure code: bare atomicCAS/atomicExch, back-off with __nanosleep,
// and libcu++'s cuda::atomic_ref.
#include <cstdint>
#include <cuda/atomic>
#include <cuda/std/atomic>
#include <hashdb/common.cuh>
#include <hashdb/hash_functions.cuh>

namespace hashdb {

// A bucket of (key, count) pairs guarded by its own lock.
template <int Capacity>
struct LockedBucket {
  int lock;
  int size;
  uint32_t keys[Capacity];
  uint32_t counts[Capacity];
};

// The pre-Volta idiom that only works with independent thread scheduling:
// lanes of one warp spin on a lock held by another lane of the same warp.
struct BareSpinLock {
  int* word;
  __device__ void lock() const {
    while (atomicCAS(word, 0, 1) != 0) {
    }
    __threadfence();
  }
  __device__ void unlock() const {
    __threadfence();
    atomicExch(word, 0);
  }
};

// Exponential back-off with __nanosleep.
struct BackoffSpinLock {
  int* word;
  __device__ void lock() const {
    unsigned ns = 8;
    while (atomicCAS(word, 0, 1) != 0) {
      __nanosleep(ns);
      if (ns < 256) ns *= 2;
    }
    __threadfence();
  }
  __device__ void unlock() const {
    __threadfence();
    atomicExch(word, 0);
  }
};

// libcu++: acquire/release through an atomic_ref on the lock word.
struct AtomicRefLock {
  int* word;
  __device__ void lock() const {
    cuda::atomic_ref<int, cuda::thread_scope_device> ref(*word);
    int expected = 0;
    while (!ref.compare_exchange_weak(expected, 1, cuda::std::memory_order_acquire,
                                      cuda::std::memory_order_relaxed)) {
      expected = 0;
      __nanosleep(16);
    }
  }
  __device__ void unlock() const {
    cuda::atomic_ref<int, cuda::thread_scope_device> ref(*word);
    ref.store(0, cuda::std::memory_order_release);
  }
};

template <typename Lock, int Capacity>
__device__ void locked_count(LockedBucket<Capacity>* buckets, uint32_t num_buckets, uint32_t key) {
  LockedBucket<Capacity>& b = buckets[MurmurHash<uint32_t>{}(key) % num_buckets];
  Lock l{&b.lock};
  l.lock();
  volatile LockedBucket<Capacity>& vb = b;
  int i = 0;
  const int size = vb.size;
  while (i < size && vb.keys[i] != key) ++i;
  if (i < size) {
    vb.counts[i] = vb.counts[i] + 1;
  } else if (size < Capacity) {
    vb.keys[size] = key;
    vb.counts[size] = 1;
    vb.size = size + 1;
  }
  l.unlock();
}

template <typename Lock, int Capacity>
__global__ void locked_count_kernel(LockedBucket<Capacity>* buckets, uint32_t num_buckets, const uint32_t* keys,
                                    size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    locked_count<Lock, Capacity>(buckets, num_buckets, keys[i]);
}

// A warp appends its 32 values to a shared log under one lock: lane 0 takes
// the lock, the warp writes together, lane 0 releases it.
__global__ void warp_locked_append(int* lock, unsigned int* tail, uint32_t* log, const uint32_t* in, size_t n) {
  const int lane = threadIdx.x & 31;
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  const bool active = i < n;
  const unsigned mask = __ballot_sync(kFullMask, active);
  if (!active) return;
  const int leader = __ffs(mask) - 1;
  unsigned int base = 0;
  if (lane == leader) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    __threadfence();
    base = *reinterpret_cast<volatile unsigned int*>(tail);
  }
  base = __shfl_sync(mask, base, leader);
  const int rank = __popc(mask & ((1u << lane) - 1));
  log[base + rank] = in[i];
  __syncwarp(mask);
  if (lane == leader) {
    *reinterpret_cast<volatile unsigned int*>(tail) = base + __popc(mask);
    __threadfence();
    atomicExch(lock, 0);
  }
}

// A ticket lock built on cuda::atomic_ref; every thread of the grid passes
// through the critical section once, in ticket order.
__global__ void ticket_lock_kernel(unsigned int* next_ticket, unsigned int* now_serving, unsigned int* order,
                                   unsigned long long* guarded_sum, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  cuda::atomic_ref<unsigned int, cuda::thread_scope_device> next(*next_ticket);
  cuda::atomic_ref<unsigned int, cuda::thread_scope_device> serving(*now_serving);
  const unsigned int ticket = next.fetch_add(1u, cuda::std::memory_order_relaxed);
  while (serving.load(cuda::std::memory_order_acquire) != ticket) __nanosleep(32);
  // Critical section: a plain read-modify-write made safe by the lock.
  *guarded_sum = *guarded_sum + static_cast<unsigned long long>(i);
  order[ticket] = i;
  serving.store(ticket + 1, cuda::std::memory_order_release);
}

}  // namespace hashdb
