/*
 * cuemu_check_perturb.c: schedule perturbation, a way of running a launch
 * that the launch loop (core/cuemu_launch_run.c) chooses.
 *
 * With CUEMU_CHECK_SCHEDULES=1 every launch runs twice: in the order that
 * CUEMU_SCHEDULE gives (forward by default) and then, on the same inputs, in
 * the reverse order (forward when the first was reverse), its blocks taken
 * last first within each wave of as many as the device holds at once. Every tracked
 * allocation (device, managed and pinned memory, symbols, registered
 * buffers) and every __device__ variable of the program's code
 * (cuemu_check_variables.c) is saved before the first run and restored before the second;
 * when the two runs leave different contents, a racecheck report names the
 * first byte that differs and the program goes on (cuemu_check_report.c;
 * the C API's launch ends with CHECK_REPORT) (the floating-point
 * atomic adds of both runs make sums that do not depend on the order,
 * cuemu_check_fadd.c, and a work list filled through an atomicAdd counter
 * is the same list whichever thread got which place, cuemu_check_slots.c).
 * The first run's results
 * are what the caller sees. It needs no checked build; a kernel's printf
 * output appears twice. Host memory that is not tracked is neither saved
 * nor compared (register it with cuemu_alloc_register). A launch of a
 * single thread, which has one order only, runs once.
 *
 * Launches of other streams and host threads run at the same time as this
 * one; as the whole tracked state is saved, compared and restored, one
 * perturbed launch runs at a time (a process-wide lock, recursive for a
 * launch made while another runs on the same thread), so that a concurrent
 * kernel's writes are neither reported nor undone. Copies and memsets of
 * streams take the same lock (cuemu__check_perturb_exclude), so that one
 * never lands between the two runs; those of host threads (a synchronous
 * cudaMemcpy beside a non-blocking stream's launch) are not held back.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP */
#endif
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuemu/cuemu_runtime.h>

#include "check/cuemu_check.h"
#include "core/cuemu_allocations.h"
#include "core/cuemu_cluster.h"
#include "core/cuemu_device_heap.h"
#include "device/cuemu_device_model.h"
#include "device/cuemu_child_grids.h"

/* Copies of the live tracked allocations, or NULL (out of memory). */
static unsigned char **save(const cuemu_rt_allocation *a, size_t n) {
  unsigned char **copies = calloc(n ? n : 1, sizeof *copies);
  if (!copies)
    return NULL;
  for (size_t i = 0; i < n; ++i) {
    if (a[i].state != CUEMU_RT_MEMORY_LIVE || !a[i].size)
      continue;
    copies[i] = malloc(a[i].size);
    if (!copies[i]) {
      for (size_t j = 0; j < i; ++j)
        free(copies[j]);
      free(copies);
      return NULL;
    }
    memcpy(copies[i], a[i].base, a[i].size);
  }
  /* CUEMU_CHECK_PERTURB_SAVE_DELAY_MS lengthens the save as gigabytes of
   * allocations do: a test's means to show that the watchdog watches the
   * runs only, not the saves between them
   * (tests/programs/drv16b/perturb_slow_save.cu). */
  const char *delay = getenv("CUEMU_CHECK_PERTURB_SAVE_DELAY_MS");
  if (delay && atoi(delay) > 0)
    usleep((useconds_t)atoi(delay) * 1000u);
  return copies;
}

/* Puts back what the run changed; only that: a tracked range may be
 * read-only (the device passes' string literals, cuemu_device_strings.h). */
static void restore(const cuemu_rt_allocation *a, size_t n,
                    unsigned char **copies) {
  for (size_t i = 0; i < n; ++i)
    if (copies[i] && memcmp(a[i].base, copies[i], a[i].size) != 0)
      memcpy(a[i].base, copies[i], a[i].size);
}

static void drop(size_t n, unsigned char **copies) {
  if (!copies)
    return;
  for (size_t i = 0; i < n; ++i)
    free(copies[i]);
  free(copies);
}

/* How many blocks of launch `L` the device holds at once: the second run
 * takes the blocks of each such wave in reverse order, so that a result
 * that depends on which block runs first differs, while a block that
 * waits for an earlier one (a chained scan) still finds it resident. */
