/*
 * cuemu_watchdog.c: the kernel watchdog (see cuemu_watchdog.h and
 * docs/streams.md). Launches and the OS threads that run their blocks are
 * in two small tables; a thread of its own looks at them ten times a
 * second. To name the source line where a block's running thread is, it
 * interrupts that OS thread with SIGURG, whose handler only notes the
 * interrupted instruction, and copies the top of its stack, and waits (up
 * to SAMPLE_WAIT_MS) until every interrupted thread has noted them. While
 * it waits the lock is free: the launch may end meanwhile, and a launch
 * number (not its address, which a later launch may reuse) tells.
 *
 * A program may handle SIGURG itself: the handler it had before the
 * watchdog started, or installed since (found when a report is due, which
 * puts ours back), gets every SIGURG that is not ours. Ours are sent with
 * pthread_sigqueue() and carry SAMPLE_SIGNAL in their value.
 *
 * The report is made from a copy taken under the lock (the samples), and
 * the lines are found without the lock, by a second thread of ours made
 * at the start (finding a line takes the dynamic linker's lock and the
 * allocator's, and runs addr2line): a stuck thread, or any other, may hold
 * those for ever, so the watchdog waits for the lines at most
 * SYMBOLISE_WAIT_MS and reports the places not found as unknown. The
 * report itself is written with write(2), from a buffer on the stack.
 * A launch whose blocks have not started for a while is also offered
 * more workers (cuemu__progress_idle): its blocks may spin for blocks not
 * started.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "core/cuemu_watchdog.h"
#include "core/cuemu_progress.h"

enum { MAX_LAUNCHES = 64, MAX_RUNNERS = 1024 };

/* How long a report waits for the interrupted threads to note where they
 * are, and how often it looks. */
enum { SAMPLE_WAIT_MS = 2000, SAMPLE_POLL_MS = 5 };

/* The value our SIGURG carries. */
#define SAMPLE_SIGNAL 0x63756575 /* "cueu" */

/* How long a report waits for the source lines of its samples. */
enum { SYMBOLISE_WAIT_MS = 5000 };

/* The most blocks a report names. */
enum { MAX_SAMPLES = 64 };

/* Seconds without progress after which a launch is reported without
 * CUEMU_TIMEOUT. */
#define WARN_AFTER 60.0

/* A launch watched: `since` is when it last made progress, that is, when
 * its count of blocks taken (next_block: a worker takes the next block
 * when it has finished one) was last seen to move from `seen_next`, or a
 * thread of a block it runs was last seen to end (ended_print() moved
 * from `seen_ended`); `still_since` is when the threads its blocks run
 * were last seen to change from `seen_running` (running_print()). */
typedef struct watched {
  cuemu_launch *launch;
  unsigned long long number; /* unique to this launch */
  unsigned long long seen_next, seen_ended;
  double since;
  int warned;
  unsigned long long seen_running;
  double still_since;
  /* When a thread of a block it runs was last seen to arrive at a block
   * barrier (arrived_print() moved from `seen_arrived`): the host's wait
   * takes that for progress too (cuemu__watchdog_still_seconds()). */
  unsigned long long seen_arrived, seen_phases;
  double arrived_since;
} watched;

/* A worker running blocks on an OS thread. `outer` is the runner the same
 * OS thread ran before it (a launch made from a kernel thread runs on
 * it), or -1; `asked` the number of the launch whose report interrupted
 * it last. */
typedef struct runner {
  cuemu_worker *worker;
  pthread_t thread;
  int outer;
  unsigned long long asked;
  /* Set by the handler of SIGURG: the words of the stack first (in
   * runner_words), pc last. */
  size_t nwords;
  _Atomic(void *) pc;
  const cuemu_uint3 *thread_idx; /* the OS thread's threadIdx */
} runner;

/* A block running, as a report names it: copied from its runner under
 * the lock, its place found without it. */
typedef struct sample {
  cuemu_uint3 block, thread;
  cuemu_fault_where at;
  void *words[CUEMU_FAULT_SCAN_WORDS];
  char call_file[512]; /* a copy: the module may be unloaded meanwhile */
  char place[1100];
} sample;

