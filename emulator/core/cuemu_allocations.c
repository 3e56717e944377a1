/*
 * cuemu_allocations.c: the device's table of tracked allocations (see
 * cuemu_allocations.h), and the checkers' memory hooks.
 *
 * The table is a search tree by base address (cuemu_allocation_tree.h),
 * guarded by one mutex.
 * Freed allocations stay in it (state FREED) until an allocation reuses
 * their addresses, or until too many have piled up, so that a use after
 * free can be told apart from a stray pointer.
 */
#include "core/cuemu_allocations.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cuemu/cuemu_runtime.h>

#include "check/cuemu_check.h"
#include "core/cuemu_allocation_slabs.h"
#include "core/cuemu_allocation_tree.h"
#include "core/cuemu_ptr_map.h"
#include "core/cuemu_stack.h"

/* How many freed allocations are remembered at most. */
#define CUEMU_MAX_FREED 4096u
/* How much freed memory stays mapped without access, so that a kernel that
 * uses it faults and is told so, before its pages go back to the system. */
#define CUEMU_QUARANTINE_BYTES ((size_t)256 << 20)

/* The quarantine: freed mappings, oldest first. */
typedef struct quarantined {
  void *base;
  size_t bytes; /* the mapping's */
  size_t held;  /* its data's, which the quarantine's bytes count */
} quarantined;
static pthread_mutex_t quarantine_lock = PTHREAD_MUTEX_INITIALIZER;
static quarantined *quarantine;
static size_t quarantine_len, quarantine_cap, quarantine_bytes;

/* How many mappings of their own allocations may have at once: an eighth
 * of vm.max_map_count (each costs up to three mappings, its guard before,
 * its data and its guard after, and freed ones stay in the quarantine), so
 * that thread stacks (cuemu_stack.c), libraries and malloc keep the rest.
 * Past it, small allocations are pieces of shared slabs
 * (cuemu_allocation_slabs.h). */
static size_t own_budget(void) {
  long most = cuemu__max_map_count() / 8;
  return most > 16 ? (size_t)most : 16;
}

static size_t page_bytes(void) { return (size_t)sysconf(_SC_PAGESIZE); }

/* The whole pages that hold `size` bytes; 0 on overflow. */
static size_t data_bytes(size_t size) {
  size_t page = page_bytes();
  size_t data = (size ? size + page - 1 : page) / page * page;
  return data < size ? 0 : data;
}

/* The least guard after an allocation: a GPU's page of device memory. */
#define CUEMU_GUARD_MIN_BYTES ((size_t)2 << 20)
/* The guard before an allocation's data: a GPU's page of device memory
 * too, so that a read a little before the start (a stencil's neighbour
 * at offset - 1 or offset - width, read before the thread tests whether
 * it keeps the result) finds mapped memory, as on a GPU. */
#define CUEMU_GUARD_BEFORE_BYTES ((size_t)2 << 20)

/* The bytes of the mapping that cuemu__allocation_memory_new makes for
 * `size`: its pages, then the guard (or the room after an unguarded
 * allocation's offset data), as large as the data and at least
 * CUEMU_GUARD_MIN_BYTES. 0 on overflow. */
static size_t mapping_bytes(size_t size) {
  size_t data = data_bytes(size);
  size_t guard = data < CUEMU_GUARD_MIN_BYTES ? CUEMU_GUARD_MIN_BYTES : data;
  return data == 0 || data + guard < data ? 0 : data + guard;
}

/* The mappings cuemu__allocation_memory_new made, by their data's start: a set
 * (cuemu_ptr_map.h), so that cuemu__allocation_memory_free
 * knows whether memory it is given has the guards around its data (other
 * memory, such as an imported pool's mapping, is freed page for page as
 * given).
 * Guarded by quarantine_lock. */
static cuemu__ptr_map made;

/* The mappings around registered buffers that their owners made themselves
 * (cuemu_alloc_register_mapping: the fake CuPy's arrays, each a mapping
 * between guards), by the buffer's start; each value a malloc'd [lo, hi).
 * Guarded by quarantine_lock. */
static cuemu__ptr_map registered_maps;

