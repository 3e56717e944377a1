/*
 * cuemu_watchdog.c: the kernel watchdog (see cuemu_watchdog.h and
 * docs/streams.md). Launches and the OS threads that run their blocks are
 * in two small tables; a thread of its own looks at them ten times a
 * second. To name the source line where a block's running thread is, it
 * interrupts that OS thread with SIGURG, whose handler only notes the
 * interrupted instruction and stack pointer, and waits (up to
 * SAMPLE_WAIT_MS) until every interrupted thread has noted them. While it
 * waits the lock is free: the launch may end meanwhile, and a launch
 * number (not its address, which a later launch may reuse) tells. A launch
 * whose blocks have not started for a while is also offered more workers
 * (cuemu__progress_idle): its blocks may spin for blocks not started.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
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

/* Seconds without progress after which a launch is reported without
 * CUEMU_TIMEOUT. */
#define WARN_AFTER 60.0

/* A launch watched: `since` is when it last made progress, that is, when
 * its count of blocks taken (next_block: a worker takes the next block
 * when it has finished one) was last seen to move from `seen_next`;
 * `still_since` is when the threads its blocks run were last seen to
 * change from `seen_running` (running_print()). */
typedef struct watched {
  cuemu_launch *launch;
  unsigned long long number; /* unique to this launch */
  unsigned long long seen_next;
  double since;
  int warned;
  unsigned long long seen_running;
  double still_since;
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
  _Atomic(void *) pc, sp; /* set by the handler of SIGURG */
  const cuemu_uint3 *thread_idx; /* the OS thread's threadIdx */
} runner;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static watched launches[MAX_LAUNCHES];
static runner runners[MAX_RUNNERS];
static pthread_once_t started = PTHREAD_ONCE_INIT;
static double limit; /* CUEMU_TIMEOUT; 0: none */
static unsigned long long launch_numbers;
/* The runner this OS thread runs now, or -1 (read by the handler of
 * SIGURG: initial-exec, so that reading it allocates nothing). */
static __thread int current_runner
    __attribute__((tls_model("initial-exec"))) = -1;
