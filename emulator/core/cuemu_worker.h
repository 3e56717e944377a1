/*
 * cuemu_worker.h: the state of one launch and of the OS threads (workers)
 * that run its blocks. Internal to libcuemu.
 *
 * A worker runs blocks one at a time. The threads of a block run lazily: a
 * "runner" context calls the kernel's thunk for a range of threads as plain
 * calls; when one of them blocks (a barrier, a collective, a yield), the
 * runner's stack becomes that thread's stack and a fresh runner continues
 * with the next thread. See cuemu_block.c.
 */
#ifndef CUEMU_WORKER_H
#define CUEMU_WORKER_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_device.h>

#include "base/cuemu_config.h"
#include "context/cuemu_context.h"
#include "core/cuemu_stack.h"

/* The states of an emulated thread within its block. */
enum cuemu_thread_state {
  /* The thread has not run yet, or it ran to completion in a runner
   * without ever blocking. */
  CUEMU_THREAD_UNSTARTED = 0,
  /* The thread is running now. */
  CUEMU_THREAD_RUNNING,
  /* The thread waits at a rendezvous; its wait record says which. */
  CUEMU_THREAD_WAITING,
  /* The thread is in the run queue. */
  CUEMU_THREAD_RUNNABLE,
  /* The thread returned after having blocked at least once. */
  CUEMU_THREAD_EXITED
};

/* Where and why a thread waits. */
typedef struct cuemu_wait {
  int kind;          /* enum cuemu_sync_kind */
  int op;            /* enum cuemu_barrier_op, or enum cuemu_warp_op */
  const char *file;
  int line;
  int predicate;
} cuemu_wait;

/* The operands and result of a warp collective a thread waits at. */
typedef struct cuemu_warp_wait {
  /* (arg and width first, as one 8-byte word for the x86-64 fast path,
   * cuemu_warp_sync_x86_64.S.) */
  int arg;
  int width;
  unsigned mask;
  const char *name;  /* the intrinsic, for messages */
  unsigned long long value;
  unsigned long long result;
} cuemu_warp_wait;

/* A thread that has blocked at least once (one slot per thread of a block).
 * A barrier touches only the first cache line of each slot. */
typedef struct __attribute__((aligned(64))) cuemu_thread {
  cuemu_ctx ctx;        /* saved while not running */
  cuemu_stack *stack;   /* owned from its first suspension to its exit */
  cuemu_uint3 tid;
  unsigned id;          /* the linear thread index: the slot's position */
  cuemu_wait wait;
  cuemu_warp_wait warp __attribute__((aligned(64)));
} cuemu_thread;

