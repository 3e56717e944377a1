// entry_points.cu: a program that includes cuda.h for its types and finds
// the driver's functions with cudaGetDriverEntryPointByVersion, as CCCL
// and libraries do: the runtime's call, so it links without the driver
// library, as with nvcc (tests/driver_libcuda_link.sh).
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>

template <class F> F entry(const char *name, unsigned version) {
  void *f = nullptr;
  cudaDriverEntryPointQueryResult status;
  if (cudaGetDriverEntryPointByVersion(name, &f, version, cudaEnableDefault,
                                       &status) != cudaSuccess ||
      status != cudaDriverEntryPointSuccess)
    return nullptr;
  return reinterpret_cast<F>(f);
}

int main() {
  auto mem_alloc = entry<CUresult (*)(CUdeviceptr *, size_t)>("cuMemAlloc", 3020);
  auto memset_d32 =
      entry<CUresult (*)(CUdeviceptr, unsigned, size_t)>("cuMemsetD32", 3020);
  auto copy_dtoh =
      entry<CUresult (*)(void *, CUdeviceptr, size_t)>("cuMemcpyDtoH", 3020);
  auto mem_free = entry<CUresult (*)(CUdeviceptr)>("cuMemFree", 3020);
  if (!mem_alloc || !memset_d32 || !copy_dtoh || !mem_free) {
    std::printf("FAIL: a driver function was not found\n");
    return 1;
  }
  cudaFree(nullptr); // the runtime's primary context, current
  CUdeviceptr p;
  unsigned host[4] = {};
  if (mem_alloc(&p, sizeof host) != CUDA_SUCCESS ||
      memset_d32(p, 0x5a5a5a5au, 4) != CUDA_SUCCESS ||
      copy_dtoh(host, p, sizeof host) != CUDA_SUCCESS ||
      mem_free(p) != CUDA_SUCCESS) {
    std::printf("FAIL: a call failed\n");
    return 1;
  }
  for (unsigned v : host)
    if (v != 0x5a5a5a5au) {
      std::printf("FAIL: %x\n", v);
      return 1;
    }
  std::printf("PASS\n");
  return 0;
}
