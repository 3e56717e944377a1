// entry_points_alone.cu: cudaGetDriverEntryPointByVersion in a program
// none of whose files includes cuda.h (as CCCL's headers and libraries
// that call a driver function or two do): every driver function is found
// (cuemu loads its libcuda.so.1, whose table has them all), called
// through its pointer, and shares the runtime's memory; a name the
// driver has not is cudaSuccess, a NULL function and
// cudaDriverEntryPointSymbolNotFound.
#include <cstring>

#include "../check.cuh"

// The driver's types, declared here as cuda.h is not included.
typedef int drv_result;
typedef unsigned long long drv_deviceptr;
typedef drv_result (*driver_get_version_fn)(int *version);
typedef drv_result (*mem_alloc_fn)(drv_deviceptr *p, size_t size);
typedef drv_result (*mem_free_fn)(drv_deviceptr p);
typedef drv_result (*memcpy_dtoh_fn)(void *dst, drv_deviceptr src,
                                     size_t size);

template <class F> static F entry(const char *name, unsigned version) {
  void *p = nullptr;
  cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
  CHECK(cudaGetDriverEntryPointByVersion(name, &p, version, cudaEnableDefault,
                                         &status) == cudaSuccess);
  CHECK(status == cudaDriverEntryPointSuccess && p != nullptr);
  return reinterpret_cast<F>(p);
}

int main() {
  CHECK(cudaFree(nullptr) == cudaSuccess); // the runtime's context
  auto driver_version = entry<driver_get_version_fn>("cuDriverGetVersion", 12000);
  auto mem_alloc = entry<mem_alloc_fn>("cuMemAlloc", 12000);
  auto mem_free = entry<mem_free_fn>("cuMemFree", 12000);
  auto memcpy_dtoh = entry<memcpy_dtoh_fn>("cuMemcpyDtoH", 12000);
  if (!driver_version || !mem_alloc || !mem_free || !memcpy_dtoh)
    return finish();
  int version = 0;
  CHECK(driver_version(&version) == 0 && version >= 12000);

  // Driver memory, set by the runtime, read back by the driver.
  drv_deviceptr p = 0;
  CHECK(mem_alloc(&p, 256) == 0 && p != 0);
  CHECK(cudaMemset(reinterpret_cast<void *>(p), 0x5a, 256) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  unsigned char host[256];
  std::memset(host, 0, sizeof host);
  CHECK(memcpy_dtoh(host, p, sizeof host) == 0);
  bool all = true;
  for (unsigned char c : host)
    all = all && c == 0x5a;
  CHECK(all);
  CHECK(mem_free(p) == 0);

  // A name the driver has not.
  void *none = &version;
  cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSuccess;
  CHECK(cudaGetDriverEntryPointByVersion("cuNoSuchFunction", &none, 12000,
                                         cudaEnableDefault,
                                         &status) == cudaSuccess);
  CHECK(none == nullptr && status == cudaDriverEntryPointSymbolNotFound);
  return finish();
}