/* The samples of a report: the symbolising thread reads `at` and writes
 * `place`. Two sets: one that a stuck symbolising thread still holds is
 * left to it. */
typedef struct samples {
  sample s[MAX_SAMPLES];
  int count;
} samples;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static watched launches[MAX_LAUNCHES];
static runner runners[MAX_RUNNERS];
/* The stack words of each runner's last sample (nwords of them are), kept
 * out of `runners`, which a child of fork() clears: clearing 4 MiB would
 * make every child write as many pages. */
static void *runner_words[MAX_RUNNERS][CUEMU_FAULT_SCAN_WORDS];
static pthread_once_t started = PTHREAD_ONCE_INIT;
static double limit; /* CUEMU_TIMEOUT; 0: none */
static unsigned long long launch_numbers;
/* The runner this OS thread runs now, or -1 (read by the handler of
 * SIGURG: initial-exec, so that reading it allocates nothing). */
static __thread int current_runner
    __attribute__((tls_model("initial-exec"))) = -1;
static int warned_launches, warned_runners; /* the tables were full */

/* The program's own handling of SIGURG, which ours hands other SIGURGs
 * to: two copies, the one in use published last, so that a handler never
 * reads a half-written one. */
static struct sigaction program_actions[2];
static _Atomic(struct sigaction *) program_action;

static samples sample_sets[2];
static int sample_set; /* the one the next report fills */
/* The symbolising thread: asked to find the places of `asked_set`, it
 * sets `done` (under symbolise_lock). `symboliser_stuck`: it did not
 * answer in time once, and is asked no more. */
static pthread_mutex_t symbolise_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t symbolise_asked, symbolise_done;
static samples *asked_set;
static int symboliser_ready, symboliser_stuck, places_found;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Hands a SIGURG that is not ours to the program's handler, with the
 * signals it asked to block (SIGURG's default action is to ignore it). */
static void chain(int sig, siginfo_t *info, void *context) {
  const struct sigaction *a = atomic_load(&program_action);
  if (!a || (!(a->sa_flags & SA_SIGINFO) &&
             (a->sa_handler == SIG_DFL || a->sa_handler == SIG_IGN)))
    return;
  sigset_t before;
  pthread_sigmask(SIG_BLOCK, &a->sa_mask, &before);
  if (a->sa_flags & SA_SIGINFO)
    a->sa_sigaction(sig, info, context);
  else
    a->sa_handler(sig);
  pthread_sigmask(SIG_SETMASK, &before, NULL);
}

/* Notes where the interrupted thread is, and copies the top of its
 * kernel thread's stack (async-signal-safe). */
static void on_sample(int sig, siginfo_t *info, void *context) {
  if (!info || info->si_code != SI_QUEUE || info->si_pid != getpid() ||
      info->si_value.sival_int != SAMPLE_SIGNAL) {
    chain(sig, info, context);
    return;
  }
  const ucontext_t *uc = context;
  /* The runners of this OS thread, innermost first: each is there. */
  int i = current_runner;
  for (int n = 0; i >= 0 && n < MAX_RUNNERS; i = runners[i].outer, ++n) {
#if defined(__x86_64__)
    void **sp = (void **)uc->uc_mcontext.gregs[REG_RSP];
    void *pc = (void *)uc->uc_mcontext.gregs[REG_RIP];
#else
    void **sp = NULL;
    void *pc = NULL;
    (void)uc;
#endif
    /* The stack of the worker's running kernel thread: it is this OS
     * thread's, so the worker does not change it meanwhile. */
    cuemu_worker *w = runners[i].worker;
    const cuemu_stack *s = w->current ? w->current->stack : w->runner_stack;
    size_t n_words = 0;
    if (s && sp && cuemu__stack_contains(s, sp)) {
      n_words = (size_t)(s->base + s->size - (unsigned char *)sp) /
                sizeof(void *);
      if (n_words > CUEMU_FAULT_SCAN_WORDS)
        n_words = CUEMU_FAULT_SCAN_WORDS;
      for (size_t k = 0; k < n_words; ++k)
        runner_words[i][k] = sp[k];
    }
    runners[i].nwords = n_words;
    atomic_store(&runners[i].pc, pc ? pc : (void *)1);
  }
}

/* Whether the slot `slot` of launches still holds launch number `number`
 * (the lock held). */
static int still_running(int slot, unsigned long long number) {
  return launches[slot].launch && launches[slot].number == number;
}

/* Whether every runner asked by report number `number` has noted where it
 * is, or has left (the lock held). */
static int all_noted(unsigned long long number) {
  for (int i = 0; i < MAX_RUNNERS; ++i)
    if (runners[i].worker && runners[i].asked == number &&
        !atomic_load(&runners[i].pc))
      return 0;
  return 1;
}

/* Ends the process with the watchdog's status. Standard output is flushed
 * only if no other thread holds it (a kernel thread may, for ever). */
static void end_process(void) {
  if (ftrylockfile(stdout) == 0) {
    fflush_unlocked(stdout);
    funlockfile(stdout);
  }
  _exit(CUEMU_WATCHDOG_EXIT);
}

/* Writes a line of the report to standard error with write(2): no lock of
 * the C library's, which another thread may hold for ever. */
__attribute__((format(printf, 1, 2))) static void say(const char *format,
                                                      ...) {
  char text[2048];
  va_list args;
  va_start(args, format);
  int n = vsnprintf(text, sizeof text, format, args);
  va_end(args);
  if (n < 0)
    return;
  size_t left = (size_t)n < sizeof text ? (size_t)n : sizeof text - 1;
  const char *p = text;
  while (left > 0) {
    ssize_t done = write(2, p, left);
    if (done <= 0)
      return;
    p += done;
    left -= (size_t)done;
  }
}

/* The symbolising thread: finds the places of the samples it is asked
 * for, one by one (places_found counts them), without any lock held. */
static void *symbolise(void *arg) {
  (void)arg;
  pthread_setname_np(pthread_self(), "cuemu-lines");
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, NULL);
  pthread_mutex_lock(&symbolise_lock);
  for (;;) {
    while (!asked_set)
      pthread_cond_wait(&symbolise_asked, &symbolise_lock);
    samples *set = asked_set;
    pthread_mutex_unlock(&symbolise_lock);
    for (int k = 0; k < set->count; ++k) {
      cuemu__fault_place_at(&set->s[k].at, set->s[k].place,
                            sizeof set->s[k].place);
      pthread_mutex_lock(&symbolise_lock);
      places_found = k + 1;
      pthread_mutex_unlock(&symbolise_lock);
    }
    pthread_mutex_lock(&symbolise_lock);
    asked_set = NULL;
    pthread_cond_signal(&symbolise_done);
  }
  return NULL;
}

