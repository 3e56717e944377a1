/*
 * cuemu_fault.c: turning faults in kernel code into launch errors.
 *
 * While a worker runs kernel code, SIGSEGV, SIGBUS, SIGFPE, SIGILL and
 * SIGABRT are caught on an alternate signal stack. The handler does only
 * what is async-signal-safe: it records the fault in the worker, unblocks the
 * signal and switches to the worker's own context, abandoning the block
 * (a thread that faulted inside the C library may hold one of its locks;
 * nothing that the worker does afterwards takes them). The worker then
 * builds the report (cuemu__fault_report): a fault in the guard area of one
 * of the worker's stacks is a stack overflow, any other a kernel fault,
 * named with the user's source line. Faults outside kernel code go to the
 * handler that was installed before ours.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <cuemu/cuemu_device.h>

#include "base/cuemu_host_copy.h"
#include "check/cuemu_check.h"
#include "core/cuemu_allocations.h"
#include "core/cuemu_worker.h"
#include "core/cuemu_watchdog.h"

#define CUEMU_ALTSTACK_SIZE (64u * 1024u)

/* SIGABRT: abort() reached from kernel code through a library (libstdc++'s
 * std::terminate, say); direct calls are wrapped (cuemu_host_calls.c). */
static const int fault_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
#define NSIGNALS (sizeof fault_signals / sizeof fault_signals[0])
static struct sigaction previous[NSIGNALS];

static int signal_index(int sig) {
  for (unsigned i = 0; i < NSIGNALS; ++i)
    if (fault_signals[i] == sig)
      return (int)i;
  return -1;
}

static double coarse_now(void);

/* The last fault outside kernel code that this OS thread handed on, and
 * how often in a row the same one came back at once: a handler that
 * "uninstalls" itself by putting back the one it replaced (ours, which
 * had been installed again over it) and returns or re-raises, as Python's
 * faulthandler does, would otherwise be called again and again by ours,
 * and the faulting instruction would run forever. */
static __thread struct {
  int sig;
  void *pc, *addr;
  double at;
  int repeats;
} last_chained;

/* The default action of `sig`, a synchronous fault (ignoring it would only
 * fault again): a crash and a core dump, as without cuemu. */
