// A launch in kernel code that cuemu-cc does not see as one (in a
// __device__ member function defined in its class), whose kernel's
// parameter has a user-provided copy constructor: nvcc refuses it when it
// compiles; cuemu-nvcc builds it, and the launch is refused when it runs
// (an assertion that names the kernel and the rule), never made.
#include <cstdio>

#include <cuda_runtime.h>

struct View {
  int *data;
  __host__ __device__ explicit View(int *d) : data(d) {}
  __host__ __device__ View(const View &o) : data(o.data) {}
};

__global__ void viewed(View v) { v.data[threadIdx.x] = 1; }

struct Spawner {
  int *data;
  __device__ void spawn() const { viewed<<<1, 4>>>(View(data)); }
};

__global__ void spawning(Spawner s) { s.spawn(); }

int main() {
  int *data;
  cudaMallocManaged(&data, 4 * sizeof(int));
  data[0] = 0;
  spawning<<<1, 1>>>(Spawner{data});
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s %d\n", cudaGetErrorName(e), data[0]);
  return 0;
}
