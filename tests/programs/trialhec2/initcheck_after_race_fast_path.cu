/*
 * initcheck and racecheck together, in a unit compiled by clang++ (as
 * cuemu-nvcc compiles every CUB and Thrust unit): a kernel writes a buffer
 * with plain stores and the next kernel updates it with atomics, as CUB's
 * DeviceHistogram (an init kernel zeroes the bins) and DeviceScan (an init
 * kernel sets the look-back's tile states) do. The checked module's fast
 * path of racecheck took its stripe lock with an atomic builtin, which
 * clang instruments even in an uninstrumented function; the lock was then
 * checked as a kernel access, the hot allocation changed under the fast
 * path, and some of the first kernel's writes went unmarked: the second
 * kernel's atomics on them were reported as reads of uninitialised memory
 * and the launch failed (a HeCBench-style trial under CUEMU_CC_CHECK=all).
 * CUEMU_OPTIONS: -ccbin clang++ --check=init,race
 */
#include <cstdio>

__global__ void zero(int *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    bins[i] = 0;
}

__global__ void count(const int *x, int *bins, int n, int nbins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[x[i] % nbins], 1);
}

int main() {
  const int n = 8192, nbins = 256;
  static int hx[n], hb[nbins];
  for (int i = 0; i < n; ++i)
    hx[i] = i * 7;
  int *x, *bins;
  cudaMalloc(&x, sizeof hx);
  cudaMalloc(&bins, sizeof hb);
  cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
  zero<<<2, 128>>>(bins, nbins);
  count<<<n / 256, 256>>>(x, bins, n, nbins);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(hb, bins, sizeof hb, cudaMemcpyDeviceToHost);
  int failures = e != cudaSuccess;
  if (failures)
    printf("launch: %s\n", cudaGetErrorString(e));
  for (int b = 0; b < nbins && !failures; ++b)
    if (hb[b] != n / nbins) {
      printf("bin %d: %d, expected %d\n", b, hb[b], n / nbins);
      ++failures;
    }
  if (!failures)
    printf("PASS\n");
  return failures != 0;
}
