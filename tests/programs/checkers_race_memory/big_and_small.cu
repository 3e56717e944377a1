// big_and_small.cu: racecheck's memory limit (tests/checkers_race_memory.sh).
// A table of 64 MiB, whose race shadow does not fit in the limit the test
// sets, is left out of racecheck with a note, while initcheck still sees
// its unwritten bytes; a small buffer beside it keeps racecheck, which
// reports the race on it.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void probe(const int *table, int *counts, int *sum, size_t n) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  /* Every thread reads one word of the table; word 0 was never written. */
  int v = table[(i * 2654435761u) % n];
  /* Racy: every thread adds into counts[0] without an atomic. */
  counts[0] = counts[0] + 1;
  atomicAdd(sum, v);
}

int main() {
  const size_t n = (size_t)16 << 20;
  int *table, *counts, *sum;
  cudaMalloc(&table, n * sizeof(int));
  cudaMalloc(&counts, sizeof(int));
  cudaMalloc(&sum, sizeof(int));
  cudaMemset(table + 1, 0, (n - 1) * sizeof(int));
  cudaMemset(counts, 0, sizeof(int));
  cudaMemset(sum, 0, sizeof(int));
  probe<<<4, 64>>>(table, counts, sum, n);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  cudaFree(table);
  cudaFree(counts);
  cudaFree(sum);
  return e == cudaSuccess ? 0 : 2;
}
