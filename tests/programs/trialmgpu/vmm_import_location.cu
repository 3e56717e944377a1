// vmm_import_location.cu: an allocation that cuMemCreate made on device 1,
// exported as a file descriptor and imported while device 0 is current,
// keeps its location: cuMemGetAllocationPropertiesFromHandle of the
// imported handle names device 1, as with CUDA (cuemu named the importer's
// current device). Reduced from a growable vector striped over two devices.
// CUEMU_OPTIONS: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define CU(call)                                                               \
  do {                                                                         \
    CUresult r_ = (call);                                                      \
    if (r_ != CUDA_SUCCESS) {                                                  \
      printf("%s:%d: %s: error %d\n", __FILE__, __LINE__, #call, (int)r_);     \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main() {
  setenv("CUEMU_DEVICE", "count=2", 1); // before the first CUDA call
  CU(cuInit(0));
  size_t granularity = 0;
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  CU(cuMemGetAllocationGranularity(&granularity, &prop,
                                   CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  int ok = 1;
  for (int device = 0; device < 2; device++) {
    prop.location.id = device;
    CUmemGenericAllocationHandle made, imported;
    CU(cuMemCreate(&made, granularity, &prop, 0));
    int fd = -1;
    CU(cuMemExportToShareableHandle(&fd, made,
                                    CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
                                    0));
    // The importer's current device is the other one.
    if (cudaSetDevice(1 - device) != cudaSuccess) {
      printf("cudaSetDevice failed\n");
      return 1;
    }
    CU(cuMemImportFromShareableHandle(
        &imported, (void *)(uintptr_t)fd,
        CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
    close(fd);
    CUmemAllocationProp got = {};
    CU(cuMemGetAllocationPropertiesFromHandle(&got, imported));
    if (got.location.type != CU_MEM_LOCATION_TYPE_DEVICE ||
        got.location.id != device ||
        !(got.requestedHandleTypes & CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)) {
      printf("device %d: the imported handle says type %d, device %d\n",
             device, (int)got.location.type, got.location.id);
      ok = 0;
    }
    CU(cuMemRelease(imported));
    CU(cuMemRelease(made));
  }
  puts(ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
