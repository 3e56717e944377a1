// init_template_device_function.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: init
// ENV: CUEMU_CHECK_SHARED_INIT=1
// EXPECT: init uninitialised shared line 14
#include <cstdio>
#include <cuda_runtime.h>

/* A device function template reads a shared halo that only the interior
 * threads filled. */
template <typename T, int R>
__device__ T stencil_at(const T *row, int i) {
  T s = T(0);
  for (int k = -R; k <= R; ++k)
    s += row[i + k];
  return s;
}
template <typename T, int R>
__global__ void stencil(const T *in, T *out, int n) {
  __shared__ T row[128 + 2 * R];
  int t = threadIdx.x;
  row[R + t] = in[t];
  /* missing: the halo cells row[0..R) and row[R+128..) */
  __syncthreads();
  out[t] = stencil_at<T, R>(row, R + t);
}

int main() {
  float host[128];
  for (int i = 0; i < 128; ++i)
    host[i] = 1.0f;
  float *in, *out;
  cudaMalloc(&in, 128 * sizeof(float));
  cudaMalloc(&out, 128 * sizeof(float));
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  stencil<float, 2><<<1, 128>>>(in, out, 128);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
