/*
 * cuemu_external.h: libcuemu's side of CUDA's external memory and external
 * semaphores (cudaImportExternalMemory, cudaImportExternalSemaphore and
 * their calls; shims/cuda_builtins/cuemu_external_api.h forwards the CUDA
 * names here). No graphics API exists on an emulator: only the handle
 * types that make sense on a CPU are emulated, the opaque file
 * descriptors; every other type is cudaErrorNotSupported.
 *
 * External memory (cudaExternalMemoryHandleTypeOpaqueFd): the descriptor
 * is any file that can be mapped shared (a memfd, a POSIX shared-memory
 * object, a file) of at least `size` bytes. Importing takes the descriptor
 * over, as CUDA does (it is closed when the memory is destroyed). A mapped
 * buffer maps the file's bytes [offset, offset + size) into the process
 * as device memory of the current device; every importer of the same file
 * (another process that was given the descriptor, a forked child) sees the
 * same bytes. The buffer is released with cudaFree.
 *
 * External semaphores (cudaExternalSemaphoreHandleTypeOpaqueFd, a binary
 * semaphore, and ...TimelineSemaphoreFd): the descriptor is a file of at
 * least 16 bytes, zero when made, mapped shared; its first 8 bytes are the
 * semaphore's value (an unsigned 64-bit integer in the machine's byte
 * order) and the next 4 a sequence number that each signal increments
 * (futexes wait on it). A binary signal sets the value to 1, a binary wait
 * waits for a non-zero value and sets it back to 0; a timeline signal sets
 * the value to the one given (never lowering it), a timeline wait waits
 * until the value is at least the one given. Importers of the same file in
 * any process see each other's signals. Stream work runs when it is
 * issued, so a wait blocks the calling thread: after CUEMU_EXT_WAIT_SECONDS
 * (default 60) without the signal it gives up with cudaErrorTimeout and a
 * message, rather than hang.
 *
 * Every function returns a CUDA error code (a cudaError_t value); handles
 * are checked (a destroyed or made-up one is cudaErrorInvalidValue). Host
 * code, any thread.
 */
#ifndef CUEMU_EXTERNAL_H
#define CUEMU_EXTERNAL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cuemu_rt_external_memory cuemu_rt_external_memory;
typedef struct cuemu_rt_external_semaphore cuemu_rt_external_semaphore;

/* The handle types emulated (cudaExternalMemoryHandleType and
 * cudaExternalSemaphoreHandleType values). */
#define CUEMU_RT_EXTERNAL_MEMORY_OPAQUE_FD 1
#define CUEMU_RT_EXTERNAL_SEMAPHORE_OPAQUE_FD 1
#define CUEMU_RT_EXTERNAL_SEMAPHORE_TIMELINE_FD 9

/* cudaImportExternalMemory: `type` a cudaExternalMemoryHandleType; flags 0
 * or cudaExternalMemoryDedicated (1). */
int cuemu_rt_import_external_memory(cuemu_rt_external_memory **memory,
                                    int type, int fd, unsigned long long size,
                                    unsigned flags);
/* cudaExternalMemoryGetMappedBuffer: flags must be 0; the range must lie in
 * the imported size. */
int cuemu_rt_external_memory_get_mapped_buffer(
    void **ptr, cuemu_rt_external_memory *memory, unsigned long long offset,
    unsigned long long size, unsigned flags);
/* cudaDestroyExternalMemory: closes the descriptor; mapped buffers stay
 * until cudaFree, as in CUDA. */
int cuemu_rt_destroy_external_memory(cuemu_rt_external_memory *memory);

/* Called by cudaFree first: releases `ptr` when it is a mapped buffer and
 * returns cudaSuccess; -1 when it is none. */
int cuemu_rt_external_memory_free(void *ptr);

/* cudaImportExternalSemaphore: `type` a cudaExternalSemaphoreHandleType;
 * flags must be 0. */
int cuemu_rt_import_external_semaphore(cuemu_rt_external_semaphore **sem,
                                       int type, int fd, unsigned flags);
int cuemu_rt_destroy_external_semaphore(cuemu_rt_external_semaphore *sem);

/* cudaSignalExternalSemaphoresAsync / cudaWaitExternalSemaphoresAsync:
 * `n` semaphores with one value each (a timeline's; ignored for binary
 * ones), in order, at their place in `stream`: recorded as an external
 * semaphore node when the stream captures. */
int cuemu_rt_signal_external_semaphores(
    cuemu_rt_external_semaphore *const *sems,
    const unsigned long long *values, unsigned n, void *stream);
int cuemu_rt_wait_external_semaphores(cuemu_rt_external_semaphore *const *sems,
                                      const unsigned long long *values,
                                      unsigned n, void *stream);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_EXTERNAL_H */
