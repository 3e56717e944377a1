// managed_variable_pointer.cu: the driver's pointer attributes of a
// __managed__ variable: managed (CU_POINTER_ATTRIBUTE_IS_MANAGED), with
// the variable's address as its host pointer, as for cuMemAllocManaged's
// memory; a __device__ variable is not managed.
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include "../check.cuh"

__managed__ int managed_counter = 1;
__managed__ float managed_table[16];
__device__ int device_counter = 2;

static int is_managed(CUdeviceptr p) {
  int managed = -1;
  if (cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, p) !=
      CUDA_SUCCESS)
    return -1;
  return managed;
}

int main() {
  CHECK(cudaFree(nullptr) == cudaSuccess); // the primary context, current
  CHECK(is_managed((CUdeviceptr)&managed_counter) == 1);
  CHECK(is_managed((CUdeviceptr)&managed_table[9]) == 1);
  void *host = nullptr;
  CHECK(cuPointerGetAttribute(&host, CU_POINTER_ATTRIBUTE_HOST_POINTER,
                              (CUdeviceptr)&managed_counter) == CUDA_SUCCESS);
  CHECK(host == (void *)&managed_counter);

  CUdeviceptr managed_alloc = 0;
  CHECK(cuMemAllocManaged(&managed_alloc, 64, CU_MEM_ATTACH_GLOBAL) ==
        CUDA_SUCCESS);
  CHECK(is_managed(managed_alloc) == 1);
  CHECK(cuMemFree(managed_alloc) == CUDA_SUCCESS);

  void *device_address = nullptr;
  CHECK(cudaGetSymbolAddress(&device_address, device_counter) == cudaSuccess);
  CHECK(is_managed((CUdeviceptr)device_address) == 0);
  return finish();
}
