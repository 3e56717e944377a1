// vector_add_kernels.cu: the device code that the Makefile builds into a
// .fatbin, a .cubin and a .ptx for vector_add_drv.
// Device code: C = A + B, plus a templated scaled version named by extern "C" wrappers.
template <typename T>
__device__ void vadd_impl(const T *a, const T *b, T *c, int n, T scale) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < n) c[i] = scale * (a[i] + b[i]);
}

extern "C" __global__ void VecAdd_kernel(const float *A, const float *B, float *C, int N) {
  vadd_impl<float>(A, B, C, N, 1.0f);
}

extern "C" __global__ void VecAddScaled_double(const double *A, const double *B, double *C,
                                               int N, double s) {
  vadd_impl<double>(A, B, C, N, s);
}

__device__ int d_launch_count;
__constant__ float c_bias[4];

extern "C" __global__ void VecBias(float *C, int N) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i == 0) atomicAdd(&d_launch_count, 1);
  if (i < N) C[i] += c_bias[i % 4];
}
