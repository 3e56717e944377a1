/*
 * cuemu_rt_external.c: external memory and external semaphores on file
 * descriptors (see cuemu_external.h for what is emulated and the layout of
 * a semaphore's file), and the external semaphore nodes of graphs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cuemu/cuemu_external.h>
#include <cuemu/cuemu_runtime.h>

#include "base/cuemu_config.h"
#include "core/cuemu_allocations.h"
#include "device/cuemu_device_model.h"
#include "runtime/cuemu_rt_capture.h"
#include "runtime/cuemu_rt_graph_internal.h"
#include "runtime/cuemu_rt_internal.h"
#include "runtime/cuemu_rt_stream_queue.h"

struct cuemu_rt_external_memory {
  int fd;
  unsigned long long size;
};

/* The shared words of a semaphore's file. */
typedef struct sem_words {
  _Atomic uint64_t value;
  _Atomic uint32_t sequence;
} sem_words;

struct cuemu_rt_external_semaphore {
  int fd;
  int timeline;
  sem_words *words;
};

/* A mapped buffer: the mapping (page-aligned) and the pointer handed out. */
typedef struct mapping {
  void *ptr;
  void *base;
  size_t bytes;
} mapping;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static void **live;
static size_t nlive;
static mapping *maps;
static size_t nmaps;

static int grow(void **v, size_t n, size_t size) {
  void *p = realloc(*v, (n + 1) * size);
  if (!p)
    return -1;
  *v = p;
  return 0;
}

static int live_add(void *h) {
  pthread_mutex_lock(&lock);
  int bad = grow((void **)&live, nlive, sizeof *live);
  if (!bad)
    live[nlive++] = h;
  pthread_mutex_unlock(&lock);
  return bad;
}

/* Non-zero when `h` is live; removes it when `drop`. */
static int live_has(const void *h, int drop) {
  pthread_mutex_lock(&lock);
  int found = 0;
  for (size_t i = 0; h && i < nlive && !found; ++i)
    if (live[i] == h) {
      found = 1;
      if (drop)
        live[i] = live[--nlive];
    }
  pthread_mutex_unlock(&lock);
  return found;
}

static int fail(int code, const char *what) {
  return cuemu__graph_fail(code, "%s", what);
}

/* ---- External memory ------------------------------------------------------ */

int cuemu_rt_import_external_memory(cuemu_rt_external_memory **memory,
                                    int type, int fd, unsigned long long size,
                                    unsigned flags) {
  if (!memory || size == 0 || (flags & ~1u))
    return cuemu_rt_error(cudaErrorInvalidValue);
  if (type != CUEMU_RT_EXTERNAL_MEMORY_OPAQUE_FD)
    return fail(cudaErrorNotSupported,
                "cudaImportExternalMemory: only "
                "cudaExternalMemoryHandleTypeOpaqueFd is emulated (no "
                "graphics API, Win32 or NvSci handles on an emulator)");
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0)
    return fail(cudaErrorInvalidValue,
                "cudaImportExternalMemory: the descriptor is not open");
  if ((unsigned long long)st.st_size < size)
    return fail(cudaErrorInvalidValue,
                "cudaImportExternalMemory: the file is smaller than the "
                "size given");
  cuemu_rt_external_memory *m = calloc(1, sizeof *m);
  if (!m || live_add(m)) {
    free(m);
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  }
  m->fd = fd;
  m->size = size;
  *memory = m;
  return cudaSuccess;
}

int cuemu_rt_external_memory_get_mapped_buffer(
    void **ptr, cuemu_rt_external_memory *memory, unsigned long long offset,
    unsigned long long size, unsigned flags) {
  if (!ptr || !live_has(memory, 0) || flags || size == 0 ||
      offset > memory->size || size > memory->size - offset)
    return cuemu_rt_error(cudaErrorInvalidValue);
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t start = (size_t)offset / page * page;
  size_t bytes = (size_t)(offset - start + size);
  void *base =
      mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, memory->fd,
           (off_t)start);
  if (base == MAP_FAILED)
    return fail(cudaErrorMemoryAllocation,
                "cudaExternalMemoryGetMappedBuffer: the file cannot be "
                "mapped");
  void *p = (char *)base + (offset - start);
  unsigned owner = (unsigned)cuemu__device_current()
                   << CUEMU_RT_MEMORY_DEVICE_SHIFT;
  pthread_mutex_lock(&lock);
  int bad = grow((void **)&maps, nmaps, sizeof *maps);
  if (!bad)
    maps[nmaps++] = (mapping){p, base, bytes};
  pthread_mutex_unlock(&lock);
  if (bad || cuemu__allocation_insert(p, (size_t)size, CUEMU_RT_MEMORY_DEVICE,
                                      owner) != 0) {
    munmap(base, bytes);
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  }
  /* The file's bytes count as written (initcheck). */
  cuemu__allocation_note(p, (size_t)size, CUEMU_RT_MEMORY_DEVICE,
                         __builtin_return_address(0));
  cuemu__allocation_written(p, (size_t)size);
  *ptr = p;
  return cudaSuccess;
}

