/*
 * cuemu_runtime.h: libcuemu's side of the CUDA runtime API of whole
 * programs. shims/cuda_builtins/cuda_runtime_api.h forwards each CUDA call
 * to a cuemu_rt_* function declared here (or in the headers it includes);
 * they return CUDA's error codes (cudaError_t values) as int. The CUDA types
 * they take are in cuemu_rt_types.h.
 *
 * Errors: every call that fails records its code as the calling host
 * thread's last error (cudaGetLastError); an execution error of a kernel
 * (fault, assert, trap, ...) is also "sticky": from then on every call that
 * works with the device (memory, copies, synchronization, cudaSetDevice)
 * returns it, as CUDA does after a kernel fault, until cudaDeviceReset.
 * Calls that only describe the installation (cudaGetDeviceCount,
 * cudaGetDevice, cudaGetDeviceProperties, cudaDeviceGetAttribute, the
 * versions, the error names) still work.
 *
 * The emulated device is device 0 of 1, of compute capability 9.0 with 8
 * SMs unless CUEMU_DEVICE says otherwise, e.g. CUEMU_DEVICE="sm=80,sms=4"
 * (keys: sm = compute capability as major*10+minor, sms = SM count, mem =
 * global memory in MiB; CUEMU_SM_COUNT also sets the SM count).
 *
 * Memory: every allocation (cudaMalloc, cudaMallocManaged, cudaMallocPitch,
 * cudaMallocHost, cudaHostAlloc, cudaHostRegister) is tracked with its
 * base, size, kind and state, so that a copy, set or free through a pointer
 * that is not an allocation (or past its end), a double free and a copy of
 * the wrong kind fail with CUDA's code (cudaErrorInvalidValue) and touch
 * nothing. Plain host memory is fine wherever a host pointer is expected,
 * and kernels may receive any pointer. A blocking copy is done when it
 * returns; an ...Async copy runs in its stream's order
 * (cuemu_runtime_streams.h).
 */
#ifndef CUEMU_RUNTIME_H
#define CUEMU_RUNTIME_H

#include <stddef.h>

#include <cuemu/cuemu_rt_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Errors (emulator/runtime/cuemu_rt_error.c). */

/* Records `code` (when it is not 0, nor cudaErrorNotReady, which is a
 * status and not an error) as the calling thread's last error and
 * returns it, so that a failing call can end with `return
 * cuemu_rt_error(code)`. Any thread. */
int cuemu_rt_error(int code);

/* The sticky execution error (0 when none). */
int cuemu_rt_sticky(void);

/* cudaGetLastError: returns the calling thread's last error and resets it
 * (to the sticky error, which cannot be reset). */
int cuemu_rt_get_last_error(void);

/* cudaPeekAtLastError: the last error, left as it is. */
int cuemu_rt_peek_last_error(void);

/* cudaGetErrorName and cudaGetErrorString; both give "unrecognized error
 * code" for a code CUDA does not have, as CUDA does. */
const char *cuemu_rt_error_name(int code);
const char *cuemu_rt_error_string(int code);

/* Records the outcome of a launch (a cuemu status) and returns its CUDA
 * error code (cuemu_status_cuda_error): a configuration error becomes the
 * last error; an execution error (cuemu_status_is_sticky) also becomes
 * sticky. */
int cuemu_rt_record_launch_status(int status);

/* Records a fault of work that a library of cuemu (its cuBLAS,
 * emulator/libs) runs on a stream in place of a GPU kernel, such as a
 * matrix argument that is not device memory: `message` (naming the
 * function and the argument) becomes the calling thread's cuemu message
 * and is printed as a launch failure is (unless CUEMU_QUIET=1), and
 * `status`, the kind of fault (a cuemu_status: CUEMU_KERNEL_FAULT for an
 * invalid address, CUEMU_MISALIGNED_ADDRESS for a pointer not aligned to
 * its element type), becomes the sticky error, as after a GPU kernel's
 * fault of that kind (cudaErrorIllegalAddress, cudaErrorMisalignedAddress).
 * A status that is not an execution error (cuemu_status_is_sticky) is
 * taken as CUEMU_KERNEL_FAULT. Returns the CUDA error recorded. Host
 * code. */
int cuemu_rt_library_fault(int status, const char *message);

/* Records that work a library of cuemu runs on a stream in place of a GPU
 * kernel (cuRAND's generation, cuBLAS's results, ...) wrote the `bytes`
 * bytes at `p`, as a kernel's stores would: initcheck then takes them as
 * initialised, and a kernel that reads them is not reported
 * (docs/checkers.md). Memory that is no allocation is ignored. Host code,
 * called where the library writes (in its stream's order). */
void cuemu_rt_library_wrote(void *p, size_t bytes);

