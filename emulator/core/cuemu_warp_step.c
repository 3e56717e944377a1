/*
 * cuemu_warp_step.c: volatile accesses in lockstep with the warp
 * (cuemu_warp_step.h).
 *
 * Warp-synchronous code written before Volta (the last warp of a reduction
 * unrolled through a volatile pointer, warp scans) has no __syncwarp(): it
 * relies on the lanes of a warp executing each access together. cuemu runs
 * a block's threads one after another between synchronisation points, so
 * lane 0 would run the whole unrolled tail before lane 16 had written
 * anything. Device code compiled by g++ calls cuemu_warp_step() before each
 * volatile access to memory (cuemu's GCC plugin inserts the calls); for an
 * access to the block's shared memory the lane waits there, as at a warp
 * collective, until every other lane of its warp that can still run has
 * reached a step as well; then the waiting lanes are all made runnable and
 * each makes one more access before it reaches its next step. So the k-th
 * volatile accesses of all the lanes come before any lane's (k+1)-th, as on
 * a GPU where the warp executes each load and store instruction together.
 *
 * Lanes that wait at a barrier or a collective, that exited, or that yield
 * (spin with __nanosleep) do not hold the others back: a lane that arrives
 * at a step when no other lane of its warp can run goes on at once, so a
 * kernel pays only for volatile accesses to shared memory, and a lane that
 * polls a flag alone is not slowed down. The steps do not order anything
 * for the checkers: racecheck still reports the accesses that nothing
 * orders (a race since Volta, where the lanes of a warp may diverge).
 *
 * Volatile accesses to global memory are stepped as well
 * (cuemu_warp_step_volatile: a reduction that finishes in place in its
 * input array through a volatile pointer), but not the plain accesses of
 * a loop (cuemu_warp_step), which in global memory are mostly a thread's
 * own. A lane that makes many volatile accesses in a row to one global
 * address polls it: it yields now and then, so that the other threads of
 * its block run, and a flag set by a block that has not started yet is
 * seen as a spin (cuemu_progress.h); a lane alone in its warp goes on
 * from such a step untouched, so that its yields keep it marked as
 * spinning. The shims' atomics that leave memory as it was (an atomic
 * load, atomicAdd(p, 0), a failed lock's compare-and-swap) count the same
 * way (cuemu_atomic_poll).
 */
#include <link.h>
#include <stdint.h>

#include <cuemu/cuemu_warp_step.h>

#include "core/cuemu_worker.h"

#define WARP_SIZE 32u

/* What find_tls() looks for and finds: the thread-local block of the module
 * that holds `code` (its static __shared__ variables, which the shims make
 * `static thread_local`), in the calling thread. */
typedef struct tls_search {
  uintptr_t code;
  uintptr_t lo, size;
  size_t modid;
  int found, pending;
} tls_search;

/* The thread-local block of a module, made for the calling thread if it is
 * not yet: glibc's entry point of the general-dynamic TLS model (exported
 * by the dynamic linker on x86-64 and aarch64), with the module's id and
 * offset 0. */
typedef struct tls_index {
  unsigned long module, offset;
} tls_index;
extern void *__tls_get_addr(tls_index *ti);

/* dl_iterate_phdr's callback: stops (returns 1) at the module holding
 * s->code. */
static int find_tls(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  tls_search *s = data;
  const ElfW(Phdr) *tls = NULL;
  int holds = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_TLS)
      tls = ph;
    else if (ph->p_type == PT_LOAD &&
             s->code - (info->dlpi_addr + ph->p_vaddr) < ph->p_memsz)
      holds = 1;
  }
  if (!holds)
    return 0;
  s->found = 1;
  if (tls && info->dlpi_tls_data) {
    s->lo = (uintptr_t)info->dlpi_tls_data;
    s->size = tls->p_memsz;
  } else if (tls) {
    /* The module has thread-local variables, but this thread has not
     * touched any yet (a module loaded with dlopen makes its block
     * lazily). */
    s->pending = 1;
    s->modid = info->dlpi_tls_modid;
    s->size = tls->p_memsz;
  }
  return 1;
}

/* Finds where the running launch's static shared memory lies on this
 * worker: the thread-local block of the module of the kernel's thunk. */
static void find_static_shared(cuemu_worker *w) {
  tls_search s = {(uintptr_t)w->launch->kernel->thunk, 0, 0, 0, 0, 0};
  dl_iterate_phdr(find_tls, &s);
  if (s.pending) {
    /* Made now (outside dl_iterate_phdr's lock), as the kernel's first
     * access to a static __shared__ variable would make it. */
    tls_index ti = {(unsigned long)s.modid, 0};
    s.lo = (uintptr_t)__tls_get_addr(&ti);
    if (!s.lo)
      s.size = 0;
  }
  w->steps_static_lo = s.lo;
  w->steps_static_size = s.size;
  w->steps_ready = 1;
}

