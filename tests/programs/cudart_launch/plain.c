/* plain.c: a C program compiled by gcc against CUDA's own headers and
 * linked with NVIDIA's libcudart.so (so it asks for libcudart.so.13 and its
 * symbols' version libcudart.so.13). Run with cuemu's toolkit first in
 * LD_LIBRARY_PATH it runs on cuemu. Prints PASS. */
#include <stdio.h>
#include <string.h>

#include <cuda_runtime.h>

int main(void) {
  int count = 0, failures = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count < 1) {
    printf("FAIL: cudaGetDeviceCount: %s\n",
           cudaGetErrorString(cudaGetDeviceCount(&count)));
    return 1;
  }
  struct cudaDeviceProp prop;
  memset(&prop, 0, sizeof prop);
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess ||
      prop.warpSize != 32 || prop.major < 7) {
    printf("FAIL: cudaGetDeviceProperties\n");
    failures++;
  }
  int host[64], back[64];
  for (int i = 0; i < 64; ++i)
    host[i] = 3 * i + 1;
  void *device = NULL;
  if (cudaMalloc(&device, sizeof host) != cudaSuccess ||
      cudaMemcpy(device, host, sizeof host, cudaMemcpyHostToDevice) !=
          cudaSuccess ||
      cudaMemcpy(back, device, sizeof back, cudaMemcpyDeviceToHost) !=
          cudaSuccess ||
      memcmp(host, back, sizeof host) != 0 || cudaFree(device) != cudaSuccess) {
    printf("FAIL: the round trip through device memory\n");
    failures++;
  }
  if (strcmp(cudaGetErrorString(cudaErrorInvalidDevice),
             "invalid device ordinal") != 0) {
    printf("FAIL: cudaGetErrorString\n");
    failures++;
  }
  if (failures)
    return 1;
  printf("PASS\n");
  return 0;
}
