// kernel_named_like_host_function.cu: a kernel and a host function of the
// same name, the host function declared after the kernel and launching it
// (`__global__ void total(...)` beside `float total(const float *)`, as a
// textbook's reduction chapter names both `reduce`). The name is an
// overload set, and nvcc's launch picks the kernel by its arguments; the
// host function is called as usual. A second pair has the host function
// first and a kernel with a pointer-to-pointer parameter.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void total(const float *x, float *out, int n) {
  __shared__ float partial[64];
  partial[threadIdx.x] = threadIdx.x < n ? x[threadIdx.x] : 0.0f;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    *out = partial[0];
}

float total(const float *d_x) {
  float *d_out = nullptr, result = -1.0f;
  if (cudaMalloc(&d_out, sizeof(float)) != cudaSuccess)
    return result;
  total<<<1, 64>>>(d_x, d_out, 40);
  cudaMemcpy(&result, d_out, sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_out);
  return result;
}

int scale(int value) { return 3 * value; }

__global__ void scale(int **slots, int factor) { *slots[threadIdx.x] *= factor; }

int main() {
  float h_x[40];
  for (int i = 0; i < 40; ++i)
    h_x[i] = 0.5f * i;
  float *d_x = nullptr;
  int *d_values = nullptr, **d_slots = nullptr;
  if (cudaMalloc(&d_x, sizeof h_x) != cudaSuccess ||
      cudaMalloc(&d_values, 4 * sizeof(int)) != cudaSuccess ||
      cudaMalloc(&d_slots, 4 * sizeof(int *)) != cudaSuccess) {
    printf("FAIL: cudaMalloc\n");
    return 1;
  }
  cudaMemcpy(d_x, h_x, sizeof h_x, cudaMemcpyHostToDevice);
  const float sum = total(d_x);

  int h_values[4] = {1, 2, 3, 4};
  int *h_slots[4];
  for (int i = 0; i < 4; ++i)
    h_slots[i] = d_values + i;
  cudaMemcpy(d_values, h_values, sizeof h_values, cudaMemcpyHostToDevice);
  cudaMemcpy(d_slots, h_slots, sizeof h_slots, cudaMemcpyHostToDevice);
  scale<<<1, 4>>>(d_slots, scale(2));
  cudaMemcpy(h_values, d_values, sizeof h_values, cudaMemcpyDeviceToHost);
  const cudaError_t status = cudaDeviceSynchronize();

  cudaFree(d_x);
  cudaFree(d_values);
  cudaFree(d_slots);
  if (status != cudaSuccess) {
    printf("FAIL: %s\n", cudaGetErrorString(status));
    return 1;
  }
  if (sum != 390.0f) {
    printf("FAIL: total = %g, expected 390\n", sum);
    return 1;
  }
  for (int i = 0; i < 4; ++i)
    if (h_values[i] != 6 * (i + 1)) {
      printf("FAIL: value %d = %d, expected %d\n", i, h_values[i], 6 * (i + 1));
      return 1;
    }
  printf("PASS\n");
  return 0;
}
