/*
 * cuemu_rt_graph_objects.c: what the files of CUDA Graphs share (see
 * cuemu_rt_graph_internal.h): the lock, the table of live objects, node
 * lists, failure messages, and user objects (cudaUserObjectCreate and the
 * references graphs hold).
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cuemu/cuemu_runtime.h>

#include "base/cuemu_report.h"
#include "runtime/cuemu_rt_graph_internal.h"

/* Recursive: a user object's destructor runs with the lock held, and CUDA
 * does not forbid every call there. */
static pthread_mutex_t lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

void cuemu__graph_lock(void) { pthread_mutex_lock(&lock); }
void cuemu__graph_unlock(void) { pthread_mutex_unlock(&lock); }

int cuemu__graph_fail(int code, const char *fmt, ...) {
  char message[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(message, sizeof message, fmt, ap);
  va_end(ap);
  cuemu__report(CUEMU_INVALID_VALUE, "%s", message);
  return cuemu_rt_error(code);
}

/* ---- The table of live objects: open addressing on the address. ---------- */

/* The table has a lock of its own, taken by nothing else and held while
 * nothing else is called: graphs are made and freed outside the graph lock
 * too (a stream's deferred copy, cuemu_rt_stream_queue.c, from several host
 * threads at once), and a free could otherwise run under a lock the graph
 * lock must not follow. */
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;

#define TOMBSTONE (-1)

typedef struct slot {
  const void *key;
  int kind; /* 0: empty, TOMBSTONE: removed */
} slot;

static slot *slots;
static size_t slot_count, used; /* used counts tombstones too */

static size_t hash(const void *p, size_t mask) {
  uint64_t x = (uint64_t)(uintptr_t)p;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (size_t)x & mask;
}

static slot *find(const void *p) {
  if (!slots)
    return NULL;
  size_t mask = slot_count - 1;
  for (size_t i = hash(p, mask);; i = (i + 1) & mask) {
    if (slots[i].kind == 0)
      return NULL;
    if (slots[i].key == p && slots[i].kind != TOMBSTONE)
      return &slots[i];
  }
}

static int add(const void *p, int kind);

static int grow(void) {
  size_t n = slot_count ? slot_count * 2 : 256;
  slot *old = slots;
  size_t old_count = slot_count;
  slot *fresh = calloc(n, sizeof *fresh);
  if (!fresh)
    return -1;
  slots = fresh;
  slot_count = n;
  used = 0;
  for (size_t i = 0; i < old_count; ++i)
    if (old[i].kind > 0)
      add(old[i].key, old[i].kind);
  free(old);
  return 0;
}

/* Adds p with live_lock held. */
static int add(const void *p, int kind) {
  if ((used + 1) * 2 > slot_count && grow() != 0)
    return -1;
  size_t mask = slot_count - 1;
  size_t i = hash(p, mask);
  while (slots[i].kind > 0)
    i = (i + 1) & mask;
  if (slots[i].kind == 0)
    used++;
  slots[i].key = p;
  slots[i].kind = kind;
  return 0;
}

int cuemu__graph_live_add(const void *p, int kind) {
  pthread_mutex_lock(&live_lock);
  int r = add(p, kind);
  pthread_mutex_unlock(&live_lock);
  return r;
}

void cuemu__graph_live_remove(const void *p) {
  pthread_mutex_lock(&live_lock);
  slot *s = find(p);
  if (s)
    s->kind = TOMBSTONE;
  pthread_mutex_unlock(&live_lock);
}

int cuemu__graph_live(const void *p, int kind) {
  if (!p)
    return 0;
  pthread_mutex_lock(&live_lock);
  slot *s = find(p);
  int live = s && s->kind == kind;
  pthread_mutex_unlock(&live_lock);
  return live;
}

/* ---- Node lists ------------------------------------------------------------ */

int cuemu__node_list_push(cuemu__node_list *l, cuemu_rt_graph_node *n) {
  if (l->n == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 4;
    cuemu_rt_graph_node **v = realloc(l->v, cap * sizeof *v);
    if (!v)
      return -1;
    l->v = v;
    l->cap = cap;
  }
  l->v[l->n++] = n;
  return 0;
}

int cuemu__node_list_has(const cuemu__node_list *l,
                         const cuemu_rt_graph_node *n) {
  for (size_t i = 0; i < l->n; ++i)
    if (l->v[i] == n)
      return 1;
  return 0;
}

void cuemu__node_list_remove(cuemu__node_list *l,
                             const cuemu_rt_graph_node *n) {
  size_t j = 0;
  for (size_t i = 0; i < l->n; ++i)
    if (l->v[i] != n)
      l->v[j++] = l->v[i];
  l->n = j;
}

void cuemu__node_list_free(cuemu__node_list *l) {
  free(l->v);
  l->v = NULL;
  l->n = l->cap = 0;
}

/* ---- User objects ------------------------------------------------------------ */

void cuemu__user_object_release(cuemu_rt_user_object *o, unsigned n) {
  o->refs = n >= o->refs ? 0 : o->refs - n;
  if (o->refs)
    return;
  cuemu__graph_live_remove(o);
  if (o->destroy)
    o->destroy(o->ptr);
  free(o);
}

int cuemu__user_refs_add(cuemu__user_ref **refs, size_t *count,
                         cuemu_rt_user_object *object, unsigned n) {
  for (size_t i = 0; i < *count; ++i)
    if ((*refs)[i].object == object) {
      (*refs)[i].count += n;
      return 0;
    }
  cuemu__user_ref *r = realloc(*refs, (*count + 1) * sizeof *r);
  if (!r)
    return -1;
  r[*count].object = object;
  r[*count].count = n;
  *refs = r;
  ++*count;
  return 0;
}

void cuemu__user_refs_drop(cuemu__user_ref *refs, size_t count) {
  for (size_t i = 0; i < count; ++i)
    cuemu__user_object_release(refs[i].object, refs[i].count);
  free(refs);
}

int cuemu_rt_user_object_create(cuemu_rt_user_object **object, void *ptr,
                                void (*destroy)(void *), unsigned refs,
                                unsigned flags) {
  /* CUDA requires cudaUserObjectNoDestructorSync. */
  if (!object || !destroy || refs == 0 || flags != 1u)
    return cuemu_rt_error(cudaErrorInvalidValue);
  cuemu_rt_user_object *o = calloc(1, sizeof *o);
  if (!o)
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  o->ptr = ptr;
  o->destroy = destroy;
  o->refs = refs;
  cuemu__graph_lock();
  int bad = cuemu__graph_live_add(o, CUEMU__LIVE_USER_OBJECT);
  cuemu__graph_unlock();
  if (bad) {
    free(o);
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  }
  *object = o;
  return cudaSuccess;
}

int cuemu_rt_user_object_retain(cuemu_rt_user_object *object, unsigned count) {
  cuemu__graph_lock();
  int ok = count > 0 && cuemu__graph_live(object, CUEMU__LIVE_USER_OBJECT);
  if (ok)
    object->refs += count;
  cuemu__graph_unlock();
  return ok ? cudaSuccess : cuemu_rt_error(cudaErrorInvalidValue);
}

int cuemu_rt_user_object_release(cuemu_rt_user_object *object,
                                 unsigned count) {
  cuemu__graph_lock();
  int ok = count > 0 && cuemu__graph_live(object, CUEMU__LIVE_USER_OBJECT) &&
           count <= object->refs;
  if (ok)
    cuemu__user_object_release(object, count);
  cuemu__graph_unlock();
  return ok ? cudaSuccess : cuemu_rt_error(cudaErrorInvalidValue);
}

int cuemu_rt_graph_retain_user_object(cuemu_rt_graph *graph,
                                      cuemu_rt_user_object *object,
                                      unsigned count, unsigned flags) {
  cuemu__graph_lock();
  int code = cudaSuccess;
  if (count == 0 || flags > 1u || !cuemu__graph_live(graph, CUEMU__LIVE_GRAPH) ||
      !cuemu__graph_live(object, CUEMU__LIVE_USER_OBJECT) ||
      (flags && count > object->refs))
    code = cudaErrorInvalidValue;
  else if (cuemu__user_refs_add(&graph->refs, &graph->ref_count, object,
                                count) != 0)
    code = cudaErrorMemoryAllocation;
  else if (!flags) /* cudaGraphUserObjectMove takes the caller's */
    object->refs += count;
  cuemu__graph_unlock();
  return code ? cuemu_rt_error(code) : cudaSuccess;
}

int cuemu_rt_graph_release_user_object(cuemu_rt_graph *graph,
                                       cuemu_rt_user_object *object,
                                       unsigned count) {
  cuemu__graph_lock();
  int code = cudaErrorInvalidValue;
  if (count > 0 && cuemu__graph_live(graph, CUEMU__LIVE_GRAPH))
    for (size_t i = 0; i < graph->ref_count; ++i)
      if (graph->refs[i].object == object && graph->refs[i].count >= count) {
        graph->refs[i].count -= count;
        if (graph->refs[i].count == 0)
          graph->refs[i] = graph->refs[--graph->ref_count];
        cuemu__user_object_release(object, count);
        code = cudaSuccess;
        break;
      }
  cuemu__graph_unlock();
  return code ? cuemu_rt_error(code) : cudaSuccess;
}
