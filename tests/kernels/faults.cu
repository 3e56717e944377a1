/*
 * faults.cu: kernels that fail in one thread, for tests/check_faults.c:
 * invalid memory accesses, a failed assert(), __trap(), an integer division
 * by zero. Each failing thread is chosen by the arguments (block `bb`,
 * thread `bt`), so the test knows exactly which one must be named. Lines
 * that fail carry a FAULT_LINE marker comment, which the test looks up to
 * know the line number.
 */
#include <cassert>
#include <cstdio>

#include <cuda_runtime.h>

/* Every thread writes 1 to out[its global id]; thread bt of block bb writes
 * through `bad` (NULL or an unmapped address) first. */
__global__ void fault_write(int *out, int *bad, unsigned bb, unsigned bt) {
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x == bb && threadIdx.x == bt)
    *(volatile int *)bad = 42; /* FAULT_LINE write */
  out[gid] = 1;
}

/* As fault_write, but reading. */
__global__ void fault_read(int *out, const int *bad, unsigned bb,
                           unsigned bt) {
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = 1;
  if (blockIdx.x == bb && threadIdx.x == bt)
    v = *(const volatile int *)bad; /* FAULT_LINE read */
  out[gid] = v;
}

__global__ void fault_assert(int *out, unsigned bb, unsigned bt) {
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  assert(blockIdx.x != bb || threadIdx.x != bt); /* FAULT_LINE assert */
  out[gid] = 1;
}

__global__ void fault_trap(int *out, unsigned bb, unsigned bt) {
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x == bb && threadIdx.x == bt)
    __trap(); /* FAULT_LINE trap */
  out[gid] = 1;
}

/* out[gid] = num / den, where thread bt of block bb divides by `zero`. */
__global__ void fault_divide(int *out, int num, int zero, unsigned bb,
                             unsigned bt) {
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int den = (blockIdx.x == bb && threadIdx.x == bt) ? zero : 1;
  out[gid] = num / den; /* FAULT_LINE divide */
}

/* Counts the blocks that start in *started, and fails in thread bt of block
 * bb after a barrier (so that the failing thread is a coroutine). */
__global__ void fault_after_barrier(unsigned *started, int *bad, unsigned bb,
                                    unsigned bt) {
  if (threadIdx.x == 0)
    atomicAdd(started, 1u);
  __syncthreads();
  if (blockIdx.x == bb && threadIdx.x == bt)
    *(volatile int *)bad = 1;
}

/* A kernel that works, to check that launches still work after a failure. */
__global__ void fill(int *out, int value) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = value;
}

/* One long line per thread. */
__global__ void print_lines(int width) {
  char payload[201];
  int n = width < 200 ? width : 200;
  for (int i = 0; i < n; ++i)
    payload[i] = (char)('a' + (blockIdx.x + threadIdx.x + i) % 26);
  payload[n] = '\0';
  printf("block %u thread %u: %s end\n", blockIdx.x, threadIdx.x, payload);
}

/* Thread bt of block bb prints a string through a bad pointer; threads 0
 * and 1 of block 0 print a line that checks every conversion. */
__global__ void print_bad_string(const int *value, unsigned bb, unsigned bt) {
  if (blockIdx.x == 0 && threadIdx.x < 2)
    printf("thread %d: %5.2f|%-4s|%c|%lld|%x|%p|%%|%*d\n", (int)threadIdx.x,
           3.14159, "ok", 'z', -5LL, 255u, (void *)0, 3, 7);
  if (blockIdx.x == bb && threadIdx.x == bt)
    printf("%d %s\n", value[0], (const char *)16); /* FAULT_LINE printf */
}
