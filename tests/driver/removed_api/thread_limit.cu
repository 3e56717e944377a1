// thread_limit.cu: a host loop written for CUDA 12 or older that raises the
// per-thread stack with cudaThreadSetLimit (for a kernel with a large local
// array) and reads it back with cudaThreadGetLimit. CUDA 13 removed both
// (cudaDeviceSetLimit and cudaDeviceGetLimit replace them), so nvcc 13
// refuses this file, and so does cuemu-nvcc (tests/driver_removed_api.sh
// checks the notes that say why).
#include <cstdio>

__global__ void smooth(float *field, int n) {
  float window[512];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 512; ++k)
    window[k] = field[(i + k) % n];
  float sum = 0.0f;
  for (int k = 0; k < 512; ++k)
    sum += window[k];
  field[i] = sum / 512.0f;
}

int main() {
  const int n = 1024;
  float *field;
  cudaMalloc(&field, n * sizeof(float));
  cudaMemset(field, 0, n * sizeof(float));
  cudaThreadSetLimit(cudaLimitStackSize, 8192);
  size_t stack = 0;
  cudaThreadGetLimit(&stack, cudaLimitStackSize);
  smooth<<<n / 256, 256>>>(field, n);
  cudaDeviceSynchronize();
  std::printf("stack %zu\nPASS\n", stack);
  return 0;
}
