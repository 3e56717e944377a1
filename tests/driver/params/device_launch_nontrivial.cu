// A launch in kernel code whose argument has a user-provided copy
// constructor: nvcc refuses it ("cannot pass an argument with a
// user-provided copy-constructor to a device-side kernel launch"); cuemu
// ends the parent's launch with a message that says so.
#include <cstdio>

#include <cuda_runtime.h>

struct View {
  int *data;
  __host__ __device__ explicit View(int *d) : data(d) {}
  __host__ __device__ View(const View &o) : data(o.data) {}
};

__global__ void child(View v) { v.data[threadIdx.x] = 1; }

__global__ void parent(int *data) { child<<<1, 4>>>(View(data)); }

int main() {
  int *data;
  cudaMallocManaged(&data, 4 * sizeof(int));
  parent<<<1, 1>>>(data);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorName(e));
  return e == cudaSuccess;
}