/* Finds the places of `set` on the symbolising thread, waiting for them
 * at most SYMBOLISE_WAIT_MS: the places not found by then stay "an
 * unknown place", and the thread (stuck on a lock) is asked no more. */
static void find_places(samples *set) {
  for (int k = 0; k < set->count; ++k)
    snprintf(set->s[k].place, sizeof set->s[k].place, "an unknown place");
  pthread_mutex_lock(&symbolise_lock);
  if (!symboliser_ready || symboliser_stuck || !set->count) {
    pthread_mutex_unlock(&symbolise_lock);
    return;
  }
  struct timespec until;
  clock_gettime(CLOCK_MONOTONIC, &until);
  until.tv_sec += SYMBOLISE_WAIT_MS / 1000;
  until.tv_nsec += (long)(SYMBOLISE_WAIT_MS % 1000) * 1000000L;
  if (until.tv_nsec >= 1000000000L) {
    until.tv_sec++;
    until.tv_nsec -= 1000000000L;
  }
  places_found = 0;
  asked_set = set;
  pthread_cond_signal(&symbolise_asked);
  while (asked_set &&
         pthread_cond_timedwait(&symbolise_done, &symbolise_lock, &until) !=
             ETIMEDOUT) {
  }
  if (asked_set) {
    /* The places found so far are kept; the set stays with the thread. */
    symboliser_stuck = 1;
    for (int k = places_found; k < set->count; ++k)
      snprintf(set->s[k].place, sizeof set->s[k].place,
               "an unknown place (instruction %p; finding its line waited "
               "for a lock that another thread holds)",
               set->s[k].at.pc);
    sample_set ^= 1;
  }
  pthread_mutex_unlock(&symbolise_lock);
}

