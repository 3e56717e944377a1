/*
 * cuemu_rt_managed_guard.c: on a device without concurrent managed access
 * (CUEMU_DEVICE's cma=0), a host thread that touches managed memory after
 * a kernel is launched and before the host synchronises faults on a GPU.
 * cuemu's kernels run in the same process, on other threads, so the
 * memory itself cannot be taken away; a protection key (Linux's pkeys, per
 * thread) can: managed memory attached globally, and the pages of
 * __managed__ variables, get a key of their own when such a device
 * exists. The launching thread loses access to that key when its launch
 * is issued and gets it back at its next synchronisation (any
 * cuemu__rt_sync_point: cudaDeviceSynchronize, cudaStreamSynchronize,
 * cudaEventSynchronize, cudaMemcpy, ...). Every other host thread (each
 * thread of the process but cuemu's own, named "cuemu-...") loses it too,
 * by a signal whose handler changes the access that the signal's frame
 * restores (cuemu_rt_pkey_frame.c), until any host thread synchronises;
 * a thread whose access was taken and is due again gets it back at its
 * next touch (the fault, which then changes its frame). A touch without
 * access is a protection fault, which the fault handler (cuemu_fault.c)
 * hands here: the address, the kernel, the device and the threads are
 * reported and the program ends with the segmentation fault a GPU's host
 * gets. The program's other variables on the pages of __managed__ ones
 * stay the host's: a touch of one is let run for one instruction with
 * access (the trap flag; the trap takes the access away again). With
 * synchronous streams (CUEMU_STREAMS=sync) the kernel has run when its
 * launch returns, but the device is active to the host until it
 * synchronises, as on a GPU: the threads lose access then. A graph's
 * launch with kernel nodes counts as a launch. Without pkeys (the CPU or
 * the kernel lacks them, as on some virtual machines), nothing is checked,
 * and a note says so once (unless CUEMU_QUIET).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "base/cuemu_config.h"
#include "core/cuemu_worker.h"
#include "device/cuemu_device_model.h"
#include "device/cuemu_handles.h"
#include "runtime/cuemu_rt_managed_guard.h"
#include "runtime/cuemu_rt_pkey_frame.h"
#include "runtime/cuemu_rt_stream_queue.h"

/* The key: -2 not yet looked at, -1 none (no device lacks concurrent
 * managed access, or no pkeys). */
static atomic_int key = -2;
/* What the calling thread launched last while it had no access. */
static _Thread_local const char *denied_kernel;
static _Thread_local int denied_device = -1;
/* The launch that took managed memory from every other host thread: its
 * device (-1: none since the host last synchronised), kernel and thread. */
static atomic_int others_device = -1;
static const char *_Atomic others_kernel;
static atomic_int others_thread;
/* Signals handled since the start (each host thread that a launch takes
 * access from acknowledges its signal). */
static atomic_uint acknowledged;
/* A thread that runs one instruction with access: the access it had. */
static _Thread_local int stepping;
static _Thread_local uint32_t step_pkru;
static struct sigaction previous_trap;

/* The __managed__ variables (their pages have the key too). */
#define MAX_VARIABLES 4096
typedef struct variable {
  _Atomic uintptr_t base, end; /* both 0: forgotten */
} variable;
static variable variables[MAX_VARIABLES];
static atomic_size_t nvariables;
static pthread_mutex_t variables_lock = PTHREAD_MUTEX_INITIALIZER;

static int host_fault(void *address, void *uc);
static void protect_variable(uintptr_t base, uintptr_t end, int k);
static void install_handlers(void);

static int the_key(void) {
  int k = atomic_load(&key);
  if (k != -2)
    return k;
  int any = 0;
  for (int d = 0; d < cuemu__device_count(); ++d)
    any |= !cuemu__config_device_of(d)->concurrent_managed;
  k = any ? pkey_alloc(0, 0) : -1;
  int expected = -2;
  if (!atomic_compare_exchange_strong(&key, &expected, k)) {
    if (k >= 0)
      pkey_free(k);
    return expected;
  }
  if (any && k < 0 && !cuemu__config_quiet())
    fprintf(stderr,
            "cuemu: note: a device without concurrent managed access "
            "(CUEMU_DEVICE's cma=0) is emulated, but this machine has no "
            "protection keys (pkey_alloc: %s): host touches of managed "
            "memory while a kernel may run are not checked\n",
            strerror(errno));
  if (k >= 0) {
    cuemu__fault_set_host_hook(host_fault, k);
    install_handlers();
    pthread_mutex_lock(&variables_lock);
    for (size_t i = 0; i < atomic_load(&nvariables); ++i)
      protect_variable(variables[i].base, variables[i].end, k);
    pthread_mutex_unlock(&variables_lock);
  }
  return k;
}

