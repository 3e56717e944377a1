// vmm_access.cu: cuMemSetAccess per device on parts of mappings, and
// memcheck (--check=mem) telling a device's own access where the emulated
// devices' shared address space cannot. One reservation holds a mapping of
// three granules of device 0's memory and, after it, one of device 1's.
// Access is set on the middle granule alone, then on a range from the
// first mapping's last granule into the second mapping (CUDA takes any
// fully mapped range); misaligned and partly unmapped ranges are refused.
// Kernels on each device read and write what their device may; memcheck
// reports a write of device 1 where it may only read, and a read of
// device 0 where only device 1 may read and write, though the pages allow
// both (another device has that access), and the other device keeps
// working.
// CUEMU_OPTIONS: --check=mem -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdlib>

#include "../check.cuh"
#include "vmm_kernels.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)
#define RT(call) CHECK((call) == cudaSuccess)

static CUmemAccessDesc access(int device, CUmemAccess_flags flags) {
  CUmemAccessDesc d = {};
  d.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  d.location.id = device;
  d.flags = flags;
  return d;
}

static unsigned long long get_access(CUdeviceptr p, int device) {
  CUmemLocation where = {};
  where.type = CU_MEM_LOCATION_TYPE_DEVICE;
  where.id = device;
  unsigned long long flags = 99;
  CU(cuMemGetAccess(&flags, &where, p));
  return flags;
}

int main() {
#ifdef __CUEMU__
  /* Its memcheck reports are expected: they leave the exit status 0
   * (they count for it otherwise, docs/checkers.md). */
  setenv("CUEMU_CHECK_EXIT_STATUS", "0", 1);
#endif
#ifdef __CUEMU__
  setenv("CUEMU_DEVICE", "count=2", 1); // before the first CUDA call
  setenv("CUEMU_QUIET", "1", 1);
#endif
  int count = 0;
  RT(cudaGetDeviceCount(&count));
#ifdef __CUEMU__
  CHECK(count == 2); // CUEMU_DEVICE above makes two
#endif
  if (count < 2) {
    std::printf("needs two devices\n");
    return finish();
  }
  RT(cudaSetDevice(0));
  RT(cudaFree(0));
  CU(cuInit(0));
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = 0;
  size_t g = 0;
  CU(cuMemGetAllocationGranularity(&g, &prop,
                                   CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  CUmemGenericAllocationHandle h0, h1;
  CU(cuMemCreate(&h0, 3 * g, &prop, 0));
  prop.location.id = 1;
  CU(cuMemCreate(&h1, g, &prop, 0));
  CUdeviceptr base;
  CU(cuMemAddressReserve(&base, 4 * g, 0, 0, 0));
  CU(cuMemMap(base, 3 * g, 0, h0, 0));
  CU(cuMemMap(base + 3 * g, g, 0, h1, 0));

  // The middle granule of the first mapping alone.
  CUmemAccessDesc rw0 = access(0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
  CU(cuMemSetAccess(base + g, g, &rw0, 1));
  CHECK(get_access(base, 0) == CU_MEM_ACCESS_FLAGS_PROT_NONE);
  CHECK(get_access(base + g, 0) == CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
  CHECK(get_access(base + 2 * g, 0) == CU_MEM_ACCESS_FLAGS_PROT_NONE);
  CHECK(get_access(base + g, 1) == CU_MEM_ACCESS_FLAGS_PROT_NONE);

  // Across the seam of the two mappings: device 0 reads and writes, device
  // 1 reads.
  CUmemAccessDesc both[2] = {rw0, access(1, CU_MEM_ACCESS_FLAGS_PROT_READ)};
  CU(cuMemSetAccess(base + 2 * g, 2 * g, both, 2));
  CHECK(get_access(base + 3 * g, 1) == CU_MEM_ACCESS_FLAGS_PROT_READ);
  CHECK(get_access(base + 2 * g, 0) == CU_MEM_ACCESS_FLAGS_PROT_READWRITE);

  // Refused: a misaligned start or size, a range past the mappings.
  CHECK(cuMemSetAccess(base + g / 2, g, &rw0, 1) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuMemSetAccess(base + g, g / 2, &rw0, 1) == CUDA_ERROR_INVALID_VALUE);
  CUdeviceptr beyond;
  CU(cuMemAddressReserve(&beyond, 2 * g, 0, 0, 0));
  CU(cuMemMap(beyond, g, 0, h1, 0));
  CHECK(cuMemSetAccess(beyond, 2 * g, &rw0, 1) == CUDA_ERROR_INVALID_VALUE);
  CU(cuMemUnmap(beyond, g));
  CU(cuMemAddressFree(beyond, 2 * g));

  // Device 0 writes granules 1 to 3; device 1 sums granules 2 and 3.
  const size_t per = g / sizeof(int);
  int *p = reinterpret_cast<int *>(base);
  iota<<<64, 256>>>(p + per, 3 * per, 1);
  RT(cudaDeviceSynchronize());
  unsigned long long *sum;
  RT(cudaMallocManaged(&sum, sizeof *sum));
  *sum = 0;
  RT(cudaSetDevice(1));
  sum_all<<<64, 256>>>(p + 2 * per, 2 * per, sum);
  RT(cudaDeviceSynchronize());
  // 1 + i over i = per .. 3 * per - 1.
  unsigned long long expect = 0;
  for (size_t i = per; i < 3 * per; ++i)
    expect += 1 + i;
  CHECK(*sum == expect);

  // Device 1 writes where it may only read: the pages allow it (device 0
  // may write), memcheck does not.
  iota<<<1, 32>>>(p + 3 * per, 32, 7);
  CHECK(cudaDeviceSynchronize() != cudaSuccess);
  RT(cudaSetDevice(0));
  RT(cudaDeviceSynchronize());
  int first = 0;
  RT(cudaMemcpy(&first, p + 3 * per, sizeof first, cudaMemcpyDeviceToHost));
  CHECK(first == int(1 + 2 * per));

  // Device 0 reads the first granule, which only device 1 may use.
  CUmemAccessDesc rw1 = access(1, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
  CU(cuMemSetAccess(base, g, &rw1, 1));
  *sum = 0;
  sum_all<<<1, 32>>>(p, 32, sum);
  CHECK(cudaDeviceSynchronize() != cudaSuccess);
  return finish();
}
