/*
 * warp_shuffle.cu: the four shuffles for tests/check_warp.c, for every type
 * CUDA shuffles (int, unsigned, long, unsigned long, long long, unsigned
 * long long, float, double, __half, __half2, __nv_bfloat16 and
 * __nv_bfloat162).
 *
 * Each kernel sweeps every width (1, 2, 4, ..., 32, then the default) and
 * every lane argument from SWEEP_FIRST_ARG (negative) to SWEEP_FIRST_ARG +
 * SWEEP_ARGS - 1 (past the warp), so that PTX's use of the argument's low
 * five bits shows. Only the lanes of
 * `mask` that exist in the caller's warp call; the mask they pass is that
 * set, so every call is legal CUDA (a source lane outside it gives an
 * unspecified value on the GPU; cuemu returns the caller's own value).
 */
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "thread_layout.cuh"

/* The number of lane arguments each shuffle is tried with; the host test
 * uses the same numbers. */
#define SWEEP_ARGS 36
#define SWEEP_FIRST_ARG (-2)
#define SWEEP_WIDTHS 7 /* 1, 2, 4, 8, 16, 32 and the default */

/* Writes result number k of thread i at out[k * total + i], where total is
 * the number of threads of the launch. */
template <typename T>
__device__ void sweep(const T *in, T *out, unsigned mask) {
  unsigned n = block_threads(), t = linear_thread();
  unsigned total = n * gridDim.x * gridDim.y * gridDim.z;
  unsigned i = linear_block() * n + t;
  unsigned m = mask & present_lanes(t, n);
  if (!lane_in_mask(m, t))
    return;
  T v = in[i];
  unsigned k = 0;
  for (int w = 1; w <= 32; w *= 2)
    for (int a = SWEEP_FIRST_ARG; a < SWEEP_FIRST_ARG + SWEEP_ARGS; ++a) {
      out[k++ * total + i] = __shfl_sync(m, v, a, w);
      out[k++ * total + i] = __shfl_up_sync(m, v, (unsigned)a, w);
      out[k++ * total + i] = __shfl_down_sync(m, v, (unsigned)a, w);
      out[k++ * total + i] = __shfl_xor_sync(m, v, a, w);
    }
  for (int a = SWEEP_FIRST_ARG; a < SWEEP_FIRST_ARG + SWEEP_ARGS; ++a) {
    out[k++ * total + i] = __shfl_sync(m, v, a);
    out[k++ * total + i] = __shfl_up_sync(m, v, (unsigned)a);
    out[k++ * total + i] = __shfl_down_sync(m, v, (unsigned)a);
    out[k++ * total + i] = __shfl_xor_sync(m, v, a);
  }
}

extern "C" __global__ void sweep_int(const int *in, int *out, unsigned mask) {
  sweep<int>(in, out, mask);
}
extern "C" __global__ void sweep_unsigned(const unsigned int *in,
                                          unsigned int *out, unsigned mask) {
  sweep<unsigned int>(in, out, mask);
}
extern "C" __global__ void sweep_long(const long *in, long *out,
                                      unsigned mask) {
  sweep<long>(in, out, mask);
}
extern "C" __global__ void sweep_unsigned_long(const unsigned long *in,
                                               unsigned long *out,
                                               unsigned mask) {
  sweep<unsigned long>(in, out, mask);
}
extern "C" __global__ void sweep_long_long(const long long *in, long long *out,
                                           unsigned mask) {
  sweep<long long>(in, out, mask);
}
extern "C" __global__ void
sweep_unsigned_long_long(const unsigned long long *in, unsigned long long *out,
                         unsigned mask) {
  sweep<unsigned long long>(in, out, mask);
}
extern "C" __global__ void sweep_float(const float *in, float *out,
                                       unsigned mask) {
  sweep<float>(in, out, mask);
}
extern "C" __global__ void sweep_double(const double *in, double *out,
                                        unsigned mask) {
  sweep<double>(in, out, mask);
}
extern "C" __global__ void sweep_half(const __half *in, __half *out,
                                      unsigned mask) {
  sweep<__half>(in, out, mask);
}
extern "C" __global__ void sweep_half2(const __half2 *in, __half2 *out,
                                       unsigned mask) {
  sweep<__half2>(in, out, mask);
}
extern "C" __global__ void sweep_bfloat16(const __nv_bfloat16 *in,
                                          __nv_bfloat16 *out, unsigned mask) {
  sweep<__nv_bfloat16>(in, out, mask);
}
extern "C" __global__ void sweep_bfloat162(const __nv_bfloat162 *in,
                                           __nv_bfloat162 *out, unsigned mask) {
  sweep<__nv_bfloat162>(in, out, mask);
}