static size_t pages(size_t size) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  return (size + page - 1) / page * page;
}

void cuemu__managed_guard_add(void *base, size_t size, int global) {
  int k = the_key();
  if (k >= 0 && global)
    pkey_mprotect(base, pages(size), PROT_READ | PROT_WRITE, k);
}

static uintptr_t page_size(void) { return (uintptr_t)sysconf(_SC_PAGESIZE); }

static void protect_variable(uintptr_t base, uintptr_t end, int k) {
  uintptr_t page = page_size(), first = base / page * page;
  if (end > base)
    pkey_mprotect((void *)first, (end - first + page - 1) / page * page,
                  PROT_READ | PROT_WRITE, k);
}

void cuemu__managed_guard_variable(const void *p, size_t size) {
  uintptr_t base = (uintptr_t)p;
  pthread_mutex_lock(&variables_lock);
  size_t n = atomic_load(&nvariables);
  if (n < MAX_VARIABLES) {
    atomic_store(&variables[n].base, base);
    atomic_store(&variables[n].end, base + size);
    atomic_store(&nvariables, n + 1);
    int k = atomic_load(&key);
    if (k >= 0)
      protect_variable(base, base + size, k);
  }
  pthread_mutex_unlock(&variables_lock);
}

void cuemu__managed_guard_variable_gone(const void *p) {
  pthread_mutex_lock(&variables_lock);
  for (size_t i = 0; i < atomic_load(&nvariables); ++i)
    if (variables[i].base == (uintptr_t)p) {
      atomic_store(&variables[i].base, 0);
      atomic_store(&variables[i].end, 0);
    }
  pthread_mutex_unlock(&variables_lock);
}

/* Whether `address` is on a page of a __managed__ variable, and then
 * whether it is in one (*inside). */
static int on_variable_page(uintptr_t address, int *inside) {
  uintptr_t page = page_size(), at = address / page;
  int on = 0;
  *inside = 0;
  size_t n = atomic_load(&nvariables);
  for (size_t i = 0; i < n; ++i) {
    uintptr_t base = atomic_load(&variables[i].base);
    uintptr_t end = atomic_load(&variables[i].end);
    if (end <= base)
      continue;
    if (address >= base && address < end)
      *inside = 1;
    if (at >= base / page && at <= (end - 1) / page)
      on = 1;
  }
  return on;
}

void cuemu__managed_guard_remove(void *base, size_t size) {
  if (atomic_load(&key) >= 0)
    pkey_mprotect(base, pages(size), PROT_READ | PROT_WRITE, 0);
}

void cuemu__managed_guard_before_launch(void) {
  int k = atomic_load(&key);
  if (k >= 0)
    pkey_set(k, 0); /* threads the launch starts inherit this */
}

static int deny_signal(void) { return SIGRTMAX - 2; }

/* The signal that takes access from a host thread. */
static void on_deny(int sig, siginfo_t *info, void *uc) {
  (void)sig;
  (void)info;
  int saved = errno;
  int k = atomic_load(&key);
  uint32_t pkru;
  if (k >= 0 && atomic_load(&others_device) >= 0 &&
      !cuemu__stream_internal_thread()) {
    if (stepping)
      step_pkru = cuemu__pkey_access(step_pkru, k, 1);
    else if (cuemu__pkey_frame_get(uc, &pkru))
      cuemu__pkey_frame_set(uc, cuemu__pkey_access(pkru, k, 1));
  }
  atomic_fetch_add(&acknowledged, 1);
  errno = saved;
}

/* The trap after one instruction with access (host_fault): the access
 * the thread had again. Another trap goes where it went before. */
static void on_trap(int sig, siginfo_t *info, void *uc) {
  if (stepping) {
    stepping = 0;
    cuemu__pkey_frame_set(uc, step_pkru);
    cuemu__pkey_frame_step(uc, 0);
    return;
  }
  if (previous_trap.sa_flags & SA_SIGINFO)
    previous_trap.sa_sigaction(sig, info, uc);
  else if (previous_trap.sa_handler == SIG_DFL) {
    signal(SIGTRAP, SIG_DFL);
    raise(SIGTRAP);
  } else if (previous_trap.sa_handler != SIG_IGN)
    previous_trap.sa_handler(sig);
}

static void install_handlers(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_deny;
  sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  sigaction(deny_signal(), &sa, NULL);
  sa.sa_sigaction = on_trap;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigaction(SIGTRAP, &sa, &previous_trap);
}

/* Takes access from every other host thread: a signal to each thread of
 * the process not named "cuemu-...", and a wait (at most 100 ms) until
 * each has handled it (a thread that blocks the signal handles it
 * later). */
