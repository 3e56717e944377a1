// fma_oob_ptx.cu: `fma.rn.oob{.relu}` of .f16, .f16x2, .bf16 and .bf16x2
// (sm_90), which CUTLASS's guarded multiply-add uses on tiles that a
// tensor copy filled past the tensor's edge: an element that is the
// out-of-bounds NaN (every bit but the sign set, as
// CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA fills) in any operand
// makes that element's result +0; other operands give fma's result, and
// another NaN stays a NaN. cuemu refused the modifier ("unsupported
// modifier .oob of fma").
#include <cstdio>
#include <cstdint>

__global__ void oob_fma(const unsigned *in, unsigned *out) {
  unsigned a = in[0], b = in[1], c = in[2];
  unsigned short ah = a & 0xffff, bh = b & 0xffff, ch = c & 0xffff;
  unsigned short r16, r16relu, rb16;
  unsigned r32, rb32, rb32relu;
  asm("fma.rn.oob.f16 %0, %1, %2, %3;" : "=h"(r16) : "h"(ah), "h"(bh), "h"(ch));
  asm("fma.rn.oob.relu.f16 %0, %1, %2, %3;" : "=h"(r16relu) : "h"(ah), "h"(bh), "h"(ch));
  asm("fma.rn.oob.f16x2 %0, %1, %2, %3;" : "=r"(r32) : "r"(a), "r"(b), "r"(c));
  asm("fma.rn.oob.bf16 %0, %1, %2, %3;" : "=h"(rb16) : "h"(ah), "h"(bh), "h"(ch));
  asm("fma.rn.oob.bf16x2 %0, %1, %2, %3;" : "=r"(rb32) : "r"(a), "r"(b), "r"(c));
  asm("fma.rn.oob.relu.bf16x2 %0, %1, %2, %3;" : "=r"(rb32relu) : "r"(a), "r"(b), "r"(c));
  out[0] = r16;
  out[1] = r16relu;
  out[2] = r32;
  out[3] = rb16;
  out[4] = rb32;
  out[5] = rb32relu;
}

struct Case {
  unsigned a, b, c;
  unsigned want[6];
};

int main() {
  // f16: 2.0 = 0x4000, 3.0 = 0x4200, -10.0 = 0xc900, 0.5 = 0x3800,
  // -4.0 = 0xc400 (2 * 3 - 10), 6.5 = 0x4680 (2 * 3 + 0.5).
  // bf16: 2.0 = 0x4000, 3.0 = 0x4040, -10.0 = 0xc120, -4.0 = 0xc080.
  const Case cases[] = {
      // Low halves (f16) 2 * 3 + 0.5, high halves 2 * 3 - 10: no OOB NaN.
      {0x40004000u, 0x42004200u, 0xc9003800u,
       {0x4680u, 0x4680u, 0xc4004680u, 0, 0, 0}},
      // The OOB NaN as a in the low half, as c in the high half: +0 there.
      {0x40007fffu, 0x42004200u, 0x7fff3800u, {0, 0, 0, 0, 0, 0}},
      // Another NaN (0x7e00, canonical) in b stays a NaN.
      {0x40004000u, 0x42007e00u, 0xc9003800u,
       {0x7fffu, 0x7fffu, 0xc4007fffu, 0, 0, 0}},
      // bf16: 2 * 3 - 10 in both halves, the high half's a the OOB NaN.
      {0x7fff4000u, 0x40404040u, 0xc120c120u,
       {0, 0, 0, 0xc080u, 0x0000c080u, 0}},
  };
  unsigned *in, *out;
  cudaMalloc(&in, 3 * sizeof(unsigned));
  cudaMalloc(&out, 6 * sizeof(unsigned));
  int bad = 0;
  for (int i = 0; i < 4; ++i) {
    const Case &k = cases[i];
    unsigned args[3] = {k.a, k.b, k.c}, got[6];
    cudaMemcpy(in, args, sizeof args, cudaMemcpyHostToDevice);
    oob_fma<<<1, 1>>>(in, out);
    cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
    // Case 3 checks only the bf16 forms; the others the f16 forms, and
    // cases 1 the bf16 ones too (the OOB NaN is the same bits).
    int first = i == 3 ? 3 : 0, last = (i == 3 || i == 1) ? 6 : 3;
    for (int j = first; j < last; ++j) {
      unsigned want = k.want[j];
      bool nan_ok = (want == 0x7fffu && (got[j] & 0x7c00u) == 0x7c00u && (got[j] & 0x3ffu)) ||
                    (want == 0xc4007fffu && got[j] >> 16 == 0xc400u &&
                     (got[j] & 0x7c00u) == 0x7c00u && (got[j] & 0x3ffu));
      if (got[j] != want && !nan_ok) {
        printf("FAIL: case %d form %d: got 0x%x, want 0x%x\n", i, j, got[j], want);
        bad++;
      }
    }
  }
  if (cudaGetLastError() != cudaSuccess) {
    printf("FAIL: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  if (bad) return 1;
  printf("PASS\n");
  return 0;
}
