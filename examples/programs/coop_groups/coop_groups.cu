/*
 * coop_groups: per-block sums of squares written with cooperative groups.
 *
 * The same shared-memory tree as a __syncthreads() reduction, but written
 * the way most of NVIDIA's current samples are: the kernel takes a handle to
 * its block with cooperative_groups::this_thread_block(), indexes shared
 * memory by block.thread_rank() and waits with block.sync() (or, the free
 * function form, cg::sync(block)). The blocks are two-dimensional (32 x 8),
 * so thread_rank() is the linearised thread index, and the shared array is
 * an `extern __shared__` array sized at launch.
 */
#include <vector>

#include <cooperative_groups.h>

#define EXAMPLE_NAME "coop_groups"
#include "../common/example.cuh"

namespace cg = cooperative_groups;

/* The tree in shared memory; the block size must be a power of two. */
__device__ int block_reduce_sum(const cg::thread_block &block, int *scratch,
                                int value) {
  const unsigned rank = block.thread_rank();
  scratch[rank] = value;
  block.sync();
  for (unsigned stride = block.size() / 2; stride > 0; stride /= 2) {
    if (rank < stride)
      scratch[rank] += scratch[rank + stride];
    cg::sync(block);
  }
  return scratch[0];
}

/* sums[b] = the sum of in[i]^2 over block b's elements. */
__global__ void sum_of_squares(const int *__restrict__ in, int n,
                               int *__restrict__ sums) {
  extern __shared__ int scratch[];
  cg::thread_block block = cg::this_thread_block();
  const unsigned long long i =
      blockIdx.x * (unsigned long long)block.size() + block.thread_rank();
  const int v = i < (unsigned long long)n ? in[i] : 0;
  const int total = block_reduce_sum(block, scratch, v * v);
  if (block.thread_rank() == 0)
    sums[blockIdx.x] = total;
}

static void sum_of_squares_host(const int *in, int n, int per_block,
                                int *sums) {
  for (int b = 0; b * per_block < n; ++b) {
    int s = 0;
    for (int i = b * per_block; i < n && i < (b + 1) * per_block; ++i)
      s += in[i] * in[i];
    sums[b] = s;
  }
}

int main(void) {
  example_seed(555u);
  const int n = 500000;
  const dim3 block(32, 8);
  const int per_block = block.x * block.y;
  const int grid = (n + per_block - 1) / per_block;
  std::vector<int> in(n), expect(grid), got(grid);
  for (int i = 0; i < n; ++i)
    in[i] = example_random_int(-1000, 1000);
  sum_of_squares_host(in.data(), n, per_block, expect.data());

  int *d_in = nullptr, *d_sums = nullptr;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_sums, grid * sizeof(int)));
  CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  sum_of_squares<<<grid, block, per_block * sizeof(int)>>>(d_in, n, d_sums);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  CHECK(cudaMemcpy(got.data(), d_sums, grid * sizeof(int),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_sums));

  const example_mismatches r = example_compare(got.data(), expect.data(), grid);
  if (r.bad)
    return example_fail("%zu of %d block sums wrong, first block %zu (got %d, "
                        "expected %d)",
                        r.bad, grid, r.first_bad, got[r.first_bad],
                        expect[r.first_bad]);
  return example_pass("%d block sums exact over %d elements", grid, n);
}
