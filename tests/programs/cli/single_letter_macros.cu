// single_letter_macros.cu: built with -DA=... -DZ=... for every single
// capital letter but T and U, as Makefiles pass problem sizes
// (-DM=64 -DK=16 -DN=1024 ...). nvcc's own headers use T and U as template
// parameters, so nvcc refuses those two, but it accepts the rest; cuemu's
// shim headers once used them all and every compile failed. The program
// includes the shims' public headers and uses their templates (warp
// functions, atomics, cooperative groups, wmma, half and bfloat16
// conversions, complex numbers), then checks the macros' values in a
// kernel. (NVIDIA's cuRAND headers use several of these letters
// themselves, so they are left out.)
// CUEMU_OPTIONS: -DA=1 -DB=2 -DC=3 -DD=4 -DE=5 -DF=6 -DG=7 -DH=8 -DI=9 -DJ=10 -DK=11 -DL=12 -DM=13 -DO=14 -DP=15 -DQ=16 -DR=17 -DS=18 -DV=19 -DW=20 -DX=21 -DY=22 -DZ=23 -DN=24
// NVCC_OPTIONS: -DA=1 -DB=2 -DC=3 -DD=4 -DE=5 -DF=6 -DG=7 -DH=8 -DI=9 -DJ=10 -DK=11 -DL=12 -DM=13 -DO=14 -DP=15 -DQ=16 -DR=17 -DS=18 -DV=19 -DW=20 -DX=21 -DY=22 -DZ=23 -DN=24
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuComplex.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

#include "../check.cuh"

namespace cg = cooperative_groups;

/* The letters' sum, as the kernel sees the macros. */
constexpr int kLetters = A + B + C + D + E + F + G + H + I + J + K + L + M + N +
                         O + P + Q + R + S + V + W + X + Y + Z;

template <typename Value>
__global__ void use_shims(int *out, float *halves, unsigned long long *seq) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int lane = warp.thread_rank();
  Value v = static_cast<Value>(lane + M);
  Value total = cg::reduce(warp, v, cg::plus<Value>());
  int shuffled = __shfl_down_sync(0xffffffffu, lane, 1);
  unsigned ballot = __ballot_sync(0xffffffffu, lane % 2 == 0);
  atomicAdd(&out[0], 1);
  if (lane == 0) {
    out[1] = static_cast<int>(total);
    out[2] = shuffled;
    out[3] = static_cast<int>(ballot);
    out[4] = kLetters;
    halves[0] = __half2float(__float2half(static_cast<float>(K)));
    halves[1] = __bfloat162float(__float2bfloat16(static_cast<float>(P)));
    cuFloatComplex z = make_cuFloatComplex(static_cast<float>(X), 1.0f);
    halves[2] = cuCrealf(cuCmulf(z, z)); // X*X - 1
    seq[0] = __brevll(static_cast<unsigned long long>(Z));
  }
}

int main() {
  int *out = nullptr;
  float *halves = nullptr;
  unsigned long long *seq = nullptr;
  CHECK(cudaMallocManaged(&out, 5 * sizeof *out) == cudaSuccess);
  CHECK(cudaMallocManaged(&halves, 3 * sizeof *halves) == cudaSuccess);
  CHECK(cudaMallocManaged(&seq, sizeof *seq) == cudaSuccess);
  out[0] = 0;
  use_shims<int><<<1, 32>>>(out, halves, seq);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(out[0] == 32);
  CHECK(out[1] == 32 * 13 + 31 * 32 / 2);
  CHECK(out[2] == 1);
  CHECK(out[3] == 0x55555555);
  CHECK(out[4] == 24 * 25 / 2);
  CHECK(halves[0] == 11.0f);
  CHECK(halves[1] == 15.0f);
  CHECK(halves[2] == 21.0f * 21.0f - 1.0f);
  CHECK(seq[0] == 0xe800000000000000ull); // 23 = 10111b, bits reversed
  return finish();
}