/* Puts our handler of SIGURG in place, keeping the program's (the one
 * there before, or one it installed since ours) for the other SIGURGs.
 * Called with the lock held (or before the watchdog runs). */
static void install_sampler(void) {
  struct sigaction current;
  if (sigaction(SIGURG, NULL, &current) != 0)
    return;
  if ((current.sa_flags & SA_SIGINFO) && current.sa_sigaction == on_sample)
    return;
  struct sigaction *slot = atomic_load(&program_action) == &program_actions[0]
                               ? &program_actions[1]
                               : &program_actions[0];
  *slot = current;
  atomic_store(&program_action, slot);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sample;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGURG, &sa, NULL);
}

/* Reports the launch in slot `slot` (the lock held, and held again on
 * return): every block running and where. Nothing if the launch ends
 * while its threads are sampled. */
static void report(int slot, double elapsed, int ending) {
  cuemu_launch *L = launches[slot].launch;
  unsigned long long number = launches[slot].number;
  install_sampler();
  for (int i = 0; i < MAX_RUNNERS; ++i)
    if (runners[i].worker && runners[i].worker->launch == L) {
      atomic_store(&runners[i].pc, NULL);
      runners[i].asked = number;
      pthread_sigqueue(runners[i].thread, SIGURG,
                       (union sigval){.sival_int = SAMPLE_SIGNAL});
    }
  for (int waited = 0;; waited += SAMPLE_POLL_MS) {
    pthread_mutex_unlock(&lock);
    usleep(SAMPLE_POLL_MS * 1000);
    pthread_mutex_lock(&lock);
    if (!still_running(slot, number))
      return;
    if (all_noted(number) || waited >= SAMPLE_WAIT_MS)
      break;
  }
  /* The copy: nothing of the launch or its workers is read after the
   * lock is released (the launch may end, its module be unloaded). */
  samples *set = &sample_sets[sample_set];
  set->count = 0;
  int running = 0;
  for (int i = 0; i < MAX_RUNNERS; ++i) {
    cuemu_worker *w = runners[i].worker;
    if (!w || w->launch != L || !w->in_kernel)
      continue;
    running++;
    if (set->count == MAX_SAMPLES)
      continue;
    sample *x = &set->s[set->count++];
    x->block = w->block_idx;
    x->thread = cuemu__worker_thread_idx(w);
    void *pc = atomic_load(&runners[i].pc);
    int noted = pc && runners[i].asked == number;
    snprintf(x->call_file, sizeof x->call_file, "%s",
             w->call_file ? w->call_file : "");
    x->at = (cuemu_fault_where){(const void *)L->kernel->thunk,
                                w->call_file ? x->call_file : NULL,
                                w->call_line,
                                noted && pc != (void *)1 ? pc : NULL,
                                x->words, noted ? runners[i].nwords : 0};
    memcpy(x->words, runner_words[i], x->at.nwords * sizeof(void *));
  }
  char kernel[512];
  snprintf(kernel, sizeof kernel, "%s", L->kernel->name);
  cuemu_dim3 grid = L->grid, block = L->block;
  unsigned long long next = atomic_load(&L->next_block);
  unsigned long long nblocks = L->nblocks;
  pthread_mutex_unlock(&lock);

  find_places(set);
  say("cuemu: kernel %s (grid (%u,%u,%u), block (%u,%u,%u)) has run for "
      "%.0f s without a block ending%s; the blocks still running:\n",
      kernel, grid.x, grid.y, grid.z, block.x, block.y, block.z, elapsed,
      ending ? " (CUEMU_TIMEOUT)" : "");
  for (int k = 0; k < set->count; ++k) {
    const sample *x = &set->s[k];
    say("cuemu:   block (%u,%u,%u), thread (%u,%u,%u) at %s\n", x->block.x,
        x->block.y, x->block.z, x->thread.x, x->thread.y, x->thread.z,
        x->place);
  }
  if (running > set->count)
    say("cuemu:   and %d more\n", running - set->count);
  unsigned long long started = next < nblocks ? next : nblocks;
  say("cuemu:   (%d block%s running; %llu of %llu blocks started)\n",
      running, running == 1 ? "" : "s", started, nblocks);
  if (ending) {
    /* With every block started, no block waits for one that a GPU would
     * have made resident sooner: the threads wait for a write that none
     * of them will make, most often through a race on a flag (a public
     * union-find decoder read its vote flag before the other warp voted). */
    if (started < nblocks)
      say("cuemu: a GPU runs the blocks it holds at once, and blocks that "
          "wait for a block that is not running (undefined in CUDA) wait "
          "for ever here; the process ends (exit status %d)\n",
          CUEMU_WATCHDOG_EXIT);
    else
      say("cuemu: every block has started, so none waits for a block that "
          "a GPU would run sooner: the threads wait for a write that no "
          "thread will make (a flag read with no barrier after the writes "
          "it needs, say, whose outcome a GPU's timing decides: a checked "
          "build, CUEMU_CC_CHECK=race, names such accesses, and "
          "CUEMU_SCHEDULE=reverse runs the threads in another order); the "
          "process ends (exit status %d)\n",
          CUEMU_WATCHDOG_EXIT);
    end_process();
  }
  say("cuemu:   set CUEMU_TIMEOUT=SECONDS to end such a run with this "
      "report\n");
  pthread_mutex_lock(&lock);
}

