/*
 * cuemu_launch.c: checking and running a launch.
 */
#include "core/cuemu_core.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include <cuemu/cuemu_runtime.h>

#include "check/cuemu_check.h"
#include "base/cuemu_config.h"
#include "core/cuemu_pool.h"
#include "base/cuemu_report.h"
#include "core/cuemu_worker.h"

/* Non-zero when every dimension of d is at least 1 and at most max's. */
static int dims_within(cuemu_dim3 d, cuemu_dim3 max) {
  return d.x && d.y && d.z && d.x <= max.x && d.y <= max.y && d.z <= max.z;
}

static cuemu_status check_shape(const cuemu_kernel_desc *k, cuemu_dim3 grid,
                                cuemu_dim3 block) {
  static const cuemu_dim3 max_grid = {CUEMU_MAX_GRID_DIM_X,
                                      CUEMU_MAX_GRID_DIM_Y,
                                      CUEMU_MAX_GRID_DIM_Z};
  static const cuemu_dim3 max_block = {CUEMU_MAX_BLOCK_DIM_X,
                                       CUEMU_MAX_BLOCK_DIM_Y,
                                       CUEMU_MAX_BLOCK_DIM_Z};
  static const char *const what = "each dimension must be at least 1 and at "
                                  "most";
  if (!dims_within(grid, max_grid))
    return cuemu__report(CUEMU_INVALID_GRID_DIM,
                         "kernel %s: grid (%u,%u,%u) is invalid: %s "
                         "(%u,%u,%u)",
                         k->name, grid.x, grid.y, grid.z, what, max_grid.x,
                         max_grid.y, max_grid.z);
  if (!dims_within(block, max_block))
    return cuemu__report(CUEMU_INVALID_BLOCK_DIM,
                         "kernel %s: block (%u,%u,%u) is invalid: %s "
                         "(%u,%u,%u)",
                         k->name, block.x, block.y, block.z, what, max_block.x,
                         max_block.y, max_block.z);
  unsigned long long threads =
      (unsigned long long)block.x * block.y * block.z;
  unsigned most = cuemu_rt_max_threads_per_block();
  if (threads > most)
    return cuemu__report(CUEMU_TOO_MANY_THREADS,
                         "kernel %s: block (%u,%u,%u) has %llu threads; at "
                         "most %u are allowed",
                         k->name, block.x, block.y, block.z, threads, most);
  return CUEMU_SUCCESS;
}

/* The most workers whose stacks fit in the process's memory mappings: each
 * worker may hold a guarded stack (two mappings) per thread of a block plus
 * one, and three quarters of vm.max_map_count are left for them. */
static unsigned max_workers_for(unsigned nthreads) {
  static _Atomic long limit;
  if (limit == 0) {
    long v = 65530;
    FILE *f = fopen("/proc/sys/vm/max_map_count", "re");
    if (f) {
      if (fscanf(f, "%ld", &v) != 1 || v <= 0)
        v = 65530;
      fclose(f);
    }
    limit = v;
  }
  long most = limit * 3 / 4 / (2 * ((long)nthreads + 1));
  return most < 1 ? 1 : (unsigned)most;
}

cuemu_status cuemu__launch(const cuemu_kernel_desc *kernel,
                           size_t max_dynamic_shared, cuemu_dim3 grid,
                           cuemu_dim3 block, size_t dynamic_shared,
                           void **args, int cooperative) {
  if (cuemu_thread_in_kernel())
    return cuemu__report(CUEMU_NOT_SUPPORTED,
                         "kernel %s: launching a kernel from kernel code "
                         "(dynamic parallelism) is not supported",
                         kernel->name);
  cuemu_status st = check_shape(kernel, grid, block);
  if (st != CUEMU_SUCCESS)
    return st;
  if (dynamic_shared > max_dynamic_shared)
    return cuemu__report(CUEMU_SHARED_MEMORY_LIMIT,
                         "kernel %s: %zu bytes of dynamic shared memory "
                         "requested; the limit is %zu (raise it up to %u with "
                         "cudaFuncSetAttribute)",
                         kernel->name, dynamic_shared, max_dynamic_shared,
                         (unsigned)cuemu_rt_max_shared_optin());
  cuemu_config config;
  st = cuemu__config_read(&config);
  if (st != CUEMU_SUCCESS)
    return st;

  cuemu_launch L;
  memset(&L, 0, sizeof L);
  L.kernel = kernel;
  L.args = args;
  L.grid = grid;
  L.block = block;
  L.dynamic_shared = dynamic_shared;
  L.nthreads = block.x * block.y * block.z;
  L.nblocks = (unsigned long long)grid.x * grid.y * grid.z;
  atomic_init(&L.next_block, 0);
  atomic_init(&L.stop, 0);
  L.schedule = config.schedule;
  L.seed = config.seed;
  L.stack_size = config.stack_size;
  L.spin_timeout = config.spin_timeout;
  L.checks = config.checks;
  atomic_init(&L.warned_inactive, 0);
  pthread_mutex_init(&L.error_lock, NULL);
  L.status = CUEMU_SUCCESS;

  unsigned workers = config.workers;
  if (cooperative) {
    unsigned resident = cuemu__grid_max_blocks(L.nthreads, dynamic_shared);
    unsigned most = max_workers_for(L.nthreads);
    if (most < resident)
      resident = most;
    if (L.nblocks > resident) {
      pthread_mutex_destroy(&L.error_lock);
      return cuemu__report(CUEMU_COOPERATIVE_TOO_LARGE,
                           "kernel %s: a cooperative launch of %llu blocks "
                           "of %u threads; at most %u can be resident at once "
                           "(CUEMU_SM_COUNT sets the emulated SM count)",
                           kernel->name, L.nblocks, L.nthreads, resident);
    }
    L.cooperative = 1;
    pthread_mutex_init(&L.grid_lock, NULL);
    pthread_cond_init(&L.grid_cond, NULL);
    workers = (unsigned)L.nblocks;
  } else {
    if (workers > L.nblocks)
      workers = (unsigned)L.nblocks;
    unsigned most = max_workers_for(L.nthreads);
    if (workers > most)
      workers = most;
  }
  cuemu__check_run(&L, workers - 1, config.check_mask, config.check_set);
  if (cooperative) {
    pthread_cond_destroy(&L.grid_cond);
    pthread_mutex_destroy(&L.grid_lock);
  }
  pthread_mutex_destroy(&L.error_lock);
  if (L.status != CUEMU_SUCCESS) {
    cuemu__report_print(L.message);
    return cuemu__report(L.status, "%s", L.message);
  }
  return CUEMU_SUCCESS;
}
