/*
 * cuemu_rt_managed.c: unified-memory hints: cudaMemPrefetchAsync,
 * cudaMemAdvise, cudaMemRangeGetAttribute(s) and cudaStreamAttachMemAsync
 * (see cuemu_runtime_host.h).
 *
 * Host and device share one memory here, so no data moves; the calls
 * validate their arguments as CUDA does and remember what they were told,
 * so that cudaMemRangeGetAttribute answers as on a GPU: each hint is a
 * record over a byte range, later records overriding earlier ones, and a
 * range's attribute is the common value of its pieces (CUDA's
 * cudaInvalidDeviceId, or 0 for read-mostly, when they differ).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_host.h>

#include "base/cuemu_config.h"
#include "device/cuemu_handles.h"
#include "runtime/cuemu_rt_default_stream.h"
#include "runtime/cuemu_rt_internal.h"
#include "runtime/cuemu_rt_managed_guard.h"

/* What a record sets over its range. */
enum hint_kind {
  HINT_READ_MOSTLY = 1,   /* value: 1 set, 0 unset */
  HINT_PREFERRED = 2,     /* value: the location; type None unsets */
  HINT_ACCESSED_BY = 3,   /* value: the location; set or unset */
  HINT_PREFETCHED = 4     /* value: the location */
};

typedef struct hint {
  uintptr_t start, end;
  int kind;
  int set; /* read mostly, accessed by: set (1) or unset (0) */
  struct cudaMemLocation location;
} hint;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static hint *hints;
static size_t hint_count, hint_capacity;

/* Forgets the hints that lie inside a range no longer allocated. */
static void forget_stale(void) {
  size_t kept = 0;
  for (size_t i = 0; i < hint_count; ++i) {
    cuemu_rt_allocation a;
    if (cuemu_rt_memory_find((const void *)hints[i].start, &a) &&
        a.state == CUEMU_RT_MEMORY_LIVE)
      hints[kept++] = hints[i];
  }
  hint_count = kept;
}

static int add_hint(const void *ptr, size_t count, int kind, int set,
                    struct cudaMemLocation location) {
  pthread_mutex_lock(&lock);
  if (hint_count == hint_capacity) {
    forget_stale();
    if (hint_count == hint_capacity) {
      size_t n = hint_capacity ? 2 * hint_capacity : 64;
      hint *grown = realloc(hints, n * sizeof *grown);
      if (!grown) {
        pthread_mutex_unlock(&lock);
        return cudaErrorMemoryAllocation;
      }
      hints = grown;
      hint_capacity = n;
    }
  }
  hints[hint_count++] = (hint){(uintptr_t)ptr, (uintptr_t)ptr + count, kind,
                               set, location};
  pthread_mutex_unlock(&lock);
  return cudaSuccess;
}

/* The range must be managed memory, or pageable host memory (the emulated
 * device accesses it, as with pageableMemoryAccess), but not device memory
 * nor past the end of an allocation. */
static int check_managed_range(const void *ptr, size_t count) {
  if (!ptr || count == 0)
    return cudaErrorInvalidValue;
  cuemu_rt_allocation a;
  if (!cuemu_rt_memory_find(ptr, &a) || a.state != CUEMU_RT_MEMORY_LIVE)
    return 0;
  if (a.kind == CUEMU_RT_MEMORY_DEVICE)
    return cudaErrorInvalidValue;
  size_t offset = (size_t)((uintptr_t)ptr - (uintptr_t)a.base);
  return count > a.size - offset ? cudaErrorInvalidValue : 0;
}

/* A location that names the device or the host; for a device, its id must
 * be one; a host NUMA node is the host here. */
static int check_location(struct cudaMemLocation *l) {
  int devices = 0;
  cuemu_rt_get_device_count(&devices);
  switch (l->type) {
  case cudaMemLocationTypeDevice:
    return l->id < 0 || l->id >= devices ? cudaErrorInvalidDevice : 0;
  case cudaMemLocationTypeHost:
    l->id = 0;
    return 0;
  case cudaMemLocationTypeHostNuma:
    return l->id != 0 ? cudaErrorInvalidValue : 0;
  case cudaMemLocationTypeHostNumaCurrent:
    l->type = cudaMemLocationTypeHostNuma;
    l->id = 0;
    return 0;
  default:
    return cudaErrorInvalidValue;
  }
}

