// toolkit_include_path.cu: Makefiles pass the CUDA toolkit's include folder
// (Rodinia's make.config: -I$(CUDA_DIR)/include) and sources include
// <cuda.h> and <cuda_runtime.h>. With nvcc that names the headers nvcc uses
// anyway; cuemu-nvcc once searched it before its shims, so the toolkit's
// own cuda.h met the shims' definitions ("redefinition of struct
// CUuuid_st": Rodinia bfs did not build). toolkit_include/ stands for such
// a folder: its runtime headers stop the compile if read, and its other
// headers are found there before those of later -I folders, as with nvcc
// (project_include/ has a toolkit_only.h too; cuemu-nvcc once searched the
// toolkit's folder last, as -isystem, and took the project's).
// CUEMU_OPTIONS: -Itoolkit_include -Iproject_include -DEXPECT_TOOLKIT_ONLY=1
#include <cuda.h>
#include <cuda_runtime.h>

#include "../check.cuh"

#if defined(__has_include)
#if __has_include(<toolkit_only.h>)
#include <toolkit_only.h>
#endif
#endif

struct Node {
  int starting;
  int no_of_edges;
};

// One BFS level, as Rodinia's bfs kernel does it.
__global__ void expand(const Node *nodes, const int *edges, bool *frontier,
                       bool *next, bool *visited, int *cost, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < n && frontier[tid]) {
    frontier[tid] = false;
    for (int i = nodes[tid].starting;
         i < nodes[tid].starting + nodes[tid].no_of_edges; i++) {
      int id = edges[i];
      if (!visited[id]) {
        cost[id] = cost[tid] + 1;
        next[id] = true;
      }
    }
  }
}

__global__ void advance(bool *frontier, bool *next, bool *visited, bool *more,
                        int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < n && next[tid]) {
    frontier[tid] = visited[tid] = true;
    *more = true;
    next[tid] = false;
  }
}

int main() {
#ifdef EXPECT_TOOLKIT_ONLY
#ifdef TOOLKIT_ONLY_VALUE
  CHECK(TOOLKIT_ONLY_VALUE == 42);
#else
  CHECK(!"toolkit_only.h was not found");
#endif
#endif
  // A ring of 600 nodes with a chord from every node to the node 100
  // ahead: BFS depth from node 0 by a host search below.
  const int n = 600;
  Node *nodes;
  int *edges, *cost;
  bool *frontier, *next, *visited, *more;
  CHECK(cudaMallocManaged(&nodes, n * sizeof(Node)) == cudaSuccess);
  CHECK(cudaMallocManaged(&edges, 3 * n * sizeof(int)) == cudaSuccess);
  CHECK(cudaMallocManaged(&cost, n * sizeof(int)) == cudaSuccess);
  CHECK(cudaMallocManaged(&frontier, n) == cudaSuccess);
  CHECK(cudaMallocManaged(&next, n) == cudaSuccess);
  CHECK(cudaMallocManaged(&visited, n) == cudaSuccess);
  CHECK(cudaMallocManaged(&more, 1) == cudaSuccess);
  for (int v = 0; v < n; ++v) {
    nodes[v] = {3 * v, 3};
    edges[3 * v] = (v + 1) % n;
    edges[3 * v + 1] = (v + n - 1) % n;
    edges[3 * v + 2] = (v + 100) % n;
    cost[v] = v ? -1 : 0;
    frontier[v] = visited[v] = v == 0;
    next[v] = false;
  }
  int levels = 0;
  do {
    *more = false;
    expand<<<(n + 255) / 256, 256>>>(nodes, edges, frontier, next, visited,
                                    cost, n);
    advance<<<(n + 255) / 256, 256>>>(frontier, next, visited, more, n);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    ++levels;
  } while (*more && levels < n);

  // The host's breadth-first search.
  int ref[n], queue[n], head = 0, tail = 0;
  for (int v = 0; v < n; ++v)
    ref[v] = -1;
  ref[0] = 0;
  queue[tail++] = 0;
  while (head < tail) {
    int v = queue[head++];
    for (int k = 0; k < 3; ++k) {
      int u = edges[3 * v + k];
      if (ref[u] < 0) {
        ref[u] = ref[v] + 1;
        queue[tail++] = u;
      }
    }
  }
  int wrong = 0;
  for (int v = 0; v < n; ++v)
    wrong += cost[v] != ref[v];
  CHECK(wrong == 0);
  CHECK(ref[300] == 3); // 0 -> 100 -> 200 -> 300
  return finish();
}
