/*
 * cuemu/cuemu_vmm.h: the driver API's virtual memory management
 * (cuMemCreate, cuMemAddressReserve, cuMemMap, cuMemSetAccess, ...; see
 * docs/vmm.md) over the emulated device memory. A physical allocation is an
 * anonymous file (memfd) of a multiple of the granularity (2 MiB); a
 * reservation is a range of address space without access; cuMemMap maps a
 * part of the file into a reservation, still without access, and
 * cuMemSetAccess opens it for reading, or reading and writing, so that a
 * kernel that touches a mapping before that faults as on a GPU. Each mapping
 * is tracked as device memory of its allocation's device (kernels, copies,
 * memcheck and cudaPointerGetAttributes know it). A POSIX file descriptor
 * of the file (cuMemExportToShareableHandle) carries the same physical
 * memory to another process (cuMemImportFromShareableHandle).
 *
 * Every function returns a CUresult (cuemu_driver_errors.h), needs cuInit
 * (or the runtime's use) but no current context, as with CUDA, and may be
 * called from host code only, from any thread.
 * Handles are `unsigned long long` (CUmemGenericAllocationHandle).
 */
#ifndef CUEMU_VMM_H
#define CUEMU_VMM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* CUmemAllocationProp, member for member (cuda.h of CUDA 12 and 13). */
typedef struct cuemu_vmm_prop {
  int type;                  /* CUmemAllocationType: 1, pinned */
  int requested_handle_types; /* CUmemAllocationHandleType bits */
  struct {
    int type; /* CUmemLocationType: 1, a device */
    int id;
  } location;
  void *win32_handle_meta_data;
  struct {
    unsigned char compression_type;
    unsigned char gpu_direct_rdma_capable;
    unsigned short usage;
    unsigned char reserved[4];
  } alloc_flags;
} cuemu_vmm_prop;

/* CUmemAccessDesc: a location and CUmemAccess_flags (0, 1 or 3). */
typedef struct cuemu_vmm_access {
  struct {
    int type;
    int id;
  } location;
  int flags;
} cuemu_vmm_access;

/* The granularity of `prop` (flags 0, minimum, or 1, recommended). */
int cuemu_vmm_granularity(size_t *granularity, const cuemu_vmm_prop *prop,
                          int flags);
/* A physical allocation of `size` bytes (a multiple of the granularity)
 * with `prop`; flags must be 0. The caller owns the handle
 * (cuemu_vmm_release). */
int cuemu_vmm_create(unsigned long long *handle, size_t size,
                     const cuemu_vmm_prop *prop, unsigned long long flags);
/* Gives up one reference to `handle`; its memory goes once no reference
 * and no mapping is left. */
int cuemu_vmm_release(unsigned long long handle);
/* Reserves `size` bytes of address space aligned to `alignment` (0: the
 * granularity); `addr` is a hint, taken when that range is free. */
int cuemu_vmm_address_reserve(unsigned long long *ptr, size_t size,
                              size_t alignment, unsigned long long addr,
                              unsigned long long flags);
/* Frees a whole reservation, which must hold no mapping. */
int cuemu_vmm_address_free(unsigned long long ptr, size_t size);
/* Maps `size` bytes of `handle`'s memory from `offset` at `ptr`, inside
 * one reservation, where nothing is mapped yet. */
int cuemu_vmm_map(unsigned long long ptr, size_t size, size_t offset,
                  unsigned long long handle, unsigned long long flags);
/* Unmaps [ptr, ptr + size), which must be made of whole mappings. */
int cuemu_vmm_unmap(unsigned long long ptr, size_t size);
/* Sets the access of `count` locations to [ptr, ptr + size), which must
 * be mapped throughout. */
int cuemu_vmm_set_access(unsigned long long ptr, size_t size,
                         const cuemu_vmm_access *desc, size_t count);
/* The access of `location` ({type, id}) to the mapping holding `ptr`. */
int cuemu_vmm_get_access(unsigned long long *flags, const void *location,
                         unsigned long long ptr);
/* A new POSIX file descriptor of `handle`'s memory into *(int *)shareable
 * (handle type 1 only, requested at cuMemCreate; flags 0). */
int cuemu_vmm_export(void *shareable, unsigned long long handle,
                     int handle_type, unsigned long long flags);
/* A handle of the memory that the descriptor `(int)(intptr_t)shareable`
 * refers to (it keeps a duplicate of the descriptor). */
int cuemu_vmm_import(unsigned long long *handle, void *shareable,
                     int handle_type);
/* A new reference to the allocation mapped at `addr` (any address of a
 * mapping). */
int cuemu_vmm_retain(unsigned long long *handle, const void *addr);
/* The properties `handle` was made with. */
int cuemu_vmm_properties(cuemu_vmm_prop *prop, unsigned long long handle);
/* cuMemMapArrayAsync: sparse arrays do not exist in the emulator, so it
 * is refused (CUDA_ERROR_NOT_SUPPORTED, with a message). */
int cuemu_vmm_map_array(const void *__cuemu_list, unsigned count, const void *stream);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_VMM_H */
