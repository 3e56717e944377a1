// worklist.cuh: a global worklist with an atomic tail, pushed to with
// warp-aggregated atomics, and a double-buffered pair swapped by the host.
#ifndef TRIALGRAPH_WORKLIST_CUH
#define TRIALGRAPH_WORKLIST_CUH
#include "cuda_util.h"

struct Worklist {
  index_t *items;
  int *tail;      // device counter
  int capacity;

  // Every active lane that has an item pushes it; one atomic per warp.
  __device__ __forceinline__ void push_warp_aggregated(bool has_item, index_t item) const {
    const unsigned active = __activemask();
    const unsigned want = __ballot_sync(active, has_item);
    if (want == 0) return;
    const int lane = threadIdx.x & 31;
    const int leader = __ffs(want) - 1;
    int base = 0;
    if (lane == leader) base = atomicAdd(tail, __popc(want));
    base = __shfl_sync(active, base, leader);
    if (has_item) {
      const int offset = __popc(want & ((1u << lane) - 1));
      const int slot = base + offset;
      if (slot < capacity) items[slot] = item;
    }
  }

  __device__ __forceinline__ void push(index_t item) const {
    int slot = atomicAdd(tail, 1);
    if (slot < capacity) items[slot] = item;
  }
};

class DoubleWorklist {
 public:
  explicit DoubleWorklist(int capacity) : cap_(capacity) {
    for (int i = 0; i < 2; ++i) {
      CUDA_CHECK(cudaMalloc(&items_[i], sizeof(index_t) * capacity));
      CUDA_CHECK(cudaMalloc(&tails_[i], sizeof(int)));
      CUDA_CHECK(cudaMemset(tails_[i], 0, sizeof(int)));
    }
  }
  ~DoubleWorklist() {
    for (int i = 0; i < 2; ++i) { cudaFree(items_[i]); cudaFree(tails_[i]); }
  }
  Worklist in() const { return Worklist{items_[cur_], tails_[cur_], cap_}; }
  Worklist out() const { return Worklist{items_[cur_ ^ 1], tails_[cur_ ^ 1], cap_}; }
  void swap() { cur_ ^= 1; }
  int in_size() const {
    int n = 0;
    CUDA_CHECK(cudaMemcpy(&n, tails_[cur_], sizeof(int), cudaMemcpyDeviceToHost));
    return n;
  }
  void clear_out(cudaStream_t s = 0) { CUDA_CHECK(cudaMemsetAsync(tails_[cur_ ^ 1], 0, sizeof(int), s)); }
  void set_in(const index_t *h, int n) {
    CUDA_CHECK(cudaMemcpy(items_[cur_], h, sizeof(index_t) * n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(tails_[cur_], &n, sizeof(int), cudaMemcpyHostToDevice));
  }

 private:
  index_t *items_[2];
  int *tails_[2];
  int cap_;
  int cur_ = 0;
};

#endif  // TRIALGRAPH_WORKLIST_CUH
