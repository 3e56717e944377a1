// driver_entry_by_version.cu: a runtime program that reaches the driver
// through cudaGetDriverEntryPointByVersion and cudaTypedefs.h PFN types.
// Runtime program that reaches driver functions without linking -lcuda:
// cudaGetDriverEntryPointByVersion with the PFN typedefs of cudaTypedefs.h
// (as libraries that must not depend on libcuda at link time do).
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>
#include <cstring>

#define CHECK_RT(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

template <typename T>
static bool get_entry(const char *name, T &fn, unsigned version) {
  cudaDriverEntryPointQueryResult q = cudaDriverEntryPointVersionNotSufficent;
  cudaError_t e = cudaGetDriverEntryPointByVersion(name, (void **)&fn, version, cudaEnableDefault, &q);
  if (e != cudaSuccess || q != cudaDriverEntryPointSuccess) {
    printf("entry %s@%u: %s, query %d\n", name, version, cudaGetErrorString(e), (int)q);
    return false;
  }
  return true;
}

__global__ void axpb(float *y, const float *x, float a, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + b;
}

int main() {
  int drv = 0, rt = 0;
  CHECK_RT(cudaDriverGetVersion(&drv));
  CHECK_RT(cudaRuntimeGetVersion(&rt));
  printf("driver %d, runtime %d\n", drv, rt);
  CHECK_RT(cudaFree(0));  // the primary context exists and is current

  PFN_cuCtxGetCurrent_v4000 pCtxGetCurrent;
  PFN_cuMemAlloc_v3020 pMemAlloc;
  PFN_cuMemFree_v3020 pMemFree;
  PFN_cuMemcpyHtoD_v3020 pHtoD;
  PFN_cuMemcpyDtoH_v3020 pDtoH;
  PFN_cuPointerGetAttribute_v4000 pPtrAttr;
  PFN_cuGetErrorString_v6000 pErrStr;
  PFN_cuMemGetAllocationGranularity_v10020 pGran;
  PFN_cuMemCreate_v10020 pCreate;
  PFN_cuMemAddressReserve_v10020 pReserve;
  PFN_cuMemMap_v10020 pMap;
  PFN_cuMemSetAccess_v10020 pAccess;
  PFN_cuMemUnmap_v10020 pUnmap;
  PFN_cuMemRelease_v10020 pRelease;
  PFN_cuMemAddressFree_v10020 pAddrFree;
  PFN_cuStreamWriteValue32_v11070 pWrite32;
  bool ok = get_entry("cuCtxGetCurrent", pCtxGetCurrent, 4000) && get_entry("cuMemAlloc", pMemAlloc, 3020) &&
            get_entry("cuMemFree", pMemFree, 3020) && get_entry("cuMemcpyHtoD", pHtoD, 3020) &&
            get_entry("cuMemcpyDtoH", pDtoH, 3020) && get_entry("cuPointerGetAttribute", pPtrAttr, 4000) &&
            get_entry("cuGetErrorString", pErrStr, 6000) &&
            get_entry("cuMemGetAllocationGranularity", pGran, 10020) && get_entry("cuMemCreate", pCreate, 10020) &&
            get_entry("cuMemAddressReserve", pReserve, 10020) && get_entry("cuMemMap", pMap, 10020) &&
            get_entry("cuMemSetAccess", pAccess, 10020) && get_entry("cuMemUnmap", pUnmap, 10020) &&
            get_entry("cuMemRelease", pRelease, 10020) && get_entry("cuMemAddressFree", pAddrFree, 10020) &&
            get_entry("cuStreamWriteValue32", pWrite32, 12000);
  if (!ok) { printf("Result = FAIL\n"); return 1; }

  // A symbol that does not exist, and one asked for at a version before it existed.
  void *nothing = nullptr;
  cudaDriverEntryPointQueryResult q;
  cudaError_t e = cudaGetDriverEntryPointByVersion("cuNoSuchFunction", &nothing, 12000, cudaEnableDefault, &q);
  printf("missing symbol: %s, query %d\n", cudaGetErrorName(e), (int)q);
  if (q != cudaDriverEntryPointSymbolNotFound || nothing) ok = false;
  e = cudaGetDriverEntryPointByVersion("cuMemCreate", &nothing, 10000, cudaEnableDefault, &q);
  printf("too old a version: %s, query %d\n", cudaGetErrorName(e), (int)q);
  if (q != cudaDriverEntryPointVersionNotSufficent) ok = false;

  CUcontext ctx = nullptr;
  if (pCtxGetCurrent(&ctx) != CUDA_SUCCESS || !ctx) { printf("no current context\n"); ok = false; }

  const int n = 1 << 14;
  CUdeviceptr dx, dy;
  if (pMemAlloc(&dx, n * 4) || pMemAlloc(&dy, n * 4)) { printf("alloc failed\n"); return 1; }
  std::vector<float> hx(n), hy(n);
  for (int i = 0; i < n; ++i) hx[i] = (float)i;
  pHtoD(dx, hx.data(), n * 4);
  axpb<<<n / 256, 256>>>((float *)dy, (const float *)dx, 2.0f, 1.0f, n);
  CHECK_RT(cudaGetLastError());
  CHECK_RT(cudaDeviceSynchronize());
  pDtoH(hy.data(), dy, n * 4);
  for (int i = 0; i < n; ++i) if (hy[i] != 2.0f * i + 1.0f) { printf("mismatch %d\n", i); ok = false; break; }
  unsigned memType = 0;
  pPtrAttr(&memType, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, dy);
  if (memType != CU_MEMORYTYPE_DEVICE) { printf("memory type %u\n", memType); ok = false; }

  // VMM through the entry points, then used by a runtime kernel and a stream write.
  int dev = 0;
  CHECK_RT(cudaGetDevice(&dev));
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = dev;
  size_t gran = 0;
  pGran(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
  CUmemGenericAllocationHandle h;
  CUdeviceptr va;
  CUresult r = pCreate(&h, gran, &prop, 0);
  if (!r) r = pReserve(&va, gran, 0, 0, 0);
  if (!r) r = pMap(va, gran, 0, h, 0);
  CUmemAccessDesc acc = {};
  acc.location = prop.location; acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  if (!r) r = pAccess(va, gran, &acc, 1);
  if (r) { const char *s; pErrStr(r, &s); printf("vmm: %s\n", s); return 1; }
  cudaStream_t st;
  CHECK_RT(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  axpb<<<n / 256, 256, 0, st>>>((float *)va, (const float *)dx, 0.5f, 0.0f, n);
  pWrite32((CUstream)st, va + (n - 1) * 4, 0x7f7f7f7f, CU_STREAM_WRITE_VALUE_DEFAULT);
  CHECK_RT(cudaStreamSynchronize(st));
  CHECK_RT(cudaMemcpy(hy.data(), (void *)va, n * 4, cudaMemcpyDeviceToHost));
  unsigned last; memcpy(&last, &hy[n - 1], 4);
  if (hy[10] != 5.0f || last != 0x7f7f7f7f) { printf("vmm results %f %x\n", hy[10], last); ok = false; }
  CHECK_RT(cudaStreamDestroy(st));
  pUnmap(va, gran); pRelease(h); pAddrFree(va, gran);
  pMemFree(dx); pMemFree(dy);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