void cuemu__static_shared_range(cuemu_worker *w, uintptr_t *lo,
                                uintptr_t *size) {
  if (!w->steps_ready)
    find_static_shared(w);
  *lo = w->steps_static_lo;
  *size = w->steps_static_size;
}

/* Whether `a` lies in the running block's shared memory: the dynamic
 * buffer, or the static __shared__ variables of the kernel's module. */
static inline int in_shared(cuemu_worker *w, uintptr_t a) {
  if (a - (uintptr_t)cuemu_dynamic_shared < w->launch->dynamic_shared)
    return 1;
  if (__builtin_expect(!w->steps_ready, 0))
    find_static_shared(w);
  return a - w->steps_static_lo < w->steps_static_size;
}

/* Whether a lane of warp `base` other than those of `me_bit` and those
 * waiting at a step may still run before it reaches a step
 * (cuemu__thread_may_run); one that waits at a block barrier lets the steps
 * go on when nothing else in the block can run (cuemu__warp_step_resolve).
 * (The caller is a coroutine, so the lanes that ran lazily before it are
 * marked exited.) */
static int others_can_run(const cuemu_worker *w, unsigned base,
                          unsigned me_bit) {
  /* Only the live lanes: warp_live has the bit of every lane that exists
   * and has not exited, so the lanes that dropped out of a narrowing tail
   * (if (lane < 16) ...; if (lane < 8) ...) and returned are not looked at
   * one by one at every step of the others. */
  unsigned lanes = w->warp_live[base / WARP_SIZE];
  lanes &= ~(me_bit | w->warp_stepping[base / WARP_SIZE]);
  for (; lanes; lanes &= lanes - 1)
    if (cuemu__thread_may_run(w, base + (unsigned)__builtin_ctz(lanes), 1))
      return 1;
  return 0;
}

/* Makes the lanes of warp `base` that wait at a step runnable (in lane
 * order); returns 1 when there were any. A lane that skipped a branch arm
 * (cuemu_warp_step_skip) waits out one round less, and goes on with the
 * round that makes the skipped arm's last accesses; when no lane makes an
 * access (`accessing`: the calling lane makes one), no round makes one, and
 * the skipping lanes all go on. */
static int release(cuemu_worker *w, unsigned base, int accessing) {
  unsigned warp = base / WARP_SIZE;
  unsigned lanes = w->warp_stepping[warp];
  if (!lanes)
    return 0;
  unsigned owing = lanes & w->warp_owing[warp];
  unsigned wake = lanes & ~owing;
  if (!wake && !accessing) {
    /* Nothing happened: no progress of the block either (a lane that polls
     * a flag another block sets and skips the arm that stores it must not
     * make its spinning block look busy, cuemu__thread_wake_lanes). */
    unsigned char polled = w->warp_polled[warp];
    w->warp_polled[warp] = 1;
    w->warp_owing[warp] = 0;
    w->warp_stepping[warp] = 0;
    cuemu__thread_wake_lanes(w, base, lanes);
    w->warp_polled[warp] = polled;
    return 1;
  }
  for (unsigned o = owing; o; o &= o - 1) {
    unsigned lane = (unsigned)__builtin_ctz(o);
    if (--w->step_owed[base + lane] == 0) {
      wake |= 1u << lane;
      w->warp_owing[warp] &= ~(1u << lane);
    }
  }
  w->warp_stepping[warp] = lanes & ~wake;
  cuemu__thread_wake_lanes(w, base, wake);
  return 1;
}

/* A thread that comes back this many times to one address among its
 * volatile accesses (in the block's shared memory: its warp-mates' steps
 * count too), finding the same value there at the first and the last,
 * yields: it polls a flag that another thread or block sets
 * (cuemu_progress.h). */
#define POLL_YIELD_EVERY 256u

/* A thread that makes more accesses than this elsewhere without coming
 * back to its anchor has left the loop that read it: the address of its
 * next access becomes its anchor. */
#define POLL_ROUND_MAX 1024u

/* The aligned 32-bit word that holds `address` (in the page of the access,
 * which the previous access to it has shown mapped). */
static inline unsigned word_at(const volatile void *address) {
  uintptr_t word = (uintptr_t)address & ~(uintptr_t)3;
  return __atomic_load_n((const unsigned *)word, __ATOMIC_RELAXED);
}

/* The thread that polls `address` yields, at `pc`, unless the address is
 * on its own stack (a volatile local variable, a loop counter of a delay
 * loop, polls nothing). Out of line, so that the hook's other paths need
 * no frame. */
static __attribute__((noinline, cold)) void
poll_yield(cuemu_worker *w, const volatile void *address, void *pc) {
  if (!cuemu__kernel_stack_holds(w, (const void *)address))
    cuemu__thread_yield_at(w, pc, __builtin_frame_address(0));
}