/* The guard pages of memory pools' blocks (cuemu_rt_pool_arena.c), which
 * share own_budget() with the mappings below. Guarded by quarantine_lock. */
static size_t pool_guards;

/* Each allocation is a mapping of its own whose data starts at its first
 * page and is followed by a read-only guard, as large as the data and at
 * least 2 MiB (it costs address space only): a kernel writing past the end
 * faults (an illegal address) instead of changing the allocation mapped
 * after it, or the host's own data (with a guard of one page, a gate on a
 * qubit one past a 10-qubit register wrote 256 amplitudes of the register
 * allocated before it, and, beside the loader's data, crashed the process
 * in the fault handler without a message:
 * tests/programs/trialquant/gate_overrun.cu), and memcheck, which looks at
 * an access before it is made, reports it as out of bounds rather than as
 * an access to that neighbour (an allocation filling its pages exactly
 * would otherwise end where the next one starts). A read-only guard of
 * CUEMU_GUARD_BEFORE_BYTES precedes the data too: reading past the end or
 * a little before the start gives zeros, as a GPU reads the mapped memory
 * around an allocation (without it, a read of the byte before an
 * allocation mapped after a freed one, or last, faulted:
 * tests/programs/trialuda/stencil_reads_before_start.cu), and writing
 * there faults. A guard keeps the kernel from merging neighbouring
 * mappings, so each allocation costs two or three of the process's
 * vm.max_map_count mappings (a guard before meets the guard after the
 * allocation mapped just below it, and the two may merge): past
 * own_budget() of them, or when the system refuses the mapping or its
 * guard, an allocation
 * of at most CUEMU_SLAB_PIECE_MAX bytes is a piece of a shared slab
 * (512-byte aligned, at least 256 bytes before the next piece, a guard
 * page at the slab's end), and a larger one a mapping of its own without
 * the guard. (Without the slabs, 100,000 cudaMalloc(16) failed at the
 * 32,962nd, and thread creation with them.) */
void *cuemu__allocation_memory_new(size_t size) {
  size_t bytes = mapping_bytes(size);
  if (bytes == 0)
    return NULL;
  pthread_mutex_lock(&quarantine_lock);
  int own = made.len + pool_guards < own_budget();
  pthread_mutex_unlock(&quarantine_lock);
  if (!own && size <= CUEMU_SLAB_PIECE_MAX)
    return cuemu__allocation_slab_take(size);
  size_t before = CUEMU_GUARD_BEFORE_BYTES;
  char *m = before + bytes < bytes
                ? MAP_FAILED
                : mmap(NULL, before + bytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED)
    return size <= CUEMU_SLAB_PIECE_MAX ? cuemu__allocation_slab_take(size)
                                        : NULL;
  char *p = m + before;
  size_t data = data_bytes(size);
  if (own &&
      (mprotect(m, before, PROT_READ) != 0 ||
       mprotect(p + data, bytes - data, PROT_READ) != 0) &&
      size <= CUEMU_SLAB_PIECE_MAX) {
    munmap(m, before + bytes);
    return cuemu__allocation_slab_take(size);
  }
  pthread_mutex_lock(&quarantine_lock);
  /* Without memory for the record it is freed as other memory is: one
   * page stays mapped. */
  (void)cuemu__ptr_map_put(&made, (uintptr_t)p, p);
  pthread_mutex_unlock(&quarantine_lock);
  return p;
}

int cuemu__allocation_mapping_range(const void *base, size_t size,
                                    uintptr_t *lo, uintptr_t *hi) {
  pthread_mutex_lock(&quarantine_lock);
  int ours = cuemu__ptr_map_get(&made, (uintptr_t)base) != NULL;
  const uintptr_t *given =
      ours ? NULL : cuemu__ptr_map_get(&registered_maps, (uintptr_t)base);
  if (given) {
    *lo = given[0];
    *hi = given[1];
  }
  pthread_mutex_unlock(&quarantine_lock);
  if (given)
    return 1;
  size_t bytes = ours ? mapping_bytes(size) : 0;
  uintptr_t start = (uintptr_t)base - CUEMU_GUARD_BEFORE_BYTES;
  uintptr_t end = (uintptr_t)base + bytes;
  if (bytes == 0 || start > (uintptr_t)base || end < (uintptr_t)base)
    return 0;
  *lo = start;
  *hi = end;
  return 1;
}

