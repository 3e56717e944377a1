/*
 * sample_atomics.cu: the atomic functions of CUDA, exercised by many threads
 * of many blocks at once, as the "simple atomic intrinsics" samples do: add,
 * subtract, exchange, max, min, wrapping increment and decrement, compare
 * and swap, and, or and xor on 32-bit integers, plus atomicAdd on unsigned
 * long long and float and a compare-and-swap loop. Every final value is
 * computed on the host independently of the order the threads ran in.
 * Prints PASS and exits 0 when all is well.
 */
#include <cstdio>

#include <cuda_runtime.h>

#include "check.cuh"

enum {
  ADD,
  SUB,
  EXCH,
  MAX,
  MIN,
  INC,
  DEC,
  CAS_LOOP,
  AND,
  OR,
  XOR,
  SLOTS
};

#define INC_LIMIT 17u
#define DEC_LIMIT 137u

__global__ void atomic_ops(int *slots, unsigned *wrapping,
                           unsigned long long *wide, float *real) {
  const unsigned tid = blockDim.x * blockIdx.x + threadIdx.x;
  const int v = (int)tid;

  atomicAdd(&slots[ADD], 10);
  atomicSub(&slots[SUB], 10);
  atomicExch(&slots[EXCH], v);
  atomicMax(&slots[MAX], v);
  atomicMin(&slots[MIN], v - 1000);
  atomicInc(&wrapping[0], INC_LIMIT);
  atomicDec(&wrapping[1], DEC_LIMIT);

  /* An atomic add of the thread's index, built from compare-and-swap. */
  int old = slots[CAS_LOOP], assumed;
  do {
    assumed = old;
    old = atomicCAS(&slots[CAS_LOOP], assumed, assumed + v);
  } while (old != assumed);

  /* Each thread clears one bit, sets one bit and flips one bit. */
  atomicAnd(&slots[AND], ~(1 << (tid % 31)));
  atomicOr(&slots[OR], 1 << (tid % 31));
  atomicXor(&slots[XOR], 1 << (tid % 31));

  atomicAdd(wide, (unsigned long long)tid << 20);
  atomicAdd(real, 0.5f);
}

int main() {
  const unsigned blocks = 48, threads = 256, total = blocks * threads;

  int *slots = nullptr;
  unsigned *wrapping = nullptr;
  unsigned long long *wide = nullptr;
  float *real = nullptr;
  CHECK(cudaMalloc(&slots, SLOTS * sizeof(int)) == cudaSuccess);
  CHECK(cudaMalloc(&wrapping, 2 * sizeof(unsigned)) == cudaSuccess);
  CHECK(cudaMalloc(&wide, sizeof(unsigned long long)) == cudaSuccess);
  CHECK(cudaMalloc(&real, sizeof(float)) == cudaSuccess);

  int init[SLOTS] = {0};
  init[MIN] = 1 << 30;
  init[AND] = -1;
  init[XOR] = 0x5a5a5a5a;
  CHECK(cudaMemcpy(slots, init, sizeof init, cudaMemcpyHostToDevice) ==
        cudaSuccess);
  CHECK(cudaMemset(wrapping, 0, 2 * sizeof(unsigned)) == cudaSuccess);
  CHECK(cudaMemset(wide, 0, sizeof(unsigned long long)) == cudaSuccess);
  CHECK(cudaMemset(real, 0, sizeof(float)) == cudaSuccess);

  atomic_ops<<<blocks, threads>>>(slots, wrapping, wide, real);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);

  int got[SLOTS];
  unsigned wrapped[2];
  unsigned long long wide_sum = 0;
  float real_sum = 0.0f;
  CHECK(cudaMemcpy(got, slots, sizeof got, cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  CHECK(cudaMemcpy(wrapped, wrapping, sizeof wrapped,
                   cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(cudaMemcpy(&wide_sum, wide, sizeof wide_sum,
                   cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(cudaMemcpy(&real_sum, real, sizeof real_sum,
                   cudaMemcpyDeviceToHost) == cudaSuccess);

  /* The expected values, whatever order the threads ran in. */
  long long index_sum = (long long)total * (total - 1) / 2;
  int xor_mask = 0;
  for (unsigned t = 0; t < total; ++t)
    xor_mask ^= 1 << (t % 31);
  CHECK(got[ADD] == 10 * (int)total);
  CHECK(got[SUB] == -10 * (int)total);
  CHECK(got[EXCH] >= 0 && got[EXCH] < (int)total);
  CHECK(got[MAX] == (int)total - 1);
  CHECK(got[MIN] == -1000);
  /* n wrapping increments from 0 with limit L leave n mod (L + 1); n
   * wrapping decrements from 0 leave -n mod (L + 1). */
  CHECK(wrapped[0] == total % (INC_LIMIT + 1));
  CHECK(wrapped[1] ==
        (DEC_LIMIT + 1 - total % (DEC_LIMIT + 1)) % (DEC_LIMIT + 1));
  CHECK(got[CAS_LOOP] == (int)index_sum);
  CHECK(got[AND] == (int)0x80000000u);
  CHECK(got[OR] == 0x7fffffff);
  CHECK(got[XOR] == (0x5a5a5a5a ^ xor_mask));
  CHECK(wide_sum == (unsigned long long)index_sum << 20);
  CHECK(real_sum == 0.5f * (float)total);
  if (check_failures)
    std::fprintf(stderr, "add %d sub %d exch %d max %d min %d inc %u dec %u "
                 "cas %d and %#x or %#x xor %#x wide %llu real %g\n",
                 got[ADD], got[SUB], got[EXCH], got[MAX], got[MIN],
                 wrapped[0], wrapped[1], got[CAS_LOOP], (unsigned)got[AND],
                 (unsigned)got[OR], (unsigned)got[XOR], wide_sum,
                 (double)real_sum);

  CHECK(cudaFree(slots) == cudaSuccess);
  CHECK(cudaFree(wrapping) == cudaSuccess);
  CHECK(cudaFree(wide) == cudaSuccess);
  CHECK(cudaFree(real) == cudaSuccess);
  return finish();
}