/* A volatile access to `address`: the thread polls when the address is its
 * run's anchor and the value there is the same as POLL_YIELD_EVERY returns
 * before (looked at only then, which keeps the common access cheap), be
 * the anchor all it reads (a flag) or one of a few words it checks in turn
 * (a vertex's status and its neighbours', which another warp of the block
 * decides: tests/programs/progress/same_block_poll_cycle.cu); returns 1
 * when the thread is due to yield. A loop that stores to a volatile
 * location, or reads one that keeps changing (a counter of its own, a
 * delay loop's), is not a poll: it does not yield, and its block is not
 * taken for one that waits for another block. */
static inline int poll_due_in(cuemu_worker *w, cuemu_poll_run *run,
                              const volatile void *address) {
  if (address != run->address) {
    if (++run->since > POLL_ROUND_MAX) {
      run->address = address;
      run->count = 0;
      run->since = 0;
      run->stable = 0;
    }
    return 0;
  }
  run->since = 0;
  if (++run->count % POLL_YIELD_EVERY != 0) {
    if (run->count == 1)
      run->value = word_at(address);
    return 0;
  }
  unsigned value = word_at(address);
  if (value != run->value) {
    run->value = value;
    run->stable = 0;
    /* What it waits for moved: the launch progresses. */
    atomic_fetch_add_explicit(&w->launch->poll_changes, 1,
                              memory_order_relaxed);
    return 0;
  }
  run->stable = 1;
  return 1;
}

/* A poll is due by the worker's run of accesses (the lanes of a warp that
 * poll one flag together) or by the lane's own (each lane its own flag,
 * the lanes taking turns at a warp collective); both runs are counted. */
static inline int poll_due(cuemu_worker *w, const volatile void *address) {
  int due = poll_due_in(w, &w->poll, address);
  const cuemu_thread *t = w->current;
  unsigned lane = t ? t->id % 32u : 0u;
  due |= poll_due_in(w, &w->lane_poll[lane], address);
  if (t && w->lane_poll[lane].count != 0)
    w->warp_polled[t->id / 32u] = 1;
  return due;
}

/* Lane `t` waits at a step of file:line until a round releases it. */
static void wait_round(cuemu_worker *w, cuemu_thread *t, const char *file,
                       int line) {
  t->wait.kind = CUEMU_SYNC_STEP;
  t->wait.op = 0;
  t->wait.file = file;
  t->wait.line = line;
  w->state[t->id] = CUEMU_THREAD_WAITING;
  w->warp_stepping[t->id / WARP_SIZE] |= 1u << (t->id % WARP_SIZE);
  cuemu__thread_wait(w, t);
}

/* The lane waits at a step (at `file`:`line`) until every other lane of
 * its warp that can still run has reached one too; the last of them
 * releases the round. With `alone_untouched`, a lane that has no such
 * warp-mate and none waiting at a step goes on with its state as it was:
 * a lone lane that polls a global flag stays marked as spinning by its
 * last yield (cuemu_progress.h). */
static void step(cuemu_worker *w, const char *file, int line,
                 int alone_untouched) {
  cuemu_thread *t = cuemu__thread_self(w);
  unsigned id = t->id, base = id & ~(WARP_SIZE - 1u);
  unsigned bit = 1u << (id % WARP_SIZE);
  if (!others_can_run(w, base, bit)) {
    if (alone_untouched && !w->warp_stepping[base / WARP_SIZE])
      return;
    /* The last lane of the round: the others make their access too, and a
     * lane waiting at an __activemask gets the lanes that wait with it
     * (the ones that step here spin, for all it can know). */
    t->wait.kind = CUEMU_SYNC_STEP;
    cuemu__warp_settle_active(w, id);
    if (release(w, base, 1) && w->rq_len &&
        (w->launch->shadow_checks & CUEMU_CHECK_RACE)) {
      /* Under racecheck the releasing lane makes its access after the
       * lanes it released, so that the round's accesses are made in lane
       * order. Racecheck keeps one read of each byte, the first of
       * concurrent ones: when all the lanes read a word that the last of
       * them then writes, that lane's read kept first hid the others' from
       * its write (tests/buggy/race_shared_war_after_broadcast.cu). */
      cuemu__thread_wake(w, id);
      cuemu__thread_wait(w, t);
    }
    return;
  }
  wait_round(w, t, file, line);
}

/* A step at an address in the block's shared memory. A shared flag polled
 * by the lanes of a warp (set by another warp of the block) is a poll too:
 * the lanes step among themselves forever, so they must yield now and
 * then, for the lane of another warp that waits at a step whose warp-mates
 * have exited since to be released, and for a block whose other threads
 * wait at a barrier to be seen as spinning
 * (tests/programs/trialbugs/faults.cu). */
