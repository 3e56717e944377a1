/*
 * cuemu_progress.c: more resident blocks for blocks that wait for other
 * blocks (see cuemu_progress.h). The state is made at the first spin of a
 * launch, under the launch's progress lock; a launch whose blocks never
 * spin pays nothing. The workers started here run like the pool's: each
 * takes the next block not yet started until none is left, so a block
 * still runs exactly once, and a launch whose blocks do not spin keeps its
 * workers and its order of blocks.
 */
#define _GNU_SOURCE
#include "core/cuemu_progress.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "base/cuemu_config.h"
#include "base/cuemu_report.h"
#include "core/cuemu_watchdog.h"
#include "device/cuemu_device_model.h"

struct cuemu_progress {
  unsigned limit;          /* blocks the device holds at once */
  unsigned sms, per_sm;    /* its parts, for the report */
  unsigned base;           /* the launch's own workers */
  unsigned count, capacity;/* the workers started here */
  pthread_t *threads;
  cuemu_worker **workers;
  double widened_at;       /* when workers were last started */
  unsigned long long seen_next; /* the launch's blocks taken, and since */
  double seen_at;               /* when that count has not moved */
  int noted;               /* the note on stderr was given */
  double all_spin_at;      /* when every running block was first seen
                            * spinning, without a look that saw one that
                            * did not since (0: not seen so) */
};

static double seconds_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The state of launch `L`, made at its first call (the lock held). */
static struct cuemu_progress *state_of(cuemu_launch *L) {
  if (L->progress)
    return L->progress;
  struct cuemu_progress *p = calloc(1, sizeof *p);
  if (!p)
    return NULL;
  const cuemu_device_model *m = cuemu__device_model();
  size_t shared = L->kernel->static_shared + L->dynamic_shared;
  p->sms = m->sms;
  p->per_sm = cuemu__device_blocks_per_sm(L->nthreads, shared);
  if (p->per_sm == 0)
    p->per_sm = 1;
  p->limit = p->sms * p->per_sm;
  p->base = L->workers;
  p->seen_next = atomic_load(&L->next_block);
  p->seen_at = seconds_now();
  L->progress = p;
  return p;
}

static void *extra_main(void *arg) {
  cuemu_worker *w = arg;
  pthread_setname_np(pthread_self(), "cuemu-worker");
  cuemu__worker_run(w, w->launch);
  return NULL;
}

/* Starts up to `more` workers for launch `L` (the lock held). */
static void widen(cuemu_launch *L, struct cuemu_progress *p, unsigned more) {
  if (L->progress_closed)
    return;
  if (p->count + more > p->capacity) {
    unsigned capacity = p->count + more;
    pthread_t *threads = realloc(p->threads, capacity * sizeof *threads);
    if (threads)
      p->threads = threads;
    cuemu_worker **workers =
        realloc(p->workers, capacity * sizeof *workers);
    if (workers)
      p->workers = workers;
    if (!threads || !workers)
      return;
    p->capacity = capacity;
  }
  /* With one worker, the launch's blocks are taken without an atomic
   * instruction (next_block in cuemu_block.c): only this worker reads
   * `workers` now, and it reads the new value before taking a block. */
  if (L->workers == 1)
    L->workers = 2;
  atomic_store_explicit(&L->widened, 1, memory_order_relaxed);
  while (more-- > 0) {
    cuemu_worker *w = cuemu__worker_create();
    if (!w)
      return;
    w->launch = L;
    if (pthread_create(&p->threads[p->count], NULL, extra_main, w) != 0) {
      cuemu__worker_destroy(w);
      return;
    }
    p->workers[p->count++] = w;
  }
}

/* The most workers launch `L` may have, SM count x blocks per SM as the
 * process can map their stacks. */
static unsigned limit_of(const cuemu_launch *L,
                         const struct cuemu_progress *p) {
  return p->limit < L->most_workers ? p->limit : L->most_workers;
}

/* Starts more workers for launch `L` when it has fewer than its limit and
 * none were started in the last CUEMU_PROGRESS_WIDEN_AFTER seconds: as
 * many as it has (a grid barrier over hundreds of blocks waits for a few
 * steps, not hundreds). Returns 0 when it has fewer, else the limit it has
 * reached. `w` is the spinning block's worker, or NULL for the watchdog
 * (the lock held). */
