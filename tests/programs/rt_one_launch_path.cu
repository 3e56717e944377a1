/*
 * rt_one_launch_path.cu: every launch form goes through one launch path, so
 * they agree. After a kernel fault, kernel<<<>>> refuses to run, exactly as
 * cudaLaunchKernel does (the error is sticky until cudaDeviceReset); a
 * kernel's __launch_bounds__ is enforced on every launch form
 * (cudaErrorLaunchOutOfResources) and reported by cudaFuncGetAttributes.
 * Prints PASS when all is well.
 */
#include <cuda_runtime.h>

#include "check.cuh"

__global__ void fault(int *p) { *p = 1; }

__global__ void mark(int *flag) { *flag = 42; }

__global__ void __launch_bounds__(128) bounded(int *count) {
  atomicAdd(count, 1);
}

int main() {
  int *flag = nullptr;
  CHECK(cudaMallocManaged(&flag, sizeof(int)) == cudaSuccess);

  /* __launch_bounds__(128): 128 threads run, 256 are refused. */
  *flag = 0;
  bounded<<<1, 128>>>(flag);
  CHECK(cudaDeviceSynchronize() == cudaSuccess && *flag == 128);
  bounded<<<1, 256>>>(flag);
  CHECK(cudaGetLastError() == cudaErrorLaunchOutOfResources && *flag == 128);
  void *args[] = {&flag};
  CHECK(cudaLaunchKernel((const void *)bounded, dim3(1), dim3(256), args, 0,
                         nullptr) == cudaErrorLaunchOutOfResources);
  cudaGetLastError();
  cudaFuncAttributes attr;
  CHECK(cudaFuncGetAttributes(&attr, bounded) == cudaSuccess);
  CHECK(attr.maxThreadsPerBlock == 128);
  CHECK(cudaFuncGetAttributes(&attr, mark) == cudaSuccess);
  CHECK(attr.maxThreadsPerBlock == 1024);

  /* A fault makes the device unusable: no launch form runs afterwards. */
  fault<<<1, 1>>>(nullptr);
  CHECK(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
  *flag = 0;
  mark<<<1, 1>>>(flag);
  CHECK(cudaGetLastError() == cudaErrorIllegalAddress);
  CHECK(*flag == 0);
  CHECK(cudaLaunchKernel((const void *)mark, dim3(1), dim3(1), args, 0,
                         nullptr) == cudaErrorIllegalAddress);
  CHECK(*flag == 0);

  /* cudaDeviceReset clears it (and frees flag): launches run again. */
  CHECK(cudaDeviceReset() == cudaSuccess);
  CHECK(cudaMallocManaged(&flag, sizeof(int)) == cudaSuccess);
  *flag = 0;
  mark<<<1, 1>>>(flag);
  CHECK(cudaDeviceSynchronize() == cudaSuccess && *flag == 42);
  CHECK(cudaFree(flag) == cudaSuccess);
  return finish();
}
