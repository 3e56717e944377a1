// old_timer.cu: a kernel and a host loop written for CUDA 5 to 11: a texture
// reference bound to linear memory and cudaThreadSynchronize after the
// launch. CUDA 12 removed texture references and CUDA 13 the cudaThread*
// calls, so nvcc 13 refuses this file, and so does cuemu-nvcc
// (tests/driver_removed_api.sh checks the notes that say why).
#include <cstdio>

texture<float, 1> weights;

__global__ void scale(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] *= tex1Dfetch(weights, i);
}

int main() {
  const int n = 256;
  float *w, *v;
  cudaMalloc(&w, n * sizeof(float));
  cudaMalloc(&v, n * sizeof(float));
  cudaBindTexture(0, weights, w, n * sizeof(float));
  scale<<<1, n>>>(v, n);
  cudaThreadSynchronize();
  cudaUnbindTexture(weights);
  std::printf("PASS\n");
  return 0;
}
