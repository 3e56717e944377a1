/*
 * cuemu_block.c: running the threads of one block as coroutines.
 *
 * Threads start lazily. A runner context calls the kernel's thunk for a range
 * of threads; a thread that returns without ever blocking costs a plain call.
 * When a thread first blocks, the runner's stack becomes its own and a new
 * runner, on a fresh pooled stack, carries on with the next thread. A thread
 * that blocked and later returns from the kernel comes back into its old
 * runner's loop, which sees cuemu_thread_detached and calls
 * cuemu_thread_finish() instead of running more threads.
 *
 * Switching goes straight from the blocking thread to the next one to run:
 * woken threads first, then unstarted ones, then threads that yielded; when
 * none is left every live thread waits, and the waiting threads are resolved
 * as a rendezvous: all at one block barrier, release them; tile barriers
 * whose last thread exited complete (cuemu_group.c); anything else is a
 * divergent barrier, a warp misuse (cuemu_warp.c) or a deadlock, reported
 * with the threads and their source lines.
 */
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check/cuemu_check.h"
#include "base/cuemu_config.h"
#include "base/cuemu_report.h"
#include "core/cuemu_cluster.h"
#include "core/cuemu_progress.h"
#include "core/cuemu_worker.h"
#include "core/cuemu_watchdog.h"
#include "core/cuemu_worker_layout.h"

/* The layout that the assembler fast path of __syncthreads() relies on
 * (cuemu_block_sync_x86_64.S; with the ucontext backend, which it does not
 * use, a saved context is a whole ucontext_t). */
#if !CUEMU_CONTEXT_UCONTEXT && defined(__x86_64__)
#define LAYOUT CUEMU_LAYOUT_CHECK
LAYOUT(cuemu_worker, current, CUEMU_W_CURRENT);
LAYOUT(cuemu_worker, threads, CUEMU_W_THREADS);
LAYOUT(cuemu_worker, state, CUEMU_W_STATE);
LAYOUT(cuemu_worker, runq, CUEMU_W_RUNQ);
LAYOUT(cuemu_worker, rq_head, CUEMU_W_RQ_HEAD);
LAYOUT(cuemu_worker, rq_len, CUEMU_W_RQ_LEN);
LAYOUT(cuemu_worker, narrivals, CUEMU_W_NARRIVALS);
LAYOUT(cuemu_worker, waiting, CUEMU_W_WAITING);
LAYOUT(cuemu_worker, bar_file, CUEMU_W_BAR_FILE);
LAYOUT(cuemu_worker, bar_line, CUEMU_W_BAR_LINE);
LAYOUT(cuemu_worker, bar_op, CUEMU_W_BAR_OP);
LAYOUT(cuemu_worker, in_kernel, CUEMU_W_IN_KERNEL);
LAYOUT(cuemu_worker, sync_pad, CUEMU_W_SYNC_PAD);
LAYOUT(cuemu_worker, runner_pad, CUEMU_W_RUNNER_PAD);
LAYOUT(cuemu_thread, ctx, CUEMU_T_CTX_SP);
LAYOUT(cuemu_thread, tid, CUEMU_T_TID);
LAYOUT(cuemu_thread, id, CUEMU_T_ID);
LAYOUT(cuemu_thread, wait.kind, CUEMU_T_WAIT_KIND);
LAYOUT(cuemu_thread, wait.op, CUEMU_T_WAIT_OP);
LAYOUT(cuemu_thread, wait.file, CUEMU_T_WAIT_FILE);
LAYOUT(cuemu_thread, wait.line, CUEMU_T_WAIT_LINE);
LAYOUT(cuemu_thread, wait.predicate, CUEMU_T_WAIT_PREDICATE);
#undef LAYOUT
_Static_assert(sizeof(cuemu_thread) == 1u << CUEMU_T_SHIFT, "thread slot");
_Static_assert(sizeof(cuemu_uint3) == 12, "threadIdx");
_Static_assert(CUEMU_RUNQ_MASK == CUEMU_MAX_THREADS_PER_BLOCK - 1, "run queue");
_Static_assert(CUEMU_STATE_RUNNING == CUEMU_THREAD_RUNNING &&
                   CUEMU_STATE_WAITING == CUEMU_THREAD_WAITING &&
                   CUEMU_KIND_BARRIER == CUEMU_SYNC_BARRIER &&
                   CUEMU_OP_PLAIN == CUEMU_BARRIER_PLAIN,
               "enum values");
_Static_assert(offsetof(cuemu_ctx, sp) == 0, "saved stack pointer");
/* The fast path compares and stores pairs of these as one 8-byte word. */
_Static_assert(CUEMU_W_BAR_OP == CUEMU_W_BAR_LINE + 4 &&
                   CUEMU_T_WAIT_OP == CUEMU_T_WAIT_KIND + 4 &&
                   CUEMU_T_WAIT_PREDICATE == CUEMU_T_WAIT_LINE + 4 &&
                   CUEMU_KIND_BARRIER == 0 && CUEMU_OP_PLAIN == 0,
               "pairs of fields");
_Static_assert(CUEMU_LINE_MASK == CUEMU_CACHE_LINE - 1, "cache line");
#endif

__thread cuemu_worker *cuemu__worker_self CUEMU_TLS_IE;


static inline unsigned linear_tid(const cuemu_worker *w, cuemu_uint3 t) {
  return t.x + w->block_dim.x * (t.y + w->block_dim.y * t.z);
}

cuemu_uint3 cuemu__worker_thread_idx(const cuemu_worker *w) {
  return w->current ? w->current->tid : threadIdx;
}

