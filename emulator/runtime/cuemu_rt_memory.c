/*
 * cuemu_rt_memory.c: memory of the runtime API: allocation, copies, sets
 * and pointer attributes, with every allocation tracked (base, size, kind,
 * state) so that a bad pointer, a range past an allocation's end, a double
 * free or a wrong copy kind is refused with CUDA's error code before
 * anything is touched (see cuemu_runtime.h).
 *
 * The table of allocations is an array sorted by base address, guarded by
 * one mutex. Freed allocations stay in it (state FREED) until an allocation
 * reuses their addresses, or until too many have piled up, so that a use
 * after free can be told apart from a stray pointer.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_runtime.h>

#include "check/cuemu_check.h"
#include "runtime/cuemu_rt_internal.h"

/* cudaMalloc's alignment, cudaMallocPitch's pitch alignment, and the
 * alignment of pinned host memory. */
#define CUEMU_RT_ALIGN 256u
#define CUEMU_RT_PITCH_ALIGN 512u
#define CUEMU_RT_HOST_ALIGN 4096u
/* How many freed allocations are remembered at most. */
#define CUEMU_RT_MAX_FREED 4096u

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static cuemu_rt_allocation *table;
static size_t table_len, table_cap, table_freed;

/* The index of the first entry whose base is above `p`. Locked. */
static size_t upper_bound(uintptr_t p) {
  size_t lo = 0, hi = table_len;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if ((uintptr_t)table[mid].base <= p)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The entry holding `p`, or NULL. Locked. */
static cuemu_rt_allocation *find_locked(const void *p) {
  size_t i = upper_bound((uintptr_t)p);
  if (i == 0)
    return NULL;
  cuemu_rt_allocation *a = &table[i - 1];
  uintptr_t base = (uintptr_t)a->base;
  if ((uintptr_t)p - base < (a->size ? a->size : 1))
    return a;
  return NULL;
}

static void remove_at(size_t i) {
  if (table[i].state == CUEMU_RT_MEMORY_FREED)
    --table_freed;
  memmove(&table[i], &table[i + 1], (table_len - i - 1) * sizeof *table);
  --table_len;
}

/* Forgets every freed entry. Locked. */
static void drop_freed(void) {
  size_t j = 0;
  for (size_t i = 0; i < table_len; ++i)
    if (table[i].state != CUEMU_RT_MEMORY_FREED)
      table[j++] = table[i];
  table_len = j;
  table_freed = 0;
}

/* Adds a live entry, replacing the freed entries it overlaps. Returns 0, or
 * a CUDA code: cudaErrorHostMemoryAlreadyRegistered when it overlaps a live
 * one, cudaErrorMemoryAllocation when the table cannot grow. Locked. */
static int insert_locked(void *base, size_t size, int kind, unsigned flags) {
  uintptr_t b = (uintptr_t)base, e = b + (size ? size : 1);
  size_t i = upper_bound(b);
  if (i > 0) {
    cuemu_rt_allocation *prev = &table[i - 1];
    if ((uintptr_t)prev->base + (prev->size ? prev->size : 1) > b) {
      if (prev->state == CUEMU_RT_MEMORY_LIVE)
        return cudaErrorHostMemoryAlreadyRegistered;
      remove_at(--i);
    }
  }
  while (i < table_len && (uintptr_t)table[i].base < e) {
    if (table[i].state == CUEMU_RT_MEMORY_LIVE)
      return cudaErrorHostMemoryAlreadyRegistered;
    remove_at(i);
  }
  if (table_len == table_cap) {
    size_t cap = table_cap ? 2 * table_cap : 64;
    cuemu_rt_allocation *t = realloc(table, cap * sizeof *t);
    if (!t)
      return cudaErrorMemoryAllocation;
    table = t;
    table_cap = cap;
  }
  memmove(&table[i + 1], &table[i], (table_len - i) * sizeof *table);
  table[i] = (cuemu_rt_allocation){base, size, kind, CUEMU_RT_MEMORY_LIVE,
                                   flags};
  ++table_len;
  return 0;
}

/* Tracks a new allocation; frees it and fails when it cannot. */
static int track_new(void *p, size_t size, int kind, unsigned flags) {
  pthread_mutex_lock(&table_lock);
  int code = insert_locked(p, size, kind, flags);
  pthread_mutex_unlock(&table_lock);
  if (code) {
    free(p);
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  }
  return cudaSuccess;
}

int cuemu_rt_memory_find(const void *p, cuemu_rt_allocation *out) {
  pthread_mutex_lock(&table_lock);
  cuemu_rt_allocation *a = find_locked(p);
  if (a && out)
    *out = *a;
  pthread_mutex_unlock(&table_lock);
  return a != NULL;
}

size_t cuemu__rt_memory_snapshot(cuemu_rt_allocation **out) {
  pthread_mutex_lock(&table_lock);
  size_t n = table_len;
  *out = malloc((n ? n : 1) * sizeof **out);
  if (*out)
    memcpy(*out, table, n * sizeof **out);
  else
    n = 0;
  pthread_mutex_unlock(&table_lock);
  return n;
}

int cuemu_rt_memory_track(void *base, size_t size, int kind) {
  if (!base || kind < CUEMU_RT_MEMORY_DEVICE || kind > CUEMU_RT_MEMORY_SYMBOL)
    return cuemu_rt_error(cudaErrorInvalidValue);
  pthread_mutex_lock(&table_lock);
  int code = insert_locked(base, size, kind, 0);
  pthread_mutex_unlock(&table_lock);
  return cuemu_rt_error(code == cudaErrorHostMemoryAlreadyRegistered
                            ? cudaErrorInvalidValue
                            : code);
}

/* Removes the live entry based at `p` whose kind is one of `kinds` (a bit
 * mask of 1 << kind) and returns 1, or returns 0. When `keep` is set the
 * entry stays, as FREED. Locked inside. */
static int release(void *p, unsigned kinds, int keep) {
  int found = 0;
  pthread_mutex_lock(&table_lock);
  cuemu_rt_allocation *a = find_locked(p);
  if (a && a->base == p && a->state == CUEMU_RT_MEMORY_LIVE &&
      (kinds & (1u << a->kind))) {
    found = 1;
    if (keep) {
      a->state = CUEMU_RT_MEMORY_FREED;
      if (++table_freed > CUEMU_RT_MAX_FREED)
        drop_freed();
    } else {
      remove_at((size_t)(a - table));
    }
  }
  pthread_mutex_unlock(&table_lock);
  return found;
}

int cuemu_rt_memory_untrack(void *base) {
  unsigned kinds = 1u << CUEMU_RT_MEMORY_SYMBOL | 1u << CUEMU_RT_MEMORY_DEVICE |
                   1u << CUEMU_RT_MEMORY_MANAGED | 1u << CUEMU_RT_MEMORY_HOST |
                   1u << CUEMU_RT_MEMORY_REGISTERED;
  return release(base, kinds, 0) ? cudaSuccess
                                 : cuemu_rt_error(cudaErrorInvalidValue);
}

void cuemu__rt_memory_reset(void) {
  pthread_mutex_lock(&table_lock);
  for (size_t i = 0; i < table_len; ++i) {
    cuemu_rt_allocation *a = &table[i];
    if (a->state == CUEMU_RT_MEMORY_LIVE &&
        (a->kind == CUEMU_RT_MEMORY_DEVICE ||
         a->kind == CUEMU_RT_MEMORY_MANAGED || a->kind == CUEMU_RT_MEMORY_HOST))
      free(a->base);
  }
  /* Registered host memory is unregistered; tracked symbols stay. */
  size_t j = 0;
  for (size_t i = 0; i < table_len; ++i)
    if (table[i].kind == CUEMU_RT_MEMORY_SYMBOL &&
        table[i].state == CUEMU_RT_MEMORY_LIVE)
      table[j++] = table[i];
  table_len = j;
  table_freed = 0;
  pthread_mutex_unlock(&table_lock);
  cuemu__check_alloc_reset();
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
  void *p = aligned_alloc(align, (size + align - 1) / align * align);
  if (!p)
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  int code = track_new(p, size, kind, flags);
  if (code)
    return code;
  cuemu__check_alloc_note(p, size, kind, site);
  *ptr = p;
  return cudaSuccess;
}

int cuemu_rt_malloc(void **ptr, size_t size) {
  return allocate(ptr, size, CUEMU_RT_ALIGN, CUEMU_RT_MEMORY_DEVICE, 0,
                  __builtin_return_address(0));
}

int cuemu_rt_malloc_managed(void **ptr, size_t size, unsigned flags) {
  if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost)
    return cuemu_rt_error(cudaErrorInvalidValue);
  return allocate(ptr, size, CUEMU_RT_ALIGN, CUEMU_RT_MEMORY_MANAGED, flags,
                  __builtin_return_address(0));
}

