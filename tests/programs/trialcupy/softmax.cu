// softmax.cu: a row softmax, one block of BLOCK threads per row, with two
// shared-memory tree reductions (the row's maximum, then its sum of
// exponentials), templated on the element type; test_trialcupy.py loads
// it with name_expressions for __half, float and double. NVRTC has no
// <math.h>, so negative infinity is spelled with __int_as_float.
#include <cuda_fp16.h>

template <typename T, int BLOCK>
__global__ void row_softmax(const T *__restrict__ x, T *__restrict__ y,
                            int cols) {
  __shared__ float red[BLOCK];
  const T *row = x + (size_t)blockIdx.x * cols;
  T *out = y + (size_t)blockIdx.x * cols;
  float m = __int_as_float(0xff800000);
  for (int c = threadIdx.x; c < cols; c += BLOCK)
    m = fmaxf(m, (float)row[c]);
  red[threadIdx.x] = m;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + s]);
    __syncthreads();
  }
  m = red[0];
  __syncthreads();
  float sum = 0.f;
  for (int c = threadIdx.x; c < cols; c += BLOCK)
    sum += __expf((float)row[c] - m);
  red[threadIdx.x] = sum;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      red[threadIdx.x] += red[threadIdx.x + s];
    __syncthreads();
  }
  sum = red[0];
  for (int c = threadIdx.x; c < cols; c += BLOCK)
    out[c] = (T)(__expf((float)row[c] - m) / sum);
}

#ifndef __CUDACC_RTC__
template __global__ void row_softmax<float, 64>(const float *, float *, int);
template __global__ void row_softmax<double, 64>(const double *, double *, int);
template __global__ void row_softmax<__half, 64>(const __half *, __half *, int);
#endif
