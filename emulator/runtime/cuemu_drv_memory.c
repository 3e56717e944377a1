/*
 * cuemu_drv_memory.c: the driver API's memory calls that the runtime API
 * has no counterpart for (see cuemu_driver_api.h): sets of 8-, 16- and
 * 32-bit elements, address ranges and pointer attributes. The others
 * (cuMemAlloc, cuMemcpy*, ...) are the runtime's functions, called by the
 * shim (shims/cuda_builtins/cuda.h).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_driver_api.h>
#include <cuemu/cuemu_driver_errors.h>
#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_peer.h>

#include "core/cuemu_access_limits.h"
#include "core/cuemu_allocations.h"
#include "device/cuemu_device_launch.h"
#include "device/cuemu_device_model.h"
#include "runtime/cuemu_drv_internal.h"
#include "runtime/cuemu_rt_internal.h"

enum {
#define CUEMU_DRV_ENUM_(name, value, text) DRV_##name = value,
  CUEMU_DRIVER_ERROR_MAP(CUEMU_DRV_ENUM_)
#undef CUEMU_DRV_ENUM_
};

/* cuda.h's CUpointer_attribute and CUmemorytype values. */
enum {
  PTR_CONTEXT = 1,
  PTR_MEMORY_TYPE = 2,
  PTR_DEVICE_POINTER = 3,
  PTR_HOST_POINTER = 4,
  PTR_SYNC_MEMOPS = 6,
  PTR_IS_MANAGED = 8,
  PTR_DEVICE_ORDINAL = 9,
  PTR_IS_LEGACY_CUDA_IPC_CAPABLE = 10,
  PTR_RANGE_START_ADDR = 11,
  PTR_RANGE_SIZE = 12,
  PTR_MAPPED = 13,
  PTR_ACCESS_FLAGS = 16,
  PTR_MEMPOOL_HANDLE = 17
};
enum { MEMORYTYPE_HOST = 1, MEMORYTYPE_DEVICE = 2, MEMORYTYPE_UNIFIED = 4 };

/* The live allocation holding [p, p + n), or 0. */
static int live_range(const void *p, size_t n, cuemu_rt_allocation *a) {
  if (!cuemu__allocation_find(p, a) || a->state != CUEMU_RT_MEMORY_LIVE)
    return 0;
  return n <= a->size - (size_t)((uintptr_t)p - (uintptr_t)a->base);
}

static void fill(char *p, unsigned value, size_t element_size, size_t count) {
  if (element_size == 1) {
    memset(p, (int)(value & 0xffu), count);
    return;
  }
  for (size_t i = 0; i < count; ++i) {
    if (element_size == 2) {
      uint16_t v = (uint16_t)value;
      memcpy(p + 2 * i, &v, 2);
    } else {
      uint32_t v = value;
      memcpy(p + 4 * i, &v, 4);
    }
  }
}

/* The checks every call here starts with: a context, the sticky error. */
static int begin(void) {
  int e = cuemu_drv_check_context();
  if (e)
    return e;
  return cuemu_status_driver_error(cuemu__device_sticky());
}

