/*
 * cuemu_rt_pool_arena.h: the memory a pool of stream-ordered allocation
 * really holds: chunks reserved from the system (2 MiB or a multiple),
 * carved into blocks of whole pages. A freed block stays in its chunk,
 * mapped without access (a kernel that touches it faults, and the fault
 * report names the freed allocation), remembers the stream and the moment
 * of its free, and is handed out again to a later allocation that the
 * pool's reuse policy allows. Whole free chunks go back to the system
 * (through the quarantine of freed memory) when the pool shrinks.
 * Internal to libcuemu; the caller holds the pools' lock.
 */
#ifndef CUEMU_RT_POOL_ARENA_H
#define CUEMU_RT_POOL_ARENA_H

#include <stddef.h>
#include <stdint.h>

#include "core/cuemu_access_limits.h"

/* Chunks are reserved in multiples of this many bytes, as CUDA's pools
 * reserve device memory. */
#define CUEMU_POOL_GRANULE ((size_t)2 << 20)

/* The bins of free blocks by their pages (see cuemu__pool_arena): one per
 * size below a granule of 4 KiB pages, then one for all larger ones. */
#define CUEMU_POOL_BINS 513

typedef struct cuemu__pool_block cuemu__pool_block;
typedef struct cuemu__pool_chunk cuemu__pool_chunk;

/* The chunks of one pool and the bytes they hold. A shareable pool's
 * chunks are parts of one file, `fd` (a memfd, shared = 1), one after the
 * other, so that another process that has the file maps the same memory
 * (cudaMemPoolExportToShareableHandle); `file_bytes` is its size. */
typedef struct cuemu__pool_arena {
  cuemu__pool_chunk *chunks;
  /* Its free blocks by size (cuemu_rt_pool_arena.c): bin i < last holds
   * those of i pages, the last bin those of at least as many pages as a
   * chunk's granule; `bin_used` marks the bins that hold any, so that an
   * allocation finds the smallest fitting block without looking at the
   * others. */
  cuemu__pool_block *bins[CUEMU_POOL_BINS];
  uint64_t bin_used[(CUEMU_POOL_BINS + 63) / 64];
  uint64_t reserved;
  int shared;
  int fd;
  uint64_t file_bytes;
  /* Each device's access to the arena's memory (CUmemAccess_flags, as
   * cudaMemPoolSetAccess sets them; the pool's device reads and writes),
   * recorded for every chunk in the table of access limits
   * (core/cuemu_access_limits.h), so that memcheck reports a kernel of a
   * device without access: a pool's memory follows its own access, not
   * peer access, as with CUDA. */
  unsigned char access[CUEMU_MEM_ACCESS_DEVICES];
} cuemu__pool_arena;

/* The stream of a free block made of frees on several streams. */
#define CUEMU_POOL_SEVERAL_STREAMS ((void *)~(uintptr_t)0)

/* Decides whether a free block, freed on `freed_stream`
 * (CUEMU_POOL_SEVERAL_STREAMS after frees on several streams were joined)
 * at moment `seq`, may serve an allocation now; `ctx` is the caller's. */
typedef int (*cuemu__pool_reusable)(const void *ctx, void *freed_stream,
                                    unsigned long long seq);

/* The bytes a block of an allocation of `size` takes (whole pages), or 0
 * when that overflows. */
size_t cuemu__pool_block_bytes(size_t size);

/* Hands out `bytes` (from cuemu__pool_block_bytes) from a free block that
 * `reusable` allows, else from a new chunk unless the arena would then
 * hold more than `max_reserved` (0: no limit). The block is `bytes` plus
 * one read-only guard page, so that two blocks never touch; its `bytes`
 * become readable and writable. Returns its address and sets *block, or
 * NULL. */
void *cuemu__pool_arena_take(cuemu__pool_arena *arena, size_t bytes,
                             uint64_t max_reserved,
                             cuemu__pool_reusable reusable, const void *ctx,
                             cuemu__pool_block **block);

/* Takes back a block freed on `stream` at moment `seq`: its pages lose
 * all access and it joins free neighbours. */
void cuemu__pool_arena_give(cuemu__pool_arena *arena, cuemu__pool_block *block,
                            void *stream, unsigned long long seq);

/* Gives whole free chunks back to the system: while the arena holds more
 * than `limit` bytes (a release threshold), or, with `at_least` set, each
 * that leaves at least `limit` bytes (cudaMemPoolTrimTo). */
void cuemu__pool_arena_shrink(cuemu__pool_arena *arena, uint64_t limit,
                              int at_least);

/* Where a block's memory lies in its shareable arena's file. */
uint64_t cuemu__pool_block_file_offset(const cuemu__pool_block *block);

/* Sets the access of `device` to the arena's memory (every chunk, and the
 * chunks to come). */
void cuemu__pool_arena_set_access(cuemu__pool_arena *arena, int device,
                                  unsigned char flags);

/* Gives every chunk back, whatever its blocks (a reset or a pool's end;
 * the caller has forgotten the allocations in them). */
void cuemu__pool_arena_drop(cuemu__pool_arena *arena);

#endif /* CUEMU_RT_POOL_ARENA_H */