static void deny_others(void) {
  DIR *d = opendir("/proc/self/task");
  if (!d)
    return;
  unsigned before = atomic_load(&acknowledged), sent = 0;
  pid_t self = (pid_t)syscall(SYS_gettid), process = getpid();
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    pid_t tid = (pid_t)atoi(e->d_name);
    if (tid <= 0 || tid == self)
      continue;
    char path[64], comm[32] = "";
    snprintf(path, sizeof path, "/proc/self/task/%d/comm", (int)tid);
    FILE *f = fopen(path, "re");
    if (!f)
      continue;
    if (!fgets(comm, sizeof comm, f))
      comm[0] = 0;
    fclose(f);
    if (strncmp(comm, "cuemu-", 6) != 0 &&
        syscall(SYS_tgkill, process, tid, deny_signal()) == 0)
      sent++;
  }
  closedir(d);
  for (int i = 0; i < 2000 && atomic_load(&acknowledged) - before < sent;
       ++i) {
    struct timespec tick = {0, 50 * 1000};
    nanosleep(&tick, NULL);
  }
}

void cuemu__managed_guard_after_launch(int device, const char *kernel) {
  int k = the_key();
  if (k < 0 || device < 0 || device >= cuemu__device_count() ||
      cuemu__config_device_of(device)->concurrent_managed ||
      cuemu__stream_executing() || cuemu_thread_in_kernel())
    return;
  denied_kernel = kernel;
  denied_device = device;
  pkey_set(k, PKEY_DISABLE_ACCESS);
  atomic_store(&others_kernel, kernel);
  atomic_store(&others_thread, (int)syscall(SYS_gettid));
  int none = -1;
  if (atomic_compare_exchange_strong(&others_device, &none, device))
    deny_others();
}

void cuemu__managed_guard_launched(void *stream, const char *kernel) {
  if (the_key() < 0)
    return;
  cuemu__managed_guard_after_launch(
      cuemu__handle_is_default_stream(stream)
          ? cuemu__device_current()
          : cuemu__handle_stream_device(stream),
      kernel);
}

void cuemu__managed_guard_sync(void) {
  int k = atomic_load(&key);
  if (k < 0 || cuemu__stream_executing() || cuemu_thread_in_kernel())
    return;
  atomic_store(&others_device, -1);
  if (denied_device >= 0) {
    denied_device = -1;
    pkey_set(k, 0);
  }
}

static void say(const char *text, int n) {
  if (n > 0)
    (void)!write(2, text, (size_t)n < 512 ? (size_t)n : 511);
}

/* A protection-key fault of a host thread: a touch of managed memory
 * reported when the thread has no access to it now (it launched since it
 * last synchronised, or another thread did since the host did), or access
 * given again (a thread whose access is due again), or one instruction
 * with access (a variable beside a __managed__ one). 0: not ours. */
static int host_fault(void *address, void *uc) {
  int k = atomic_load(&key);
  uint32_t pkru = 0;
  int inside = 0, framed = cuemu__pkey_frame_get(uc, &pkru);
  if (on_variable_page((uintptr_t)address, &inside) && !inside) {
    if (!framed || stepping ||
        !cuemu__pkey_frame_set(uc, cuemu__pkey_access(pkru, k, 0)) ||
        !cuemu__pkey_frame_step(uc, 1))
      return 0;
    step_pkru = pkru;
    stepping = 1;
    return 1;
  }
  char text[512];
  if (denied_device >= 0) {
    say(text, snprintf(text, sizeof text,
                       "cuemu: the host touched managed memory at %p while "
                       "kernel %s, launched on device %d, may run: the "
                       "device has no concurrent managed access (CUEMU_DEVICE "
                       "cma=0), so the host must synchronise first (a GPU "
                       "faults here)\n",
                       address, denied_kernel ? denied_kernel : "?",
                       denied_device));
  } else if (atomic_load(&others_device) >= 0 &&
             !cuemu__stream_internal_thread()) {
    const char *kernel = atomic_load(&others_kernel);
    say(text, snprintf(text, sizeof text,
                       "cuemu: host thread %d touched managed memory at %p "
                       "while kernel %s, launched on device %d by thread %d, "
                       "may run: the device has no concurrent managed access "
                       "(CUEMU_DEVICE cma=0), so no host thread may touch it "
                       "before the host synchronises (a GPU faults here)\n",
                       (int)syscall(SYS_gettid), address, kernel ? kernel : "?",
                       atomic_load(&others_device),
                       atomic_load(&others_thread)));
  } else {
    /* Its access is due again. */
    return framed && cuemu__pkey_frame_set(uc, cuemu__pkey_access(pkru, k, 0));
  }
  /* The access again, without a handler: the segmentation fault a GPU's
   * host gets. */
  signal(SIGSEGV, SIG_DFL);
  return 1;
}
