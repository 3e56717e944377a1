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

/* As fault_write, but reading. A plain read, which the store after it
 * keeps: a volatile one would wait for its warp-mates in lockstep
 * (cuemu_warp_step_volatile), and the lanes after the culprit would write
 * out[] before it faults. */
__global__ void fault_read(int *out, const int *bad, unsigned bb,
                           unsigned bt) {
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = 1;
  if (blockIdx.x == bb && threadIdx.x == bt)
    v = *bad; /* FAULT_LINE read */
  out[gid] = v;
}

__global__ void fault_assert(int *out, unsigned bb, unsigned bt) {
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  assert(blockIdx.x != bb || threadIdx.x != bt); /* FAULT_LINE assert */
  out[gid] = 1;
}

/* The other threads of the culprit's block wait at the barrier after the
 * failed assertion: the block ends there, so none writes. */
__global__ void fault_assert_barrier(int *out, unsigned bb, unsigned bt) {
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  assert(blockIdx.x != bb || threadIdx.x != bt);
  __syncthreads();
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

/* The GPU's results of divisions that trap on x86: out[0..7] are
 * a / 0 and a % 0 in 32 and 64 bits, signed and unsigned; out[8..11] are
 * INT_MIN / -1, INT_MIN % -1 and the 64-bit ones; out[12..13] 8- and 16-bit
 * divisions by zero. */
__global__ void divide_specials(long long *out, int zero, int minus_one,
                                long long zero64, long long minus_one64) {
  int a = 7, min32 = -2147483647 - 1;
  long long b = 7, min64 = -9223372036854775807LL - 1;
  unsigned ua = 7;
  unsigned long long ub = 7;
  out[0] = a / zero;
  out[1] = a % zero;
  out[2] = (long long)(ua / (unsigned)zero);
  out[3] = (long long)(ua % (unsigned)zero);
  out[4] = b / zero64;
  out[5] = b % zero64;
  out[6] = (long long)(ub / (unsigned long long)zero64);
  out[7] = (long long)(ub % (unsigned long long)zero64);
  out[8] = min32 / minus_one;
  out[9] = min32 % minus_one;
  out[10] = min64 / minus_one64;
  out[11] = min64 % minus_one64;
  volatile unsigned char c = 9, cz = (unsigned char)zero;
  volatile unsigned short s = 9, sz = (unsigned short)zero;
  out[12] = (unsigned char)(c / cz);
  out[13] = (unsigned short)(s / sz);
}
