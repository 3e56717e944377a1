// race_bottom_up_ticket_no_fence.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race global RAW line 22 line 28
#include <cstdio>
#include <cuda_runtime.h>

/* A bottom-up tree reduction as LBVH builders compute their boxes: each
 * leaf's thread stores its node's value, then takes a ticket of the parent
 * with atomicAdd; the second thread to arrive reads both children and goes
 * up. Nothing orders a child's store before the sibling's read: the ticket
 * is a relaxed atomic and there is no __threadfence() between the store and
 * the ticket (a GPU's L1 may give the reader a stale value, as llnl/axom's
 * BVH found). The correct version fences:
 * tests/programs/checkers/bottom_up_ticket_fence.cu. */
__global__ void tree_sum(const int *in, int *value, int *ticket, int leaves) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= leaves)
    return;
  int node = leaves + i;
  int v = in[i];
  for (;;) {
    value[node] = v;
    if (node == 1)
      return;
    int parent = node / 2;
    if (atomicAdd(&ticket[parent], 1) == 0)
      return;
    v = value[2 * parent] + value[2 * parent + 1];
    node = parent;
  }
}

int main() {
  const int leaves = 64;
  int *in, *value, *ticket;
  cudaMalloc(&in, leaves * sizeof(int));
  cudaMalloc(&value, 2 * leaves * sizeof(int));
  cudaMalloc(&ticket, leaves * sizeof(int));
  cudaMemset(in, 0, leaves * sizeof(int));
  cudaMemset(ticket, 0, leaves * sizeof(int));
  tree_sum<<<1, leaves>>>(in, value, ticket, leaves);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(err));
  cudaFree(in);
  cudaFree(value);
  cudaFree(ticket);
  return 0;
}
