// kernels.cu: the module of the driver-API test (tests/drvapi.sh), built
// with `cuemu-nvcc -fatbin` (and -ptx, -cubin) and loaded by main.cpp with
// cuModuleLoad and cuModuleLoadData. Plain kernels with C linkage, a C++
// kernel found by its mangled name, a template instantiation, a
// __device__ variable, and a cooperative kernel.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__device__ int launches;
__constant__ float bias[4];

extern "C" __global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i] + bias[i % 4];
  if (i == 0)
    atomicAdd(&launches, 1);
}

// Parameters of mixed sizes and alignments, for
// CU_LAUNCH_PARAM_BUFFER_POINTER.
struct Pair {
  double scale;
  int offset;
};

extern "C" __global__ void packed(char tag, Pair p, short s, double *out) {
  int i = threadIdx.x;
  out[i] = p.scale * i + p.offset + tag + s;
}

__global__ void vecAdd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

template <typename T, int N> __global__ void times(T *p) {
  p[threadIdx.x] *= N;
}
template __global__ void times<int, 3>(int *);

// Every block adds its index into total, then block 0 checks the sum after
// the grid barrier.
extern "C" __global__ void gridSum(int *total, int *seen) {
  cg::grid_group grid = cg::this_grid();
  if (threadIdx.x == 0)
    atomicAdd(total, (int)blockIdx.x);
  grid.sync();
  if (blockIdx.x == 0 && threadIdx.x == 0)
    *seen = *total;
}

extern "C" __global__ void faulty(int *p) {
  if (threadIdx.x == 5)
    p[1 << 28] = 1; // far outside any allocation
}