/* CUDA prefetches only with devices that have concurrentManagedAccess
 * (CUEMU_DEVICE's cma): the destination device and the stream's.
 * cudaErrorInvalidDevice otherwise. */
static int check_concurrent(const struct cudaMemLocation *l, void *stream) {
  int device = cuemu__handle_stream_device(stream);
  if (device >= 0 && !cuemu__config_device_of(device)->concurrent_managed)
    return cudaErrorInvalidDevice;
  if (l && l->type == cudaMemLocationTypeDevice &&
      !cuemu__config_device_of(l->id)->concurrent_managed)
    return cudaErrorInvalidDevice;
  return 0;
}

int cuemu_rt_mem_prefetch_async(const void *ptr, size_t count,
                                struct cudaMemLocation location,
                                unsigned flags, void *stream) {
  /* Stream-ordered with nothing to wait for: the data stays where it is,
   * and the last prefetch location is the last one asked for when the
   * call is issued, as CUDA documents it. */
  int code = cuemu__rt_stream_valid(stream);
  if (code)
    return code;
  if (flags != 0)
    return cuemu_rt_error(cudaErrorInvalidValue);
  code = check_location(&location);
  if (!code)
    code = check_concurrent(&location, stream);
  if (!code)
    code = check_managed_range(ptr, count);
  if (code)
    return cuemu_rt_error(code);
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  return cuemu_rt_error(add_hint(ptr, count, HINT_PREFETCHED, 1, location));
}

int cuemu_rt_mem_batch_async(void **ptrs, size_t *sizes, size_t count,
                             struct cudaMemLocation *locations,
                             size_t *location_starts, size_t nlocations,
                             unsigned long long flags, void *stream,
                             int discard) {
  int code = cuemu__rt_stream_valid(stream); /* as a prefetch */
  if (code)
    return code;
  /* The legacy default stream is not allowed. */
  if (!ptrs || !sizes || count == 0 || flags != 0 ||
      cuemu__stream_resolve(stream) == NULL || stream == (void *)0x1)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int prefetch = discard != 1;
  if (prefetch) {
    /* Location k applies from location_starts[k]: the first is 0, each
     * start is greater than the one before and less than count. */
    if (!locations || !location_starts || nlocations == 0 ||
        nlocations > count || location_starts[0] != 0)
      return cuemu_rt_error(cudaErrorInvalidValue);
    for (size_t k = 0; k < nlocations; ++k) {
      if ((k > 0 && location_starts[k] <= location_starts[k - 1]) ||
          location_starts[k] >= count)
        return cuemu_rt_error(cudaErrorInvalidValue);
      struct cudaMemLocation l = locations[k];
      code = check_location(&l);
      if (code)
        return cuemu_rt_error(code);
    }
  }
  /* CUDA's batches need concurrentManagedAccess on every device. */
  int devices = 0;
  cuemu_rt_get_device_count(&devices);
  for (int d = 0; d < devices; ++d) {
    struct cudaMemLocation l = {cudaMemLocationTypeDevice, d};
    if (check_concurrent(&l, NULL))
      return cuemu_rt_error(cudaErrorInvalidDevice);
  }
  for (size_t i = 0; i < count; ++i) {
    code = check_managed_range(ptrs[i], sizes[i]);
    if (code)
      return cuemu_rt_error(code);
  }
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  /* A discard leaves the contents as they are (they are indeterminate for
   * CUDA); a prefetch records its location. */
  for (size_t k = 0; prefetch && k < nlocations; ++k) {
    size_t end = k + 1 < nlocations ? location_starts[k + 1] : count;
    struct cudaMemLocation l = locations[k];
    check_location(&l);
    for (size_t i = location_starts[k]; i < end; ++i) {
      code = add_hint(ptrs[i], sizes[i], HINT_PREFETCHED, 1, l);
      if (code)
        return cuemu_rt_error(code);
    }
  }
  return cudaSuccess;
}

