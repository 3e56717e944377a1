/* link_driver.c: a C program that calls the CUDA driver's C symbols,
 * linked with -lcuda (tests/libcuda.sh links it with the host compiler
 * against the cuemu toolkit's lib64, and with cuemu-nvcc): it loads the
 * module of `-fatbin` (argv[1]) from memory, launches its kernel and
 * checks the result. Declares its functions itself, under the names
 * CUDA 13's cuda.h gives them, as a C library built against cuda.h
 * calls them. */
#include <stdio.h>
#include <stdlib.h>

#include "driver_abi.h"

drv_result cuInit(unsigned int flags);
drv_result cuDeviceGet(drv_device *device, int ordinal);
drv_result cuCtxCreate_v4(drv_context *ctx, void *params, unsigned int flags,
                          drv_device dev);
drv_result cuCtxDestroy_v2(drv_context ctx);
drv_result cuModuleLoadData(drv_module *module, const void *image);
drv_result cuModuleGetFunction(drv_function *f, drv_module module,
                               const char *name);
drv_result cuModuleUnload(drv_module module);
drv_result cuMemAlloc_v2(drv_deviceptr *p, size_t size);
drv_result cuMemFree_v2(drv_deviceptr p);
drv_result cuMemcpyHtoD_v2(drv_deviceptr dst, const void *src, size_t size);
drv_result cuMemcpyDtoH_v2(void *dst, drv_deviceptr src, size_t size);
drv_result cuLaunchKernel(drv_function f, unsigned int gx, unsigned int gy,
                          unsigned int gz, unsigned int bx, unsigned int by,
                          unsigned int bz, unsigned int shared,
                          drv_stream stream, void **params, void **extra);
drv_result cuCtxSynchronize(void);
drv_result cuGetErrorName(drv_result error, const char **name);

static int failures = 0;

static void check(drv_result r, const char *what) {
  if (r != DRV_SUCCESS) {
    const char *name = "?";
    cuGetErrorName(r, &name);
    fprintf(stderr, "%s: %s\n", what, name);
    ++failures;
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: link_driver MODULE\n");
    return 2;
  }
  FILE *f = fopen(argv[1], "rb");
  if (!f) {
    perror(argv[1]);
    return 1;
  }
  static char image[1 << 22];
  size_t size = fread(image, 1, sizeof image - 1, f);
  fclose(f);
  image[size] = '\0';

  drv_device dev = -1;
  drv_context ctx = NULL;
  drv_module module = NULL;
  drv_function kernel = NULL;
  check(cuInit(0), "cuInit");
  check(cuDeviceGet(&dev, 0), "cuDeviceGet");
  check(cuCtxCreate_v4(&ctx, NULL, 0, dev), "cuCtxCreate");
  check(cuModuleLoadData(&module, image), "cuModuleLoadData");
  check(cuModuleGetFunction(&kernel, module, "scale_add"),
        "cuModuleGetFunction");
  if (failures) {
    printf("FAIL\n");
    return 1;
  }
  enum { N = 300 };
  float x[N], y[N], out[N];
  for (int i = 0; i < N; ++i) {
    x[i] = (float)i;
    y[i] = (float)(N - i);
  }
  drv_deviceptr dx = 0, dy = 0;
  check(cuMemAlloc_v2(&dx, sizeof x), "cuMemAlloc");
  check(cuMemAlloc_v2(&dy, sizeof y), "cuMemAlloc");
  check(cuMemcpyHtoD_v2(dx, x, sizeof x), "cuMemcpyHtoD");
  check(cuMemcpyHtoD_v2(dy, y, sizeof y), "cuMemcpyHtoD");
  float a = 4.0f;
  int n = N;
  void *params[] = {&dy, &dx, &a, &n};
  check(cuLaunchKernel(kernel, (N + 63) / 64, 1, 1, 64, 1, 1, 0, NULL, params,
                       NULL),
        "cuLaunchKernel");
  check(cuCtxSynchronize(), "cuCtxSynchronize");
  check(cuMemcpyDtoH_v2(out, dy, sizeof out), "cuMemcpyDtoH");
  for (int i = 0; i < N; ++i)
    if (out[i] != a * x[i] + y[i]) {
      fprintf(stderr, "y[%d] = %g, not %g\n", i, out[i], a * x[i] + y[i]);
      ++failures;
      break;
    }
  check(cuMemFree_v2(dx), "cuMemFree");
  check(cuMemFree_v2(dy), "cuMemFree");
  check(cuModuleUnload(module), "cuModuleUnload");
  check(cuCtxDestroy_v2(ctx), "cuCtxDestroy");
  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
