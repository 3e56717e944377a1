/*
 * cuemu_rt_memory.c: memory of the runtime API: allocation, copies, sets
 * and pointer attributes, with every allocation tracked (base, size, kind,
 * state) so that a bad pointer, a range past an allocation's end, a double
 * free or a wrong copy kind is refused with CUDA's error code before
 * anything is touched (see cuemu_runtime.h).
 * The table of allocations is the device's (core/cuemu_allocations.h).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_device.h>
#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_external.h>

#include "base/cuemu_host_copy.h"
#include "core/cuemu_allocations.h"
#include "core/cuemu_worker.h"
#include "device/cuemu_device_model.h"
#include "runtime/cuemu_drv_internal.h"
#include "runtime/cuemu_drv_vmm.h"
#include "runtime/cuemu_rt_capture.h"
#include "runtime/cuemu_rt_graph_memory.h"
#include "runtime/cuemu_rt_internal.h"
#include "runtime/cuemu_rt_managed_guard.h"
#include "runtime/cuemu_rt_pinned_guard.h"
#include "runtime/cuemu_rt_stream_queue.h"

/* cudaMalloc's alignment, cudaMallocPitch's pitch alignment, and the
 * alignment of pinned host memory. */
#define CUEMU_RT_ALIGN 256u
#define CUEMU_RT_PITCH_ALIGN 512u
#define CUEMU_RT_HOST_ALIGN 4096u

int cuemu_rt_memory_find(const void *p, cuemu_rt_allocation *out) {
  return cuemu__allocation_find(p, out);
}

int cuemu_rt_memory_track(void *base, size_t size, int kind) {
  if (!base || kind < CUEMU_RT_MEMORY_DEVICE || kind > CUEMU_RT_MEMORY_SYMBOL)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int code = cuemu__allocation_insert(base, size, kind, 0);
  return cuemu_rt_error(code == cudaErrorHostMemoryAlreadyRegistered
                            ? cudaErrorInvalidValue
                            : code);
}

int cuemu_rt_memory_untrack(void *base) {
  unsigned kinds = 1u << CUEMU_RT_MEMORY_SYMBOL | 1u << CUEMU_RT_MEMORY_DEVICE |
                   1u << CUEMU_RT_MEMORY_MANAGED | 1u << CUEMU_RT_MEMORY_HOST |
                   1u << CUEMU_RT_MEMORY_REGISTERED;
  return cuemu__allocation_release(base, kinds, 0)
             ? cudaSuccess
             : cuemu_rt_error(cudaErrorInvalidValue);
}

int cuemu_managed_register(const void *p, size_t size) {
  cuemu_rt_allocation a;
  if (!p || size == 0 ||
      (cuemu_rt_memory_find(p, &a) && a.state == CUEMU_RT_MEMORY_LIVE))
    return 0;
  if (cuemu__allocation_insert((void *)(uintptr_t)p, size,
                               CUEMU_RT_MEMORY_SYMBOL,
                               CUEMU_RT_MEMORY_SYMBOL_MANAGED) != cudaSuccess)
    return 0;
  cuemu__managed_guard_variable(p, size);
  return 1;
}

void cuemu_managed_unregister(const void *p) {
  cuemu__managed_guard_variable_gone(p);
  cuemu__allocation_release((void *)(uintptr_t)p, 1u << CUEMU_RT_MEMORY_SYMBOL,
                            0);
}

void cuemu__rt_memory_reset(void) {
  cuemu__rt_pool_reset(-1); /* first: the pools hold their memory */
  cuemu__vmm_reset(-1);
  cuemu__pinned_guard_forget(NULL, SIZE_MAX);
  cuemu__allocation_reset();
}

