/*
 * refused_forms.cu: every form that nvcc accepts and cuemu-cc used to
 * refuse (issue 13, item 4), each checked at run time. The file starts with
 * a UTF-8 byte order mark.
 */
#include <cstdlib>
#include <cmath>

#include "check.cuh"

/* The specifier after the type. */
__global__ void type_first(double *out) {
  extern double __shared__ s[];
  s[threadIdx.x] = threadIdx.x * 0.5;
  __syncthreads();
  out[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}

/* `static __shared__`. */
__global__ void static_shared(int *out) {
  static __shared__ int s[32];
  s[threadIdx.x] = (int)threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[31 - threadIdx.x];
}

/* extern __shared__ in a function template and in a class template. */
template <typename T> __global__ void templ_shared(T *out) {
  extern __shared__ T t[];
  t[threadIdx.x] = (T)threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = t[blockDim.x - 1 - threadIdx.x];
}
template <typename T> struct staged {
  __device__ static T twice(T v) {
    extern __shared__ unsigned char raw[];
    T *slot = reinterpret_cast<T *>(raw);
    slot[threadIdx.x] = v;
    __syncthreads();
    return slot[threadIdx.x] * 2;
  }
};
__global__ void class_shared(float *out) {
  out[threadIdx.x] = staged<float>::twice((float)threadIdx.x);
}

/* A remaining template parameter deduced. */
template <int N, typename T> __global__ void scale(T *d, T factor) {
  d[threadIdx.x] = d[threadIdx.x] * factor + N;
}

/* A default argument left out at the launch. */
__global__ void with_default(int *out, int add = 40) {
  out[threadIdx.x] = (int)threadIdx.x + add;
}

/* Kernels named like functions of the C and C++ libraries. */
__global__ void rand(int *out) { out[threadIdx.x] = 7; }
__global__ void index(int *out) { out[threadIdx.x] = 8; }
__global__ void norm(float *out) { out[threadIdx.x] = 9.0f; }
__global__ void exp(float *out) { out[threadIdx.x] = 10.0f; }
__global__ void max(int *out, int a, int b) {
  out[threadIdx.x] = a > b ? a : b;
}

/* A kernel declared through a macro. */
#define KERNEL(name) __global__ void name
KERNEL(through_macro)(int *out) { out[threadIdx.x] = 11; }

int main() {
  double *dd = nullptr;
  cudaMallocManaged(&dd, 16 * sizeof(double));
  type_first<<<1, 16, 16 * sizeof(double)>>>(dd);
  cudaDeviceSynchronize();
  CHECK(dd[0] == 7.5 && dd[15] == 0.0);

  int *di = nullptr;
  cudaMallocManaged(&di, 32 * sizeof(int));
  static_shared<<<1, 32>>>(di);
  cudaDeviceSynchronize();
  CHECK(di[0] == 31 && di[31] == 0);

  long long *dl = nullptr;
  cudaMallocManaged(&dl, 8 * sizeof(long long));
  templ_shared<<<1, 8, 8 * sizeof(long long)>>>(dl);
  cudaDeviceSynchronize();
  CHECK(dl[0] == 7 && dl[7] == 0);

  float *df = nullptr;
  cudaMallocManaged(&df, 8 * sizeof(float));
  class_shared<<<1, 8, 8 * sizeof(float)>>>(df);
  cudaDeviceSynchronize();
  CHECK(df[3] == 6.0f);

  for (int i = 0; i < 8; ++i)
    df[i] = 1.0f;
  scale<32><<<1, 8>>>(df, 2.0f);
  cudaDeviceSynchronize();
  CHECK(df[0] == 34.0f && df[7] == 34.0f);

  with_default<<<1, 4>>>(di);
  cudaDeviceSynchronize();
  CHECK(di[0] == 40 && di[3] == 43);
  with_default<<<1, 4>>>(di, 1);
  cudaDeviceSynchronize();
  CHECK(di[3] == 4);

  rand<<<1, 1>>>(di);
  index<<<1, 1>>>(di + 1);
  max<<<1, 1>>>(di + 2, 3, 12);
  through_macro<<<1, 1>>>(di + 3);
  norm<<<1, 1>>>(df);
  exp<<<1, 1>>>(df + 1);
  cudaDeviceSynchronize();
  CHECK(di[0] == 7 && di[1] == 8 && di[2] == 12 && di[3] == 11);
  CHECK(df[0] == 9.0f && df[1] == 10.0f);
  /* The library's functions are still there. */
  CHECK(std::fabs(std::exp(0.0) - 1.0) < 1e-12);
  CHECK(cudaGetLastError() == cudaSuccess);
  cudaFree(dd);
  cudaFree(di);
  cudaFree(dl);
  cudaFree(df);
  return finish();
}
