/*
 * managed_variable_attributes.cu: a __managed__ variable is managed memory
 * to cudaPointerGetAttributes (cudaMemoryTypeManaged, the same address on
 * both sides), a scalar and an element inside an array alike, also after
 * cudaDeviceReset; a host variable stays unregistered, and cudaFree does
 * not take a __managed__ variable. Prints PASS when all is well.
 */
#include <cuda_runtime.h>

#include "../check.cuh"

__managed__ int counter = 0;
__managed__ double samples[8];
static int host_only = 0;

__global__ void bump(int *where) { atomicAdd(where, 1); }

static bool is_managed(const void *p) {
  cudaPointerAttributes pa;
  return cudaPointerGetAttributes(&pa, p) == cudaSuccess &&
         pa.type == cudaMemoryTypeManaged && pa.devicePointer == p &&
         pa.hostPointer == p;
}

int main() {
  CHECK(is_managed(&counter));
  CHECK(is_managed(&samples[0]));
  CHECK(is_managed(&samples[5]));

  cudaPointerAttributes pa;
  CHECK(cudaPointerGetAttributes(&pa, &host_only) == cudaSuccess &&
        pa.type == cudaMemoryTypeUnregistered);

  /* The pointer the attributes give works in a kernel. */
  counter = 0;
  bump<<<1, 8>>>(&counter);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(counter == 8);

  /* Not an allocation of cudaMalloc or cudaMallocManaged. */
  CHECK(cudaFree(&counter) != cudaSuccess);
  cudaGetLastError();
  CHECK(is_managed(&counter));

  /* The variable outlives a reset of the device. */
  CHECK(cudaDeviceReset() == cudaSuccess);
  CHECK(is_managed(&counter));
  CHECK(is_managed(&samples[7]));
  return finish();
}