int cuemu__rt_memory_fits(int kind, unsigned flags, size_t size) {
  if (kind != CUEMU_RT_MEMORY_DEVICE)
    return 1;
  int device = (int)(flags >> CUEMU_RT_MEMORY_DEVICE_SHIFT);
  size_t total = cuemu__device_model_of(device)->total_memory;
  size_t used = cuemu__allocation_device_bytes(device);
  return size <= total && used <= total - size;
}

/* Allocates `size` bytes aligned to `align` and tracks them as `kind`. */
static int allocate(void **ptr, size_t size, size_t align, int kind,
                    unsigned flags, const void *site) {
  if (!ptr)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  if (size == 0) {
    *ptr = NULL;
    return cudaSuccess;
  }
  if (size > SIZE_MAX - align)
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  /* Device memory holds no more than the device has, less what its live
   * allocations hold, as on a GPU (the host's pages are only reserved, so
   * without this a state vector of 2^31 amplitudes, 32 GiB on a device of
   * 24, was given, and a simulator that finds how many qubits fit by
   * trying never heard "out of memory": tests/programs/trialquant/
   * capacity.cu). Managed memory may exceed the device's, as on Linux. */
  if (!cuemu__rt_memory_fits(kind, flags, size))
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  /* A mapping of its own (page-aligned, so `align` holds): freed, it stays
   * inaccessible for a while, and a kernel that uses it faults. */
  (void)align;
  void *p = cuemu__allocation_memory_new(size);
  if (!p)
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  if (cuemu__allocation_insert(p, size, kind, flags) != 0) {
    cuemu__allocation_memory_free(p, size);
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  }
  cuemu__allocation_note(p, size, kind, site);
  /* Kernel code's (the device runtime's cudaMalloc): the checkers of the
   * running launch do not know it (they know the allocations made before
   * it), so they see none of its writes; initcheck takes it for written,
   * so that a later launch's reads of what this one wrote are not
   * reported (a ray tracer's box fills the list it allocates). */
  if (cuemu_thread_in_kernel())
    cuemu__allocation_written(p, size);
  cuemu__drv_note_allocation(p); /* CU_POINTER_ATTRIBUTE_CONTEXT */
  if (kind == CUEMU_RT_MEMORY_MANAGED)
    cuemu__managed_guard_add(p, size, flags == cudaMemAttachGlobal);
  if (kind == CUEMU_RT_MEMORY_HOST)
    cuemu__pinned_guard_forget(p, size);
  *ptr = p;
  cuemu__allocation_written(ptr, sizeof *ptr);
  return cudaSuccess;
}

unsigned cuemu__rt_current_device_flags(void) {
  return (unsigned)cuemu__device_current() << CUEMU_RT_MEMORY_DEVICE_SHIFT;
}

int cuemu_rt_malloc(void **ptr, size_t size) {
  int unsafe = cuemu__rt_capture_unsafe_call(0);
  if (unsafe)
    return unsafe;
  return allocate(ptr, size, CUEMU_RT_ALIGN, CUEMU_RT_MEMORY_DEVICE,
                  cuemu__rt_current_device_flags(), __builtin_return_address(0));
}

int cuemu_rt_malloc_managed(void **ptr, size_t size, unsigned flags) {
  /* CUDA refuses a managed allocation of 0 bytes, unlike cudaMalloc. */
  if (size == 0 ||
      (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost))
    return cuemu_rt_error(cudaErrorInvalidValue);
  return allocate(ptr, size, CUEMU_RT_ALIGN, CUEMU_RT_MEMORY_MANAGED, flags,
                  __builtin_return_address(0));
}

int cuemu_rt_malloc_pitch(void **ptr, size_t *pitch, size_t width,
                          size_t height) {
  return cuemu__rt_malloc_pitch_at(ptr, pitch, width, height,
                                   __builtin_return_address(0));
}

