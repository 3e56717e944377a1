// sssp.cu: single-source shortest paths. Bellman-Ford (topology-driven,
// atomicMin, a __device__ flag) and a near-far delta-stepping variant with
// worklists, checked against Dijkstra on the host.
// CUEMU_OPTIONS: --expt-extended-lambda
// NVCC_OPTIONS: -std=c++17 --expt-extended-lambda
#include <cstdio>
#include <vector>
#include "graph/operators.cuh"
#include "graph/reference.h"

#define INF_DIST 0x3fffffff

__device__ bool d_improved;

struct RelaxOp {
  int *dist;
  __device__ bool active(index_t v) const { return dist[v] < INF_DIST; }
  __device__ void operator()(index_t src, index_t dst, weight_t w) const {
    int nd = dist[src] + w;
    if (nd < atomicMin(&dist[dst], nd)) d_improved = true;
  }
};

template <typename T>
__global__ void fill(T *p, int n, T value) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] = value;
}

static void sssp_bellman_ford(const GraphOnDevice &dg, index_t src, std::vector<int> &out) {
  const DeviceCsr &g = dg.view();
  DeviceArray<int> dist(g.nnodes);
  fill<<<64, 256>>>(dist.ptr, g.nnodes, INF_DIST);
  int zero = 0;
  CUDA_CHECK(cudaMemcpy(dist.ptr + src, &zero, sizeof(int), cudaMemcpyHostToDevice));
  bool improved = true;
  int rounds = 0;
  while (improved && rounds < g.nnodes) {
    improved = false;
    CUDA_CHECK(cudaMemcpyToSymbol(d_improved, &improved, sizeof(bool)));
    advance_all_nodes<<<32, 128>>>(g, RelaxOp{dist});
    CUDA_CHECK(cudaMemcpyFromSymbol(&improved, d_improved, sizeof(bool)));
    ++rounds;
  }
  out.resize(g.nnodes);
  dist.download(out.data());
}

// Near-far: edges lighter than the split go to the near list, others to far.
struct NearFarOp {
  int *dist;
  int split;
  Worklist far;
  __device__ bool operator()(index_t src, index_t dst, weight_t w) const {
    int nd = __ldg(&dist[src]) + w;
    int old = atomicMin(&dist[dst], nd);
    if (nd >= old) return false;
    if (nd < split) return true;
    far.push(dst);
    return false;
  }
};

// Keeps the far items still beyond the new split; moves the rest to near.
__global__ void split_far(const int *dist, Worklist far_in, int n, int split, Worklist near, Worklist far_out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool in_range = i < n;
  index_t v = in_range ? far_in.items[i] : 0;
  bool go_near = in_range && dist[v] < split;
  bool keep = in_range && !go_near;
  near.push_warp_aggregated(go_near, v);
  far_out.push_warp_aggregated(keep, v);
}

static void sssp_near_far(const GraphOnDevice &dg, index_t src, int delta, std::vector<int> &out) {
  const DeviceCsr &g = dg.view();
  DeviceArray<int> dist(g.nnodes);
  fill<<<64, 256>>>(dist.ptr, g.nnodes, INF_DIST);
  int zero = 0;
  CUDA_CHECK(cudaMemcpy(dist.ptr + src, &zero, sizeof(int), cudaMemcpyHostToDevice));
  const int cap = 8 * g.nedges + 16;
  DoubleWorklist near(cap), far(cap);
  near.set_in(&src, 1);
  int split = delta;
  for (;;) {
    for (int n = near.in_size(); n > 0; n = near.in_size()) {
      near.clear_out();
      advance_worklist<<<(n + 127) / 128, 128>>>(g, near.in(), n, near.out(),
                                                  NearFarOp{dist, split, far.in()});
      CUDA_CHECK_LAST();
      near.swap();
    }
    int nf = far.in_size();
    if (nf == 0) break;
    split += delta;
    near.clear_out();
    far.clear_out();
    split_far<<<(nf + 127) / 128, 128>>>(dist, far.in(), nf, split, near.out(), far.out());
    CUDA_CHECK_LAST();
    near.swap();
    far.swap();
  }
  out.resize(g.nnodes);
  dist.download(out.data());
}

int main(int argc, char **argv) {
  const char *graphs[] = {"data/small.gr", "grid:48x32", "rmat:10:8"};
  int failures = 0;
  for (const char *spec : graphs) {
    char *args[] = {argv[0], const_cast<char *>(spec)};
    CsrGraph g = load_graph_from_args(2, args, spec);
    GraphOnDevice dg(g);
    std::vector<int> expect = host_dijkstra(g, 0), got;
    for (int &d : expect) if (d == kInfDist) d = INF_DIST;
    sssp_bellman_ford(dg, 0, got);
    failures += report("sssp bellman-ford", got == expect);
    sssp_near_far(dg, 0, 16, got);
    failures += report("sssp near-far", got == expect);
  }
  (void)argc;
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
