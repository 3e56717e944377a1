/*
 * cuemu_allocation_slabs.h: the shared mappings that device memory comes
 * from once a process has as many mappings of its own for allocations as
 * it may have (see cuemu__allocation_memory_new). Internal to libcuemu.
 */
#ifndef CUEMU_ALLOCATION_SLABS_H
#define CUEMU_ALLOCATION_SLABS_H

#include <stddef.h>

/* The largest allocation a slab holds; larger ones always get a mapping
 * of their own. */
#define CUEMU_SLAB_PIECE_MAX ((size_t)1 << 20)

/* A piece of `size` bytes (at most CUEMU_SLAB_PIECE_MAX) of a slab:
 * aligned to 512 bytes (cudaMalloc promises 256; a GPU gives at least its
 * textureAlignment, 512, which texture objects ask for), followed by at
 * least 256
 * bytes that no other piece has, so that a write just past it is reported
 * by memcheck as out of bounds (not as an access to the next piece) and,
 * unchecked, changes no neighbour; a slab ends in a read-only guard page.
 * NULL when the system has no memory. Thread-safe. */
void *cuemu__allocation_slab_take(size_t size);

/* Gives back a piece that cuemu__allocation_slab_take returned and returns
 * 1; a slab whose pieces are all given back goes back to the system (or,
 * the one pieces are taken from, is used again from its start). Returns 0,
 * doing nothing, for memory no slab holds. Thread-safe. */
int cuemu__allocation_slab_release(void *piece);

/* How many slabs are mapped (for tests). */
size_t cuemu__allocation_slab_count(void);

#endif /* CUEMU_ALLOCATION_SLABS_H */
