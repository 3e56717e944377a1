// Producer/consumer queues between blocks: block 2k consumes what block
// 2k + 1 (started after it) produces through a ring of a few slots in
// global memory; both sides back off with __nanosleep while the ring is
// empty or full. Four blocks of 32 threads: every block is resident on a
// GPU.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                        \
  do {                                                                     \
    cudaError_t err_ = (call);                                             \
    if (err_ != cudaSuccess) {                                             \
      printf("FAIL: %s: %s\n", #call, cudaGetErrorString(err_));           \
      return 1;                                                            \
    }                                                                      \
  } while (0)

static const int kQueues = 2;
static const int kSlots = 4;
static const int kItems = 300;

struct Queue {
  unsigned head, tail;
  unsigned slots[kSlots];
  unsigned long long consumed;
};

__global__ void pipeline(Queue *queues) {
  Queue *q = &queues[blockIdx.x / 2];
  volatile unsigned *head = &q->head, *tail = &q->tail;
  volatile unsigned *slots = q->slots;
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x % 2) {
    for (unsigned i = 0; i < kItems; ++i) {
      while (i - *head >= kSlots)
        __nanosleep(200);
      slots[i % kSlots] = i * i + blockIdx.x;
      __threadfence();
      *tail = i + 1;
    }
  } else {
    unsigned long long sum = 0;
    for (unsigned i = 0; i < kItems; ++i) {
      while (*tail <= i)
        __nanosleep(200);
      __threadfence();
      sum += slots[i % kSlots];
      __threadfence();
      *head = i + 1;
    }
    q->consumed = sum;
  }
}

int main() {
  Queue *queues;
  CHECK(cudaMallocManaged(&queues, kQueues * sizeof(Queue)));
  for (int launch = 0; launch < 2; ++launch) {
    CHECK(cudaMemset(queues, 0, kQueues * sizeof(Queue)));
    pipeline<<<2 * kQueues, 32>>>(queues);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
  }
  for (int k = 0; k < kQueues; ++k) {
    unsigned long long want = 0;
    for (unsigned i = 0; i < kItems; ++i)
      want += i * i + (unsigned)(2 * k + 1);
    if (queues[k].consumed != want) {
      printf("FAIL: queue %d: consumed %llu, expected %llu\n", k,
             queues[k].consumed, want);
      return 1;
    }
  }
  printf("PASS\n");
  return 0;
}