int cuemu_drv_memset_2d(unsigned long long dst, size_t pitch, unsigned value,
                        size_t element_size, size_t width, size_t height) {
  int e = begin();
  if (e)
    return e;
  if (width == 0 || height == 0)
    return DRV_CUDA_SUCCESS;
  size_t row = width * element_size;
  char *p = (char *)(uintptr_t)dst;
  cuemu_rt_allocation a;
  if (!p || (uintptr_t)p % element_size || row > pitch ||
      height - 1 > (SIZE_MAX - row) / pitch ||
      !live_range(p, (height - 1) * pitch + row, &a))
    return DRV_CUDA_ERROR_INVALID_VALUE;
  for (size_t r = 0; r < height; ++r) {
    fill(p + r * pitch, value, element_size, width);
    cuemu__allocation_written(p + r * pitch, row);
  }
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_memset(unsigned long long dst, unsigned value,
                     size_t element_size, size_t count) {
  if (count > SIZE_MAX / element_size)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  return cuemu_drv_memset_2d(dst, count * element_size, value, element_size,
                             count, 1);
}

int cuemu_drv_mem_get_address_range(unsigned long long *base, size_t *size,
                                    unsigned long long ptr) {
  int e = begin();
  if (e)
    return e;
  cuemu_rt_allocation a;
  if (!live_range((const void *)(uintptr_t)ptr, 0, &a) ||
      (a.kind != CUEMU_RT_MEMORY_DEVICE && a.kind != CUEMU_RT_MEMORY_MANAGED &&
       a.kind != CUEMU_RT_MEMORY_SYMBOL))
    return DRV_CUDA_ERROR_NOT_FOUND;
  if (base)
    *base = (unsigned long long)(uintptr_t)a.base;
  if (size)
    *size = a.size;
  return DRV_CUDA_SUCCESS;
}

/* The allocations whose CU_POINTER_ATTRIBUTE_SYNC_MEMOPS is set, by base
 * address; an allocation made again at a base forgets it
 * (cuemu__drv_note_allocation). */
static const void **synced;
static size_t synced_count, synced_capacity;
static pthread_mutex_t synced_lock = PTHREAD_MUTEX_INITIALIZER;

static size_t synced_find(const void *base) {
  size_t i;
  for (i = 0; i < synced_count && synced[i] != base; ++i)
    ;
  return i;
}

static int sync_memops(const void *base) {
  pthread_mutex_lock(&synced_lock);
  int set = synced_find(base) < synced_count;
  pthread_mutex_unlock(&synced_lock);
  return set;
}

static int set_sync_memops(const void *base, int set) {
  int e = DRV_CUDA_SUCCESS;
  pthread_mutex_lock(&synced_lock);
  size_t i = synced_find(base);
  if (!set && i < synced_count) {
    synced[i] = synced[--synced_count];
  } else if (set && i == synced_count) {
    if (synced_count == synced_capacity) {
      size_t cap = synced_capacity ? 2 * synced_capacity : 16;
      const void **grown = realloc(synced, cap * sizeof *grown);
      if (grown) {
        synced = grown;
        synced_capacity = cap;
      }
    }
    if (synced_count < synced_capacity)
      synced[synced_count++] = base;
    else
      e = DRV_CUDA_ERROR_OUT_OF_MEMORY;
  }
  pthread_mutex_unlock(&synced_lock);
  return e;
}

void cuemu__drv_forget_pointer_attributes(const void *base) {
  if (__atomic_load_n(&synced_count, __ATOMIC_RELAXED))
    set_sync_memops(base, 0);
}

int cuemu_drv_pointer_set_attribute(const void *value, int attribute,
                                    unsigned long long ptr) {
  int e = cuemu_drv_check_context();
  if (e)
    return e;
  if (!value || attribute != PTR_SYNC_MEMOPS)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  cuemu_rt_allocation a;
  if (!live_range((void *)(uintptr_t)ptr, 0, &a))
    return DRV_CUDA_ERROR_INVALID_VALUE;
  /* Synchronous copies are synchronous here: none is ever pending. */
  return set_sync_memops(a.base, *(const unsigned *)value != 0);
}

int cuemu_drv_pointer_get_attribute(void *data, int attribute,
                                    unsigned long long ptr) {
  int e = cuemu_drv_check_context();
  if (e)
    return e;
  if (!data)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  void *p = (void *)(uintptr_t)ptr;
  cuemu_rt_allocation a;
  if (!live_range(p, 0, &a))
    return DRV_CUDA_ERROR_INVALID_VALUE; /* memory CUDA does not know */
  int managed = cuemu_rt_allocation_managed(&a);
  int device_memory = !managed && (a.kind == CUEMU_RT_MEMORY_DEVICE ||
                                   a.kind == CUEMU_RT_MEMORY_SYMBOL);
  int device = a.kind == CUEMU_RT_MEMORY_DEVICE
                   ? (int)(a.flags >> CUEMU_RT_MEMORY_DEVICE_SHIFT)
                   : cuemu__device_current();
  switch (attribute) {
  case PTR_CONTEXT: /* the context it was allocated in */
    *(void **)data = cuemu__drv_allocation_context(a.base, device);
    break;
  case PTR_MEMORY_TYPE:
    *(unsigned *)data = managed ? MEMORYTYPE_UNIFIED
                        : device_memory                  ? MEMORYTYPE_DEVICE
                                                         : MEMORYTYPE_HOST;
    break;
  case PTR_DEVICE_POINTER:
    *(unsigned long long *)data = ptr;
    break;
  case PTR_HOST_POINTER:
    if (device_memory)
      return DRV_CUDA_ERROR_INVALID_VALUE;
    *(void **)data = p;
    break;
  case PTR_IS_MANAGED:
    *(int *)data = managed;
    break;
  case PTR_DEVICE_ORDINAL:
    *(int *)data = device;
    break;
  case PTR_RANGE_START_ADDR:
    *(unsigned long long *)data = (unsigned long long)(uintptr_t)a.base;
    break;
  case PTR_RANGE_SIZE:
    *(size_t *)data = a.size;
    break;
  case PTR_MAPPED:
    *(int *)data = 1;
    break;
  case PTR_SYNC_MEMOPS:
    *(int *)data = sync_memops(a.base);
    break;
  case PTR_IS_LEGACY_CUDA_IPC_CAPABLE: /* cudaIpcGetMemHandle takes it */
    *(int *)data = a.kind == CUEMU_RT_MEMORY_DEVICE &&
                   !(a.flags & CUEMU__RT_MEMORY_POOLED);
    break;
  case PTR_ACCESS_FLAGS: { /* the current context's device's access */
    int access = cuemu__access_limits_of(p, cuemu__device_current());
    *(unsigned *)data = access < 0 ? CUEMU_MEM_ACCESS_READWRITE
                                   : (unsigned)access;
    break;
  }
  case PTR_MEMPOOL_HANDLE: /* NULL for memory of no pool */
    *(void **)data = (a.flags & CUEMU__RT_MEMORY_POOLED)
                         ? (void *)cuemu__rt_pool_of(a.base)
                         : NULL;
    break;
  default:
    return DRV_CUDA_ERROR_INVALID_VALUE;
  }
  return DRV_CUDA_SUCCESS;
}

/* Writes the empty value of `attribute` (known to cuPointerGetAttribute)
 * into `data`: what cuPointerGetAttributes gives where
 * cuPointerGetAttribute fails. */
static void pointer_attribute_empty(void *data, int attribute) {
  switch (attribute) {
  case PTR_CONTEXT:
  case PTR_HOST_POINTER:
  case PTR_MEMPOOL_HANDLE:
    *(void **)data = NULL;
    break;
  case PTR_DEVICE_POINTER:
  case PTR_RANGE_START_ADDR:
    *(unsigned long long *)data = 0;
    break;
  case PTR_RANGE_SIZE:
    *(size_t *)data = 0;
    break;
  case PTR_DEVICE_ORDINAL:
    *(int *)data = -2;
    break;
  default: /* memory type, managed, mapped */
    *(unsigned *)data = 0;
    break;
  }
}

int cuemu_drv_pointer_get_attributes(unsigned count, const int *attributes,
                                     void **data, unsigned long long ptr) {
  int e = cuemu_drv_check_context();
  if (e)
    return e;
  if (!attributes || !data)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  for (unsigned i = 0; i < count; ++i) {
    if (!data[i])
      continue;
    /* An attribute cuPointerGetAttribute does not know is an error even
     * on memory CUDA does not know. */
    int known = 0;
    switch (attributes[i]) {
    case PTR_CONTEXT:
    case PTR_MEMORY_TYPE:
    case PTR_DEVICE_POINTER:
    case PTR_HOST_POINTER:
    case PTR_IS_MANAGED:
    case PTR_DEVICE_ORDINAL:
    case PTR_RANGE_START_ADDR:
    case PTR_RANGE_SIZE:
    case PTR_MAPPED:
    case PTR_SYNC_MEMOPS:
    case PTR_IS_LEGACY_CUDA_IPC_CAPABLE:
    case PTR_ACCESS_FLAGS:
    case PTR_MEMPOOL_HANDLE:
      known = 1;
      break;
    default:
      break;
    }
    if (!known)
      return DRV_CUDA_ERROR_INVALID_VALUE;
    if (cuemu_drv_pointer_get_attribute(data[i], attributes[i], ptr))
      pointer_attribute_empty(data[i], attributes[i]);
  }
  return DRV_CUDA_SUCCESS;
}