int cuemu__rt_malloc_pitch_at(void **ptr, size_t *pitch, size_t width,
                              size_t height, const void *site) {
  if (!ptr || !pitch)
    return cuemu_rt_error(cudaErrorInvalidValue);
  size_t p = (width + CUEMU_RT_PITCH_ALIGN - 1) / CUEMU_RT_PITCH_ALIGN *
             CUEMU_RT_PITCH_ALIGN;
  if (p < width || (height && p > SIZE_MAX / height))
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  int code = allocate(ptr, p * height, CUEMU_RT_ALIGN, CUEMU_RT_MEMORY_DEVICE,
                      cuemu__rt_current_device_flags(), site);
  if (code == cudaSuccess)
    *pitch = p;
  return code;
}

/* Frees the allocation based at `ptr` if it is a live one of `kinds` (a
 * bit mask of 1 << kind); its memory goes to the quarantine. Returns a
 * CUDA code. */
static int release_memory(void *ptr, unsigned kinds, const void *site) {
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  if (!ptr)
    return cudaSuccess;
  cuemu_rt_allocation a;
  if (!cuemu__allocation_find(ptr, &a) || a.base != ptr ||
      !cuemu__allocation_release(ptr, kinds, 1)) {
    cuemu__allocation_bad_free(ptr, site);
    return cuemu_rt_error(cudaErrorInvalidValue);
  }
  cuemu__allocation_freed(ptr);
  if (a.kind == CUEMU_RT_MEMORY_MANAGED)
    cuemu__managed_guard_remove(ptr, a.size);
  cuemu__pinned_guard_forget(ptr, a.size);
  cuemu__allocation_memory_free(ptr, a.size);
  return cudaSuccess;
}

int cuemu_rt_free(void *ptr) {
  int unsafe = cuemu__rt_capture_unsafe_call(0);
  if (unsafe)
    return unsafe;
  /* Memory of cuMemMap goes with cuMemUnmap only (cuemu_drv_vmm.h). */
  if (cuemu__vmm_owns(ptr))
    return cuemu_rt_error(cudaErrorInvalidValue);
  /* A mapped buffer of external memory. */
  if (cuemu_rt_external_memory_free(ptr) == cudaSuccess)
    return cudaSuccess;
  /* cudaFree waits for the device, as CUDA's does; a stream-ordered
   * allocation may be freed by cudaFree too. */
  int sticky = cuemu__stream_drain_all();
  if (!sticky)
    sticky = cuemu__rt_check_sticky();
  if (!sticky && ptr && cuemu__rt_pool_free(ptr, NULL))
    return cudaSuccess;
  /* A graph allocation freed outside its graph keeps its storage. */
  if (!sticky && ptr && cuemu__graph_memory_free(ptr))
    return cudaSuccess;
  return release_memory(ptr,
                        1u << CUEMU_RT_MEMORY_DEVICE |
                            1u << CUEMU_RT_MEMORY_MANAGED,
                        __builtin_return_address(0));
}

int cuemu__rt_device_alloc(void **ptr, size_t size, const void *site) {
  return allocate(ptr, size, CUEMU_RT_ALIGN, CUEMU_RT_MEMORY_DEVICE,
                  cuemu__rt_current_device_flags(), site);
}

int cuemu__rt_device_free(void *ptr, const void *site) {
  return release_memory(ptr, 1u << CUEMU_RT_MEMORY_DEVICE, site);
}

int cuemu_rt_host_alloc(void **ptr, size_t size, unsigned flags) {
  if (flags & ~(unsigned)(cudaHostAllocPortable | cudaHostAllocMapped |
                          cudaHostAllocWriteCombined))
    return cuemu_rt_error(cudaErrorInvalidValue);
  return allocate(ptr, size, CUEMU_RT_HOST_ALIGN, CUEMU_RT_MEMORY_HOST, flags,
                  __builtin_return_address(0));
}

int cuemu_rt_free_host(void *ptr) {
  return release_memory(ptr, 1u << CUEMU_RT_MEMORY_HOST,
                        __builtin_return_address(0));
}

