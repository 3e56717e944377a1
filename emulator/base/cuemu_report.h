/*
 * cuemu_report.h: the per-OS-thread message of the last failed call.
 */
#ifndef CUEMU_REPORT_H
#define CUEMU_REPORT_H

#include <stdatomic.h>

#include <cuemu/cuemu_status.h>

/* Records a message for cuemu_last_message() and returns `status`, so that
 * a failing function can end with `return cuemu__report(...)`. */
cuemu_status cuemu__report(cuemu_status status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Rewrites, in place, the name that cuemu-cc gives unnamed namespaces in the
 * kernel names of a message ("cuemu_unnamed_KEY::") as CUDA's tools show it
 * ("(anonymous namespace)::"). Messages only: the name stays the kernel's
 * identity everywhere else. */
void cuemu__report_display_names(char *text);

/* Called with every error that ends a launch (cuemu__launch_error() and
 * cuemu__block_fail(), cuemu_worker.h), in the context that found it (the
 * faulting thread, the thread whose arrival made a barrier divergent, the
 * signal handler of a fault), before the block is abandoned. It does
 * nothing: it is where a debugger stops on errors (the gdb extension's
 * `cuemu break-on-error` puts a breakpoint here). */
void cuemu__error_stop(cuemu_status status, const char *message);

/* Prints a launch failure on stderr, unless CUEMU_QUIET=1, and logs it
 * (cuemu__error_log_add: cudaLogsDumpToMemory and the log callbacks get
 * it whatever CUEMU_QUIET). */
void cuemu__report_print(const char *message);

/* Prints the message of the last failed call (cuemu__report_print) the
 * first time it is called with `told` in the process, and returns
 * `status`: for a refusal that a GPU makes too, but whose limit here is one
 * of cuemu's settings (the emulated device's compute capability, its SM
 * count), which the program's own message, CUDA's, does not name. */
cuemu_status cuemu__report_print_first(cuemu_status status,
                                       atomic_flag *told);

#endif /* CUEMU_REPORT_H */
