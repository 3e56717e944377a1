/*
 * cuemu_runtime.h: libcuemu's side of the CUDA runtime API of whole
 * programs. shims/cuda_builtins/cuda_runtime_api.h forwards each CUDA call
 * to a cuemu_rt_* function declared here (or in the headers it includes);
 * they return CUDA's error codes (cudaError_t values) as int.
 *
 * Errors: every call that fails records its code as the calling host
 * thread's last error (cudaGetLastError); an execution error of a kernel
 * (fault, assert, trap, ...) is also "sticky": from then on every call
 * returns it, as CUDA does after a kernel fault.
 */
#ifndef CUEMU_RUNTIME_H
#define CUEMU_RUNTIME_H

#ifdef __cplusplus
extern "C" {
#endif

/* Records `code` (when it is not 0) as the calling thread's last error and
 * returns it, so that a failing call can end with `return
 * cuemu_rt_error(code)`. Any thread. */
int cuemu_rt_error(int code);

/* The sticky execution error (0 when none). */
int cuemu_rt_sticky(void);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_RUNTIME_H */
