// pointer_get_attributes.cu: cuPointerGetAttributes answers several
// attributes in one call, as cuPointerGetAttribute answers each (context,
// memory type, device ordinal, managed, range) for memory of a created
// context on device 1, and gives empty values with CUDA_SUCCESS for memory
// CUDA does not know. cuemu had no cuPointerGetAttributes (the program did
// not compile). Reduced from a driver-API program managing its contexts.
// CUEMU_OPTIONS: -lcuda
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>

#define CU(call)                                                               \
  do {                                                                         \
    CUresult r_ = (call);                                                      \
    if (r_ != CUDA_SUCCESS) {                                                  \
      printf("%s:%d: %s: error %d\n", __FILE__, __LINE__, #call, (int)r_);     \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main() {
  setenv("CUEMU_DEVICE", "count=2", 1); // before cuInit
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 1));
  CUcontext ctx;
  CU(cuCtxCreate(&ctx, NULL, 0, dev));
  CUdeviceptr buf;
  CU(cuMemAlloc(&buf, 4096));
  CUpointer_attribute attrs[] = {
      CU_POINTER_ATTRIBUTE_CONTEXT,    CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
      CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, CU_POINTER_ATTRIBUTE_IS_MANAGED,
      CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, CU_POINTER_ATTRIBUTE_RANGE_SIZE};
  CUcontext got_ctx = NULL;
  unsigned type = 0, managed = 7;
  int ordinal = -1;
  CUdeviceptr start = 0;
  size_t size = 0;
  void *data[] = {&got_ctx, &type, &ordinal, &managed, &start, &size};
  CU(cuPointerGetAttributes(6, attrs, data, buf + 100));
  int ok = got_ctx == ctx && type == CU_MEMORYTYPE_DEVICE && ordinal == 1 &&
           managed == 0 && start == buf && size == 4096;
  if (!ok)
    printf("device memory: context %s, type %u, ordinal %d, managed %u, "
           "range %s %zu\n",
           got_ctx == ctx ? "ok" : "wrong", type, ordinal, managed,
           start == buf ? "ok" : "wrong", size);

  // Memory CUDA does not know: success and empty values.
  static int plain[16];
  got_ctx = ctx;
  type = 9;
  managed = 9;
  size = 9;
  CU(cuPointerGetAttributes(6, attrs, data,
                            (CUdeviceptr)(unsigned long long)plain));
  if (got_ctx != NULL || type != 0 || managed != 0 || size != 0) {
    printf("unknown memory: context %p, type %u, managed %u, size %zu\n",
           (void *)got_ctx, type, managed, size);
    ok = 0;
  }
  // An attribute that does not exist is an error.
  CUpointer_attribute bad = (CUpointer_attribute)1000;
  void *one[] = {&type};
  if (cuPointerGetAttributes(1, &bad, one, buf) != CUDA_ERROR_INVALID_VALUE) {
    printf("an unknown attribute was accepted\n");
    ok = 0;
  }
  CU(cuMemFree(buf));
  CU(cuCtxDestroy(ctx));
  puts(ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
