// vector_add_mmap.cpp: a vector add over memory striped across every device by cuMemCreate and
// cuMemMap, with access granted to all devices (vectorAddMMAP style), the
// kernel loaded from a fatbin through cuLibraryLoadFromFile.
#include "drv_helpers.h"
#include <vector>
#include <cmath>

static size_t round_up(size_t x, size_t g) { return (x + g - 1) / g * g; }

static CUresult simpleMallocMultiDeviceMmap(CUdeviceptr *dptr, size_t *allocationSize, size_t size,
                                            const std::vector<CUdevice> &residentDevices,
                                            const std::vector<CUdevice> &mappingDevices, size_t align = 0) {
  size_t min_granularity = 0;
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  for (CUdevice d : residentDevices) {
    size_t g = 0;
    prop.location.id = d;
    CUresult st = cuMemGetAllocationGranularity(&g, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
    if (st != CUDA_SUCCESS) return st;
    if (min_granularity < g) min_granularity = g;
  }
  for (CUdevice d : mappingDevices) {
    size_t g = 0;
    prop.location.id = d;
    CUresult st = cuMemGetAllocationGranularity(&g, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
    if (st != CUDA_SUCCESS) return st;
    if (min_granularity < g) min_granularity = g;
  }
  size = round_up(size, residentDevices.size() * min_granularity);
  size_t stripeSize = size / residentDevices.size();
  if (allocationSize) *allocationSize = size;
  CUresult status = cuMemAddressReserve(dptr, size, align, 0, 0);
  if (status != CUDA_SUCCESS) return status;
  for (size_t idx = 0; idx < residentDevices.size(); idx++) {
    CUmemGenericAllocationHandle handle;
    prop.location.id = residentDevices[idx];
    status = cuMemCreate(&handle, stripeSize, &prop, 0);
    if (status != CUDA_SUCCESS) return status;
    status = cuMemMap(*dptr + stripeSize * idx, stripeSize, 0, handle, 0);
    (void)cuMemRelease(handle);  // the mapping keeps it alive
    if (status != CUDA_SUCCESS) return status;
  }
  std::vector<CUmemAccessDesc> accessDescriptors(mappingDevices.size());
  for (size_t idx = 0; idx < mappingDevices.size(); idx++) {
    accessDescriptors[idx].location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    accessDescriptors[idx].location.id = mappingDevices[idx];
    accessDescriptors[idx].flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  }
  return cuMemSetAccess(*dptr, size, accessDescriptors.data(), accessDescriptors.size());
}

static CUresult simpleFreeMultiDeviceMmap(CUdeviceptr dptr, size_t size) {
  CUresult status = cuMemUnmap(dptr, size);
  if (status != CUDA_SUCCESS) return status;
  return cuMemAddressFree(dptr, size);
}

int main(int argc, char **argv) {
  CUdevice cuDevice = findCudaDeviceDRV(argc, argv);
  int count = 0;
  checkCudaErrors(cuDeviceGetCount(&count));
  std::vector<CUdevice> mappingDevices{cuDevice};
  std::vector<CUdevice> backingDevices;
  for (int i = 0; i < count; ++i) {
    CUdevice d;
    checkCudaErrors(cuDeviceGet(&d, i));
    int vmm = 0, p2p = 1;
    checkCudaErrors(cuDeviceGetAttribute(&vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, d));
    if (d != cuDevice) checkCudaErrors(cuDeviceCanAccessPeer(&p2p, cuDevice, d));
    if (vmm && p2p) backingDevices.push_back(d);
  }
  printf("%d devices, %zu backing the allocation\n", count, backingDevices.size());
  CUcontext ctx;
  checkCudaErrors(cuCtxCreate(&ctx, NULL, 0, cuDevice));
  CUlibrary lib;
  checkCudaErrors(cuLibraryLoadFromFile(&lib, "vector_add_kernels.fatbin", NULL, NULL, 0, NULL, NULL, 0));
  CUkernel k;
  checkCudaErrors(cuLibraryGetKernel(&k, lib, "VecAdd_kernel"));
  CUfunction f;
  checkCudaErrors(cuKernelGetFunction(&f, k));
  unsigned kcount = 0;
  checkCudaErrors(cuLibraryGetKernelCount(&kcount, lib));

  int N = 3 * 1000 * 1000 / 4;
  size_t size = N * sizeof(float), allocationSize = 0;
  std::vector<float> hA(N), hB(N), hC(N);
  for (int i = 0; i < N; ++i) { hA[i] = (float)(i % 1000); hB[i] = 0.5f * (i % 77); }
  CUdeviceptr dA, dB, dC;
  checkCudaErrors(simpleMallocMultiDeviceMmap(&dA, &allocationSize, size, backingDevices, mappingDevices));
  checkCudaErrors(simpleMallocMultiDeviceMmap(&dB, NULL, size, backingDevices, mappingDevices));
  checkCudaErrors(simpleMallocMultiDeviceMmap(&dC, NULL, size, backingDevices, mappingDevices));
  // Which device holds each stripe.
  for (size_t s = 0; s < backingDevices.size(); ++s) {
    CUmemGenericAllocationHandle h;
    checkCudaErrors(cuMemRetainAllocationHandle(&h, (void *)(dA + s * (allocationSize / backingDevices.size()))));
    CUmemAllocationProp p = {};
    checkCudaErrors(cuMemGetAllocationPropertiesFromHandle(&p, h));
    printf("stripe %zu on device %d\n", s, p.location.id);
    if (p.location.id != backingDevices[s]) { printf("wrong device\n"); return 1; }
    checkCudaErrors(cuMemRelease(h));
  }
  checkCudaErrors(cuMemcpyHtoD(dA, hA.data(), size));
  checkCudaErrors(cuMemcpyHtoD(dB, hB.data(), size));
  int threads = 256, blocks = (N + threads - 1) / threads;
  void *args[] = {&dA, &dB, &dC, &N};
  checkCudaErrors(cuLaunchKernel(f, blocks, 1, 1, threads, 1, 1, 0, 0, args, NULL));
  checkCudaErrors(cuCtxSynchronize());
  checkCudaErrors(cuMemcpyDtoH(hC.data(), dC, size));
  bool ok = kcount >= 1;
  for (int i = 0; i < N; ++i)
    if (fabsf(hA[i] + hB[i] - hC[i]) > 1e-5f) { printf("mismatch at %d\n", i); ok = false; break; }
  checkCudaErrors(simpleFreeMultiDeviceMmap(dA, allocationSize));
  checkCudaErrors(simpleFreeMultiDeviceMmap(dB, allocationSize));
  checkCudaErrors(simpleFreeMultiDeviceMmap(dC, allocationSize));
  checkCudaErrors(cuLibraryUnload(lib));
  checkCudaErrors(cuCtxDestroy(ctx));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
