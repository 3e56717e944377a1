// chai_flags.cu: host and device signal each other through managed memory
// while a kernel runs: a host thread waits for a flag the kernel raises, a
// kernel waits for a flag the host raises, and a ping-pong of both.
// CUEMU_OPTIONS: --expt-extended-lambda
// NVCC_OPTIONS: -std=c++17 --expt-extended-lambda
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>
#include "common/chai_support.h"

struct Shared {
  int data[1024];
  int ready;      // device -> host: first half written
  int go;         // host -> device: host's half written
  int host_data[1024];
  int turn;       // ping-pong counter
  int result;
};

// Block 0 writes the first half and raises `ready` (release), then waits for
// the host's `go` (acquire) and combines what the host wrote.
__global__ void producer_then_consumer(Shared *s) {
  const int t = threadIdx.x;
  s->data[t] = t * 3 + 1;
  __syncthreads();
  if (t == 0) {
    __threadfence_system();
    cuda::atomic_ref<int, cuda::thread_scope_system> ready(s->ready);
    ready.store(1, cuda::memory_order_release);
    cuda::atomic_ref<int, cuda::thread_scope_system> go(s->go);
    while (go.load(cuda::memory_order_acquire) == 0) __nanosleep(100);
  }
  __syncthreads();
  s->data[512 + t] = s->host_data[t] + s->data[t];
}

// Volatile-flag style, as older Chai code writes it.
__global__ void ping_pong(volatile int *turn, int rounds, int *count) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  for (int r = 0; r < rounds; ++r) {
    while (*turn != 2 * r + 1) {}
    atomicAdd_system(count, 1);
    __threadfence_system();
    *turn = 2 * r + 2;
  }
}

int main() {
  if (!check_concurrent_managed_access()) return 0;
  int failures = 0;
  Shared *s;
  CUDA_CHECK(cudaMallocManaged(&s, sizeof(Shared)));
  std::memset(s, 0, sizeof(Shared));

  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  producer_then_consumer<<<1, 512, 0, stream>>>(s);
  CUDA_CHECK_LAST();

  bool saw_ready = false, first_half_ok = true;
  std::thread host_side([&] {
    sys_atomic_int ready(s->ready);
    saw_ready = host_wait_until([&] { return ready.load(cuda::std::memory_order_acquire) == 1; }, 20.0);
    if (!saw_ready) return;
    for (int t = 0; t < 512; ++t) {
      first_half_ok &= s->data[t] == t * 3 + 1;
      s->host_data[t] = 1000 + t;
    }
    sys_atomic_int(s->go).store(1, cuda::std::memory_order_release);
  });
  host_side.join();
  // The kernel cannot have finished before the host raised go.
  CUDA_CHECK(cudaStreamSynchronize(stream));
  bool combined_ok = true;
  for (int t = 0; t < 512; ++t) combined_ok &= s->data[512 + t] == 1000 + t + t * 3 + 1;
  failures += report("host thread sees the kernel's flag while it runs", saw_ready && first_half_ok);
  failures += report("kernel sees the host's flag while it runs", combined_ok);

  int *turn, *count;
  CUDA_CHECK(cudaMallocManaged(&turn, sizeof(int)));
  CUDA_CHECK(cudaMallocManaged(&count, sizeof(int)));
  *turn = 0;
  *count = 0;
  const int rounds = 50;
  ping_pong<<<2, 32, 0, stream>>>(turn, rounds, count);
  // The main thread itself plays the host side, without a helper thread.
  bool ok = true;
  for (int r = 0; r < rounds && ok; ++r) {
    volatile int *vt = turn;
    *vt = 2 * r + 1;
    ok = host_wait_until([&] { return *vt == 2 * r + 2; }, 10.0);
  }
  CUDA_CHECK(cudaStreamSynchronize(stream));
  failures += report("ping-pong through managed memory", ok && *count == rounds);

  CUDA_CHECK(cudaStreamDestroy(stream));
  cudaFree(s); cudaFree(turn); cudaFree(count);
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures;
}
