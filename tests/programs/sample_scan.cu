/*
 * sample_scan.cu: an exclusive prefix sum of a large array, the work-
 * efficient way (up-sweep and down-sweep in shared memory, as in the
 * well-known GPU Gems chapter), in three steps: each block scans its own
 * 2 * 256 elements in dynamic shared memory and writes its total; the
 * totals are scanned the same way by one block; a third kernel adds each
 * block's offset. The length is not a multiple of a block's share. Checked
 * against a host scan. Prints PASS and exits 0 when all is well.
 */
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "check.cuh"

#define THREADS 256
#define PER_BLOCK (2 * THREADS)

/* Scans PER_BLOCK elements of `in` starting at this block's share into
 * `out` (exclusive); writes the share's total to sums[blockIdx.x] when sums
 * is not null. Elements past n count as 0. */
__global__ void scan_block(const int *in, int *out, int *sums, int n) {
  extern __shared__ int temp[];
  const int t = threadIdx.x;
  const int base = blockIdx.x * PER_BLOCK;
  temp[2 * t] = base + 2 * t < n ? in[base + 2 * t] : 0;
  temp[2 * t + 1] = base + 2 * t + 1 < n ? in[base + 2 * t + 1] : 0;

  /* Up-sweep: build partial sums in place, as a balanced tree. */
  int offset = 1;
  for (int d = PER_BLOCK >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) {
      int left = offset * (2 * t + 1) - 1;
      int right = offset * (2 * t + 2) - 1;
      temp[right] += temp[left];
    }
    offset <<= 1;
  }

  /* The root holds the total; clear it and sweep down. */
  if (t == 0) {
    if (sums)
      sums[blockIdx.x] = temp[PER_BLOCK - 1];
    temp[PER_BLOCK - 1] = 0;
  }
  for (int d = 1; d < PER_BLOCK; d <<= 1) {
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      int left = offset * (2 * t + 1) - 1;
      int right = offset * (2 * t + 2) - 1;
      int held = temp[left];
      temp[left] = temp[right];
      temp[right] += held;
    }
  }
  __syncthreads();

  if (base + 2 * t < n)
    out[base + 2 * t] = temp[2 * t];
  if (base + 2 * t + 1 < n)
    out[base + 2 * t + 1] = temp[2 * t + 1];
}

/* Adds the scanned total of the blocks before each element's block. */
__global__ void add_offsets(int *data, const int *offsets, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] += offsets[i / PER_BLOCK];
}

int main() {
  const int n = (1 << 16) + 123;
  const int blocks = (n + PER_BLOCK - 1) / PER_BLOCK;
  CHECK(blocks <= PER_BLOCK); /* The totals fit in one block's scan. */

  std::vector<int> host(n), expected(n), result(n, -1);
  unsigned seed = 2024u;
  for (int i = 0; i < n; ++i) {
    seed = seed * 1103515245u + 12345u;
    host[i] = (int)((seed >> 16) % 100u) - 20;
  }
  int running = 0;
  for (int i = 0; i < n; ++i) {
    expected[i] = running;
    running += host[i];
  }

  int *in = nullptr, *out = nullptr, *sums = nullptr, *offsets = nullptr;
  CHECK(cudaMalloc(&in, n * sizeof(int)) == cudaSuccess);
  CHECK(cudaMalloc(&out, n * sizeof(int)) == cudaSuccess);
  CHECK(cudaMalloc(&sums, blocks * sizeof(int)) == cudaSuccess);
  CHECK(cudaMalloc(&offsets, blocks * sizeof(int)) == cudaSuccess);
  CHECK(cudaMemcpy(in, host.data(), n * sizeof(int),
                   cudaMemcpyHostToDevice) == cudaSuccess);

  const size_t shared = PER_BLOCK * sizeof(int);
  scan_block<<<blocks, THREADS, shared>>>(in, out, sums, n);
  CHECK(cudaGetLastError() == cudaSuccess);
  scan_block<<<1, THREADS, shared>>>(sums, offsets, nullptr, blocks);
  CHECK(cudaGetLastError() == cudaSuccess);
  add_offsets<<<(n + THREADS - 1) / THREADS, THREADS>>>(out, offsets, n);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(result.data(), out, n * sizeof(int),
                   cudaMemcpyDeviceToHost) == cudaSuccess);

  int wrong = 0, first = -1;
  for (int i = 0; i < n; ++i)
    if (result[i] != expected[i] && wrong++ == 0)
      first = i;
  if (wrong)
    std::fprintf(stderr, "%d wrong sums; the first at %d: %d, not %d\n",
                 wrong, first, result[first], expected[first]);
  CHECK(wrong == 0);

  /* The block totals, scanned, are the offsets of the blocks. */
  std::vector<int> host_offsets(blocks);
  CHECK(cudaMemcpy(host_offsets.data(), offsets, blocks * sizeof(int),
                   cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(host_offsets[0] == 0);
  CHECK(host_offsets[blocks - 1] == expected[(blocks - 1) * PER_BLOCK]);

  CHECK(cudaFree(in) == cudaSuccess);
  CHECK(cudaFree(out) == cudaSuccess);
  CHECK(cudaFree(sums) == cudaSuccess);
  CHECK(cudaFree(offsets) == cudaSuccess);
  return finish();
}
