/*
 * cuemu_allocation_slabs.c: the shared 16 MiB mappings that small device
 * allocations are cut from once the process has its budget of guarded
 * mappings of their own (cuemu_allocation_slabs.h).
 *
 * Pieces are taken one after the other from the current slab and never
 * reused one by one: a slab counts its live pieces, and goes back to the
 * system when the count falls to 0 (the current slab is then used again
 * from its start). A slab is one mapping plus its guard page, whatever the
 * number of its pieces, so that many small allocations (100,000
 * cudaMalloc(16)) stay far below vm.max_map_count.
 */
#include "core/cuemu_allocation_slabs.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* A slab's bytes (its guard page included). */
#define SLAB_BYTES ((size_t)16 << 20)
/* A piece's alignment: cudaMalloc promises 256 bytes, and a GPU's
 * cudaMalloc gives at least cudaDeviceProp::textureAlignment (512), which
 * cudaCreateTextureObject asks of linear memory. */
#define PIECE_ALIGN ((size_t)512)
/* The least room after each piece. */
#define PIECE_GAP ((size_t)256)

typedef struct slab {
  char *base;
  size_t usable; /* the bytes before the guard page */
  size_t used;   /* the bytes handed out from its start */
  size_t live;   /* the pieces not given back */
} slab;

static pthread_mutex_t slab_lock = PTHREAD_MUTEX_INITIALIZER;
static slab *slabs;
static size_t slabs_len, slabs_cap;
/* The slab pieces are taken from: slabs[slabs_len - 1], when there is
 * one. */

/* Unmaps slabs[i] and removes it. Locked. */
static void slab_drop(size_t i) {
  munmap(slabs[i].base, SLAB_BYTES);
  memmove(&slabs[i], &slabs[i + 1], (slabs_len - i - 1) * sizeof *slabs);
  slabs_len--;
}

/* Maps a new current slab; returns 0 when the system refuses. Locked. */
static int slab_new(void) {
  if (slabs_len == slabs_cap) {
    size_t cap = slabs_cap ? 2 * slabs_cap : 16;
    slab *grown = realloc(slabs, cap * sizeof *grown);
    if (!grown)
      return 0;
    slabs = grown;
    slabs_cap = cap;
  }
  char *p = mmap(NULL, SLAB_BYTES, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    return 0;
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  /* The guard page: a write past the last piece faults. Where the system
   * refuses it (no mapping left), the slab is used unguarded. */
  size_t usable = SLAB_BYTES - page;
  if (mprotect(p + usable, page, PROT_READ) != 0)
    usable = SLAB_BYTES;
  /* The previous current slab goes when it holds nothing. */
  if (slabs_len && slabs[slabs_len - 1].live == 0)
    slab_drop(slabs_len - 1);
  slabs[slabs_len++] = (slab){p, usable, 0, 0};
  return 1;
}

void *cuemu__allocation_slab_take(size_t size) {
  if (size > CUEMU_SLAB_PIECE_MAX)
    return NULL;
  size_t piece =
      (size + PIECE_GAP + PIECE_ALIGN - 1) / PIECE_ALIGN * PIECE_ALIGN;
  pthread_mutex_lock(&slab_lock);
  slab *s = slabs_len ? &slabs[slabs_len - 1] : NULL;
  if (!s || s->usable - s->used < piece) {
    if (!slab_new()) {
      pthread_mutex_unlock(&slab_lock);
      return NULL;
    }
    s = &slabs[slabs_len - 1];
  }
  char *p = s->base + s->used;
  s->used += piece;
  s->live++;
  pthread_mutex_unlock(&slab_lock);
  return p;
}

int cuemu__allocation_slab_release(void *piece) {
  uintptr_t at = (uintptr_t)piece;
  pthread_mutex_lock(&slab_lock);
  /* Linear: the slabs are few (one per 16 MiB of live small pieces). */
  for (size_t i = slabs_len; i-- > 0;) {
    uintptr_t base = (uintptr_t)slabs[i].base;
    if (at - base >= SLAB_BYTES)
      continue;
    if (slabs[i].live && --slabs[i].live == 0) {
      if (i == slabs_len - 1) {
        /* The current slab starts again; its old contents are left. */
        slabs[i].used = 0;
      } else {
        slab_drop(i);
      }
    }
    pthread_mutex_unlock(&slab_lock);
    return 1;
  }
  pthread_mutex_unlock(&slab_lock);
  return 0;
}

size_t cuemu__allocation_slab_count(void) {
  pthread_mutex_lock(&slab_lock);
  size_t n = slabs_len;
  pthread_mutex_unlock(&slab_lock);
  return n;
}