static void step_shared(cuemu_worker *w, const volatile void *address,
                        const char *file, int line) {
  if (__builtin_expect(poll_due_in(w, &w->shared_poll, address), 0))
    poll_yield(w, address, __builtin_return_address(0));
  step(w, file, line, 0);
}

void cuemu_warp_step(const volatile void *address, const char *file,
                     int line) {
  cuemu_worker *w = cuemu__worker_self;
  if (!w || !w->in_kernel)
    return;
  if (!in_shared(w, (uintptr_t)address)) {
    if (__builtin_expect(poll_due(w, address), 0))
      poll_yield(w, address, __builtin_return_address(0));
    return;
  }
  step_shared(w, address, file, line);
}

void cuemu_warp_step_volatile(const volatile void *address, const char *file,
                              int line) {
  cuemu_worker *w = cuemu__worker_self;
  if (!w || !w->in_kernel)
    return;
  if (in_shared(w, (uintptr_t)address)) {
    step_shared(w, address, file, line);
    return;
  }
  /* Global memory (and mapped host memory) too: a reduction that works in
   * place in its input array unrolls its last warp through a volatile
   * pointer into global memory (tests/programs/warpvol/global_tail.cu).
   * A flag polled there is a poll as before; the lane's own stack (a
   * volatile local reached through a pointer) is no exchange. */
  if (__builtin_expect(poll_due(w, address), 0))
    poll_yield(w, address, __builtin_return_address(0));
  if (cuemu__kernel_stack_holds(w, (const void *)address))
    return;
  step(w, file, line, 1);
}

void cuemu_warp_step_skip(unsigned rounds, const char *file, int line) {
  cuemu_worker *w = cuemu__worker_self;
  if (!w || !w->in_kernel || rounds == 0)
    return;
  cuemu_thread *t = cuemu__thread_self(w);
  unsigned id = t->id, base = id & ~(WARP_SIZE - 1u), warp = base / WARP_SIZE;
  unsigned bit = 1u << (id % WARP_SIZE);
  if (!others_can_run(w, base, bit)) {
    /* No lane of the warp makes the arm's accesses now: none to wait for
     * (the lanes that took the arm ran before, or all skip it). */
    if (!(w->warp_stepping[warp] & ~w->warp_owing[warp])) {
      release(w, base, 0);
      return;
    }
    /* The last lane of the round: the others make their access, and this
     * lane has waited one round. */
    release(w, base, 0);
    if (--rounds == 0)
      return;
  }
  w->step_owed[id] = (unsigned short)(rounds > 0xffffu ? 0xffffu : rounds);
  w->warp_owing[warp] |= bit;
  wait_round(w, t, file, line);
}

void cuemu_atomic_poll(const volatile void *address) {
  cuemu_worker *w = cuemu__worker_self;
  if (!w || !w->in_kernel)
    return;
  /* Shared memory too: a thread that spins with atomics on a shared flag
   * that another warp of its block sets must let that warp run. */
  if (__builtin_expect(poll_due(w, address), 0))
    poll_yield(w, address, __builtin_return_address(0));
}

int cuemu__warp_step_polling(const cuemu_worker *w) {
  int stable = w->poll.stable | w->shared_poll.stable;
  for (unsigned lane = 0; lane < 32u; ++lane)
    stable |= w->lane_poll[lane].stable;
  return stable;
}

void cuemu__warp_step_forget_polls(cuemu_worker *w) {
  /* The run in shared memory starts again: the block's shared memory is
   * new, and the returns a warp-synchronous kernel's lanes make to their
   * own elements (a flag each lane clears, stores 0 to again and reads
   * every round) added up over the blocks and launches that a worker ran
   * until they were taken for a poll, and the lane that yielded fell out of
   * its warp's lockstep (tests/programs/warpvol/divergent_arms.cu: the
   * 16-key sort after the sorts of 2 to 15 keys). */
  w->shared_poll = (cuemu_poll_run){0, 0, 0, 0, 0};
  w->poll.stable = 0;
  for (unsigned lane = 0; lane < 32u; ++lane)
    w->lane_poll[lane].stable = 0;
}

int cuemu__warp_step_resolve(cuemu_worker *w) {
  int woke = 0;
  for (unsigned base = 0; base < w->nthreads; base += WARP_SIZE)
    woke |= release(w, base, 0);
  return woke;
}

void cuemu__warp_step_yield(cuemu_worker *w, cuemu_thread *t) {
  /* Any warp: the last lane that held a warp's steps back may have exited
   * since, and with a thread that yields the block never runs out of work
   * (cuemu__warp_step_resolve is not called). */
  (void)t;
  for (unsigned base = 0; base < w->nthreads; base += WARP_SIZE)
    if (w->warp_stepping[base / WARP_SIZE] && !others_can_run(w, base, 0))
      release(w, base, 0);
}
