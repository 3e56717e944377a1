/*
 * bad_warp_legacy.cu: the warp intrinsics of CUDA 8 and before, without a
 * mask, which cuemu rejects at compile time with a message naming the _sync
 * form (tests/check_warp.c checks each message).
 *
 * nvcc 13.0 rejects this file too, for -arch=sm_90: __shfl, __shfl_up,
 * __shfl_down and __shfl_xor are undefined identifiers ("error: identifier
 * "__shfl" is undefined"), and __ballot, __all and __any draw warning
 * #1444-D ("__ballot() is not valid on compute_70 and above, and should be
 * replaced with __ballot_sync()...") before ptxas fails with "Instruction
 * 'vote' without '.sync' is not supported on .target sm_70 and higher".
 */
#include <cuda_bf16.h>
#include <cuda_fp16.h>

extern "C" __global__ void legacy(int *i, unsigned *u, long long *ll, float *f,
                                  double *d, __half *h, __half2 *h2,
                                  __nv_bfloat16 *b) {
  i[0] = __shfl(i[0], 1);
  u[0] = __shfl_up(u[0], 1u, 16);
  ll[0] = __shfl_down(ll[0], 2u);
  f[0] = __shfl_xor(f[0], 4);
  d[0] = __shfl(d[0], 3, 8);
  h[0] = __shfl_down(h[0], 1u);
  h2[0] = __shfl_up(h2[0], 1u);
  b[0] = __shfl_xor(b[0], 1);
  u[1] = __ballot(i[1] > 0);
  i[2] = __all(i[2]);
  i[3] = __any(f[3] > 0.0f);
}