int cuemu__allocation_mapping_note(const void *base, uintptr_t lo,
                                   uintptr_t hi) {
  uintptr_t *range = malloc(2 * sizeof *range);
  if (!range)
    return -1;
  range[0] = lo;
  range[1] = hi;
  pthread_mutex_lock(&quarantine_lock);
  void *old = cuemu__ptr_map_remove(&registered_maps, (uintptr_t)base);
  int put = cuemu__ptr_map_put(&registered_maps, (uintptr_t)base, range);
  pthread_mutex_unlock(&quarantine_lock);
  free(old);
  if (put != 0)
    free(range);
  return put;
}

void cuemu__allocation_mapping_forget(const void *base) {
  pthread_mutex_lock(&quarantine_lock);
  void *old = cuemu__ptr_map_remove(&registered_maps, (uintptr_t)base);
  pthread_mutex_unlock(&quarantine_lock);
  free(old);
}

int cuemu__allocation_guard_take(void) {
  pthread_mutex_lock(&quarantine_lock);
  int granted = made.len + pool_guards < own_budget();
  pool_guards += (size_t)granted;
  pthread_mutex_unlock(&quarantine_lock);
  return granted;
}

void cuemu__allocation_guard_give(void) {
  pthread_mutex_lock(&quarantine_lock);
  if (pool_guards)
    pool_guards--;
  pthread_mutex_unlock(&quarantine_lock);
}

void cuemu__allocation_memory_free(void *base, size_t size) {
  pthread_mutex_lock(&quarantine_lock);
  int ours = cuemu__ptr_map_remove(&made, (uintptr_t)base) != NULL;
  pthread_mutex_unlock(&quarantine_lock);
  if (!ours && cuemu__allocation_slab_release(base))
    return;
  size_t bytes = ours ? mapping_bytes(size) : data_bytes(size);
  size_t held = data_bytes(size);
  if (ours) {
    /* The whole mapping, from its guard before the data. */
    base = (char *)base - CUEMU_GUARD_BEFORE_BYTES;
    bytes += CUEMU_GUARD_BEFORE_BYTES;
  }
  /* No access from now on: a kernel that still uses it faults. */
  if (mprotect(base, bytes, PROT_NONE) != 0) {
    munmap(base, bytes);
    return;
  }
  pthread_mutex_lock(&quarantine_lock);
  if (quarantine_len == quarantine_cap) {
    size_t cap = quarantine_cap ? 2 * quarantine_cap : 64;
    quarantined *q = realloc(quarantine, cap * sizeof *q);
    if (q) {
      quarantine = q;
      quarantine_cap = cap;
    }
  }
  if (quarantine_len < quarantine_cap) {
    quarantine[quarantine_len++] = (quarantined){base, bytes, held};
    quarantine_bytes += held;
    base = NULL;
  }
  /* The oldest go back to the system once the quarantine is full: by its
   * bytes, or by its mappings (each may be one of the process's
   * vm.max_map_count; half the budget of live ones). */
  size_t drop = 0;
  while (drop < quarantine_len &&
         (quarantine_bytes > CUEMU_QUARANTINE_BYTES ||
          quarantine_len - drop > own_budget() / 2)) {
    munmap(quarantine[drop].base, quarantine[drop].bytes);
    quarantine_bytes -= quarantine[drop].held;
    drop++;
  }
  memmove(quarantine, quarantine + drop,
          (quarantine_len - drop) * sizeof *quarantine);
  quarantine_len -= drop;
  pthread_mutex_unlock(&quarantine_lock);
  if (base)
    munmap(base, bytes);
}

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static cuemu__allocation_tree table;
static size_t table_freed;

/* The bytes of the live device allocations of each device (by the device
 * in their flags; those of devices past the array are not counted), for
 * cudaMemGetInfo. Guarded by table_lock. */
#define COUNTED_DEVICES 64
static size_t device_bytes[COUNTED_DEVICES];

