/*
 * cuemu_rt_mempool.c: stream-ordered allocation (cudaMallocAsync,
 * cudaMallocFromPoolAsync, cudaFreeAsync) and memory pools: each device's
 * default pool, pools of cudaMemPoolCreate, each device's current pool, their
 * attributes (reuse policies, release threshold, reserved and used memory
 * with their high-water marks) and access (see cuemu_runtime_host.h).
 *
 * Every allocation is a device allocation of its own (cudaMalloc's body),
 * so memcheck and the quarantine of freed memory see a use after
 * cudaFreeAsync exactly as after cudaFree. A pool only keeps the books as
 * CUDA's does: it reserves memory in granules of 2 MiB, keeps what is freed
 * for reuse, and gives back what exceeds its release threshold when the
 * host synchronises (cuemu_rt_mem_pools_release) or at cudaMemPoolTrimTo.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_host.h>

#include "runtime/cuemu_rt_capture.h"
#include "runtime/cuemu_rt_internal.h"

/* Pools reserve device memory in granules of this many bytes. */
#define CUEMU_POOL_GRANULE ((size_t)2 << 20)

/* The devices that have pools. */
#define CUEMU_POOL_DEVICES 64

/* Allocations of a pool are rounded up to this alignment in its books. */
#define CUEMU_POOL_ALIGN ((size_t)512)

struct CUmemPoolHandle_st {
  struct cudaMemPoolProps props;
  int reuse[3]; /* cudaMemPoolReuse*: FollowEvent, Opportunistic, Internal */
  uint64_t release_threshold;
  uint64_t reserved, reserved_high, used, used_high;
  int is_default;
  struct CUmemPoolHandle_st *next; /* the list of live pools */
};

/* A live stream-ordered allocation. */
typedef struct pool_allocation {
  void *ptr;
  size_t bytes; /* as the pool counts it */
  cudaMemPool_t pool;
} pool_allocation;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* Every live pool, the devices' default pools (made when first needed)
 * and their current pools (NULL: the default one). */
static cudaMemPool_t pools;
static cudaMemPool_t default_pools[CUEMU_POOL_DEVICES];
static cudaMemPool_t current[CUEMU_POOL_DEVICES];
static pool_allocation *allocations;
static size_t allocation_count, allocation_capacity;

/* Non-zero when `pool` is a live pool (the lock held). */
static int pool_live(cudaMemPool_t pool) {
  for (cudaMemPool_t p = pools; p; p = p->next)
    if (p == pool)
      return 1;
  return 0;
}

static int check_device(int device);

/* A new pool of `props`, in the list of live pools (the lock held). */
static cudaMemPool_t pool_new(const struct cudaMemPoolProps *props) {
  cudaMemPool_t p = calloc(1, sizeof *p);
  if (!p)
    return NULL;
  p->props = *props;
  p->reuse[0] = p->reuse[1] = p->reuse[2] = 1;
  p->next = pools;
  pools = p;
  return p;
}

/* The default pool of a device (the lock held); NULL without memory. */
static cudaMemPool_t default_of(int device) {
  if (!default_pools[device]) {
    struct cudaMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    default_pools[device] = pool_new(&props);
    if (default_pools[device])
      default_pools[device]->is_default = 1;
  }
  return default_pools[device];
}

/* The current pool of a device (the lock held). */
static cudaMemPool_t current_of(int device) {
  return current[device] ? current[device] : default_of(device);
}

static void note_high(cudaMemPool_t p) {
  if (p->reserved > p->reserved_high)
    p->reserved_high = p->reserved;
  if (p->used > p->used_high)
    p->used_high = p->used;
}

/* Gives back whole unused granules of the pool while it keeps at least
 * `keep` bytes (the lock held). */
static void pool_shrink(cudaMemPool_t p, uint64_t keep) {
  while (p->reserved > keep && p->reserved - keep >= CUEMU_POOL_GRANULE &&
         p->reserved - p->used >= CUEMU_POOL_GRANULE)
    p->reserved -= CUEMU_POOL_GRANULE;
}

/* Books `bytes` in the pool, reserving more granules when its free memory
 * is short; 0 when the pool's maxSize forbids it (the lock held). */
static int pool_take(cudaMemPool_t p, size_t bytes) {
  uint64_t free_bytes = p->reserved - p->used;
  if (free_bytes < bytes) {
    uint64_t more = (bytes - free_bytes + CUEMU_POOL_GRANULE - 1) /
                    CUEMU_POOL_GRANULE * CUEMU_POOL_GRANULE;
    if (p->props.maxSize && p->reserved + more > p->props.maxSize)
      return 0;
    p->reserved += more;
  }
  p->used += bytes;
  note_high(p);
  return 1;
}

