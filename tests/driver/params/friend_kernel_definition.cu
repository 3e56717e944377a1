// A kernel defined in a friend declaration: nvcc refuses it ("A __global__
// function or function template cannot be defined in a friend
// declaration"); declared there and defined at namespace scope, it is
// accepted (tests/programs/params/system_header_kernels.cu).
#include <cuda_runtime.h>

struct Holder {
  friend __global__ void inner(int *x) { x[threadIdx.x] += 100; }
};

__global__ void inner(int *x);

int main() {
  int *x = nullptr;
  inner<<<1, 1>>>(x);
  return 0;
}