int cuemu_rt_mem_advise(const void *ptr, size_t count, int advice,
                        struct cudaMemLocation location) {
  int code = check_managed_range(ptr, count);
  if (code)
    return cuemu_rt_error(code);
  switch (advice) {
  case cudaMemAdviseSetReadMostly:
  case cudaMemAdviseUnsetReadMostly:
    /* The location is ignored. */
    return cuemu_rt_error(add_hint(ptr, count, HINT_READ_MOSTLY,
                                   advice == cudaMemAdviseSetReadMostly,
                                   location));
  case cudaMemAdviseSetPreferredLocation:
  case cudaMemAdviseSetAccessedBy:
  case cudaMemAdviseUnsetAccessedBy:
    code = check_location(&location);
    if (code)
      return cuemu_rt_error(code);
    if (advice == cudaMemAdviseSetPreferredLocation)
      return cuemu_rt_error(
          add_hint(ptr, count, HINT_PREFERRED, 1, location));
    return cuemu_rt_error(add_hint(ptr, count, HINT_ACCESSED_BY,
                                   advice == cudaMemAdviseSetAccessedBy,
                                   location));
  case cudaMemAdviseUnsetPreferredLocation:
    return cuemu_rt_error(add_hint(ptr, count, HINT_PREFERRED, 0, location));
  default:
    return cuemu_rt_error(cudaErrorInvalidValue);
  }
}

/* The legacy device ordinal of a location: the device's id, or
 * cudaCpuDeviceId for the host. */
static int ordinal_of(struct cudaMemLocation l) {
  return l.type == cudaMemLocationTypeDevice ? l.id : cudaCpuDeviceId;
}

/* The state of one piece of a range, after every record (the lock held). */
typedef struct piece_state {
  int read_mostly;
  int has_preferred, has_prefetched;
  struct cudaMemLocation preferred, prefetched;
  int accessed_by_device, accessed_by_host;
} piece_state;

static piece_state state_at(uintptr_t at) {
  piece_state s;
  memset(&s, 0, sizeof s);
  for (size_t i = 0; i < hint_count; ++i) {
    const hint *h = &hints[i];
    if (at < h->start || at >= h->end)
      continue;
    switch (h->kind) {
    case HINT_READ_MOSTLY:
      s.read_mostly = h->set;
      break;
    case HINT_PREFERRED:
      s.has_preferred = h->set;
      s.preferred = h->location;
      break;
    case HINT_ACCESSED_BY:
      if (h->location.type == cudaMemLocationTypeDevice)
        s.accessed_by_device = h->set;
      else
        s.accessed_by_host = h->set;
      break;
    case HINT_PREFETCHED:
      s.has_prefetched = 1;
      s.prefetched = h->location;
      break;
    }
  }
  return s;
}

/* Calls `piece` for the start of every piece of [start, end) over which no
 * record begins or ends (the lock held); stops when it returns 0. */
static void for_each_piece(uintptr_t start, uintptr_t end,
                           int (*piece)(uintptr_t at, void *data),
                           void *data) {
  uintptr_t at = start;
  while (at < end) {
    if (!piece(at, data))
      return;
    uintptr_t next = end;
    for (size_t i = 0; i < hint_count; ++i) {
      if (hints[i].start > at && hints[i].start < next)
        next = hints[i].start;
      if (hints[i].end > at && hints[i].end < next)
        next = hints[i].end;
    }
    at = next;
  }
}

/* The common value of an attribute over a range. */
typedef struct common {
  int attribute;
  int first, same;
  piece_state value;
} common;

static int same_location(int has_a, struct cudaMemLocation a, int has_b,
                         struct cudaMemLocation b) {
  if (!has_a || !has_b)
    return has_a == has_b;
  return a.type == b.type && a.id == b.id;
}

static int fold_piece(uintptr_t at, void *data) {
  common *c = data;
  piece_state s = state_at(at);
  if (c->first) {
    c->value = s;
    c->first = 0;
    return 1;
  }
  switch (c->attribute) {
  case cudaMemRangeAttributeReadMostly:
    c->value.read_mostly &= s.read_mostly;
    break;
  case cudaMemRangeAttributePreferredLocation:
  case cudaMemRangeAttributePreferredLocationType:
  case cudaMemRangeAttributePreferredLocationId:
    if (!same_location(c->value.has_preferred, c->value.preferred,
                       s.has_preferred, s.preferred))
      c->same = 0;
    break;
  case cudaMemRangeAttributeLastPrefetchLocation:
  case cudaMemRangeAttributeLastPrefetchLocationType:
  case cudaMemRangeAttributeLastPrefetchLocationId:
    if (!same_location(c->value.has_prefetched, c->value.prefetched,
                       s.has_prefetched, s.prefetched))
      c->same = 0;
    break;
  case cudaMemRangeAttributeAccessedBy:
    c->value.accessed_by_device &= s.accessed_by_device;
    c->value.accessed_by_host &= s.accessed_by_host;
    break;
  }
  return c->same;
}

