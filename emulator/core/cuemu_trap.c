/*
 * cuemu_trap.c: assert() and __trap() in kernel code, PTX's exit, and the
 * misaligned accesses that the shims find (a GPU's fault).
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/cuemu_watchdog.h"
#include "core/cuemu_worker.h"

/* The thread that calls this leaves the block as if its kernel had
 * returned (a thread that has never blocked runs as a plain call on the
 * worker's stack: made the current thread, it owns that stack, and leaves
 * it as a thread that returns after blocking does). */
static CUEMU_NORETURN void leave_thread(cuemu_worker *w) {
  cuemu__thread_current(w);
  cuemu_thread_finish();
}

/*
 * A failed assert() in kernel code. As on a GPU, every thread whose
 * assertion fails prints CUDA's message on stderr, whatever CUEMU_QUIET
 * says (it is the program's output, not cuemu's), and the launch ends with
 * CUEMU_ASSERT (cudaErrorAssert), unless it had failed already. The thread
 * leaves; no block starts after it, and the block's other threads run on
 * only until they exit or wait (schedule() ends the block there), so that
 * the lanes that fail the same assertion print too, as a warp's lanes do on
 * a GPU.
 */
void cuemu_kernel_assert_fail(const char *expr, const char *file, int line,
                       const char *function) {
  cuemu_worker *w = cuemu__worker_self;
  if (!w || !w->in_kernel)
    __assert_fail(expr, file, (unsigned)line, function);
  cuemu_uint3 t = cuemu__worker_thread_idx(w);
  cuemu_uint3 b = w->block_idx;
  fprintf(stderr,
          "%s:%d: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` "
          "failed.\n",
          file, line, function, b.x, b.y, b.z, t.x, t.y, t.z, expr);
  fflush(stderr);
  /* The launch's first error is its error, and where a debugger stops. */
  if (!atomic_load_explicit(&w->launch->stop, memory_order_relaxed))
    cuemu__launch_error(w->launch, CUEMU_ASSERT,
                        "kernel %s: %s:%d: %s: block (%u,%u,%u), thread "
                        "(%u,%u,%u): assertion `%s' failed",
                        w->launch->kernel->name, file, line, function, b.x,
                        b.y, b.z, t.x, t.y, t.z, expr);
  leave_thread(w);
}

/* __trap() or __brkpt() (`what`) ends the launch with TRAP. */
static CUEMU_NORETURN void trap(const char *what, const char *file, int line) {
  cuemu_worker *w = cuemu__worker_self;
  if (!w || !w->in_kernel)
    abort();
  cuemu_uint3 t = cuemu__worker_thread_idx(w);
  cuemu_uint3 b = w->block_idx;
  cuemu__block_fail(w, CUEMU_TRAP,
                    "kernel %s: %s at %s:%d in thread (%u,%u,%u) of "
                    "block (%u,%u,%u)",
                    w->launch->kernel->name, what, file, line, t.x, t.y, t.z,
                    b.x, b.y, b.z);
}

void cuemu_kernel_trap(const char *file, int line) {
  trap("__trap()", file, line);
}

/* A breakpoint with no debugger attached stops the kernel as a trap does. */
void cuemu_kernel_breakpoint(const char *file, int line) {
  trap("__brkpt() (a breakpoint, no debugger attached)", file, line);
}

void cuemu_thread_exit(const char *file, int line) {
  if (!cuemu_thread_in_kernel())
    cuemu_kernel_assert_fail("PTX exit outside a kernel", file, line, "exit");
  leave_thread(cuemu__worker_self);
}

/* The report of both entry points below: `size` bytes at `address`, which
 * must be a multiple of `align`. */
static CUEMU_NORETURN void misaligned(const volatile void *address,
                                      unsigned size, unsigned align,
                                      const char *what, const char *file,
                                      int line, void *return_address,
                                      void *frame) {
  cuemu_worker *w = cuemu__worker_self;
  if (!w || !w->in_kernel) {
    fprintf(stderr,
            "cuemu: %s of %u bytes at misaligned address %p (needs a "
            "multiple of %u)%s%s:%d\n",
            what, size, (const void *)address, align, file ? ", at " : "",
            file ? file : "", line);
    abort();
  }
  /* The caller is the shim's code inlined into the kernel: the call's own
   * instruction (the byte before the return address, which after a call
   * that does not return may be another line's code), or the first of the
   * user's lines on the stack, is the place. */
  char place[1100];
  if (file)
    snprintf(place, sizeof place, "%s:%d", file, line);
  else
    cuemu__fault_place_of(w, (char *)return_address - 1, frame, place,
                          sizeof place);
  cuemu_uint3 t = cuemu__worker_thread_idx(w);
  cuemu_uint3 b = w->block_idx;
  cuemu__block_fail(w, CUEMU_MISALIGNED_ADDRESS,
                    "kernel %s: misaligned address %p: %s of %u bytes needs "
                    "an address that is a multiple of %u, in thread "
                    "(%u,%u,%u) of block (%u,%u,%u), at %s",
                    w->launch->kernel->name, (const void *)address, what,
                    size, align, t.x, t.y, t.z, b.x, b.y, b.z, place);
}

void cuemu_kernel_misaligned(const volatile void *address, unsigned size,
                             const char *what, const char *file, int line) {
  misaligned(address, size, size, what, file, line,
             __builtin_return_address(0), __builtin_frame_address(0));
}

void cuemu_kernel_misaligned_object(const volatile void *address,
                                    unsigned size, unsigned align,
                                    const char *what, const char *file,
                                    int line) {
  misaligned(address, size, align, what, file, line,
             __builtin_return_address(0), __builtin_frame_address(0));
}
