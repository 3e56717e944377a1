/* histogram.c: a C99 driver-API program: loads a fatbin, launches with an argument array
 * and a struct passed by value, uses events for timing, a 2D copy and
 * cuMemsetD8Async, and reports errors through cuGetErrorName. */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CU(call)                                                           \
  do {                                                                     \
    CUresult err_ = (call);                                                \
    if (err_ != CUDA_SUCCESS) {                                            \
      const char *name_ = NULL;                                            \
      cuGetErrorName(err_, &name_);                                        \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, name_); \
      exit(1);                                                             \
    }                                                                      \
  } while (0)

struct Params { float scale; int count; double offset; };

int main(int argc, char **argv) {
  const char *image = argc > 1 ? argv[1] : "histogram_kernels.fatbin";
  CUdevice dev;
  CUcontext ctx;
  CUmodule mod;
  CUfunction histo, bystruct;
  CUstream stream;
  CUevent start, stop;
  unsigned n = 1u << 20, i, bins[256], ref[256];
  unsigned char *host;
  CUdeviceptr d_data, d_bins, d_out;
  int ok = 1, driverVersion = 0;
  float ms = 0.0f;

  CU(cuInit(0));
  CU(cuDriverGetVersion(&driverVersion));
  CU(cuDeviceGet(&dev, 0));
  CU(cuCtxCreate(&ctx, NULL, 0, dev));
  CU(cuModuleLoad(&mod, image));
  CU(cuModuleGetFunction(&histo, mod, "histogram256"));
  CU(cuModuleGetFunction(&bystruct, mod, "by_struct"));
  CU(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CU(cuEventCreate(&start, CU_EVENT_DEFAULT));
  CU(cuEventCreate(&stop, CU_EVENT_BLOCKING_SYNC));

  CU(cuMemAllocHost((void **)&host, n));
  srand(7);
  memset(ref, 0, sizeof ref);
  for (i = 0; i < n; ++i) { host[i] = (unsigned char)(rand() & 255); ref[host[i]]++; }
  CU(cuMemAlloc(&d_data, n));
  CU(cuMemAlloc(&d_bins, sizeof bins));
  CU(cuMemcpyHtoDAsync(d_data, host, n, stream));
  CU(cuMemsetD8Async(d_bins, 0, sizeof bins, stream));
  {
    void *args[3];
    args[0] = &d_data; args[1] = &n; args[2] = &d_bins;
    CU(cuEventRecord(start, stream));
    CU(cuLaunchKernel(histo, 64, 1, 1, 256, 1, 1, 0, stream, args, NULL));
    CU(cuEventRecord(stop, stream));
  }
  CU(cuMemcpyDtoHAsync(bins, d_bins, sizeof bins, stream));
  CU(cuEventSynchronize(stop));
  CU(cuStreamSynchronize(stream));
  CU(cuEventElapsedTime(&ms, start, stop));
  for (i = 0; i < 256; ++i)
    if (bins[i] != ref[i]) { printf("bin %u: %u vs %u\n", i, bins[i], ref[i]); ok = 0; break; }

  {
    struct Params p;
    void *args[2];
    float out[64], pitched[4][16];
    size_t pitch = 0;
    CUdeviceptr d_pitched;
    CUDA_MEMCPY2D c2;
    p.scale = 0.5f; p.count = 64; p.offset = 3.0;
    CU(cuMemAlloc(&d_out, sizeof out));
    args[0] = &p; args[1] = &d_out;
    CU(cuLaunchKernel(bystruct, 1, 1, 1, 64, 1, 1, 0, NULL, args, NULL));
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(out, d_out, sizeof out));
    for (i = 0; i < 64; ++i)
      if (out[i] != 0.5f * i + 3.0f) { printf("struct arg: out[%u] = %f\n", i, out[i]); ok = 0; break; }
    /* A 2D copy out of the linear result into a pitched allocation and back. */
    CU(cuMemAllocPitch(&d_pitched, &pitch, 16 * sizeof(float), 4, sizeof(float)));
    memset(&c2, 0, sizeof c2);
    c2.srcMemoryType = CU_MEMORYTYPE_DEVICE; c2.srcDevice = d_out; c2.srcPitch = 16 * sizeof(float);
    c2.dstMemoryType = CU_MEMORYTYPE_DEVICE; c2.dstDevice = d_pitched; c2.dstPitch = pitch;
    c2.WidthInBytes = 16 * sizeof(float); c2.Height = 4;
    CU(cuMemcpy2D(&c2));
    memset(&c2, 0, sizeof c2);
    c2.srcMemoryType = CU_MEMORYTYPE_DEVICE; c2.srcDevice = d_pitched; c2.srcPitch = pitch;
    c2.dstMemoryType = CU_MEMORYTYPE_HOST; c2.dstHost = pitched; c2.dstPitch = 16 * sizeof(float);
    c2.WidthInBytes = 16 * sizeof(float); c2.Height = 4;
    CU(cuMemcpy2DAsync(&c2, stream));
    CU(cuStreamSynchronize(stream));
    if (memcmp(pitched, out, sizeof out) != 0) { printf("2D copy differs\n"); ok = 0; }
    if (pitch < 16 * sizeof(float)) ok = 0;
    CU(cuMemFree(d_pitched));
  }
  {
    /* An error path: a function that is not in the module. */
    CUfunction none;
    CUresult r = cuModuleGetFunction(&none, mod, "no_such_kernel");
    const char *s = NULL;
    cuGetErrorString(r, &s);
    printf("missing kernel: %d (%s)\n", (int)r, s);
    if (r != CUDA_ERROR_NOT_FOUND) ok = 0;
  }
  printf("driver %d, histogram of %u bytes in %.3f ms\n", driverVersion, n, ms);
  CU(cuMemFree(d_data)); CU(cuMemFree(d_bins)); CU(cuMemFree(d_out));
  CU(cuMemFreeHost(host));
  CU(cuEventDestroy(start)); CU(cuEventDestroy(stop));
  CU(cuStreamDestroy(stream));
  CU(cuModuleUnload(mod));
  CU(cuCtxDestroy(ctx));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
