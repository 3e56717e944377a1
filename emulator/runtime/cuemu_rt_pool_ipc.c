/*
 * cuemu_rt_pool_ipc.c: memory pools shared between processes (see
 * cuemu/cuemu_pool_ipc.h). The exporter's pool keeps its memory in a file
 * (cuemu_rt_pool_arena.h); an allocation's export data says where in the
 * file it lies, and the importer maps those bytes as it maps external
 * memory (cuemu_rt_external.c), so that cudaFree unmaps them.
 */
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cuemu/cuemu_external.h>
#include <cuemu/cuemu_pool_ipc.h>
#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_host.h>

#include "core/cuemu_allocations.h"
#include "runtime/cuemu_rt_graph_internal.h"
#include "runtime/cuemu_rt_internal.h"
#include "runtime/cuemu_rt_pool_ipc.h"

/* What the 64 bytes of cudaMemPoolPtrExportData hold. */
typedef struct export_data {
  char magic[8];           /* "cuemuPPE" */
  uint64_t file_dev;       /* the pool's file: device and inode */
  uint64_t file_ino;
  unsigned long long offset; /* the allocation's place in the file */
  unsigned long long size;   /* its size as allocated */
} export_data;

_Static_assert(sizeof(export_data) <= 64,
               "cudaMemPoolPtrExportData has 64 bytes");

static const char magic[8] = {'c', 'u', 'e', 'm', 'u', 'P', 'P', 'E'};

/* Checks the handle type, the flags (0) and the handle or pool argument;
 * a CUDA code, recorded. */
static int check_call(int type, unsigned long long flags, const void *arg,
                      const char *call) {
  if (type == cudaMemHandleTypePosixFileDescriptor)
    return !arg || flags ? cuemu_rt_error(cudaErrorInvalidValue)
                         : cudaSuccess;
  if (type == cudaMemHandleTypeWin32 || type == cudaMemHandleTypeWin32Kmt ||
      type == cudaMemHandleTypeFabric)
    return cuemu__graph_fail(cudaErrorNotSupported,
                             "%s: only cudaMemHandleTypePosixFileDescriptor "
                             "is supported on Linux",
                             call);
  return cuemu__graph_fail(cudaErrorInvalidValue,
                           "%s: %d is no shareable handle type", call, type);
}

int cuemu_rt_mem_pool_export_to_shareable_handle(void *handle,
                                                 cudaMemPool_t pool,
                                                 int handle_type,
                                                 unsigned long long flags) {
  const char *call = "cudaMemPoolExportToShareableHandle";
  int code = check_call(handle_type, flags, handle, call);
  if (code)
    return code;
  int fd = cuemu__pool_share_fd(pool);
  if (fd < 0)
    return cuemu__graph_fail(cudaErrorInvalidValue,
                             "%s: the pool is not a live pool made with "
                             "handleTypes cudaMemHandleTypePosixFileDescriptor",
                             call);
  *(int *)handle = fd;
  return cuemu__rt_check_sticky();
}

int cuemu_rt_mem_pool_import_from_shareable_handle(cudaMemPool_t *pool,
                                                   void *handle,
                                                   int handle_type,
                                                   unsigned long long flags) {
  const char *call = "cudaMemPoolImportFromShareableHandle";
  int code = check_call(handle_type, flags, pool, call);
  if (code)
    return code;
  int fd = (int)(intptr_t)handle;
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0)
    return cuemu__graph_fail(cudaErrorInvalidValue,
                             "%s: the descriptor is not open", call);
  int device = 0;
  cuemu_rt_get_device(&device);
  cudaMemPool_t p = cuemu__pool_import(fd, device);
  if (!p)
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  *pool = p;
  return cuemu__rt_check_sticky();
}

int cuemu_rt_mem_pool_export_pointer(void *data, void *ptr) {
  if (!data || !ptr)
    return cuemu_rt_error(cudaErrorInvalidValue);
  cudaMemPool_t pool;
  unsigned long long offset = 0;
  cuemu_rt_allocation a;
  int fd = -1;
  struct stat st;
  if (!cuemu__pool_place(ptr, &pool, &offset) ||
      !cuemu_rt_memory_find(ptr, &a) || a.base != ptr ||
      (fd = cuemu__pool_share_fd(pool)) < 0 || fstat(fd, &st) != 0) {
    if (fd >= 0)
      close(fd);
    return cuemu__graph_fail(cudaErrorInvalidValue,
                             "cudaMemPoolExportPointer: %p is not the start "
                             "of a live allocation of a pool made with "
                             "handleTypes cudaMemHandleTypePosixFileDescriptor",
                             ptr);
  }
  close(fd);
  export_data d;
  memset(&d, 0, sizeof d);
  memcpy(d.magic, magic, sizeof magic);
  d.file_dev = (uint64_t)st.st_dev;
  d.file_ino = (uint64_t)st.st_ino;
  d.offset = offset;
  d.size = a.size;
  memset(data, 0, 64);
  memcpy(data, &d, sizeof d);
  return cuemu__rt_check_sticky();
}

int cuemu_rt_mem_pool_import_pointer(void **ptr, cudaMemPool_t pool,
                                     const void *data) {
  if (!ptr || !data)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int fd = cuemu__pool_imported_fd(pool);
  export_data d;
  memcpy(&d, data, sizeof d);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0 || memcmp(d.magic, magic, sizeof magic) ||
      d.file_dev != (uint64_t)st.st_dev || d.file_ino != (uint64_t)st.st_ino ||
      d.size == 0 || d.offset + d.size > (unsigned long long)st.st_size)
    return cuemu__graph_fail(cudaErrorInvalidValue,
                             "cudaMemPoolImportPointer: %s",
                             fd < 0 ? "the pool is not an imported pool"
                                    : "the data is not an export of an "
                                      "allocation of the pool imported");
  /* The bytes are mapped as external memory is; the temporary object only
   * holds a descriptor for the mapping. */
  int own = dup(fd);
  cuemu_rt_external_memory *m = NULL;
  int code = own < 0 ? cudaErrorMemoryAllocation
                     : cuemu_rt_import_external_memory(
                           &m, CUEMU_RT_EXTERNAL_MEMORY_OPAQUE_FD, own,
                           (unsigned long long)st.st_size, 0);
  if (code) {
    if (own >= 0 && !m)
      close(own);
    return cuemu_rt_error(code);
  }
  code = cuemu_rt_external_memory_get_mapped_buffer(ptr, m, d.offset, d.size,
                                                    0);
  cuemu_rt_destroy_external_memory(m);
  return code ? code : cuemu__rt_check_sticky();
}
