// deduced_launch.cu: a kernel template launched with deduced arguments
// whose body cannot compile for float (nvcc: "detected during
// instantiation of "void scale(T *, T) [with T=float]" at line 15").
#include <cuda_runtime.h>

template <typename T>
__global__ void scale(T *p, T f) {
  p[threadIdx.x] = p[threadIdx.x] * f.missing_member;
}

int main() {
  float *p = nullptr;
  cudaMalloc(&p, 64);
  // The launch: LINE 15.
  scale<<<1, 16>>>(p, 2.0f);
  cudaDeviceSynchronize();
  return 0;
}
