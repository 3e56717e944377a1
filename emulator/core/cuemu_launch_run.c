/*
 * cuemu_launch_run.c: running a validated launch on the workers, with the
 * checkers' hooks around it.
 */
#include "core/cuemu_core.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cuemu/cuemu_device.h>

#include "check/cuemu_check.h"
#include "core/cuemu_cluster.h"
#include "core/cuemu_pool.h"
#include "core/cuemu_progress.h"
#include "core/cuemu_printf.h"
#include "base/cuemu_report.h"
#include "core/cuemu_worker.h"
#include "core/cuemu_stack.h"
#include "core/cuemu_watchdog.h"
#include "device/cuemu_device_model.h"

/* The most workers whose stacks fit in the process's memory mappings: each
 * worker may hold a guarded stack (two mappings) per thread of a block plus
 * one, and three quarters of vm.max_map_count are left for them. */
static unsigned max_workers_for(unsigned nthreads) {
  long most = cuemu__max_map_count() * 3 / 4 / (2 * ((long)nthreads + 1));
  return most < 1 ? 1 : (unsigned)most;
}

/* Runs the blocks once, with the checkers' hooks around them (they do
 * nothing unless the kernel's module was built with checkers). */
static void run_once(cuemu_launch *L, unsigned extra_workers) {
  cuemu__check_launch_begin(L, L->check_mask, L->check_set);
  cuemu__progress_begin(L);
  cuemu__pool_run(L, extra_workers);
  cuemu__progress_end(L);
  cuemu__check_launch_end(L);
}

/* The grid numbers given so far (cuemu_launch's grid_id). */
static atomic_ullong grid_ids;

unsigned long long cuemu_grid_id(void) {
  cuemu_worker *w = cuemu__worker_self;
  return w && w->in_kernel ? w->launch->grid_id : 0;
}

/* run_once, watched by the watchdog while the blocks run: under
 * CUEMU_CHECK_SCHEDULES the launch's allocations are saved, restored and
 * compared around its two runs (cuemu_check_perturb.c), which for a large
 * allocation takes seconds in which no block starts: watched meanwhile,
 * the launch looked like one whose blocks spin (the watchdog's note, and
 * more workers, for a kernel that never waits). */
static void run_watched(cuemu_launch *L, unsigned extra_workers) {
  cuemu__watchdog_begin(L);
  run_once(L, extra_workers);
  cuemu__watchdog_end(L);
}

