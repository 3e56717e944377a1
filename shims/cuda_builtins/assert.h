/*
 * assert.h: the C library's assert.h, with assert() in kernel code ending
 * the launch (naming the block, the thread and the line) instead of
 * aborting the process. Like the C library's, this header has no include
 * guard: each inclusion re-reads NDEBUG.
 */
#include_next <assert.h>

#ifdef __cplusplus
#include <cuemu/cuemu_device.h>

#undef assert
#ifdef NDEBUG
#define assert(expr) (static_cast<void>(0))
#else
#define assert(expr)                                                           \
  (static_cast<bool>(expr)                                                     \
       ? static_cast<void>(0)                                                  \
       : cuemu_kernel_assert_fail(#expr, __FILE__, __LINE__, __PRETTY_FUNCTION__))
#endif
#endif