/* Counts live entry `a` in (sign 1) or out (-1) of device_bytes. Locked. */
static void count_device_bytes(const cuemu_rt_allocation *a, int sign) {
  if (a->kind != CUEMU_RT_MEMORY_DEVICE || a->state != CUEMU_RT_MEMORY_LIVE)
    return;
  unsigned device = a->flags >> CUEMU_RT_MEMORY_DEVICE_SHIFT;
  if (device >= COUNTED_DEVICES)
    return;
  if (sign > 0)
    device_bytes[device] += a->size;
  else
    device_bytes[device] -= a->size < device_bytes[device]
                                ? a->size
                                : device_bytes[device];
}

size_t cuemu__allocation_device_bytes(int device) {
  if (device < 0 || device >= COUNTED_DEVICES)
    return 0;
  pthread_mutex_lock(&table_lock);
  size_t bytes = device_bytes[device];
  pthread_mutex_unlock(&table_lock);
  return bytes;
}

/* The end of entry `a` (one byte for an empty one). */
static uintptr_t end_of(const cuemu_rt_allocation *a) {
  return (uintptr_t)a->base + (a->size ? a->size : 1);
}

/* The entry holding `p`, or NULL. Locked. */
static cuemu_rt_allocation *find_locked(const void *p) {
  cuemu__allocation_node *n =
      cuemu__allocation_tree_floor(&table, (uintptr_t)p);
  return n && (uintptr_t)p < end_of(&n->entry) ? &n->entry : NULL;
}

/* Removes the entry `a`. Locked. */
static void remove_entry(cuemu_rt_allocation *a) {
  if (a->state == CUEMU_RT_MEMORY_FREED)
    --table_freed;
  cuemu__allocation_tree_remove(&table, (uintptr_t)a->base);
}

static int is_freed(cuemu_rt_allocation *a, void *ctx) {
  (void)ctx;
  return a->state == CUEMU_RT_MEMORY_FREED;
}

/* Forgets every freed entry (O(n), once per CUEMU_MAX_FREED frees).
 * Locked. */
static void drop_freed(void) {
  cuemu__allocation_tree_sweep(&table, is_freed, NULL);
  table_freed = 0;
}

/* Adds a live entry, replacing the freed entries it overlaps. Returns 0, or
 * a CUDA code: cudaErrorHostMemoryAlreadyRegistered when it overlaps a live
 * one, cudaErrorMemoryAllocation when the table cannot grow. Locked. */
static int insert_locked(void *base, size_t size, int kind, unsigned flags) {
  uintptr_t b = (uintptr_t)base, e = b + (size ? size : 1);
  /* The entries it overlaps: the one before it, then those from it on. */
  cuemu__allocation_node *n = cuemu__allocation_tree_floor(&table, b);
  if (n && end_of(&n->entry) > b) {
    if (n->entry.state == CUEMU_RT_MEMORY_LIVE)
      return cudaErrorHostMemoryAlreadyRegistered;
  } else {
    n = NULL;
  }
  for (cuemu__allocation_node *m = cuemu__allocation_tree_ceil(&table, b);
       m && (uintptr_t)m->entry.base < e;
       m = cuemu__allocation_tree_ceil(&table, end_of(&m->entry)))
    if (m->entry.state == CUEMU_RT_MEMORY_LIVE)
      return cudaErrorHostMemoryAlreadyRegistered;
  /* None is live: the freed ones go. */
  if (n)
    remove_entry(&n->entry);
  while ((n = cuemu__allocation_tree_ceil(&table, b)) != NULL &&
         (uintptr_t)n->entry.base < e)
    remove_entry(&n->entry);
  cuemu_rt_allocation entry = {base, size, kind, CUEMU_RT_MEMORY_LIVE, flags};
  if (!cuemu__allocation_tree_insert(&table, &entry))
    return cudaErrorMemoryAllocation;
  count_device_bytes(&entry, 1);
  return 0;
}

int cuemu__allocation_insert(void *base, size_t size, int kind,
                             unsigned flags) {
  pthread_mutex_lock(&table_lock);
  int code = insert_locked(base, size, kind, flags);
  pthread_mutex_unlock(&table_lock);
  return code;
}

