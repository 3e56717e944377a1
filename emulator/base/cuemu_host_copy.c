/*
 * cuemu_host_copy.c: the note of the runtime's copy of host memory in
 * progress on each OS thread (cuemu_host_copy.h).
 */
#include "base/cuemu_host_copy.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

__thread cuemu__host_copy cuemu__host_copy_now
    __attribute__((tls_model("initial-exec")));

void cuemu__host_copy_bytes(void *dst, const void *src, size_t count) {
  cuemu__host_copy *now = &cuemu__host_copy_now;
  now->dst = dst;
  now->src = src;
  now->count = count;
  memmove(dst, src, count);
  now->count = 0;
}

/* Whether `addr` lies in the `count` bytes at `p`. */
static int holds(const void *p, size_t count, const void *addr) {
  return (uintptr_t)addr - (uintptr_t)p < count;
}

int cuemu__host_copy_fault(const void *addr, char *buf, size_t size) {
  const cuemu__host_copy *now = &cuemu__host_copy_now;
  if (!now->call || !now->count)
    return 0;
  /* A fault on the page of the start of a side (below it, when the
   * pointer is just past a page's start) is that side's too. */
  const char *side, *access;
  const void *at;
  if (holds(now->src, now->count, addr) ||
      (uintptr_t)now->src - (uintptr_t)addr < 4096) {
    side = "the source";
    access = "readable";
    at = now->src;
  } else if (holds(now->dst, now->count, addr) ||
             (uintptr_t)now->dst - (uintptr_t)addr < 4096) {
    side = "the destination";
    access = "writable";
    at = now->dst;
  } else {
    return 0;
  }
  snprintf(buf, size,
           "%s: %s of %zu bytes at %p is not %s host memory of this process "
           "(fault at %p); a GPU's driver, which copies pageable memory with "
           "the CPU, faults there too",
           now->call, side, now->count, at, access, addr);
  return 1;
}
