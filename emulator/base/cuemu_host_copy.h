/*
 * cuemu_host_copy.h: the copy of host memory that the calling OS thread is
 * making for the runtime (cudaMemcpy's own memmove), so that a fault in it
 * can be told apart from the program's other faults and named: a host
 * pointer that is no memory of the process faults in a GPU's driver too,
 * which copies pageable memory with the CPU, and the process still ends
 * with the signal; the fault handler (core/cuemu_fault.c) first prints the
 * call, its line in the program, the side of the copy and the address.
 */
#ifndef CUEMU_HOST_COPY_H
#define CUEMU_HOST_COPY_H

#include <stddef.h>

typedef struct cuemu__host_copy {
  const char *call;   /* the runtime call ("cudaMemcpy"); NULL: none */
  const void *caller; /* the return address into the program's code */
  const void *dst;    /* the bytes being copied now */
  const void *src;
  size_t count;
} cuemu__host_copy;

/* The calling thread's copy in progress; its call is NULL when none.
 * Initial-exec, as cuemu__worker_self: the fault handler reads it on any
 * thread, and a first access of dynamic TLS (libcuemu loaded by dlopen, as
 * Python loads it) may call malloc, which a thread that faulted inside
 * malloc must not. */
extern __thread cuemu__host_copy cuemu__host_copy_now
    __attribute__((tls_model("initial-exec")));

/* Names the runtime call that the copies until cuemu__host_copy_end()
 * belong to, made from the program's code at return address `caller`. */
static inline void cuemu__host_copy_call(const char *call,
                                         const void *caller) {
  cuemu__host_copy_now.call = call;
  cuemu__host_copy_now.caller = caller;
}

/* memmove(dst, src, count), noted as the current call's copy. */
void cuemu__host_copy_bytes(void *dst, const void *src, size_t count);

static inline void cuemu__host_copy_end(void) {
  cuemu__host_copy_now.call = NULL;
  cuemu__host_copy_now.count = 0;
}

/* Writes into buf, when the thread faulted at `addr` inside the copy in
 * progress, which side of it and which call: "cudaMemcpy: the source of
 * 4096 bytes at 0x1 is not readable host memory". Returns 0 (buf left
 * alone) when the fault is not the copy's. */
int cuemu__host_copy_fault(const void *addr, char *buf, size_t size);

#endif /* CUEMU_HOST_COPY_H */
