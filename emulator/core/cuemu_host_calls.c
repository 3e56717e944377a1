/*
 * cuemu_host_calls.c: abort(), exit(), _Exit() and quick_exit() called from
 * kernel code.
 *
 * nvcc refuses calls of these host functions in device code; compiled as
 * C++ they would end the whole host process (a program, or the Python
 * interpreter that loaded a module). Every program and module that
 * cuemu-cc links is linked with `--wrap` for each of them
 * (cuemu__link_tail), so that their calls come here: on a kernel thread the
 * call ends the launch with an error naming the function, the kernel, the
 * thread and the caller's source line; anywhere else it is the C library's
 * function. An abort() that the C library or libstdc++ makes on a kernel
 * thread (std::terminate, a failed check of glibc's) raises SIGABRT, which
 * the fault handler turns into a kernel fault (cuemu_fault.c).
 *
 * Links that cuemu-cc does not make (a CMake target whose linker is the
 * host C++ compiler, a Makefile's `g++ ... -lcuemu`) have no `--wrap`:
 * libcuemu also defines the four functions itself, so that a program
 * linked with it calls them here (the dynamic linker finds libcuemu's
 * before the C library's), and they go on to the C library's, looked up in
 * the C library itself. The next definition (dlsym(RTLD_NEXT)) is not
 * always the C library's: a program that the host compiler links with the
 * cuemu toolkit's lib64/libcudart.so loads that filter library after
 * libcuemu, and its stub of `exit` (an invalid instruction, never meant to
 * run: emulator/export/cuemu_filter_stubs.sh) comes first, so that exit(1)
 * after a failed CUDA call ended the program with SIGILL. Calls that the C
 * and C++ runtime libraries make themselves (std::terminate's abort()) are
 * left to the fault handler as before.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <gnu/lib-names.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/cuemu_check.h"
#include "core/cuemu_worker.h"

/* Ends the block of the kernel thread that called `function`, if the
 * caller (whose return address is `caller`) is one; returns otherwise. */
static void refuse_on_kernel_thread(const char *function, const void *caller) {
  cuemu_worker *w = cuemu__worker_self;
  if (!w || !w->in_kernel)
    return;
  char place[512];
  cuemu__check_line(caller, place, sizeof place);
  cuemu_uint3 t = cuemu__worker_thread_idx(w);
  cuemu_uint3 b = w->block_idx;
  cuemu__block_fail(w, CUEMU_KERNEL_FAULT,
                    "kernel %s: %s() called in device code at %s, in thread "
                    "(%u,%u,%u) of block (%u,%u,%u): it is a host function "
                    "(nvcc refuses the call), and it would end the host "
                    "process",
                    w->launch->kernel->name, function, place, t.x, t.y, t.z,
                    b.x, b.y, b.z);
}

/* The wrappers keep default visibility: programs and modules link them by
 * these names (libcuemu is compiled with -fvisibility=hidden). */
#define CUEMU_WRAPPER __attribute__((visibility("default")))

typedef void (*exit_fn)(int);

/* The C library's `name`: its own definition, whatever libraries the
 * program loads between libcuemu and the C library (see above). */
static void *next_definition(const char *name) {
  void *libc = dlopen(LIBC_SO, RTLD_LAZY | RTLD_NOLOAD);
  void *f = libc ? dlsym(libc, name) : NULL;
  if (libc)
    dlclose(libc);
  return f ? f : dlsym(RTLD_NEXT, name);
}

static _Noreturn void real_abort(void) {
  void (*f)(void) = (void (*)(void))next_definition("abort");
  if (f)
    f();
  __builtin_trap();
}

static _Noreturn void real_exit(const char *name, int status) {
  exit_fn f = (exit_fn)next_definition(name);
  if (f)
    f(status);
  __builtin_trap();
}

/* Non-zero when the call comes from the C or C++ runtime (its own abort()
 * of std::terminate or a failed check), which the fault handler reports. */
static int from_runtime(const void *caller) {
  Dl_info info;
  if (!dladdr(caller, &info) || !info.dli_fname)
    return 0;
  const char *base = strrchr(info.dli_fname, '/');
  base = base ? base + 1 : info.dli_fname;
  static const char *const runtime[] = {"libc.so", "libstdc++", "libgcc_s",
                                        "libm.so", "ld-linux", "libcuemu",
                                        "libc++", NULL};
  for (int i = 0; runtime[i]; ++i)
    if (strncmp(base, runtime[i], strlen(runtime[i])) == 0)
      return 1;
  return 0;
}

CUEMU_WRAPPER void __wrap_abort(void) {
  refuse_on_kernel_thread("abort", __builtin_return_address(0));
  real_abort();
}

CUEMU_WRAPPER void __wrap_exit(int status) {
  refuse_on_kernel_thread("exit", __builtin_return_address(0));
  real_exit("exit", status);
}

CUEMU_WRAPPER void __wrap__Exit(int status) {
  refuse_on_kernel_thread("_Exit", __builtin_return_address(0));
  real_exit("_Exit", status);
}

CUEMU_WRAPPER void __wrap_quick_exit(int status) {
  refuse_on_kernel_thread("quick_exit", __builtin_return_address(0));
  real_exit("quick_exit", status);
}

/* The same, for links without --wrap (see above). */

CUEMU_WRAPPER void abort(void) {
  const void *caller = __builtin_return_address(0);
  if (!from_runtime(caller))
    refuse_on_kernel_thread("abort", caller);
  real_abort();
}

CUEMU_WRAPPER void exit(int status) {
  const void *caller = __builtin_return_address(0);
  if (!from_runtime(caller))
    refuse_on_kernel_thread("exit", caller);
  real_exit("exit", status);
}

CUEMU_WRAPPER void _Exit(int status) {
  const void *caller = __builtin_return_address(0);
  if (!from_runtime(caller))
    refuse_on_kernel_thread("_Exit", caller);
  real_exit("_Exit", status);
}

CUEMU_WRAPPER void quick_exit(int status) {
  const void *caller = __builtin_return_address(0);
  if (!from_runtime(caller))
    refuse_on_kernel_thread("quick_exit", caller);
  real_exit("quick_exit", status);
}
