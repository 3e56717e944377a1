/* legacy_arrays.c: a C program built against CUDA 2.0's driver ABI, as
 * one compiled with an old cuda.h links it: the un-suffixed symbols
 * cuArrayCreate, cuArrayGetDescriptor, cuArray3DCreate and
 * cuArray3DGetDescriptor take 32-bit extents (CUDA_ARRAY_DESCRIPTOR_v1),
 * cuArrayCreate_v2 and its kin size_t ones. An array made through one ABI
 * is described alike through the other; cuProfilerInitialize (deprecated)
 * answers CUDA_ERROR_NOT_SUPPORTED as CUDA 12 and later do. Linked with
 * -lcuda (tests/libcuda.sh); the un-suffixed symbols were once missing
 * from cuemu's libcuda.so.1. */
#include <stdio.h>

#include "driver_abi.h"

typedef struct {
  unsigned int Width, Height;
  int Format;
  unsigned int NumChannels;
} array_desc_v1;
typedef struct {
  unsigned int Width, Height, Depth;
  int Format;
  unsigned int NumChannels, Flags;
} array3d_desc_v1;
typedef struct {
  size_t Width, Height;
  int Format;
  unsigned int NumChannels;
} array_desc_v2;
typedef struct drv_array_st *drv_array;

enum { FORMAT_FLOAT = 0x20, NOT_SUPPORTED = 801 };

drv_result cuInit(unsigned int flags);
drv_result cuDeviceGet(drv_device *device, int ordinal);
drv_result cuCtxCreate_v4(drv_context *ctx, void *params, unsigned int flags,
                          drv_device dev);
drv_result cuCtxDestroy_v2(drv_context ctx);
drv_result cuArrayCreate(drv_array *array, const array_desc_v1 *desc);
drv_result cuArrayGetDescriptor(array_desc_v1 *desc, drv_array array);
drv_result cuArray3DCreate(drv_array *array, const array3d_desc_v1 *desc);
drv_result cuArray3DGetDescriptor(array3d_desc_v1 *desc, drv_array array);
drv_result cuArrayCreate_v2(drv_array *array, const array_desc_v2 *desc);
drv_result cuArrayGetDescriptor_v2(array_desc_v2 *desc, drv_array array);
drv_result cuArrayDestroy(drv_array array);
drv_result cuProfilerInitialize(const char *config, const char *output,
                                int mode);

static int failures = 0;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

int main(void) {
  drv_device dev;
  drv_context ctx;
  CHECK(cuInit(0) == DRV_SUCCESS);
  CHECK(cuDeviceGet(&dev, 0) == DRV_SUCCESS);
  CHECK(cuCtxCreate_v4(&ctx, NULL, 0, dev) == DRV_SUCCESS);

  /* Made through CUDA 2.0's ABI, read through both. */
  array_desc_v1 d1 = {300, 20, FORMAT_FLOAT, 2}, g1 = {0, 0, 0, 0};
  drv_array a = NULL;
  CHECK(cuArrayCreate(&a, &d1) == DRV_SUCCESS && a);
  CHECK(cuArrayGetDescriptor(&g1, a) == DRV_SUCCESS);
  CHECK(g1.Width == 300 && g1.Height == 20 && g1.Format == FORMAT_FLOAT &&
        g1.NumChannels == 2);
  array_desc_v2 g2 = {0, 0, 0, 0};
  CHECK(cuArrayGetDescriptor_v2(&g2, a) == DRV_SUCCESS);
  CHECK(g2.Width == 300 && g2.Height == 20 && g2.NumChannels == 2);
  CHECK(cuArrayDestroy(a) == DRV_SUCCESS);

  /* Made through today's ABI, read through CUDA 2.0's. */
  array_desc_v2 d2 = {64, 0, FORMAT_FLOAT, 4};
  CHECK(cuArrayCreate_v2(&a, &d2) == DRV_SUCCESS);
  g1.Width = 7;
  CHECK(cuArrayGetDescriptor(&g1, a) == DRV_SUCCESS);
  CHECK(g1.Width == 64 && g1.Height == 0 && g1.NumChannels == 4);
  CHECK(cuArrayDestroy(a) == DRV_SUCCESS);

  array3d_desc_v1 d3 = {16, 8, 4, FORMAT_FLOAT, 1, 0}, g3 = {0, 0, 0, 0, 0, 9};
  CHECK(cuArray3DCreate(&a, &d3) == DRV_SUCCESS);
  CHECK(cuArray3DGetDescriptor(&g3, a) == DRV_SUCCESS);
  CHECK(g3.Width == 16 && g3.Height == 8 && g3.Depth == 4 &&
        g3.Format == FORMAT_FLOAT && g3.NumChannels == 1 && g3.Flags == 0);
  CHECK(cuArrayDestroy(a) == DRV_SUCCESS);
  CHECK(cuArrayCreate(&a, NULL) == DRV_ERROR_INVALID_VALUE);

  CHECK(cuProfilerInitialize("config", "out", 0) == NOT_SUPPORTED);
  CHECK(cuCtxDestroy_v2(ctx) == DRV_SUCCESS);
  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
