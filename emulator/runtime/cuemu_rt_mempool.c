/*
 * cuemu_rt_mempool.c: stream-ordered allocation (cudaMallocAsync,
 * cudaMallocFromPoolAsync, cudaFreeAsync) and memory pools: each device's
 * default pool, pools of cudaMemPoolCreate, each device's current pool, their
 * attributes (reuse policies, release threshold, reserved and used memory
 * with their high-water marks) and access (see cuemu_runtime_host.h).
 *
 * A pool holds device memory of one device, pinned host memory (a pool of
 * location cudaMemLocationTypeHost or HostNuma: host code touches it
 * directly, and devices reach it once cudaMemPoolSetAccess lets them) or
 * managed memory (allocType cudaMemAllocationTypeManaged: every device
 * and the host reach it). Each (allocation type, location) has a default
 * pool, made when first needed, and a current pool (cudaMemSetMemPool);
 * cudaMallocAsync takes from its stream's device's current pool of device
 * memory, cudaMallocFromPoolAsync from any pool.
 *
 * A pool really holds memory (cuemu_rt_pool_arena.h): it reserves chunks
 * of 2 MiB, hands out blocks of whole pages, keeps a freed block and hands
 * it out again to a later allocation that its reuse policy allows, and
 * gives back whole free chunks beyond its release threshold when the host
 * synchronises (cuemu_rt_mem_pools_release) or at cudaMemPoolTrimTo. Each
 * allocation is in the table of allocations while it lives; freed, it is
 * remembered as freed and its pages lose all access, so memcheck and the
 * fault report see a use after cudaFreeAsync as after cudaFree, until the
 * block is handed out again (a stale pointer into a reused block reads the
 * new allocation, which compute-sanitizer does not catch either).
 *
 * On an asynchronous stream an allocation is made when it is issued, and
 * both its allocation point and its cudaFreeAsync are queued in the stream
 * (queue_point, queue_free). Until the stream reaches the allocation point
 * the table of allocations flags it as unreached (memcheck reports a
 * kernel that uses it then: one not ordered after the allocation). The
 * allocation lives until the stream reaches the free; a later allocation
 * that stream order puts after the free may take its block over first
 * (take_over): the block is then kept for it. When the stream reaches the
 * free, the entry in the table stays live (the pointer the new allocation
 * returned is valid for host calls issued after it) but is flagged as
 * unreached again, and its memcheck record starts afresh, until the taking
 * stream reaches the new allocation's point: memcheck reports a kernel
 * that uses it in between.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_host.h>

#include "core/cuemu_allocations.h"
#include "core/cuemu_ptr_map.h"
#include "device/cuemu_handles.h"
#include "runtime/cuemu_rt_capture.h"
#include "runtime/cuemu_rt_graph_memory.h"
#include "runtime/cuemu_rt_internal.h"
#include "runtime/cuemu_rt_pool_arena.h"
#include "runtime/cuemu_rt_pool_deps.h"
#include "runtime/cuemu_rt_pool_ipc.h"
#include "runtime/cuemu_rt_stream_queue.h"

/* The devices that have pools. */
#define CUEMU_POOL_DEVICES 64

struct CUmemPoolHandle_st {
  struct cudaMemPoolProps props;
  int reuse[3]; /* cudaMemPoolReuse*: FollowEvent, Opportunistic, Internal */
  uint64_t release_threshold;
  uint64_t reserved_high, used, used_high;
  cuemu__pool_arena arena; /* its memory; arena.reserved is reserved */
  int is_default;
  int imported; /* cudaMemPoolImportFromShareableHandle's: its file in
                 * arena.fd, and no allocations of its own */
  int destroyed;                   /* destroyed with allocations outstanding */
  struct CUmemPoolHandle_st *next; /* the list of live pools */
  /* The access of the other devices (cudaMemAccessFlags), as
   * cudaMemPoolSetAccess last set it: none until then. */
  unsigned char access[CUEMU_POOL_DEVICES];
  /* Its allocations that live or whose free is queued, and those whose
   * free is queued and has not run, by size (lists through
   * pool_allocation's pending links), which take_over looks at. */
  size_t allocation_count;
  cuemu__ptr_map pending;
};

/* A live stream-ordered allocation. */
typedef struct pool_allocation {
  void *ptr;
  size_t bytes; /* as the pool counts it: its block */
  cudaMemPool_t pool;
  cuemu__pool_block *block;
  size_t size; /* as asked for */
  /* A cudaFreeAsync of it is queued on a stream (the pools' identity of
   * the stream, the free's number); `generation` counts the allocations
   * that took its block over before the free ran (see take_over). */
  int free_issued;
  void *free_stream;
  unsigned long long free_seq, generation;
  /* Its number (queued points and frees name it by address and number),
   * whether its block waits, flagged as unreached, for the allocation
   * point of the allocation that took it over, its table flags and the site of the
   * allocation that made it or took it over. */
  unsigned long long id;
  int dead;
  unsigned flags;
  const void *site;
  /* In its pool's list of queued frees of its size, while free_issued. */
  struct pool_allocation *pending_prev, *pending_next;
} pool_allocation;

/* The kind of memory pool `p` holds (a CUEMU_RT_MEMORY_* value). */
static int pool_kind(const struct CUmemPoolHandle_st *p) {
  if (p->props.allocType == cudaMemAllocationTypeManaged)
    return CUEMU_RT_MEMORY_MANAGED;
  return p->props.location.type == cudaMemLocationTypeDevice
             ? CUEMU_RT_MEMORY_DEVICE
             : CUEMU_RT_MEMORY_HOST;
}