/* A value that changes when a thread of a block of launch `L` that runs
 * now ends (the lock held): the block's count of threads ended, the block,
 * and the thread that runs lazily (threads run one after the other, each
 * to its end: a change of threadIdx is an end); with `turns`, also when
 * another of its threads runs (the coroutine running). (The worker's
 * fields are read while its OS thread writes them: a torn or stale value
 * only delays the watchdog.) */
static unsigned long long launch_print(const cuemu_launch *L, int turns) {
  unsigned long long print = 0;
  for (int i = 0; i < MAX_RUNNERS; ++i) {
    const cuemu_worker *w = runners[i].worker;
    if (!w || __atomic_load_n(&w->launch, __ATOMIC_RELAXED) != L)
      continue;
    const cuemu_thread *current =
        __atomic_load_n(&w->current, __ATOMIC_RELAXED);
    unsigned long long item =
        ((unsigned long long)__atomic_load_n(&w->exited, __ATOMIC_RELAXED)
         << 40) ^
        ((unsigned long long)__atomic_load_n(&w->block_idx.x,
                                             __ATOMIC_RELAXED) << 20) ^
        __atomic_load_n(&w->block_idx.y, __ATOMIC_RELAXED) ^
        ((unsigned long long)__atomic_load_n(&w->block_idx.z,
                                             __ATOMIC_RELAXED) << 52);
    if (turns)
      item ^= (unsigned long long)(uintptr_t)current;
    if (!current && runners[i].thread_idx) {
      /* Threads run one after the other, lazily: threadIdx tells which. */
      const cuemu_uint3 *t = runners[i].thread_idx;
      item ^= ((unsigned long long)__atomic_load_n(&t->x, __ATOMIC_RELAXED)
               << 8) ^
              ((unsigned long long)__atomic_load_n(&t->y, __ATOMIC_RELAXED)
               << 24) ^
              ((unsigned long long)__atomic_load_n(&t->z, __ATOMIC_RELAXED)
               << 34);
    }
    print = (print ^ item) * 0x9e3779b97f4a7c15ull + (unsigned)i;
  }
  return print;
}

/* A value that changes when a block of launch `L` that runs now moves on:
 * a block starts, a thread of it exits, or another of its threads runs
 * (the lock held). A block whose thread runs a loop that never waits (a
 * spin on an atomic, or a long computation of one thread) leaves it as it
 * was; a block whose threads take turns at barriers, or run one after the
 * other, changes it. */
static unsigned long long running_print(const cuemu_launch *L) {
  return launch_print(L, 1);
}

/* A value that changes when a thread of a block of launch `L` that runs
 * now ends (the lock held). Threads that take turns as coroutines (at
 * barriers, or yielding in a spin) leave it as it was, so that a launch
 * whose threads only wait still makes no progress; one whose threads keep
 * ending is long (one block of threads that each compute for a while:
 * HeCBench's GUPS kernel, a single block of 128 threads, ran for more than
 * a minute on a loaded machine and was taken for a spin). */
