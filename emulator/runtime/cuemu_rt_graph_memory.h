/*
 * cuemu_rt_graph_memory.h: the memory of graph memory allocation nodes, as
 * cudaFree and cudaFreeAsync see it. Internal to libcuemu.
 */
#ifndef CUEMU_RT_GRAPH_MEMORY_H
#define CUEMU_RT_GRAPH_MEMORY_H

struct cuemu__graph_memory;

/* Enters a node's memory in the list of graph memory, or takes it out
 * (when the last node that holds it is freed). */
void cuemu__graph_memory_enter(struct cuemu__graph_memory *m);
void cuemu__graph_memory_leave(struct cuemu__graph_memory *m);

/* cudaFree or cudaFreeAsync of ptr outside the graph that allocated it:
 * returns 1 when ptr is the start of a graph allocation, whose storage the
 * node keeps (the next launch of the graph allocates it again at the same
 * address, as on a GPU); 0 for any other pointer. */
int cuemu__graph_memory_free(const void *ptr);

#endif
