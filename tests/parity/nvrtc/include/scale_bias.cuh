// scale_bias.cuh: a header that scale.cu finds only through its -I option.
#ifndef SCALE_BIAS_CUH
#define SCALE_BIAS_CUH

template <typename T> __device__ T add_bias(T v) {
  return v + static_cast<T>(SCALE_BIAS);
}

#endif