/* The device whose memory pool `p` holds, or -1 for host and managed
 * memory. */
static int pool_device(const struct CUmemPoolHandle_st *p) {
  return pool_kind(p) == CUEMU_RT_MEMORY_DEVICE ? p->props.location.id : -1;
}

/* The flags of an allocation of pool `p` in the table of allocations:
 * device memory names its device, managed memory is attached globally. */
static unsigned pool_flags(const struct CUmemPoolHandle_st *p) {
  switch (pool_kind(p)) {
  case CUEMU_RT_MEMORY_DEVICE:
    return (unsigned)p->props.location.id << CUEMU_RT_MEMORY_DEVICE_SHIFT |
           CUEMU__RT_MEMORY_POOLED;
  case CUEMU_RT_MEMORY_MANAGED:
    return cudaMemAttachGlobal | CUEMU__RT_MEMORY_POOLED;
  default:
    return CUEMU__RT_MEMORY_POOLED;
  }
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* Every live pool, the devices' default pools (made when first needed)
 * and their current pools (NULL: the default one). A destroyed pool stays
 * in the list, not live, until its last allocation is freed. */
static cudaMemPool_t pools;
static cudaMemPool_t default_pools[CUEMU_POOL_DEVICES];
static cudaMemPool_t current[CUEMU_POOL_DEVICES];
/* The default and current pools of the other (allocation type, location)
 * pairs: host memory (one NUMA node, as the emulated host has), managed
 * memory with no preferred location, or preferring the host or a device;
 * slot_of picks the slot. */
enum { SLOT_HOST, SLOT_MANAGED_NONE, SLOT_MANAGED_HOST, SLOT_MANAGED_DEVICE };
static cudaMemPool_t other_default[SLOT_MANAGED_DEVICE + CUEMU_POOL_DEVICES];
static cudaMemPool_t other_current[SLOT_MANAGED_DEVICE + CUEMU_POOL_DEVICES];
/* The live stream-ordered allocations (and those whose free is queued),
 * by address: each found in constant time however many live (a scan of an
 * array made 100,000 live cudaMallocAsync(16) take 38 s). */
static cuemu__ptr_map allocations;
static unsigned long long allocation_ids;

/* Non-zero when `pool` is a live pool (the lock held). */
static int pool_live(cudaMemPool_t pool) {
  for (cudaMemPool_t p = pools; p; p = p->next)
    if (p == pool)
      return !p->destroyed;
  return 0;
}

static int check_device(int device);

/* A new pool of `props`, in the list of live pools (the lock held). */
static cudaMemPool_t pool_new(const struct cudaMemPoolProps *props) {
  cudaMemPool_t p = calloc(1, sizeof *p);
  if (!p)
    return NULL;
  p->arena.fd = -1;
  if (props->handleTypes == cudaMemHandleTypePosixFileDescriptor) {
    /* A shareable pool: its memory is a file (cuemu_rt_pool_arena.h). */
    p->arena.fd = memfd_create("cuemu-pool", MFD_CLOEXEC);
    if (p->arena.fd < 0) {
      free(p);
      return NULL;
    }
    p->arena.shared = 1;
  }
  p->props = *props;
  /* Device memory: its device reads and writes it. Host memory: only the
   * host, until cudaMemPoolSetAccess (CUDA: "their default accessibility
   * will be from the host CPU"). Managed memory: every device. */
  int devices = 0;
  if (pool_kind(p) == CUEMU_RT_MEMORY_MANAGED)
    cuemu_rt_get_device_count(&devices);
  for (int d = 0; d < devices && d < CUEMU_POOL_DEVICES; ++d) {
    p->access[d] = cudaMemAccessFlagsProtReadWrite;
    cuemu__pool_arena_set_access(&p->arena, d, CUEMU_MEM_ACCESS_READWRITE);
  }
  if (pool_device(p) >= 0)
    cuemu__pool_arena_set_access(&p->arena, props->location.id,
                                 CUEMU_MEM_ACCESS_READWRITE);
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
  if (p->arena.reserved > p->reserved_high)
    p->reserved_high = p->arena.reserved;
  if (p->used > p->used_high)
    p->used_high = p->used;
}

/* Unlinks pool `p` from the list and frees it with its memory (the lock
 * held). */
static void pool_end(cudaMemPool_t p) {
  cudaMemPool_t *link = &pools;
  while (*link != p)
    link = &(*link)->next;
  *link = p->next;
  cuemu__pool_arena_drop(&p->arena);
  cuemu__ptr_map_clear(&p->pending);
  if (p->arena.fd >= 0)
    close(p->arena.fd);
  free(p);
}

/* The record of the stream-ordered allocation at `ptr`, or NULL (the
 * lock held). */
static pool_allocation *find_allocation(const void *ptr) {
  return cuemu__ptr_map_get(&allocations, (uintptr_t)ptr);
}

/* Non-zero while an allocation of pool `p` lives, or its free is queued
 * (the lock held). */
static int has_allocations(cudaMemPool_t p) {
  return p->allocation_count != 0;
}

/* Marks the free of `a` queued (issued = 1) or not: it joins or leaves its
 * pool's list of queued frees of its size. Returns 0, or -1 when there is
 * no memory for the list (nothing changes then). The lock held. */
static int set_free_issued(pool_allocation *a, int issued) {
  if (a->free_issued == issued)
    return 0;
  cuemu__ptr_map *pending = &a->pool->pending;
  pool_allocation *head = cuemu__ptr_map_get(pending, a->size);
  if (issued) {
    if (cuemu__ptr_map_put(pending, a->size, a) != 0)
      return -1;
    a->pending_prev = NULL;
    a->pending_next = head;
    if (head)
      head->pending_prev = a;
  } else {
    if (a->pending_prev)
      a->pending_prev->pending_next = a->pending_next;
    else if (a->pending_next)
      (void)cuemu__ptr_map_put(pending, a->size, a->pending_next);
    else
      (void)cuemu__ptr_map_remove(pending, a->size);
    if (a->pending_next)
      a->pending_next->pending_prev = a->pending_prev;
    a->pending_prev = a->pending_next = NULL;
  }
  a->free_issued = issued;
  return 0;
}

/* Forgets allocation `a` (the lock held). */
static void forget(pool_allocation *a) {
  (void)set_free_issued(a, 0);
  a->pool->allocation_count--;
  cuemu__ptr_map_remove(&allocations, (uintptr_t)a->ptr);
  free(a);
}

/* Takes allocation `a` out of the books: the table of allocations
 * remembers it as freed and the checkers are told, its block goes back to
 * its pool as freed on `stream` by the free numbered `seq` (the lock
 * held). */
static void give_back(pool_allocation *a, void *stream,
                      unsigned long long seq) {
  cudaMemPool_t p = a->pool;
  cuemu__allocation_release(a->ptr, 1u << pool_kind(p), 1);
  cuemu__allocation_freed(a->ptr);
  cuemu__pool_arena_give(&p->arena, a->block, stream, seq);
  if (!a->free_issued) /* a queued free counted it out already */
    p->used -= a->bytes;
  forget(a);
  /* A destroyed pool ends with its last allocation. */
  if (p->destroyed && !has_allocations(p))
    pool_end(p);
}

int cuemu__rt_pool_free(void *ptr, void *stream) {
  pthread_mutex_lock(&lock);
  pool_allocation *a = find_allocation(ptr);
  /* One whose free is queued already is freed twice. */
  if (a && a->free_issued)
    a = NULL;
  int found = a != NULL;
  if (a)
    give_back(a, cuemu__pool_deps_stream(stream), cuemu__pool_deps_free());
  pthread_mutex_unlock(&lock);
  return found;
}

/* A cudaFreeAsync or an allocation point queued on an asynchronous
 * stream: the allocation's address, number and generation (a take-over
 * makes a new generation). */
typedef struct queued_free {
  void *ptr;
  unsigned long long id, generation;
} queued_free;

/* Runs a queued free at its place in its stream. When a later allocation
 * has taken the block over, the block is kept for it: live in the table
 * but flagged as unreached until that allocation's point (run_point). */
static int run_queued_free(void *arg, void *stream) {
  (void)stream;
  queued_free f = *(queued_free *)arg;
  free(arg);
  pthread_mutex_lock(&lock);
  pool_allocation *a = find_allocation(f.ptr);
  if (a && a->id == f.id) {
    if (a->free_issued && a->generation == f.generation) {
      give_back(a, a->free_stream, a->free_seq);
    } else if (!a->dead) {
      cuemu__allocation_set_flags(a->ptr, 0, CUEMU__ALLOCATION_UNREACHED);
      cuemu__allocation_freed(a->ptr);
      a->dead = 1;
    }
  }
  pthread_mutex_unlock(&lock);
  return cudaSuccess;
}

/* Runs an allocation point at its place in its stream: the allocation is
 * reached (a block taken over gets a fresh memcheck record for it). */
static int run_point(void *arg, void *stream) {
  (void)stream;
  queued_free f = *(queued_free *)arg;
  free(arg);
  const void *site = NULL;
  size_t size = 0;
  int kind = CUEMU_RT_MEMORY_DEVICE;
  pthread_mutex_lock(&lock);
  pool_allocation *a = find_allocation(f.ptr);
  if (a && a->id == f.id) {
    cuemu__allocation_set_flags(a->ptr, CUEMU__ALLOCATION_UNREACHED, 0);
    if (a->dead) {
      a->dead = 0;
      site = a->site;
      size = a->size;
      kind = pool_kind(a->pool);
    }
  }
  pthread_mutex_unlock(&lock);
  if (size)
    cuemu__allocation_note(f.ptr, size, kind, site);
  return cudaSuccess;
}

/* Queues the allocation point `point` on `stream`; 0 or a CUDA code. */
static int queue_point(queued_free point, void *stream) {
  queued_free *f = malloc(sizeof *f);
  if (!f)
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  *f = point;
  int code = cuemu__stream_defer_call(stream, run_point, f);
  if (code)
    free(f);
  return code;
}

/* cudaFreeAsync of a live stream-ordered allocation on an asynchronous
 * stream: the free is queued, numbered now (the reuse policy orders it
 * against the events recorded after this call); 1 when it was, or when
 * its free was queued already (a double free, reported), with *code the
 * call's CUDA code; 0 when `ptr` is no such allocation. */
static int queue_free(void *ptr, void *stream, int *code, const void *site) {
  queued_free *f = malloc(sizeof *f);
  if (!f) {
    *code = cuemu_rt_error(cudaErrorMemoryAllocation);
    return 1;
  }
  pthread_mutex_lock(&lock);
  pool_allocation *a = find_allocation(ptr);
  int twice = a && a->free_issued;
  if (a && !twice && set_free_issued(a, 1) != 0) {
    pthread_mutex_unlock(&lock);
    free(f);
    *code = cuemu_rt_error(cudaErrorMemoryAllocation);
    return 1;
  }
  if (a && !twice) {
    /* The pool counts it as freed from now on, as it may hand its block
     * to the stream's later allocations (take_over). */
    a->pool->used -= a->bytes;
    a->free_stream = cuemu__pool_deps_stream(stream);
    a->free_seq = cuemu__pool_deps_free();
    *f = (queued_free){ptr, a->id, a->generation};
  }
  pthread_mutex_unlock(&lock);
  if (!a || twice) {
    free(f);
    if (twice) {
      cuemu__allocation_bad_free(ptr, site);
      *code = cuemu_rt_error(cudaErrorInvalidValue);
    }
    return twice;
  }
  *code = cuemu__stream_defer_call(stream, run_queued_free, f);
  if (*code) {
    free(f);
    pthread_mutex_lock(&lock);
    if ((a = find_allocation(ptr)) != NULL && a->free_issued) {
      (void)set_free_issued(a, 0);
      a->pool->used += a->bytes;
    }
    pthread_mutex_unlock(&lock);
  }
  return 1;
}

void cuemu__rt_pool_reset(int device) {
  pthread_mutex_lock(&lock);
  /* The device's allocations are freed, then its pools end. (Removing
   * an entry may move a later one back to the slot just visited, which is
   * then visited again.) */
  for (size_t i = 0; i < allocations.cap;) {
    pool_allocation *a = allocations.keys[i] ? allocations.values[i] : NULL;
    if (!a || (device >= 0 && pool_device(a->pool) != device)) {
      ++i;
      continue;
    }
    cuemu__allocation_release(a->ptr, 1u << pool_kind(a->pool), 1);
    cuemu__allocation_freed(a->ptr);
    forget(a);
  }
  /* A device's reset ends the pools of its memory, and makes its managed
   * pools current no more; the reset of everything ends every pool. */
  for (cudaMemPool_t p = pools, next; p; p = next) {
    next = p->next;
    if (device < 0 || pool_device(p) == device)
      pool_end(p);
  }
  for (int d = 0; d < CUEMU_POOL_DEVICES; ++d)
    if (device < 0 || d == device)
      default_pools[d] = current[d] = NULL;
  for (size_t k = 0; k < sizeof other_default / sizeof *other_default; ++k)
    if (device < 0) {
      other_default[k] = other_current[k] = NULL;
    } else if (other_current[k] && !pool_live(other_current[k])) {
      other_current[k] = NULL;
    }
  pthread_mutex_unlock(&lock);
  if (device < 0)
    cuemu__pool_deps_reset();
}

void cuemu_rt_mem_pools_release(void) {
  pthread_mutex_lock(&lock);
  for (cudaMemPool_t p = pools; p; p = p->next)
    cuemu__pool_arena_shrink(&p->arena, p->release_threshold, 0);
  pthread_mutex_unlock(&lock);
}

/* What an allocation asks of a freed block (see reusable). */
typedef struct reuse_request {
  cudaMemPool_t pool;
  void *stream;
} reuse_request;

/* The pool's reuse policy. Only blocks whose free has run are in the
 * pool (a free queued on an asynchronous stream joins it when the stream
 * reaches it). A block freed on the allocating stream is always reused;
 * one freed on another stream when the allocating stream waited for an
 * event recorded after the free (FollowEventDependencies), or as the free
 * has completed (AllowOpportunistic), or as the pool may make the
 * allocation wait for the free, which has completed
 * (AllowInternalDependencies). */
static int reusable(const void *ctx, void *freed_on, unsigned long long seq) {
  const reuse_request *r = ctx;
  if (freed_on == r->stream)
    return 1;
  if (r->pool->reuse[1] || r->pool->reuse[2])
    return 1;
  return r->pool->reuse[0] && freed_on != CUEMU_POOL_SEVERAL_STREAMS &&
         cuemu__pool_deps_follows(r->stream, freed_on, seq);
}

/* An allocation of `size` bytes from `pool` on the stream of request r
 * may take over the block of an allocation whose free is queued and has
 * not run: one of the same size freed on the same stream, or on a stream
 * that r's stream waited for after the free (FollowEventDependencies), as
 * both orders put the new allocation's use after the free. Its queued free
 * then does nothing, and the allocation lives on as the new one. Returns
 * its address, or NULL (the lock held). */
static pool_allocation *take_over(const reuse_request *r, size_t size) {
  /* Only the pool's queued frees of this size are looked at. */
  for (pool_allocation *a = cuemu__ptr_map_get(&r->pool->pending, size); a;
       a = a->pending_next) {
    if (a->free_stream == r->stream ||
        (r->pool->reuse[0] &&
         cuemu__pool_deps_follows(r->stream, a->free_stream, a->free_seq))) {
      (void)set_free_issued(a, 0);
      a->generation++;
      a->pool->used += a->bytes;
      note_high(a->pool);
      return a;
    }
  }
  return NULL;
}

/* Undoes take_over when the taking allocation's point could not be
 * queued: the block waits for its queued free again, which names the
 * generation before, or goes back to its pool if that free has run (the
 * lock not held). */
static void undo_take_over(queued_free point, const void *old_site) {
  pthread_mutex_lock(&lock);
  pool_allocation *a = find_allocation(point.ptr);
  if (a && a->id == point.id && a->generation == point.generation &&
      !a->free_issued && set_free_issued(a, 1) == 0) {
    a->generation--;
    a->pool->used -= a->bytes;
    a->site = old_site;
    /* Its free has run meanwhile and kept the block: it goes back now. */
    if (a->dead)
      give_back(a, a->free_stream, a->free_seq);
  }
  pthread_mutex_unlock(&lock);
}

/* The place of stream-ordered allocation: every cudaMallocAsync and
 * cudaMallocFromPoolAsync comes here (stream capture turns them into graph
 * nodes here, before anything is allocated). */
int cuemu_rt_malloc_async(void **ptr, size_t size, cudaMemPool_t pool,
                          void *stream) {
  if (!ptr)
    return cuemu_rt_error(cudaErrorInvalidValue);
  /* The allocation is made now, valid for the work issued after it (the
   * stream's earlier work is not waited for). */
  int code = cuemu__rt_stream_valid(stream);
  if (code)
    return code;
  /* Without a pool, the current pool of the stream's device (CUDA's rule:
   * not the calling thread's current device). */
  int device = cuemu__handle_stream_device(stream);
  pthread_mutex_lock(&lock);
  if (!pool && device >= 0 && device < CUEMU_POOL_DEVICES)
    pool = current_of(device);
  /* An imported pool makes no allocations (CUDA's rule). */
  int live = pool && pool_live(pool) && !pool->imported;
  pthread_mutex_unlock(&lock);
  if (!live)
    return cuemu_rt_error(cudaErrorInvalidValue);
  /* On a capturing stream: a memory allocation node (cuemu_rt_capture.h). */
  code = cuemu__rt_capture_alloc(stream, size, ptr);
  if (code != CUEMU__RT_NOT_CAPTURED)
    return code;
  code = cuemu__rt_check_sticky();
  if (code || size == 0) {
    if (!code)
      *ptr = NULL;
    return code;
  }
  size_t bytes = cuemu__pool_block_bytes(size);
  if (!bytes)
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  void *p = NULL;
  int kind = CUEMU_RT_MEMORY_DEVICE;
  const void *site = __builtin_return_address(0);
  /* On an asynchronous stream the allocation is reached when the stream
   * reaches this call (queue_point): until then it is flagged. */
  int ordered = !cuemu__stream_inline();
  queued_free point = {NULL, 0, 0};
  /* Its record, made before the lock is taken. */
  pool_allocation *a = malloc(sizeof *a);
  if (!a)
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  pthread_mutex_lock(&lock);
  if (pool_live(pool)) {
    reuse_request r = {pool, cuemu__pool_deps_stream(stream)};
    cuemu__pool_block *block = NULL;
    /* Only in stream order: a queued free is issued only there. */
    pool_allocation *taken = ordered ? take_over(&r, size) : NULL;
    if (taken) {
      /* The block comes back to life at this allocation's point, after
       * the free that stream order puts before it has run. */
      const void *old_site = taken->site;
      taken->site = site;
      point = (queued_free){taken->ptr, taken->id, taken->generation};
      pthread_mutex_unlock(&lock);
      free(a);
      int code = queue_point(point, stream);
      if (code)
        undo_take_over(point, old_site);
      else
        *ptr = point.ptr;
      return code;
    }
    /* The allocation is the pool's kind of memory (of its device), which
     * holds no more than the device has left (cuemu__rt_memory_fits). */
    unsigned flags = pool_flags(pool);
    kind = pool_kind(pool);
    p = cuemu__rt_memory_fits(kind, flags, size)
            ? cuemu__pool_arena_take(&pool->arena, bytes, pool->props.maxSize,
                                     reusable, &r, &block)
            : NULL;
    if (p && cuemu__allocation_insert(
                 p, size, kind,
                 flags | (ordered ? CUEMU__ALLOCATION_UNREACHED : 0)) != 0) {
      cuemu__pool_arena_give(&pool->arena, block, r.stream, 0);
      p = NULL;
    } else if (p && cuemu__ptr_map_put(&allocations, (uintptr_t)p, a) != 0) {
      cuemu__allocation_release(p, 1u << kind, 0);
      cuemu__pool_arena_give(&pool->arena, block, r.stream, 0);
      p = NULL;
    }
    if (p) {
      *a = (pool_allocation){p,    bytes, pool,  block, size,
                             0,    NULL,  0,     0,     ++allocation_ids,
                             0,    flags, site,  NULL,  NULL};
      pool->allocation_count++;
      pool->used += bytes;
      note_high(pool);
      point = (queued_free){p, a->id, 0};
      a = NULL; /* the books hold it */
    }
  }
  pthread_mutex_unlock(&lock);
  free(a);
  if (!p)
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  cuemu__allocation_note(p, size, kind, site);
  if (ordered) {
    int code = queue_point(point, stream);
    if (code) {
      /* Without its point the allocation is not made: its block goes
       * back to the pool. */
      pthread_mutex_lock(&lock);
      pool_allocation *made = find_allocation(p);
      if (made && made->id == point.id)
        give_back(made, cuemu__pool_deps_stream(stream), 0);
      pthread_mutex_unlock(&lock);
      return code;
    }
  }
  *ptr = p;
  return cudaSuccess;
}

/* The place of stream-ordered frees (see cuemu_rt_malloc_async). On an
 * asynchronous stream the free of a stream-ordered allocation is queued:
 * its block goes back to its pool when the stream reaches it. Anything
 * else is freed after the stream's earlier work. */
int cuemu_rt_free_async(void *ptr, void *stream) {
  int code = cuemu__rt_stream_valid(stream);
  if (code)
    return code;
  if (!ptr)
    return cuemu_rt_error(cudaErrorInvalidValue);
  /* On a capturing stream: a memory free node. */
  code = cuemu__rt_capture_free(stream, ptr);
  if (code != CUEMU__RT_NOT_CAPTURED)
    return code;
  code = cuemu__rt_check_sticky();
  if (code)
    return code;
  if (!cuemu__stream_inline() &&
      queue_free(ptr, stream, &code, __builtin_return_address(0)))
    return code;
  /* A graph allocation: freed in the stream's order too. */
  if (!cuemu__stream_inline() &&
      cuemu__graph_memory_queue_free(ptr, stream, &code))
    return code;
  if ((code = cuemu__stream_drain(stream)) != 0)
    return code;
  if (cuemu__rt_pool_free(ptr, stream))
    return cudaSuccess;
  /* A graph allocation freed outside its graph keeps its storage. */
  if (cuemu__graph_memory_free(ptr))
    return cudaSuccess;
  /* Memory of cudaMalloc, or a bad pointer (reported as such). */
  return cuemu__rt_device_free(ptr, __builtin_return_address(0));
}

int cuemu_rt_mem_pool_create(cudaMemPool_t *pool,
                             const struct cudaMemPoolProps *props) {
  if (!pool || !props)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int host = props->location.type == cudaMemLocationTypeHost ||
             props->location.type == cudaMemLocationTypeHostNuma;
  int managed = props->allocType == cudaMemAllocationTypeManaged;
  if (!host && !managed &&
      (props->handleTypes == cudaMemHandleTypeWin32 ||
       props->handleTypes == cudaMemHandleTypeWin32Kmt ||
       props->handleTypes == cudaMemHandleTypeFabric))
    /* Windows handles do not exist on Linux, nor fabric handles without a
     * fabric: the one shareable handle is the file descriptor
     * (memoryPoolSupportedHandleTypes). */
    return cuemu_rt_error(cudaErrorNotSupported);
  /* Pinned memory of a device or of the host (CUDA: a host pool's id is
   * ignored, a host NUMA pool's names its node, of which the emulated host
   * has one; HostNumaCurrent is refused), or managed memory preferring no
   * location, the host or a device. Host and managed pools are not IPC
   * capable: their handleTypes must be 0. */
  struct cudaMemPoolProps own = *props;
  int code = cudaSuccess;
  if (props->allocType != cudaMemAllocationTypePinned && !managed)
    code = cudaErrorInvalidValue;
  else if ((host || managed) && props->handleTypes != cudaMemHandleTypeNone)
    code = cudaErrorInvalidValue;
  else if (props->handleTypes != cudaMemHandleTypeNone &&
           props->handleTypes != cudaMemHandleTypePosixFileDescriptor)
    code = cudaErrorInvalidValue;
  else if (props->location.type == cudaMemLocationTypeHost)
    own.location.id = 0;
  else if (props->location.type == cudaMemLocationTypeHostNuma)
    code = props->location.id != 0 ? cudaErrorInvalidValue : cudaSuccess;
  else if (props->location.type == cudaMemLocationTypeDevice)
    code = check_device(props->location.id);
  else if (props->location.type == cudaMemLocationTypeNone && managed)
    own.location.id = 0; /* no preferred location */
  else
    code = cudaErrorInvalidValue;
  if (code)
    return cuemu_rt_error(code);
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  pthread_mutex_lock(&lock);
  cudaMemPool_t p = pool_new(&own);
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
    /* As CUDA: the device's current pool becomes its default pool again;
     * allocations still outstanding stay valid until they are freed, and
     * the pool's memory goes with the last of them. */
    for (int d = 0; d < CUEMU_POOL_DEVICES; ++d)
      if (current[d] == pool)
        current[d] = NULL;
    for (size_t k = 0; k < sizeof other_current / sizeof *other_current; ++k)
      if (other_current[k] == pool)
        other_current[k] = NULL;
    pool->destroyed = 1;
    if (!has_allocations(pool))
      pool_end(pool);
  }
  pthread_mutex_unlock(&lock);
  return live ? cudaSuccess : cuemu_rt_error(cudaErrorInvalidValue);
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
      pool->reserved_high = pool->arena.reserved;
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
    *(uint64_t *)value = pool->arena.reserved;
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
static int pool_attribute(cudaMemPool_t pool, int attr, void *value, int set) {
  if (!value)
    return cuemu_rt_error(cudaErrorInvalidValue);
  pthread_mutex_lock(&lock);
  int code = !pool_live(pool) ? cudaErrorInvalidValue
             : set            ? set_attribute(pool, attr, value)
                              : get_attribute(pool, attr, value);
  pthread_mutex_unlock(&lock);
  return cuemu_rt_error(code);
}

int cuemu_rt_mem_pool_set_attribute(cudaMemPool_t pool, int attr, void *value) {
  return pool_attribute(pool, attr, value, 1);
}

int cuemu_rt_mem_pool_get_attribute(cudaMemPool_t pool, int attr, void *value) {
  return pool_attribute(pool, attr, value, 0);
}

int cuemu_rt_mem_pool_trim_to(cudaMemPool_t pool, size_t min_bytes_to_keep) {
  pthread_mutex_lock(&lock);
  int live = pool_live(pool);
  if (live)
    cuemu__pool_arena_shrink(&pool->arena, min_bytes_to_keep, 1);
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

/* The device of a live pool of device memory, -1 for a live pool of host
 * or managed memory, -2 for no live pool. */
static int pool_owner(cudaMemPool_t pool) {
  pthread_mutex_lock(&lock);
  int owner = pool_live(pool) ? pool_device(pool) : -2;
  pthread_mutex_unlock(&lock);
  return owner;
}

int cuemu_rt_mem_pool_set_access(cudaMemPool_t pool,
                                 const struct cudaMemAccessDesc *descs,
                                 size_t count) {
  if (count && !descs)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int owner = pool_owner(pool);
  if (owner < -1)
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
  /* Every descriptor is valid: the pool records them, for
   * cudaMemPoolGetAccess. */
  pthread_mutex_lock(&lock);
  for (size_t i = 0; i < count && pool_live(pool); ++i) {
    int device = location_device(&descs[i].location);
    if (device != owner && device < CUEMU_POOL_DEVICES) {
      pool->access[device] = (unsigned char)descs[i].flags;
      cuemu__pool_arena_set_access(&pool->arena, device,
                                   (unsigned char)descs[i].flags);
    }
  }
  pthread_mutex_unlock(&lock);
  return cudaSuccess;
}

int cuemu_rt_mem_pool_get_access(enum cudaMemAccessFlags *flags,
                                 cudaMemPool_t pool,
                                 const struct cudaMemLocation *location) {
  if (!flags || !location)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int device = location_device(location);
  /* The host reads and writes a pool of host or managed memory, and
   * nothing else. */
  int host = location->type == cudaMemLocationTypeHost ||
             location->type == cudaMemLocationTypeHostNuma;
  /* The pool is looked up and read under one lock: the last queued free
   * of a destroyed pool may end it on an execution thread. */
  pthread_mutex_lock(&lock);
  int owner = pool_live(pool) ? pool_device(pool) : -2;
  if (owner >= -1 && host)
    *flags = owner < 0 ? cudaMemAccessFlagsProtReadWrite
                       : cudaMemAccessFlagsProtNone;
  else if (owner >= -1 && device >= 0)
    *flags = device == owner ? cudaMemAccessFlagsProtReadWrite
             : device < CUEMU_POOL_DEVICES
                 ? (enum cudaMemAccessFlags)pool->access[device]
                 : cudaMemAccessFlagsProtNone;
  pthread_mutex_unlock(&lock);
  if (owner < -1)
    return cuemu_rt_error(cudaErrorInvalidValue);
  if (device < 0 && !host)
    return cuemu_rt_error(cudaErrorInvalidDevice);
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
  int live = pool && pool_live(pool) && pool_device(pool) == device &&
             pool->props.allocType == cudaMemAllocationTypePinned &&
             !pool->imported;
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

/* ---- Pools by location and allocation type (CUDA 13) --------------------- */

/* The slot of the default (or, with `cur`, current) pool of allocation
 * type `type` at `location` (the lock held): NULL for the device's pinned
 * pools, which default_pools and current hold; *code is 0 or the CUDA
 * code of a (type, location) that has no pool. */
static cudaMemPool_t *slot_of(const struct cudaMemLocation *location,
                              int type, int cur, int *device, int *code) {
  *code = cudaSuccess;
  *device = -1;
  if (!location || (type != cudaMemAllocationTypePinned &&
                    type != cudaMemAllocationTypeManaged)) {
    *code = cudaErrorInvalidValue;
    return NULL;
  }
  cudaMemPool_t *table = cur ? other_current : other_default;
  int managed = type == cudaMemAllocationTypeManaged;
  switch (location->type) {
  case cudaMemLocationTypeDevice:
    if (check_device(location->id)) {
      *code = cudaErrorInvalidValue;
      return NULL;
    }
    *device = location->id;
    return managed ? &table[SLOT_MANAGED_DEVICE + location->id] : NULL;
  case cudaMemLocationTypeHostNuma: /* the emulated host has node 0 only */
  case cudaMemLocationTypeHost:
    if (location->type == cudaMemLocationTypeHostNuma && location->id != 0)
      break;
    return &table[managed ? SLOT_MANAGED_HOST : SLOT_HOST];
  case cudaMemLocationTypeNone: /* managed memory only */
    if (managed)
      return &table[SLOT_MANAGED_NONE];
    break;
  default:
    break;
  }
  *code = cudaErrorInvalidValue;
  return NULL;
}

/* The default pool of a (type, location) that is not a device's pinned
 * memory, made when first needed (the lock held); NULL without memory. */
static cudaMemPool_t other_default_of(cudaMemPool_t *slot,
                                      const struct cudaMemLocation *location,
                                      int type) {
  if (!*slot) {
    struct cudaMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = (enum cudaMemAllocationType)type;
    props.location = *location;
    if (props.location.type != cudaMemLocationTypeDevice)
      props.location.id = 0;
    if (props.location.type == cudaMemLocationTypeHostNuma)
      props.location.type = cudaMemLocationTypeHost;
    *slot = pool_new(&props);
    if (*slot)
      (*slot)->is_default = 1;
  }
  return *slot;
}

int cuemu_rt_mem_get_default_pool(cudaMemPool_t *pool,
                                  const struct cudaMemLocation *location,
                                  int type) {
  int device, code;
  if (!pool)
    return cuemu_rt_error(cudaErrorInvalidValue);
  cudaMemPool_t *slot = slot_of(location, type, 0, &device, &code);
  if (code)
    return cuemu_rt_error(code);
  if (!slot)
    return cuemu_rt_device_get_default_mem_pool(pool, device);
  pthread_mutex_lock(&lock);
  cudaMemPool_t p = other_default_of(slot, location, type);
  pthread_mutex_unlock(&lock);
  if (!p)
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  *pool = p;
  return cuemu__rt_check_sticky();
}

int cuemu_rt_mem_get_pool(cudaMemPool_t *pool,
                          const struct cudaMemLocation *location, int type) {
  int device, code;
  if (!pool)
    return cuemu_rt_error(cudaErrorInvalidValue);
  cudaMemPool_t *slot = slot_of(location, type, 1, &device, &code);
  if (code)
    return cuemu_rt_error(code);
  if (!slot)
    return cuemu_rt_device_get_mem_pool(pool, device);
  cudaMemPool_t *def = slot_of(location, type, 0, &device, &code);
  pthread_mutex_lock(&lock);
  cudaMemPool_t p = *slot ? *slot : other_default_of(def, location, type);
  pthread_mutex_unlock(&lock);
  if (!p)
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  *pool = p;
  return cudaSuccess;
}

/* Whether live pool `p` is of allocation type `type` at `location`, as
 * slot_of has checked it. */
static int pool_at(const struct CUmemPoolHandle_st *p,
                   const struct cudaMemLocation *location, int type) {
  if ((int)p->props.allocType != type)
    return 0;
  int host = location->type == cudaMemLocationTypeHost ||
             location->type == cudaMemLocationTypeHostNuma;
  int pool_host = p->props.location.type == cudaMemLocationTypeHost ||
                  p->props.location.type == cudaMemLocationTypeHostNuma;
  if (host || pool_host)
    return host && pool_host;
  return p->props.location.type == location->type &&
         (location->type != cudaMemLocationTypeDevice ||
          p->props.location.id == location->id);
}

int cuemu_rt_mem_set_pool(const struct cudaMemLocation *location, int type,
                          cudaMemPool_t pool) {
  int device, code;
  cudaMemPool_t *slot = slot_of(location, type, 1, &device, &code);
  if (code)
    return cuemu_rt_error(code);
  if (!slot)
    return cuemu_rt_device_set_mem_pool(device, pool);
  pthread_mutex_lock(&lock);
  int live = pool && pool_live(pool) && !pool->imported &&
             pool_at(pool, location, type);
  if (live)
    *slot = pool->is_default ? NULL : pool;
  pthread_mutex_unlock(&lock);
  return live ? cudaSuccess : cuemu_rt_error(cudaErrorInvalidValue);
}

/* ---- Sharing with other processes (cuemu_rt_pool_ipc.c) ------------------ */

int cuemu__pool_share_fd(cudaMemPool_t pool) {
  pthread_mutex_lock(&lock);
  int fd = pool && pool_live(pool) && pool->arena.shared && !pool->imported
               ? dup(pool->arena.fd)
               : -1;
  pthread_mutex_unlock(&lock);
  return fd;
}

cudaMemPool_t cuemu__rt_pool_of(const void *base) {
  pthread_mutex_lock(&lock);
  pool_allocation *a = find_allocation(base);
  cudaMemPool_t p = a ? a->pool : NULL;
  pthread_mutex_unlock(&lock);
  return p;
}

int cuemu__pool_place(const void *ptr, cudaMemPool_t *pool,
                      unsigned long long *offset) {
  pthread_mutex_lock(&lock);
  pool_allocation *a = find_allocation(ptr);
  int found = a && a->pool->arena.shared;
  if (found) {
    *pool = a->pool;
    *offset = cuemu__pool_block_file_offset(a->block);
  }
  pthread_mutex_unlock(&lock);
  return found;
}

cudaMemPool_t cuemu__pool_import(int fd, int device) {
  struct cudaMemPoolProps props;
  memset(&props, 0, sizeof props);
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  props.handleTypes = cudaMemHandleTypeNone;
  int own = dup(fd);
  if (own < 0)
    return NULL;
  pthread_mutex_lock(&lock);
  cudaMemPool_t p = pool_new(&props);
  if (p) {
    p->props.handleTypes = cudaMemHandleTypePosixFileDescriptor;
    p->imported = 1;
    p->arena.fd = own;
  }
  pthread_mutex_unlock(&lock);
  if (!p)
    close(own);
  return p;
}

int cuemu__pool_imported_fd(cudaMemPool_t pool) {
  pthread_mutex_lock(&lock);
  int fd = pool && pool_live(pool) && pool->imported ? pool->arena.fd : -1;
  pthread_mutex_unlock(&lock);
  return fd;
}
