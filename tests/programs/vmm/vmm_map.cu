// vmm_map.cu: the driver's virtual memory management in one process, as a
// growable-buffer library uses it. Two physical allocations (cuMemCreate)
// are mapped side by side into one reserved range (cuMemAddressReserve,
// cuMemMap), opened with cuMemSetAccess, and used as one buffer by kernels
// and copies across the seam; a third mapping aliases the first physical
// allocation at another address; read-only access, retained handles,
// properties, pointer attributes and CUDA's errors for misaligned, out of
// range, overlapping and partial requests are checked. Last, a kernel that
// touches a mapping before cuMemSetAccess fails, as on a GPU.
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "../check.cuh"
#include "vmm_kernels.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)
#define RT(call) CHECK((call) == cudaSuccess)

static CUmemAllocationProp device_prop(int device, bool shareable) {
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  prop.requestedHandleTypes = shareable
                                  ? CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR
                                  : CU_MEM_HANDLE_TYPE_NONE;
  return prop;
}

static void set_access(CUdeviceptr p, size_t size, int device,
                       CUmemAccess_flags flags) {
  CUmemAccessDesc d = {};
  d.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  d.location.id = device;
  d.flags = flags;
  CU(cuMemSetAccess(p, size, &d, 1));
}

int main() {
  RT(cudaSetDevice(0));
  RT(cudaFree(0));
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  int vmm = 0, fd_handles = 0, win32 = 1;
  CU(cuDeviceGetAttribute(
      &vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, dev));
  CU(cuDeviceGetAttribute(
      &fd_handles, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED,
      dev));
  CU(cuDeviceGetAttribute(
      &win32, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_HANDLE_SUPPORTED, dev));
  CHECK(vmm == 1 && fd_handles == 1 && win32 == 0);

  CUmemAllocationProp prop = device_prop(0, false);
  size_t gran = 0, recommended = 0;
  CU(cuMemGetAllocationGranularity(&gran, &prop,
                                   CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  CU(cuMemGetAllocationGranularity(&recommended, &prop,
                                   CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
  CHECK(gran > 0 && (gran & (gran - 1)) == 0 && recommended % gran == 0);

  // Two physical allocations, one of two granules, and a 3-granule range.
  const size_t size0 = gran, size1 = 2 * gran, total = size0 + size1;
  CUmemGenericAllocationHandle h0 = 0, h1 = 0, bad = 0;
  CHECK(cuMemCreate(&bad, gran / 2, &prop, 0) == CUDA_ERROR_INVALID_VALUE);
  CU(cuMemCreate(&h0, size0, &prop, 0));
  CU(cuMemCreate(&h1, size1, &prop, 0));
  CUdeviceptr base = 0;
  CHECK(cuMemAddressReserve(&base, gran + 1, 0, 0, 0) ==
        CUDA_ERROR_INVALID_VALUE);
  CU(cuMemAddressReserve(&base, total + gran, 0, 0, 0));
  CHECK(base != 0 && base % gran == 0);
  // Misaligned, past the allocation, overlapping: CUDA's errors.
  CHECK(cuMemMap(base + gran / 2, size0, 0, h0, 0) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuMemMap(base, size1, gran, h1, 0) == CUDA_ERROR_INVALID_VALUE);
  CU(cuMemMap(base, size0, 0, h0, 0));
  CU(cuMemMap(base + size0, size1, 0, h1, 0));
  CHECK(cuMemMap(base + gran, gran, 0, h0, 0) != CUDA_SUCCESS);
  set_access(base, total, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
  unsigned long long access = 0;
  CUmemLocation here = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
  CU(cuMemGetAccess(&access, &here, base + size0 + 5));
  CHECK(access == CU_MEM_ACCESS_FLAGS_PROT_READWRITE);

  // The handles may go at once: the mappings keep the memory.
  CU(cuMemRelease(h0));
  CHECK(cuMemRelease(h0) != CUDA_SUCCESS);

  // One buffer of floats across the seam of the two allocations.
  const size_t n = total / sizeof(float) / 2;
  float *a = reinterpret_cast<float *>(base);
  float *b = a + n;
  std::vector<float> ha(n), hb(n), hc(n);
  for (size_t i = 0; i < n; ++i) {
    ha[i] = (float)(i % 1000);
    hb[i] = 0.5f * (float)(i % 7);
  }
  CU(cuMemcpyHtoD(base, ha.data(), n * sizeof(float)));
  RT(cudaMemcpy(b, hb.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  float *c = nullptr;
  RT(cudaMalloc(&c, n * sizeof(float)));
  vector_add<float><<<64, 256>>>(a, b, c, n);
  RT(cudaGetLastError());
  RT(cudaMemcpy(hc.data(), c, n * sizeof(float), cudaMemcpyDeviceToHost));
  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i)
    wrong += hc[i] != ha[i] + hb[i];
  CHECK(wrong == 0);

  // Pointer attributes, retained handle and properties.
  cudaPointerAttributes attr = {};
  RT(cudaPointerGetAttributes(&attr, b));
  CHECK(attr.type == cudaMemoryTypeDevice && attr.device == 0 &&
        attr.devicePointer == b);
  CUmemGenericAllocationHandle again = 0;
  CU(cuMemRetainAllocationHandle(&again, (void *)(base + size0 + 100)));
  CHECK(again == h1);
  CUmemAllocationProp got = {};
  CU(cuMemGetAllocationPropertiesFromHandle(&got, again));
  CHECK(got.type == CU_MEM_ALLOCATION_TYPE_PINNED &&
        got.location.type == CU_MEM_LOCATION_TYPE_DEVICE &&
        got.location.id == 0);
  CU(cuMemRelease(again));
  // Exporting needs the handle type asked for at creation; Win32 handles
  // do not exist on Linux.
  int fd = -1;
  CHECK(cuMemExportToShareableHandle(&fd, h1,
                                     CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
                                     0) != CUDA_SUCCESS);
  CHECK(cuMemExportToShareableHandle(&fd, h1, CU_MEM_HANDLE_TYPE_WIN32, 0) !=
        CUDA_SUCCESS);

  // The first allocation aliased at another address: one physical memory.
  CUdeviceptr alias = 0;
  CUmemGenericAllocationHandle h0b = 0;
  CU(cuMemRetainAllocationHandle(&h0b, (void *)base));
  CU(cuMemAddressReserve(&alias, size0, 0, 0, 0));
  CU(cuMemMap(alias, size0, 0, h0b, 0));
  set_access(alias, size0, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
  iota<int><<<8, 128>>>(reinterpret_cast<int *>(alias), 1000, 7);
  RT(cudaDeviceSynchronize());
  std::vector<int> seen(1000);
  CU(cuMemcpyDtoH(seen.data(), base, seen.size() * sizeof(int)));
  wrong = 0;
  for (int i = 0; i < 1000; ++i)
    wrong += seen[i] != 7 + i;
  CHECK(wrong == 0);

  // Read-only access: kernels read it.
  set_access(alias, size0, 0, CU_MEM_ACCESS_FLAGS_PROT_READ);
  CU(cuMemGetAccess(&access, &here, alias));
  CHECK(access == CU_MEM_ACCESS_FLAGS_PROT_READ);
  unsigned long long *sum = nullptr;
  RT(cudaMallocManaged(&sum, sizeof *sum));
  *sum = 0;
  sum_all<<<4, 128>>>(reinterpret_cast<const int *>(alias), 1000, sum);
  RT(cudaDeviceSynchronize());
  CHECK(*sum == 1000ull * 7 + 999ull * 1000 / 2);

  // cudaFree does not free mapped memory; unmapping takes whole mappings;
  // a reservation goes once nothing is mapped in it.
  CHECK(cudaFree(a) != cudaSuccess);
  CHECK(cuMemUnmap(base, gran) == CUDA_SUCCESS);
  CHECK(cuMemUnmap(base + size0, gran) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuMemAddressFree(base, total) == CUDA_ERROR_INVALID_VALUE);
  CU(cuMemUnmap(base + size0, size1));
  CU(cuMemAddressFree(base, total + gran));
  CU(cuMemRelease(h1));
  CU(cuMemUnmap(alias, size0));
  CU(cuMemAddressFree(alias, size0));

  // Mapped memory without access: a kernel that touches it fails.
  CUdeviceptr closed = 0;
  CU(cuMemAddressReserve(&closed, gran, 0, 0, 0));
  CU(cuMemMap(closed, gran, 0, h0b, 0));
  iota<int><<<1, 32>>>(reinterpret_cast<int *>(closed), 32, 0);
  cudaError_t launch = cudaDeviceSynchronize();
  CHECK(launch != cudaSuccess);
  std::printf("a kernel before cuMemSetAccess: %s\n", cudaGetErrorName(launch));
  return finish();
}
