// chai_sync.cu: more host/device synchronisation styles: a __managed__ flag
// variable, a system-scope cuda::binary_semaphore, host threads that each
// launch on their own per-thread default stream, and memory advice.
// CUEMU_OPTIONS: --expt-extended-lambda
// NVCC_OPTIONS: -std=c++17 --expt-extended-lambda
#include <cstdio>
#include <new>
#include <thread>
#include <vector>
#include <cuda/semaphore>
#include "common/chai_support.h"

__managed__ int progress;      // raised by the kernel block by block
__managed__ int release_gpu;   // raised by the host

__global__ void staged(int *out, int stages) {
  for (int s = 0; s < stages; ++s) {
    out[s * blockDim.x + threadIdx.x] = s + threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0) {
      __threadfence_system();
      atomicExch_system(&progress, s + 1);
      while (atomicAdd_system(&release_gpu, 0) <= s) __nanosleep(50);
    }
    __syncthreads();
  }
}

typedef cuda::binary_semaphore<cuda::thread_scope_system> sys_sem;

__global__ void sem_worker(sys_sem *to_gpu, sys_sem *to_cpu, int *value, int rounds) {
  for (int r = 0; r < rounds; ++r) {
    to_gpu->acquire();
    *value = *value * 2 + 1;
    to_cpu->release();
  }
}

__global__ void add_one(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += 1;
}

int main() {
  if (!check_concurrent_managed_access()) return 0;
  int failures = 0;

  // __managed__ variables as flags both ways.
  const int stages = 6, threads = 64;
  int *out;
  CUDA_CHECK(cudaMallocManaged(&out, stages * threads * sizeof(int)));
  progress = 0;
  release_gpu = 0;
  staged<<<1, threads>>>(out, stages);
  bool ok = true;
  for (int s = 0; s < stages && ok; ++s) {
    ok = host_wait_until([&] { return ((volatile int &)progress) == s + 1; }, 10.0);
    for (int t = 0; t < threads && ok; ++t) ok = out[s * threads + t] == s + t;
    ((volatile int &)release_gpu) = s + 1;
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  failures += report("__managed__ flags while the kernel runs", ok && progress == stages);

  // Semaphores in managed memory.
  sys_sem *sems;
  int *value;
  CUDA_CHECK(cudaMallocManaged(&sems, 2 * sizeof(sys_sem)));
  CUDA_CHECK(cudaMallocManaged(&value, sizeof(int)));
  new (&sems[0]) sys_sem(0);
  new (&sems[1]) sys_sem(0);
  *value = 0;
  const int rounds = 10;
  sem_worker<<<1, 1>>>(&sems[0], &sems[1], value, rounds);
  int expect = 0;
  for (int r = 0; r < rounds; ++r) {
    *value += 100;
    expect = (expect + 100) * 2 + 1;
    sems[0].release();
    sems[1].acquire();
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  failures += report("system-scope binary_semaphore ping-pong", *value == expect);

  // Host threads, each with its own stream, advising and prefetching.
  const int nthreads = 4, n = 1 << 12;
  int *buf;
  CUDA_CHECK(cudaMallocManaged(&buf, nthreads * n * sizeof(int)));
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  cudaMemLocation gpu_loc = {cudaMemLocationTypeDevice, device};
  cudaMemLocation cpu_loc = {cudaMemLocationTypeHost, 0};
  CUDA_CHECK(cudaMemAdvise(buf, nthreads * n * sizeof(int), cudaMemAdviseSetAccessedBy, gpu_loc));
  std::vector<std::thread> workers;
  std::vector<int> thread_ok(nthreads, 0);
  for (int t = 0; t < nthreads; ++t)
    workers.emplace_back([&, t] {
      int *mine = buf + t * n;
      for (int i = 0; i < n; ++i) mine[i] = i * t;
      cudaStream_t s;
      CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
      CUDA_CHECK(cudaMemPrefetchAsync(mine, n * sizeof(int), gpu_loc, 0, s));
      for (int k = 0; k < 3; ++k) add_one<<<(n + 255) / 256, 256, 0, s>>>(mine, n);
      CUDA_CHECK(cudaMemPrefetchAsync(mine, n * sizeof(int), cpu_loc, 0, s));
      CUDA_CHECK(cudaStreamSynchronize(s));
      CUDA_CHECK(cudaStreamDestroy(s));
      bool good = true;
      for (int i = 0; i < n; ++i) good &= mine[i] == i * t + 3;
      thread_ok[t] = good;
    });
  for (auto &w : workers) w.join();
  ok = true;
  for (int v : thread_ok) ok &= v == 1;
  failures += report("host threads with their own streams and prefetches", ok);

  int pageable = -1;
  CUDA_CHECK(cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, device));
  std::printf("pageableMemoryAccess=%d\n", pageable);
  if (pageable) {
    // System-allocated memory is usable from kernels on HMM systems.
    std::vector<int> host_vec(1000, 41);
    add_one<<<4, 256>>>(host_vec.data(), 1000);
    CUDA_CHECK(cudaDeviceSynchronize());
    ok = true;
    for (int v : host_vec) ok &= v == 42;
    failures += report("kernel on pageable host memory", ok);
  }

  cudaFree(out); cudaFree(sems); cudaFree(value); cudaFree(buf);
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures;
}
