/*
 * cuemu_rt_graph_memory.c: the list of graph allocation nodes' memory.
 *
 * A memory allocation node's storage is made when the node is added and
 * kept until the last copy of the node is freed, so that each launch of
 * the graph finds it at the same address (CUDA gives a graph allocation a
 * fixed virtual address). CUDA lets the program free that memory outside
 * the graph, with cudaFree, cudaFreeAsync or a free node of another graph,
 * and launch the graph again afterwards; such a free must not give the
 * storage back, or the next launch would write into freed memory. This
 * list tells cudaFree and cudaFreeAsync which pointers those are.
 */
#include <pthread.h>
#include <stddef.h>

#include "runtime/cuemu_rt_graph_internal.h"
#include "runtime/cuemu_rt_graph_memory.h"

static pthread_mutex_t list_lock = PTHREAD_MUTEX_INITIALIZER;
static cuemu__graph_memory *list;

void cuemu__graph_memory_enter(cuemu__graph_memory *m) {
  pthread_mutex_lock(&list_lock);
  m->next = list;
  list = m;
  pthread_mutex_unlock(&list_lock);
}

void cuemu__graph_memory_leave(cuemu__graph_memory *m) {
  pthread_mutex_lock(&list_lock);
  for (cuemu__graph_memory **p = &list; *p; p = &(*p)->next)
    if (*p == m) {
      *p = m->next;
      break;
    }
  pthread_mutex_unlock(&list_lock);
}

int cuemu__graph_memory_free(const void *ptr) {
  int found = 0;
  pthread_mutex_lock(&list_lock);
  for (cuemu__graph_memory *m = list; m && !found; m = m->next)
    found = m->ptr == ptr;
  pthread_mutex_unlock(&list_lock);
  return found;
}
