// ptx_carry_across_shuffle.cu: a carry chain whose steps are separated by
// warp shuffles, as CGBN's division does (each limb of the dividend is
// shuffled in from a neighbour lane just before its subc.cc). On the GPU
// the carry flag is the lane's own and a shuffle leaves it alone; cuemu
// kept it per OS thread, so the lanes that ran during the shuffle's
// rendezvous overwrote it and the borrows came out wrong.
#include <cstdint>
#include <cstdio>

#define LIMBS 4

__device__ __forceinline__ uint32_t sub_cc(uint32_t a, uint32_t b) {
  uint32_t r;
  asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}

__device__ __forceinline__ uint32_t subc_cc(uint32_t a, uint32_t b) {
  uint32_t r;
  asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}

__device__ __forceinline__ uint32_t subc(uint32_t a, uint32_t b) {
  uint32_t r;
  asm volatile("subc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}

// Lane i subtracts from the number of lane i+1 (taken limb by limb with a
// shuffle each) its own number, and keeps the final borrow.
__global__ void subtract_from_neighbour(const uint32_t *numbers,
                                        uint32_t *differences,
                                        uint32_t *borrows) {
  uint32_t lane = threadIdx.x, mine[LIMBS], out[LIMBS];
  for (int i = 0; i < LIMBS; i++)
    mine[i] = numbers[lane * LIMBS + i];
  for (int i = 0; i < LIMBS; i++) {
    uint32_t theirs = __shfl_sync(0xffffffffu, mine[i], lane + 1);
    out[i] = i == 0 ? sub_cc(theirs, mine[i]) : subc_cc(theirs, mine[i]);
  }
  borrows[lane] = subc(0, 0) & 1;
  for (int i = 0; i < LIMBS; i++)
    differences[lane * LIMBS + i] = out[i];
}

int main() {
  uint32_t *numbers, *differences, *borrows;
  cudaMallocManaged(&numbers, 32 * LIMBS * sizeof *numbers);
  cudaMallocManaged(&differences, 32 * LIMBS * sizeof *differences);
  cudaMallocManaged(&borrows, 32 * sizeof *borrows);
  // Even lanes hold small numbers whose low limb borrows from the next;
  // odd lanes hold large ones, so that neighbours' flags differ.
  for (int lane = 0; lane < 32; lane++)
    for (int i = 0; i < LIMBS; i++)
      numbers[lane * LIMBS + i] =
          lane % 2 ? 0xfffffff0u - (uint32_t)(lane * 7 + i)
                   : (i == 0 ? 0xffffff00u : (uint32_t)(lane + i));
  subtract_from_neighbour<<<1, 32>>>(numbers, differences, borrows);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("launch failed\n");
    return 1;
  }
  int bad = 0;
  for (int lane = 0; lane < 32; lane++) {
    int from = (lane + 1) % 32;
    uint64_t borrow = 0;
    for (int i = 0; i < LIMBS; i++) {
      uint64_t d = (uint64_t)numbers[from * LIMBS + i] -
                   numbers[lane * LIMBS + i] - borrow;
      borrow = (d >> 32) & 1;
      if (differences[lane * LIMBS + i] != (uint32_t)d) {
        printf("lane %d limb %d: %08x, expected %08x\n", lane, i,
               differences[lane * LIMBS + i], (uint32_t)d);
        bad = 1;
      }
    }
    if (borrows[lane] != borrow) {
      printf("lane %d: borrow %u, expected %u\n", lane, borrows[lane],
             (unsigned)borrow);
      bad = 1;
    }
  }
  if (bad)
    return 1;
  printf("PASS\n");
  return 0;
}
