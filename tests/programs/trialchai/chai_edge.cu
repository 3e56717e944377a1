// chai_edge.cu: harder CPU-GPU collaboration patterns.
//  1. every block of a grid waits for its own host flag; the host raises
//     them in reverse block order, one at a time, after the previous ack;
//  2. a cuda::atomic<int, thread_scope_system> in managed memory used with
//     wait()/notify_all() across host and device;
//  3. a consumer kernel on one stream waits for a producer kernel launched
//     later on another stream;
//  4. zero-copy mapped pinned memory (cudaHostAlloc + cudaHostGetDevicePointer)
//     as the flag, as Chai does without unified memory;
//  5. a GPU stage that signals a CPU worker thread per item (a task queue
//     the kernel fills while the CPU drains it).
// CUEMU_OPTIONS: --expt-extended-lambda
// NVCC_OPTIONS: -std=c++17 --expt-extended-lambda
#include <cstdio>
#include <cstring>
#include <new>
#include <thread>
#include <vector>
#include "common/chai_support.h"

constexpr int kBlocks = 96;

__global__ void wait_for_my_flag(volatile int *flags, volatile int *acks, int *order, int *pos) {
  __shared__ int ticket;
  if (threadIdx.x == 0) {
    while (flags[blockIdx.x] == 0) __nanosleep(200);
    ticket = atomicAdd(pos, 1);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    order[ticket] = blockIdx.x;
    __threadfence_system();
    acks[blockIdx.x] = 1;
  }
}

typedef cuda::atomic<int, cuda::thread_scope_system> sys_atomic;

__global__ void wait_notify(sys_atomic *state, int *seen) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    state->wait(0, cuda::std::memory_order_acquire);  // until the host stores 1
    *seen = state->load();
    state->store(2, cuda::std::memory_order_release);
    state->notify_all();
  }
}

__global__ void consumer(const volatile int *flag, const int *data, int *out) {
  while (*flag == 0) {}
  __threadfence();
  out[threadIdx.x] = data[threadIdx.x] + 1;
}

__global__ void producer(volatile int *flag, int *data) {
  data[threadIdx.x] = threadIdx.x * 7;
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) *flag = 1;
}

__global__ void zero_copy_handshake(volatile int *mapped, int rounds) {
  for (int r = 0; r < rounds; ++r) {
    while (mapped[0] != r + 1) {}
    mapped[1] = (r + 1) * 10;
    __threadfence_system();
  }
}

struct TaskQueue {
  int items[4096];
  int tail;   // written by the GPU
  int head;   // taken by CPU threads
  int done;   // set by the GPU when it has produced everything
};

__global__ void gpu_stage(TaskQueue *q, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int slot = atomicAdd_system(&q->tail, 1);
    q->items[slot] = i * i + 1;  // never 0: 0 means not written yet
  }
}

__global__ void mark_done(TaskQueue *q, int n) {
  cuda::atomic_ref<int, cuda::thread_scope_system> done(q->done);
  done.store(1, cuda::std::memory_order_release);
}

