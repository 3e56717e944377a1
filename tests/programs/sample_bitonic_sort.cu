/*
 * sample_bitonic_sort.cu: bitonic sorting networks, as the sorting-network
 * samples use them. A single block sorts 1024 keys in shared memory (each of
 * 512 threads does one compare-and-exchange per step, with a barrier between
 * steps); a larger array of 2^14 keys is sorted in global memory with one
 * launch per step, the launches themselves ordering the steps. Keys and
 * their original positions travel together. Checked against std::sort
 * (keys) and as a permutation (positions). Prints PASS and exits 0 when all
 * is well.
 */
#include <algorithm>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "check.cuh"

#define SHARED_KEYS 1024

/* Orders the pair (i, partner) ascending when `up`, descending otherwise. */
__device__ void compare_exchange(unsigned *keys, unsigned *values, int i,
                                 int partner, bool up) {
  unsigned a = keys[i], b = keys[partner];
  if ((a > b) == up) {
    keys[i] = b;
    keys[partner] = a;
    unsigned v = values[i];
    values[i] = values[partner];
    values[partner] = v;
  }
}

/* Sorts SHARED_KEYS keys (with their values) ascending in one block of
 * SHARED_KEYS / 2 threads. */
__global__ void bitonic_sort_shared(unsigned *keys, unsigned *values) {
  __shared__ unsigned skeys[SHARED_KEYS];
  __shared__ unsigned svalues[SHARED_KEYS];
  for (int i = threadIdx.x; i < SHARED_KEYS; i += blockDim.x) {
    skeys[i] = keys[i];
    svalues[i] = values[i];
  }
  for (int size = 2; size <= SHARED_KEYS; size <<= 1) {
    for (int stride = size >> 1; stride > 0; stride >>= 1) {
      __syncthreads();
      /* Thread t owns the t-th pair whose lower index has the stride bit
       * clear. */
      int t = threadIdx.x;
      int i = 2 * t - (t & (stride - 1));
      compare_exchange(skeys, svalues, i, i + stride, (i & size) == 0);
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < SHARED_KEYS; i += blockDim.x) {
    keys[i] = skeys[i];
    values[i] = svalues[i];
  }
}

/* One step of the global network: merge distance `stride` inside bitonic
 * sequences of length `size`; `up` is the final order. */
__global__ void bitonic_step(unsigned *keys, unsigned *values, int n,
                             int size, int stride, bool up) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int partner = i ^ stride;
  if (i < n && partner > i)
    compare_exchange(keys, values, i, partner, ((i & size) == 0) == up);
}

static bool sort_and_check(int n, bool shared, bool up) {
  std::vector<unsigned> keys(n), values(n);
  unsigned seed = 99u + (unsigned)n;
  for (int i = 0; i < n; ++i) {
    seed = seed * 1664525u + 1013904223u;
    keys[i] = seed % 5000u; /* with duplicates */
    values[i] = (unsigned)i;
  }
  std::vector<unsigned> expected = keys;
  if (up)
    std::sort(expected.begin(), expected.end());
  else
    std::sort(expected.begin(), expected.end(),
              [](unsigned a, unsigned b) { return a > b; });

  unsigned *dkeys = nullptr, *dvalues = nullptr;
  CHECK(cudaMalloc(&dkeys, n * sizeof(unsigned)) == cudaSuccess);
  CHECK(cudaMalloc(&dvalues, n * sizeof(unsigned)) == cudaSuccess);
  CHECK(cudaMemcpy(dkeys, keys.data(), n * sizeof(unsigned),
                   cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemcpy(dvalues, values.data(), n * sizeof(unsigned),
                   cudaMemcpyHostToDevice) == cudaSuccess);
  if (shared) {
    bitonic_sort_shared<<<1, SHARED_KEYS / 2>>>(dkeys, dvalues);
    CHECK(cudaGetLastError() == cudaSuccess);
  } else {
    const int threads = 256;
    for (int size = 2; size <= n; size <<= 1)
      for (int stride = size >> 1; stride > 0; stride >>= 1) {
        bitonic_step<<<(n + threads - 1) / threads, threads>>>(
            dkeys, dvalues, n, size, stride, up);
        CHECK(cudaGetLastError() == cudaSuccess);
      }
  }
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<unsigned> sorted(n), moved(n);
  CHECK(cudaMemcpy(sorted.data(), dkeys, n * sizeof(unsigned),
                   cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(cudaMemcpy(moved.data(), dvalues, n * sizeof(unsigned),
                   cudaMemcpyDeviceToHost) == cudaSuccess);

  /* The keys are sorted, and each key still has its own position. */
  bool ok = sorted == expected;
  std::vector<char> seen(n, 0);
  for (int i = 0; i < n; ++i) {
    unsigned from = moved[i];
    if (from >= (unsigned)n || seen[from] || keys[from] != sorted[i]) {
      ok = false;
      break;
    }
    seen[from] = 1;
  }
  if (!ok)
    std::fprintf(stderr, "%s sort of %d keys (%s) is wrong\n",
                 shared ? "shared" : "global", n,
                 up ? "ascending" : "descending");
  CHECK(cudaFree(dkeys) == cudaSuccess);
  CHECK(cudaFree(dvalues) == cudaSuccess);
  return ok;
}

int main() {
  CHECK(sort_and_check(SHARED_KEYS, true, true));
  CHECK(sort_and_check(1 << 14, false, true));
  CHECK(sort_and_check(1 << 12, false, false));
  return finish();
}
