/*
 * sample_histogram.cu: a 256-bin histogram of a byte array, the way the
 * public histogram samples build one: each block counts into its own
 * histogram in shared memory with shared-memory atomics over a grid-stride
 * loop, then adds its bins to the global histogram with global atomics. The
 * data are read four bytes at a time, as those samples do. Checked against
 * a host count. Prints PASS and exits 0 when all is well.
 */
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "check.cuh"

#define BINS 256

__global__ void histogram256(const unsigned *words, int nwords,
                             unsigned *histogram) {
  __shared__ unsigned bins[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    bins[b] = 0;
  __syncthreads();

  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nwords;
       i += blockDim.x * gridDim.x) {
    unsigned w = words[i];
    atomicAdd(&bins[w & 0xffu], 1u);
    atomicAdd(&bins[(w >> 8) & 0xffu], 1u);
    atomicAdd(&bins[(w >> 16) & 0xffu], 1u);
    atomicAdd(&bins[w >> 24], 1u);
  }
  __syncthreads();

  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    if (bins[b])
      atomicAdd(&histogram[b], bins[b]);
}

int main() {
  const int nbytes = 1 << 20;
  const int nwords = nbytes / 4;
  std::vector<unsigned char> data(nbytes);
  /* Skewed, reproducible data: small values are more frequent. */
  unsigned seed = 77u;
  for (int i = 0; i < nbytes; ++i) {
    seed = seed * 1664525u + 1013904223u;
    unsigned r = seed >> 8;
    data[i] = (unsigned char)((r & 0xffu) & ((r >> 8) & 0xffu));
  }
  unsigned expected[BINS] = {0};
  for (int i = 0; i < nbytes; ++i)
    ++expected[data[i]];

  unsigned *words = nullptr, *histogram = nullptr;
  CHECK(cudaMalloc(&words, nbytes) == cudaSuccess);
  CHECK(cudaMalloc(&histogram, BINS * sizeof(unsigned)) == cudaSuccess);
  CHECK(cudaMemcpy(words, data.data(), nbytes, cudaMemcpyHostToDevice) ==
        cudaSuccess);
  CHECK(cudaMemset(histogram, 0, BINS * sizeof(unsigned)) == cudaSuccess);

  histogram256<<<60, 192>>>(words, nwords, histogram);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);

  unsigned result[BINS];
  CHECK(cudaMemcpy(result, histogram, sizeof result,
                   cudaMemcpyDeviceToHost) == cudaSuccess);
  unsigned long long total = 0;
  int wrong = 0;
  for (int b = 0; b < BINS; ++b) {
    total += result[b];
    if (result[b] != expected[b] && wrong++ < 5)
      std::fprintf(stderr, "bin %d: %u, not %u\n", b, result[b],
                   expected[b]);
  }
  CHECK(wrong == 0);
  CHECK(total == (unsigned long long)nbytes);
  /* The skew is there: bin 0 is the largest, bin 255 the smallest. */
  CHECK(result[0] > result[1] && result[1] > result[255]);

  CHECK(cudaFree(words) == cudaSuccess);
  CHECK(cudaFree(histogram) == cudaSuccess);
  return finish();
}