static unsigned widen_if_due(cuemu_worker *w, cuemu_launch *L,
                             struct cuemu_progress *p, double now) {
  unsigned running = p->base + p->count, limit = limit_of(L, p);
  if (!w && limit > CUEMU_PROGRESS_IDLE_MOST)
    limit = CUEMU_PROGRESS_IDLE_MOST;
  if (running >= limit)
    return limit;
  if (now - p->widened_at < CUEMU_PROGRESS_WIDEN_AFTER)
    return 0;
  unsigned more = running < limit - running ? running : limit - running;
  /* A spinning block is surely waiting: noted only under a debugger, which
   * sees the new threads. The watchdog may also widen a launch whose
   * threads compute for long: noted, as the user asked for fewer workers
   * (CUEMU_WORKERS) than it now has. */
  if (!p->noted && (w ? cuemu__watchdog_traced() : !cuemu__config_quiet())) {
    p->noted = 1;
    if (w)
      fprintf(stderr,
              "cuemu: note: kernel %s: block (%u,%u,%u) spins waiting for "
              "another block; its launch now runs up to %u blocks at once "
              "on worker threads of their own, as a GPU holds them "
              "(docs/streams.md)\n",
              L->kernel->name, w->block_idx.x, w->block_idx.y,
              w->block_idx.z, limit);
    else if (atomic_load(&L->queued))
      fprintf(stderr,
              "cuemu: note: kernel %s waits for the worker pool, and the "
              "launches that hold it have started no block for %.1f s: "
              "they may wait for it (on another device or stream), so it "
              "now runs up to %u blocks at once on worker threads of its "
              "own, as GPUs run such launches side by side "
              "(docs/streams.md)\n",
              L->kernel->name, CUEMU_PROGRESS_STILL_AFTER, limit);
    else
      fprintf(stderr,
              "cuemu: note: kernel %s: no block has started for %.1f s "
              "and each running block runs one thread that does not wait: "
              "they may spin for blocks not started, so the launch now "
              "runs up to %u blocks at once on worker threads of their "
              "own, as a GPU holds them (docs/streams.md)\n",
              L->kernel->name, CUEMU_PROGRESS_STILL_AFTER, limit);
  }
  widen(L, p, more);
  p->widened_at = now;
  return 0;
}

void cuemu__progress_spinning(cuemu_worker *w, double elapsed, void *pc,
                              void *sp) {
  cuemu_launch *L = w->launch;
  if (atomic_load(&L->stop))
    /* Another block failed: the first error is the launch's. */
    cuemu__block_fail(w, CUEMU_DEADLOCK, "a spinning block abandoned");
  unsigned long long next = atomic_load(&L->next_block);
  /* Once every block has started, the block waits for a running one (or
   * for nothing): the block's spin timeout is the judge. */
  if (next >= L->nblocks)
    return;
  /* The OS threads of other blocks may need this CPU. */
  sched_yield();
  pthread_mutex_lock(&L->progress_lock);
  struct cuemu_progress *p = state_of(L);
  if (!p) {
    pthread_mutex_unlock(&L->progress_lock);
    return;
  }
  double now = seconds_now();
  if (next != p->seen_next) {
    p->seen_next = next;
    p->seen_at = now;
  }
  unsigned limit = widen_if_due(w, L, p, now);
  if (limit == 0) {
    pthread_mutex_unlock(&L->progress_lock);
    return;
  }
  int stuck = elapsed >= CUEMU_PROGRESS_REPORT_AFTER &&
              now - p->seen_at >= CUEMU_PROGRESS_REPORT_AFTER &&
              now - p->widened_at >= CUEMU_PROGRESS_REPORT_AFTER;
  pthread_mutex_unlock(&L->progress_lock);
  /* A running block that computes (its threads do not only yield) may be
   * the one waited for: it ends in its time, as on a GPU. And the blocks
   * must be seen all spinning for a while: the block they wait for may
   * have just ended, its flag set, and left only spinning blocks running
   * for the moment before they see the flag and the last block starts. */
  int all = stuck &&
            cuemu__watchdog_all_spin(L, CUEMU_PROGRESS_REPORT_AFTER, now);
  pthread_mutex_lock(&L->progress_lock);
  if (!all)
    p->all_spin_at = 0;
  else if (p->all_spin_at == 0)
    p->all_spin_at = now;
  int confirmed =
      all && now - p->all_spin_at >= CUEMU_PROGRESS_CONFIRM_AFTER;
  pthread_mutex_unlock(&L->progress_lock);
  if (!confirmed)
    return;
  /* The report names the thread's source line, which the debugging
   * information gives (addr2line, kilobytes of buffers): it is built on
   * the worker's own stack, as a fault's is, not on the thread's, which
   * may be as small as CUEMU_STACK_SIZE allows. */
  w->stuck.pending = 1;
  w->stuck.elapsed = elapsed;
  w->stuck.unstarted = L->nblocks - next;
  w->stuck.pc = pc;
  w->stuck.sp = sp;
  w->stuck.thread = cuemu__worker_thread_idx(w);
  w->in_kernel = 0;
  cuemu__ctx_switch(&w->scratch, &w->main_ctx);
  abort(); /* The switch above never returns. */
}