int cuemu_rt_external_memory_free(void *ptr) {
  pthread_mutex_lock(&lock);
  mapping m = {NULL, NULL, 0};
  for (size_t i = 0; ptr && i < nmaps; ++i)
    if (maps[i].ptr == ptr) {
      m = maps[i];
      maps[i] = maps[--nmaps];
      break;
    }
  pthread_mutex_unlock(&lock);
  if (!m.ptr)
    return -1;
  cuemu__stream_wait_every_device(); /* queued work may use it */
  cuemu__allocation_release(ptr, 1u << CUEMU_RT_MEMORY_DEVICE, 0);
  cuemu__allocation_freed(ptr);
  munmap(m.base, m.bytes);
  return cudaSuccess;
}

int cuemu_rt_destroy_external_memory(cuemu_rt_external_memory *memory) {
  if (!live_has(memory, 1))
    return cuemu_rt_error(cudaErrorInvalidValue);
  close(memory->fd);
  free(memory);
  return cudaSuccess;
}

/* ---- External semaphores -------------------------------------------------- */

int cuemu_rt_import_external_semaphore(cuemu_rt_external_semaphore **sem,
                                       int type, int fd, unsigned flags) {
  if (!sem || flags)
    return cuemu_rt_error(cudaErrorInvalidValue);
  if (type != CUEMU_RT_EXTERNAL_SEMAPHORE_OPAQUE_FD &&
      type != CUEMU_RT_EXTERNAL_SEMAPHORE_TIMELINE_FD)
    return fail(cudaErrorNotSupported,
                "cudaImportExternalSemaphore: only the OpaqueFd and "
                "TimelineSemaphoreFd handle types are emulated (no graphics "
                "API fences, keyed mutexes, Win32 or NvSci handles on an "
                "emulator)");
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0 || st.st_size < (off_t)sizeof(sem_words))
    return fail(cudaErrorInvalidValue,
                "cudaImportExternalSemaphore: the descriptor is not an open "
                "file of at least 16 bytes (see docs/driver-api.md)");
  sem_words *w = mmap(NULL, sizeof *w, PROT_READ | PROT_WRITE, MAP_SHARED,
                      fd, 0);
  if (w == MAP_FAILED)
    return fail(cudaErrorInvalidValue,
                "cudaImportExternalSemaphore: the file cannot be mapped");
  cuemu_rt_external_semaphore *s = calloc(1, sizeof *s);
  if (!s || live_add(s)) {
    free(s);
    munmap(w, sizeof *w);
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  }
  s->fd = fd;
  s->timeline = type == CUEMU_RT_EXTERNAL_SEMAPHORE_TIMELINE_FD;
  s->words = w;
  *sem = s;
  return cudaSuccess;
}

int cuemu_rt_destroy_external_semaphore(cuemu_rt_external_semaphore *sem) {
  if (!live_has(sem, 1))
    return cuemu_rt_error(cudaErrorInvalidValue);
  /* CUDA wants its pending signals and waits done: queued ones run first,
   * rather than on a semaphore that is gone. */
  cuemu__stream_wait_every_device();
  munmap(sem->words, sizeof *sem->words);
  close(sem->fd);
  free(sem);
  return cudaSuccess;
}

static void signal_one(cuemu_rt_external_semaphore *s, uint64_t value) {
  if (s->timeline) {
    uint64_t old = atomic_load(&s->words->value);
    while (old < value &&
           !atomic_compare_exchange_weak(&s->words->value, &old, value))
      ;
  } else {
    atomic_store(&s->words->value, 1);
  }
  atomic_fetch_add(&s->words->sequence, 1);
  syscall(SYS_futex, &s->words->sequence, FUTEX_WAKE, INT32_MAX, NULL, NULL,
          0);
}

/* Non-zero once the wait is satisfied (a binary semaphore is taken). */
static int try_take(cuemu_rt_external_semaphore *s, uint64_t value) {
  if (s->timeline)
    return atomic_load(&s->words->value) >= value;
  uint64_t one = 1;
  return atomic_compare_exchange_strong(&s->words->value, &one, 0);
}

long cuemu__rt_wait_limit(void) { return cuemu__config_ext_wait_seconds(); }

int cuemu__rt_waited_past(const struct timespec *start, long seconds) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  long long ns = (long long)(now.tv_sec - start->tv_sec) * 1000000000ll +
                 (now.tv_nsec - start->tv_nsec);
  return ns >= (long long)seconds * 1000000000ll;
}

