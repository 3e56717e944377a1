/* The other unit of rdc_linked_entities.cu.
 * NVCC_OPTIONS: -rdc=true */
#include "linked_entities.cuh"

template <typename T>
__device__ T scale_by(T v, int which) {
  return v * T(which + 1);
}
template __device__ double scale_by<double>(double, int);
template __device__ float scale_by<float>(float, int);

template <>
__device__ float offset_of<float>(float v) {
  return v + 0.5f;
}

template <class T>
__device__ T Ops<T>::triple(T v) {
  return v * T(3);
}
template <class T>
__device__ T Ops<T>::twice(T v) const {
  return v + v;
}
template struct Ops<float>;

__global__ void other_kernel(float* d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    d[i] = scale_by(float(i), 1);
    atomicAdd(&g_inline_calls, 1);
    atomicAdd(&g_inline_sum, 1ull);
  }
}

void run_other_unit(float* d, int n) { other_kernel<<<(n + 31) / 32, 32>>>(d, n); }