static unsigned long long resident_blocks(const cuemu_launch *L) {
  const cuemu_device_model *m = cuemu__device_model();
  unsigned per_sm = cuemu__device_blocks_per_sm(
      L->nthreads, L->kernel->static_shared + L->dynamic_shared);
  return (unsigned long long)m->sms * (per_sm ? per_sm : 1);
}

static const char *order_name(int schedule) {
  switch (schedule) {
  case CUEMU_SCHEDULE_REVERSE: return "reverse";
  case CUEMU_SCHEDULE_RANDOM: return "random";
  default: return "forward";
  }
}

/* Reports the first byte in which the second run differs from `first`. */
static void compare(cuemu_launch *L, const cuemu_rt_allocation *a, size_t n,
                    unsigned char **first, int order1, int order2) {
  size_t differ = 0;
  const cuemu_rt_allocation *where = NULL;
  size_t at = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!first[i])
      continue;
    const unsigned char *now = a[i].base;
    /* A work list whose places went to other threads in the other order
     * (cuemu_check_slots.c) is the same list. */
    if (memcmp(now, first[i], a[i].size) != 0 &&
        cuemu__check_slots_explain(first[i], now, a[i].size))
      continue;
    for (size_t k = 0; k < a[i].size; ++k)
      if (now[k] != first[i][k]) {
        if (!where) {
          where = &a[i];
          at = k;
        }
        differ++;
      }
  }
  if (!where)
    return;
  size_t i = (size_t)(where - a);
  cuemu_check_alloc_info info;
  int found = cuemu__check_alloc_info(where->base, &info);
  /* Reported once for each kernel and allocation site (or variable); the
   * program goes on with the first order's results. */
  int how = cuemu__check_report_begin(
      L, CUEMU_REPORT_SCHEDULE,
      found ? (uintptr_t)info.site : (uintptr_t)where->base, 0);
  if (!how)
    return;
  char site[512] = "";
  if (found && info.site) {
    char line[480];
    cuemu__check_alloc_line(info.site, info.callers, line, sizeof line);
    snprintf(site, sizeof site, ", allocated at %s", line);
  } else {
    memset(&info, 0, sizeof info);
    /* A __device__ variable: its name and definition where cuemu-cc's note
     * registered them, else its name where the dynamic symbols hold it. */
    Dl_info symbol;
    const char *file;
    int line;
    if (where->kind == CUEMU_RT_MEMORY_SYMBOL &&
        cuemu__check_variables_name(where->base, &info.name, &file, &line))
      snprintf(site, sizeof site, ", defined at %s:%d", file, line);
    else if (where->kind == CUEMU_RT_MEMORY_SYMBOL &&
             dladdr(where->base, &symbol) && symbol.dli_sname &&
             symbol.dli_saddr == where->base)
      info.name = symbol.dli_sname;
  }
  /* What the bytes are, as racecheck's reports say it: a __device__
   * variable by its name and definition, else an allocation. */
  char what[700];
  if (where->kind == CUEMU_RT_MEMORY_SYMBOL)
    snprintf(what, sizeof what, "%s__device__ variable %s%sof %zu bytes at %p%s",
             info.name ? "" : "a ", info.name ? info.name : "",
             info.name ? " " : "", where->size, where->base, site);
  else
    snprintf(what, sizeof what, "allocation of %zu bytes at %p%s", where->size,
             where->base, site);
  char key[600];
  snprintf(key, sizeof key, "%s%s", info.name ? info.name : "", site);
  cuemu__check_report(
      L, how, key,
      "racecheck: schedule perturbation: the launch's results "
      "depend on the order of threads and blocks: %zu %s between the %s "
      "and the "
      "%s order, first at %s%s%p+%zu (%s): 0x%02x %s, 0x%02x %s",
      differ, differ == 1 ? "byte differs" : "bytes differ",
      order_name(order1),
      order_name(order2), info.name ? info.name : "", info.name ? " " : "",
      where->base, at, what, first[i][at],
      order_name(order1), ((const unsigned char *)where->base)[at],
      order_name(order2));
}

