/* host.c: C host code of a CUDA program: allocates device memory with the
 * runtime API, calls the .cu file's launcher, and checks the result. Valid
 * C and C++, as such files usually are. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C"
#endif
    int scale_on_device(float *data, int n, float factor);

int main(void)
{
  const int n = 1000;
  float *host = (float *)malloc(n * sizeof *host);
  float *dev = NULL;
  int i, bad = 0;
  for (i = 0; i < n; ++i)
    host[i] = (float)i;
  if (cudaMalloc((void **)&dev, n * sizeof *host) != cudaSuccess ||
      cudaMemcpy(dev, host, n * sizeof *host, cudaMemcpyHostToDevice) !=
          cudaSuccess ||
      scale_on_device(dev, n, 3.0f) != 0 ||
      cudaMemcpy(host, dev, n * sizeof *host, cudaMemcpyDeviceToHost) !=
          cudaSuccess) {
    printf("FAIL: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  for (i = 0; i < n; ++i)
    bad += host[i] != 3.0f * (float)i;
  cudaFree(dev);
  free(host);
  printf("%s: %d of %d scaled\n", bad ? "FAIL" : "PASS", n - bad, n);
  return bad != 0;
}
