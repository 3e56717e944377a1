/*
 * cuemu_rt_pool_ipc.h: what the sharing of pools between processes
 * (cuemu_rt_pool_ipc.c, cuemu/cuemu_pool_ipc.h) needs of the pools
 * (cuemu_rt_mempool.c). Internal to libcuemu.
 */
#ifndef CUEMU_RT_POOL_IPC_H
#define CUEMU_RT_POOL_IPC_H

#include <cuemu/cuemu_rt_host_types.h>

/* A new descriptor of a live shareable pool's file, or -1. */
int cuemu__pool_share_fd(cudaMemPool_t pool);
/* Whether `ptr` is the start of a live allocation of a shareable pool;
 * then its pool and its place in the pool's file. */
int cuemu__pool_place(const void *ptr, cudaMemPool_t *pool,
                      unsigned long long *offset);
/* A new imported pool of `device` holding a duplicate of `fd`; NULL
 * without memory or descriptors. */
cudaMemPool_t cuemu__pool_import(int fd, int device);
/* The file of a live imported pool, or -1. */
int cuemu__pool_imported_fd(cudaMemPool_t pool);

#endif /* CUEMU_RT_POOL_IPC_H */
