/* kernels.cu: kernels defined in one file, launched from another. */
#include "vec.cuh"
/* In CUDA code the header takes CUDA's max, min and rsqrtf. */
#include "host_math.h"

__global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

__global__ void scale(float *y, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] *= factor;
}

void launch_scale(float *y, float factor, int n) {
  scale<<<(n + 127) / 128, 128>>>(y, factor, n);
}

/* Internal linkage: the names are main.cu's too (see vec.cuh). */
static __device__ int calls;
namespace {
__device__ int seen;
}
/* Without -rdc each file's device code is its own, as with nvcc. */
__device__ int shared_name = 2;
static __global__ void count(int add) {
  atomicAdd(&calls, add);
  seen = 2;
}

int check_private_kernels(void) {
  int start = 100, got = 0, flag = 0;
  cudaMemcpyToSymbol(calls, &start, sizeof start);
  count<<<3, 4>>>(10);
  cudaMemcpyFromSymbol(&got, calls, sizeof got);
  cudaMemcpyFromSymbol(&flag, seen, sizeof flag);
  int mine = 0;
  cudaMemcpyFromSymbol(&mine, shared_name, sizeof mine);
  flag += 10 * (mine != 2);
  return (got != 100 + 120) + (flag != 2);
}