/* Removes the record of `ptr` and returns its pool's books to the pool
 * (the lock held); 0 when `ptr` is no stream-ordered allocation. */
static int forget(const void *ptr) {
  for (size_t i = 0; i < allocation_count; ++i) {
    if (allocations[i].ptr != ptr)
      continue;
    cudaMemPool_t p = allocations[i].pool;
    if (p)
      p->used -= allocations[i].bytes;
    allocations[i] = allocations[--allocation_count];
    return 1;
  }
  return 0;
}

void cuemu__rt_pool_forget(const void *ptr) {
  pthread_mutex_lock(&lock);
  forget(ptr);
  pthread_mutex_unlock(&lock);
}

void cuemu__rt_pool_reset(void) {
  pthread_mutex_lock(&lock);
  while (pools) {
    cudaMemPool_t next = pools->next;
    free(pools);
    pools = next;
  }
  memset(default_pools, 0, sizeof default_pools);
  memset(current, 0, sizeof current);
  free(allocations);
  allocations = NULL;
  allocation_count = allocation_capacity = 0;
  pthread_mutex_unlock(&lock);
}

void cuemu_rt_mem_pools_release(void) {
  pthread_mutex_lock(&lock);
  for (cudaMemPool_t p = pools; p; p = p->next)
    pool_shrink(p, p->release_threshold);
  pthread_mutex_unlock(&lock);
}

/* The place of stream-ordered allocation: every cudaMallocAsync and
 * cudaMallocFromPoolAsync comes here (stream capture turns them into graph
 * nodes here, before anything is allocated). */
int cuemu_rt_malloc_async(void **ptr, size_t size, cudaMemPool_t pool,
                          void *stream) {
  if (!ptr)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int code = cuemu__rt_check_stream(stream);
  if (code)
    return code;
  int device = 0;
  cuemu_rt_get_device(&device);
  pthread_mutex_lock(&lock);
  if (!pool && device >= 0 && device < CUEMU_POOL_DEVICES)
    pool = current_of(device);
  int live = pool && pool_live(pool);
  pthread_mutex_unlock(&lock);
  if (!live)
    return cuemu_rt_error(cudaErrorInvalidValue);
  /* On a capturing stream: a memory allocation node (cuemu_rt_capture.h). */
  code = cuemu__rt_capture_alloc(stream, size, ptr);
  if (code != CUEMU__RT_NOT_CAPTURED)
    return code;
  if (size == 0) {
    *ptr = NULL;
    return cuemu__rt_check_sticky();
  }
  size_t bytes = (size + CUEMU_POOL_ALIGN - 1) / CUEMU_POOL_ALIGN *
                 CUEMU_POOL_ALIGN;
  if (bytes < size)
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  code = cuemu__rt_device_alloc(ptr, size, __builtin_return_address(0));
  if (code)
    return code;
  pthread_mutex_lock(&lock);
  int booked = pool_live(pool) && pool_take(pool, bytes);
  if (booked && allocation_count == allocation_capacity) {
    size_t n = allocation_capacity ? 2 * allocation_capacity : 64;
    pool_allocation *grown = realloc(allocations, n * sizeof *grown);
    if (grown) {
      allocations = grown;
      allocation_capacity = n;
    } else {
      pool->used -= bytes;
      booked = 0;
    }
  }
  if (booked)
    allocations[allocation_count++] = (pool_allocation){*ptr, bytes, pool};
  pthread_mutex_unlock(&lock);
  if (!booked) {
    cuemu__rt_device_free(*ptr, NULL);
    *ptr = NULL;
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  }
  return cudaSuccess;
}

/* The place of stream-ordered frees (see cuemu_rt_malloc_async). The
 * stream has run everything before the free, so it frees at once. */
int cuemu_rt_free_async(void *ptr, void *stream) {
  int code = cuemu__rt_check_stream(stream);
  if (code)
    return code;
  if (!ptr)
    return cuemu_rt_error(cudaErrorInvalidValue);
  /* On a capturing stream: a memory free node. */
  code = cuemu__rt_capture_free(stream, ptr);
  if (code != CUEMU__RT_NOT_CAPTURED)
    return code;
  code = cuemu__rt_device_free(ptr, __builtin_return_address(0));
  if (code == cudaSuccess)
    cuemu__rt_pool_forget(ptr);
  return code;
}

