// long_block_threads_end.cu: a launch of one block whose threads each
// compute for a while, without a barrier, runs longer than
// CUEMU_EXT_WAIT_SECONDS while the only host thread waits for it. No block
// ends until the last thread does, but its threads keep ending: it is a long
// kernel, not one that spins on memory, and the synchronisation waits for
// it and succeeds. (A HeCBench-style trial, the GUPS kernel of one block of
// 128 threads making 2 million 64-bit atomicXor updates each, was cut after
// 60 s on a loaded machine with cudaErrorLaunchTimeout and "it seems to spin
// on memory that nothing will write", and the table it checked was wrong.)
// Each thread waits a number of device cycles (clock64(), at
// cudaDevAttrClockRate) and then makes its updates: 40 threads of 60 ms, about
// 2.4 s against a limit of 1 s. long_kernel_progress.cu is the same for
// blocks that keep ending; stuck_and_failed.cu's kernel truly spins.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "../check.cuh"

#define THREADS 40

__global__ void wait_then_update(long long cycles, unsigned long long *table,
                                 int *ended) {
  long long start = clock64();
  while (clock64() - start < cycles) {
  }
  for (unsigned long long i = 1; i <= 1000; ++i)
    atomicXor(&table[(threadIdx.x * 7 + i) % 64], i * (threadIdx.x + 1));
  atomicAdd(ended, 1);
}

int main() {
  // Before the first call: one worker, and a wait limit of 1 s.
  setenv("CUEMU_WORKERS", "1", 1);
  setenv("CUEMU_EXT_WAIT_SECONDS", "1", 1);
  int khz = 0;
  CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0) == cudaSuccess);
  int *ended;
  unsigned long long *table;
  CHECK(cudaMallocManaged(&ended, sizeof(int)) == cudaSuccess);
  CHECK(cudaMallocManaged(&table, 64 * sizeof(unsigned long long)) ==
        cudaSuccess);
  *ended = 0;
  for (int k = 0; k < 64; ++k)
    table[k] = 0;
  auto t0 = std::chrono::steady_clock::now();
  wait_then_update<<<1, THREADS>>>((long long)khz * 60, table, ended);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  double took = std::chrono::duration<double>(
                    std::chrono::steady_clock::now() - t0)
                    .count();
  CHECK(*ended == THREADS);
  // The same updates on the host give the same table.
  unsigned long long expect[64] = {0};
  for (unsigned t = 0; t < THREADS; ++t)
    for (unsigned long long i = 1; i <= 1000; ++i)
      expect[(t * 7 + i) % 64] ^= i * (t + 1);
  for (int k = 0; k < 64; ++k)
    CHECK(table[k] == expect[k]);
  printf("%d threads in %.2f s\n", *ended, took);
  CHECK(cudaFree(ended) == cudaSuccess);
  CHECK(cudaFree(table) == cudaSuccess);
  return finish();
}
