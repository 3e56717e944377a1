/*
 * cuemu_rt_pool_arena.c: the chunks and blocks of a memory pool (see
 * cuemu_rt_pool_arena.h). Each chunk keeps its blocks in a list in address
 * order; neighbouring free blocks are joined at once, so a chunk whose
 * memory is all free has exactly one block.
 */
#define _GNU_SOURCE
#include "runtime/cuemu_rt_pool_arena.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/cuemu_allocations.h"

struct cuemu__pool_block {
  char *base;
  size_t bytes;
  int free;
  int guarded; /* its last page is a guard (cuemu__allocation_guard_take) */
  void *freed_stream;           /* the stream of its free */
  unsigned long long freed_seq; /* the moment of its (latest) free */
  cuemu__pool_chunk *chunk;
  cuemu__pool_block *prev, *next; /* in address order in the chunk */
  /* In its bin of the arena's free blocks, while free: an allocation looks
   * at the free blocks of the sizes that fit only (looking at every block
   * made 100,000 live cudaMallocAsync(16) take a minute). */
  cuemu__pool_block *free_prev, *free_next;
};

struct cuemu__pool_chunk {
  char *base;
  size_t bytes;
  uint64_t file_offset; /* in a shareable arena's file */
  cuemu__pool_block *blocks;
  cuemu__pool_chunk *next;
};

static size_t page_size(void) {
  static size_t cached;
  if (!cached) {
    long page = sysconf(_SC_PAGESIZE);
    cached = page > 0 ? (size_t)page : 4096;
  }
  return cached;
}

/* The bin of free blocks of `bytes`: blocks of a granule or more (every
 * whole chunk among them) share the last one. */
static size_t bin_of(size_t bytes) {
  size_t pages = bytes / page_size(), granule = CUEMU_POOL_GRANULE / page_size();
  if (granule > CUEMU_POOL_BINS - 1)
    granule = CUEMU_POOL_BINS - 1;
  return pages < granule ? pages : CUEMU_POOL_BINS - 1;
}

/* Puts free block `b` in its bin (its size must not change there). */
static void free_list_add(cuemu__pool_arena *arena, cuemu__pool_block *b) {
  size_t bin = bin_of(b->bytes);
  b->free_prev = NULL;
  b->free_next = arena->bins[bin];
  if (arena->bins[bin])
    arena->bins[bin]->free_prev = b;
  arena->bins[bin] = b;
  arena->bin_used[bin / 64] |= 1ull << (bin % 64);
}

/* Takes free block `b` out of its bin. */
static void free_list_remove(cuemu__pool_arena *arena,
                             cuemu__pool_block *b) {
  size_t bin = bin_of(b->bytes);
  if (b->free_prev)
    b->free_prev->free_next = b->free_next;
  else
    arena->bins[bin] = b->free_next;
  if (b->free_next)
    b->free_next->free_prev = b->free_prev;
  b->free_prev = b->free_next = NULL;
  if (!arena->bins[bin])
    arena->bin_used[bin / 64] &= ~(1ull << (bin % 64));
}

/* The first bin from `bin` on that holds free blocks, or CUEMU_POOL_BINS. */
static size_t next_used_bin(const cuemu__pool_arena *arena, size_t bin) {
  while (bin < CUEMU_POOL_BINS) {
    uint64_t word = arena->bin_used[bin / 64] >> (bin % 64);
    if (word)
      return bin + (size_t)__builtin_ctzll(word);
    bin = (bin / 64 + 1) * 64;
  }
  return CUEMU_POOL_BINS;
}

/* May free block `b` serve the allocation? */
static int may_reuse(const cuemu__pool_block *b, cuemu__pool_reusable reusable,
                     const void *ctx) {
  return b->freed_seq == 0 || reusable(ctx, b->freed_stream, b->freed_seq);
}

/* The smallest free block of at least `bytes` that may be reused, or NULL:
 * the first allowed one of the first bin that has one, in the last bin the
 * smallest allowed one. */
static cuemu__pool_block *best_fit(const cuemu__pool_arena *arena,
                                   size_t bytes, cuemu__pool_reusable reusable,
                                   const void *ctx) {
  for (size_t bin = next_used_bin(arena, bin_of(bytes));
       bin < CUEMU_POOL_BINS - 1; bin = next_used_bin(arena, bin + 1))
    for (cuemu__pool_block *b = arena->bins[bin]; b; b = b->free_next)
      if (may_reuse(b, reusable, ctx))
        return b;
  cuemu__pool_block *found = NULL;
  for (cuemu__pool_block *b = arena->bins[CUEMU_POOL_BINS - 1]; b;
       b = b->free_next)
    if (b->bytes >= bytes && (!found || b->bytes < found->bytes) &&
        may_reuse(b, reusable, ctx))
      found = b;
  return found;
}