static unsigned long long next_random(cuemu_worker *w) {
  /* splitmix64: small, fast and good enough for thread orders. */
  unsigned long long z = (w->rng += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Puts ids[0..n) in the launch's schedule order. */
static void permute(cuemu_worker *w, unsigned *ids, unsigned n) {
  switch (w->launch->schedule) {
  case CUEMU_SCHEDULE_REVERSE:
    for (unsigned i = 0; i < n / 2; ++i) {
      unsigned tmp = ids[i];
      ids[i] = ids[n - 1 - i];
      ids[n - 1 - i] = tmp;
    }
    break;
  case CUEMU_SCHEDULE_RANDOM:
    for (unsigned i = n; i > 1; --i) {
      unsigned j = (unsigned)(next_random(w) % i);
      unsigned tmp = ids[i - 1];
      ids[i - 1] = ids[j];
      ids[j] = tmp;
    }
    break;
  default:
    break;
  }
}

static inline void runq_push(cuemu_worker *w, unsigned id) {
  w->runq[(w->rq_head + w->rq_len) & (CUEMU_MAX_THREADS_PER_BLOCK - 1)] = id;
  w->rq_len++;
}


/* Forgets the site of the block barrier being gathered: the next arrival is
 * its first (see cuemu_worker.h). */
static inline void barrier_site_clear(cuemu_worker *w) {
  w->narrivals = 0;
  w->bar_file = NULL;
  w->bar_line = -1;
}

/* Keeps the first error of a launch and stops the launch. */
static void launch_stop(cuemu_launch *launch, cuemu_status status,
                        const char *message) {
  pthread_mutex_lock(&launch->error_lock);
  if (launch->status == CUEMU_SUCCESS) {
    snprintf(launch->message, sizeof launch->message, "%s", message);
    launch->status = status;
  }
  pthread_mutex_unlock(&launch->error_lock);
  atomic_store(&launch->stop, 1);
  cuemu__grid_stop(launch);
}

void cuemu__launch_error(cuemu_launch *launch, cuemu_status status,
                         const char *fmt, ...) {
  char buf[sizeof launch->message];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  /* Still in the context that found the error: a debugger stops here. */
  cuemu__error_stop(status, buf);
  launch_stop(launch, status, buf);
}

void cuemu__block_fail(cuemu_worker *w, cuemu_status status, const char *fmt,
                       ...) {
  /* One message buffer on the failing thread's stack, not two. */
  char buf[sizeof w->launch->message];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  cuemu__error_stop(status, buf);
  launch_stop(w->launch, status, buf);
  w->in_kernel = 0;
  cuemu__ctx_switch(&w->scratch, &w->main_ctx);
  abort(); /* The switch above never returns. */
}

/* Ends the block with a stack overflow of thread `tid`, whose unguarded
 * stack `s` lost its canary (cuemu_stack.h). The canary is written again:
 * the stack goes back to the pool. */
static CUEMU_NORETURN void stack_overflowed(cuemu_worker *w, cuemu_stack *s,
                                            cuemu_uint3 tid) {
  cuemu__stack_canary_set(s);
  cuemu__block_fail(w, CUEMU_STACK_OVERFLOW,
                    "thread (%u,%u,%u) of block (%u,%u,%u) in kernel %s "
                    "overflowed its %zu KiB stack; set CUEMU_STACK_SIZE (a "
                    "stack without a guard page, past vm.max_map_count: the "
                    "thread wrote below its stack, over memory that other "
                    "threads' stacks may use)",
                    tid.x, tid.y, tid.z, w->block_idx.x, w->block_idx.y,
                    w->block_idx.z, w->launch->kernel->name,
                    w->pool.stack_size / 1024);
}

/* The index of linear thread `id` of w's block. */
static cuemu_uint3 thread_index(const cuemu_worker *w, unsigned id) {
  unsigned bx = w->launch->block.x, by = w->launch->block.y;
  return (cuemu_uint3){id % bx, id / bx % by, id / bx / by};
}

/* Ends the block with a stack overflow of linear thread `id` if the canary
 * of stack `s` (or NULL), on which it ran, is broken. Out of line, called
 * only once a runner of w ran on a stack without a guard page: the
 * scheduler's paths that check (a thread's return, a barrier) keep their
 * code and registers as they were without canaries. */
static __attribute__((noinline, cold)) void check_stack_unguarded(
    cuemu_worker *w, cuemu_stack *s, unsigned id) {
  if (s && !cuemu__stack_intact(s))
    stack_overflowed(w, s, thread_index(w, id));
}

/* Checks the canary of stack `s` of linear thread `id`: one test of a
 * flag of w's while its threads' stacks all have a guard page. */
static inline __attribute__((always_inline)) void
check_stack(cuemu_worker *w, cuemu_stack *s, unsigned id) {
  if (__builtin_expect(w->unguarded_runners, 0))
    check_stack_unguarded(w, s, id);
}

/* Appends "(x,y,z)" to a message. */
static size_t put_dim(char *buf, size_t size, size_t len, cuemu_uint3 d) {
  if (len < size)
    len += (size_t)snprintf(buf + len, size - len, "(%u,%u,%u)", d.x, d.y, d.z);
  return len;
}

/* Describes the waiting threads grouped by where they wait, for divergence
 * and deadlock reports: "threads (0,0,0)..(15,0,0) [16] at k.cu:12; ...". */
static void describe_waiters(cuemu_worker *w, char *buf, size_t size) {
  size_t len = 0;
  buf[0] = '\0';
  unsigned char *seen = calloc(w->nthreads, 1);
  if (!seen)
    return;
  for (unsigned i = 0; i < w->nthreads && len < size; ++i) {
    if (w->state[i] != CUEMU_THREAD_WAITING || seen[i])
      continue;
    const cuemu_wait *site = &w->threads[i].wait;
    unsigned count = 0, last = i;
    for (unsigned j = i; j < w->nthreads; ++j) {
      const cuemu_wait *o = &w->threads[j].wait;
      if (w->state[j] == CUEMU_THREAD_WAITING && !seen[j] &&
          o->line == site->line && strcmp(o->file, site->file) == 0) {
        seen[j] = 1;
        count++;
        last = j;
      }
    }
    len += (size_t)snprintf(buf + len, size - len, "%sthread%s ",
                            len ? "; " : "", count > 1 ? "s" : "");
    len = put_dim(buf, size, len, w->threads[i].tid);
    if (count > 1) {
      if (len < size)
        len += (size_t)snprintf(buf + len, size - len, "..");
      len = put_dim(buf, size, len, w->threads[last].tid);
      if (len < size)
        len += (size_t)snprintf(buf + len, size - len, " [%u]", count);
    }
    if (len < size)
      len += (size_t)snprintf(buf + len, size - len, " wait at %s:%d",
                              site->file, site->line);
  }
  free(seen);
}

/* Every live thread waits: completes the rendezvous they wait at, or ends
 * the block with an error. */
static void resolve(cuemu_worker *w) {
  w->block_phase++;
  char where[1024];
  /* Before any waiting thread runs again on what an overflow overwrote. */
  if (__builtin_expect(w->unguarded_runners, 0))
    for (unsigned i = 0; i < w->nthreads; ++i)
      if (w->state[i] == CUEMU_THREAD_WAITING)
        check_stack_unguarded(w, w->threads[i].stack, i);
  if (w->narrivals != w->waiting &&
      (cuemu__warp_step_resolve(w) || cuemu__group_resolve(w) ||
       cuemu__warp_resolve(w)))
    return;
  if (w->narrivals == 0 || w->narrivals != w->waiting) {
    describe_waiters(w, where, sizeof where);
    cuemu__block_fail(w, CUEMU_DEADLOCK,
                      "kernel %s: block (%u,%u,%u) cannot make progress: %s",
                      w->launch->kernel->name, w->block_idx.x, w->block_idx.y,
                      w->block_idx.z, where);
  }
  if (w->bar_divergent) {
    describe_waiters(w, where, sizeof where);
    cuemu__block_fail(w, CUEMU_DIVERGENT_BARRIER,
                      "kernel %s: divergent __syncthreads in block (%u,%u,%u): "
                      "%s (if the threads' branch reads shared memory that "
                      "a thread wrote with no barrier in between, the "
                      "program races, which a GPU's timing may hide: a "
                      "build with --check=race (CUEMU_CC_CHECK=race) names "
                      "the accesses; CUEMU_SCHEDULE=reverse runs the "
                      "threads in another order)",
                      w->launch->kernel->name, w->block_idx.x, w->block_idx.y,
                      w->block_idx.z, where);
  }
  int across = w->bar_op == CUEMU_BARRIER_GRID ||
               w->bar_op == CUEMU_BARRIER_CLUSTER;
  if (w->bar_op == CUEMU_BARRIER_GRID)
    cuemu__grid_wait(w);
  if (w->launch->check) {
    if (w->bar_op != CUEMU_BARRIER_PLAIN && !across && w->exited)
      cuemu__check_vote_after_exit(w);
    cuemu__check_block_sync(w, across);
  }
  switch (w->bar_op) {
  case CUEMU_BARRIER_COUNT: w->bar_result = (int)w->bar_count; break;
  case CUEMU_BARRIER_AND: w->bar_result = w->bar_count == w->narrivals; break;
  case CUEMU_BARRIER_OR: w->bar_result = w->bar_count != 0; break;
  default: w->bar_result = 0; break;
  }
  /* The run queue is empty here: refill it with the waiting threads in
   * thread order, then in the schedule's order. When no thread has exited,
   * every thread waits here and the queue is 0, 1, 2, ... (copied rather
   * than gathered from the states, a third of the cost of a 256-thread
   * barrier's completion). */
  w->rq_head = 0;
  w->rq_len = 0;
  if (w->exited == 0 && w->waiting == w->nthreads) {
    memcpy(w->runq, w->identity, w->nthreads * sizeof *w->runq);
    w->rq_len = w->nthreads;
  } else {
    for (unsigned i = 0; i < w->nthreads; ++i)
      if (w->state[i] == CUEMU_THREAD_WAITING)
        w->runq[w->rq_len++] = i;
  }
  barrier_site_clear(w);
  w->waiting = 0;
  w->bar_count = 0;
  /* A barrier completed, which is progress, unless threads poll: then
   * they spin across barriers (each round re-reads a flag or a status
   * that another block sets, and finds it as it was), and their yields
   * must add up for the block to be seen spinning (cuemu_progress.c;
   * tests/programs/progress/later_block_barrier_loop.cu). */
  if (!cuemu__warp_step_polling(w))
    w->yield_streak = 0;
  permute(w, w->runq, w->rq_len);
}

static __attribute__((noreturn)) void runner_entry(void);
static __attribute__((noreturn)) void runner_entry_checked(void);

/* A runner's entry on each kind of stack (cuemu_stack.h). */
static const cuemu_stack_entries runner_entries = {runner_entry,
                                                   runner_entry_checked};

/* Switches from `save` to a new runner on stack `s`, its first frame the worker's pad
 * below the stack's top: a thread suspended at a __syncthreads() then keeps
 * its light frame (the 16 bytes below the kernel's stack pointer) and the
 * first 48 bytes of the kernel's frame, where its spilled values lie, in one
 * cache line. A 256-thread barrier touches each thread's stack once per
 * round, and the lines of all threads do not fit in the level-1 cache: a
 * second line per thread is a second miss. Every thread of a kernel reaches
 * its barriers at the same depth below its runner's first frame (stack tops
 * are whole cache lines apart), so the pad that a lazy thread's first
 * barrier computes (cuemu_block_sync_x86_64.S) serves the runners that
 * start after it. */
static inline void start_runner(cuemu_worker *w, cuemu_ctx *save,
                                cuemu_stack *s) {
  w->runner_pad = w->sync_pad;
  cuemu__ctx_switch_fresh(save, &s->tpl, w->sync_pad, s->entry);
}

/* Saves the running context in `save` and runs the unstarted threads in a
 * new runner on stack `s`; returns when `save` is resumed. */
static inline void run_next_unstarted(cuemu_worker *w, cuemu_ctx *save,
                                      cuemu_stack *s) {
  w->runner_stack = s;
  w->current = NULL;
  cuemu_thread_detached = 0;
  start_runner(w, save, s);
}

/* Leaves the running context (saving it in `save`) for the next thing to
 * run. `release` is the stack of a context that will never run again; it
 * goes back to the pool once another stack has been chosen. */
static void schedule(cuemu_worker *w, cuemu_ctx *save, cuemu_stack *release) {
  for (;;) {
    /* Woken threads first: the lanes of a warp collective then run their
     * next steps while their stacks are still in the cache, before other
     * warps start. Threads that only yielded come last, so that a spinning
     * thread cannot keep the others from starting. */
    unsigned id;
    int have = 0;
    if (w->rq_len) {
      id = cuemu__runq_pop(w);
      have = 1;
    } else if (w->next_unstarted < w->nthreads) {
      cuemu_stack *s = cuemu__stack_get(&w->pool);
      if (release)
        cuemu__stack_put(&w->pool, release);
      if (!s)
        cuemu__block_fail(w, CUEMU_LAUNCH_RESOURCES,
                          "kernel %s: no memory for a thread stack in block "
                          "(%u,%u,%u) (%u threads)",
                          w->launch->kernel->name, w->block_idx.x,
                          w->block_idx.y, w->block_idx.z, w->nthreads);
      run_next_unstarted(w, save, s);
      return;
    } else if (w->yq_len) {
      id = w->yieldq[w->yq_head];
      w->yq_head = (w->yq_head + 1) & (CUEMU_MAX_THREADS_PER_BLOCK - 1);
      w->yq_len--;
      have = 1;
    }
    if (release) {
      cuemu__stack_put(&w->pool, release);
      release = NULL;
    }
    if (have) {
      cuemu_thread *t = &w->threads[id];
      w->state[id] = CUEMU_THREAD_RUNNING;
      w->current = t;
      threadIdx = t->tid;
      cuemu_thread_detached = 1;
      if (&t->ctx != save)
        cuemu__ctx_switch(save, &t->ctx);
      return;
    }
    if (w->exited == w->nthreads) {
      w->in_kernel = 0;
      cuemu__ctx_switch(save, &w->main_ctx);
      return;
    }
    if (atomic_load_explicit(&w->launch->stop, memory_order_relaxed)) {
      /* The launch has ended (an assertion failed, or another block
       * failed): no rendezvous completes any more, the block ends here.
       * The context that called this never runs again, nor does its
       * stack, which is not in use once the switch is done. */
      if (release)
        cuemu__stack_put(&w->pool, release);
      w->in_kernel = 0;
      cuemu__ctx_switch(&w->scratch, &w->main_ctx);
      abort(); /* The switch above never returns. */
    }
    resolve(w);
  }
}

/* Marks threads [first, first + count) as exited, in the state array and in
 * the per-warp masks that warp collectives check. */
static inline __attribute__((always_inline)) void mark_one_exited(cuemu_worker *w, unsigned id) {
  w->block_marked = 1;
  w->state[id] = CUEMU_THREAD_EXITED;
  w->warp_exited[id / 32] |= 1u << (id % 32);
  w->warp_live[id / 32] &= ~(1u << (id % 32));
}

static void mark_exited(cuemu_worker *w, unsigned first, unsigned count) {
  if (count == 1) {
    mark_one_exited(w, first);
    return;
  }
  if (count == 0)
    return;
  w->block_marked = 1;
  memset(w->state + first, CUEMU_THREAD_EXITED, count);
  for (unsigned id = first, end = first + count; id < end;) {
    unsigned lane = id % 32, n = 32 - lane;
    if (n > end - id)
      n = end - id;
    unsigned bits = n == 32 ? 0xffffffffu : ((1u << n) - 1u) << lane;
    w->warp_exited[id / 32] |= bits;
    w->warp_live[id / 32] &= ~bits;
    id += n;
  }
}

/* Makes the thread that runs lazily in the runner a coroutine that owns
 * the runner's stack (w->current is NULL). */
static inline cuemu_thread *thread_adopt(cuemu_worker *w) {
  unsigned id = linear_tid(w, threadIdx);
  cuemu_thread *t = &w->threads[id];
  /* (t->id is id: set once, when the worker was made.) */
  t->tid = threadIdx;
  t->stack = w->runner_stack;
  w->runner_stack = NULL;
  w->block_marked = 1;
  w->state[id] = CUEMU_THREAD_RUNNING;
  /* The threads of the runner's range before this one have returned. */
  if (id != w->lazy_start) {
    mark_exited(w, w->lazy_start, id - w->lazy_start);
    w->exited += id - w->lazy_start;
  }
  w->next_unstarted = w->lazy_pos + (id - w->lazy_start) + 1;
  w->current = t;
  cuemu_thread_detached = 1;
  return t;
}

cuemu_thread *cuemu__thread_current(cuemu_worker *w) {
  if (w->current)
    return w->current;
  return thread_adopt(w);
}

/* Runs unstarted threads until none is left; returns only if none of them
 * blocked in this context. With `checked` (the runner's stack has no guard
 * page) the threads run one at a time and the stack's canary is checked
 * after each, so that a report names the thread that overflowed. */
static inline __attribute__((always_inline)) void
run_unstarted(cuemu_worker *w, int checked) {
  const cuemu_launch *L = w->launch;
  while (w->next_unstarted < w->nthreads) {
    unsigned pos = w->next_unstarted, start, count;
    if (L->schedule == CUEMU_SCHEDULE_FORWARD) {
      start = pos;
      count = checked ? 1 : w->nthreads - pos;
    } else {
      start = w->order[pos];
      count = 1;
    }
    w->lazy_pos = pos;
    w->lazy_start = start;
    w->yield_streak = 0;
    w->next_unstarted = pos + count;
    w->current = NULL;
    cuemu_thread_detached = 0;
    L->kernel->thunk(L->args, start, count);
    if (checked)
      check_stack_unguarded(w, w->runner_stack, start);
    w->exited += count;
    /* Threads still to finish may look at who exited (warp collectives);
     * a block that is complete needs no marks, which keeps barrier-free
     * kernels free of this cost. */
    if (w->exited != w->nthreads)
      mark_exited(w, start, count);
  }
}

static int next_block(cuemu_worker *w);

/* A runner: runs the unstarted threads of the block, and of the blocks
 * after it while none of their threads blocks. Its stack is the same
 * throughout: `checked` says whether it lacks a guard page (the stack's
 * entry, cuemu_stack.h, chose the runner), so that a runner on a guarded
 * stack tests nothing for canaries. */
static inline __attribute__((always_inline)) CUEMU_NORETURN void
runner(int checked) {
  cuemu_worker *w = cuemu__worker_self;
  run_unstarted(w, checked);
  while (w->exited == w->nthreads && !w->launch->cooperative) {
    /* No thread of the block blocked, so the block is done and this context
     * owns nothing but its stack: go on with the next block right here,
     * which saves two switches per block of a barrier-free kernel. */
    if (!next_block(w)) {
      w->in_kernel = 0;
      cuemu__ctx_switch(&w->scratch, &w->main_ctx);
      abort(); /* This context is never resumed. */
    }
    run_unstarted(w, checked);
  }
  cuemu_stack *mine = w->runner_stack;
  w->runner_stack = NULL;
  schedule(w, &w->scratch, mine);
  abort(); /* This context is never resumed. */
}

/* The runner on a stack with a guard page. */
static __attribute__((noreturn)) void runner_entry(void) { runner(0); }

/* The runner on a stack without one: from now on the worker checks the
 * canaries of its threads' stacks. */
static __attribute__((noreturn, cold)) void runner_entry_checked(void) {
  cuemu__worker_self->unguarded_runners = 1;
  runner(1);
}

/* Ends the current thread of w: its stack goes back to the pool, and the
 * next thread runs. With `checked` (a runner of w ran on a stack without a
 * guard page) the stack's canary is checked first. */
static inline __attribute__((always_inline)) CUEMU_NORETURN void
thread_finish(cuemu_worker *w, int checked) {
  cuemu_thread *t = w->current;
  unsigned id = (unsigned)(t - w->threads);
  cuemu_stack *s = t->stack;
  if (checked)
    check_stack_unguarded(w, s, id);
  t->stack = NULL;
  /* A thread that blocked and now returns: the common case. */
  mark_one_exited(w, id);
  w->exited++;
  w->yield_streak = 0;
  if (__builtin_expect(w->rq_len != 0, 1)) {
    /* Straight to the next thread of the run queue, as schedule() would
     * take it, without saving this context: it never runs again, and its
     * stack goes back to the pool (nothing takes it before the jump). */
    cuemu__stack_put(&w->pool, s);
    cuemu__ctx_jump(&w->scratch, &cuemu__runq_take(w)->ctx);
  }
  w->current = NULL;
  schedule(w, &w->scratch, s);
  abort(); /* This context is never resumed. */
}

/* thread_finish() with the canary check, out of line: the common path
 * only tests the flag and keeps its frame (the check returns to no
 * caller that needs registers saved). */
static __attribute__((noinline, cold)) CUEMU_NORETURN void
thread_finish_checked(cuemu_worker *w) {
  thread_finish(w, 1);
}

void cuemu_thread_finish(void) {
  cuemu_worker *w = cuemu__worker_self;
  if (__builtin_expect(w->unguarded_runners, 0))
    thread_finish_checked(w);
  thread_finish(w, 0);
}

/* Records the arrival of thread `t` at a block barrier whose site is the
 * one of the barrier being gathered (or that is divergent already). */
static inline __attribute__((always_inline)) void
barrier_arrive_here(cuemu_worker *w, cuemu_thread *t, int op, int predicate,
                    const char *file, int line) {
  t->wait.kind = CUEMU_SYNC_BARRIER;
  t->wait.op = op;
  t->wait.file = file;
  t->wait.line = line;
  t->wait.predicate = predicate;
  w->state[t->id] = CUEMU_THREAD_WAITING;
  w->waiting++;
  w->narrivals++;
  w->bar_count += predicate != 0;
}

/* Records the arrival of thread `t` at a block barrier: the first arrival
 * sets the site, and one at another site makes the barrier divergent. */
static inline __attribute__((always_inline)) void barrier_arrive(cuemu_worker *w, cuemu_thread *t, int op,
                           int predicate, const char *file, int line) {
  if (w->narrivals == 0) {
    w->bar_file = file;
    w->bar_line = line;
    w->bar_op = op;
    w->bar_divergent = 0;
  } else if (line != w->bar_line || op != w->bar_op ||
             (file != w->bar_file && strcmp(file, w->bar_file) != 0)) {
    w->bar_divergent = 1;
  }
  barrier_arrive_here(w, t, op, predicate, file, line);
}

/* A block barrier when the fast path below does not apply: outside a
 * kernel, in a thread that runs lazily in a runner (its first barrier),
 * when no other thread is ready to run (the last arrival), at the first
 * arrival (which sets the barrier's site) or at another site. */
static __attribute__((noinline)) int barrier_slow(cuemu_worker *w, int op,
                                                  int predicate,
                                                  const char *file, int line) {
  if (!w || !w->in_kernel)
    return op == CUEMU_BARRIER_PLAIN ? 0 : predicate != 0;
  cuemu_thread *t = cuemu__thread_current(w);
  check_stack(w, t->stack, t->id);
  barrier_arrive(w, t, op, predicate, file, line);
  if (w->rq_len != 0 && w->current == t)
    cuemu__thread_switch_next(w, t);
  else
    schedule(w, &t->ctx, NULL);
  /* The barrier's result stays put until this thread has read it: the next
   * barrier cannot complete before this thread arrives there. */
  return w->bar_result;
}

int cuemu_block_barrier(int op, int predicate, const char *file, int line) {
  cuemu_worker *w = cuemu__worker_self;
  cuemu_thread *t;
  /* The common case once every thread has started: this thread already
   * has its own stack, another one is ready to run, and this barrier is
   * the one being gathered (the site of a barrier whose first thread has
   * yet to arrive matches no call). Switching here, without schedule()'s
   * frame, keeps each thread's stack footprint at a couple of cache lines,
   * which is what a 256-thread barrier costs; the slow path is a separate
   * function so that this one saves only the registers it needs (the
   * switch saves the rest). */
  if (__builtin_expect(!w || (t = w->current) == NULL || w->rq_len == 0 ||
                           line != w->bar_line || file != w->bar_file ||
                           op != w->bar_op || !w->in_kernel,
                       0))
    return barrier_slow(w, op, predicate, file, line);
  barrier_arrive_here(w, t, op, predicate, file, line);
  cuemu__thread_switch_next(w, t);
  return w->bar_result;
}

/* __syncthreads() when the assembler fast path does not apply (and with
 * the ucontext backend, always): cuemu_block_sync_x86_64.S. */
void cuemu__block_sync_slow(const char *file, int line) {
  barrier_slow(cuemu__worker_self, CUEMU_BARRIER_PLAIN, 0, file, line);
}

/* The first __syncthreads() of a thread that runs lazily in a runner, when
 * another context is ready to take over (a thread of the run queue, or a
 * fresh runner for the unstarted threads), called by the assembler fast
 * path (cuemu_block_sync_x86_64.S) once it has pushed the thread's light
 * frame, whose saved stack pointer is `light`: makes the thread a
 * coroutine, records its arrival as barrier_slow() does, and leaves for the
 * next context without the frames of barrier_slow() and schedule(), nor a
 * second save of this thread. Returns (having recorded nothing but that the
 * thread is a coroutine) when the slow path must take the barrier: outside
 * a kernel, nothing else to run, no stack left. */
#if !CUEMU_CONTEXT_UCONTEXT && defined(__x86_64__)
/* Suspends thread `t`, which has arrived at a rendezvous, in the light
 * frame whose saved stack pointer is `light`, and leaves for the next
 * context: the first thread of the run queue when `s` is NULL, else a fresh
 * runner on stack `s` for the unstarted threads. */
static CUEMU_NORETURN void leave_light(cuemu_worker *w, cuemu_thread *t,
                                       void *light, cuemu_stack *s) {
  t->ctx.sp = light;
  if (s == NULL)
    cuemu__ctx_jump(&w->scratch, &cuemu__runq_take(w)->ctx);
  w->runner_stack = s;
  w->current = NULL;
  cuemu_thread_detached = 0;
  w->runner_pad = w->sync_pad;
  cuemu__ctx_enter_fresh(&w->scratch, &s->tpl, w->sync_pad, s->entry);
}

void cuemu__block_sync_lazy(const char *file, int line, void *light) {
  cuemu_worker *w = cuemu__worker_self;
  cuemu_stack *s = NULL;
  if (!w->in_kernel)
    return;
  /* (Which threads are unstarted is known once this one is a coroutine;
   * the slow path finds it one. Its stack's canary, if it has one, is
   * checked before the barrier completes: resolve().) */
  cuemu_thread *t = thread_adopt(w);
  if (w->rq_len == 0) {
    /* The unstarted thread after this one is next: a fresh runner. */
    if (w->next_unstarted >= w->nthreads ||
        (s = cuemu__stack_get(&w->pool)) == NULL)
      return;
  }
  barrier_arrive(w, t, CUEMU_BARRIER_PLAIN, 0, file, line);
  leave_light(w, t, light, s);
}

void cuemu__thread_wait_light(cuemu_worker *w, cuemu_thread *t, void *light) {
  cuemu_stack *s = NULL;
  w->waiting++;
  if (w->rq_len == 0 && (w->next_unstarted >= w->nthreads ||
                         (s = cuemu__stack_get(&w->pool)) == NULL)) {
    schedule(w, &t->ctx, NULL);
    return;
  }
  leave_light(w, t, light, s);
}
#endif

void cuemu__thread_wait(cuemu_worker *w, cuemu_thread *t) {
  w->waiting++;
  if (__builtin_expect(w->rq_len != 0, 1)) {
    /* As in the barrier: straight to the next runnable thread. */
    cuemu__thread_switch_next(w, t);
    return;
  }
  /* The first wait of a lazily started thread (a warp collective's lane):
   * straight to a fresh runner for the unstarted threads, as schedule()
   * would go, without its frame. */
  cuemu_stack *s;
  if (w->next_unstarted < w->nthreads &&
      (s = cuemu__stack_get(&w->pool)) != NULL) {
    run_next_unstarted(w, &t->ctx, s);
    return;
  }
  schedule(w, &t->ctx, NULL);
}

void cuemu__thread_wake(cuemu_worker *w, unsigned id) {
  w->state[id] = CUEMU_THREAD_RUNNABLE;
  w->waiting--;
  w->yield_streak = 0;
  runq_push(w, id);
}

/* Writes the ids first, first + 1, ... first + count - 1 to q, four at a
 * time. */
static inline void put_ids(unsigned *q, unsigned first, unsigned count) {
  typedef unsigned ids4 __attribute__((vector_size(16)));
  ids4 ids = {first, first + 1, first + 2, first + 3};
  unsigned i = 0;
  for (; i + 4 <= count; i += 4) {
    memcpy(q + i, &ids, sizeof ids);
    ids += 4;
  }
  for (; i < count; ++i)
    q[i] = first + i;
}

void cuemu__thread_wake_lanes(cuemu_worker *w, unsigned base,
                              unsigned lanes) {
  const unsigned mask = CUEMU_MAX_THREADS_PER_BLOCK - 1;
  unsigned tail = w->rq_head + w->rq_len, n = 0;
  /* (In locals: the byte stores could alias the worker's fields.) */
  unsigned char *state = w->state;
  unsigned *runq = w->runq;
  /* Run by run of consecutive lanes (the common case is every lane of a
   * warp but the one that completed the collective: one or two runs):
   * their states in one memset, their ids in a row, in at most two pieces
   * of the ring. */
  for (unsigned m = lanes; m;) {
    unsigned low = (unsigned)__builtin_ctz(m), rest = ~(m >> low);
    unsigned count = rest ? (unsigned)__builtin_ctz(rest) : 32u - low;
    unsigned first = base + low;
    unsigned at = (tail + n) & mask, room = CUEMU_MAX_THREADS_PER_BLOCK - at;
    memset(state + first, CUEMU_THREAD_RUNNABLE, count);
    if (count <= room) {
      put_ids(runq + at, first, count);
    } else {
      put_ids(runq + at, first, room);
      put_ids(runq, first + room, count - room);
    }
    n += count;
    m = low + count >= 32u ? 0u : m & (~0u << (low + count));
  }
  w->rq_len += n;
  w->waiting -= n;
  /* A collective completed, which is progress, unless the warp polls
   * between its collectives: then its lanes spin, and their yields must
   * add up for the block to be seen spinning (a block that waits for one
   * that has not started, cuemu_progress.c). */
  if (w->warp_polled[base / 32u])
    w->warp_polled[base / 32u] = 0;
  else
    w->yield_streak = 0;
}

static double seconds_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The launch's progress: the blocks taken (a worker takes one when its
 * block ends) and its threads' polls that found their flag changed. */
static unsigned long long launch_progress(cuemu_launch *L) {
  return atomic_load_explicit(&L->next_block, memory_order_relaxed) +
         atomic_load_explicit(&L->poll_changes, memory_order_relaxed);
}

/* How often (in yields) a spinning block looks at the clock. A yield of a
 * thread that polls comes after 256 of its polls, and a poll costs some 300 ns
 * when the lane's warp-mates wait at a barrier (its warp's lockstep looks at
 * each of them): the thread of a software grid barrier whose block waits at
 * __syncthreads(). At 4,096 yields such a block first looked at the clock
 * after 0.3 s, so the watchdog, after 1 s, gave its launch the blocks it
 * waited for; at 256 it looks every 20 ms, when more workers are due. The
 * clock (a vDSO call of some 25 ns) costs nothing next to 256 yields. */
#define CUEMU_SPIN_CHECK_EVERY 256u
/* How often (in yields) a spinning block of a launch with more workers
 * than it started with leaves its CPU to other OS threads. */
#define CUEMU_SPIN_LEAVE_CPU_EVERY 16u

/* Ends the block when its threads have done nothing but yield for longer
 * than the launch's spin timeout while the launch made no progress (no
 * block ended or computed, no poll found its flag changed): they wait for
 * something that cannot happen (a flag set by a thread stuck at a barrier,
 * or by a block that is not running). Before that, a block of a launch
 * that is not cooperative may be waiting for a block that has not
 * started: more blocks are made resident (cuemu_progress.c). The thread
 * yields at `pc`, with stack pointer `sp`. */
static void check_spinning(cuemu_worker *w, void *pc, void *sp) {
  if (w->yield_streak++ == 0) {
    w->yield_since = w->spin_clock = seconds_now();
    w->launch_progress = launch_progress(w->launch);
    return;
  }
  if (w->yield_streak % CUEMU_SPIN_CHECK_EVERY != 0) {
    /* Once a launch has more workers for its spinning blocks, they may
     * be more than the CPUs: a spinning block leaves its CPU now and then
     * to the blocks it waits for. */
    if (w->yield_streak % CUEMU_SPIN_LEAVE_CPU_EVERY == 0 &&
        atomic_load_explicit(&w->launch->widened, memory_order_relaxed))
      sched_yield();
    return;
  }
  double now = seconds_now(), elapsed = now - w->yield_since;
  if (elapsed >= CUEMU_PROGRESS_WIDEN_AFTER && !w->launch->cooperative)
    cuemu__progress_spinning(w, elapsed, pc, sp);
  if (now - w->spin_clock < w->launch->spin_timeout)
    return;
  /* Meanwhile another block ended, a thread found the flag it polls
   * changed, or a running block computes (its threads do not only yield):
   * the launch progresses, slower than this block's wait (under checkers,
   * on few CPUs), and the block may wait for it, as on a GPU. Its time
   * starts again. */
  unsigned long long progress = launch_progress(w->launch);
  if (progress != w->launch_progress ||
      !cuemu__watchdog_all_spin(w->launch, CUEMU_PROGRESS_REPORT_AFTER, now)) {
    w->launch_progress = progress;
    w->spin_clock = now;
    return;
  }
  char where[1024];
  describe_waiters(w, where, sizeof where);
  /* With synchronous streams the host thread that launched the kernel is
   * inside the launch until it ends, so a flag that thread would raise
   * after the launch (a GPU's launch returns at once) is never raised. */
  const char *sync_note =
      cuemu__config_streams_async()
          ? ""
          : "; with CUEMU_STREAMS=sync (cuemu-gdb's default) the kernel "
            "runs inside its launch, so the host thread that launched it "
            "cannot raise a flag the kernel waits for until the launch "
            "ends: run with CUEMU_STREAMS=async";
  cuemu__block_fail(w, CUEMU_DEADLOCK,
                    "kernel %s: block (%u,%u,%u) made no progress for %g s: "
                    "%u thread%s spin (yield or __nanosleep) waiting for "
                    "something that never happens%s%s (set "
                    "CUEMU_SPIN_TIMEOUT to wait longer)%s",
                    w->launch->kernel->name, w->block_idx.x, w->block_idx.y,
                    w->block_idx.z, w->launch->spin_timeout, w->yq_len + 1,
                    w->yq_len ? "s" : "", where[0] ? "; " : "", where,
                    sync_note);
}

void cuemu__thread_yield_at(cuemu_worker *w, void *pc, void *sp) {
  cuemu_thread *t = cuemu__thread_current(w);
  unsigned id = (unsigned)(t - w->threads);
  check_spinning(w, pc, sp);
  t->wait.kind = CUEMU_SYNC_YIELD;
  w->state[id] = CUEMU_THREAD_RUNNABLE;
  w->yieldq[(w->yq_head + w->yq_len) & (CUEMU_MAX_THREADS_PER_BLOCK - 1)] = id;
  w->yq_len++;
  cuemu__warp_step_yield(w, t);
  cuemu__warp_settle_active(w, id);
  schedule(w, &t->ctx, NULL);
}

void cuemu_thread_yield(void) {
  cuemu_worker *w = cuemu__worker_self;
  if (!w || !w->in_kernel)
    return;
  cuemu__thread_yield_at(w, __builtin_return_address(0),
                         __builtin_frame_address(0));
}

int cuemu_thread_in_kernel(void) {
  cuemu_worker *w = cuemu__worker_self;
  return w && w->in_kernel;
}

/* Makes the next block of the launch the current one; returns 0 when no
 * block is left or the launch has stopped. */
static int next_block(cuemu_worker *w) {
  cuemu_launch *L = w->launch;
  if (atomic_load_explicit(&L->stop, memory_order_relaxed))
    return 0;
  unsigned long long linear;
  if (L->workers == 1) {
    /* No other worker takes blocks: no locked instruction, which stalls
     * the loads after it (a few percent of a small barrier-free block). */
    linear = atomic_load_explicit(&L->next_block, memory_order_relaxed);
    atomic_store_explicit(&L->next_block, linear + 1, memory_order_relaxed);
  } else {
    linear = atomic_fetch_add(&L->next_block, 1);
  }
  if (linear >= L->nblocks)
    return 0;
  if (L->reversed_wave) {
    /* The last block of the wave first: a block waits only for blocks of
     * its own wave or of earlier ones, which can all be resident. */
    unsigned long long start = linear - linear % L->reversed_wave;
    unsigned long long end = start + L->reversed_wave;
    if (end > L->nblocks)
      end = L->nblocks;
    linear = start + (end - 1 - linear);
  }
  cuemu_uint3 b = {(unsigned)linear, 0, 0};
  if (L->grid.y != 1 || L->grid.z != 1) {
    /* (Two divisions: a fair part of a small barrier-free block's cost.) */
    unsigned long long rest = linear;
    b.x = (unsigned)(rest % L->grid.x);
    rest /= L->grid.x;
    b.y = (unsigned)(rest % L->grid.y);
    b.z = (unsigned)(rest / L->grid.y);
  }
  blockIdx = b;
  w->block_idx = b;
  w->nthreads = L->nthreads;
  w->next_unstarted = 0;
  w->exited = w->waiting = 0;
  w->rq_head = w->rq_len = 0;
  w->yq_head = w->yq_len = 0;
  barrier_site_clear(w);
  w->bar_count = 0;
  w->yield_streak = 0;
  cuemu__warp_step_forget_polls(w);
  w->current = NULL;
  if (w->block_marked) {
    w->block_marked = 0;
    unsigned warps = (w->nthreads + 31) / 32;
    memset(w->warp_waiting, 0, warps * sizeof w->warp_waiting[0]);
    memset(w->warp_exited, 0, warps * sizeof w->warp_exited[0]);
    memset(w->warp_live, 0xff, warps * sizeof w->warp_live[0]);
    memset(w->warp_gather, 0, warps * sizeof w->warp_gather[0]);
    memset(w->warp_stepping, 0, warps * sizeof w->warp_stepping[0]);
    memset(w->warp_owing, 0, warps * sizeof w->warp_owing[0]);
    memset(w->warp_spinning, 0, warps * sizeof w->warp_spinning[0]);
    memset(w->warp_polled, 0, warps * sizeof w->warp_polled[0]);
    if (w->nthreads % 32)
      w->warp_live[warps - 1] = (1u << (w->nthreads % 32)) - 1u;
    memset(w->state, CUEMU_THREAD_UNSTARTED, w->nthreads);
  }
  cuemu__named_barriers_reset();
  if (w->split)
    cuemu__cluster_split_reset(w);
  if (L->schedule != CUEMU_SCHEDULE_FORWARD) {
    w->rng = L->seed ^ (0x632be59bd9b4e019ull * (linear + 1));
    for (unsigned i = 0; i < w->nthreads; ++i)
      w->order[i] = i;
    permute(w, w->order, w->nthreads);
  }
  if (L->check)
    cuemu__check_block_begin(w);
  return 1;
}

/* Runs blocks from a fresh runner until a block ends in another context
 * (some of its threads blocked), in an error, or no block is left. */
static void run_blocks(cuemu_worker *w) {
  cuemu_stack *s = cuemu__stack_get(&w->pool);
  if (!s) {
    cuemu__launch_error(w->launch, CUEMU_LAUNCH_RESOURCES,
                        "kernel %s: no memory for a thread stack",
                        w->launch->kernel->name);
    return;
  }
  w->runner_stack = s;
  w->in_kernel = 1;
  start_runner(w, &w->main_ctx, s);
  w->in_kernel = 0;
  if (w->launch->check)
    cuemu__check_block_leave(w);
  /* A fault abandoned the block: report it now, outside the signal
   * handler, while the faulting thread's stack is still as it was. */
  if (w->fault.pending)
    cuemu__fault_report(w);
  else if (w->stuck.pending)
    cuemu__progress_report(w);
  if (w->exited != w->nthreads) {
    /* The block ended in an error: take back the stacks of its threads, and
     * forget the tile barriers it was gathering. */
    w->block_marked = 1;
    memset(w->group_arrived, 0, sizeof w->group_arrived);
    for (unsigned i = 0; i < w->nthreads; ++i) {
      if (w->threads[i].stack &&
          (w->state[i] == CUEMU_THREAD_WAITING ||
           w->state[i] == CUEMU_THREAD_RUNNABLE ||
           w->state[i] == CUEMU_THREAD_RUNNING)) {
        cuemu__stack_put(&w->pool, w->threads[i].stack);
      }
      w->threads[i].stack = NULL;
    }
  }
  /* A runner that ran its last blocks without any thread blocking comes
   * back still owning its stack. */
  if (w->runner_stack)
    cuemu__stack_put(&w->pool, w->runner_stack);
  w->runner_stack = NULL;
}

cuemu_worker *cuemu__worker_create(void) {
  /* On a cache line of its own: see the first fields. */
  size_t size = (sizeof(cuemu_worker) + 63) / 64 * 64;
  cuemu_worker *w = aligned_alloc(64, size);
  if (!w)
    return NULL;
  memset(w, 0, size);
  barrier_site_clear(w);
  w->threads = aligned_alloc(64, CUEMU_MAX_THREADS_PER_BLOCK * sizeof *w->threads);
  if (w->threads) {
    memset(w->threads, 0, CUEMU_MAX_THREADS_PER_BLOCK * sizeof *w->threads);
    for (unsigned i = 0; i < CUEMU_MAX_THREADS_PER_BLOCK; ++i)
      w->threads[i].id = i;
  }
  w->state = calloc(CUEMU_MAX_THREADS_PER_BLOCK, 1);
  w->order = calloc(CUEMU_MAX_THREADS_PER_BLOCK, sizeof *w->order);
  w->runq = calloc(CUEMU_MAX_THREADS_PER_BLOCK, sizeof *w->runq);
  w->yieldq = calloc(CUEMU_MAX_THREADS_PER_BLOCK, sizeof *w->yieldq);
  w->identity = malloc(CUEMU_MAX_THREADS_PER_BLOCK * sizeof *w->identity);
  if (!w->threads || !w->state || !w->order || !w->runq || !w->yieldq ||
      !w->identity) {
    cuemu__worker_destroy(w);
    return NULL;
  }
  for (unsigned i = 0; i < CUEMU_MAX_THREADS_PER_BLOCK; ++i)
    w->identity[i] = i;
  cuemu__stack_pool_init(&w->pool, 0, &runner_entries);
  return w;
}

void cuemu__worker_destroy(cuemu_worker *w) {
  if (!w)
    return;
  cuemu__stack_pool_destroy(&w->pool);
  free(w->split);
  free(w->threads);
  free(w->state);
  free(w->order);
  free(w->runq);
  free(w->yieldq);
  free(w->identity);
  free(w->dynamic_shared);
  free(w);
}

void cuemu__worker_run(cuemu_worker *w, cuemu_launch *L) {
  cuemu_worker *saved = cuemu__worker_self;
  cuemu__worker_self = w;
  w->launch = L;
  if (w->pool.stack_size != L->stack_size) {
    cuemu__stack_pool_destroy(&w->pool);
    cuemu__stack_pool_init(&w->pool, L->stack_size, &runner_entries);
    w->unguarded_runners = 0;
  }
  size_t need = L->dynamic_shared ? L->dynamic_shared : 16;
  if (w->dynamic_capacity < need) {
    void *p = NULL;
    /* 1024 bytes: the alignment of a GPU's shared window, which the
     * swizzled tensor copies (cuemu_ptx_tensor.h) and __align__(1024)
     * buffers rely on. */
    if (posix_memalign(&p, 1024, need) != 0) {
      cuemu__launch_error(L, CUEMU_LAUNCH_RESOURCES,
                          "kernel %s: no memory for %zu bytes of dynamic "
                          "shared memory",
                          L->kernel->name, need);
      cuemu__worker_self = saved;
      return;
    }
    free(w->dynamic_shared);
    w->dynamic_shared = p;
    w->dynamic_capacity = need;
  }
  cuemu_dynamic_shared = w->dynamic_shared;
  blockDim.x = L->block.x;
  blockDim.y = L->block.y;
  blockDim.z = L->block.z;
  gridDim.x = L->grid.x;
  gridDim.y = L->grid.y;
  gridDim.z = L->grid.z;
  w->block_dim = blockDim;
  w->block_marked = 1;
  w->steps_ready = 0;
  cuemu__fault_enter(w);
  cuemu__watchdog_enter(w);
  while (next_block(w)) {
    run_blocks(w);
    if (L->cooperative) {
      /* One block per worker, so that every block is resident. */
      if (w->exited == w->nthreads) {
        cuemu__grid_block_done(L);
        cuemu__cluster_block_done(w);
      }
      break;
    }
  }
  cuemu__watchdog_leave(w);
  cuemu__fault_leave(w);
  w->launch = NULL;
  cuemu__worker_self = saved;
}
