/*
 * cuemu_printf.h: printf() of kernel code, as CUDA does it: a call records
 * its format and arguments (the strings of %s copied, so that a bad pointer
 * is a kernel fault at the caller's line, and no lock of the C library is
 * ever held by kernel code), and the records are formatted and written on
 * stdout by the host where CUDA writes them: when the host next
 * synchronises with the device or launches a kernel. The FIFO is circular,
 * as CUDA's: a launch's records take at most cudaLimitPrintfFifoSize bytes,
 * and when a record does not fit, the oldest records make room for it.
 * Internal to libcuemu.
 */
#ifndef CUEMU_PRINTF_H
#define CUEMU_PRINTF_H

#include <pthread.h>
#include <stddef.h>

/* One launch's records. */
typedef struct cuemu_printf_fifo {
  pthread_mutex_t lock;
  struct cuemu_printf_record *first, *last;
  size_t used, limit;    /* bytes, against cudaLimitPrintfFifoSize */
  unsigned long kept;    /* records taken in */
  unsigned long dropped; /* of them, those lost to a full FIFO */
} cuemu_printf_fifo;

/* Prepares an empty FIFO of `limit` bytes. */
void cuemu__printf_fifo_init(cuemu_printf_fifo *fifo, size_t limit);

/* Non-zero once a kernel of the process has called printf (then
 * cudaLimitPrintfFifoSize can no longer change, as on a GPU); cleared by
 * cuemu__printf_forget() (cudaDeviceReset). */
int cuemu__printf_used(void);
void cuemu__printf_forget(void);

/* Ends the FIFO of a launch of `kernel`: its records wait, in order, for
 * the next point at which CUDA prints them (cuemu__printf_flush_pending),
 * and at the latest are printed when the process exits. A launch that lost
 * records to a full FIFO is noted on stderr (once a process, unless
 * CUEMU_QUIET): a GPU loses them silently. */
void cuemu__printf_fifo_keep(cuemu_printf_fifo *fifo, const char *kernel);

/* Has the process call `wait` at exit before it prints the waiting records
 * (the streams' execution threads: their launches still running), so that
 * every launch made before exit prints its lines once, synchronised or
 * not. Also registers that exit's flush, and forgets the waiting records in
 * a child of fork() (its parent prints them). */
void cuemu__printf_wait_at_exit(void (*wait)(void));

/* Formats every waiting record in order onto stdout and frees them: the
 * points where CUDA prints (a launch's start, the host's synchronising
 * calls and blocking copies, a module's unloading, cudaDeviceReset) and,
 * for the C API, a launch's end. */
void cuemu__printf_flush_pending(void);

/* The flush of a launch's start (cuemu__printf_flush_pending), where the
 * launch is issued: on a thread marked by cuemu__printf_mark_executor (an
 * execution thread of an asynchronous stream, which runs work the host
 * issued earlier) it does nothing, as the host printed at the launch's
 * issue; printing there would cut into what the host prints meanwhile. */
void cuemu__printf_flush_at_launch(void);
void cuemu__printf_mark_executor(void);

#endif /* CUEMU_PRINTF_H */
