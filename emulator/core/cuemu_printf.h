/*
 * cuemu_printf.h: printf() of kernel code, as CUDA does it: a call records
 * its format and arguments (the strings of %s copied, so that a bad pointer
 * is a kernel fault at the caller's line, and no lock of the C library is
 * ever held by kernel code), and the records are formatted and written on
 * stdout by the host when the launch ends. The records of a launch take at
 * most cudaLimitPrintfFifoSize bytes; later ones are lost, as on a GPU.
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
  size_t used, limit;  /* bytes, against cudaLimitPrintfFifoSize */
  unsigned long dropped; /* records lost to a full FIFO */
} cuemu_printf_fifo;

/* Prepares an empty FIFO of `limit` bytes. */
void cuemu__printf_fifo_init(cuemu_printf_fifo *fifo, size_t limit);

/* Non-zero once a kernel of the process has called printf (then
 * cudaLimitPrintfFifoSize can no longer change, as on a GPU); cleared by
 * cuemu__printf_forget() (cudaDeviceReset). */
int cuemu__printf_used(void);
void cuemu__printf_forget(void);

/* Formats every record in order onto stdout and frees them. */
void cuemu__printf_fifo_flush(cuemu_printf_fifo *fifo);

#endif /* CUEMU_PRINTF_H */
