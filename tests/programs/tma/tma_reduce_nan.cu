/*
 * tma_reduce_nan.cu: the bulk reductions .min and .max of .f16 and .bf16
 * (cp.reduce.async.bulk into global memory, in inline PTX) follow the
 * ISA's min and max: a NaN operand gives the other one, two NaNs the
 * canonical NaN (0x7fff), and -0 is below +0. cuemu once compared the
 * values as doubles, so that a NaN in memory stayed and -0 and +0 kept
 * whichever was first. Each of 8 elements reduces one pair (memory,
 * source). Prints PASS when all is well.
 */
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

#include "../check.cuh"

static const int kN = 8; // 16 bytes of 16-bit elements

__device__ unsigned smem_addr(const void *p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

/* Reduces src[] into h_min, h_max (.f16) and b_min, b_max (.bf16). */
__global__ void reduce(uint16_t *h_min, uint16_t *h_max, uint16_t *b_min,
                       uint16_t *b_max, const uint16_t *h_src,
                       const uint16_t *b_src) {
  __shared__ alignas(16) uint16_t halves[kN];
  __shared__ alignas(16) uint16_t bfloats[kN];
  if (threadIdx.x < kN) {
    halves[threadIdx.x] = h_src[threadIdx.x];
    bfloats[threadIdx.x] = b_src[threadIdx.x];
  }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.min.f16 [%0], [%1], 16;"
                 ::"l"(h_min), "r"(smem_addr(halves)) : "memory");
    asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.max.f16 [%0], [%1], 16;"
                 ::"l"(h_max), "r"(smem_addr(halves)) : "memory");
    asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.min.bf16 [%0], [%1], 16;"
                 ::"l"(b_min), "r"(smem_addr(bfloats)) : "memory");
    asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.max.bf16 [%0], [%1], 16;"
                 ::"l"(b_max), "r"(smem_addr(bfloats)) : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
}

/* The values of one format, and the pairs (memory, source) as indices. */
struct Format {
  const char *name;
  uint16_t one, two, three, five, pos_zero, neg_zero, neg_inf, nan, nan2;
};

int main() {
  const Format formats[2] = {
      {"f16", 0x3C00, 0x4000, 0x4200, 0x4500, 0x0000, 0x8000, 0xFC00, 0x7E00,
       0x7E01},
      {"bf16", 0x3F80, 0x4000, 0x4040, 0x40A0, 0x0000, 0x8000, 0xFF80, 0x7FC0,
       0x7FC1},
  };
  const uint16_t canonical = 0x7FFF;
  uint16_t memory[2][kN], source[2][kN], want_min[2][kN], want_max[2][kN];
  for (int f = 0; f < 2; ++f) {
    const Format &v = formats[f];
    const uint16_t pairs[kN][4] = {
        // memory, source, min, max
        {v.nan, v.one, v.one, v.one},
        {v.one, v.nan, v.one, v.one},
        {v.nan, v.nan2, canonical, canonical},
        {v.pos_zero, v.neg_zero, v.neg_zero, v.pos_zero},
        {v.neg_zero, v.pos_zero, v.neg_zero, v.pos_zero},
        {v.two, v.three, v.two, v.three},
        {v.neg_inf, v.nan, v.neg_inf, v.neg_inf},
        {v.five, v.neg_inf, v.neg_inf, v.five},
    };
    for (int i = 0; i < kN; ++i) {
      memory[f][i] = pairs[i][0];
      source[f][i] = pairs[i][1];
      want_min[f][i] = pairs[i][2];
      want_max[f][i] = pairs[i][3];
    }
  }
  uint16_t *d = nullptr; // h_min, h_max, b_min, b_max, h_src, b_src
  CHECK(cudaMalloc(&d, 6 * kN * sizeof(uint16_t)) == cudaSuccess);
  for (int f = 0; f < 2; ++f) {
    for (int m = 0; m < 2; ++m)
      CHECK(cudaMemcpy(d + (2 * f + m) * kN, memory[f], sizeof memory[f],
                       cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK(cudaMemcpy(d + (4 + f) * kN, source[f], sizeof source[f],
                     cudaMemcpyHostToDevice) == cudaSuccess);
  }
  reduce<<<1, 32>>>(d, d + kN, d + 2 * kN, d + 3 * kN, d + 4 * kN,
                    d + 5 * kN);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  uint16_t got[4][kN];
  CHECK(cudaMemcpy(got, d, sizeof got, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int f = 0; f < 2; ++f)
    for (int i = 0; i < kN; ++i) {
      const uint16_t mn = got[2 * f][i], mx = got[2 * f + 1][i];
      if (mn != want_min[f][i] || mx != want_max[f][i]) {
        std::printf("%s pair %d (%04x, %04x): min %04x (want %04x), max %04x "
                    "(want %04x)\n",
                    formats[f].name, i, memory[f][i], source[f][i], mn,
                    want_min[f][i], mx, want_max[f][i]);
        CHECK(false);
      }
    }
  CHECK(cudaFree(d) == cudaSuccess);
  return finish();
}
