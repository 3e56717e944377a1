// bottom_up_ticket_fence.cu: a correct program built with every checker: a
// bottom-up tree reduction as LBVH builders compute their boxes. Each leaf's
// thread stores its node's value, fences, then takes a ticket of the parent
// with atomicAdd; the second thread to arrive reads both children (the
// sibling's store was published by its fence, and the reader's ticket is an
// atomic read after it) and goes up. The tree spans two blocks, so the
// handovers are both inside a block and between blocks; racecheck reports
// nothing and the root holds the sum. (Without the fence it is a race:
// tests/buggy/race_bottom_up_ticket_no_fence.cu.)
// CUEMU_OPTIONS: --check=all
#include <cuda_runtime.h>

#include "../check.cuh"

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
    __threadfence();
    int parent = node / 2;
    if (atomicAdd(&ticket[parent], 1) == 0)
      return;
    v = value[2 * parent] + value[2 * parent + 1];
    node = parent;
  }
}

int main() {
  const int leaves = 256;
  int host_in[leaves];
  long long sum = 0;
  for (int i = 0; i < leaves; ++i) {
    host_in[i] = (i * 37) % 101 - 50;
    sum += host_in[i];
  }
  int *in, *value, *ticket;
  cudaMalloc(&in, leaves * sizeof(int));
  cudaMalloc(&value, 2 * leaves * sizeof(int));
  cudaMalloc(&ticket, leaves * sizeof(int));
  cudaMemcpy(in, host_in, sizeof host_in, cudaMemcpyHostToDevice);
  cudaMemset(ticket, 0, leaves * sizeof(int));
  tree_sum<<<2, leaves / 2>>>(in, value, ticket, leaves);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  /* Nodes 1 to 2 * leaves - 1: node 0 is never written, and initcheck
   * reports a copy of unwritten bytes. */
  int host_value[2 * leaves];
  CHECK(cudaMemcpy(host_value + 1, value + 1, sizeof host_value - sizeof *value,
                   cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(host_value[1] == sum);
  /* Every internal node holds the sum of its children. */
  for (int node = 1; node < leaves; ++node)
    CHECK(host_value[node] == host_value[2 * node] + host_value[2 * node + 1]);
  cudaFree(in);
  cudaFree(value);
  cudaFree(ticket);
  return finish();
}