int main() {
  if (!check_concurrent_managed_access()) return 0;
  int failures = 0;

  // 1.
  int *flags, *acks, *order, *pos;
  CUDA_CHECK(cudaMallocManaged(&flags, kBlocks * sizeof(int)));
  CUDA_CHECK(cudaMallocManaged(&acks, kBlocks * sizeof(int)));
  CUDA_CHECK(cudaMallocManaged(&order, kBlocks * sizeof(int)));
  CUDA_CHECK(cudaMallocManaged(&pos, sizeof(int)));
  std::memset(flags, 0, kBlocks * sizeof(int));
  std::memset(acks, 0, kBlocks * sizeof(int));
  *pos = 0;
  wait_for_my_flag<<<kBlocks, 64>>>(flags, acks, order, pos);
  CUDA_CHECK_LAST();
  bool ok = true;
  for (int b = kBlocks - 1; b >= 0 && ok; --b) {
    ((volatile int *)flags)[b] = 1;
    ok = host_wait_until([&] { return ((volatile int *)acks)[b] == 1; }, 20.0);
    if (!ok) std::printf("block %d never acknowledged\n", b);
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  for (int k = 0; k < kBlocks && ok; ++k) ok = order[k] == kBlocks - 1 - k;
  failures += report("blocks released by the host in reverse order", ok);

  // 2.
  sys_atomic *state;
  int *seen;
  CUDA_CHECK(cudaMallocManaged(&state, sizeof(sys_atomic)));
  CUDA_CHECK(cudaMallocManaged(&seen, sizeof(int)));
  new (state) sys_atomic(0);
  *seen = -1;
  wait_notify<<<1, 32>>>(state, seen);
  state->store(1, cuda::std::memory_order_release);
  state->notify_all();
  state->wait(1, cuda::std::memory_order_acquire);  // until the kernel stores 2
  CUDA_CHECK(cudaDeviceSynchronize());
  failures += report("cuda::atomic wait/notify between host and kernel", *seen == 1 && state->load() == 2);

  // 3.
  int *flag, *data, *out;
  CUDA_CHECK(cudaMalloc(&flag, sizeof(int)));
  CUDA_CHECK(cudaMalloc(&data, 128 * sizeof(int)));
  CUDA_CHECK(cudaMallocManaged(&out, 128 * sizeof(int)));
  CUDA_CHECK(cudaMemset(flag, 0, sizeof(int)));
  cudaStream_t s1, s2;
  CUDA_CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CUDA_CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  CUDA_CHECK(cudaDeviceSynchronize());
  consumer<<<1, 128, 0, s1>>>(flag, data, out);
  producer<<<1, 128, 0, s2>>>(flag, data);
  CUDA_CHECK(cudaStreamSynchronize(s1));
  CUDA_CHECK(cudaStreamSynchronize(s2));
  ok = true;
  for (int i = 0; i < 128; ++i) ok &= out[i] == i * 7 + 1;
  failures += report("consumer kernel waits for a producer kernel on another stream", ok);

  // 4.
  int *host_flag, *dev_flag;
  CUDA_CHECK(cudaHostAlloc(&host_flag, 2 * sizeof(int), cudaHostAllocMapped));
  CUDA_CHECK(cudaHostGetDevicePointer(&dev_flag, host_flag, 0));
  host_flag[0] = host_flag[1] = 0;
  const int rounds = 20;
  zero_copy_handshake<<<1, 1, 0, s1>>>(dev_flag, rounds);
  ok = true;
  for (int r = 0; r < rounds && ok; ++r) {
    ((volatile int *)host_flag)[0] = r + 1;
    ok = host_wait_until([&] { return ((volatile int *)host_flag)[1] == (r + 1) * 10; }, 10.0);
  }
  CUDA_CHECK(cudaStreamSynchronize(s1));
  failures += report("zero-copy mapped memory handshake", ok);

  // 5.
  TaskQueue *q;
  CUDA_CHECK(cudaMallocManaged(&q, sizeof(TaskQueue)));
  std::memset(q, 0, sizeof(TaskQueue));
  const int n = 4000;
  std::vector<long long> partial(4, 0);
  std::vector<std::thread> cpu;
  for (int t = 0; t < 4; ++t)
    cpu.emplace_back([&, t] {
      sys_atomic_int head(q->head), tail(q->tail), done(q->done);
      for (;;) {
        int h = head.load();
        if (h < tail.load()) {
          if (head.compare_exchange_weak(h, h + 1)) {
            // The slot was reserved before it was written: wait for the value.
            volatile int *item = &q->items[h];
            while (*item == 0) std::this_thread::yield();
            partial[t] += *item - 1;
          }
        } else if (done.load() && head.load() >= tail.load()) {
          break;
        } else {
          std::this_thread::yield();
        }
      }
    });
  gpu_stage<<<(n + 127) / 128, 128, 0, s2>>>(q, n);
  mark_done<<<1, 1, 0, s2>>>(q, n);
  for (auto &t : cpu) t.join();
  CUDA_CHECK(cudaStreamSynchronize(s2));
  long long total = 0, expect = 0;
  for (long long p : partial) total += p;
  for (long long i = 0; i < n; ++i) expect += i * i;
  failures += report("CPU threads drain a queue the kernel fills", total == expect && q->head == n);

  cudaStreamDestroy(s1); cudaStreamDestroy(s2);
  cudaFreeHost(host_flag);
  cudaFree(flags); cudaFree(acks); cudaFree(order); cudaFree(pos); cudaFree(state); cudaFree(seen);
  cudaFree(flag); cudaFree(data); cudaFree(out); cudaFree(q);
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures;
}