size_t cuemu__pool_block_bytes(size_t size) {
  size_t page = page_size();
  size_t bytes = (size + page - 1) / page * page;
  return bytes < size ? 0 : bytes;
}

/* A new chunk of at least `bytes`, its memory without access, in the
 * arena; NULL when the system has no memory. */
static cuemu__pool_chunk *chunk_new(cuemu__pool_arena *arena, size_t bytes) {
  size_t size = (bytes + CUEMU_POOL_GRANULE - 1) / CUEMU_POOL_GRANULE *
                CUEMU_POOL_GRANULE;
  if (size < bytes)
    return NULL;
  cuemu__pool_chunk *c = calloc(1, sizeof *c);
  cuemu__pool_block *b = calloc(1, sizeof *b);
  char *base = NULL;
  uint64_t offset = arena->file_bytes;
  if (c && b && arena->shared) {
    /* The next part of the pool's file. */
    void *m = ftruncate(arena->fd, (off_t)(offset + size)) == 0
                  ? mmap(NULL, size, PROT_NONE, MAP_SHARED, arena->fd,
                         (off_t)offset)
                  : MAP_FAILED;
    base = m == MAP_FAILED ? NULL : m;
    if (base)
      arena->file_bytes += size;
  } else if (c && b) {
    base = cuemu__allocation_memory_new(size);
  }
  if (!base) {
    free(c);
    free(b);
    return NULL;
  }
  mprotect(base, size, PROT_NONE);
  *b = (cuemu__pool_block){base, size, 1, 0, NULL, 0, c, NULL, NULL, NULL,
                           NULL};
  *c = (cuemu__pool_chunk){base, size, offset, b, arena->chunks};
  arena->chunks = c;
  free_list_add(arena, b);
  arena->reserved += size;
  /* Only memcheck reads the record: without memory for it, the chunk is
   * merely not checked for access. */
  (void)cuemu__access_limits_set(base, size, size, arena->access);
  return c;
}

/* Cuts a free block, out of its bin, down to `bytes`, the rest a free
 * block of its own (in its bin) that keeps the record of the free. */
static void split(cuemu__pool_arena *arena, cuemu__pool_block *b,
                  size_t bytes) {
  if (b->bytes == bytes)
    return;
  cuemu__pool_block *rest = malloc(sizeof *rest);
  if (!rest)
    return; /* the allocation takes the whole block */
  *rest = *b;
  rest->base = b->base + bytes;
  rest->bytes = b->bytes - bytes;
  rest->prev = b;
  if (rest->next)
    rest->next->prev = rest;
  b->next = rest;
  b->bytes = bytes;
  free_list_add(arena, rest);
}

void *cuemu__pool_arena_take(cuemu__pool_arena *arena, size_t bytes,
                             uint64_t max_reserved,
                             cuemu__pool_reusable reusable, const void *ctx,
                             cuemu__pool_block **block) {
  cuemu__pool_block *found = NULL;
  /* Each block ends in a read-only guard page, so that blocks handed out
   * one after the other never touch: a kernel writing past one faults, and
   * memcheck reports the write (before it is made) instead of taking it
   * for an access to the next block (see docs/checkers.md). */
  size_t page = page_size(), data = bytes;
  if (bytes > SIZE_MAX - page)
    return NULL;
  bytes += page;
  /* The smallest free block that fits and may be reused. */
  found = best_fit(arena, bytes, reusable, ctx);
  if (!found) {
    size_t size = (bytes + CUEMU_POOL_GRANULE - 1) / CUEMU_POOL_GRANULE *
                  CUEMU_POOL_GRANULE;
    if (max_reserved &&
        (size > max_reserved || arena->reserved > max_reserved - size))
      return NULL;
    cuemu__pool_chunk *c = chunk_new(arena, bytes);
    if (!c)
      return NULL;
    found = c->blocks;
  }
  free_list_remove(arena, found);
  split(arena, found, bytes);
  found->free = 0;
  /* Past the process's budget of guard pages (each splits a mapping, and
   * vm.max_map_count caps them: 100,000 live cudaMallocAsync(16) used to
   * fail at the 32,736th), or where the system refuses one, the block is
   * all readable and writable, with no guard page: a mapping of its own
   * with its writable neighbours. */
  found->guarded = cuemu__allocation_guard_take();
  if (found->guarded &&
      (mprotect(found->base, data, PROT_READ | PROT_WRITE) != 0 ||
       mprotect(found->base + data, found->bytes - data, PROT_READ) != 0)) {
    cuemu__allocation_guard_give();
    found->guarded = 0;
  }
  if (!found->guarded &&
      mprotect(found->base, found->bytes, PROT_READ | PROT_WRITE) != 0) {
    mprotect(found->base, found->bytes, PROT_NONE);
    found->free = 1;
    free_list_add(arena, found);
    return NULL;
  }
  *block = found;
  return found->base;
}