int cuemu_rt_malloc_pitch(void **ptr, size_t *pitch, size_t width,
                          size_t height) {
  if (!ptr || !pitch)
    return cuemu_rt_error(cudaErrorInvalidValue);
  size_t p = (width + CUEMU_RT_PITCH_ALIGN - 1) / CUEMU_RT_PITCH_ALIGN *
             CUEMU_RT_PITCH_ALIGN;
  if (p < width || (height && p > SIZE_MAX / height))
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  int code = allocate(ptr, p * height, CUEMU_RT_ALIGN, CUEMU_RT_MEMORY_DEVICE,
                      0, __builtin_return_address(0));
  if (code == cudaSuccess)
    *pitch = p;
  return code;
}

int cuemu_rt_free(void *ptr) {
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  if (!ptr)
    return cudaSuccess;
  if (!release(ptr,
               1u << CUEMU_RT_MEMORY_DEVICE | 1u << CUEMU_RT_MEMORY_MANAGED, 1)) {
    cuemu__check_bad_free(ptr, __builtin_return_address(0));
    return cuemu_rt_error(cudaErrorInvalidValue);
  }
  cuemu__check_alloc_free(ptr);
  free(ptr);
  return cudaSuccess;
}

int cuemu_rt_host_alloc(void **ptr, size_t size, unsigned flags) {
  if (flags & ~(unsigned)(cudaHostAllocPortable | cudaHostAllocMapped |
                          cudaHostAllocWriteCombined))
    return cuemu_rt_error(cudaErrorInvalidValue);
  return allocate(ptr, size, CUEMU_RT_HOST_ALIGN, CUEMU_RT_MEMORY_HOST, flags,
                  __builtin_return_address(0));
}