static int warned_launches, warned_runners; /* the tables were full */

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Notes where the interrupted thread is (async-signal-safe). */
static void on_sample(int sig, siginfo_t *info, void *context) {
  (void)sig;
  (void)info;
  const ucontext_t *uc = context;
  /* The runners of this OS thread, innermost first: each is there. */
  int i = current_runner;
  for (int n = 0; i >= 0 && n < MAX_RUNNERS; i = runners[i].outer, ++n) {
#if defined(__x86_64__)
    atomic_store(&runners[i].sp, (void *)uc->uc_mcontext.gregs[REG_RSP]);
    atomic_store(&runners[i].pc, (void *)uc->uc_mcontext.gregs[REG_RIP]);
#else
    (void)uc;
#endif
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
  fflush(stderr);
  _exit(CUEMU_WATCHDOG_EXIT);
}

/* Reports the launch in slot `slot` (the lock held): every block running
 * and where. Nothing if the launch ends while its threads are sampled. */
static void report(int slot, double elapsed, int ending) {
  cuemu_launch *L = launches[slot].launch;
  unsigned long long number = launches[slot].number;
  for (int i = 0; i < MAX_RUNNERS; ++i)
    if (runners[i].worker && runners[i].worker->launch == L) {
      atomic_store(&runners[i].pc, NULL);
      runners[i].asked = number;
      pthread_kill(runners[i].thread, SIGURG);
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
  fprintf(stderr,
          "cuemu: kernel %s (grid (%u,%u,%u), block (%u,%u,%u)) has run for "
          "%.0f s without a block ending%s; the blocks still running:\n",
          L->kernel->name, L->grid.x, L->grid.y, L->grid.z, L->block.x,
          L->block.y, L->block.z, elapsed,
          ending ? " (CUEMU_TIMEOUT)" : "");
  int shown = 0;
  for (int i = 0; i < MAX_RUNNERS; ++i) {
    cuemu_worker *w = runners[i].worker;
    if (!w || w->launch != L || !w->in_kernel)
      continue;
    char place[1100] = "an unknown place";
    void *pc = atomic_load(&runners[i].pc);
    if (pc)
      cuemu__fault_place_at(w, pc, atomic_load(&runners[i].sp), place,
                            sizeof place);
    cuemu_uint3 t = cuemu__worker_thread_idx(w);
    fprintf(stderr, "cuemu:   block (%u,%u,%u), thread (%u,%u,%u) at %s\n",
            w->block_idx.x, w->block_idx.y, w->block_idx.z, t.x, t.y, t.z,
            place);
    shown++;
  }
  unsigned long long next = atomic_load(&L->next_block);
  fprintf(stderr,
          "cuemu:   (%d block%s running; %llu of %llu blocks started)\n",
          shown, shown == 1 ? "" : "s",
          next < L->nblocks ? next : L->nblocks, L->nblocks);
  if (ending) {
    fprintf(stderr, "cuemu: a GPU runs the blocks it holds at once, and "
                    "blocks that wait for a block that is not running "
                    "(undefined in CUDA) wait for ever here; the process "
                    "ends (exit status %d)\n",
            CUEMU_WATCHDOG_EXIT);
    end_process();
  }
  fprintf(stderr, "cuemu:   set CUEMU_TIMEOUT=SECONDS to end such a run "
                  "with this report\n");
}

/* A value that changes when a block of launch `L` that runs now moves on:
 * a block starts, a thread of it exits, or another of its threads runs
 * (the lock held). A block whose thread runs a loop that never waits (a
 * spin on an atomic, or a long computation of one thread) leaves it as it
 * was; a block whose threads take turns at barriers, or run one after the
 * other, changes it. (The worker's fields are read while its OS thread
 * writes them: a torn or stale value only delays the watchdog.) */
static unsigned long long running_print(const cuemu_launch *L) {
  unsigned long long print = 0;
  for (int i = 0; i < MAX_RUNNERS; ++i) {
    const cuemu_worker *w = runners[i].worker;
    if (!w || __atomic_load_n(&w->launch, __ATOMIC_RELAXED) != L)
      continue;
    const cuemu_thread *current =
        __atomic_load_n(&w->current, __ATOMIC_RELAXED);
    unsigned long long item =
        (unsigned long long)(uintptr_t)current ^
        ((unsigned long long)__atomic_load_n(&w->exited, __ATOMIC_RELAXED)
         << 40) ^
        ((unsigned long long)__atomic_load_n(&w->block_idx.x,
                                             __ATOMIC_RELAXED) << 20) ^
        __atomic_load_n(&w->block_idx.y, __ATOMIC_RELAXED) ^
        ((unsigned long long)__atomic_load_n(&w->block_idx.z,
                                             __ATOMIC_RELAXED) << 52);
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
    for (int i = 0; i < MAX_LAUNCHES; ++i) {
      watched *l = &launches[i];
      if (!l->launch)
        continue;
      unsigned long long next = atomic_load(&l->launch->next_block);
      if (next != l->seen_next) {
        l->seen_next = next;
        l->since = t;
      }
      double elapsed = t - l->since;
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
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sample;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGURG, &sa, NULL);
  pthread_t t;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_create(&t, &attr, watch, NULL);
  pthread_attr_destroy(&attr);
}

/* A child of fork() has no watchdog thread: it starts its own. */
static void forget_after_fork(void) {
  pthread_mutex_init(&lock, NULL);
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
    launches[i] = (watched){L, ++launch_numbers, 0, now(), 0, 0, now()};
  else if (!warned_launches++)
    fprintf(stderr, "cuemu: warning: more than %d launches run at once; "
                    "the watchdog (CUEMU_TIMEOUT) does not watch the "
                    "others\n",
            MAX_LAUNCHES);
  pthread_mutex_unlock(&lock);
}

void cuemu__watchdog_end(cuemu_launch *L) {
  pthread_mutex_lock(&lock);
  for (int i = 0; i < MAX_LAUNCHES; ++i)
    if (launches[i].launch == L)
      launches[i].launch = NULL;
  pthread_mutex_unlock(&lock);
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
  for (int i = 0; i < MAX_RUNNERS; ++i)
    if (runners[i].worker == w) {
      if (current_runner == i)
        current_runner = runners[i].outer; /* first: see enter */
      runners[i].worker = NULL;
    }
  pthread_mutex_unlock(&lock);
}
