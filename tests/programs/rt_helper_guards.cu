/*
 * rt_helper_guards.cu: host code in the style of the samples' helper
 * headers, which define their error check only under #ifdef
 * __DRIVER_TYPES_H__ and their device picker only under #ifdef
 * __CUDA_RUNTIME_H__: both must be defined after <cuda_runtime.h>, or this
 * program does not compile. Prints PASS when all is well.
 */
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#include "check.cuh"

#ifdef __DRIVER_TYPES_H__
/* Reports a failed call with its error name and exits, like the samples. */
template <typename T>
void report_failure(T result, const char *call, const char *file, int line) {
  if (result) {
    std::fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\"\n", file,
                 line, static_cast<int>(result), cudaGetErrorName(result),
                 call);
    std::exit(EXIT_FAILURE);
  }
}
#define checkCudaErrors(val) report_failure((val), #val, __FILE__, __LINE__)
#endif

#ifdef __CUDA_RUNTIME_H__
/* Picks the device with the most SMs and reports its compute capability. */
inline int findCudaDevice(int *major, int *minor) {
  int count = 0, best = 0, best_sms = -1;
  checkCudaErrors(cudaGetDeviceCount(&count));
  if (count == 0)
    return -1;
  for (int dev = 0; dev < count; ++dev) {
    int sms = 0, mode = -1;
    checkCudaErrors(
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    checkCudaErrors(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, dev));
    if (mode != cudaComputeModeProhibited && sms > best_sms) {
      best = dev;
      best_sms = sms;
    }
  }
  checkCudaErrors(cudaSetDevice(best));
  checkCudaErrors(
      cudaDeviceGetAttribute(major, cudaDevAttrComputeCapabilityMajor, best));
  checkCudaErrors(
      cudaDeviceGetAttribute(minor, cudaDevAttrComputeCapabilityMinor, best));
  return best;
}
#endif

__global__ void square(float *v, int n) {
  int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n)
    v[i] *= v[i];
}

int main() {
  int major = 0, minor = 0;
  int dev = findCudaDevice(&major, &minor);
  CHECK(dev == 0);
  CHECK(major >= 7);
  const int n = 100;
  float h[n];
  for (int i = 0; i < n; ++i)
    h[i] = (float)i;
  float *d = nullptr;
  checkCudaErrors(cudaMalloc(&d, n * sizeof(float)));
  checkCudaErrors(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));
  square<<<(n + 31) / 32, 32>>>(d, n);
  checkCudaErrors(cudaGetLastError());
  checkCudaErrors(cudaDeviceSynchronize());
  checkCudaErrors(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaFree(d));
  CHECK(h[9] == 81.0f && h[99] == 9801.0f);
  return finish();
}
