// operators.cuh: Gunrock-style advance/filter templates driven by functors.
#ifndef TRIALGRAPH_OPERATORS_CUH
#define TRIALGRAPH_OPERATORS_CUH
#include <cub/device/device_scan.cuh>
#include <cub/device/device_reduce.cuh>
#include "device_graph.cuh"
#include "worklist.cuh"

// Topology-driven: every node, every iteration; Op decides per edge.
template <typename Op>
__global__ void advance_all_nodes(DeviceCsr g, Op op) {
  for (index_t v = blockIdx.x * blockDim.x + threadIdx.x; v < g.nnodes;
       v += blockDim.x * gridDim.x) {
    if (!op.active(v)) continue;
    for (index_t e = g.begin(v); e < g.end(v); ++e) op(v, g.edge_dst[e], g.edge_wt[e]);
  }
}

// Data-driven: one thread per worklist item; Op returns true when the
// destination must be pushed to the out worklist.
template <typename Op>
__global__ void advance_worklist(DeviceCsr g, Worklist in, int in_size, Worklist out, Op op) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  // Every lane of the warp runs the loop the same number of times so that
  // the aggregated push sees the whole warp.
  const int stride = blockDim.x * gridDim.x;
  const int rounds = (in_size + stride - 1) / stride;
  for (int r = 0; r < rounds; ++r) {
    const int i = r * stride + tid;
    index_t v = i < in_size ? in.items[i] : -1;
    index_t e0 = 0, e1 = 0;
    if (v >= 0) { e0 = g.begin(v); e1 = g.end(v); }
    // Unequal degrees: loop to the warp's maximum degree.
    int my_deg = e1 - e0;
    int max_deg = my_deg;
    for (int off = 16; off > 0; off >>= 1)
      max_deg = max(max_deg, __shfl_xor_sync(0xffffffffu, max_deg, off));
    for (int k = 0; k < max_deg; ++k) {
      bool push = false;
      index_t d = -1;
      if (k < my_deg) {
        d = g.edge_dst[e0 + k];
        push = op(v, d, g.edge_wt[e0 + k]);
      }
      out.push_warp_aggregated(push, d);
    }
  }
}

// Load-balanced (merge-path style): each thread takes one edge of the
// frontier, finds its source by binary search over the scanned degrees.
__device__ __forceinline__ int upper_bound_idx(const int *offsets, int n, int key) {
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = (lo + hi) >> 1;
    if (offsets[mid] <= key) lo = mid + 1; else hi = mid;
  }
  return lo - 1;
}

template <typename Op>
__global__ void frontier_degrees(DeviceCsr g, const index_t *frontier, int n, int *deg) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) deg[i] = i < n ? g.degree(frontier[i]) : 0;
}

template <typename Op>
__global__ void advance_load_balanced(DeviceCsr g, const index_t *frontier, int n,
                                      const int *scanned, int total_edges, Worklist out, Op op) {
  for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < total_edges; e += blockDim.x * gridDim.x) {
    int i = upper_bound_idx(scanned, n, e);
    index_t src = frontier[i];
    index_t eid = g.begin(src) + (e - scanned[i]);
    index_t dst = g.edge_dst[eid];
    if (op(src, dst, g.edge_wt[eid])) out.push(dst);
  }
}

// Runs one load-balanced advance over the frontier `in`; CUB temporary
// storage is sized with the usual two-call idiom.
template <typename Op>
void load_balanced_step(const DeviceCsr &g, const Worklist &in, int n, const Worklist &out, Op op,
                        int *d_deg, int *d_scan, cudaStream_t stream = 0) {
  if (n == 0) return;
  frontier_degrees<Op><<<(n + 256) / 256, 256, 0, stream>>>(g, in.items, n, d_deg);
  CUDA_CHECK_LAST();
  void *temp = nullptr;
  size_t temp_bytes = 0;
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp, temp_bytes, d_deg, d_scan, n + 1, stream));
  CUDA_CHECK(cudaMalloc(&temp, temp_bytes));
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp, temp_bytes, d_deg, d_scan, n + 1, stream));
  CUDA_CHECK(cudaFree(temp));
  int total = 0;
  CUDA_CHECK(cudaMemcpyAsync(&total, d_scan + n, sizeof(int), cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  if (total == 0) return;
  int blocks = (total + 255) / 256;
  if (blocks > 1024) blocks = 1024;
  advance_load_balanced<Op><<<blocks, 256, 0, stream>>>(g, in.items, n, d_scan, total, out, op);
  CUDA_CHECK_LAST();
}

#endif  // TRIALGRAPH_OPERATORS_CUH