/* One launch, shared by the workers that run its blocks. */
typedef struct cuemu_launch {
  const cuemu_kernel_desc *kernel;
  void **args;
  cuemu_dim3 grid, block;
  size_t dynamic_shared;
  /* The launch's temporal grid number (PTX's %gridid): one per launch of
   * the process, counted from 1; a rerun of schedule perturbation keeps
   * it. */
  unsigned long long grid_id;
  unsigned nthreads;              /* per block */
  unsigned long long nblocks;
  atomic_ullong next_block;
  /* The polls of its threads that found their flag changed (a block's
   * end moves next_block): the launch progresses, and a block that spins
   * meanwhile may wait for it (cuemu_block.c's spin timeout). */
  atomic_ullong poll_changes;
  unsigned workers;               /* how many take its blocks */
  /* Nonzero: the blocks are taken in reverse order within each wave of
   * this many, the blocks the device holds at once (the second run of
   * schedule perturbation, cuemu_check_perturb.c); zero: in order. */
  unsigned long long reversed_wave;
  atomic_int stop;                /* set by the first error */
  int schedule;                   /* enum cuemu_schedule_kind */
  unsigned long long seed;
  size_t stack_size;
  double spin_timeout;            /* seconds, see cuemu_config.h */
  int checks;                     /* CUEMU_CHECK asks for checkers */
  unsigned check_mask;            /* CUEMU_CHECK's checkers */
  int check_set;                  /* CUEMU_CHECK is set */
  int check_shared_init;          /* CUEMU_CHECK_SHARED_INIT=1 */
  unsigned shadow_checks;         /* race/mem/init bits running (check/) */
  struct cuemu_check_launch *check; /* the checkers' state, or NULL */
  atomic_int warned_inactive;     /* the inactive-lane warning was given */
  /* Integer divisions that trapped on the host and were given the GPU's
   * result (cuemu_fault.c): how many, and the first one's address. */
  atomic_ulong divisions_emulated;
  _Atomic(void *) division_pc;
  int cooperative;                /* every block resident: one per worker */
  pthread_mutex_t grid_lock;      /* grid.sync(), see cuemu_grid.c */
  pthread_cond_t grid_cond;
  unsigned long long grid_arrived, grid_done, grid_generation;
  pthread_mutex_t error_lock;
  struct cuemu_printf_fifo *printf_fifo; /* printf() records (cuemu_printf.h) */
  void *grid_context;             /* cuemu_config's, see cuemu_core.h */
  int replaying;                  /* a rerun of the launch (schedule
                                     perturbation): its launches from kernel
                                     code were made by the first run */
  /* Blocks that wait for other blocks (cuemu_progress.c): the most workers
   * whose stacks the process can map, and the state made when a block
   * first spins (NULL until then), under its lock. */
  unsigned most_workers;
  pthread_mutex_t progress_lock;
  struct cuemu_progress *progress;
  int progress_closed;            /* the blocks have run: no more workers */
  atomic_int widened;             /* workers were started for spinning */
  /* The launch waits for the worker pool, which another launch (on
   * another device or stream) holds: none of its blocks can start yet, and
   * the watchdog does not count the wait (cuemu_pool.c). */
  atomic_int queued;
  cuemu_dim3 cluster;             /* blocks per cluster; zero: none */
  struct cuemu_cluster *clusters; /* their state (cuemu_cluster.c) */
  /* Reports after which the launch goes on (check/cuemu_check_report.c):
   * whether one was made, whether the first is in `message`, and whether
   * they end the launch with CHECK_REPORT once its blocks ran (the C API's
   * launches) or leave it a success (a whole program's). */
  atomic_int reported;
  int report_kept;
  int reports_fail;
  int whole_program; /* cuemu_config's */
  cuemu_status status;            /* first error */
  char message[8192];             /* room for 32 lanes with long paths */
} cuemu_launch;

/* A thread's run of volatile accesses, as cuemu_warp_step.c follows it to
 * find a thread that polls: the address it keeps coming back to (its
 * anchor), how many times it came back, the value seen there at the first
 * return (its aligned 32-bit word), and how many accesses to other
 * addresses it made since it was last there. A poll of one flag comes back
 * at every access; a loop that checks a few words in turn (its own
 * vertex's status, then its neighbours') comes back once a round. */
typedef struct cuemu_poll_run {
  const volatile void *address;
  unsigned count, value, since;
  /* Whether the value was the same at the last POLL_YIELD_EVERY returns:
   * the thread polls now, and a barrier that completes meanwhile is no
   * progress of its block (cuemu__warp_step_polling). */
  int stable;
} cuemu_poll_run;

