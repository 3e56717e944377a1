// ordered_kernels.cuh: kernels and host helpers the stream-order tests
// share: a kernel that holds its stream until the host raises a flag in
// mapped pinned memory, a safety valve that raises it after a few seconds
// (so that a host that wrongly waits for the held stream fails the test
// instead of hanging), and small pipeline stages.
#ifndef ORDERED_KERNELS_CUH
#define ORDERED_KERNELS_CUH

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "../async/async_kernels.cuh" // fill

// One thread waits until *flag is non-zero: the stream is held until then.
__global__ void hold_until(const volatile int *flag) {
  if (threadIdx.x == 0 && blockIdx.x == 0)
    while (*flag == 0) {
    }
}

// out[i] = in[i] * 2 + add.
template <class T>
__global__ void twice_plus(const T *in, T *out, int n, T add) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * (T)2 + add;
}

// *sum += the elements of data (one atomic per thread).
template <class T> __global__ void sum_into(const T *data, int n, T *sum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(sum, data[i]);
}

// CUEMU_STREAMS=sync runs each operation when it is issued: a held stream
// would hold the host too, so there the flag is raised from the start and
// the checks that the host was not held are left out.
static inline bool streams_run_inline() {
  const char *mode = std::getenv("CUEMU_STREAMS");
  return mode && std::strcmp(mode, "sync") == 0;
}

// A flag in mapped pinned memory that holds a stream (hold_until), and a
// thread that raises it after `seconds` if the host has not: `fired` says
// whether the valve had to (the host was blocked meanwhile).
struct Hold {
  int *flag = nullptr, *dflag = nullptr;
  std::atomic<bool> released{false}, fired{false};
  std::thread valve;
  explicit Hold(double seconds) {
    cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped);
    *flag = streams_run_inline();
    cudaHostGetDevicePointer(&dflag, flag, 0);
    if (*flag) {
      released = true;
      return;
    }
    valve = std::thread([this, seconds] {
      auto end = std::chrono::steady_clock::now() +
                 std::chrono::duration<double>(seconds);
      while (!released.load() && std::chrono::steady_clock::now() < end)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      if (!released.exchange(true)) {
        fired = true;
        __atomic_store_n(flag, 1, __ATOMIC_RELEASE);
      }
    });
  }
  // The host raises the flag; false when the valve had done it already.
  bool release() {
    if (!valve.joinable())
      return true;
    bool first = !released.exchange(true);
    __atomic_store_n(flag, 1, __ATOMIC_RELEASE);
    valve.join();
    return first;
  }
  ~Hold() { cudaFreeHost(flag); }
};

#endif
