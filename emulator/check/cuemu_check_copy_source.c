/*
 * cuemu_check_copy_source.c: initcheck's report of a copy whose source is
 * device memory that nothing wrote, as compute-sanitizer's initcheck makes
 * it ("Host API memory access error ... Uninitialized access at 0x... on
 * access by cudaMemcpy source"): a cudaMemcpy* of the program's own that
 * reads bytes of a cudaMalloc allocation that no copy, memset, kernel or
 * library wrote (to the host, or to device memory) prints
 *
 *   cuemu: initcheck: cudaMemcpy source: 48 of the 400 bytes copied from
 *   global memory 0x...+0 (allocation of 400 bytes at 0x..., allocated at
 *   p.cu:12) were never written (the first: byte 352) on CUDA API call at
 *   p.cu:20
 *
 * whichever copy it is (cudaMemcpy, cudaMemcpyAsync, ...: compute-sanitizer
 * says "cudaMemcpy source" of them all), once for each line of the program
 * that calls it; the copy goes on. Such a report counts for the program's
 * exit status, as a kernel's initcheck report does (cuemu_check_report.c). It
 * is made when initcheck is built into the module that makes the call and
 * CUEMU_CHECK (if set) names init. The copies that cuemu's libraries make on
 * their own are not the program's calls and are not reported.
 */
#define _GNU_SOURCE
#include "check/cuemu_check.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "base/cuemu_config.h"
#include "core/cuemu_ptr_map.h"

/* The calls already judged: their return address, and 1 (report) or 2
 * (not the program's checked call of the runtime API). */
static pthread_mutex_t calls_lock = PTHREAD_MUTEX_INITIALIZER;
static cuemu__ptr_map calls;

/* Whether the copy called at `caller` is checked: the program's own call
 * of the runtime API (cuemu__check_api_name finds a name), from a module
 * built with initcheck. */
static int checked_call(const void *caller) {
  pthread_mutex_lock(&calls_lock);
  uintptr_t seen = (uintptr_t)cuemu__ptr_map_get(&calls, (uintptr_t)caller);
  pthread_mutex_unlock(&calls_lock);
  if (seen)
    return seen == 1;
  char function[512];
  const char *name = cuemu__check_api_name(caller, function, sizeof function);
  const cuemu_check_module *m = cuemu__check_module_of(caller);
  seen = name[0] && m && (m->built & CUEMU_CHECK_INIT) ? 1 : 2;
  pthread_mutex_lock(&calls_lock);
  (void)cuemu__ptr_map_put(&calls, (uintptr_t)caller, (void *)seen);
  pthread_mutex_unlock(&calls_lock);
  return seen == 1;
}

/* How many of the bytes that a copy reads (`depth` slices, `slice` bytes
 * apart, of `height` rows, `pitch` bytes apart, of `width` bytes from
 * `src`) nothing wrote; when there are any, the allocation, its size and
 * the offset from its base of the first such byte, as
 * cuemu__check_unwritten's. */
static size_t unwritten_rows(const void *src, size_t width, size_t height,
                             size_t pitch, size_t depth, size_t slice,
                             void **base, size_t *size, size_t *first) {
  size_t count = 0;
  for (size_t z = 0; z < depth; ++z)
    for (size_t y = 0; y < height; ++y) {
      void *b;
      size_t s, f;
      const char *row = (const char *)src + z * slice + y * pitch;
      size_t n = cuemu__check_unwritten(row, width, &b, &s, &f);
      if (n && !count) {
        *base = b;
        *size = s;
        *first = f;
      }
      count += n;
    }
  return count;
}

void cuemu__check_copy_source(const void *src, size_t width, size_t height,
                              size_t pitch, size_t depth, size_t slice) {
  void *base;
  size_t size, first;
  size_t unwritten = unwritten_rows(src, width, height, pitch, depth, slice,
                                    &base, &size, &first);
  if (!unwritten || !cuemu__config_check_selects(CUEMU_CHECK_INIT))
    return;
  size_t n = width * height * depth;
  const void *caller = cuemu__check_api_call();
  if (!caller || !checked_call(caller))
    return;
  cuemu_check_alloc_info info = {0};
  char allocated[512] = "", where[512], line[2048];
  if (cuemu__check_alloc_info(base, &info) && info.site) {
    char site[480];
    cuemu__check_alloc_line(info.site, info.callers, site, sizeof site);
    snprintf(allocated, sizeof allocated, ", allocated at %s", site);
  }
  cuemu__check_api_call_line(caller, where, sizeof where);
  size_t off = (size_t)((const char *)src - (const char *)base);
  snprintf(line, sizeof line,
           "initcheck: cudaMemcpy source: %zu of the %zu bytes copied from "
           "global memory %s%s%p+%zu (allocation of %zu bytes at %p%s) were "
           "never written (the first: byte %zu) on CUDA API call at %s",
           unwritten, n, info.name ? info.name : "", info.name ? " " : "", base,
           off, size, base, allocated, first, where);
  cuemu__check_report_host(where, line);
}
