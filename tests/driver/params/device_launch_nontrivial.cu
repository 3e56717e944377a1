// Launches in kernel code whose argument has a user-provided copy
// constructor or destructor: nvcc refuses them when it compiles ("cannot
// pass an argument with a user-provided copy-constructor to a device-side
// kernel launch", "... destructor ..."), and so does cuemu-nvcc, at the
// launch's line.
#include <cuda_runtime.h>

struct View {
  int *data;
  __host__ __device__ explicit View(int *d) : data(d) {}
  __host__ __device__ View(const View &o) : data(o.data) {}
};

struct Owner {
  int *data;
  __host__ __device__ ~Owner() {}
};

__global__ void child(View v) { v.data[threadIdx.x] = 1; }
__global__ void owned(Owner o) { o.data[threadIdx.x] = 2; }

__global__ void parent(int *data) { child<<<1, 4>>>(View(data)); }

__global__ void other_parent(int *data) {
  Owner o{data};
  owned<<<1, 4>>>(o);
}

int main() {
  int *data;
  cudaMallocManaged(&data, 4 * sizeof(int));
  parent<<<1, 1>>>(data);
  other_parent<<<1, 1>>>(data);
  return cudaDeviceSynchronize() != cudaSuccess;
}

/* The kernel's parameter type is what nvcc checks: an int argument made
 * into a parameter of a class with a user-provided copy constructor is
 * refused as well. */
struct Made {
  int a;
  __host__ __device__ Made(int x) : a(x) {}
  __host__ __device__ Made(const Made &o) : a(o.a) {}
};
__global__ void made(Made m) {}
__global__ void made_parent() { made<<<1, 1>>>(3); }
