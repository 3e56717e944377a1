/*
 * cuemu_async_copy_builtins.h: nvcc's built-ins behind cuda::memcpy_async
 * on sm_80 (crt/sm_80_rt.h): __nv_memcpy_async_shared_global_4, _8 and
 * _16 copy 4, 8 or 16 bytes from global to shared memory as PTX's
 * cp.async with a src-size: the first src_size bytes are copied and the
 * rest of the destination is zeroed. As for cp.async (cuemu_ptx_sync.h),
 * the copy is done at once, so a later wait has nothing to wait for.
 */
#ifndef CUEMU_ASYNC_COPY_BUILTINS_H
#define CUEMU_ASYNC_COPY_BUILTINS_H

#include <cstring>

/* Copies the first src_size bytes (at most size) of src to dst and zeroes
 * the rest of dst's size bytes. */
inline void cuemu_async_copy_shared_global(void *dst, const void *src,
                                           unsigned size, unsigned src_size) {
  const unsigned n = src_size < size ? src_size : size;
  std::memcpy(dst, src, n);
  std::memset(static_cast<char *>(dst) + n, 0, size - n);
}

extern "C" {
inline void __nv_memcpy_async_shared_global_4(void *dst, const void *src,
                                              unsigned src_size) {
  cuemu_async_copy_shared_global(dst, src, 4, src_size);
}
inline void __nv_memcpy_async_shared_global_8(void *dst, const void *src,
                                              unsigned src_size) {
  cuemu_async_copy_shared_global(dst, src, 8, src_size);
}
inline void __nv_memcpy_async_shared_global_16(void *dst, const void *src,
                                               unsigned src_size) {
  cuemu_async_copy_shared_global(dst, src, 16, src_size);
}
}

#endif /* CUEMU_ASYNC_COPY_BUILTINS_H */