static pthread_mutex_t perturb_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

static void perturb(cuemu_launch *L, unsigned extra_workers,
                    cuemu_check_run_fn run_once);

void cuemu__check_perturb(cuemu_launch *L, unsigned extra_workers,
                          cuemu_check_run_fn run_once) {
  pthread_mutex_lock(&perturb_lock);
  perturb(L, extra_workers, run_once);
  pthread_mutex_unlock(&perturb_lock);
}

void cuemu__check_perturb_exclude(int hold) {
  if (hold)
    pthread_mutex_lock(&perturb_lock);
  else
    pthread_mutex_unlock(&perturb_lock);
}

static void perturb(cuemu_launch *L, unsigned extra_workers,
                    cuemu_check_run_fn run_once) {
  /* A launch of one thread has one order: a second run could only find
   * what the first left in untracked host memory (a <<<1,1>>> kernel that
   * updates a host variable through pageable memory access) and would
   * apply its changes there twice. */
  if (L->nblocks == 1 && L->nthreads == 1) {
    run_once(L, extra_workers);
    return;
  }
  cuemu_rt_allocation *a = NULL;
  size_t n = cuemu__allocation_snapshot(&a);
  /* The __device__ variables are launch state too (a counter that the
   * kernel bumps by atomicAdd would otherwise count twice). */
  n = cuemu__check_variables_append(&a, n);
  unsigned char **before = a ? save(a, n) : NULL;
  if (!before) {
    free(a);
    run_once(L, extra_workers);
    return;
  }
  int order1 = L->schedule;
  /* The device heap (malloc in kernels) is state of the launch too. */
  struct cuemu_heap_copy *heap_before = cuemu__device_heap_save();
  /* Floating-point atomic sums that do not depend on the order, in both
   * runs: their rounding is no race (cuemu_check_fadd.c). */
  cuemu__check_fadd_begin();
  cuemu__check_slots_begin(0);
  run_once(L, extra_workers);
  cuemu__check_fadd_end();
  unsigned char **first = NULL;
  struct cuemu_heap_copy *heap_first = NULL;
  /* A launch that allocated or freed heap memory runs once: which
   * thread gets which block depends on the order, legitimately, and the
   * pointers it stores are not the same in another order. */
  if (L->status == CUEMU_SUCCESS && heap_before &&
      (heap_first = cuemu__device_heap_save()) != NULL &&
      cuemu__device_heap_copy_same_blocks(heap_before, heap_first) &&
      (first = save(a, n)) != NULL) {
    restore(a, n, before);
    cuemu__device_heap_restore(heap_before);
    /* The grids the first run launched from kernel code, and its threads'
     * last errors, are kept aside: the second run starts without them,
     * and what it launches is discarded (cuemu_child_grids.h). */
    cuemu_children_state children;
    cuemu__children_take(L->grid_context, &children);
    /* The same launch again, from the start, in the other order. */
    L->schedule = order1 == CUEMU_SCHEDULE_REVERSE ? CUEMU_SCHEDULE_FORWARD
                                                   : CUEMU_SCHEDULE_REVERSE;
    L->reversed_wave = resident_blocks(L);
    atomic_store(&L->next_block, 0);
    atomic_store(&L->stop, 0);
    L->grid_arrived = L->grid_done = L->grid_generation = 0;
    cuemu__cluster_reset(L);
    L->replaying = 1;
    cuemu__check_fadd_begin();
    cuemu__check_slots_begin(1);
    run_once(L, extra_workers);
    cuemu__check_fadd_end();
    cuemu__check_slots_end();
    L->replaying = 0;
    L->reversed_wave = 0;
    if (L->status == CUEMU_SUCCESS)
      compare(L, a, n, first, order1, L->schedule);
    /* The caller sees the first order's results and launches. */
    cuemu__children_put(L->grid_context, &children);
    restore(a, n, first);
    cuemu__device_heap_restore(heap_first);
    L->schedule = order1;
  }
  cuemu__device_heap_copy_free(heap_before);
  cuemu__device_heap_copy_free(heap_first);
  drop(n, first);
  drop(n, before);
  free(a);
}