/* The driver's error log (cudaLogs* and cuLogs*, CUDA 12.9;
 * emulator/base/cuemu_error_log.c). The messages logged are those of the
 * errors that cuemu prints (a launch that failed, a library's fault) and
 * of launches refused, at cudaLogLevelError; the last 25,600 bytes are
 * kept, each message ending with a newline. Each call returns
 * cudaSuccess (CUDA_SUCCESS) or cudaErrorInvalidValue
 * (CUDA_ERROR_INVALID_VALUE): a NULL callback, an unknown handle, flags
 * other than 0, no output. A callback (level, message, its length) is
 * called on the thread that met the error, as the error is logged. An
 * iterator is the number of the next message (cudaLogsCurrent); a dump
 * starts at *iterator (all the kept messages when iterator is NULL) and
 * advances it past what it wrote; a dump whose first messages were dropped
 * starts with a line saying so. cudaLogsDumpToMemory writes the most
 * recent messages that fit in *size bytes with the NUL, sets *size to the
 * bytes written (0 and success when there is nothing to dump; 0 and
 * cudaErrorInvalidValue when no message fits); cudaLogsDumpToFile appends
 * to the file (cudaErrorInvalidValue when it cannot). Host code. */
typedef void (*cuemu_rt_logs_callback)(void *data, int level, char *message,
                                       size_t length);
int cuemu_rt_logs_register_callback(cuemu_rt_logs_callback fn, void *data,
                                    void **handle);
int cuemu_rt_logs_unregister_callback(void *handle);
int cuemu_rt_logs_current(unsigned *iterator, unsigned flags);
int cuemu_rt_logs_dump_to_memory(unsigned *iterator, char *buffer,
                                 size_t *size, unsigned flags);
int cuemu_rt_logs_dump_to_file(unsigned *iterator, const char *path,
                               unsigned flags);

/* cudaDeviceRegisterAsyncNotification and its Unregister (and cuDevice's):
 * the only notification CUDA 13 sends is that the process went over its
 * device memory budget, which a device whose memory is the host's never
 * has; a callback is kept (and never called) until unregistered.
 * cudaErrorInvalidDevice for a device that does not exist,
 * cudaErrorInvalidValue for a NULL callback or handle, or a handle not
 * registered on that device. Host code
 * (emulator/runtime/cuemu_rt_notification.c). */
int cuemu_rt_device_register_async_notification(int device, void *callback,
                                                void *data, void **handle);
int cuemu_rt_device_unregister_async_notification(int device, void *handle);

/* cudaSetValidDevices: the devices, in order, that a thread which has not
 * chosen one (cudaSetDevice) uses; every emulated device works, so that is
 * the first of them (device 0 again when len is 0).
 * cudaErrorInvalidValue for a negative len, a NULL list with len > 0 or a
 * len above the device count; cudaErrorInvalidDevice for a device that
 * does not exist. */
int cuemu_rt_set_valid_devices(const int *__cuemu_devices, int __cuemu_len);

/* Device management (emulator/runtime/cuemu_rt_device.c). */
int cuemu_rt_get_device_count(int *count);
int cuemu_rt_set_device(int device);
int cuemu_rt_get_device(int *device);
int cuemu_rt_set_device_flags(unsigned flags);
int cuemu_rt_get_device_flags(unsigned *flags);
/* Frees every allocation, clears the sticky error and the calling thread's
 * last error. */
int cuemu_rt_device_reset(void);
/* Waits for the device's work (every stream of the current device);
 * returns the sticky error, or the first error a queued operation ended
 * with. */
int cuemu_rt_device_synchronize(void);
/* cudaDeviceFlushGPUDirectRDMAWrites: `target` a
 * cudaFlushGPUDirectRDMAWritesTarget, `scope` a
 * cudaFlushGPUDirectRDMAWritesScope (else cudaErrorInvalidValue). Remote
 * writes to host memory need no flush: success, or the sticky error. */
int cuemu_rt_device_flush_rdma_writes(int target, int scope);
/* cudaDeviceSetLimit / cudaDeviceGetLimit: limit is a cudaLimit value;
 * cudaErrorUnsupportedLimit for another, cudaErrorInvalidValue for a NULL
 * output or a printf FIFO size set after a kernel printed. */
int cuemu_rt_device_set_limit(int limit, size_t value);
int cuemu_rt_device_get_limit(size_t *value, int limit);
int cuemu_rt_get_device_properties(struct cudaDeviceProp *prop, int device);
int cuemu_rt_device_get_attribute(int *value, int attr, int device);
int cuemu_rt_driver_get_version(int *version);
int cuemu_rt_runtime_get_version(int *version);
int cuemu_rt_mem_get_info(size_t *free_bytes, size_t *total_bytes);
/* The emulated SM count (CUEMU_DEVICE's sms, else CUEMU_SM_COUNT, else 8). */
unsigned cuemu_rt_sm_count(void);

/* The emulated device's per-block limits: threads per block (CUEMU_DEVICE
 * threads=, default 1024) and dynamic shared memory a kernel may opt in to
 * (smem= in KiB, default 227). Launches are checked against them. */
