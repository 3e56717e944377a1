// refs.cu: a kernel whose device code references functions and a
// variable that no unit defines, with one architecture
// (tests/driver_dlink_undefined.sh). nvcc's device link names each one:
// the functions that a kernel reaches (a plain one, one of a namespace, a
// template's instance), then the variables; not `unused`'s callee, which
// no kernel reaches, nor what the device runtime and the C library give
// (printf, malloc, sinf).
#include <cstdio>
#include <cstdlib>

extern __device__ int offset(int x);
namespace geo {
__device__ float area(float r);
}
template <class T> __device__ T doubled(T x);
extern __device__ int bias;

__device__ int never_called(int x);
__device__ int unused(int x) { return never_called(x); }

__global__ void sample(float *out) {
  int *scratch = (int *)malloc(sizeof(int));
  *scratch = offset(int(threadIdx.x)) + bias;
  out[threadIdx.x] = geo::area(1.0f) + doubled(sinf(float(*scratch)));
  if (threadIdx.x == 0)
    printf("%g\n", out[0]);
  free(scratch);
}

int main() {
  float *out = nullptr;
  if (cudaMalloc(&out, 32 * sizeof(float)) != cudaSuccess)
    return 1;
  sample<<<1, 32>>>(out);
  std::printf("%s\n",
              cudaDeviceSynchronize() == cudaSuccess ? "PASS" : "FAIL");
  return 0;
}
