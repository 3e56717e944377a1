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
 */
#include <stdio.h>
#include <stdlib.h>

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

CUEMU_WRAPPER void __wrap_abort(void) {
  refuse_on_kernel_thread("abort", __builtin_return_address(0));
  abort();
}

CUEMU_WRAPPER void __wrap_exit(int status) {
  refuse_on_kernel_thread("exit", __builtin_return_address(0));
  exit(status);
}

CUEMU_WRAPPER void __wrap__Exit(int status) {
  refuse_on_kernel_thread("_Exit", __builtin_return_address(0));
  _Exit(status);
}

CUEMU_WRAPPER void __wrap_quick_exit(int status) {
  refuse_on_kernel_thread("quick_exit", __builtin_return_address(0));
  quick_exit(status);
}
