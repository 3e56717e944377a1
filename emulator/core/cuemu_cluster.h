/*
 * cuemu_cluster.h: thread block clusters in the scheduler (see
 * cuemu_device_runtime.h). A launch with clusters runs every block at
 * once, each on a worker of its own, as a cooperative launch does, so
 * that the blocks of a cluster are resident together; cluster.sync() is a
 * block barrier whose completion waits for the other blocks of the
 * cluster, and each block's shared memory is reachable from the others
 * (distributed shared memory). Internal to libcuemu.
 */
#ifndef CUEMU_CLUSTER_H
#define CUEMU_CLUSTER_H

#include "core/cuemu_worker.h"

typedef struct cuemu_split_barrier cuemu_split_barrier;

/* Prepares the clusters of launch L (L->cluster set); OUT_OF_MEMORY. */
cuemu_status cuemu__cluster_begin(cuemu_launch *L);

/* Forgets every cluster's arrivals (a rerun of the launch). */
void cuemu__cluster_reset(cuemu_launch *L);

/* Frees them. */
void cuemu__cluster_end(cuemu_launch *L);

/* A block of a cluster launch has finished. */
void cuemu__cluster_block_done(cuemu_worker *w);

/* Forgets the split cluster barrier's arrivals of the worker's previous
 * block (a new block starts on it). */
void cuemu__cluster_split_reset(cuemu_worker *w);

/* Wakes the blocks waiting in cluster.sync() when the launch stops. */
void cuemu__cluster_stop(cuemu_launch *L);

#endif /* CUEMU_CLUSTER_H */
