/*
 * cuemu_allocations.h: the table of tracked allocations (device,
 * managed and pinned memory, registered host memory, symbols; see
 * cuemu_runtime.h for the kinds and states), and the hooks that tell the
 * checkers about memory. The runtime API allocates and copies; the table
 * and the hooks are here so that the checkers (emulator/check/) and the
 * runtime never call each other. Internal to libcuemu; host code, any
 * thread.
 */
#ifndef CUEMU_ALLOCATIONS_H
#define CUEMU_ALLOCATIONS_H

#include <stddef.h>
#include <stdint.h>

#include <cuemu/cuemu_runtime.h>

#include "core/cuemu_array_shape.h"

/* Adds a live entry, replacing the freed entries it overlaps. Returns 0, or
 * a CUDA code: cudaErrorHostMemoryAlreadyRegistered when it overlaps a live
 * one, cudaErrorMemoryAllocation when the table cannot grow. */
int cuemu__allocation_insert(void *base, size_t size, int kind,
                             unsigned flags);

/* A flag of a live entry: a stream-ordered allocation (cudaMallocAsync)
 * whose stream has not reached the allocation yet; memcheck reports a
 * kernel's access to it as a use before the allocation. */
#define CUEMU__ALLOCATION_UNREACHED (1u << 21)

/* A flag of an entry that memcheck's launches add to their view of the
 * table (cuemu__variable_shadows_append()): the host object (shadow) of a
 * __device__ or __constant__ variable, host memory, which a kernel reaches
 * only through an address that host code took (`&d_var`). */
#define CUEMU__ALLOCATION_SHADOW (1u << 22)

/* Clears the flags `clear`, then sets `set`, of the live entry based at
 * `base`; returns 1, or 0 when there is none. */
int cuemu__allocation_set_flags(void *base, unsigned clear, unsigned set);

/* Finds the entry holding `p` (live, or freed and not reused) and copies it
 * into *out when not NULL; 0 when there is none. */
int cuemu__allocation_find(const void *p, cuemu_rt_allocation *out);

/* The bytes of the live device allocations (CUEMU_RT_MEMORY_DEVICE:
 * cudaMalloc and its kin, stream-ordered and graph allocations, imported
 * memory) of `device`, as allocated (not rounded): what cudaMemGetInfo
 * takes from the device's memory. Thread-safe. */
size_t cuemu__allocation_device_bytes(int device);

/* A copy of the table, sorted by base, in *out (to free); returns its
 * length (0 when out of memory). */
size_t cuemu__allocation_snapshot(cuemu_rt_allocation **out);

/* Removes the live entry based at `p` whose kind is one of `kinds` (a bit
 * mask of 1 << kind) and returns 1, or returns 0. When `keep` is set the
 * entry stays, as FREED. */
int cuemu__allocation_release(void *p, unsigned kinds, int keep);

/* Memory for a device, managed or pinned allocation of `size` bytes: a
 * mapping of its own (page-aligned) between read-only guards, so that a
 * write past its end or before its start never reaches another
 * allocation, and a read there gives zeros, as on a GPU; or NULL.
 * Past a budget of such mappings (an eighth of vm.max_map_count), or where
 * the system refuses one, an allocation of at most CUEMU_SLAB_PIECE_MAX
 * bytes is a piece of a shared slab (512-byte aligned, 256 bytes apart
 * from the next piece: cuemu_allocation_slabs.h), a larger one a mapping of
 * its own without the guard. */
void *cuemu__allocation_memory_new(size_t size);

/* A memory pool's block may end in a guard page of its own (returns 1,
 * counted against the budget of cuemu__allocation_memory_new's mappings)
 * or, past that budget, not (returns 0); cuemu__allocation_guard_give
 * gives one back when such a block is freed. Thread-safe. */
int cuemu__allocation_guard_take(void);
void cuemu__allocation_guard_give(void);

/* Frees such memory: its pages stay mapped without access for a while
 * (a quarantine of 256 MiB), so that a kernel that uses it after the free
 * faults, and the fault report names the freed allocation. */
void cuemu__allocation_memory_free(void *base, size_t size);

/* The addresses [*lo, *hi) of the mapping cuemu__allocation_memory_new
 * made for the live memory of `size` bytes at `base`: the guard before it,
 * its pages and what follows them (a guard, or room of an unguarded
 * mapping). Nothing but that memory lies there, so memcheck takes any
 * access there outside the `size` bytes for an access out of its bounds,
 * however far from them. Returns 0, leaving *lo and *hi, for other memory
 * (a slab's piece, memory the system refused a mapping of its own), but
 * for a registered buffer whose mapping its owner gave
 * (cuemu__allocation_mapping_note). Thread-safe. */
int cuemu__allocation_mapping_range(const void *base, size_t size,
                                    uintptr_t *lo, uintptr_t *hi);

/* Remembers [lo, hi) as the mapping around the registered buffer at `base`
 * that its owner made (cuemu_alloc_register_mapping), for
 * cuemu__allocation_mapping_range; returns 0, or -1 without memory.
 * cuemu__allocation_mapping_forget forgets it (nothing when there is none).
 * Thread-safe. */
int cuemu__allocation_mapping_note(const void *base, uintptr_t lo,
                                   uintptr_t hi);
void cuemu__allocation_mapping_forget(const void *base);

/* Frees every device, managed and pinned allocation (remembered as freed),
 * unregisters host memory; tracked symbols stay (cudaDeviceReset). */
void cuemu__allocation_reset(void);

/* The checkers' hooks: an allocation was made at `site` (the caller's
 * return address), freed, freed wrongly, or written by a copy or set, or
 * by a runtime call that returns a value through a pointer (kernel code's
 * `cudaMalloc(&obj->list, ...)` writes device memory where the checked
 * code does not see the store). */
void cuemu__allocation_note(void *base, size_t size, int kind,
                            const void *site);
/* A CUDA array's elements (cuemu_rt_array.c), laid out as `shape` says:
 * device memory that initcheck checks as cudaMalloc's, named "cudaArray"
 * in reports (with the coordinates of an element), and no leak. */
void cuemu__allocation_note_array(void *base, size_t size, const void *site,
                                  const cuemu__array_shape *shape);
void cuemu__allocation_freed(void *base);
void cuemu__allocation_bad_free(void *p, const void *site);
void cuemu__allocation_written(void *p, size_t n);
/* The runtime API is about to copy the `n` bytes at `p` (initcheck of the
 * copy's source in checked processes, check/cuemu_check_copy_source.c). */
void cuemu__allocation_copied_from(const void *p, size_t n);
/* The same for a copy of `depth` slices, `slice` bytes apart, of `height`
 * rows, `pitch` bytes apart, of `width` bytes from `p`. */
void cuemu__allocation_copied_from_rows(const void *p, size_t width,
                                        size_t height, size_t pitch,
                                        size_t depth, size_t slice);

#endif /* CUEMU_ALLOCATIONS_H */