int cuemu__allocation_set_flags(void *base, unsigned clear, unsigned set) {
  pthread_mutex_lock(&table_lock);
  cuemu_rt_allocation *a = find_locked(base);
  int found = a && a->base == base && a->state == CUEMU_RT_MEMORY_LIVE;
  if (found)
    a->flags = (a->flags & ~clear) | set;
  pthread_mutex_unlock(&table_lock);
  return found;
}

int cuemu__allocation_find(const void *p, cuemu_rt_allocation *out) {
  pthread_mutex_lock(&table_lock);
  cuemu_rt_allocation *a = find_locked(p);
  if (a && out)
    *out = *a;
  pthread_mutex_unlock(&table_lock);
  return a != NULL;
}

size_t cuemu__allocation_snapshot(cuemu_rt_allocation **out) {
  pthread_mutex_lock(&table_lock);
  size_t n = table.len;
  *out = malloc((n ? n : 1) * sizeof **out);
  if (*out)
    cuemu__allocation_tree_copy(&table, *out);
  else
    n = 0;
  pthread_mutex_unlock(&table_lock);
  return n;
}

int cuemu__allocation_release(void *p, unsigned kinds, int keep) {
  int found = 0;
  pthread_mutex_lock(&table_lock);
  cuemu_rt_allocation *a = find_locked(p);
  if (a && a->base == p && a->state == CUEMU_RT_MEMORY_LIVE &&
      (kinds & (1u << a->kind))) {
    found = 1;
    count_device_bytes(a, -1);
    if (keep) {
      a->state = CUEMU_RT_MEMORY_FREED;
      if (++table_freed > CUEMU_MAX_FREED)
        drop_freed();
    } else {
      remove_entry(a);
    }
  }
  pthread_mutex_unlock(&table_lock);
  return found;
}

/* cudaDeviceReset's visit of each entry: device, managed and pinned
 * memory is freed and remembered as freed (up to CUEMU_MAX_FREED, so that
 * a kernel that uses a pointer from before the reset is told so),
 * registered host memory is unregistered, tracked symbols stay. */
static int reset_entry(cuemu_rt_allocation *a, void *ctx) {
  (void)ctx;
  if (a->state == CUEMU_RT_MEMORY_LIVE &&
      (a->kind == CUEMU_RT_MEMORY_DEVICE ||
       a->kind == CUEMU_RT_MEMORY_MANAGED || a->kind == CUEMU_RT_MEMORY_HOST))
    cuemu__allocation_memory_free(a->base, a->size);
  if (a->kind == CUEMU_RT_MEMORY_SYMBOL && a->state == CUEMU_RT_MEMORY_LIVE)
    return 0;
  if (a->kind != CUEMU_RT_MEMORY_REGISTERED &&
      a->kind != CUEMU_RT_MEMORY_SYMBOL && table_freed < CUEMU_MAX_FREED) {
    a->state = CUEMU_RT_MEMORY_FREED;
    table_freed++;
    return 0;
  }
  return 1;
}

void cuemu__allocation_reset(void) {
  pthread_mutex_lock(&table_lock);
  table_freed = 0;
  memset(device_bytes, 0, sizeof device_bytes);
  cuemu__allocation_tree_sweep(&table, reset_entry, NULL);
  pthread_mutex_unlock(&table_lock);
  cuemu__check_alloc_reset();
}

void cuemu__allocation_note(void *base, size_t size, int kind,
                            const void *site) {
  cuemu__check_alloc_note(base, size, kind, site);
}

void cuemu__allocation_note_array(void *base, size_t size, const void *site,
                                  const cuemu__array_shape *shape) {
  cuemu__check_alloc_note_array(base, size, site, shape);
}

void cuemu__allocation_freed(void *base) { cuemu__check_alloc_free(base); }

void cuemu__allocation_bad_free(void *p, const void *site) {
  cuemu__check_bad_free(p, site);
}

void cuemu__allocation_written(void *p, size_t n) {
  cuemu__check_mark_init(p, n);
}

void cuemu__allocation_copied_from(const void *p, size_t n) {
  cuemu__check_copy_source(p, n, 1, n, 1, n);
}

void cuemu__allocation_copied_from_rows(const void *p, size_t width,
                                        size_t height, size_t pitch,
                                        size_t depth, size_t slice) {
  cuemu__check_copy_source(p, width, height, pitch, depth, slice);
}
