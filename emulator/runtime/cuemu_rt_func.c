/*
 * cuemu_rt_func.c: function attributes and occupancy of the CUDA runtime
 * API. A kernel's only setting that changes a launch is its dynamic
 * shared-memory limit (cudaFuncAttributeMaxDynamicSharedMemorySize), kept
 * here per kernel address; occupancy follows the residency rule of
 * cooperative launches (cuemu__grid_max_blocks in cuemu_grid.c).
 */
#include <pthread.h>
#include <stdlib.h>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_streams.h>

#include "runtime/cuemu_rt_streams_internal.h"
#include "core/cuemu_worker.h"

/* cudaFuncAttribute values. */
#define ATTR_MAX_DYNAMIC_SHARED 8
#define ATTR_PREFERRED_CARVEOUT 9
#define ATTR_FIRST_CLUSTER 10
#define ATTR_LAST_CLUSTER 15

typedef struct func_entry {
  const void *function;
  size_t max_dynamic_shared;
  int carveout;
} func_entry;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static func_entry *funcs;
static size_t count, capacity;

/* The entry of `function`, or NULL. Called with the lock. */
static func_entry *find(const void *function) {
  for (size_t i = 0; i < count; ++i)
    if (funcs[i].function == function)
      return &funcs[i];
  return NULL;
}

size_t cuemu_rt_func_max_dynamic_shared(const void *function) {
  size_t limit = CUEMU_DEFAULT_DYNAMIC_SHARED;
  if (!function)
    return limit;
  pthread_mutex_lock(&lock);
  func_entry *f = find(function);
  if (f)
    limit = f->max_dynamic_shared;
  pthread_mutex_unlock(&lock);
  return limit;
}

size_t cuemu__rt_kernel_shared_limit(const cuemu_kernel_desc *kernel,
                                     void **args) {
  const void *function = kernel->function;
  if (!function && kernel->params && args)
    function = args[kernel->param_count];
  return cuemu_rt_func_max_dynamic_shared(function);
}

/* 0 when `function` may be taken for a kernel, else the error recorded. */
static int check_function(const void *function, int known) {
  if (!function || (!known && !cuemu_program_find(function)))
    return cuemu_rt_error(cudaErrorInvalidDeviceFunction);
  return cuemu__rt_sticky_check();
}

int cuemu_rt_func_set_attribute(const void *function, int attribute,
                                int value, int known) {
  int e = check_function(function, known);
  if (e)
    return e;
  if (attribute == ATTR_MAX_DYNAMIC_SHARED) {
    if (value < 0 || (size_t)value > cuemu_rt_max_shared_optin())
      return cuemu_rt_error(cudaErrorInvalidValue);
  } else if (attribute == ATTR_PREFERRED_CARVEOUT) {
    if (value < -1 || value > 100)
      return cuemu_rt_error(cudaErrorInvalidValue);
  } else if (attribute >= ATTR_FIRST_CLUSTER &&
             attribute <= ATTR_LAST_CLUSTER) {
    return cudaSuccess; /* clusters are not emulated */
  } else {
    return cuemu_rt_error(cudaErrorInvalidValue);
  }
  pthread_mutex_lock(&lock);
  func_entry *f = find(function);
  if (!f) {
    if (count == capacity) {
      size_t n = capacity ? capacity * 2 : 8;
      func_entry *grown = realloc(funcs, n * sizeof *grown);
      if (!grown) {
        pthread_mutex_unlock(&lock);
        return cuemu_rt_error(cudaErrorMemoryAllocation);
      }
      funcs = grown;
      capacity = n;
    }
    f = &funcs[count++];
    f->function = function;
    f->max_dynamic_shared = CUEMU_DEFAULT_DYNAMIC_SHARED;
    f->carveout = -1;
  }
  if (attribute == ATTR_MAX_DYNAMIC_SHARED)
    f->max_dynamic_shared = (size_t)value;
  else
    f->carveout = value;
  pthread_mutex_unlock(&lock);
  return cudaSuccess;
}

int cuemu_rt_func_get_attributes(cuemu_rt_func_attributes *a,
                                 const void *function, int known) {
  if (!a)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int e = check_function(function, known);
  if (e)
    return e;
  int carveout = -1;
  pthread_mutex_lock(&lock);
  func_entry *f = find(function);
  if (f)
    carveout = f->carveout;
  pthread_mutex_unlock(&lock);
  /* Static shared, constant and local sizes are not known on the host:
   * 0, as for a kernel that uses none. */
  a->shared_size_bytes = 0;
  a->const_size_bytes = 0;
  a->local_size_bytes = 0;
  a->max_threads_per_block = 1024;
  a->num_regs = 32;
  a->ptx_version = 90;
  a->binary_version = 90;
  a->cache_mode_ca = 0;
  a->max_dynamic_shared_size_bytes =
      (int)cuemu_rt_func_max_dynamic_shared(function);
  a->preferred_shmem_carveout = carveout;
  return cudaSuccess;
}

/* The emulated SM count (CUEMU_SM_COUNT): a block of 1024 threads is
 * resident twice per SM by the rule of cuemu__grid_max_blocks. */
static unsigned sm_count(void) {
  unsigned n = cuemu__grid_max_blocks(1024, 0) / 2;
  return n ? n : 1;
}

/* Blocks of `threads` threads resident per SM. */
static unsigned blocks_per_sm(unsigned threads, size_t dynamic_shared,
                              size_t limit) {
  if (threads == 0 || threads > 1024 || dynamic_shared > limit)
    return 0;
  return cuemu__grid_max_blocks(threads, dynamic_shared) / sm_count();
}

int cuemu_rt_occupancy_max_active_blocks(int *blocks, const void *function,
                                         int block_size,
                                         size_t dynamic_shared,
                                         unsigned flags, int known) {
  /* flags: cudaOccupancyDefault (0) or cudaOccupancyDisableCachingOverride
   * (1). */
  if (!blocks || block_size <= 0 || flags > 1u)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int e = check_function(function, known);
  if (e)
    return e;
  *blocks = (int)blocks_per_sm((unsigned)block_size, dynamic_shared,
                               cuemu_rt_func_max_dynamic_shared(function));
  return cudaSuccess;
}

int cuemu_rt_occupancy_max_potential_block_size(int *min_grid_size,
                                                int *block_size,
                                                const void *function,
                                                size_t dynamic_shared,
                                                int block_size_limit,
                                                int known) {
  if (!min_grid_size || !block_size || block_size_limit < 0)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int e = check_function(function, known);
  if (e)
    return e;
  size_t limit = cuemu_rt_func_max_dynamic_shared(function);
  unsigned most = block_size_limit && block_size_limit < 1024
                      ? (unsigned)block_size_limit
                      : 1024u;
  unsigned best = 0, best_blocks = 0, best_threads = 0;
  /* From the largest size down, so that ties go to the larger block. */
  for (unsigned size = most / 32 * 32; size >= 32; size -= 32) {
    unsigned b = blocks_per_sm(size, dynamic_shared, limit);
    if (b * size > best_threads) {
      best = size;
      best_blocks = b;
      best_threads = b * size;
    }
  }
  if (best == 0 && most < 32 && blocks_per_sm(most, dynamic_shared, limit)) {
    best = most;
    best_blocks = blocks_per_sm(most, dynamic_shared, limit);
  }
  *block_size = (int)best;
  *min_grid_size = (int)(best_blocks * sm_count());
  return cudaSuccess;
}