int cuemu_rt_host_register(void *ptr, size_t size, unsigned flags) {
  if (!ptr || size == 0 ||
      (flags & ~(unsigned)(cudaHostRegisterPortable | cudaHostRegisterMapped |
                           cudaHostRegisterIoMemory |
                           cudaHostRegisterReadOnly)))
    return cuemu_rt_error(cudaErrorInvalidValue);
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  cuemu__pinned_guard_forget(ptr, size);
  return cuemu_rt_error(
      cuemu__allocation_insert(ptr, size, CUEMU_RT_MEMORY_REGISTERED, flags));
}

int cuemu_rt_host_unregister(void *ptr) {
  if (!ptr)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  cuemu_rt_allocation a;
  if (cuemu__allocation_find(ptr, &a) && a.base == ptr &&
      a.kind == CUEMU_RT_MEMORY_REGISTERED)
    cuemu__pinned_guard_forget(ptr, a.size);
  if (!cuemu__allocation_release(ptr, 1u << CUEMU_RT_MEMORY_REGISTERED, 0))
    return cuemu_rt_error(cudaErrorHostMemoryNotRegistered);
  return cudaSuccess;
}

int cuemu_rt_host_get_device_pointer(void **device_ptr, void *host_ptr,
                                     unsigned flags) {
  if (!device_ptr || !host_ptr || flags)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  cuemu_rt_allocation a;
  if (!cuemu_rt_memory_find(host_ptr, &a) || a.state != CUEMU_RT_MEMORY_LIVE ||
      (a.kind != CUEMU_RT_MEMORY_HOST && a.kind != CUEMU_RT_MEMORY_REGISTERED))
    return cuemu_rt_error(cudaErrorInvalidValue);
  /* Unified addressing: the device sees pinned memory at its host address. */
  *device_ptr = host_ptr;
  return cudaSuccess;
}

/* Checks the `extent` bytes at `p`. When `device` is set, they must lie in
 * one live allocation that the device can access, or in a graph
 * allocation that an issued launch allocates (its node may not have run
 * yet: the work is issued after it); otherwise they may be any host
 * memory, but when `p` is in a live allocation they must lie inside it.
 * (A freed allocation's addresses may since have been reused by the
 * host's malloc, so they are host memory.) Returns 0 or
 * cudaErrorInvalidValue. */
static int check_range(const void *p, size_t extent, int device) {
  cuemu_rt_allocation a;
  if (!cuemu_rt_memory_find(p, &a) || a.state != CUEMU_RT_MEMORY_LIVE)
    return device && !cuemu__graph_memory_issued(p, extent)
               ? cudaErrorInvalidValue
               : 0;
  size_t offset = (size_t)((uintptr_t)p - (uintptr_t)a.base);
  if (extent > a.size - offset)
    return cudaErrorInvalidValue;
  return 0;
}

/* Checks both sides of a copy of `kind`; dst_extent and src_extent are the
 * bytes it touches from each. Returns 0 or a CUDA code. */
int cuemu__rt_check_copy(void *dst, size_t dst_extent, const void *src,
                         size_t src_extent, int kind) {
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
    return cudaErrorInvalidMemcpyDirection;
  if (!dst || !src)
    return cudaErrorInvalidValue;
  int dst_device = kind == cudaMemcpyHostToDevice ||
                   kind == cudaMemcpyDeviceToDevice;
  int src_device = kind == cudaMemcpyDeviceToHost ||
                   kind == cudaMemcpyDeviceToDevice;
  int code = check_range(dst, dst_extent, dst_device);
  if (!code)
    code = check_range(src, src_extent, src_device);
  return code;
}

/* The start of a blocking copy or memset: it waits for the legacy
 * default stream (so for the blocking streams too), then the sticky error
 * and a capture that forbids it; 0 or a CUDA code. */
