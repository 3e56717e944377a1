/*
 * gpu_results.cuh: device helpers whose results depend on what the GPU
 * gives where C++ leaves the result undefined (gpu_results.cu).
 */
#ifndef GPU_RESULTS_CUH
#define GPU_RESULTS_CUH

/* The low `width` bits set: all 32 for width 32, as PTX's clamped shl gives
 * ((1u << 32) is 0 on a GPU). */
__device__ inline unsigned low_bits(unsigned width) {
  return (1u << width) - 1u;
}

/* A bit field starting at `pos` (from 0 to 32) of `word`, and the sign of
 * `x` spread by an arithmetic shift of any amount. */
__device__ inline unsigned field_above(unsigned word, int pos) {
  return word >> pos;
}
__device__ inline int spread_sign(int x, int amount) { return x >> amount; }

template <typename T> __device__ inline T shifted_left(T x, int amount) {
  x <<= amount;
  return x;
}

/* Quantises v to an integer code, relying on the conversion's saturation
 * as kernels often do. */
template <typename I, typename F> __device__ inline I quantise(F v, F scale) {
  return static_cast<I>(v * scale);
}

#endif