int cuemu_rt_mem_range_get_attribute(void *data, size_t data_size,
                                     int attribute, const void *ptr,
                                     size_t count) {
  if (!data)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int code = check_managed_range(ptr, count);
  if (code)
    return cuemu_rt_error(code);
  /* Every attribute is 4 bytes, but AccessedBy: a multiple of 4. */
  if (attribute == cudaMemRangeAttributeAccessedBy
          ? data_size == 0 || data_size % 4
          : data_size != 4)
    return cuemu_rt_error(cudaErrorInvalidValue);
  if (attribute < cudaMemRangeAttributeReadMostly ||
      attribute > cudaMemRangeAttributeLastPrefetchLocationId)
    return cuemu_rt_error(cudaErrorInvalidValue);
  common c = {attribute, 1, 1, {0}};
  pthread_mutex_lock(&lock);
  for_each_piece((uintptr_t)ptr, (uintptr_t)ptr + count, fold_piece, &c);
  pthread_mutex_unlock(&lock);
  int *out = data;
  int has = 0;
  struct cudaMemLocation l = {cudaMemLocationTypeInvalid, 0};
  switch (attribute) {
  case cudaMemRangeAttributeReadMostly:
    *out = c.value.read_mostly;
    return cudaSuccess;
  case cudaMemRangeAttributeAccessedBy: {
    /* The devices that have AccessedBy set, then cudaInvalidDeviceId. */
    size_t n = data_size / 4, k = 0;
    if (c.value.accessed_by_device && k < n)
      out[k++] = 0;
    if (c.value.accessed_by_host && k < n)
      out[k++] = cudaCpuDeviceId;
    while (k < n)
      out[k++] = cudaInvalidDeviceId;
    return cudaSuccess;
  }
  case cudaMemRangeAttributePreferredLocation:
  case cudaMemRangeAttributePreferredLocationType:
  case cudaMemRangeAttributePreferredLocationId:
    has = c.same && c.value.has_preferred;
    l = c.value.preferred;
    break;
  default:
    has = c.same && c.value.has_prefetched;
    l = c.value.prefetched;
    break;
  }
  switch (attribute) {
  case cudaMemRangeAttributePreferredLocation:
  case cudaMemRangeAttributeLastPrefetchLocation:
    *out = has ? ordinal_of(l) : cudaInvalidDeviceId;
    break;
  case cudaMemRangeAttributePreferredLocationType:
  case cudaMemRangeAttributeLastPrefetchLocationType:
    *out = has ? (int)l.type : (int)cudaMemLocationTypeInvalid;
    break;
  default: /* the ids */
    *out = has && l.type != cudaMemLocationTypeHost ? l.id : 0;
    break;
  }
  return cudaSuccess;
}

int cuemu_rt_stream_attach_mem_async(void *stream, void *ptr, size_t length,
                                     unsigned flags) {
  /* Visibility is not emulated: nothing waits for the stream. */
  int code = cuemu__rt_stream_valid(stream);
  if (code)
    return code;
  if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost &&
      flags != cudaMemAttachSingle)
    return cuemu_rt_error(cudaErrorInvalidValue);
  /* cudaMemAttachSingle needs a stream of its own, not a default one. */
  if (flags == cudaMemAttachSingle && (stream == NULL ||
                                       stream == (void *)0x1 ||
                                       stream == (void *)0x2))
    return cuemu_rt_error(cudaErrorInvalidValue);
  if (!ptr)
    return cuemu_rt_error(cudaErrorInvalidValue);
  cuemu_rt_allocation a;
  if (cuemu_rt_memory_find(ptr, &a) && a.state == CUEMU_RT_MEMORY_LIVE) {
    /* The whole of a managed allocation (length 0 or its size); no other
     * kind of tracked memory. */
    if (!cuemu_rt_allocation_managed(&a) || a.base != ptr ||
        (length != 0 && length != a.size))
      return cuemu_rt_error(cudaErrorInvalidValue);
    /* Memory attached to the host or to a stream is the host's to touch
     * while other streams run; attached globally, it is not. */
    if (flags == cudaMemAttachGlobal)
      cuemu__managed_guard_add(a.base, a.size, 1);
    else
      cuemu__managed_guard_remove(a.base, a.size);
  }
  /* Otherwise host memory, which the device accesses (it has
   * pageableMemoryAccess). */
  return cuemu__rt_check_sticky();
}