static unsigned long long ended_print(const cuemu_launch *L) {
  return launch_print(L, 0);
}

/* A value that changes when a thread of a block of launch `L` that runs
 * now arrives at a block barrier (the lock held): each block's count of
 * arrivals at the barrier being gathered, which a completed barrier sets
 * back to 0; and in `phases`, one that changes when a block barrier of such
 * a block completes. A block whose threads compute for long and then meet
 * (a sketch that each thread fills in shared memory before block.sync())
 * moves the first each time one of them is done, and not the second; a
 * plain busy loop, or threads that only yield in a spin, move neither; a
 * loop that polls through __syncthreads() moves both. */
static unsigned long long arrived_print(const cuemu_launch *L,
                                        unsigned long long *phases) {
  unsigned long long print = 0;
  *phases = 0;
  for (int i = 0; i < MAX_RUNNERS; ++i) {
    const cuemu_worker *w = runners[i].worker;
    if (!w || __atomic_load_n(&w->launch, __ATOMIC_RELAXED) != L)
      continue;
    unsigned long long item = __atomic_load_n(&w->narrivals, __ATOMIC_RELAXED);
    print = (print ^ item) * 0x9e3779b97f4a7c15ull + (unsigned)i;
    item = __atomic_load_n(&w->block_phase, __ATOMIC_RELAXED);
    *phases = (*phases ^ item) * 0x9e3779b97f4a7c15ull + (unsigned)i;
  }
  return print;
}

/* Offers launch `l` more workers (cuemu__progress_idle) when no block of
 * it has started for CUEMU_PROGRESS_IDLE_AFTER seconds and the threads its
 * blocks run have not changed for CUEMU_PROGRESS_STILL_AFTER: they may
 * spin without yielding (on an atomic) for blocks not started. Blocks that
 * compute for long, their threads taking turns, keep their workers. Once
 * the launch has more workers, its blocks have been seen to spin: the
 * next blocks start without that wait (the lock held). */
static void offer_workers(watched *l, double t) {
  unsigned long long print = running_print(l->launch);
  if (print != l->seen_running) {
    l->seen_running = print;
    l->still_since = t;
  }
  double still = atomic_load_explicit(&l->launch->widened,
                                      memory_order_relaxed)
                     ? 0.0
                     : CUEMU_PROGRESS_STILL_AFTER;
  if (t - l->still_since >= still)
    cuemu__progress_idle(l->launch);
}

/* Notes (the lock held) whether watched launch l has taken a block, or
 * ended a thread of one, since it was last looked at, at time t; returns
 * the seconds since it last did. Notes too when a thread of it last arrived
 * at a block barrier (`arrived_since`), which only the host's wait reads. */
static double note_progress(watched *l, double t) {
  unsigned long long next = atomic_load(&l->launch->next_block);
  unsigned long long ended = ended_print(l->launch);
  /* More arrivals at the one barrier being gathered since the last look:
   * the threads that arrived computed until then. Arrivals while barriers
   * complete are a loop through __syncthreads(), which may poll memory
   * that nothing will write: no progress then, as before. */
  unsigned long long phases;
  unsigned long long arrived = arrived_print(l->launch, &phases);
  if (arrived != l->seen_arrived && phases == l->seen_phases)
    l->arrived_since = t;
  l->seen_arrived = arrived;
  l->seen_phases = phases;
  if (next != l->seen_next || ended != l->seen_ended) {
    l->seen_next = next;
    l->seen_ended = ended;
    l->since = t;
  }
  return t - l->since;
}

/* Launch L waits for the worker pool and has no workers of its own yet:
 * none of its blocks can start. */
static int waiting(const cuemu_launch *L) {
  return atomic_load(&L->queued) &&
         !atomic_load_explicit(&L->widened, memory_order_relaxed);
}

/* The seconds since the launches that run (not waiting for the pool) last
 * started a block, the least of them, at time t; 0 when none runs (the pool
 * passes from one launch to the next). The lock held. */
static double running_launches_still(double t) {
  double still = -1.0;
  for (int i = 0; i < MAX_LAUNCHES; ++i) {
    if (!launches[i].launch || waiting(launches[i].launch))
      continue;
    double s = note_progress(&launches[i], t);
    if (still < 0 || s < still)
      still = s;
  }
  return still < 0 ? 0.0 : still;
}

