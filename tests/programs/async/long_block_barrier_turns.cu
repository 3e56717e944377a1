// long_block_barrier_turns.cu: a launch of one block whose threads each
// compute for a while and then meet at a barrier runs longer than
// CUEMU_EXT_WAIT_SECONDS while the only host thread waits for it. No block
// and no thread ends before the last thread arrives at the barrier, but its
// threads keep arriving there one after the other: it is a long kernel, not
// one that spins on memory, and the synchronisation waits for it and
// succeeds. (cuCollections' HyperLogLog device_ref example counts 2^28 items
// in one block of 512 threads that each add their share to a sketch in shared
// memory and then meet at block.sync(); it was cut with
// cudaErrorLaunchTimeout and "it seems to spin on memory that nothing will
// write" after 60 s on a loaded machine.) Each thread waits a number of
// device cycles (clock64(), at cudaDevAttrClockRate) and then takes the
// maximum of its values into a shared register file with atomicMax; after
// the barrier the block copies the registers out: 40 threads of 60 ms, about
// 2.4 s against a limit of 1 s. trialhec4/long_block_threads_end.cu is the
// same for threads that end without a barrier.
// Arrivals while barriers keep completing are no progress: a block that
// polls, through __syncthreads(), a flag that nothing will write is reported
// as a kernel that spins (cudaErrorLaunchTimeout, sticky), as a lone thread
// that spins is (stuck_and_failed.cu). On a GPU it would never end; so it
// comes last, and its threads spin on until the process exits.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "../check.cuh"

#define THREADS 40
#define REGISTERS 64

__global__ void compute_then_meet(long long cycles, int *out) {
  __shared__ int registers[REGISTERS];
  for (int r = threadIdx.x; r < REGISTERS; r += blockDim.x)
    registers[r] = 0;
  __syncthreads();
  long long start = clock64();
  while (clock64() - start < cycles) {
  }
  for (int i = 1; i <= 1000; ++i)
    atomicMax(&registers[(threadIdx.x * 7 + i) % REGISTERS],
              (i * (int)(threadIdx.x + 3)) % 997);
  __syncthreads();
  for (int r = threadIdx.x; r < REGISTERS; r += blockDim.x)
    out[r] = registers[r];
}

// Thread 0 reads the flag; the block goes on when it is set.
__global__ void poll_through_barriers(const volatile int *flag, int *out) {
  __shared__ int go;
  do {
    __syncthreads();
    if (threadIdx.x == 0)
      go = *flag;
    __syncthreads();
  } while (!go);
  out[threadIdx.x] = go;
}

int main() {
  // Before the first call: one worker, and a wait limit of 1 s.
  setenv("CUEMU_WORKERS", "1", 1);
  setenv("CUEMU_EXT_WAIT_SECONDS", "1", 1);
  int khz = 0;
  CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0) == cudaSuccess);
  int *out;
  CHECK(cudaMallocManaged(&out, REGISTERS * sizeof(int)) == cudaSuccess);
  auto t0 = std::chrono::steady_clock::now();
  compute_then_meet<<<1, THREADS>>>((long long)khz * 60, out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  double took = std::chrono::duration<double>(
                    std::chrono::steady_clock::now() - t0)
                    .count();
  // The same maxima on the host.
  int expect[REGISTERS] = {0};
  for (int t = 0; t < THREADS; ++t)
    for (int i = 1; i <= 1000; ++i) {
      int &reg = expect[(t * 7 + i) % REGISTERS];
      int v = (i * (t + 3)) % 997;
      if (v > reg)
        reg = v;
    }
  for (int r = 0; r < REGISTERS; ++r)
    CHECK(out[r] == expect[r]);
  printf("%d threads met in %.2f s\n", THREADS, took);

  int *flag;
  CHECK(cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped) == cudaSuccess);
  *flag = 0;
  t0 = std::chrono::steady_clock::now();
  poll_through_barriers<<<1, THREADS>>>(flag, out);
  CHECK(cudaDeviceSynchronize() == cudaErrorLaunchTimeout);
  took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
             .count();
  CHECK(took >= 0.9 && took < 10.0);
  CHECK(cudaMemset(out, 0, 4) == cudaErrorLaunchTimeout); // sticky
  return finish();
}