unsigned cuemu_rt_max_threads_per_block(void);
size_t cuemu_rt_max_shared_optin(void);
int cuemu_rt_profiler_start(void);
int cuemu_rt_profiler_stop(void);

/* Memory (emulator/runtime/cuemu_rt_memory.c). */

/* The kinds of tracked memory. */
enum cuemu_rt_memory_kind {
  CUEMU_RT_MEMORY_DEVICE = 1,     /* cudaMalloc, cudaMallocPitch */
  CUEMU_RT_MEMORY_MANAGED = 2,    /* cudaMallocManaged */
  CUEMU_RT_MEMORY_HOST = 3,       /* cudaMallocHost, cudaHostAlloc */
  CUEMU_RT_MEMORY_REGISTERED = 4, /* cudaHostRegister */
  CUEMU_RT_MEMORY_SYMBOL = 5      /* a __device__ or __constant__ variable */
};

/* The states of a tracked allocation. */
enum cuemu_rt_memory_state {
  CUEMU_RT_MEMORY_LIVE = 1,
  CUEMU_RT_MEMORY_FREED = 2 /* remembered until its range is reused */
};

/* One tracked allocation. */
typedef struct cuemu_rt_allocation {
  void *base;
  size_t size;
  int kind;  /* enum cuemu_rt_memory_kind */
  int state; /* enum cuemu_rt_memory_state */
  unsigned flags; /* the call's flags; device memory keeps its device in
                   * the bits above CUEMU_RT_MEMORY_DEVICE_SHIFT */
} cuemu_rt_allocation;

/* Where device memory (cudaMalloc, cudaMallocPitch) keeps the device it
 * was allocated on, in its flags. */
#define CUEMU_RT_MEMORY_DEVICE_SHIFT 24

/* The flag of a CUEMU_RT_MEMORY_SYMBOL range that is a __managed__
 * variable: managed memory to cudaPointerGetAttributes and the driver's
 * pointer attributes, as on the GPU. */
#define CUEMU_RT_MEMORY_SYMBOL_MANAGED 1u

/* Non-zero for managed memory: cudaMallocManaged's, or a __managed__
 * variable. */
static inline int cuemu_rt_allocation_managed(const cuemu_rt_allocation *a) {
  return a->kind == CUEMU_RT_MEMORY_MANAGED ||
         (a->kind == CUEMU_RT_MEMORY_SYMBOL &&
          (a->flags & CUEMU_RT_MEMORY_SYMBOL_MANAGED));
}

/* Finds the allocation that holds `p` (live, or freed and not reused):
 * returns 1 and fills *out, or 0. */
int cuemu_rt_memory_find(const void *p, cuemu_rt_allocation *__cuemu_out);

/* Tracks [base, base + size) as device-accessible memory of `kind` that
 * libcuemu did not allocate (e.g. CUEMU_RT_MEMORY_SYMBOL for a __device__
 * variable, so that copies to it are accepted). Returns a CUDA code. */
int cuemu_rt_memory_track(void *base, size_t size, int kind);
/* Forgets a range given to cuemu_rt_memory_track. */
int cuemu_rt_memory_untrack(void *base);

/* What cuemu-cc's note after a __managed__ variable's definition calls
 * when the program or module is loaded (CUEMU_MANAGED_NOTE,
 * cuemu_qualifiers.h), and when it is unloaded: tracks the variable as
 * managed memory (a CUEMU_RT_MEMORY_SYMBOL range with the flag
 * CUEMU_RT_MEMORY_SYMBOL_MANAGED) unless it is tracked already, and
 * returns 1 when it did; forgets a range it tracked. Sets no error. */
int cuemu_managed_register(const void *p, size_t size);
void cuemu_managed_unregister(const void *p);

int cuemu_rt_malloc(void **ptr, size_t size);
int cuemu_rt_malloc_managed(void **ptr, size_t size, unsigned flags);
int cuemu_rt_malloc_pitch(void **ptr, size_t *pitch, size_t width,
                          size_t height);
int cuemu_rt_free(void *ptr);
int cuemu_rt_host_alloc(void **ptr, size_t size, unsigned flags);
int cuemu_rt_free_host(void *ptr);
int cuemu_rt_host_register(void *ptr, size_t size, unsigned flags);
int cuemu_rt_host_unregister(void *ptr);
int cuemu_rt_host_get_device_pointer(void **device_ptr, void *host_ptr,
                                     unsigned flags);
int cuemu_rt_memcpy(void *dst, const void *src, size_t count, int kind);
int cuemu_rt_memcpy_2d(void *dst, size_t dpitch, const void *src,
                       size_t spitch, size_t width, size_t height, int kind);
int cuemu_rt_memset(void *ptr, int value, size_t count);
int cuemu_rt_memset_2d(void *ptr, size_t pitch, int value, size_t width,
                       size_t height);
int cuemu_rt_pointer_get_attributes(struct cudaPointerAttributes *attributes,
                                    const void *ptr);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_RUNTIME_H */
