/*
 * cuemu_status.h: the single table of statuses returned by libcuemu.
 *
 * Every function of libcuemu that can fail returns a cuemu_status; zero is
 * success. The table below generates the enum, cuemu_status_name() and
 * cuemu_strerror(); add a status here and nowhere else.
 */
#ifndef CUEMU_STATUS_H
#define CUEMU_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

#define CUEMU_STATUS_MAP(XX)                                                   \
  XX(SUCCESS, "no error")                                                      \
  XX(INVALID_VALUE, "an argument is invalid")                                  \
  XX(OUT_OF_MEMORY, "out of memory")                                           \
  XX(IO_ERROR, "a file could not be read or written")                          \
  XX(MODULE_LOAD, "the module could not be loaded")                            \
  XX(MODULE_VERSION, "the module was built for another version of cuemu")          \
  XX(KERNEL_NOT_FOUND, "no kernel of that name in the module")                 \
  XX(INVALID_GRID_DIM, "a grid dimension is zero or past CUDA's limits")       \
  XX(INVALID_BLOCK_DIM, "a block dimension is zero or past CUDA's limits")     \
  XX(TOO_MANY_THREADS, "more than 1024 threads per block")                     \
  XX(SHARED_MEMORY_LIMIT, "dynamic shared memory above the kernel's limit")    \
  XX(LAUNCH_OUT_OF_RESOURCES, "more threads than the kernel's __launch_bounds__") \
  XX(ARGUMENT_COUNT, "wrong number of kernel arguments")                       \
  XX(DIVERGENT_BARRIER, "threads of a block wait at different barriers")       \
  XX(DEADLOCK, "no thread of the block can make progress")                     \
  XX(WARP_MISUSE, "a warp collective was misused (mask, exited or absent lanes)") \
  XX(STACK_OVERFLOW, "a thread overflowed its stack")                          \
  XX(KERNEL_FAULT, "a kernel thread faulted (invalid memory access)")          \
  XX(ASSERT, "a device-side assertion failed")                                 \
  XX(TRAP, "a kernel executed __trap()")                                       \
  XX(COMPILE, "the kernel source did not compile")                             \
  XX(CACHE, "the compile cache could not be used")                             \
  XX(NOT_SUPPORTED, "the operation is not supported")                          \
  XX(COOPERATIVE_TOO_LARGE, "more blocks than can be resident at once")        \
  XX(GRID_SYNC, "grid.sync() outside a cooperative launch")                    \
  XX(INVALID_HANDLE, "a stream or event handle is not valid")                  \
  XX(CHECK_REPORT, "a checker reported an error in the kernel")               \
  XX(CASE_INVALID, "a parity case is malformed or does not match its kernel") \
  XX(HOST_COMPILE, "the host implementation did not compile")                 \
  XX(MISMATCH, "outputs differ beyond the case's tolerance")                  \
  XX(NVRTC, "NVRTC is missing or did not compile the kernel")                 \
  XX(NO_DEVICE, "no CUDA device (or no driver) is present")                   \
  XX(CUDA_DRIVER, "the CUDA driver reported an error")                        \
  XX(INTERNAL, "internal error in cuemu")

/* The status codes: CUEMU_SUCCESS, CUEMU_INVALID_VALUE, ... */
typedef enum cuemu_status {
#define CUEMU_STATUS_ENUM_(name, msg) CUEMU_##name,
  CUEMU_STATUS_MAP(CUEMU_STATUS_ENUM_)
#undef CUEMU_STATUS_ENUM_
  CUEMU_STATUS_COUNT_
} cuemu_status;

/* The enumerator's name without its prefix ("DEADLOCK"); "UNKNOWN" for a
 * value outside the table. Host code, any thread. */
const char *cuemu_status_name(cuemu_status status);

/* A one-line description of the status. Host code, any thread. */
const char *cuemu_strerror(cuemu_status status);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_STATUS_H */
