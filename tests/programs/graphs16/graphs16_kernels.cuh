// graphs16_kernels.cuh: kernels and host helpers of the graphs16 tests:
// small pipeline stages, and the stream holds of ../ordered (a kernel that
// holds its stream until the host raises a flag in mapped pinned memory,
// with a valve that raises it after a few seconds, so that a host that
// wrongly waits for the held stream fails a test instead of hanging).
#ifndef GRAPHS16_KERNELS_CUH
#define GRAPHS16_KERNELS_CUH

#include <chrono>
#include <thread>

#include "../ordered/ordered_kernels.cuh"

#define RT(call) CHECK((call) == cudaSuccess)

// out[i] = in[i] * k + i.
template <class T>
__global__ void scale_index(const T *in, T *out, int n, T k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * k + (T)i;
}

// Each launch takes the next slot and writes there the flag it reads: a
// launch that ran while the host still held the flag at 0 shows it.
__global__ void note_flag(const volatile int *flag, int *slots, int *next) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    int k = atomicAdd(next, 1);
    slots[k] = *flag;
  }
}

// While the stream is held (not with CUEMU_STREAMS=sync), `event` stays
// not ready for `ms` milliseconds; false as soon as it completes.
static inline bool stays_pending(cudaEvent_t event, int ms) {
  for (int waited = 0; waited < ms; waited += 5) {
    if (cudaEventQuery(event) != cudaErrorNotReady)
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  cudaGetLastError(); // cudaErrorNotReady is recorded, as CUDA does
  return true;
}

#endif