/* A butterfly sum over the whole warp (every lane present), the common use:
 * every lane ends with the warp's total. */
extern "C" __global__ void xor_sum(const int *in, int *out) {
  unsigned i = linear_block() * block_threads() + linear_thread();
  int v = in[i];
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_xor_sync(0xffffffffu, v, offset);
  out[i] = v;
}

/* A shuffle reached from two call sites by the two halves of the warp,
 * with one mask: legal from sm_70 on, where the lanes of a mask need not
 * execute the same instruction. */
extern "C" __global__ void two_sites(const int *in, int *out) {
  unsigned t = linear_thread();
  unsigned i = linear_block() * block_threads() + t;
  int v = in[i];
  if (t % 32 < 16)
    out[i] = __shfl_xor_sync(0xffffffffu, v, 16);
  else
    out[i] = __shfl_xor_sync(0xffffffffu, v, 16);
}

/* Shuffles whose operands differ from lane to lane, and collectives of two
 * half-warp masks gathered at once, for 64-thread blocks: out[i * 4 + k]
 * is result k of thread i. (cuemu computes a whole warp's shuffle with
 * one offset and width apart, and counts a warp's lanes at the first
 * collective to arrive; these take the other ways.) */
extern "C" __global__ void per_lane_operands(const int *in, int *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32;
  int v = in[i];
  int *o = out + i * 4;
  o[0] = __shfl_sync(0xffffffffu, v, (int)((lane * 7 + 3) % 32));
  o[1] = __shfl_down_sync(0xffffffffu, v, lane % 4);
  /* The low half gathers first (mask 0x0000ffff); the high half, with its
   * own mask, arrives while the low half waits. */
  if (lane < 16)
    o[2] = __shfl_xor_sync(0x0000ffffu, v, 1);
  else
    o[2] = __shfl_xor_sync(0xffff0000u, v, 2);
  o[3] = __shfl_up_sync(0xffffffffu, v, 1, lane < 16 ? 8 : 16);
}

/* The block sum of the CUDA samples, for any block shape: each warp sums
 * its lanes with __shfl_down_sync over the lanes that exist (skipping
 * sources past the end of a partial warp), lane 0 of each warp stores the
 * warp's sum in shared memory, and after __syncthreads warp 0 sums those.
 * Thread 0 writes the block's sum at out[block]. */
extern "C" __global__ void block_sum(const int *in, int *out) {
  __shared__ int partial[32];
  unsigned n = block_threads(), t = linear_thread();
  unsigned lane = t % 32, warp = t / 32;
  unsigned count = n - warp * 32 < 32 ? n - warp * 32 : 32;
  unsigned present = present_lanes(t, n);
  int v = in[linear_block() * n + t];
  for (unsigned offset = 16; offset > 0; offset /= 2) {
    int other = __shfl_down_sync(present, v, offset);
    if (lane + offset < count)
      v += other;
  }
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    unsigned warps = (n + 31) / 32;
    int w = lane < warps ? partial[lane] : 0;
    for (unsigned offset = 16; offset > 0; offset /= 2) {
      int other = __shfl_xor_sync(present, w, offset);
      if ((lane ^ offset) < count)
        w += other;
    }
    if (lane == 0)
      out[linear_block()] = w;
  }
}
