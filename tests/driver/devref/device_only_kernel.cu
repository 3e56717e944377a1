// device_only_kernel.cu: a kernel that only the device pass defines.
// With -DREFUSED, `only_device` is a __global__ function within
// #if defined(__CUDA_ARCH__): nvcc's host pass writes a stub naming every
// kernel of the device pass and fails on it ("'only_device' was not
// declared in this scope"); cuemu-nvcc refuses it too, at its line. A
// textbook's N-body kept a tiled kernel and its host function under such
// a guard, and the host code ran without them. Without -DREFUSED, the near
// misses that nvcc builds: a kernel declared in both passes and defined in
// the device pass alone, a kernel template of the device pass alone that
// nothing instantiates, and a kernel defined in both branches of the
// guard; they build and run.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void declared(int *out);
#if defined(__CUDA_ARCH__)
__global__ void declared(int *out) { out[0] = 7; }
template <int N> __global__ void never_instantiated(int *out) { out[0] = N; }
__global__ void both_branches(int *out) { out[1] = 8; }
#else
__global__ void both_branches(int *out) { out[1] = -1; }
#endif

#ifdef REFUSED
#if defined(__CUDA_ARCH__)
__global__ void only_device(int *out) { out[2] = 9; } // refused
#endif
#endif

int main() {
  int *out = NULL;
  int host[2] = {0, 0};
  if (cudaMalloc(&out, sizeof host) != cudaSuccess) {
    printf("FAIL: cudaMalloc\n");
    return 1;
  }
  declared<<<1, 1>>>(out);
  both_branches<<<1, 1>>>(out);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  cudaFree(out);
  if (host[0] != 7 || host[1] != 8) {
    printf("FAIL: %d %d, expected 7 8\n", host[0], host[1]);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