static int blocking_call(void) {
  int e = cuemu__stream_drain(NULL);
  if (!e)
    e = cuemu__rt_check_sticky();
  return e ? e : cuemu__rt_capture_unsafe_call(1);
}

/* The start of a blocking copy: as blocking_call, and a synchronisation
 * point, where CUDA writes the kernels' printf output (every blocking
 * cudaMemcpy*() is one, the programming guide says). */
static int blocking_copy(void) {
  int e = blocking_call();
  cuemu__rt_sync_point(); /* the kernels' output before the copy's */
  return e;
}

int cuemu__rt_memcpy_part(void *dst, const void *src, size_t at,
                          size_t count, size_t total, int kind) {
  int sticky = blocking_copy();
  if (sticky)
    return sticky;
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
    return cuemu_rt_error(cudaErrorInvalidMemcpyDirection);
  if (count == 0)
    return cudaSuccess;
  int code = cuemu__rt_check_copy((char *)dst + at, count,
                                  (const char *)src + at, count, kind);
  if (code)
    return cuemu_rt_error(code);
  if (at == 0)
    cuemu__allocation_copied_from(src, total);
  cuemu__host_copy_bytes((char *)dst + at, (const char *)src + at, count);
  cuemu__allocation_written((char *)dst + at, count);
  return cudaSuccess;
}

/* Notes the blocking copy `call` that the program's code at `caller` makes,
 * so that a host pointer that faults is named (cuemu_host_copy.h), with
 * cuemu's fault handler in place, which is otherwise installed by the first
 * launch. */
static void host_copy_begin(const char *call, const void *caller) {
  cuemu__fault_ensure();
  cuemu__host_copy_call(call, caller);
}

int cuemu_rt_memcpy(void *dst, const void *src, size_t count, int kind) {
  host_copy_begin("cudaMemcpy", __builtin_return_address(0));
  int code = cuemu__rt_memcpy_part(dst, src, 0, count, count, kind);
  cuemu__host_copy_end();
  return code;
}

int cuemu__rt_copy_check(void *dst, size_t dpitch, const void *src,
                         size_t spitch, size_t width, size_t height, int kind) {
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
    return cuemu_rt_error(cudaErrorInvalidMemcpyDirection);
  if (width == 0 || height == 0)
    return cudaSuccess;
  if (width > dpitch || width > spitch)
    return cuemu_rt_error(cudaErrorInvalidPitchValue);
  if (height - 1 > (SIZE_MAX - width) / (dpitch > spitch ? dpitch : spitch))
    return cuemu_rt_error(cudaErrorInvalidValue);
  int code = cuemu__rt_check_copy(dst, (height - 1) * dpitch + width, src,
                                  (height - 1) * spitch + width, kind);
  return code ? cuemu_rt_error(code) : cudaSuccess;
}

int cuemu__rt_memset_check(void *ptr, size_t pitch, size_t width,
                           size_t height) {
  if (width == 0 || height == 0)
    return cudaSuccess;
  if (width > pitch)
    return cuemu_rt_error(cudaErrorInvalidPitchValue);
  if (height - 1 > (SIZE_MAX - width) / pitch)
    return cuemu_rt_error(cudaErrorInvalidValue);
  if (!ptr || check_range(ptr, (height - 1) * pitch + width, 1))
    return cuemu_rt_error(cudaErrorInvalidValue);
  return cudaSuccess;
}

