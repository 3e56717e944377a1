// lambda_ops.cu: Gunrock-style operators that take __device__ lambdas
// (--expt-extended-lambda), transform-reduce with device lambdas, cooperative-groups
// aggregated atomics (coalesced_threads) and __match_any_sync.
// CUEMU_OPTIONS: --expt-extended-lambda
// NVCC_OPTIONS: -std=c++17 --expt-extended-lambda
#include <cstdio>
#include <vector>
#include <cooperative_groups.h>
#include "graph/device_graph.cuh"
#include "graph/reference.h"

namespace cg = cooperative_groups;

namespace oprtr {
// Calls op(src, dst, edge) for every edge of every vertex in the frontier
// and appends the destinations op accepts to out (aggregated per coalesced group).
template <typename OpT>
__global__ void advance_kernel(DeviceCsr g, const int *in, int n, int *out, int *out_len, OpT op) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int src = in[i];
  for (int e = g.begin(src); e < g.end(src); ++e) {
    int dst = g.edge_dst[e];
    if (op(src, dst, e)) {
      cg::coalesced_group active = cg::coalesced_threads();
      int base = 0;
      if (active.thread_rank() == 0) base = atomicAdd(out_len, (int)active.size());
      base = active.shfl(base, 0);
      out[base + active.thread_rank()] = dst;
    }
  }
}

template <typename OpT>
int advance(const DeviceCsr &g, const int *in, int n, int *out, int *len, OpT op) {
  CUDA_CHECK(cudaMemset(len, 0, sizeof(int)));
  if (n > 0) advance_kernel<<<(n + 127) / 128, 128>>>(g, in, n, out, len, op);
  CUDA_CHECK_LAST();
  int h = 0;
  CUDA_CHECK(cudaMemcpy(&h, len, sizeof(int), cudaMemcpyDeviceToHost));
  return h;
}

// A transform-reduce over an array with a __device__ lambda (Thrust's
// count_if and transform_reduce in the trial; plain kernels here).
template <typename F>
__global__ void transform_sum(const int *in, int n, long long *sum, F f) {
  long long local = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) local += f(in[i]);
  for (int off = 16; off; off >>= 1) local += __shfl_down_sync(0xffffffffu, local, off);
  if ((threadIdx.x & 31) == 0) atomicAdd((unsigned long long *)sum, (unsigned long long)local);
}

template <typename F>
long long sum_of(const int *in, int n, F f) {
  DeviceArray<long long> sum(1);
  CUDA_CHECK(cudaMemset(sum, 0, sizeof(long long)));
  transform_sum<<<8, 128>>>(in, n, sum.ptr, f);
  long long h = 0;
  sum.download(&h);
  return h;
}
}  // namespace oprtr

// Aggregates a histogram update by key inside a warp with __match_any_sync.
__global__ void degree_histogram(DeviceCsr g, int *hist, int buckets) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  bool valid = v < g.nnodes;
  int key = valid ? min(g.degree(v), buckets - 1) : -1 - (int)(threadIdx.x & 31);
  unsigned peers = __match_any_sync(0xffffffffu, key);
  int leader = __ffs(peers) - 1;
  if (valid && (int)(threadIdx.x & 31) == leader) atomicAdd(&hist[key], __popc(peers));
}

int main(int argc, char **argv) {
  CsrGraph g = load_graph_from_args(argc, argv, "rmat:10:8");
  GraphOnDevice dg(g);
  const DeviceCsr dv = dg.view();
  int failures = 0;

  DeviceArray<int> depth(g.nnodes), frontier(g.nedges + 1), next(g.nedges + 1), len(1);
  std::vector<int> init(g.nnodes, -1);
  init[0] = 0;
  depth.upload(init.data());
  int zero = 0;
  CUDA_CHECK(cudaMemcpy(frontier.ptr, &zero, sizeof(int), cudaMemcpyHostToDevice));
  int *d_depth = depth.ptr;
  int n = 1, level = 0;
  while (n > 0) {
    ++level;
    const int lvl = level;
    n = oprtr::advance(dv, frontier, n, next, len,
                       [d_depth, lvl] __device__(int src, int dst, int edge) -> bool {
                         return atomicCAS(d_depth + dst, -1, lvl) == -1;
                       });
    std::swap(frontier.ptr, next.ptr);
  }
  std::vector<int> got(g.nnodes);
  depth.download(got.data());
  failures += report("lambda advance BFS", got == host_bfs(g, 0));

  long long reached = oprtr::sum_of(depth, g.nnodes, [] __device__(int d) { return d >= 0 ? 1 : 0; });
  long long sum = oprtr::sum_of(depth, g.nnodes, [] __host__ __device__(int d) { return d >= 0 ? d * d : 0; });
  long long host_reached = 0, host_sum = 0;
  for (int d : got) {
    host_reached += d >= 0;
    host_sum += d >= 0 ? (long long)d * d : 0;
  }
  failures += report("transform-reduce with device lambdas", reached == host_reached && sum == host_sum);

  const int buckets = 16;
  DeviceArray<int> hist(buckets);
  CUDA_CHECK(cudaMemset(hist, 0, buckets * sizeof(int)));
  degree_histogram<<<(g.nnodes + 255) / 256, 256>>>(dv, hist, buckets);
  std::vector<int> expect(buckets, 0), h(buckets);
  for (int v = 0; v < g.nnodes; ++v) expect[std::min(g.degree(v), buckets - 1)]++;
  hist.download(h.data());
  failures += report("match_any aggregated histogram", h == expect);

  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures;
}