static int wait_until_signalled(cuemu_rt_external_semaphore *s,
                                uint64_t value) {
  long limit = cuemu__rt_wait_limit();
  struct timespec start;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (;;) {
    uint32_t seq = atomic_load(&s->words->sequence);
    if (try_take(s, value))
      return cudaSuccess;
    if (cuemu__rt_waited_past(&start, limit)) {
      cuemu__graph_fail(cudaErrorTimeout,
                        "cudaWaitExternalSemaphoresAsync: no signal %s%llu "
                        "came in %ld s (CUEMU_EXT_WAIT_SECONDS)",
                        s->timeline ? "reaching " : "",
                        s->timeline ? (unsigned long long)value : 1ULL, limit);
      return cudaErrorTimeout;
    }
    struct timespec tick = {0, 100 * 1000 * 1000};
    syscall(SYS_futex, &s->words->sequence, FUTEX_WAIT, seq, &tick, NULL, 0);
  }
}

/* A wait on a stream's execution thread waits for memory that another
 * process may write (the semaphore's file): the host's look for waits
 * that cannot finish leaves it alone, and CUEMU_EXT_WAIT_SECONDS ends it. */
static int wait_one(cuemu_rt_external_semaphore *s, uint64_t value) {
  cuemu__stream_waiting_for_memory(2);
  int code = wait_until_signalled(s, value);
  cuemu__stream_waiting_for_memory(0);
  return code;
}

static int check_sems(cuemu_rt_external_semaphore *const *sems,
                      const unsigned long long *values, unsigned n) {
  if (n && (!sems || !values))
    return cudaErrorInvalidValue;
  for (unsigned i = 0; i < n; ++i)
    if (!live_has(sems[i], 0))
      return cudaErrorInvalidValue;
  return 0;
}

/* Signals or waits at once. */
static int run(int wait, cuemu_rt_external_semaphore *const *sems,
               const unsigned long long *values, unsigned n) {
  int code = check_sems(sems, values, n);
  for (unsigned i = 0; !code && i < n; ++i) {
    if (wait)
      code = wait_one(sems[i], values[i]);
    else
      signal_one(sems[i], values[i]);
  }
  return code ? cuemu_rt_error(code) : cudaSuccess;
}

static int issue(int wait, cuemu_rt_external_semaphore *const *sems,
                 const unsigned long long *values, unsigned n, void *stream) {
  int code = check_sems(sems, values, n);
  if (code)
    return cuemu_rt_error(code);
  cuemu_rt_graph_node_params p = {
      .type = wait ? CUEMU_RT_NODE_EXT_WAIT : CUEMU_RT_NODE_EXT_SIGNAL};
  p.u.ext.sems = (void *const *)sems;
  p.u.ext.values = values;
  p.u.ext.count = n;
  code = cuemu__rt_capture_node(stream, &p);
  if (code != CUEMU__RT_NOT_CAPTURED)
    return code;
  /* On an asynchronous stream: a one-node graph, run in the stream's
   * order on its execution thread (a wait then holds only the stream). */
  if (n && !cuemu__stream_inline()) {
    code = cuemu__rt_check_sticky();
    if (!code)
      code = cuemu__rt_stream_valid(stream);
    return code ? code : cuemu__stream_defer_node(stream, &p);
  }
  code = cuemu__rt_check_stream(stream);
  if (code)
    return code;
  return run(wait, sems, values, n);
}

int cuemu_rt_signal_external_semaphores(
    cuemu_rt_external_semaphore *const *sems,
    const unsigned long long *values, unsigned n, void *stream) {
  return issue(0, sems, values, n, stream);
}

int cuemu_rt_wait_external_semaphores(cuemu_rt_external_semaphore *const *sems,
                                      const unsigned long long *values,
                                      unsigned n, void *stream) {
  return issue(1, sems, values, n, stream);
}

/* ---- Graph nodes ------------------------------------------------------------ */

int cuemu__graph_ext_assign(cuemu_rt_graph_node *node,
                            const cuemu_rt_graph_node_params *p) {
  unsigned n = p->u.ext.count;
  if (check_sems((cuemu_rt_external_semaphore *const *)p->u.ext.sems,
                 p->u.ext.values, n) || n == 0)
    return cuemu__graph_fail(cudaErrorInvalidValue,
                             "external semaphore node: %s",
                             n ? "a semaphore is not a live imported one"
                               : "no semaphores");
  size_t words = (size_t)n * 2;
  unsigned char *blob = malloc(words * sizeof(uint64_t));
  if (!blob)
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  void **sems = (void **)blob;
  unsigned long long *values =
      (unsigned long long *)(blob + n * sizeof(uint64_t));
  memcpy(sems, p->u.ext.sems, n * sizeof *sems);
  memcpy(values, p->u.ext.values, n * sizeof *values);
  free(node->arg_blob);
  node->arg_blob = blob;
  node->p = *p;
  node->p.u.ext.sems = sems;
  node->p.u.ext.values = values;
  return cudaSuccess;
}

int cuemu__graph_ext_run(const cuemu_rt_graph_node *node) {
  return run(node->p.type == CUEMU_RT_NODE_EXT_WAIT,
             (cuemu_rt_external_semaphore *const *)node->p.u.ext.sems,
             node->p.u.ext.values, node->p.u.ext.count);
}
