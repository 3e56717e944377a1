/*
 * cuemu_rt_ids.c: stream identifiers and the driver's entry points by name
 * (see cuemu_host_ids.h). A created stream's identifier is its handle,
 * whose generation makes it unique for the life of the process
 * (device/cuemu_handles.h); the default streams have small numbers of
 * their own, which no handle has. The entry points are tables that each
 * object including cuda.h registers on its first call of one of the
 * entry-point functions, and that cuemu's libcuda.so.1 registers when it
 * is loaded (emulator/export/cuemu_libcuda.cc); a name no table has loads
 * that library once, so that a program none of whose objects includes
 * cuda.h finds every driver function too.
 */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_driver_api.h>
#include <cuemu/cuemu_driver_errors.h>
#include <cuemu/cuemu_host_ids.h>
#include <cuemu/cuemu_runtime.h>

#include "base/cuemu_locations.h"
#include "device/cuemu_handles.h"
#include "runtime/cuemu_rt_default_stream.h"
#include "runtime/cuemu_rt_internal.h"

/* Driver codes by name (cuemu_driver_errors.h defines no enumerators). */
enum {
#define CUEMU_DRV_ENUM_(name, value, text) DRV_##name = value,
  CUEMU_DRIVER_ERROR_MAP(CUEMU_DRV_ENUM_)
#undef CUEMU_DRV_ENUM_
};

/* The legacy default stream's identifier; a per-thread default stream's
 * is (n << 4) | 2 for the n-th host thread that asks (a created stream's
 * handle ends in 3, its kind). */
#define LEGACY_STREAM_ID 1ull
#define PER_THREAD_STREAM 2u

static unsigned long long per_thread_serial;
static __thread unsigned long long per_thread_id;

int cuemu_rt_stream_get_id(void *stream, unsigned long long *id) {
  if (!id)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int e = cuemu__rt_check_sticky_stream(stream);
  if (e)
    return e;
  stream = cuemu__stream_resolve(stream);
  if ((uintptr_t)stream == PER_THREAD_STREAM) {
    if (!per_thread_id)
      per_thread_id =
          (__atomic_add_fetch(&per_thread_serial, 1, __ATOMIC_RELAXED) << 4) |
          PER_THREAD_STREAM;
    *id = per_thread_id;
  } else if (cuemu__handle_is_default_stream(stream)) {
    *id = LEGACY_STREAM_ID;
  } else {
    *id = (unsigned long long)(uintptr_t)stream;
  }
  return cudaSuccess;
}

/* ---- Driver entry points ------------------------------------------------- */

/* The CUDA version of the driver (cuDriverGetVersion). */
#define DRIVER_VERSION CUEMU_DRV_VERSION
/* CU_GET_PROC_ADDRESS_LEGACY_STREAM | ..._PER_THREAD_DEFAULT_STREAM. */
#define PROC_ADDRESS_FLAGS 0x3ull
#define PROC_ADDRESS_PER_THREAD 0x2ull

typedef struct table {
  const cuemu_drv_entry_point *entries;
  size_t count;
} table;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static table *tables;
static size_t ntables, cap_tables;

int cuemu_drv_entry_points_register(const cuemu_drv_entry_point *entries,
                                    size_t count) {
  pthread_mutex_lock(&lock);
  if (ntables == cap_tables) {
    size_t cap = cap_tables ? cap_tables * 2 : 4;
    table *grown = realloc(tables, cap * sizeof *grown);
    if (grown) {
      tables = grown;
      cap_tables = cap;
    }
  }
  if (ntables < cap_tables)
    tables[ntables++] = (table){entries, count};
  pthread_mutex_unlock(&lock);
  return 1;
}

static const cuemu_drv_per_thread_entry *per_thread;
static size_t nper_thread;

int cuemu_drv_per_thread_entries_register(
    const cuemu_drv_per_thread_entry *entries, size_t count) {
  pthread_mutex_lock(&lock);
  per_thread = entries;
  nper_thread = count;
  pthread_mutex_unlock(&lock);
  return 1;
}

/* The per-thread spelling of `symbol` at `version` (the newest whose
 * range holds it), or NULL. */
static void *find_per_thread(const char *symbol, int version) {
  const cuemu_drv_per_thread_entry *best = NULL;
  pthread_mutex_lock(&lock);
  for (size_t i = 0; i < nper_thread; ++i) {
    const cuemu_drv_per_thread_entry *e = &per_thread[i];
    if (strcmp(e->name, symbol) == 0 && e->from <= version &&
        (e->until == 0 || version < e->until) &&
        (!best || e->from > best->from))
      best = e;
  }
  pthread_mutex_unlock(&lock);
  return best ? best->address : NULL;
}

/* The entry named `symbol` for `version` in the first table that has the
 * name: its newest ABI version not newer than `version`. Returns it, or
 * NULL with *named set when the name is there but every version of it is
 * newer. */
static const cuemu_drv_entry_point *find(const char *symbol, int version,
                                         int *named) {
  const cuemu_drv_entry_point *found = NULL;
  *named = 0;
  pthread_mutex_lock(&lock);
  for (size_t t = 0; t < ntables && !*named; ++t)
    for (size_t i = 0; i < tables[t].count; ++i) {
      const cuemu_drv_entry_point *e = &tables[t].entries[i];
      if (strcmp(e->name, symbol) != 0)
        continue;
      *named = 1;
      if (e->version <= version && (!found || e->version > found->version))
        found = e;
    }
  pthread_mutex_unlock(&lock);
  return found;
}

/* Loads cuemu's libcuda.so.1 from the toolkit beside libcuemu
 * (cuemu-toolkit/compat, emulator/export/libcuda.am); its table registers
 * as it loads. Kept loaded for the life of the process; nothing happens
 * where there is none. */
static pthread_once_t driver_library_once = PTHREAD_ONCE_INIT;
static void load_driver_library(void) {
  char path[PATH_MAX];
  int n = snprintf(path, sizeof path, "%s/cuemu-toolkit/compat/libcuda.so.1",
                   cuemu__location_lib());
  if (n > 0 && (size_t)n < sizeof path)
    (void)dlopen(path, RTLD_NOW | RTLD_LOCAL);
}

int cuemu_drv_get_proc_address(const char *symbol, void **address,
                               int version, unsigned long long flags,
                               int *status) {
  if (!symbol || !address || version <= 0 || version > DRIVER_VERSION ||
      (flags & ~PROC_ADDRESS_FLAGS))
    return DRV_CUDA_ERROR_INVALID_VALUE;
  int named = 0;
  const cuemu_drv_entry_point *e = find(symbol, version, &named);
  if (!named) {
    pthread_once(&driver_library_once, load_driver_library);
    e = find(symbol, version, &named);
  }
  /* CU_GET_PROC_ADDRESS_SUCCESS, _SYMBOL_NOT_FOUND, _VERSION_NOT_SUFFICIENT. */
  int found = e ? 0 : named ? 2 : 1;
  *address = e ? e->address : NULL;
  /* The per-thread spellings are libcuda.so.1's (the shims have one
   * function per name, whose stream 0 is the program's default). */
  if (e && (flags & PROC_ADDRESS_PER_THREAD)) {
    pthread_once(&driver_library_once, load_driver_library);
    void *spelled = find_per_thread(symbol, version);
    if (spelled)
      *address = spelled;
  }
  if (status)
    *status = found;
  return DRV_CUDA_SUCCESS;
}
