/*
 * histogram: a 256-bin histogram of two million bytes.
 *
 * Each block keeps private bins in shared memory: its threads clear them,
 * wait at a barrier, count their strided share of the input with shared
 * memory atomicAdd, wait again, and then add the block's bins to the global
 * histogram with one global atomicAdd per bin. Blocks run concurrently, so
 * the global additions must be atomic too. The input is skewed (the sum of
 * two random bytes, halved), so a few bins see heavy contention.
 *
 * The global histogram is in managed memory: the host reads it directly,
 * after cudaDeviceSynchronize().
 */
#include <vector>

#define EXAMPLE_NAME "histogram"
#include "../common/example.cuh"

#define BINS 256

__global__ void histogram(const unsigned char *__restrict__ data, size_t n,
                          unsigned int *__restrict__ bins) {
  __shared__ unsigned int local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)blockDim.x * gridDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    if (local[b])
      atomicAdd(&bins[b], local[b]);
}

static void histogram_host(const unsigned char *data, size_t n,
                           unsigned int *bins) {
  for (int b = 0; b < BINS; ++b)
    bins[b] = 0;
  for (size_t i = 0; i < n; ++i)
    ++bins[data[i]];
}

int main(void) {
  example_seed(4242u);
  const size_t n = 2u << 20;
  std::vector<unsigned char> data(n);
  for (size_t i = 0; i < n; ++i)
    data[i] = (unsigned char)(((example_random_u32() >> 24) +
                               (example_random_u32() >> 24)) /
                              2);
  std::vector<unsigned int> expect(BINS);
  histogram_host(data.data(), n, expect.data());

  unsigned char *d_data = nullptr;
  unsigned int *hist = nullptr;
  CHECK(cudaMalloc(&d_data, n));
  CHECK(cudaMallocManaged(&hist, BINS * sizeof(unsigned int)));
  CHECK(cudaMemcpy(d_data, data.data(), n, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(hist, 0, BINS * sizeof(unsigned int)));

  /* Fewer threads than bytes: each thread counts about 32 of them. */
  const int block = 128, grid = 512;
  histogram<<<grid, block>>>(d_data, n, hist);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  CHECK(cudaFree(d_data));

  unsigned long long total = 0;
  for (int b = 0; b < BINS; ++b)
    total += hist[b];
  const example_mismatches r = example_compare(hist, expect.data(), BINS);
  if (r.bad) {
    example_fail("%zu of %d bins wrong, first bin %zu (got %u, expected %u)",
                 r.bad, BINS, r.first_bad, hist[r.first_bad],
                 expect[r.first_bad]);
    CHECK(cudaFree(hist));
    return 1;
  }
  CHECK(cudaFree(hist));
  return example_pass("%d bins exact, %llu of %zu bytes counted", BINS, total,
                      n);
}
