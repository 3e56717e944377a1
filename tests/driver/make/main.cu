/* main.cu: runs the histogram and checks it against the host's. */
#include <cstdio>

#include "histogram.cuh"

int main() {
  const int n = 10000;
  unsigned *data, *bins, want[BINS];
  cudaMallocManaged(&data, n * sizeof(unsigned));
  cudaMallocManaged(&bins, BINS * sizeof(unsigned));
  for (int i = 0; i < n; ++i)
    data[i] = (unsigned)(i * 7919u + 13u);
  for (int b = 0; b < BINS; ++b)
    bins[b] = 0;
  histogram_gpu(data, bins, n);
  cudaDeviceSynchronize();
  histogram_reference(data, want, n);
  int bad = cudaGetLastError() != cudaSuccess;
  for (int b = 0; b < BINS; ++b)
    bad += bins[b] != want[b];
  cudaFree(data);
  cudaFree(bins);
  std::printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