int cuemu_rt_free_host(void *ptr) {
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  if (!ptr)
    return cudaSuccess;
  if (!release(ptr, 1u << CUEMU_RT_MEMORY_HOST, 1)) {
    cuemu__check_bad_free(ptr, __builtin_return_address(0));
    return cuemu_rt_error(cudaErrorInvalidValue);
  }
  cuemu__check_alloc_free(ptr);
  free(ptr);
  return cudaSuccess;
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
  pthread_mutex_lock(&table_lock);
  int code = insert_locked(ptr, size, CUEMU_RT_MEMORY_REGISTERED, flags);
  pthread_mutex_unlock(&table_lock);
  return cuemu_rt_error(code);
}

int cuemu_rt_host_unregister(void *ptr) {
  if (!ptr)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  if (!release(ptr, 1u << CUEMU_RT_MEMORY_REGISTERED, 0))
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
 * one live allocation that the device can access; otherwise they may be
 * any host memory, but when `p` is in a live allocation they must lie
 * inside it. (A freed allocation's addresses may since have been reused by
 * the host's malloc, so they are host memory.) Returns 0 or
 * cudaErrorInvalidValue. */
static int check_range(const void *p, size_t extent, int device) {
  cuemu_rt_allocation a;
  if (!cuemu_rt_memory_find(p, &a) || a.state != CUEMU_RT_MEMORY_LIVE)
    return device ? cudaErrorInvalidValue : 0;
  size_t offset = (size_t)((uintptr_t)p - (uintptr_t)a.base);
  if (extent > a.size - offset)
    return cudaErrorInvalidValue;
  return 0;
}

/* Checks both sides of a copy of `kind`; dst_extent and src_extent are the
 * bytes it touches from each. Returns 0 or a CUDA code. */
static int check_copy(void *dst, size_t dst_extent, const void *src,
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

int cuemu_rt_memcpy(void *dst, const void *src, size_t count, int kind) {
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
    return cuemu_rt_error(cudaErrorInvalidMemcpyDirection);
  if (count == 0)
    return cudaSuccess;
  int code = check_copy(dst, count, src, count, kind);
  if (code)
    return cuemu_rt_error(code);
  memmove(dst, src, count);
  cuemu__check_mark_init(dst, count);
  return cudaSuccess;
}

int cuemu_rt_memcpy_2d(void *dst, size_t dpitch, const void *src,
                       size_t spitch, size_t width, size_t height, int kind) {
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
    return cuemu_rt_error(cudaErrorInvalidMemcpyDirection);
  if (width == 0 || height == 0)
    return cudaSuccess;
  if (width > dpitch || width > spitch)
    return cuemu_rt_error(cudaErrorInvalidPitchValue);
  if (height - 1 > (SIZE_MAX - width) / (dpitch > spitch ? dpitch : spitch))
    return cuemu_rt_error(cudaErrorInvalidValue);
  int code = check_copy(dst, (height - 1) * dpitch + width, src,
                        (height - 1) * spitch + width, kind);
  if (code)
    return cuemu_rt_error(code);
  for (size_t row = 0; row < height; ++row)
    memmove((char *)dst + row * dpitch, (const char *)src + row * spitch,
            width);
  for (size_t row = 0; row < height; ++row)
    cuemu__check_mark_init((char *)dst + row * dpitch, width);
  return cudaSuccess;
}

int cuemu_rt_memset(void *ptr, int value, size_t count) {
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  if (count == 0)
    return cudaSuccess;
  if (!ptr || check_range(ptr, count, 1))
    return cuemu_rt_error(cudaErrorInvalidValue);
  memset(ptr, value, count);
  cuemu__check_mark_init(ptr, count);
  return cudaSuccess;
}

int cuemu_rt_memset_2d(void *ptr, size_t pitch, int value, size_t width,
                       size_t height) {
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  if (width == 0 || height == 0)
    return cudaSuccess;
  if (width > pitch)
    return cuemu_rt_error(cudaErrorInvalidPitchValue);
  if (height - 1 > (SIZE_MAX - width) / pitch)
    return cuemu_rt_error(cudaErrorInvalidValue);
  if (!ptr || check_range(ptr, (height - 1) * pitch + width, 1))
    return cuemu_rt_error(cudaErrorInvalidValue);
  for (size_t row = 0; row < height; ++row) {
    memset((char *)ptr + row * pitch, value, width);
    cuemu__check_mark_init((char *)ptr + row * pitch, width);
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
  attributes->device = 0;
  switch (a.kind) {
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