int cuemu__rt_memcpy_slices(void *dst, size_t dpitch, size_t dslice,
                            const void *src, size_t spitch, size_t sslice,
                            size_t width, size_t height, size_t depth,
                            int kind) {
  int sticky = blocking_copy();
  if (sticky)
    return sticky;
  for (size_t z = 0; z < depth; ++z) {
    int code = cuemu__rt_copy_check((char *)dst + z * dslice, dpitch,
                                    (const char *)src + z * sslice, spitch,
                                    width, height, kind);
    if (code)
      return code;
  }
  if (width == 0 || height == 0 || depth == 0)
    return cudaSuccess;
  cuemu__allocation_copied_from_rows(src, width, height, spitch, depth,
                                     sslice);
  for (size_t z = 0; z < depth; ++z)
    for (size_t row = 0; row < height; ++row)
      cuemu__host_copy_bytes((char *)dst + z * dslice + row * dpitch,
                             (const char *)src + z * sslice + row * spitch,
                             width);
  for (size_t z = 0; z < depth; ++z)
    for (size_t row = 0; row < height; ++row)
      cuemu__allocation_written((char *)dst + z * dslice + row * dpitch,
                                width);
  return cudaSuccess;
}

int cuemu_rt_memcpy_2d(void *dst, size_t dpitch, const void *src,
                       size_t spitch, size_t width, size_t height, int kind) {
  host_copy_begin("cudaMemcpy2D", __builtin_return_address(0));
  int code = cuemu__rt_memcpy_slices(dst, dpitch, 0, src, spitch, 0, width,
                                     height, 1, kind);
  cuemu__host_copy_end();
  return code;
}

void cuemu_rt_library_wrote(void *p, size_t bytes) {
  if (p)
    cuemu__allocation_written(p, bytes);
}

int cuemu_rt_memset(void *ptr, int value, size_t count) {
  int sticky = blocking_call();
  if (sticky)
    return sticky;
  if (count == 0)
    return cudaSuccess;
  if (!ptr || check_range(ptr, count, 1))
    return cuemu_rt_error(cudaErrorInvalidValue);
  memset(ptr, value, count);
  cuemu__allocation_written(ptr, count);
  return cudaSuccess;
}

int cuemu_rt_memset_2d(void *ptr, size_t pitch, int value, size_t width,
                       size_t height) {
  int sticky = blocking_call();
  if (sticky)
    return sticky;
  int code = cuemu__rt_memset_check(ptr, pitch, width, height);
  if (code || width == 0 || height == 0)
    return code;
  for (size_t row = 0; row < height; ++row) {
    memset((char *)ptr + row * pitch, value, width);
    cuemu__allocation_written((char *)ptr + row * pitch, width);
  }
  return cudaSuccess;
}

int cuemu_rt_pointer_get_attributes(struct cudaPointerAttributes *attributes,
                                    const void *ptr) {
  if (!attributes)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  memset(attributes, 0, sizeof *attributes);
  cuemu_rt_allocation a;
  void *p = (void *)(uintptr_t)ptr;
  if (!ptr || !cuemu_rt_memory_find(ptr, &a) ||
      a.state != CUEMU_RT_MEMORY_LIVE) {
    /* Memory CUDA does not know: unregistered, on no device. */
    attributes->type = cudaMemoryTypeUnregistered;
    attributes->device = cudaInvalidDeviceId;
    return cudaSuccess;
  }
  attributes->device = a.kind == CUEMU_RT_MEMORY_DEVICE
                           ? (int)(a.flags >> CUEMU_RT_MEMORY_DEVICE_SHIFT)
                           : cuemu__device_current();
  /* A __managed__ variable is managed memory, as cudaMallocManaged's. */
  int kind = cuemu_rt_allocation_managed(&a) ? CUEMU_RT_MEMORY_MANAGED
                                             : a.kind;
  switch (kind) {
  case CUEMU_RT_MEMORY_DEVICE:
  case CUEMU_RT_MEMORY_SYMBOL:
    attributes->type = cudaMemoryTypeDevice;
    attributes->devicePointer = p;
    break;
  case CUEMU_RT_MEMORY_MANAGED:
    attributes->type = cudaMemoryTypeManaged;
    attributes->devicePointer = p;
    attributes->hostPointer = p;
    break;
  default:
    attributes->type = cudaMemoryTypeHost;
    attributes->devicePointer = p;
    attributes->hostPointer = p;
    break;
  }
  return cudaSuccess;
}
