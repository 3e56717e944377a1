// A member function template of a class template declared __global__, in
// the class (after a friend kernel, which nvcc accepts): nvcc refuses it.
#include <cuda_runtime.h>

__global__ void reset(int *x);

template <typename T> class Grid {
  friend __global__ void reset(int *x);

public:
  template <int B> __global__ void fill(T *x, T v) { x[threadIdx.x] = v; }
};

__global__ void reset(int *x) { x[threadIdx.x] = 0; }

int main() { return 0; }
