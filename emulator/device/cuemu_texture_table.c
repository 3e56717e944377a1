/*
 * cuemu_texture_table.c: the one table of texture and surface objects, and
 * the fault a kernel's misuse of one raises.
 *
 * A handle is (generation << 32) | (slot + 1): 0 is never a handle, and a
 * destroyed object's handle stops matching once its slot is reused.
 * Objects are created and destroyed by host code between launches and
 * looked up by kernel threads, so the slots are read atomically.
 */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/cuemu_worker.h"
#include "device/cuemu_texture.h"

/* CUDA's own limit is far larger; a program with more live objects than
 * this gets cudaErrorMemoryAllocation from the create call. */
#define TABLE_SLOTS 65536u

_Static_assert(TABLE_SLOTS == CUEMU_TEXTURE_SLOTS,
               "the direct records have a slot for each of the table's");

static _Atomic(cuemu__texture *) slots[TABLE_SLOTS];
/* The direct records of the live objects, by slot: what the shims read. */
static cuemu_texture_directory directory;
cuemu_texture_directory *const cuemu_texture_dir = &directory;
static uint32_t generations[TABLE_SLOTS];
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

unsigned long long cuemu__texture_register(cuemu__texture *t) {
  pthread_mutex_lock(&table_lock);
  for (unsigned s = 0; s < TABLE_SLOTS; ++s) {
    if (atomic_load_explicit(&slots[s], memory_order_relaxed))
      continue;
    t->generation = ++generations[s];
    unsigned long long handle = (unsigned long long)t->generation << 32 | (s + 1u);
    t->direct.cuemu_handle = handle;
    atomic_store_explicit(&slots[s], t, memory_order_release);
    __atomic_store_n(&directory.cuemu_slot[s], &t->direct, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&table_lock);
    return handle;
  }
  pthread_mutex_unlock(&table_lock);
  return 0;
}

const cuemu__texture *cuemu__texture_lookup(unsigned long long handle,
                                            int is_surface) {
  unsigned long long slot = (handle & 0xffffffffu) - 1;
  if (slot >= TABLE_SLOTS)
    return NULL;
  cuemu__texture *t = atomic_load_explicit(&slots[slot], memory_order_acquire);
  if (!t || t->generation != (uint32_t)(handle >> 32) ||
      t->is_surface != is_surface)
    return NULL;
  return t;
}

int cuemu__texture_unregister(unsigned long long handle, int is_surface) {
  pthread_mutex_lock(&table_lock);
  const cuemu__texture *t = cuemu__texture_lookup(handle, is_surface);
  if (!t) {
    pthread_mutex_unlock(&table_lock);
    return -1;
  }
  atomic_store_explicit(&slots[(handle & 0xffffffffu) - 1], NULL,
                        memory_order_release);
  __atomic_store_n(&directory.cuemu_slot[(handle & 0xffffffffu) - 1], NULL,
                   __ATOMIC_RELEASE);
  pthread_mutex_unlock(&table_lock);
  free((void *)t);
  return 0;
}

void cuemu__texture_reset(void) {
  pthread_mutex_lock(&table_lock);
  for (unsigned s = 0; s < TABLE_SLOTS; ++s) {
    __atomic_store_n(&directory.cuemu_slot[s], NULL, __ATOMIC_RELEASE);
    cuemu__texture *t = atomic_exchange(&slots[s], NULL);
    free(t);
  }
  pthread_mutex_unlock(&table_lock);
}

void cuemu__texture_racecheck(int delta) {
  __atomic_add_fetch(&directory.cuemu_racechecks, delta, __ATOMIC_SEQ_CST);
}

int cuemu__texture_shape_of_op(int op, int surface) {
  /* The texture ops in order; the surface ops are the texture ops from
   * CUEMU_TEX_1D to CUEMU_TEX_CUBEMAP_LAYERED. */
  static const int shapes[] = {0,
                               CUEMU_SHAPE_LINEAR,
                               CUEMU_SHAPE_1D,
                               CUEMU_SHAPE_2D,
                               CUEMU_SHAPE_3D,
                               CUEMU_SHAPE_1D_LAYERED,
                               CUEMU_SHAPE_2D_LAYERED,
                               CUEMU_SHAPE_CUBEMAP,
                               CUEMU_SHAPE_CUBEMAP_LAYERED,
                               CUEMU_SHAPE_2D};
  if (surface)
    return op >= CUEMU_SURF_1D && op <= CUEMU_SURF_CUBEMAP_LAYERED
               ? shapes[op + 1]
               : 0;
  return op >= CUEMU_TEX_FETCH_1D && op <= CUEMU_TEX_2D_GATHER ? shapes[op]
                                                               : 0;
}

void cuemu__texture_fault(const char *file, int line, const char *fmt, ...) {
  cuemu_worker *w = cuemu__worker_self;
  char what[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  if (!w || !w->in_kernel) {
    fprintf(stderr, "cuemu: %s at %s:%d outside a kernel\n", what,
            file ? file : "?", line);
    abort();
  }
  cuemu_uint3 t = cuemu__worker_thread_idx(w);
  cuemu_uint3 b = w->block_idx;
  cuemu__block_fail(w, CUEMU_KERNEL_FAULT,
                    "kernel %s: %s at %s:%d in thread (%u,%u,%u) of block "
                    "(%u,%u,%u)",
                    w->launch->kernel->name, what, file ? file : "?", line,
                    t.x, t.y, t.z, b.x, b.y, b.z);
}
