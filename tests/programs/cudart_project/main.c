/* main.c: a C host file of a Makefile project, compiled by the host C
 * compiler against CUDA's own headers (or by nvcc, which compiles it as
 * C), calling the runtime API by its C symbols. Prints PASS when every
 * call behaves as CUDA's does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "kernels.h"

static int failures;

static void check(int ok, const char *what) {
  if (!ok) {
    printf("FAIL: %s\n", what);
    failures++;
  }
}

int main(void) {
  enum { N = 1000 };
  int count = 0;
  check(cudaGetDeviceCount(&count) == cudaSuccess && count >= 1,
        "cudaGetDeviceCount");

  /* The device as this C file sees it and as the CUDA file sees it. */
  struct cudaDeviceProp prop;
  struct device_summary cu;
  memset(&prop, 0, sizeof prop);
  check(cudaGetDeviceProperties(&prop, 0) == cudaSuccess,
        "cudaGetDeviceProperties");
  check(summarize_device(0, &cu) == 0, "summarize_device");
  check(strcmp(prop.name, cu.name) == 0 && prop.name[0] != '\0',
        "the device's name");
  check(prop.major == cu.major && prop.minor == cu.minor && prop.major >= 7,
        "the compute capability");
  check(prop.totalGlobalMem == cu.totalGlobalMem && prop.totalGlobalMem > 0,
        "totalGlobalMem");
  check(prop.multiProcessorCount == cu.multiProcessorCount &&
            prop.multiProcessorCount > 0,
        "multiProcessorCount");
  check(prop.warpSize == 32, "warpSize");

  /* Memory, a stream, a kernel of the CUDA file, events. */
  float *host = malloc(N * sizeof *host);
  for (int i = 0; i < N; ++i)
    host[i] = (float)(i % 7);
  float *dev = NULL;
  check(cudaMalloc((void **)&dev, N * sizeof *dev) == cudaSuccess && dev,
        "cudaMalloc");
  check(cudaMemcpy(dev, host, N * sizeof *dev, cudaMemcpyHostToDevice) ==
            cudaSuccess,
        "cudaMemcpy to the device");
  cudaStream_t stream;
  cudaEvent_t start, stop;
  check(cudaStreamCreate(&stream) == cudaSuccess, "cudaStreamCreate");
  check(cudaEventCreate(&start) == cudaSuccess &&
            cudaEventCreate(&stop) == cudaSuccess,
        "cudaEventCreate");
  check(cudaEventRecord(start, stream) == cudaSuccess, "cudaEventRecord");
  check(launch_scale(dev, 3.0f, N, stream) == 0, "the launch");
  check(cudaEventRecord(stop, stream) == cudaSuccess, "cudaEventRecord");
  check(cudaEventSynchronize(stop) == cudaSuccess, "cudaEventSynchronize");
  float ms = -1.0f;
  check(cudaEventElapsedTime(&ms, start, stop) == cudaSuccess && ms >= 0.0f,
        "cudaEventElapsedTime");
  check(count_wrong(dev, host, 3.0f, N) == 0, "the kernel's results");

  /* What a pointer is. */
  struct cudaPointerAttributes attr;
  check(cudaPointerGetAttributes(&attr, dev + 10) == cudaSuccess &&
            attr.type == cudaMemoryTypeDevice && attr.device == 0 &&
            attr.devicePointer == (void *)(dev + 10),
        "cudaPointerGetAttributes of device memory");
  check(cudaPointerGetAttributes(&attr, host) == cudaSuccess &&
            attr.type == cudaMemoryTypeUnregistered,
        "cudaPointerGetAttributes of malloc'd memory");

  /* A real error, its string, and the last error. */
  check(cudaGetLastError() == cudaSuccess, "no error before");
  check(cudaSetDevice(count + 5) == cudaErrorInvalidDevice,
        "cudaSetDevice of a device that does not exist");
  check(strcmp(cudaGetErrorString(cudaErrorInvalidDevice),
               "invalid device ordinal") == 0,
        "cudaGetErrorString");
  check(strcmp(cudaGetErrorName(cudaErrorInvalidDevice),
               "cudaErrorInvalidDevice") == 0,
        "cudaGetErrorName");
  check(cudaPeekAtLastError() == cudaErrorInvalidDevice, "cudaPeekAtLastError");
  check(cudaGetLastError() == cudaErrorInvalidDevice, "cudaGetLastError");
  check(cudaGetLastError() == cudaSuccess, "cudaGetLastError resets");

  check(cudaEventDestroy(start) == cudaSuccess &&
            cudaEventDestroy(stop) == cudaSuccess &&
            cudaStreamDestroy(stream) == cudaSuccess && cudaFree(dev) ==
            cudaSuccess,
        "the clean-up");
  free(host);
  if (failures)
    return 1;
  printf("PASS\n");
  return 0;
}
