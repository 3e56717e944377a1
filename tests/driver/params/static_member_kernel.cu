// A static member function declared __global__: nvcc refuses it ("A
// __global__ function or function template cannot be a member function").
#include <cuda_runtime.h>

struct Ops {
  static __global__ void scale(float *x, float a);
};

__global__ void Ops::scale(float *x, float a) { x[threadIdx.x] *= a; }

int main() {
  float *x = nullptr;
  Ops::scale<<<1, 1>>>(x, 2.0f);
  return 0;
}
