/*
 * extern_shared_objects.cu: `extern __shared__` objects that are not arrays
 * (extern_shared_objects.cuh) are static __shared__ variables, as nvcc
 * treats them: beside an `extern __shared__` array of the dynamic buffer,
 * a kernel's scalar keeps its own value (issue 13, item 4).
 */
#include "check.cuh"
#include "extern_shared_objects.cuh"

int main() {
  const int blocks = 3, threads = 64, n = blocks * threads;
  float *in = nullptr, *copy = nullptr;
  int *counts = nullptr;
  BlockTotals *t = nullptr;
  double *dv = nullptr, *dmax = nullptr;
  cudaMallocManaged(&in, n * sizeof(float));
  cudaMallocManaged(&copy, n * sizeof(float));
  cudaMallocManaged(&counts, blocks * sizeof(int));
  cudaMallocManaged(&t, blocks * sizeof(BlockTotals));
  cudaMallocManaged(&dv, n * sizeof(double));
  cudaMallocManaged(&dmax, blocks * sizeof(double));
  for (int i = 0; i < n; i++) {
    in[i] = (i % 3 == 0) ? -1.0f : 0.5f; /* the first value of a block: -1 */
    dv[i] = (i * 37) % 101;
  }
  count_positive<<<blocks, threads, threads * sizeof(float)>>>(in, counts, copy);
  totals_of<<<blocks, threads>>>(in, t);
  block_max<<<blocks, threads>>>(dv, dmax);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int b = 0; b < blocks; b++) {
    int want = 0;
    float sum = 0.0f;
    double best = dv[b * threads];
    for (int i = 0; i < threads; i++) {
      want += in[b * threads + i] > 0.0f;
      sum += in[b * threads + i];
      if (dv[b * threads + i] > best) best = dv[b * threads + i];
      CHECK(copy[b * threads + i] == in[b * threads + threads - 1 - i]);
    }
    CHECK(counts[b] == want);
    CHECK(t[b].count == 2 * threads);
    CHECK(t[b].sum == sum);
    CHECK(dmax[b] == best);
  }
  /* The scalar is static shared memory of the kernel, as with nvcc. */
  cudaFuncAttributes attr;
  CHECK(cudaFuncGetAttributes(&attr, count_positive) == cudaSuccess);
  CHECK(attr.sharedSizeBytes >= sizeof(int));
  cudaFree(in);
  cudaFree(copy);
  cudaFree(counts);
  cudaFree(t);
  cudaFree(dv);
  cudaFree(dmax);
  return finish();
}