int cuemu_rt_mem_pool_create(cudaMemPool_t *pool,
                             const struct cudaMemPoolProps *props) {
  if (!pool || !props)
    return cuemu_rt_error(cudaErrorInvalidValue);
  if (props->allocType == cudaMemAllocationTypeManaged ||
      props->location.type == cudaMemLocationTypeHost ||
      props->location.type == cudaMemLocationTypeHostNuma ||
      props->location.type == cudaMemLocationTypeHostNumaCurrent ||
      props->handleTypes == cudaMemHandleTypePosixFileDescriptor ||
      props->handleTypes == cudaMemHandleTypeFabric)
    /* Managed and host pools, and shareable handles, are not emulated
     * (memoryPoolSupportedHandleTypes is 0). */
    return cuemu_rt_error(cudaErrorNotSupported);
  if (props->allocType != cudaMemAllocationTypePinned ||
      props->location.type != cudaMemLocationTypeDevice ||
      props->handleTypes != cudaMemHandleTypeNone)
    return cuemu_rt_error(cudaErrorInvalidValue);
  if (check_device(props->location.id))
    return cuemu_rt_error(cudaErrorInvalidDevice);
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  pthread_mutex_lock(&lock);
  cudaMemPool_t p = pool_new(props);
  pthread_mutex_unlock(&lock);
  if (!p)
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  *pool = p;
  return cudaSuccess;
}

int cuemu_rt_mem_pool_destroy(cudaMemPool_t pool) {
  pthread_mutex_lock(&lock);
  int live = pool && pool_live(pool) && !pool->is_default;
  if (live) {
    cudaMemPool_t *link = &pools;
    while (*link != pool)
      link = &(*link)->next;
    *link = pool->next;
    /* As CUDA: the device's current pool becomes its default pool again;
     * allocations still outstanding stay valid until they are freed. */
    for (int d = 0; d < CUEMU_POOL_DEVICES; ++d)
      if (current[d] == pool)
        current[d] = NULL;
    for (size_t i = 0; i < allocation_count; ++i)
      if (allocations[i].pool == pool)
        allocations[i].pool = NULL;
  }
  pthread_mutex_unlock(&lock);
  if (!live)
    return cuemu_rt_error(cudaErrorInvalidValue);
  free(pool);
  return cudaSuccess;
}

/* Sets an attribute of a live pool (the lock held); a CUDA code. */
static int set_attribute(cudaMemPool_t pool, int attr, const void *value) {
  switch (attr) {
  case cudaMemPoolReuseFollowEventDependencies:
  case cudaMemPoolReuseAllowOpportunistic:
  case cudaMemPoolReuseAllowInternalDependencies:
    pool->reuse[attr - 1] = *(const int *)value != 0;
    return cudaSuccess;
  case cudaMemPoolAttrReleaseThreshold:
    pool->release_threshold = *(const uint64_t *)value;
    return cudaSuccess;
  case cudaMemPoolAttrReservedMemHigh:
  case cudaMemPoolAttrUsedMemHigh:
    /* Only 0, which resets the high-water mark to the current value. */
    if (*(const uint64_t *)value != 0)
      return cudaErrorInvalidValue;
    if (attr == cudaMemPoolAttrReservedMemHigh)
      pool->reserved_high = pool->reserved;
    else
      pool->used_high = pool->used;
    return cudaSuccess;
  default: /* the current values are read-only */
    return cudaErrorInvalidValue;
  }
}

/* Reads an attribute of a live pool (the lock held); a CUDA code. */
static int get_attribute(cudaMemPool_t pool, int attr, void *value) {
  switch (attr) {
  case cudaMemPoolReuseFollowEventDependencies:
  case cudaMemPoolReuseAllowOpportunistic:
  case cudaMemPoolReuseAllowInternalDependencies:
    *(int *)value = pool->reuse[attr - 1];
    return cudaSuccess;
  case cudaMemPoolAttrReleaseThreshold:
    *(uint64_t *)value = pool->release_threshold;
    return cudaSuccess;
  case cudaMemPoolAttrReservedMemCurrent:
    *(uint64_t *)value = pool->reserved;
    return cudaSuccess;
  case cudaMemPoolAttrReservedMemHigh:
    *(uint64_t *)value = pool->reserved_high;
    return cudaSuccess;
  case cudaMemPoolAttrUsedMemCurrent:
    *(uint64_t *)value = pool->used;
    return cudaSuccess;
  case cudaMemPoolAttrUsedMemHigh:
    *(uint64_t *)value = pool->used_high;
    return cudaSuccess;
  default:
    return cudaErrorInvalidValue;
  }
}

/* cudaMemPoolSetAttribute (`set`) or cudaMemPoolGetAttribute. */
static int pool_attribute(cudaMemPool_t pool, int attr, void *value,
                          int set) {
  if (!value)
    return cuemu_rt_error(cudaErrorInvalidValue);
  pthread_mutex_lock(&lock);
  int code = !pool_live(pool) ? cudaErrorInvalidValue
             : set            ? set_attribute(pool, attr, value)
                              : get_attribute(pool, attr, value);
  pthread_mutex_unlock(&lock);
  return cuemu_rt_error(code);
}

