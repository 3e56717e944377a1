// cc_tc_color.cu: connected components (hooking with atomicCAS and pointer
// jumping), triangle counting (sorted intersection, warp per vertex) and
// graph colouring (Jones-Plassmann with random priorities).
// CUEMU_OPTIONS: --expt-extended-lambda
// NVCC_OPTIONS: -std=c++17 --expt-extended-lambda
#include <cstdio>
#include <vector>
#include "graph/operators.cuh"
#include "graph/reference.h"

__device__ int d_hooked;

__global__ void cc_init(int *parent, int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) parent[v] = v;
}

__device__ __forceinline__ int find_root(const int *parent, int v) {
  while (parent[v] != v) v = parent[v];
  return v;
}

// Hooks the larger root under the smaller one, one CAS per edge.
__global__ void cc_hook(DeviceCsr g, int *parent) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= g.nnodes) return;
  for (index_t e = g.begin(v); e < g.end(v); ++e) {
    int u = g.edge_dst[e];
    for (;;) {
      int rv = find_root(parent, v), ru = find_root(parent, u);
      if (rv == ru) break;
      int hi = rv > ru ? rv : ru, lo = rv ^ ru ^ hi;
      if (atomicCAS(&parent[hi], hi, lo) == hi) { d_hooked = 1; break; }
    }
  }
}

__global__ void cc_jump(int *parent, int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  int p = parent[v];
  while (p != parent[p]) p = parent[p];
  parent[v] = p;
}

// Warp per vertex u; each lane takes neighbours v > u and binary-searches
// the intersection of the two sorted lists.
__global__ void tc_warp_per_vertex(DeviceCsr g, unsigned long long *count) {
  const int lane = threadIdx.x & 31;
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const int nwarps = (gridDim.x * blockDim.x) >> 5;
  unsigned long long local = 0;
  for (int u = warp; u < g.nnodes; u += nwarps) {
    const index_t ub = g.begin(u), ue = g.end(u);
    for (index_t e = ub + lane; e < ue; e += 32) {
      const index_t v = g.edge_dst[e];
      if (v <= u) continue;
      // Count w in N(u) with w > v that are also in N(v).
      for (index_t f = e + 1; f < ue; ++f) {
        const index_t w = g.edge_dst[f];
        index_t lo = g.begin(v), hi = g.end(v);
        while (lo < hi) {
          index_t mid = (lo + hi) / 2;
          if (g.edge_dst[mid] < w) lo = mid + 1; else hi = mid;
        }
        if (lo < g.end(v) && g.edge_dst[lo] == w) ++local;
      }
    }
  }
  for (int off = 16; off; off >>= 1) local += __shfl_xor_sync(0xffffffffu, local, off);
  if (lane == 0 && local) atomicAdd(count, local);
}

__device__ __host__ inline unsigned hash_priority(unsigned v) {
  v ^= v >> 16; v *= 0x7feb352dU; v ^= v >> 15; v *= 0x846ca68bU; v ^= v >> 16;
  return v;
}

// Jones-Plassmann: an uncoloured vertex whose priority beats every
// uncoloured neighbour takes the smallest colour its neighbours lack.
__global__ void color_step(DeviceCsr g, int *color, int *remaining) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= g.nnodes || color[v] >= 0) return;
  const unsigned pv = hash_priority(v);
  unsigned long long used = 0;
  for (index_t e = g.begin(v); e < g.end(v); ++e) {
    int u = g.edge_dst[e];
    int cu = ((volatile int *)color)[u];
    if (cu < 0) {
      unsigned pu = hash_priority(u);
      if (pu > pv || (pu == pv && u > v)) { atomicAdd(remaining, 1); return; }
    } else if (cu < 64) {
      used |= 1ull << cu;
    }
  }
  color[v] = __ffsll(~used) - 1;
}

int main(int argc, char **argv) {
  int failures = 0;
  const char *graphs[] = {"data/small.mtx", "rmat:10:6", "grid:20x20"};
  for (const char *spec : graphs) {
    char *args[] = {argv[0], const_cast<char *>(spec)};
    CsrGraph g = load_graph_from_args(2, args, spec);
    GraphOnDevice dg(g);
    const DeviceCsr &dv = dg.view();
    const int n = g.nnodes, blocks = (n + 255) / 256;

    DeviceArray<int> parent(n);
    cc_init<<<blocks, 256>>>(parent, n);
    int hooked = 1, rounds = 0;
    while (hooked) {
      hooked = 0;
      CUDA_CHECK(cudaMemcpyToSymbol(d_hooked, &hooked, sizeof(hooked)));
      cc_hook<<<blocks, 256>>>(dv, parent);
      cc_jump<<<blocks, 256>>>(parent, n);
      CUDA_CHECK(cudaMemcpyFromSymbol(&hooked, d_hooked, sizeof(hooked)));
      ++rounds;
    }
    std::vector<int> label(n);
    parent.download(label.data());
    failures += report("connected components", label == host_components(g));

    DeviceArray<unsigned long long> count(1);
    CUDA_CHECK(cudaMemset(count, 0, sizeof(unsigned long long)));
    tc_warp_per_vertex<<<(n * 32 + 255) / 256, 256>>>(dv, count);
    unsigned long long tc = 0;
    count.download(&tc);
    long long expect_tc = host_triangles(g);
    std::printf("triangles: %llu (host %lld)\n", tc, expect_tc);
    failures += report("triangle counting", (long long)tc == expect_tc);

    DeviceArray<int> color(n), remaining(1);
    CUDA_CHECK(cudaMemset(color, 0xff, sizeof(int) * n));
    int left = n, steps = 0;
    while (left > 0 && steps < 1000) {
      CUDA_CHECK(cudaMemset(remaining, 0, sizeof(int)));
      color_step<<<blocks, 256>>>(dv, color, remaining);
      remaining.download(&left);
      ++steps;
    }
    std::vector<int> col(n);
    color.download(col.data());
    bool proper = left == 0;
    int ncolors = 0;
    for (int v = 0; v < n; ++v) {
      ncolors = std::max(ncolors, col[v] + 1);
      for (index_t e = g.row_start[v]; e < g.row_start[v + 1]; ++e)
        if (col[v] < 0 || col[v] == col[g.edge_dst[e]]) proper = false;
    }
    std::printf("colouring: %d colours in %d steps\n", ncolors, steps);
    failures += report("graph colouring", proper);
  }
  (void)argc;
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures;
}