cuemu_status cuemu__core_run(const cuemu_kernel_desc *kernel, cuemu_dim3 grid,
                             cuemu_dim3 block, size_t dynamic_shared,
                             void **args, int cooperative,
                             const cuemu_config *config) {
  cuemu_launch L;
  /* Everything but the error message's room is cleared: clearing its 8 KiB
   * too cost a quarter of a small kernel's launch (issue 19), and it is
   * only ever written whole (snprintf) and read as a string. */
  memset(&L, 0, offsetof(cuemu_launch, message));
  L.message[0] = '\0';
  L.kernel = kernel;
  L.args = args;
  L.grid = grid;
  L.block = block;
  L.dynamic_shared = dynamic_shared;
  L.grid_id = atomic_fetch_add(&grid_ids, 1) + 1;
  L.nthreads = block.x * block.y * block.z;
  L.nblocks = (unsigned long long)grid.x * grid.y * grid.z;
  atomic_init(&L.next_block, 0);
  atomic_init(&L.poll_changes, 0);
  atomic_init(&L.stop, 0);
  L.schedule = config->schedule;
  L.seed = config->seed;
  L.stack_size =
      config->thread_stack ? config->thread_stack : config->stack_size;
  L.spin_timeout = config->spin_timeout;
  L.checks = config->checks;
  L.check_mask = config->check_mask;
  L.check_set = config->check_set;
  L.check_shared_init = config->check_shared_init;
  atomic_init(&L.warned_inactive, 0);
  atomic_init(&L.widened, 0);
  atomic_init(&L.queued, 0);
  pthread_mutex_init(&L.error_lock, NULL);
  pthread_mutex_init(&L.progress_lock, NULL);
  cuemu_printf_fifo fifo;
  cuemu__printf_fifo_init(&fifo, config->printf_fifo);
  L.printf_fifo = &fifo;
  L.grid_context = config->grid_context;
  L.reports_fail = config->reports_fail;
  L.whole_program = config->whole_program;
  /* The blocks of a cluster are resident together: every block is. */
  if (config->cluster.x)
    cooperative = 1;
  L.status = CUEMU_SUCCESS;

  unsigned workers = config->workers;
  if (cooperative) {
    unsigned most = max_workers_for(L.nthreads);
    if (L.nblocks > most) {
      pthread_mutex_destroy(&L.progress_lock);
      pthread_mutex_destroy(&L.error_lock);
      cuemu__printf_fifo_keep(&fifo, kernel->name);
      /* A limit of this process (vm.max_map_count), not of the device the
       * program asked about: printed once, as the SM count's refusal. */
      static atomic_flag told = ATOMIC_FLAG_INIT;
      return cuemu__report_print_first(
          cuemu__report(CUEMU_COOPERATIVE_TOO_LARGE,
                        "kernel %s: a cooperative launch of %llu blocks "
                        "of %u threads; this process can map the stacks "
                        "of at most %u resident blocks",
                        kernel->name, L.nblocks, L.nthreads, most),
          &told);
    }
    L.cooperative = 1;
    if (config->cluster.x) {
      L.cluster = config->cluster;
      if (cuemu__cluster_begin(&L) != CUEMU_SUCCESS) {
        pthread_mutex_destroy(&L.progress_lock);
        pthread_mutex_destroy(&L.error_lock);
        cuemu__printf_fifo_keep(&fifo, kernel->name);
        return cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory");
      }
    }
    pthread_mutex_init(&L.grid_lock, NULL);
    pthread_cond_init(&L.grid_cond, NULL);
    workers = (unsigned)L.nblocks;
  } else {
    if (workers > L.nblocks)
      workers = (unsigned)L.nblocks;
    unsigned most = max_workers_for(L.nthreads);
    /* A green context's launch: at most its SMs' resident blocks at once
     * (the workers, and those that progress starts for spinning blocks). */
    if (config->sms) {
      unsigned per_sm = cuemu__device_blocks_per_sm(
          L.nthreads, kernel->static_shared + dynamic_shared);
      unsigned long long partition =
          (unsigned long long)config->sms * (per_sm ? per_sm : 1);
      if (most > partition)
        most = (unsigned)partition;
    }
    if (workers > most)
      workers = most;
    L.most_workers = most;
  }
  L.workers = workers;
  if (config->check_schedules)
    cuemu__check_perturb(&L, workers - 1, run_watched);
  else
    run_watched(&L, workers - 1);
  cuemu__progress_free(&L);
  if (cooperative) {
    cuemu__cluster_end(&L);
    pthread_cond_destroy(&L.grid_cond);
    pthread_mutex_destroy(&L.grid_lock);
  }
  pthread_mutex_destroy(&L.progress_lock);
  pthread_mutex_destroy(&L.error_lock);
  /* The kernel's printf output (a failed launch's too) waits for the
   * host's next synchronisation, as with CUDA. */
  cuemu__printf_fifo_keep(&fifo, kernel->name);
  cuemu__fault_divisions_report(&L);
  if (L.status != CUEMU_SUCCESS) {
    /* A checker's report that ended a whole program's launch counts for
     * the exit status, as `compute-sanitizer --error-exitcode` counts it:
     * a program that never checks the launch's error still fails. */
    if (L.status == CUEMU_CHECK_REPORT && L.whole_program)
      cuemu__check_report_counted();
    cuemu__report_print(L.message);
    return cuemu__report(L.status, "%s", L.message);
  }
  /* Reports after which the blocks went on (printed when made). */
  if (L.reports_fail && atomic_load(&L.reported))
    return cuemu__report(CUEMU_CHECK_REPORT, "%s", L.message);
  return CUEMU_SUCCESS;
}