static void *watch(void *arg) {
  (void)arg;
  pthread_setname_np(pthread_self(), "cuemu-watchdog");
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, NULL);
  for (;;) {
    usleep(100 * 1000);
    pthread_mutex_lock(&lock);
    double t = now();
    double running_still = running_launches_still(t);
    for (int i = 0; i < MAX_LAUNCHES; ++i) {
      watched *l = &launches[i];
      if (!l->launch)
        continue;
      /* A launch waiting for the worker pool has not begun: it is never
       * reported, its clock starts when it gets the pool. While the
       * launches that run start blocks, it waits its turn; when they have
       * started none for a while (their blocks may spin for it, on another
       * device), it is offered workers of its own as a spinning launch is. */
      if (waiting(l->launch)) {
        l->since = t;
        if (running_still < CUEMU_PROGRESS_IDLE_AFTER)
          l->still_since = t;
        else
          offer_workers(l, t);
        continue;
      }
      double elapsed = note_progress(l, t);
      if (elapsed >= CUEMU_PROGRESS_IDLE_AFTER)
        offer_workers(l, t);
      else
        l->still_since = t;
      if (limit > 0 && elapsed >= limit)
        report(i, elapsed, 1);
      else if (limit <= 0 && !l->warned && elapsed >= WARN_AFTER) {
        l->warned = 1;
        report(i, elapsed, 0);
      }
    }
    pthread_mutex_unlock(&lock);
  }
  return NULL;
}

int cuemu__watchdog_traced(void) {
  FILE *f = fopen("/proc/self/status", "re");
  char line[256];
  int pid = 0;
  if (!f)
    return 0;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "TracerPid: %d", &pid) == 1)
      break;
  fclose(f);
  return pid != 0;
}

/* Under a debugger, and without CUEMU_TIMEOUT, there is no watchdog: the
 * user can interrupt a kernel that never ends, time stopped at a
 * breakpoint is not a hang, and gdb shows no thread of ours. */
static void start(void) {
  const char *v = getenv("CUEMU_TIMEOUT");
  if (v && *v)
    limit = strtod(v, NULL);
  if (limit <= 0 && cuemu__watchdog_traced())
    return;
  install_sampler();
  pthread_condattr_t monotonic;
  pthread_condattr_init(&monotonic);
  pthread_condattr_setclock(&monotonic, CLOCK_MONOTONIC);
  pthread_cond_init(&symbolise_done, &monotonic);
  pthread_cond_init(&symbolise_asked, NULL);
  pthread_condattr_destroy(&monotonic);
  pthread_t t;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  /* Made now: making a thread when a report is due takes the allocator's
   * lock, which a stuck thread may hold. */
  symboliser_ready = pthread_create(&t, &attr, symbolise, NULL) == 0;
  pthread_create(&t, &attr, watch, NULL);
  pthread_attr_destroy(&attr);
}

/* A child of fork() has no watchdog thread: it starts its own. */
static void forget_after_fork(void) {
  pthread_mutex_init(&lock, NULL);
  pthread_mutex_init(&symbolise_lock, NULL);
  asked_set = NULL;
  symboliser_ready = symboliser_stuck = 0;
  memset(launches, 0, sizeof launches);
  memset(runners, 0, sizeof runners);
  current_runner = -1;
  started = (pthread_once_t)PTHREAD_ONCE_INIT;
}

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
static void register_atfork(void) {
  pthread_atfork(NULL, NULL, forget_after_fork);
}

void cuemu__watchdog_begin(cuemu_launch *L) {
  pthread_once(&atfork_once, register_atfork);
  pthread_once(&started, start);
  pthread_mutex_lock(&lock);
  int i = 0;
  while (i < MAX_LAUNCHES && launches[i].launch)
    ++i;
  if (i < MAX_LAUNCHES)
    launches[i] = (watched){.launch = L,
                            .number = ++launch_numbers,
                            .since = now(),
                            .still_since = now(),
                            .arrived_since = now()};
  else if (!warned_launches++)
    fprintf(stderr, "cuemu: warning: more than %d launches run at once; "
                    "the watchdog (CUEMU_TIMEOUT) does not watch the "
                    "others\n",
            MAX_LAUNCHES);
  pthread_mutex_unlock(&lock);
}