typedef struct cuemu_worker {
  /* What a block barrier's fast path reads and writes, first and together
   * (cuemu_block.c): the running thread, the thread slots and states, the
   * run queue, and the block barrier being gathered: how many arrived, and
   * where the first one waits (bar_file NULL and bar_line -1 while none
   * has: every arrival that does not match the site goes the slow way). */
  cuemu_thread *current;          /* NULL while a runner runs lazily */
  cuemu_thread *threads;          /* CUEMU_MAX_THREADS_PER_BLOCK slots */
  unsigned char *state;           /* enum cuemu_thread_state per thread */
  unsigned *runq;                 /* ring of runnable thread ids */
  unsigned rq_head, rq_len;
  unsigned narrivals, waiting;
  const char *bar_file;
  int bar_line, bar_op;
  unsigned bar_count;             /* arrivals whose predicate was non-zero */
  int bar_result;
  int in_kernel;
  int bar_divergent;
  /* Bytes a fresh runner leaves unused at the top of its stack, so that
   * the kernel's stack pointer at its __syncthreads() lies 16 bytes into a
   * cache line (set by a lazy thread's first barrier, see
   * cuemu_block_sync_x86_64.S), and the pad of the current runner. */
  unsigned sync_pad, runner_pad;

  cuemu_ctx main_ctx;             /* the worker's own stack, between blocks */
  /* Where a cold error path builds the details of its message, rather than
   * on a kernel thread's (possibly 16 KiB) stack. */
  char detail[sizeof ((cuemu_launch *)0)->message];
  cuemu_ctx scratch;              /* saved into by contexts that never resume */
  cuemu_stack_pool pool;
  unsigned *order;                /* start order of the threads (non-forward) */
  unsigned *identity;             /* 0, 1, 2, ...: a full run queue */
  unsigned *yieldq;               /* ring of threads that yielded */
  unsigned yq_head, yq_len;

  cuemu_launch *launch;
  cuemu_uint3 block_idx;
  cuemu_uint3 block_dim;
  unsigned nthreads;
  unsigned next_unstarted;        /* position in the start order */
  unsigned lazy_pos, lazy_start;  /* the range the current runner runs */
  unsigned exited;
  /* A runner ran on a stack of the pool without a guard page (every stack
   * that a thread owns was a runner's first): the scheduler checks the
   * canaries of threads' stacks (cuemu_block.c). */
  unsigned char unguarded_runners;
  cuemu_stack *runner_stack;      /* stack of the current runner, if any */
  unsigned long long rng;
  /* Whether the per-thread states and the per-warp masks below may differ
   * from a fresh block's: set when a thread is made a coroutine or marked
   * exited, and for a launch's first block. A barrier-free block, whose
   * threads all return from the thunk, leaves them as they were. */
  int block_marked;

  /* Per warp of the block, the lanes waiting at a warp collective: a lane
   * arriving at one checks its whole mask only when this says it may be
   * complete. */
  unsigned warp_waiting[CUEMU_MAX_THREADS_PER_BLOCK / 32];
  /* Per warp, the lanes that have exited. */
  unsigned warp_exited[CUEMU_MAX_THREADS_PER_BLOCK / 32];
  /* Per warp, the lanes that exist and have not exited: those that take
   * part in a collective whose mask names them. */
  unsigned warp_live[CUEMU_MAX_THREADS_PER_BLOCK / 32];
  /* Per warp, the collective being gathered (cuemu_warp.c): the lanes that
   * wait at a collective of this op and mask (set by the first of them to
   * arrive; a lane that waits at another collective is not counted), and
   * whether they all passed the same shuffle operands. When the lanes
   * counted are all the live lanes of the mask, the collective completes
   * without looking at each lane's wait record. */
  struct cuemu_warp_gather {
    unsigned lanes;
    int alike;
    unsigned long long key;       /* the op, and the mask in the high half */
    unsigned long long operands;  /* the arg, and the width in the high half */
  } warp_gather[CUEMU_MAX_THREADS_PER_BLOCK / 32];
  /* Per tile barrier being gathered, the threads that arrived (zero when
   * none is), indexed by the tile's size (64 << level) and its position:
   * nested tiles that start at the same thread are different barriers. */
  unsigned short group_arrived[5][CUEMU_MAX_THREADS_PER_BLOCK / 64];

  /* Yields since the block last made progress (a barrier completed, a
   * thread started or exited), and when that streak began; when the
   * launch was last seen progressing during the streak (the spin
   * timeout's start), and its progress (next_block and poll_changes)
   * seen then. */
  unsigned yield_streak;
  double yield_since;
  double spin_clock;
  unsigned long long launch_progress;
  /* The run of volatile accesses to memory outside the block's shared
   * memory: a thread that keeps coming back to one address and finds the
   * same value there polls it, and yields now and then
   * (cuemu_warp_step.c). */
  cuemu_poll_run poll;
  /* The same per lane of a warp: the lanes of a warp take turns at each of
   * its collectives, and each may poll an address of its own, which breaks
   * the worker's run of accesses to one address at every turn (CUB's
   * decoupled look-back polls one predecessor tile per lane between two
   * __any_sync). */
  cuemu_poll_run lane_poll[32];

  void *dynamic_shared;
  size_t dynamic_capacity;

  /* The split cluster barrier's state for the running block, made at its
   * first use (cuemu_cluster.c). */
  struct cuemu_split_barrier *split;

  /* A fault in kernel code: the signal handler only records it here and
   * leaves; the worker builds the report (cuemu__fault_report). */
  struct {
    int pending;
    int sig, code;
    void *addr, *pc, *sp;
    int decoded; /* addr was decoded from the instruction (no address in
                    the signal: cuemu__ctx_fault_operand) */
    cuemu_uint3 thread;
  } fault;
  /* A block that spins waiting on a block that cannot be resident: its
   * thread only records it here and leaves the block; the worker builds
   * the report (cuemu__progress_report, cuemu_progress.c). */
  struct {
    int pending;
    double elapsed;
    unsigned long long unstarted;
    void *pc, *sp;
    cuemu_uint3 thread;
  } stuck;
  /* The user's call site of a library call that touches the user's memory
   * for the kernel (printf reading a %s string), named when it faults. */
  const char *call_file;
  int call_line;

  /* Lockstep of volatile accesses (cuemu_warp_step.c): per warp, the
   * lanes waiting at a step (cleared with the per-warp masks above); and
   * the running launch's static shared memory on this worker (the kernel
   * module's thread-local block), found at the first step of a launch
   * (steps_ready, cleared when a launch starts). */
  unsigned warp_stepping[CUEMU_MAX_THREADS_PER_BLOCK / 32];
  /* Per warp, the lanes among warp_stepping that skipped the accesses of a
   * branch arm (cuemu_warp_step_skip) and wait out as many rounds of the
   * lanes that make them, each lane's count of rounds still to wait in
   * step_owed. */
  unsigned warp_owing[CUEMU_MAX_THREADS_PER_BLOCK / 32];
  unsigned short step_owed[CUEMU_MAX_THREADS_PER_BLOCK];
  /* Per warp, the lanes that yielded since a lane of the warp began to wait
   * at an __activemask: they had the chance to reach it and spin instead
   * (cuemu_warp.c). */
  unsigned warp_spinning[CUEMU_MAX_THREADS_PER_BLOCK / 32];
  /* Per warp, whether one of its lanes polled (read again the address it
   * read last, cuemu_warp_step.c) since the warp's last collective
   * completed: the completion of a collective of a warp that polls between
   * its collectives (__any_sync around a look-back) is no progress of its
   * block (cuemu__thread_wake_lanes). */
  unsigned char warp_polled[CUEMU_MAX_THREADS_PER_BLOCK / 32];
  int steps_ready;
  uintptr_t steps_static_lo, steps_static_size;
  /* As poll, for the steps' accesses to the block's shared memory (a flag
   * that another warp raises), counted apart so that a loop polling a
   * global flag while it steps on a shared variable still polls. */
  cuemu_poll_run shared_poll;
  /* Steps of the block and of each warp, for the order of printf's lines
   * (cuemu_printf.c): how many times the block's waiting threads were
   * resolved (a block barrier completed), and how many collectives of
   * each warp (or tile barriers over it) completed. */
  unsigned block_phase;
  unsigned warp_phase[CUEMU_MAX_THREADS_PER_BLOCK / 32];
} cuemu_worker;

