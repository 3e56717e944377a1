/*
 * cuemu_parity_buffer.c: arrays the kernel under test and the host
 * implementation write into. Each is placed, as cudaMalloc places
 * allocations, at a 256-byte boundary, between two inaccessible guard
 * regions of at least 1 MiB; the bytes between the array and the guard
 * regions hold a canary pattern. A write past either end (up to a
 * megabyte) either faults in a guard region or changes a canary byte,
 * which the runner finds afterwards.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cuemu_parity_internal.h"

#define CANARY 0xa5

/* Bytes of the guard region on each side: address space only. */
static size_t guard_size(void) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  return ((size_t)1 << 20) > page ? (size_t)1 << 20 : page;
}

int cuemu__pbuffer_alloc(cuemu__pbuffer *b, const void *init, size_t bytes) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t body = (bytes + 255) / 256 * 256;
  body = (body + page - 1) / page * page;
  if (body == 0)
    body = page;
  memset(b, 0, sizeof *b);
  b->map_size = body + 2 * guard_size();
  b->map = mmap(NULL, b->map_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (b->map == MAP_FAILED) {
    b->map = NULL;
    return -1;
  }
  unsigned char *start = (unsigned char *)b->map + guard_size();
  if (mprotect(start, body, PROT_READ | PROT_WRITE) != 0) {
    munmap(b->map, b->map_size);
    b->map = NULL;
    return -1;
  }
  memset(start, CANARY, body);
  /* The array ends as close to the guard page as a 256-byte aligned start
   * allows. */
  size_t slack = (body - bytes) / 256 * 256;
  b->data = start + slack;
  b->bytes = bytes;
  if (bytes)
    memcpy(b->data, init, bytes);
  return 0;
}

int cuemu__pbuffer_damaged(const cuemu__pbuffer *b, long *offset) {
  if (!b->map)
    return 0;
  unsigned char *start = (unsigned char *)b->map + guard_size();
  unsigned char *end = (unsigned char *)b->map + b->map_size - guard_size();
  for (unsigned char *p = start; p < b->data; ++p)
    if (*p != CANARY) {
      *offset = -(long)(b->data - p);
      return 1;
    }
  for (unsigned char *p = b->data + b->bytes; p < end; ++p)
    if (*p != CANARY) {
      *offset = (long)(p - b->data);
      return 1;
    }
  return 0;
}

int cuemu__pbuffer_near(const cuemu__pbuffer *b, const void *addr) {
  const unsigned char *a = addr, *m = b->map;
  return b->map && a >= m && a < m + b->map_size &&
         !(a >= b->data && a < b->data + b->bytes);
}

void cuemu__pbuffer_free(cuemu__pbuffer *b) {
  if (b->map)
    munmap(b->map, b->map_size);
  memset(b, 0, sizeof *b);
}

int cuemu__pbuffers_blame(const cuemu__psetup *s, const cuemu__pbuffer *bufs,
                          const void *addr, const char *who,
                          cuemu__ptext *out) {
  const cuemu_parity_case *c = s->c;
  int named = 0;
  for (int i = 0; i < c->nargs; ++i) {
    long off;
    if (!c->args[i].is_array)
      continue;
    if (addr ? !cuemu__pbuffer_near(&bufs[i], addr)
             : !cuemu__pbuffer_damaged(&bufs[i], &off))
      continue;
    if (addr)
      off = (long)((const unsigned char *)addr - bufs[i].data);
    cuemu__ptext_add(out,
                     "%s wrote out of bounds of array %s: byte offset %ld of "
                     "an array of %zu bytes (%zu elements)\n",
                     who, c->args[i].name, off, s->bytes[i], s->count[i]);
    named++;
  }
  return named;
}