/* When a launch last ended (its blocks all done), or -1. */
static double last_end = -1.0;

void cuemu__watchdog_end(cuemu_launch *L) {
  pthread_mutex_lock(&lock);
  for (int i = 0; i < MAX_LAUNCHES; ++i)
    if (launches[i].launch == L)
      launches[i].launch = NULL;
  last_end = now();
  pthread_mutex_unlock(&lock);
}

double cuemu__watchdog_still_seconds(void) {
  pthread_mutex_lock(&lock);
  double t = now(), still = -1.0;
  for (int i = 0; i < MAX_LAUNCHES; ++i) {
    /* The watchdog's thread may not run (under a debugger): look here. A
     * launch waiting for the pool has not begun: it tells nothing. */
    double s = launches[i].launch && !waiting(launches[i].launch)
                   ? note_progress(&launches[i], t)
                   : -1.0;
    /* For the host's wait, a thread that arrives at a block barrier is
     * progress too (CUEMU_TIMEOUT's report takes only blocks and threads
     * that end). */
    if (s > 0 && t - launches[i].arrived_since < s)
      s = t - launches[i].arrived_since;
    if (s >= 0 && (still < 0 || s < still))
      still = s;
  }
  /* None runs: a launch that has just ended (its stream's item not yet
   * done) ended a block then. */
  if (still < 0 && last_end >= 0)
    still = t - last_end;
  pthread_mutex_unlock(&lock);
  return still;
}

int cuemu__watchdog_all_spin(const cuemu_launch *L, double seconds,
                             double now) {
  int seen = 0, all = 1;
  pthread_mutex_lock(&lock);
  for (int i = 0; i < MAX_RUNNERS && all; ++i) {
    const cuemu_worker *w = runners[i].worker;
    if (!w || __atomic_load_n(&w->launch, __ATOMIC_RELAXED) != L)
      continue;
    ++seen;
    /* (Written by the worker's OS thread meanwhile: a stale value only
     * delays the report.) */
    unsigned streak = __atomic_load_n(&w->yield_streak, __ATOMIC_RELAXED);
    double since;
    __atomic_load(&w->yield_since, &since, __ATOMIC_RELAXED);
    if (streak == 0 || now - since < seconds)
      all = 0;
  }
  /* A table too small for the workers leaves some unseen. */
  if (warned_runners)
    all = 0;
  pthread_mutex_unlock(&lock);
  return all && seen > 0;
}

void cuemu__watchdog_enter(cuemu_worker *w) {
  pthread_mutex_lock(&lock);
  int i = 0;
  while (i < MAX_RUNNERS && runners[i].worker)
    ++i;
  if (i < MAX_RUNNERS) {
    runners[i].thread = pthread_self();
    runners[i].worker = w;
    runners[i].outer = current_runner;
    runners[i].asked = 0;
    runners[i].thread_idx = &threadIdx;
    atomic_store(&runners[i].pc, NULL);
    current_runner = i; /* last: the handler may run at any time */
  } else if (!warned_runners++) {
    fprintf(stderr, "cuemu: warning: more than %d workers run blocks at "
                    "once; the watchdog's reports leave the others out\n",
            MAX_RUNNERS);
  }
  pthread_mutex_unlock(&lock);
}

void cuemu__watchdog_leave(cuemu_worker *w) {
  pthread_mutex_lock(&lock);
  /* The OS thread that entered leaves: its runner is the current one, and
   * the walk of the whole table (every launch) is only for the rest. */
  int mine = current_runner;
  if (mine >= 0 && runners[mine].worker == w) {
    current_runner = runners[mine].outer;
    runners[mine].worker = NULL;
    pthread_mutex_unlock(&lock);
    return;
  }
  for (int i = 0; i < MAX_RUNNERS; ++i)
    if (runners[i].worker == w) {
      if (current_runner == i)
        current_runner = runners[i].outer; /* first: see enter */
      runners[i].worker = NULL;
    }
  pthread_mutex_unlock(&lock);
}