void cuemu__progress_report(cuemu_worker *w) {
  cuemu_launch *L = w->launch;
  w->stuck.pending = 0;
  pthread_mutex_lock(&L->progress_lock);
  struct cuemu_progress *p = L->progress;
  unsigned limit = limit_of(L, p), sms = p->sms, per_sm = p->per_sm,
           device_limit = p->limit;
  pthread_mutex_unlock(&L->progress_lock);
  char place[1100] = "an unknown place";
  cuemu__fault_place_of(w, w->stuck.pc, w->stuck.sp, place, sizeof place);
  cuemu_uint3 t = w->stuck.thread;
  char why[256];
  if (limit < device_limit)
    snprintf(why, sizeof why,
             "this process can map the stacks of only %u blocks of %u "
             "threads at once, fewer than the %u (%u SMs x %u blocks per "
             "SM) a GPU holds",
             limit, L->nthreads, device_limit, sms, per_sm);
  else
    snprintf(why, sizeof why,
             "the device holds at most %u blocks of this kernel at once: "
             "%u SMs x %u blocks per SM; a GPU hangs here too",
             device_limit, sms, per_sm);
  cuemu__launch_error(
      L, CUEMU_DEADLOCK,
      "kernel %s: block (%u,%u,%u), thread (%u,%u,%u) at %s has spun for "
      "%.1f s waiting for another block while %llu of %llu blocks have not "
      "started and no block ends: it waits on a block that cannot be "
      "resident (%s)",
      L->kernel->name, w->block_idx.x, w->block_idx.y, w->block_idx.z, t.x,
      t.y, t.z, place, w->stuck.elapsed, w->stuck.unstarted, L->nblocks,
      why);
}

void cuemu__progress_idle(cuemu_launch *L) {
  /* With one worker the launch's blocks are taken without an atomic
   * instruction: only that worker may start others (see widen()). */
  if (L->cooperative || L->workers < 2 ||
      atomic_load(&L->next_block) >= L->nblocks)
    return;
  pthread_mutex_lock(&L->progress_lock);
  struct cuemu_progress *p = state_of(L);
  if (p)
    widen_if_due(NULL, L, p, seconds_now());
  pthread_mutex_unlock(&L->progress_lock);
}

void cuemu__progress_begin(cuemu_launch *L) {
  pthread_mutex_lock(&L->progress_lock);
  L->progress_closed = 0;
  if (L->progress)
    L->progress->widened_at = 0;
  pthread_mutex_unlock(&L->progress_lock);
}

void cuemu__progress_end(cuemu_launch *L) {
  pthread_mutex_lock(&L->progress_lock);
  struct cuemu_progress *p = L->progress;
  L->progress_closed = 1;
  pthread_mutex_unlock(&L->progress_lock);
  if (!p)
    return;
  for (unsigned i = 0; i < p->count; ++i) {
    pthread_join(p->threads[i], NULL);
    cuemu__worker_destroy(p->workers[i]);
  }
  p->count = 0;
}

void cuemu__progress_free(cuemu_launch *L) {
  struct cuemu_progress *p = L->progress;
  if (!p)
    return;
  free(p->threads);
  free(p->workers);
  free(p);
  L->progress = NULL;
}