int cuemu_rt_mem_pool_set_attribute(cudaMemPool_t pool, int attr,
                                    void *value) {
  return pool_attribute(pool, attr, value, 1);
}

int cuemu_rt_mem_pool_get_attribute(cudaMemPool_t pool, int attr,
                                    void *value) {
  return pool_attribute(pool, attr, value, 0);
}

int cuemu_rt_mem_pool_trim_to(cudaMemPool_t pool, size_t min_bytes_to_keep) {
  pthread_mutex_lock(&lock);
  int live = pool_live(pool);
  if (live)
    pool_shrink(pool, min_bytes_to_keep);
  pthread_mutex_unlock(&lock);
  return live ? cudaSuccess : cuemu_rt_error(cudaErrorInvalidValue);
}

/* The device of a location that must name one, or -1. */
static int location_device(const struct cudaMemLocation *location) {
  int count = 0;
  cuemu_rt_get_device_count(&count);
  if (location->type != cudaMemLocationTypeDevice || location->id < 0 ||
      location->id >= count)
    return -1;
  return location->id;
}

/* The device of a live pool, or -1. */
static int pool_owner(cudaMemPool_t pool) {
  pthread_mutex_lock(&lock);
  int owner = pool_live(pool) ? pool->props.location.id : -1;
  pthread_mutex_unlock(&lock);
  return owner;
}

int cuemu_rt_mem_pool_set_access(cudaMemPool_t pool,
                                 const struct cudaMemAccessDesc *descs,
                                 size_t count) {
  if (count && !descs)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int owner = pool_owner(pool);
  if (owner < 0)
    return cuemu_rt_error(cudaErrorInvalidValue);
  for (size_t i = 0; i < count; ++i) {
    if (descs[i].flags != cudaMemAccessFlagsProtNone &&
        descs[i].flags != cudaMemAccessFlagsProtRead &&
        descs[i].flags != cudaMemAccessFlagsProtReadWrite)
      return cuemu_rt_error(cudaErrorInvalidValue);
    int device = location_device(&descs[i].location);
    if (device < 0)
      return cuemu_rt_error(cudaErrorInvalidDevice);
    /* The pool's own device always reads and writes its memory. */
    if (device == owner && descs[i].flags != cudaMemAccessFlagsProtReadWrite)
      return cuemu_rt_error(cudaErrorInvalidDevice);
  }
  return cudaSuccess;
}

int cuemu_rt_mem_pool_get_access(enum cudaMemAccessFlags *flags,
                                 cudaMemPool_t pool,
                                 const struct cudaMemLocation *location) {
  if (!flags || !location)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int owner = pool_owner(pool);
  if (owner < 0)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int device = location_device(location);
  if (device < 0)
    return cuemu_rt_error(cudaErrorInvalidDevice);
  *flags = device == owner ? cudaMemAccessFlagsProtReadWrite
                           : cudaMemAccessFlagsProtNone;
  return cudaSuccess;
}

/* cudaErrorInvalidDevice unless `device` is a device with pools. */
static int check_device(int device) {
  int count = 0;
  cuemu_rt_get_device_count(&count);
  return device < 0 || device >= count || device >= CUEMU_POOL_DEVICES
             ? cudaErrorInvalidDevice
             : 0;
}

int cuemu_rt_device_get_default_mem_pool(cudaMemPool_t *pool, int device) {
  if (!pool)
    return cuemu_rt_error(cudaErrorInvalidValue);
  if (check_device(device))
    return cuemu_rt_error(cudaErrorInvalidDevice);
  pthread_mutex_lock(&lock);
  cudaMemPool_t p = default_of(device);
  pthread_mutex_unlock(&lock);
  if (!p)
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  *pool = p;
  return cuemu__rt_check_sticky();
}

int cuemu_rt_device_set_mem_pool(int device, cudaMemPool_t pool) {
  if (check_device(device))
    return cuemu_rt_error(cudaErrorInvalidDevice);
  pthread_mutex_lock(&lock);
  int live = pool && pool_live(pool) && pool->props.location.id == device;
  if (live)
    current[device] = pool->is_default ? NULL : pool;
  pthread_mutex_unlock(&lock);
  return live ? cudaSuccess : cuemu_rt_error(cudaErrorInvalidValue);
}

int cuemu_rt_device_get_mem_pool(cudaMemPool_t *pool, int device) {
  if (!pool)
    return cuemu_rt_error(cudaErrorInvalidValue);
  if (check_device(device))
    return cuemu_rt_error(cudaErrorInvalidDevice);
  pthread_mutex_lock(&lock);
  cudaMemPool_t p = current_of(device);
  pthread_mutex_unlock(&lock);
  if (!p)
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  *pool = p;
  return cudaSuccess;
}
