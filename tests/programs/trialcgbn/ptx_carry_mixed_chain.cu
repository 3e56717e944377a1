// ptx_carry_mixed_chain.cu: carry chains that mix additions and
// subtractions, as CGBN's warp-wide negate does: an add.cc sets the carry
// flag and a subc then reads it. The GPU keeps one carry bit and subtracts
// by adding the complement (a - b is a + ~b + 1), so after a subtraction the
// flag is 1 when nothing was borrowed, and subc computes a + ~b + CF. A pure
// sub.cc/subc chain cannot tell this from a borrow flag, but a mixed one can:
// cuemu kept the borrow, so CGBN's negate of a 1024-bit number spread over a
// warp turned its low zero words into all ones, and addc after a borrowing
// subtraction added 1 where the GPU adds 0.
#include <cstdint>
#include <cstdio>

__device__ __forceinline__ uint32_t set_carry_if_nonzero(uint32_t x) {
  uint32_t r;
  asm volatile("add.cc.u32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(x));
  return r;
}

__device__ __forceinline__ uint32_t subtract_with_carry(uint32_t a, uint32_t b) {
  uint32_t r;
  asm volatile("subc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}

// Negates the 32 * 32-bit number whose word i lane i holds: the lanes up to
// and including the lowest non-zero word get -x (the carry in is 1), the
// lanes above it get ~x (the carry in is 0).
__global__ void negate_across_warp(uint32_t *words) {
  uint32_t lane = threadIdx.x & 31, x = words[threadIdx.x];
  uint32_t zeros = __ballot_sync(0xffffffffu, x == 0);
  uint32_t below_first_nonzero = ((zeros + 1) ^ zeros) & (1u << lane);
  set_carry_if_nonzero(below_first_nonzero);
  words[threadIdx.x] = subtract_with_carry(0, x);
}

// Each statement alone, one thread: what a GPU gives (sm_90).
__global__ void flag_after_each(uint32_t *out) {
  uint32_t t;
  // 0 - 1 borrows: the flag is 0, so addc adds nothing.
  asm volatile("sub.cc.u32 %0, 0, 1;" : "=r"(t));
  asm volatile("addc.u32 %0, 0, 0;" : "=r"(out[0]));
  // 5 - 3 does not borrow: the flag is 1.
  asm volatile("sub.cc.u32 %0, 5, 3;" : "=r"(t));
  asm volatile("addc.u32 %0, 0, 0;" : "=r"(out[1]));
  // An add that carries leaves 1, which subc reads as "no borrow".
  asm volatile("add.cc.u32 %0, 0xffffffff, 1;" : "=r"(t));
  asm volatile("subc.u32 %0, 10, 3;" : "=r"(out[2]));
  // An add that does not carry leaves 0: subc subtracts one more.
  asm volatile("add.cc.u32 %0, 1, 1;" : "=r"(t));
  asm volatile("subc.u32 %0, 10, 3;" : "=r"(out[3]));
  // subc.cc's own flag: 0 - (0xffffffff + borrow) borrows.
  asm volatile("sub.cc.u32 %0, 0, 1;" : "=r"(t));
  asm volatile("subc.cc.u32 %0, 0, 0xffffffff;" : "=r"(out[4]));
  asm volatile("addc.u32 %0, 0, 0;" : "=r"(out[5]));
  // A pure chain is the same either way: 2^64 - 1 as two words.
  asm volatile("sub.cc.u32 %0, 0, 1;" : "=r"(out[6]));
  asm volatile("subc.u32 %0, 0, 0;" : "=r"(out[7]));
  (void)t;
}

int main() {
  uint32_t *words, *out;
  cudaMallocManaged(&words, 32 * sizeof *words);
  cudaMallocManaged(&out, 8 * sizeof *out);
  uint32_t expect[32];
  for (int i = 0; i < 32; i++)
    words[i] = i < 3 ? 0 : 0x01234567u * (uint32_t)i + 11u;
  // Two's complement negation of the whole number on the host.
  uint64_t borrow = 0;
  for (int i = 0; i < 32; i++) {
    uint64_t d = 0 - (uint64_t)words[i] - borrow;
    expect[i] = (uint32_t)d;
    borrow = (d >> 32) & 1;
  }
  negate_across_warp<<<1, 32>>>(words);
  flag_after_each<<<1, 1>>>(out);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("launch failed\n");
    return 1;
  }
  int bad = 0;
  for (int i = 0; i < 32; i++)
    if (words[i] != expect[i]) {
      printf("word %d: %08x, expected %08x\n", i, words[i], expect[i]);
      bad = 1;
    }
  const uint32_t want[8] = {0, 1, 7, 6, 0, 0, 0xffffffffu, 0xffffffffu};
  for (int i = 0; i < 8; i++)
    if (out[i] != want[i]) {
      printf("flag case %d: %u, expected %u\n", i, out[i], want[i]);
      bad = 1;
    }
  if (bad)
    return 1;
  printf("PASS\n");
  return 0;
}
