// launch_errors.cu: launches whose arguments nvcc refuses, one per
// -DCASE=N (tests/driver_launch_errors.sh): each must be an error at the
// launch's line, about the call of the kernel (a wrong count in nvcc's
// words), or the launch of a function that is no kernel; nothing comes
// from inside cuemu's headers. Without CASE, the correct launches build and run.
#include <cstdio>

#include "kernels.cuh"

int main() {
  int *d = nullptr;
  float *f = nullptr;
  cudaMalloc(&d, 32 * sizeof(int));
  cudaMalloc(&f, 32 * sizeof(float));
  (void)f;
#if CASE == 1
  scale<<<1, 32>>>(f, 2); // case 1: cannot convert
#elif CASE == 2
  scale<<<1, 32>>>(d); // case 2: too few arguments in function call
#elif CASE == 3
  scale<<<1, 32>>>(d, 2, 3); // case 3: too many arguments in function call
#elif CASE == 4
  fill<int><<<1, 32>>>(f, 1); // case 4: cannot convert
#elif CASE == 5
  twice<<<1, 32>>>(2); // case 5: a __device__ function call cannot be configured
#elif CASE == 6
  thrice<<<1, 32>>>(2); // case 6: a __device__ function call cannot be configured
#elif CASE == 7
  on_host<<<1, 32>>>(d); // case 7: host_function_call_cannot_be_configured
#else
  void (*pointer)(int *, int) = scale; // a pointer to a kernel launches
  cudaMemset(d, 0, 32 * sizeof(int));
  fill<int><<<1, 32>>>(d, 3);
  pointer<<<1, 32>>>(d, 2);
  int h[32];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("%s\n", h[31] == 6 ? "PASS" : "FAIL");
#endif
  cudaFree(d);
  cudaFree(f);
  return 0;
}
