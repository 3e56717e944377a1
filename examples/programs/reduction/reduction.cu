/*
 * reduction: the sum of a million integers in two passes.
 *
 * Pass one launches a few hundred blocks; each thread adds up a strided
 * share of the input (a grid-stride loop), then the block combines its
 * threads' sums with a tree in shared memory, halving the number of active
 * threads at each step with a __syncthreads() between steps, and thread 0
 * writes the block's partial sum. Pass two runs the same kernel with one
 * block over the partial sums. Integers make the result exact, whatever the
 * order of the additions.
 */
#include <vector>

#define EXAMPLE_NAME "reduction"
#include "../common/example.cuh"

/* The tree needs a power of two threads per block. */
#define BLOCK_SIZE 256

/* Writes the sum of in[0..n) handled by block b to out[b]. */
__global__ void reduce_sum(const long long *__restrict__ in,
                           long long *__restrict__ out, int n) {
  __shared__ long long partial[BLOCK_SIZE];
  const unsigned tid = threadIdx.x;
  long long sum = 0;
  for (int i = blockIdx.x * blockDim.x + tid; i < n;
       i += blockDim.x * gridDim.x)
    sum += in[i];
  partial[tid] = sum;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (tid < stride)
      partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = partial[0];
}

static long long reduce_sum_host(const std::vector<long long> &v) {
  long long sum = 0;
  for (long long x : v)
    sum += x;
  return sum;
}

int main(void) {
  example_seed(2024u);
  const int n = (1 << 20) + 777;
  const int blocks = 320;
  std::vector<long long> in(n);
  for (int i = 0; i < n; ++i)
    in[i] = (long long)(example_random_u32() >> 4) - (1 << 27);
  const long long expect = reduce_sum_host(in);

  long long *d_in = nullptr, *d_partial = nullptr, *d_sum = nullptr;
  CHECK(cudaMalloc(&d_in, n * sizeof(long long)));
  CHECK(cudaMalloc(&d_partial, blocks * sizeof(long long)));
  CHECK(cudaMalloc(&d_sum, sizeof(long long)));
  CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(long long),
                   cudaMemcpyHostToDevice));

  reduce_sum<<<blocks, BLOCK_SIZE>>>(d_in, d_partial, n);
  CHECK(cudaGetLastError());
  reduce_sum<<<1, BLOCK_SIZE>>>(d_partial, d_sum, blocks);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  std::vector<long long> partial(blocks);
  long long got = 0;
  CHECK(cudaMemcpy(partial.data(), d_partial, blocks * sizeof(long long),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&got, d_sum, sizeof(long long), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_partial));
  CHECK(cudaFree(d_sum));

  /* Each partial sum must match the host's sum of the same elements. */
  int bad_partials = 0;
  for (int b = 0; b < blocks; ++b) {
    long long s = 0;
    for (int i = b * BLOCK_SIZE; i < n; i += blocks * BLOCK_SIZE)
      for (int j = i; j < i + BLOCK_SIZE && j < n; ++j)
        s += in[j];
    if (s != partial[b])
      ++bad_partials;
  }
  if (got != expect || bad_partials)
    return example_fail("sum %lld, expected %lld; %d of %d partial sums wrong",
                        got, expect, bad_partials, blocks);
  return example_pass("sum %lld exact over %d elements, %d blocks", got, n,
                      blocks);
}
