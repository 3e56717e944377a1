// NVCC_OPTIONS: -rdc=true
// app_kernel.cu - application kernel that calls into lib_math at link time.
extern "C" __device__ float poly3(float x, const float *c);
extern __device__ int lib_calls;
__constant__ float coeffs[4];
extern "C" __global__ void eval_poly(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = poly3(x[i], coeffs);
    atomicAdd(&lib_calls, 1);
  }
}
