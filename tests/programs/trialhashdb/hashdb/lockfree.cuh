#pragma once
// Lock-free structures with device-side allocation from a pre-allocated
// pool: a chained hash map with push-front chains and a Treiber stack whose
// head carries an ABA tag.
#include <cstdint>
#include <hashdb/common.cuh>
#include <hashdb/hash_functions.cuh>

namespace hashdb {

struct ChainNode {
  uint32_t key;
  uint32_t value;
  ChainNode* next;
};

template <typename Node>
struct BumpPool {
  Node* nodes;
  unsigned int* bump;
  unsigned int capacity;
  __device__ Node* allocate() const {
    const unsigned int i = atomicAdd(bump, 1u);
    return i < capacity ? nodes + i : nullptr;
  }
};

struct ChainedMap {
  ChainNode** heads;
  uint32_t num_buckets;
  BumpPool<ChainNode> pool;

  __device__ bool insert(uint32_t key, uint32_t value) const {
    ChainNode* node = pool.allocate();
    if (node == nullptr) return false;
    node->key = key;
    node->value = value;
    auto* head = reinterpret_cast<unsigned long long*>(heads + MurmurHash<uint32_t>{}(key) % num_buckets);
    unsigned long long old = *reinterpret_cast<volatile unsigned long long*>(head);
    while (true) {
      node->next = reinterpret_cast<ChainNode*>(old);
      __threadfence();
      const unsigned long long prev = atomicCAS(head, old, reinterpret_cast<unsigned long long>(node));
      if (prev == old) return true;
      old = prev;
    }
  }

  __device__ uint32_t count(uint32_t key) const {
    uint32_t c = 0;
    for (const ChainNode* n = heads[MurmurHash<uint32_t>{}(key) % num_buckets]; n; n = n->next) c += n->key == key;
    return c;
  }
};

__global__ void chained_insert_kernel(ChainedMap map, const uint32_t* keys, size_t n, unsigned int* failed) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n && !map.insert(keys[i], uint32_t(i))) atomicAdd(failed, 1u);
}

__global__ void chained_count_kernel(ChainedMap map, const uint32_t* keys, size_t n, uint32_t* counts) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) counts[i] = map.count(keys[i]);
}

// Detach every chain with atomicExch and sum what it held.
__global__ void chained_drain_kernel(ChainedMap map, unsigned long long* key_sum, unsigned int* nodes) {
  for (uint32_t b = blockIdx.x * blockDim.x + threadIdx.x; b < map.num_buckets; b += gridDim.x * blockDim.x) {
    auto* chain = reinterpret_cast<ChainNode*>(
        atomicExch(reinterpret_cast<unsigned long long*>(map.heads + b), 0ull));
    unsigned long long s = 0;
    unsigned int c = 0;
    for (; chain; chain = chain->next) {
      s += chain->key;
      ++c;
    }
    atomicAdd(key_sum, s);
    atomicAdd(nodes, c);
  }
}

// Treiber stack of pool indices; the head is (tag << 32) | index.
struct TaggedStack {
  static constexpr uint32_t kNull = 0xffffffffu;
  unsigned long long* head;
  uint32_t* next;

  __device__ void push(uint32_t idx) const {
    unsigned long long old = *reinterpret_cast<volatile unsigned long long*>(head);
    while (true) {
      next[idx] = uint32_t(old);
      __threadfence();
      const unsigned long long desired = (((old >> 32) + 1) << 32) | idx;
      const unsigned long long prev = atomicCAS(head, old, desired);
      if (prev == old) return;
      old = prev;
    }
  }

  __device__ uint32_t pop() const {
    unsigned long long old = *reinterpret_cast<volatile unsigned long long*>(head);
    while (true) {
      const uint32_t idx = uint32_t(old);
      if (idx == kNull) return kNull;
      const uint32_t nxt = reinterpret_cast<volatile uint32_t*>(next)[idx];
      const unsigned long long desired = (((old >> 32) + 1) << 32) | nxt;
      const unsigned long long prev = atomicCAS(head, old, desired);
      if (prev == old) return idx;
      old = prev;
    }
  }
};

__global__ void stack_push_pop_kernel(TaggedStack stack, BumpPool<uint32_t> pool, const uint32_t* in, size_t n,
                                      uint32_t* out) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  uint32_t* slot = pool.allocate();
  const uint32_t idx = uint32_t(slot - pool.nodes);
  *slot = in[i];
  stack.push(idx);
  const uint32_t got = stack.pop();
  out[i] = got == TaggedStack::kNull ? 0xffffffffu : pool.nodes[got];
}

}  // namespace hashdb
