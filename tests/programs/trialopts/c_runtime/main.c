/* main.c: a C program (C99) that drives CUDA through the runtime API and
 * calls the launchers of kernels.cu, as a CMake C+CUDA project's main.c
 * does. It checks every result against the CPU and prints PASS or FAIL. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "kernels.h"

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__,                  \
              cudaGetErrorName(err_), cudaGetErrorString(err_));               \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

/* A host function in the stream (cudaLaunchHostFunc): records its call. */
static void CUDART_CB host_step(void *data) { *(int *)data += 1; }

int main(void) {
  enum { N = 1000 };
  int count = 0, device = -1, version = 0, i, bad = 0;
  struct cudaDeviceProp prop;
  cudaStream_t stream;
  cudaEvent_t start, stop;
  float ms = -1.0f, *hx, *hy, *dx = NULL, *dy = NULL;
  size_t free_bytes = 0, total_bytes = 0;
  dim3 grid = {(N + 63) / 64, 1, 1}, block = {64, 1, 1};
  void *args[3];
  float s = 0.5f;
  int n = N;
  cudaError_t e;
  int host_calls = 0, zero = 0, counted = -1, *managed = NULL;
  struct cudaFuncAttributes attr;

  CHECK(cudaGetDeviceCount(&count));
  CHECK(cudaSetDevice(0));
  CHECK(cudaGetDevice(&device));
  memset(&prop, 0, sizeof prop);
  CHECK(cudaGetDeviceProperties(&prop, device));
  CHECK(cudaRuntimeGetVersion(&version));
  CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  printf("devices %d, device %d: %s, sm_%d%d, warp %d, runtime %d\n", count,
         device, prop.name, prop.major, prop.minor, prop.warpSize, version);
  if (count < 1 || prop.warpSize != 32 || prop.major < 1 || version < 12000 ||
      total_bytes == 0)
    bad = 1;

  CHECK(cudaMallocHost((void **)&hx, N * sizeof(float)));
  hy = (float *)malloc(N * sizeof(float));
  for (i = 0; i < N; i++) {
    hx[i] = (float)i;
    hy[i] = 1.0f;
  }
  CHECK(cudaMalloc((void **)&dx, N * sizeof(float)));
  CHECK(cudaMalloc((void **)&dy, N * sizeof(float)));
  CHECK(cudaStreamCreate(&stream));
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreateWithFlags(&stop, cudaEventDefault));
  CHECK(cudaMemcpy(dx, hx, N * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dy, 0, N * sizeof(float)));
  CHECK(cudaMemcpyAsync(dy, hy, N * sizeof(float), cudaMemcpyHostToDevice,
                        stream));
  CHECK(cudaEventRecord(start, stream));
  CHECK(launch_saxpy(N, 2.0f, dx, dy, stream));
  args[0] = &dy;
  args[1] = &s;
  args[2] = &n;
  CHECK(cudaMemcpyToSymbol(counter_symbol(), &zero, sizeof zero, 0,
                           cudaMemcpyHostToDevice));
  CHECK(cudaLaunchKernel(scale_kernel(), grid, block, args, 0, stream));
  CHECK(cudaLaunchHostFunc(stream, host_step, &host_calls));
  CHECK(cudaEventRecord(stop, stream));
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaEventSynchronize(stop));
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  CHECK(cudaMemcpy(hy, dy, N * sizeof(float), cudaMemcpyDeviceToHost));
  for (i = 0; i < N; i++) {
    float want = (2.0f * (float)i + 1.0f) * 0.5f;
    if (hy[i] != want) {
      printf("y[%d] = %g, want %g\n", i, hy[i], want);
      bad = 1;
      break;
    }
  }
  if (ms < 0.0f)
    bad = 1;
  CHECK(cudaMemcpyFromSymbol(&counted, counter_symbol(), sizeof counted, 0,
                             cudaMemcpyDeviceToHost));
  CHECK(cudaFuncGetAttributes(&attr, scale_kernel()));
  CHECK(cudaMallocManaged((void **)&managed, 4 * sizeof(int),
                          cudaMemAttachGlobal));
  managed[3] = 7;
  CHECK(cudaDeviceSynchronize());
  printf("counter %d, host calls %d, max threads %d, managed %d\n", counted,
         host_calls, attr.maxThreadsPerBlock, managed[3]);
  if (counted != N || host_calls != 1 || attr.maxThreadsPerBlock < 64 ||
      managed[3] != 7)
    bad = 1;
  CHECK(cudaFree(managed));

  /* An error: its name and string, then the last error is cleared. */
  e = cudaMemcpy(dx, hx, N * sizeof(float), (enum cudaMemcpyKind)42);
  printf("bad copy: %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
  if (e != cudaErrorInvalidMemcpyDirection ||
      cudaGetLastError() != cudaErrorInvalidMemcpyDirection ||
      cudaGetLastError() != cudaSuccess)
    bad = 1;

  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  CHECK(cudaFreeHost(hx));
  free(hy);
  CHECK(cudaDeviceReset());
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad;
}
