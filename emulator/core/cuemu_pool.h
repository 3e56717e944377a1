/*
 * cuemu_pool.h: the persistent worker OS threads that run blocks in
 * parallel. The launching thread is always one of a launch's workers.
 */
#ifndef CUEMU_POOL_H
#define CUEMU_POOL_H

#include "core/cuemu_worker.h"

/* The worker of the calling OS thread, created on first use; NULL when out
 * of memory. */
cuemu_worker *cuemu__caller_worker(void);

/* Runs `launch` on the calling thread and `helpers` pool threads, and
 * returns when all blocks have run or the launch has stopped. */
void cuemu__pool_run(cuemu_launch *launch, unsigned helpers);

#endif /* CUEMU_POOL_H */
