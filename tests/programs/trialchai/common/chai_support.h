// chai_support.h: what the collaborative programs share: the device check,
// a host-side system-scope atomic view of managed memory, and a spin wait.
#ifndef TRIALCHAI_CHAI_SUPPORT_H
#define TRIALCHAI_CHAI_SUPPORT_H
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <cuda/atomic>
#include "../../trialgraph/graph/cuda_util.h"

// Collaborative execution needs the CPU and the GPU to touch managed memory
// at the same time.
inline bool check_concurrent_managed_access(int device = 0) {
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  std::printf("device %d: %s, sm_%d%d, concurrentManagedAccess=%d, managedMemory=%d\n", device,
              prop.name, prop.major, prop.minor, prop.concurrentManagedAccess, prop.managedMemory);
  int attr = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrConcurrentManagedAccess, device));
  if (!prop.concurrentManagedAccess || !attr) {
    std::printf("concurrent managed access not supported; collaborative mode unavailable\n");
    return false;
  }
  return true;
}

typedef cuda::atomic_ref<int, cuda::thread_scope_system> sys_atomic_int;

// Host-side wait with a deadline, so a broken run fails instead of hanging.
template <typename Pred>
inline bool host_wait_until(Pred pred, double seconds) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!pred()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::yield();
  }
  return true;
}

#endif  // TRIALCHAI_CHAI_SUPPORT_H
