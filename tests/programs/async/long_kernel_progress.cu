// long_kernel_progress.cu: a kernel that runs longer than
// CUEMU_EXT_WAIT_SECONDS while the only host thread waits for it, but whose
// blocks keep ending, is a long kernel, not one that spins on memory: the
// synchronisation waits for it and succeeds. (A benchmark's 2-million-block
// launch was cut after 60 s with cudaErrorLaunchTimeout and "it seems to
// spin on memory that nothing will write".) Each block waits a number of
// device cycles (clock64(), at cudaDevAttrClockRate); one worker runs the
// blocks one after the other, 40 of 60 ms: about 2.4 s against a limit of
// 1 s. The kernel that truly spins is stuck_and_failed.cu's.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "../check.cuh"

#define BLOCKS 40

__global__ void wait_cycles(long long cycles, int *ended) {
  long long start = clock64();
  while (clock64() - start < cycles) {
  }
  atomicAdd(ended, 1);
}

int main() {
  // Before the first call: one worker, and a wait limit of 1 s.
  setenv("CUEMU_WORKERS", "1", 1);
  setenv("CUEMU_EXT_WAIT_SECONDS", "1", 1);
  int khz = 0;
  CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0) == cudaSuccess);
  int *ended;
  CHECK(cudaMallocManaged(&ended, sizeof(int)) == cudaSuccess);
  *ended = 0;
  auto t0 = std::chrono::steady_clock::now();
  wait_cycles<<<BLOCKS, 1>>>((long long)khz * 60, ended);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  double took = std::chrono::duration<double>(
                    std::chrono::steady_clock::now() - t0)
                    .count();
  CHECK(*ended == BLOCKS);
  printf("%d blocks in %.2f s\n", *ended, took);
  CHECK(cudaFree(ended) == cudaSuccess);
  return finish();
}