/* Where the running launch's static __shared__ variables lie on worker w
 * (the calling one): the thread-local block of the kernel's module, which
 * for a module loaded with dlopen (cuModuleLoad, NVRTC) is not at a fixed
 * distance from the thread pointer (cuemu_warp_step.c). */
void cuemu__static_shared_range(cuemu_worker *w, uintptr_t *lo,
                                uintptr_t *size);

/* The worker of the calling OS thread (NULL outside launches). */
extern __thread cuemu_worker *cuemu__worker_self CUEMU_TLS_IE;

/* Creates or frees a worker's own state. */
cuemu_worker *cuemu__worker_create(void);
void cuemu__worker_destroy(cuemu_worker *w);

/* Runs blocks of `launch` until none is left or the launch stops. Sets
 * cuemu__worker_self for its duration. */
void cuemu__worker_run(cuemu_worker *w, cuemu_launch *launch);

/* Ends the running block with an error: records the message (the first error
 * of a launch wins), stops the launch and returns to the worker's own
 * context. Kernel code or a fault handler. */
CUEMU_NORETURN void cuemu__block_fail(cuemu_worker *w, cuemu_status status,
                                      const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Clears the named barriers of PTX (cuemu_named_barrier.c) for a new block. */
void cuemu__named_barriers_reset(void);

/* Records an error of the launch without leaving the current context. */
void cuemu__launch_error(cuemu_launch *launch, cuemu_status status,
                         const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The thread running now, made a coroutine of its own if it was running
 * lazily in a runner (cuemu_block.c). Kernel code. */
cuemu_thread *cuemu__thread_current(cuemu_worker *w);

/* The same, with the check for a thread that already is a coroutine
 * inlined. */
static inline cuemu_thread *cuemu__thread_self(cuemu_worker *w) {
  cuemu_thread *t = w->current;
  return __builtin_expect(t != NULL, 1) ? t : cuemu__thread_current(w);
}

/* A lazy thread's first __syncthreads(), called by its x86-64 assembler
 * fast path with the saved stack pointer of the thread's light frame;
 * returns only when the slow path must take the barrier (cuemu_block.c). */
void cuemu__block_sync_lazy(const char *file, int line, void *light);

/* A warp collective's arrival in a thread that runs lazily in a runner (its
 * first blocking call), called by the x86-64 assembler fast path
 * (cuemu_warp_sync_x86_64.S) with its operands as that passes them and the
 * saved stack pointer of the thread's light frame: returns the result when
 * the collective completes here or the wait took a full switch; else the
 * thread resumes from the light frame (cuemu_warp.c). */
unsigned long long cuemu__warp_sync_lazy(unsigned long long key,
                                         unsigned long long value,
                                         unsigned long long operands,
                                         const char *name, const char *file,
                                         int line, void *light);

/* __syncthreads()'s slow path, called by cuemu_block_sync (its x86-64
 * assembler fast path, cuemu_block_sync_x86_64.S). Kernel code. */
void cuemu__block_sync_slow(const char *file, int line);

/* Suspends thread `t`, which has filled in its wait record and is marked
 * waiting, until another thread wakes it. Kernel code. */
void cuemu__thread_wait(cuemu_worker *w, cuemu_thread *t);

/* cuemu__thread_wait() for a thread suspended in a light frame on x86-64
 * (a warp collective's first wait in a thread that ran lazily, see
 * cuemu_warp_sync_x86_64.S), whose saved stack pointer is `light`: leaves
 * for the next thread or a fresh runner without saving another context, so
 * that the thread resumes from the light frame and this never returns;
 * when neither can run now, waits as cuemu__thread_wait() does and returns
 * when the thread runs again. Kernel code. */
void cuemu__thread_wait_light(cuemu_worker *w, cuemu_thread *t, void *light);

/* Takes the next thread of the run queue, which must not be empty. */
static inline unsigned cuemu__runq_pop(cuemu_worker *w) {
  unsigned head = w->rq_head, id = w->runq[head];
  w->rq_head = (head + 1) & (CUEMU_MAX_THREADS_PER_BLOCK - 1);
  w->rq_len--;
  return id;
}

/* Makes the first thread of the run queue, which must not be empty, the
 * running one (its state, w->current, threadIdx); the caller resumes it. */
static inline cuemu_thread *cuemu__runq_take(cuemu_worker *w) {
  unsigned next_id = cuemu__runq_pop(w);
  cuemu_thread *next = &w->threads[next_id];
  w->state[next_id] = CUEMU_THREAD_RUNNING;
  w->current = next;
  threadIdx = next->tid;
  return next;
}

/* Suspends the running thread `t` and runs the first thread of the run
 * queue, which must not be empty; returns when `t` runs again. */
static inline void cuemu__thread_switch_next(cuemu_worker *w,
                                             cuemu_thread *t) {
  cuemu_thread *next = cuemu__runq_take(w);
  cuemu__ctx_switch(&t->ctx, &next->ctx);
}

/* cuemu__thread_wait() with its common case inlined: another thread is
 * ready to run. */
static inline void cuemu__thread_wait_fast(cuemu_worker *w, cuemu_thread *t) {
  if (__builtin_expect(w->rq_len != 0, 1)) {
    w->waiting++;
    cuemu__thread_switch_next(w, t);
    return;
  }
  cuemu__thread_wait(w, t);
}

/* cuemu_thread_yield() for a thread that spins at `pc` (with stack pointer
 * `sp`), the place a report of the spin names (cuemu_block.c). Kernel
 * code. */
void cuemu__thread_yield_at(cuemu_worker *w, void *pc, void *sp);

/* Makes waiting thread `id` runnable again. */
void cuemu__thread_wake(cuemu_worker *w, unsigned id);

/* Makes the waiting threads base + l runnable, for each bit l of `lanes`,
 * in lane order (a warp collective that completed). */
void cuemu__thread_wake_lanes(cuemu_worker *w, unsigned base, unsigned lanes);

/* Whether thread `id` of the block may still run before the lanes of its
 * warp that wait (at a lockstep step or an __activemask) go on: a thread
 * that runs, is runnable or has not started may, and so does one that waits
 * at a block barrier while the run queue is not empty (the threads a
 * completed barrier releases stay marked waiting until they run). One that
 * waits at anything else or has exited may not; one that yielded may not
 * when `yield_blocks` says it spins waiting for something. */
static inline int cuemu__thread_may_run(const cuemu_worker *w, unsigned id,
                                        int yield_blocks) {
  int kind = w->threads[id].wait.kind;
  switch (w->state[id]) {
  case CUEMU_THREAD_EXITED:
    return 0;
  case CUEMU_THREAD_WAITING:
    return kind == CUEMU_SYNC_BARRIER && w->rq_len != 0;
  case CUEMU_THREAD_RUNNABLE:
    return kind != CUEMU_SYNC_YIELD || !yield_blocks;
  default:
    return 1;
  }
}

/* Lockstep of volatile accesses (cuemu_warp_step.c). Called when no thread
 * of the block can run: releases the lanes waiting at a step (returns 1
 * when there were any). */
int cuemu__warp_step_resolve(cuemu_worker *w);
/* Whether a thread of the block polls now: came back to one address with
 * the same value there for its last POLL_YIELD_EVERY returns. */
int cuemu__warp_step_polling(const cuemu_worker *w);
/* Forgets the polls of the previous block (at the start of a block). */
void cuemu__warp_step_forget_polls(cuemu_worker *w);
/* Called when thread `t` yields (it is marked so): releases the lanes
 * waiting at a step in each warp whose other lanes all wait elsewhere,
 * yield or have exited. */
void cuemu__warp_step_yield(cuemu_worker *w, cuemu_thread *t);

/* Called when no thread of the block can run: completes the tile barriers
 * whose last live thread exited (returns 1), or ends the block with an
 * error for a tile barrier that cannot complete (cuemu_group.c). */
int cuemu__group_resolve(cuemu_worker *w);

/* Called when no thread of the block can run and the waiting threads are
 * not all at one block barrier: completes what the warp collectives can
 * (returns 1 when it woke threads), or ends the block with an error that
 * explains why the warp collectives cannot complete (cuemu_warp.c). */
int cuemu__warp_resolve(cuemu_worker *w);
/* Completes the __activemask calls of the warp of thread `id` if no other
 * lane of it can still run; called when that thread yields or is the last
 * lane of a lockstep round (cuemu_warp.c). */
void cuemu__warp_settle_active(cuemu_worker *w, unsigned id);

/* Cooperative launches (cuemu_grid.c): the cross-block wait of grid.sync(), called when a block's part of
 * it completes; the note that a block has finished; and the wake-up of the
 * blocks waiting when the launch stops. */
void cuemu__grid_wait(cuemu_worker *w);
void cuemu__grid_block_done(cuemu_launch *launch);
void cuemu__grid_stop(cuemu_launch *launch);

/* The coordinates of the thread running now on `w`. */
cuemu_uint3 cuemu__worker_thread_idx(const cuemu_worker *w);

/* The stack of w's running kernel thread (its local memory): a pooled
 * coroutine stack or, for a thread that runs as a plain call, the calling
 * OS thread's own stack. Call from that OS thread (cuemu_address_space.c). */
void cuemu__kernel_stack(cuemu_worker *w, uintptr_t *base, size_t *size);

/* Whether p lies in the stack of w's running kernel thread. */
int cuemu__kernel_stack_holds(cuemu_worker *w, const void *p);

/* Whether p lies in the shared memory of w's block: its dynamic buffer or
 * the static __shared__ variables (thread-local objects of the worker).
 * Call from w's OS thread (cuemu_address_space.c). */
int cuemu__block_shared_holds(cuemu_worker *w, const void *p);

/* Installs the fault handlers and an alternate signal stack for the
 * calling OS thread, which both stay: a launch looks again (system calls)
 * only when its last look is a second old (cuemu_fault.c). The second
 * call does nothing. */
void cuemu__fault_enter(cuemu_worker *w);
/* Hands the protection-key faults of host threads (not a kernel's) to
 * `hook`, with the signal's frame, which handles them when they are its
 * own (non-zero: the handler returns, and the access runs again: it
 * faults again when reported, or goes on with the access the hook gave
 * in the frame); kernels' threads always have access to `key`
 * (cuemu_rt_managed_guard.c). */
void cuemu__fault_set_host_hook(int (*hook)(void *address, void *uc),
                                int key);
/* Hands every protection fault (SIGSEGV of an access that the page's
 * protection forbids, any thread's, a kernel's too) to `hook` first, which
 * handles those of pages it protected itself (non-zero: the handler
 * returns and the access runs again), and puts the fault handler in place
 * (cuemu_rt_pinned_guard.c). cuemu__fault_ensure() puts it back when the
 * program has installed its own since (at most once a second), as at a
 * launch: before memory is protected. */
void cuemu__fault_set_access_hook(int (*hook)(void *address, void *uc));
void cuemu__fault_ensure(void);
void cuemu__fault_leave(cuemu_worker *w);

/* After a block was abandoned by a fault (w->fault.pending), ends the
 * launch with a message naming the kernel, the thread, the fault and the
 * user's source line. Called on the worker, outside the signal handler. */
void cuemu__fault_report(cuemu_worker *w);

/* Under the checkers (CUEMU_CHECK), warns about the integer divisions by
 * zero of a launch that ended, which were given the GPU's result. */
void cuemu__fault_divisions_report(cuemu_launch *launch);

#endif /* CUEMU_WORKER_H */
