/*
 * cuemu_rt_array_async.h: the stream copies with CUDA arrays that are not
 * captured, in their stream's order (emulator/runtime/cuemu_rt_array_async.c):
 * each is checked when issued, then queued as the copy of the array's rows
 * it amounts to, so that the host does not wait for the stream's earlier
 * work (docs/streams.md). Return CUDA codes.
 */
#ifndef CUEMU_RT_ARRAY_ASYNC_H
#define CUEMU_RT_ARRAY_ASYNC_H

#include <stddef.h>

#include <cuemu/cuemu_rt_texture.h>

#ifdef __cplusplus
extern "C" {
#endif

/* cudaMemcpyToArrayAsync and cudaMemcpyFromArrayAsync (deprecated, still
 * declared by CUDA 12's runtime): `count` bytes from byte column w_offset
 * of row h_offset on, across rows. */
int cuemu_rt_memcpy_to_array_async(cudaArray_t dst, size_t w_offset,
                                   size_t h_offset, const void *src,
                                   size_t count, int kind, void *stream);
int cuemu_rt_memcpy_from_array_async(void *dst, cudaArray_const_t src,
                                     size_t w_offset, size_t h_offset,
                                     size_t count, int kind, void *stream);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_RT_ARRAY_ASYNC_H */
