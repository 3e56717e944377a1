/*
 * cuemu_libcuda.cc: libcuda.so.1, the CUDA driver library as programs load
 * it by name (dlopen("libcuda.so.1"), dlsym) or link it (-lcuda against
 * the toolkit's lib64/libcuda.so), built by emulator/export/libcuda.am.
 *
 * Every driver function of the shims (cuda.h) is exported under each name
 * CUDA's libcuda gives its ABI versions (cuCtxCreate, cuCtxCreate_v2 ...
 * cuCtxCreate_v4, cuMemcpyHtoD_v2_ptds), listed by
 * scripts/driver_entry_points.py in cuemu_libcuda_exports.h; each calls the
 * shims' inline function, which calls libcuemu. libcuda.so.1 links
 * libcuemu, so a program that loads it shares the devices, contexts,
 * modules and memory of the program's own CUDA calls. cuGetProcAddress
 * (CUDA 11.3's four parameters) and cuGetProcAddress_v2 (CUDA 12's five)
 * find the same functions by name and version: the library registers the
 * shims' entry-point table when it is loaded.
 */
#include <cuda.h>

/* The exported functions: C symbols with CUDA's names (an asm label each,
 * since the shims' C++ functions of the same name are in scope; the C++
 * names are pasted, so that cuda.h's macros, cuemu_driver_names.h, do not
 * rename them), every other name of the library hidden
 * (-fvisibility=hidden). */
namespace cuemu_libcuda {
#define CUEMU_LIBCUDA_EXPORT(symbol, function, parameters, arguments)          \
  __attribute__((visibility("default"))) CUresult export_##symbol parameters   \
      __asm__(#symbol);                                                        \
  CUresult export_##symbol parameters { return ::function arguments; }
#include "cuemu_libcuda_exports.h"
#undef CUEMU_LIBCUDA_EXPORT

/* cuGetProcAddress_v2 (CUDA 12.0 on): a symbol that is not there, or not
 * at cudaVersion, is CUDA_SUCCESS with a NULL function and symbolStatus
 * saying which, as CUDA 12 documents. */
__attribute__((visibility("default"))) CUresult
cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion,
                    cuuint64_t flags,
                    CUdriverProcAddressQueryResult *symbolStatus)
    __asm__("cuGetProcAddress_v2");
CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion,
                             cuuint64_t flags,
                             CUdriverProcAddressQueryResult *symbolStatus) {
  return ::cuGetProcAddress(symbol, pfn, cudaVersion, flags, symbolStatus);
}

/* cuGetProcAddress (CUDA 11.3 to 11.8, no symbolStatus). */
__attribute__((visibility("default"))) CUresult
cuGetProcAddress_v1(const char *symbol, void **pfn, int cudaVersion,
                    cuuint64_t flags) __asm__("cuGetProcAddress");
CUresult cuGetProcAddress_v1(const char *symbol, void **pfn, int cudaVersion,
                             cuuint64_t flags) {
  return cuemu::drv::get_proc_address_v1<>(symbol, pfn, cudaVersion, flags);
}

/* cuGetExportTable: CUDA's own libraries (NVRTC, the runtime, CuPy's)
 * ask the driver for its private tables by id, and fail badly where the
 * function is missing (real NVRTC crashes in nvrtcCompileProgram when
 * LD_LIBRARY_PATH names this folder). cuemu has none of them: every id is
 * CUDA_ERROR_NOT_FOUND with a NULL table, which those libraries take as
 * an older driver without it. */
__attribute__((visibility("default"))) CUresult
cuGetExportTable(const void **ppExportTable, const CUuuid *pExportTableId)
    __asm__("cuGetExportTable");
CUresult cuGetExportTable(const void **ppExportTable,
                          const CUuuid *pExportTableId) {
  if (!ppExportTable || !pExportTableId)
    return CUDA_ERROR_INVALID_VALUE;
  *ppExportTable = nullptr;
  return CUDA_ERROR_NOT_FOUND;
}

/* The shims' table of entry points, registered when the library is
 * loaded (a program that never includes cuda.h has none of its own). */
const int registered = cuemu::drv::register_entry_points(cuemu::drv::tag<void>{});
} // namespace cuemu_libcuda