/* Joins free block `b` with its free successor. */
static void join_next(cuemu__pool_arena *arena, cuemu__pool_block *b) {
  cuemu__pool_block *n = b->next;
  if (!n || !n->free)
    return;
  free_list_remove(arena, n);
  free_list_remove(arena, b); /* it changes bins */
  /* Memory never handed out (moment 0) takes any stream's record. */
  if (b->freed_seq == 0)
    b->freed_stream = n->freed_stream;
  else if (n->freed_seq != 0 && b->freed_stream != n->freed_stream)
    b->freed_stream = CUEMU_POOL_SEVERAL_STREAMS;
  if (n->freed_seq > b->freed_seq)
    b->freed_seq = n->freed_seq;
  b->bytes += n->bytes;
  b->next = n->next;
  if (b->next)
    b->next->prev = b;
  free(n);
  free_list_add(arena, b);
}

void cuemu__pool_arena_give(cuemu__pool_arena *arena, cuemu__pool_block *block,
                            void *stream, unsigned long long seq) {
  mprotect(block->base, block->bytes, PROT_NONE);
  if (block->guarded)
    cuemu__allocation_guard_give();
  block->guarded = 0;
  block->free = 1;
  block->freed_stream = stream;
  block->freed_seq = seq;
  free_list_add(arena, block);
  join_next(arena, block);
  if (block->prev && block->prev->free)
    join_next(arena, block->prev);
}

/* Unlinks chunk `*link` from the arena and gives its memory back. */
static void chunk_drop(cuemu__pool_arena *arena, cuemu__pool_chunk **link) {
  cuemu__pool_chunk *c = *link;
  *link = c->next;
  arena->reserved -= c->bytes;
  cuemu__access_limits_clear(c->base);
  for (cuemu__pool_block *b = c->blocks, *n; b; b = n) {
    n = b->next;
    if (b->guarded)
      cuemu__allocation_guard_give();
    if (b->free)
      free_list_remove(arena, b);
    free(b);
  }
  /* Its pages stay without access in the quarantine for a while, so that
   * a late use of a freed allocation is still told as one; a shareable
   * pool's part of its file is emptied (importers may still map it). */
  if (arena->shared)
    fallocate(arena->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
              (off_t)c->file_offset, (off_t)c->bytes);
  cuemu__allocation_memory_free(c->base, c->bytes);
  free(c);
}

void cuemu__pool_arena_shrink(cuemu__pool_arena *arena, uint64_t limit,
                              int at_least) {
  /* A whole free chunk is a block of the last bin: with none there, no
   * chunk is looked at (a synchronisation with many chunks in use). */
  if (!arena->bins[CUEMU_POOL_BINS - 1])
    return;
  cuemu__pool_chunk **link = &arena->chunks;
  while (*link) {
    cuemu__pool_chunk *c = *link;
    int wanted = at_least ? arena->reserved - c->bytes >= limit
                          : arena->reserved > limit;
    if (wanted && c->blocks->free && !c->blocks->next)
      chunk_drop(arena, link);
    else
      link = &c->next;
  }
}

uint64_t cuemu__pool_block_file_offset(const cuemu__pool_block *block) {
  return block->chunk->file_offset +
         (uint64_t)(block->base - block->chunk->base);
}

void cuemu__pool_arena_drop(cuemu__pool_arena *arena) {
  while (arena->chunks)
    chunk_drop(arena, &arena->chunks);
}

void cuemu__pool_arena_set_access(cuemu__pool_arena *arena, int device,
                                  unsigned char flags) {
  if (device < 0 || device >= CUEMU_MEM_ACCESS_DEVICES)
    return;
  arena->access[device] = flags;
  for (cuemu__pool_chunk *c = arena->chunks; c; c = c->next)
    (void)cuemu__access_limits_set(c->base, c->bytes, c->bytes, arena->access);
}
