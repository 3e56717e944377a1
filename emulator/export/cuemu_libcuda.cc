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

#include <cstring>

/* Deprecated functions are exported too (cuLaunchGrid, ...): CUDA's
 * libcuda has them. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/* The exported functions: C symbols with CUDA's names (an asm label each,
 * since the shims' C++ functions of the same name are in scope; the C++
 * names are pasted, so that cuda.h's macros, cuemu_driver_names.h, do not
 * rename them), every other name of the library hidden
 * (-fvisibility=hidden). */
namespace cuemu_libcuda {
/* The stream a _ptsz or _ptds spelling gets: its stream 0 is the calling
 * thread's per-thread default stream, as a program built with
 * `--default-stream per-thread` means it (CU_STREAM_LEGACY and every other
 * stream are themselves). The synchronous copies and sets of the _ptds
 * spellings, which take no stream, are the plain functions. */
inline CUstream cuemu_libcuda_per_thread(CUstream stream) {
  return stream ? stream : CU_STREAM_PER_THREAD;
}

#define CUEMU_LIBCUDA_EXPORT(symbol, function, parameters, arguments)          \
  __attribute__((visibility("default")))                                       \
  CUresult export_##symbol parameters __asm__(#symbol);                        \
  CUresult export_##symbol parameters { return ::function arguments; }
#include "cuemu_libcuda_exports.h"
#undef CUEMU_LIBCUDA_EXPORT

/* The per-thread spellings by name and versions
 * (CUEMU_LIBCUDA_PER_THREAD, generated with the exports), registered with
 * libcuemu as the library loads: cuGetProcAddress gives them, wherever it
 * is called from, as CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM asks. */
const cuemu_drv_per_thread_entry per_thread_entries[] = {
#define CUEMU_LIBCUDA_PER_THREAD(name, from, until, symbol)                    \
  {#name, from, until, reinterpret_cast<void *>(&export_##symbol)},
#include "cuemu_libcuda_exports.h"
#undef CUEMU_LIBCUDA_PER_THREAD
};
const int registered_per_thread = cuemu_drv_per_thread_entries_register(
    per_thread_entries, sizeof per_thread_entries / sizeof per_thread_entries[0]);

__attribute__((visibility("default"))) CUresult
cuGetProcAddress_v1(const char *symbol, void **pfn, int cudaVersion,
                    cuuint64_t flags) __asm__("cuGetProcAddress");
__attribute__((visibility("default"))) CUresult
cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion,
                    cuuint64_t flags,
                    CUdriverProcAddressQueryResult
                        *symbolStatus) __asm__("cuGetProcAddress_v2");

/* What cuGetProcAddress gives for `symbol` at `cudaVersion` where the
 * entry-point tables found `found` (the per-thread spelling already, as
 * the flags ask: cuemu_drv_get_proc_address): the library's own
 * cuGetProcAddress rather than the shims'. */
void *library_function(const char *symbol, int cudaVersion, void *found) {
  if (found && std::strcmp(symbol, "cuGetProcAddress") == 0)
    return cudaVersion >= 12000
               ? reinterpret_cast<void *>(&cuGetProcAddress_v2)
               : reinterpret_cast<void *>(&cuGetProcAddress_v1);
  return found;
}

/* cuGetProcAddress_v2 (CUDA 12.0 on): a symbol that is not there, or not
 * at cudaVersion, is CUDA_SUCCESS with a NULL function and symbolStatus
 * saying which, as CUDA 12 documents. */
CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion,
                             cuuint64_t flags,
                             CUdriverProcAddressQueryResult *symbolStatus) {
  CUresult r =
      ::cuGetProcAddress(symbol, pfn, cudaVersion, flags, symbolStatus);
  if (r == CUDA_SUCCESS)
    *pfn = library_function(symbol, cudaVersion, *pfn);
  return r;
}

/* cuGetProcAddress (CUDA 11.3 to 11.8, no symbolStatus). */
CUresult cuGetProcAddress_v1(const char *symbol, void **pfn, int cudaVersion,
                             cuuint64_t flags) {
  CUresult r =
      cuemu::drv::get_proc_address_v1<>(symbol, pfn, cudaVersion, flags);
  if (r == CUDA_SUCCESS)
    *pfn = library_function(symbol, cudaVersion, *pfn);
  return r;
}

/* The shims' table of entry points, registered when the library is
 * loaded: the one table, which cuGetProcAddress and
 * cudaGetDriverEntryPoint read wherever they are called from (libcuemu
 * loads this library for them when a program has not). */
const int registered = cuemu::drv::register_entry_points();
} // namespace cuemu_libcuda