static void crash(int sig) {
  signal(sig, SIG_DFL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  pthread_sigmask(SIG_UNBLOCK, &set, NULL);
  raise(sig);
}

/* Hands a fault that is not ours to the handler that was there before. */
static void chain(int sig, siginfo_t *info, void *uc) {
  int i = signal_index(sig);
  struct sigaction *prev = &previous[i];
  /* The same fault again within a second, a third time, each time after
   * the handler before ours returned without moving the thread on: that
   * handler does not resolve it. (One that moves the thread on, as a JVM's
   * does for an implicit null check, or leaves by siglongjmp, is not
   * counted, so a loop that faults there again and again is its business;
   * one that unprotects the page makes the next fault another one.) */
  void *pc = cuemu__ctx_fault_pc(uc);
  double now = coarse_now();
  int repeats = 0;
  if (last_chained.sig == sig && last_chained.pc == pc &&
      last_chained.addr == info->si_addr && now - last_chained.at < 1.0) {
    repeats = last_chained.repeats + 1;
    if (repeats >= 2) {
      last_chained.sig = 0;
      crash(sig);
      return;
    }
  }
  last_chained.sig = 0;
  if (prev->sa_flags & SA_SIGINFO) {
    prev->sa_sigaction(sig, info, uc);
  } else if (prev->sa_handler != SIG_DFL && prev->sa_handler != SIG_IGN) {
    prev->sa_handler(sig);
  } else {
    crash(sig);
    return;
  }
  if (cuemu__ctx_fault_pc(uc) == pc) {
    last_chained.sig = sig;
    last_chained.pc = pc;
    last_chained.addr = info->si_addr;
    last_chained.at = now;
    last_chained.repeats = repeats;
  }
}

/* Whether `a` is a canonical x86-64 address (bits 63 to 47 all equal):
 * any other is no memory's. */
static int canonical(const void *a) {
  intptr_t high = (intptr_t)a >> 47;
  return high == 0 || high == -1;
}

static const char *fault_name(int sig, int code, const void *decoded) {
  if (decoded && (uintptr_t)decoded - CUEMU_UNSET_RESULT_ADDRESS <
                     CUEMU_UNSET_RESULT_SIZE)
    return "invalid memory access through the reference returned by a "
           "`return;` without a value (nvcc's warning #117-D: what it refers "
           "to is undefined on a GPU)";
  if (decoded && !canonical(decoded))
    return "invalid memory access (a non-canonical address, which no memory "
           "can have: a pointer made of other data, or never set)";
  switch (sig) {
  case SIGSEGV:
    /* x86-64 reports a general-protection fault with no address: an
     * aligned SSE or AVX move (what a compiler without cuemu's alignment
     * pass, clang++, makes of a float4 or double2 access) at a misaligned
     * address, or a non-canonical address. */
    return code == SI_KERNEL
               ? "general-protection fault (the processor names no address: "
                 "a vector access such as a float4 or double2 one at a "
                 "misaligned address, or a non-canonical address)"
               : "invalid memory access";
  case SIGABRT: return "abort() (a host function) called";
  case SIGBUS: return "misaligned or invalid memory access (bus error)";
  case SIGFPE:
    return code == FPE_INTDIV ? "integer division by zero"
                              : "arithmetic exception";
  default: return "illegal instruction";
  }
}

/* The launch error of a fault, the GPU's for the same fault: an invalid
 * address (SIGSEGV, a bus error at an address with nothing behind it, such
 * as a page of a file mapping past the file's end) is
 * cudaErrorIllegalAddress; a bus error for alignment
 * cudaErrorMisalignedAddress; an illegal instruction (__builtin_trap())
 * cudaErrorIllegalInstruction, as the PTX trap nvcc makes of it; an
 * arithmetic exception that is not an emulated integer division (a GPU has
 * none: floating-point exceptions unmasked by the host, say)
 * cudaErrorLaunchFailure. abort() reached through a library stays an
 * invalid access, as a direct call of it is (cuemu_host_calls.c). */
static cuemu_status fault_status(int sig, int code) {
  switch (sig) {
  case SIGBUS:
    return code == BUS_ADRALN ? CUEMU_MISALIGNED_ADDRESS : CUEMU_KERNEL_FAULT;
  case SIGILL: return CUEMU_ILLEGAL_INSTRUCTION;
  case SIGFPE: return CUEMU_LAUNCH_FAILED;
  default: return CUEMU_KERNEL_FAULT;
  }
}

/* Non-zero when cuemu__check_line() found a source line ("file:line")
 * rather than falling back to a module and an offset, or an address. */
static int is_source_line(const char *s) {
  const char *colon = strrchr(s, ':');
  return colon && colon[1] >= '0' && colon[1] <= '9';
}

/* A source line of the user's code: not a system header's, not the
 * shims'. */
static int is_user_line(const char *s) {
  return is_source_line(s) && strncmp(s, "/usr/", 5) != 0 &&
         !strstr(s, "/cuda_builtins/");
}

/* The runtime's look at a protection-key fault of a host thread
 * (cuemu_rt_managed_guard.c): non-zero when it was its own (reported, or
 * the thread's access changed in the frame `uc`). */
static int (*_Atomic host_hook)(void *address, void *uc);
/* Its protection key, which a kernel's threads always have access to (a
 * signal handler's thread starts without it). */
static atomic_int host_key = -1;
/* The runtime's look at every protection fault (cuemu_rt_pinned_guard.c),
 * before a kernel's is taken for the kernel's. */
static int (*_Atomic access_hook)(void *address, void *uc);

/* The first line of the program's own code on the faulting thread's
 * stack, for a copy whose caller is a function of the shims that was not
 * inlined (at -O0); "" when none. libcuemu's and the C library's frames
 * are skipped, and so are the shims' lines. */
static void host_copy_caller_line(char *line, size_t size) {
  void *frames[48];
  Dl_info self, libc, at;
  line[0] = '\0';
  if (!dladdr((void *)host_copy_caller_line, &self) ||
      !dladdr((void *)memmove, &libc))
    return;
  int n = backtrace(frames, 48);
  for (int i = 1; i < n; ++i) {
    if (dladdr(frames[i], &at) && (at.dli_fbase == self.dli_fbase ||
                                   at.dli_fbase == libc.dli_fbase))
      continue;
    cuemu__check_line(frames[i], line, size);
    if (is_user_line(line))
      return;
  }
  line[0] = '\0';
}

/* A fault of the runtime's copy of host memory (a host pointer that is no
 * memory of the process, cuemu_host_copy.h) is the program's, as on a GPU,
 * and goes on to the handler before ours; first a line on stderr names the
 * call, its line in the program and the pointer. Printed once: the note is
 * dropped. */
static void host_copy_note(int sig, const siginfo_t *info) {
  char what[512], line[512] = "";
  if (sig != SIGSEGV && sig != SIGBUS)
    return;
  if (!cuemu__host_copy_fault(info->si_addr, what, sizeof what))
    return;
  const void *caller = cuemu__host_copy_now.caller;
  cuemu__host_copy_end();
  if (caller)
    cuemu__check_line(caller, line, sizeof line);
  if (!is_user_line(line))
    host_copy_caller_line(line, sizeof line);
  char text[1200];
  int n = snprintf(text, sizeof text, "cuemu: %s%s%s\n", what,
                   line[0] ? ", at " : "", line);
  if (n > 0)
    (void)!write(2, text, (size_t)n < sizeof text ? (size_t)n : sizeof text - 1);
}

static void on_fault(int sig, siginfo_t *info, void *uc) {
  cuemu_worker *w = cuemu__worker_self;
  int (*access)(void *, void *) = atomic_load(&access_hook);
  if (access && sig == SIGSEGV && info->si_code == SEGV_ACCERR &&
      access(info->si_addr, uc))
    return;
  int (*hook)(void *, void *) = atomic_load(&host_hook);
#ifdef SEGV_PKUERR
  if (hook && sig == SIGSEGV && info->si_code == SEGV_PKUERR &&
      (!w || !w->in_kernel) && hook(info->si_addr, uc))
    return;
#endif
  if (!w || !w->in_kernel) {
    host_copy_note(sig, info);
    chain(sig, info, uc);
    return;
  }
  /* An integer division by zero (or MIN / -1) does not trap on a GPU:
   * the kernel gets the GPU's result and goes on. */
  if (sig == SIGFPE && cuemu__ctx_emulate_divide(uc)) {
    void *none = NULL;
    atomic_compare_exchange_strong(&w->launch->division_pc, &none,
                                   cuemu__ctx_fault_pc(uc));
    atomic_fetch_add(&w->launch->divisions_emulated, 1);
    return;
  }
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  pthread_sigmask(SIG_UNBLOCK, &set, NULL);
  w->fault.sig = sig;
  w->fault.code = info->si_code;
  w->fault.addr = info->si_addr;
  /* x86-64 names no address for a general-protection or stack fault (a
   * non-canonical address): the faulting instruction's operand does. */
  w->fault.decoded = !info->si_addr && info->si_code == SI_KERNEL &&
                     (sig == SIGSEGV || sig == SIGBUS) &&
                     cuemu__ctx_fault_operand(uc, &w->fault.addr);
  w->fault.pc = cuemu__ctx_fault_pc(uc);
  w->fault.sp = cuemu__ctx_fault_sp(uc);
  w->fault.thread = cuemu__worker_thread_idx(w);
  w->fault.pending = 1;
  w->in_kernel = 0;
  cuemu__ctx_switch(&w->scratch, &w->main_ctx);
  abort(); /* The switch above never returns. */
}

/* The words of w's stack from `sp` up, where return addresses are looked
 * for (at most CUEMU_FAULT_SCAN_WORDS): their count, and *words. */
static size_t stack_words(cuemu_worker *w, void *sp, void *const **words) {
  const cuemu_stack *s = sp ? cuemu__stack_holding(&w->pool, sp) : NULL;
  if (!s)
    return 0;
  *words = sp;
  size_t n = (size_t)(s->base + s->size - (unsigned char *)sp) /
             sizeof(void *);
  return n < CUEMU_FAULT_SCAN_WORDS ? n : CUEMU_FAULT_SCAN_WORDS;
}

/* The line of the first return address among the stack words of `at`
 * that points into `module` and whose line `accept` takes; 1 when found
 * (in `line`). */
static int scan_stack(const cuemu_fault_where *at,
                      const cuemu_check_module *module,
                      int (*accept)(const char *), char *line, size_t size) {
  for (size_t i = 0; i < at->nwords; ++i) {
    if (cuemu__check_module_of(at->words[i]) != module)
      continue;
    cuemu__check_line(at->words[i], line, size);
    if (accept(line))
      return 1;
  }
  return 0;
}

/* Where the fault happened, as "file:line" where line information exists:
 * the faulting instruction's line, else (a fault inside the C library or
 * in a shim's code) the nearest caller on the faulting thread's stack that
 * has a line of the user's (a return address found by scanning the stack),
 * else the module and the offset. */
static void fault_place(const cuemu_fault_where *at, char *place,
                        size_t size) {
  void *pc = at->pc;
  snprintf(place, size, "an unknown place");
  if (at->call_file) {
    snprintf(place, size, "%s:%d", at->call_file, at->call_line);
    return;
  }
  /* An instruction in no loaded object (a call through a null or stale
   * function pointer faults when it fetches the first one): the return
   * address that the call pushed, at the stack pointer, names the caller. */
  Dl_info code;
  if ((!pc || !dladdr(pc, &code)) && at->nwords &&
      cuemu__check_module_of(at->words[0])) {
    char line[512];
    cuemu__check_line(at->words[0], line, sizeof line);
    snprintf(place, size, "%s (a call through a function pointer to %p, "
                          "where there is no code)",
             line, pc);
    return;
  }
  if (!pc)
    return;
  /* cuemu__check_line() takes a return address, one byte past the call; a
   * fault's pc is the faulting instruction itself. It skips the shims'
   * frames of inlined code. */
  cuemu__check_line((const char *)pc + 1, place, size);
  /* Only words that point into the kernel's own module are candidates. A
   * line of the kernel's module is the answer; a line of a library (the C
   * library's, when its debugging information is installed) is kept only
   * if no caller in the user's code is found. */
  const cuemu_check_module *kernel_module =
      cuemu__check_module_of(at->kernel_code);
  int own_line = is_source_line(place);
  if (own_line &&
      (!kernel_module || cuemu__check_module_of(pc) == kernel_module))
    return;
  char line[512];
  if (kernel_module &&
      scan_stack(at, kernel_module, is_source_line, line, sizeof line)) {
    snprintf(place, size, "%s (in a library function it called)", line);
    return;
  }
  if (own_line)
    return;
  Dl_info where;
  if (dladdr(pc, &where) && where.dli_sname)
    snprintf(place, size, "function %s", where.dli_sname);
  else if (dladdr(pc, &where) && where.dli_fname)
    snprintf(place, size, "%s+0x%lx", where.dli_fname,
             (unsigned long)((char *)pc - (char *)where.dli_fbase));
}

void cuemu__fault_divisions_report(cuemu_launch *L) {
  unsigned long n = atomic_load(&L->divisions_emulated);
  if (!n || !L->checks)
    return;
  char where[512] = "an unknown place";
  void *pc = atomic_load(&L->division_pc);
  if (pc)
    cuemu__check_line((const char *)pc + 1, where, sizeof where);
  fprintf(stderr,
          "cuemu: warning: kernel %s: %lu integer division%s by zero (or "
          "of the most negative value by -1), first at %s; a GPU does not "
          "trap on them, and cuemu gives what it gives: all bits set for a "
          "division by zero, quotient and remainder alike\n",
          L->kernel->name, n, n == 1 ? "" : "s", where);
}

void cuemu__fault_place_at(const cuemu_fault_where *at, char *place,
                           size_t size) {
  /* As for a fault at pc. */
  fault_place(at, place, size);
  /* A thread that spins is often inside the emulator's own code (a
   * volatile load's hook) or in inlined library code around the kernel's
   * call: the first return address on its stack whose line is the user's
   * (not a system header's, not the shims') is the better answer. */
  if (is_user_line(place))
    return;
  const cuemu_check_module *kernel_module =
      cuemu__check_module_of(at->kernel_code);
  char line[512];
  if (kernel_module &&
      scan_stack(at, kernel_module, is_user_line, line, sizeof line))
    snprintf(place, size, "%s", line);
}

void cuemu__fault_place_of(cuemu_worker *w, void *pc, void *sp, char *place,
                           size_t size) {
  cuemu_fault_where at = {(const void *)w->launch->kernel->thunk,
                          w->call_file, w->call_line, pc, NULL, 0};
  at.nwords = stack_words(w, sp, &at.words);
  cuemu__fault_place_at(&at, place, size);
}

/* Whether the fault is an overflow of an unguarded stack into unmapped
 * memory just below it: the fault's address and stack pointer are both
 * there (a stack in the middle of a slab overflows into its neighbour
 * instead, which its canary shows: cuemu_block.c). */
static int overflowed_unguarded(cuemu_worker *w) {
  cuemu_stack *s = cuemu__stack_below_unguarded(&w->pool, w->fault.addr);
  const unsigned char *sp = w->fault.sp;
  return s && sp >= s->base - CUEMU_GUARD_BYTES && sp < s->base + s->size;
}

/* A note for a fault k * 2^32 bytes past the block's shared memory (k from
 * 1 to 16): on a GPU a shared-memory address is 32 bits, so indexing a
 * __shared__ array with an unsigned 32-bit index that wrapped below zero
 * (p[~i], p[i - j] with i < j, elements of up to 16 bytes) wraps back into
 * the block's window; here shared memory is ordinary memory of the worker
 * and such an index reaches 4 GiB or more past it. Empty otherwise. */
static void shared_wrap_note(cuemu_worker *w, char *note, size_t size) {
  uintptr_t a = (uintptr_t)w->fault.addr;
  note[0] = 0;
  for (uintptr_t k = 1; k <= 16 && a >= k << 32; ++k) {
    uintptr_t wrapped = a - (k << 32);
    if (cuemu__block_shared_holds(w, (const void *)wrapped)) {
      snprintf(note, size,
               " (the address is %lu x 2^32 bytes past %p, an address in the "
               "block's shared memory: on a GPU a shared-memory address has 32 bits "
               "and wraps back into the block's window, as when a __shared__ "
               "array is indexed with an unsigned 32-bit index below zero, "
               "p[~i] or p[i - j] with i < j; cuemu's shared memory is "
               "ordinary 64-bit memory and cannot wrap: index with a signed "
               "int)",
               (unsigned long)k, (void *)wrapped);
      return;
    }
  }
}

/* A note for a fault in the guard after a live device, managed or pinned
 * allocation (cuemu__allocation_memory_new: as large as the allocation and
 * at least 2 MiB): how far past its end the address is. On a GPU such a
 * write usually goes unnoticed (allocations are carved out of 2 MiB pages,
 * so the rest of the page, or the allocation next to it, takes it); here
 * the guard makes it fault. Empty otherwise. */
static void past_end_note(const void *addr, char *note, size_t size) {
  note[0] = 0;
  cuemu_rt_allocation *all = NULL;
  size_t n = cuemu__allocation_snapshot(&all);
  const cuemu_rt_allocation *before = NULL;
  for (size_t i = 0; i < n && (const char *)all[i].base <= (const char *)addr;
       ++i)
    before = &all[i];
  if (before && before->state == CUEMU_RT_MEMORY_LIVE &&
      (before->kind == CUEMU_RT_MEMORY_DEVICE ||
       before->kind == CUEMU_RT_MEMORY_MANAGED ||
       before->kind == CUEMU_RT_MEMORY_HOST)) {
    const char *end = (const char *)before->base + before->size;
    size_t guard = before->size < ((size_t)2 << 20) ? (size_t)2 << 20
                                                     : before->size;
    size_t past = (size_t)((const char *)addr - end);
    if ((const char *)addr >= end && past < guard + 4096)
      snprintf(note, size,
               " (the address is %zu bytes past the end of the %zu-byte %s "
               "allocation at %p: a write past the end of an allocation "
               "faults here, where a GPU, whose allocations are carved out "
               "of 2 MiB pages, may let it land unnoticed in the rest of the "
               "page or in the allocation next to it)",
               past, before->size,
               before->kind == CUEMU_RT_MEMORY_MANAGED ? "managed"
               : before->kind == CUEMU_RT_MEMORY_HOST  ? "pinned host"
                                                       : "device",
               before->base);
  }
  free(all);
}

void cuemu__fault_report(cuemu_worker *w) {
  w->fault.pending = 0;
  cuemu_uint3 t = w->fault.thread;
  cuemu_uint3 b = w->block_idx;
  const char *kernel = w->launch->kernel->name;
  if (w->fault.sig == SIGSEGV &&
      (cuemu__stack_find_guard(&w->pool, w->fault.addr) ||
       overflowed_unguarded(w))) {
    /* Where the stack ran out: the faulting instruction's line (a deep
     * recursion's function). The stack itself is not scanned: its
     * pointer is in the guard. */
    char place[1100] = "";
    cuemu_fault_where at = {(const void *)w->launch->kernel->thunk, NULL, 0,
                            w->fault.pc, NULL, 0};
    fault_place(&at, place, sizeof place);
    int known = strcmp(place, "an unknown place") != 0;
    cuemu__launch_error(w->launch, CUEMU_STACK_OVERFLOW,
                        "thread (%u,%u,%u) of block (%u,%u,%u) in kernel %s "
                        "overflowed its %zu KiB stack; set CUEMU_STACK_SIZE%s"
                        "%s%s",
                        t.x, t.y, t.z, b.x, b.y, b.z, kernel,
                        w->pool.stack_size / 1024,
                        known ? " (it ran out at " : "", known ? place : "",
                        known ? ")" : "");
  } else {
    char place[1100];
    cuemu_fault_where at = {(const void *)w->launch->kernel->thunk,
                            w->call_file, w->call_line, w->fault.pc, NULL,
                            0};
    at.nwords = stack_words(w, w->fault.sp, &at.words);
    fault_place(&at, place, sizeof place);
    w->call_file = NULL;
    cuemu_rt_allocation a;
    if (cuemu__allocation_find(w->fault.addr, &a) &&
        a.state == CUEMU_RT_MEMORY_FREED) {
      cuemu__launch_error(
          w->launch, CUEMU_KERNEL_FAULT,
          "kernel %s: use after free: address %p, %zu bytes into the "
          "%zu-byte %s allocation at %p, which was freed (cudaFree, "
          "cudaFreeHost or cudaDeviceReset), in thread (%u,%u,%u) of block "
          "(%u,%u,%u), in %s",
          kernel, w->fault.addr,
          (size_t)((char *)w->fault.addr - (char *)a.base), a.size,
          a.kind == CUEMU_RT_MEMORY_MANAGED ? "managed"
          : a.kind == CUEMU_RT_MEMORY_HOST  ? "pinned host"
                                            : "device",
          a.base, t.x, t.y, t.z, b.x, b.y, b.z, place);
      return;
    }
    char note[512];
    shared_wrap_note(w, note, sizeof note);
    if (!note[0])
      past_end_note(w->fault.addr, note, sizeof note);
    /* 0x%lx rather than %p, which prints a null address as "(nil)". */
    cuemu__launch_error(w->launch, fault_status(w->fault.sig, w->fault.code),
                        "kernel %s: %s at address 0x%lx in thread (%u,%u,%u) "
                        "of block (%u,%u,%u), in %s%s",
                        kernel,
                        fault_name(w->fault.sig, w->fault.code,
                                   w->fault.decoded ? w->fault.addr : NULL),
                        (unsigned long)(uintptr_t)w->fault.addr, t.x, t.y, t.z,
                        b.x, b.y, b.z, place, note);
  }
  w->call_file = NULL;
}

/* How often (seconds) a launch looks again at what the process has done
 * to the fault handling since the last look: a handler installed since
 * (a language runtime's, say) is chained to rather than left in charge of
 * kernel faults, and a thread whose alternate signal stack was taken away
 * gets one again. Looking costs system calls (one sigaction per signal,
 * one sigaltstack), which a launch of a tiny kernel should not pay every
 * time; reading the coarse clock costs none. */
#define CUEMU_FAULT_RECHECK_S 1.0

static double coarse_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Puts our handler in place for every fault signal, remembering the one
 * it replaces. Called at a launch when the last call is older than
 * CUEMU_FAULT_RECHECK_S (or there was none). */
static pthread_mutex_t install_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic double installed_at = -1.0;
static void install(void) {
  pthread_mutex_lock(&install_lock);
  for (unsigned i = 0; i < NSIGNALS; ++i) {
    struct sigaction current;
    if (sigaction(fault_signals[i], NULL, &current) != 0)
      continue;
    if ((current.sa_flags & SA_SIGINFO) && current.sa_sigaction == on_fault)
      continue;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    if (sigaction(fault_signals[i], &sa, &previous[i]) != 0)
      previous[i] = current;
  }
  pthread_mutex_unlock(&install_lock);
}

/* The alternate signal stack of the calling OS thread, on which the
 * handler runs (a thread that overflows its stack has none left to run it
 * on): the thread's own when it has one of at least CUEMU_ALTSTACK_SIZE
 * (a language runtime's), else ours, made at the thread's first launch and
 * kept while the thread lives, whichever worker it runs. */
static __thread void *thread_altstack;
static __thread double thread_altstack_at = -1.0;
static pthread_key_t altstack_key;
static pthread_once_t altstack_once = PTHREAD_ONCE_INIT;

/* At the thread's exit: its stack is no longer used, then freed. */
static void altstack_free(void *p) {
  stack_t off = {.ss_flags = SS_DISABLE};
  stack_t current;
  if (sigaltstack(NULL, &current) == 0 && current.ss_sp == p)
    sigaltstack(&off, NULL);
  free(p);
}

static void altstack_key_make(void) {
  pthread_key_create(&altstack_key, altstack_free);
}

static void altstack_ensure(void) {
  stack_t current;
  if (sigaltstack(NULL, &current) != 0)
    return;
  if (!(current.ss_flags & SS_DISABLE) &&
      current.ss_size >= CUEMU_ALTSTACK_SIZE)
    return; /* the thread's own, or ours */
  if (!thread_altstack) {
    pthread_once(&altstack_once, altstack_key_make);
    thread_altstack = malloc(CUEMU_ALTSTACK_SIZE);
    if (!thread_altstack)
      return;
    pthread_setspecific(altstack_key, thread_altstack);
  }
  stack_t ours = {.ss_sp = thread_altstack, .ss_size = CUEMU_ALTSTACK_SIZE};
  sigaltstack(&ours, NULL);
}

void cuemu__fault_set_host_hook(int (*hook)(void *address, void *uc),
                                int key) {
  atomic_store(&host_key, key);
  atomic_store(&host_hook, hook);
  install();
  atomic_store_explicit(&installed_at, coarse_now(), memory_order_relaxed);
}

/* Whether our handler still handles SIGSEGV, the fault of almost every
 * faulting kernel: looked at on every launch (one system call, about
 * 0.2 us here), so that a handler that the program or a library installs
 * between two launches (a JVM's, Python's faulthandler) never receives a
 * kernel's invalid access; it is chained to from then on. */
static int segv_ours(void) {
  struct sigaction current;
  return sigaction(SIGSEGV, NULL, &current) != 0 ||
         ((current.sa_flags & SA_SIGINFO) && current.sa_sigaction == on_fault);
}

void cuemu__fault_set_access_hook(int (*hook)(void *address, void *uc)) {
  atomic_store(&access_hook, hook);
  install();
  atomic_store_explicit(&installed_at, coarse_now(), memory_order_relaxed);
}

/* Puts our handler back in place when it is not (looked at once a
 * second, and whenever SIGSEGV is not ours); returns the time. */
static double ensure(void) {
  double now = coarse_now();
  double at = atomic_load_explicit(&installed_at, memory_order_relaxed);
  if (at < 0 || now - at >= CUEMU_FAULT_RECHECK_S || !segv_ours()) {
    install();
    atomic_store_explicit(&installed_at, now, memory_order_relaxed);
  }
  return now;
}

void cuemu__fault_ensure(void) { (void)ensure(); }

void cuemu__fault_enter(cuemu_worker *w) {
  (void)w;
  int key = atomic_load_explicit(&host_key, memory_order_relaxed);
  if (key >= 0)
    pkey_set(key, 0);
  double now = ensure();
  if (thread_altstack_at < 0 || now - thread_altstack_at >= CUEMU_FAULT_RECHECK_S) {
    altstack_ensure();
    thread_altstack_at = now;
  }
}

void cuemu__fault_leave(cuemu_worker *w) {
  /* The thread keeps its alternate stack for its next launch. */
  (void)w;
}
