// tuning.cuh: per-type tuning constants and operations of a small filter
// library, as __device__ variable templates (variable_template_host.cu).
#ifndef TUNING_CUH
#define TUNING_CUH

template <typename T> __device__ T twice(T x) { return x + x; }
template <typename T> __device__ T negate(T x) { return -x; }

// The gain each kernel applies, per element type.
template <typename T> __device__ T gain = T(3);

// The operation each kernel applies, per element type.
template <typename T> __device__ T (*operation)(T) = twice<T>;

// A bias that only the host side of the library touches (see below).
template <typename T> __device__ T bias = T(0);

template <typename T> __global__ void filter(T *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = operation<T>(data[i]) * gain<T>;
}

#endif
