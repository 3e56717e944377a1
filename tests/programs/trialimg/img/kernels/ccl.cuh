// Connected-component labelling (4-connectivity) with a union-find forest in
// global memory: init, merge along edges with atomicMin, path compression.
#ifndef TRIALIMG_CCL_CUH
#define TRIALIMG_CCL_CUH
#include <cuda_runtime.h>

namespace ccl {

__device__ int d_changed;

__device__ __forceinline__ int findRoot(const int *parent, int x) {
  int p = parent[x];
  while (p != x) {
    x = p;
    p = parent[x];
  }
  return x;
}

__device__ void unite(int *parent, int a, int b) {
  bool done = false;
  while (!done) {
    a = findRoot(parent, a);
    b = findRoot(parent, b);
    if (a == b) return;
    if (a < b) {
      int t = a;
      a = b;
      b = t;
    }
    // Hook the larger root under the smaller one; retry if someone else did first.
    int old = atomicMin(&parent[a], b);
    done = (old == a);
    if (!done) a = old;
  }
}

__global__ void initLabels(int *parent, const unsigned char *img, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  int i = y * w + x;
  parent[i] = img[i] ? i : -1;
}

__global__ void mergeLabels(int *parent, const unsigned char *img, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  int i = y * w + x;
  if (!img[i]) return;
  if (x + 1 < w && img[i + 1]) unite(parent, i, i + 1);
  if (y + 1 < h && img[i + w]) unite(parent, i, i + w);
}

__global__ void compressPaths(int *parent, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    int p = parent[i];
    if (p < 0) continue;
    int root = findRoot(parent, i);
    if (root != p) {
      parent[i] = root;
      d_changed = 1;
    }
  }
}

// Counts roots: labels that are their own parent.
__global__ void countRoots(const int *parent, int n, unsigned int *count) {
  unsigned int mine = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) mine += parent[i] == i;
  for (int off = 16; off > 0; off >>= 1) mine += __shfl_down_sync(0xffffffffu, mine, off);
  if ((threadIdx.x & 31) == 0 && mine) atomicAdd(count, mine);
}

}  // namespace ccl

#endif  // TRIALIMG_CCL_CUH
