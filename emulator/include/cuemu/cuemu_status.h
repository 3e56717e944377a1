/*
 * cuemu_status.h: the single table of statuses returned by libcuemu.
 *
 * Every function of libcuemu that can fail returns a cuemu_status; zero is
 * success. The table below generates the enum, cuemu_status_name(),
 * cuemu_strerror(), the CUDA errors a status becomes and whether it is
 * sticky; add a status here and nowhere else.
 *
 * CUEMU_STATUS_MAP(XX) calls XX(name, description, runtime, driver, kind),
 * name being the whole enumerator (CUEMU_TRAP), so that no bare word of the
 * table can be broken by a user's macro; cuemu_status_name() drops the
 * prefix ("TRAP"):
 *
 * - runtime: the cudaError_t (cuemu_rt_errors.h) a CUDA program gets where
 *   the emulator reports this status: a launch's error, cudaGetLastError().
 * - driver: the CUresult (cuemu_driver_errors.h) of the same condition, as
 *   the driver API (and CuPy, whose kernels run through it) reports it. The
 *   two differ where CUDA's two APIs differ: a bad launch configuration is
 *   cudaErrorInvalidConfiguration for the runtime but CUDA_ERROR_INVALID_VALUE
 *   for cuLaunchKernel.
 * - kind: STICKY for an execution error, one that happens while a kernel
 *   runs and corrupts the CUDA context on a GPU (cudaErrorIllegalAddress,
 *   cudaErrorAssert, ...): every later call that works with the device
 *   returns it, until cudaDeviceReset(). CALL for every other status: the
 *   error belongs to the call that returned it (a launch configuration
 *   error such as cudaErrorInvalidConfiguration, a missing kernel, ...).
 *
 * Where CUDA can detect the condition, the columns say what CUDA reports,
 * with the reason beside the row. Where the condition is one that only the
 * emulator detects (a GPU would hang or compute garbage), they say what a
 * CUDA program would see closest to it. Statuses that have no CUDA
 * counterpart at all (a parity mismatch, a host compiler's failure) become
 * cudaErrorUnknown and CUDA_ERROR_UNKNOWN.
 */
#ifndef CUEMU_STATUS_H
#define CUEMU_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

/* clang-format off */
#define CUEMU_STATUS_MAP(XX)                                                   \
  XX(CUEMU_SUCCESS, "no error",                                                      \
     cudaSuccess, CUDA_SUCCESS, CALL)                                          \
  XX(CUEMU_INVALID_VALUE, "an argument is invalid",                                  \
     cudaErrorInvalidValue, CUDA_ERROR_INVALID_VALUE, CALL)                    \
  XX(CUEMU_OUT_OF_MEMORY, "out of memory",                                           \
     cudaErrorMemoryAllocation, CUDA_ERROR_OUT_OF_MEMORY, CALL)                \
  /* A file could not be read or written: an OS call failed. */               \
  XX(CUEMU_IO_ERROR, "a file could not be read or written",                          \
     cudaErrorOperatingSystem, CUDA_ERROR_OPERATING_SYSTEM, CALL)              \
  /* cuModuleLoad of a file that is not a loadable image. */                   \
  XX(CUEMU_MODULE_LOAD, "the module could not be loaded",                            \
     cudaErrorInvalidKernelImage, CUDA_ERROR_INVALID_IMAGE, CALL)              \
  /* A module built for another cuemu is like a cubin for another GPU: the */ \
  /* image holds no code for this device. */                                   \
  XX(CUEMU_MODULE_VERSION, "the module was built for another version of cuemu",      \
     cudaErrorNoKernelImageForDevice, CUDA_ERROR_NO_BINARY_FOR_GPU, CALL)      \
  /* A kernel built for another GPU (-arch=sm_100a on the emulated sm_90). */ \
  XX(CUEMU_KERNEL_IMAGE, "no kernel image is available for execution on the device", \
     cudaErrorNoKernelImageForDevice, CUDA_ERROR_NO_BINARY_FOR_GPU, CALL)      \
  /* cuModuleGetFunction gives CUDA_ERROR_NOT_FOUND; a runtime launch of */    \
  /* something that is not a kernel gives cudaErrorInvalidDeviceFunction. */   \
  XX(CUEMU_KERNEL_NOT_FOUND, "no kernel of that name in the module",                 \
     cudaErrorInvalidDeviceFunction, CUDA_ERROR_NOT_FOUND, CALL)               \
  /* Launch shapes past the device's limits: cudaErrorInvalidConfiguration */  \
  /* from the runtime, CUDA_ERROR_INVALID_VALUE from cuLaunchKernel. */        \
  XX(CUEMU_INVALID_GRID_DIM, "a grid dimension is zero or past CUDA's limits",       \
     cudaErrorInvalidConfiguration, CUDA_ERROR_INVALID_VALUE, CALL)            \
  XX(CUEMU_INVALID_BLOCK_DIM, "a block dimension is zero or past CUDA's limits",     \
     cudaErrorInvalidConfiguration, CUDA_ERROR_INVALID_VALUE, CALL)            \
  XX(CUEMU_TOO_MANY_THREADS, "more threads per block than the device allows",        \
     cudaErrorInvalidConfiguration, CUDA_ERROR_INVALID_VALUE, CALL)            \
  /* A block within the device's limit but past the kernel's */                \
  /* __launch_bounds__: the kernel was compiled (registers allotted) for */    \
  /* fewer threads, and CUDA refuses the launch for lack of resources. */      \
  XX(CUEMU_LAUNCH_BOUNDS, "more threads per block than the kernel's "                \
     "__launch_bounds__ allow",                                                \
     cudaErrorLaunchOutOfResources, CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, CALL)  \
  /* More dynamic shared memory than cudaFuncAttributeMaxDynamicShared- */     \
  /* MemorySize allows is refused as an invalid argument of the launch. */     \
  XX(CUEMU_SHARED_MEMORY_LIMIT, "dynamic shared memory above the kernel's limit",    \
     cudaErrorInvalidValue, CUDA_ERROR_INVALID_VALUE, CALL)                    \
  XX(CUEMU_ARGUMENT_COUNT, "wrong number of kernel arguments",                       \
     cudaErrorInvalidValue, CUDA_ERROR_INVALID_VALUE, CALL)                    \
  /* Undefined behaviour on a GPU (it hangs or misbehaves); the emulator */    \
  /* stops the kernel, which CUDA calls an unspecified launch failure. */      \
  XX(CUEMU_DIVERGENT_BARRIER, "threads of a block wait at different barriers",       \
     cudaErrorLaunchFailure, CUDA_ERROR_LAUNCH_FAILED, STICKY)                 \
  /* A GPU would spin until the watchdog (where one is enabled) ends the */    \
  /* kernel with cudaErrorLaunchTimeout, which the emulator reports now. */    \
  XX(CUEMU_DEADLOCK, "no thread of the block can make progress",                     \
     cudaErrorLaunchTimeout, CUDA_ERROR_LAUNCH_TIMEOUT, STICKY)                \
  /* A warp collective whose mask is wrong is undefined on a GPU; the */       \
  /* emulator stops the kernel (an unspecified launch failure). */             \
  XX(CUEMU_WARP_MISUSE, "a warp collective was misused (mask, exited or absent "     \
     "lanes)",                                                                 \
     cudaErrorLaunchFailure, CUDA_ERROR_LAUNCH_FAILED, STICKY)                 \
  /* driver_types.h: cudaErrorHardwareStackError is "an error in the call */   \
  /* stack during kernel execution, possibly due to stack corruption or */     \
  /* exceeding the stack size limit". */                                       \
  XX(CUEMU_STACK_OVERFLOW, "a thread overflowed its stack",                          \
     cudaErrorHardwareStackError, CUDA_ERROR_HARDWARE_STACK_ERROR, STICKY)     \
  /* The host ran out of memory for the threads' stacks or the shared */      \
  /* memory of blocks while the launch ran, so some blocks ran and some */   \
  /* did not: a GPU refuses such a launch before it runs */                  \
  /* (cudaErrorLaunchOutOfResources); here it is an execution error, so */   \
  /* that the synchronisation reports it too. */                              \
  XX(CUEMU_LAUNCH_RESOURCES, "memory for the launch's threads ran out while it "    \
     "ran",                                                                    \
     cudaErrorLaunchOutOfResources, CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES,        \
     STICKY)                                                                   \
  XX(CUEMU_KERNEL_FAULT, "a kernel thread faulted (invalid memory access)",          \
     cudaErrorIllegalAddress, CUDA_ERROR_ILLEGAL_ADDRESS, STICKY)              \
  XX(CUEMU_ASSERT, "a device-side assertion failed",                                 \
     cudaErrorAssert, CUDA_ERROR_ASSERT, STICKY)                               \
  /* __trap() executes PTX trap, which the GPU reports as an illegal */        \
  /* instruction (not as an unspecified launch failure). */                    \
  XX(CUEMU_TRAP, "a kernel executed __trap()",                                       \
     cudaErrorIllegalInstruction, CUDA_ERROR_ILLEGAL_INSTRUCTION, STICKY)      \
  XX(CUEMU_COMPILE, "the kernel source did not compile",                             \
     cudaErrorInvalidSource, CUDA_ERROR_INVALID_SOURCE, CALL)                  \
  /* The cache is files: an OS call failed. */                                 \
  XX(CUEMU_CACHE, "the compile cache could not be used",                             \
     cudaErrorOperatingSystem, CUDA_ERROR_OPERATING_SYSTEM, CALL)              \
  XX(CUEMU_NOT_SUPPORTED, "the operation is not supported",                          \
     cudaErrorNotSupported, CUDA_ERROR_NOT_SUPPORTED, CALL)                    \
  XX(CUEMU_COOPERATIVE_TOO_LARGE, "more blocks than can be resident at once",        \
     cudaErrorCooperativeLaunchTooLarge,                                       \
     CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, CALL)                            \
  /* CUDA's grid_group::sync() calls __trap() when the launch was not */       \
  /* cooperative (cooperative_groups.h, _CG_ABORT): an illegal instruction. */ \
  XX(CUEMU_GRID_SYNC, "grid.sync() outside a cooperative launch",                    \
     cudaErrorIllegalInstruction, CUDA_ERROR_ILLEGAL_INSTRUCTION, STICKY)      \
  XX(CUEMU_INVALID_HANDLE, "a stream or event handle is not valid",                  \
     cudaErrorInvalidResourceHandle, CUDA_ERROR_INVALID_HANDLE, CALL)          \
  /* Under compute-sanitizer, a kernel with a reported error is stopped and */ \
  /* the next call returns cudaErrorLaunchFailure, sticky. */                  \
  XX(CUEMU_CHECK_REPORT, "a checker reported an error in the kernel",                \
     cudaErrorLaunchFailure, CUDA_ERROR_LAUNCH_FAILED, STICKY)                 \
  XX(CUEMU_CASE_INVALID, "a parity case is malformed or does not match its kernel",  \
     cudaErrorInvalidValue, CUDA_ERROR_INVALID_VALUE, CALL)                    \
  XX(CUEMU_HOST_COMPILE, "the host implementation did not compile",                  \
     cudaErrorUnknown, CUDA_ERROR_UNKNOWN, CALL)                               \
  XX(CUEMU_HOST_FAULT, "the host implementation faulted or wrote out of bounds",    \
     cudaErrorUnknown, CUDA_ERROR_UNKNOWN, CALL)                               \
  XX(CUEMU_MISMATCH, "outputs differ beyond the case's tolerance",                   \
     cudaErrorUnknown, CUDA_ERROR_UNKNOWN, CALL)                               \
  /* NVRTC's own result is in the status's message. */                         \
  XX(CUEMU_NVRTC, "NVRTC is missing or did not compile the kernel",                  \
     cudaErrorUnknown, CUDA_ERROR_UNKNOWN, CALL)                               \
  XX(CUEMU_NO_DEVICE, "no CUDA device (or no driver) is present",                    \
     cudaErrorNoDevice, CUDA_ERROR_NO_DEVICE, CALL)                            \
  /* The driver's own code is in the status's message. */                      \
  XX(CUEMU_CUDA_DRIVER, "the CUDA driver reported an error",                         \
     cudaErrorUnknown, CUDA_ERROR_UNKNOWN, CALL)                               \
  XX(CUEMU_INTERNAL, "internal error in cuemu",                                      \
     cudaErrorUnknown, CUDA_ERROR_UNKNOWN, CALL)                               \
  /* A cluster that does not divide the grid or is too large (CUDA). */       \
  XX(CUEMU_CLUSTER_SIZE, "a thread block cluster is misconfigured",                 \
     cudaErrorInvalidClusterSize, CUDA_ERROR_INVALID_CLUSTER_SIZE, CALL)        \
  /* An atomic or a vector access at an address that is not a multiple of */  \
  /* its size: the GPU's memory unit faults. */                               \
  XX(CUEMU_MISALIGNED_ADDRESS, "a kernel thread accessed a misaligned address",     \
     cudaErrorMisalignedAddress, CUDA_ERROR_MISALIGNED_ADDRESS, STICKY)        \
  /* A kernel thread's instruction the processor refused (SIGILL: */          \
  /* __builtin_trap(), which nvcc makes a PTX trap, as __trap()). */           \
  XX(CUEMU_ILLEGAL_INSTRUCTION, "a kernel thread executed an illegal instruction",  \
     cudaErrorIllegalInstruction, CUDA_ERROR_ILLEGAL_INSTRUCTION, STICKY)      \
  /* A kernel thread's fault that a GPU has no kind for (an arithmetic */     \
  /* exception other than an emulated integer division): "unspecified */     \
  /* launch failure". */                                                       \
  XX(CUEMU_LAUNCH_FAILED, "a kernel thread failed (an arithmetic exception)",       \
     cudaErrorLaunchFailure, CUDA_ERROR_LAUNCH_FAILED, STICKY)                 \
  /* PTX whose .target is newer than the device (nvcc -ptx -arch=compute_100 */ \
  /* loaded on sm_90): the driver's JIT compile fails, as ptxas says. */       \
  XX(CUEMU_PTX_TARGET, "the PTX's target is newer than the device",             \
     cudaErrorInvalidPtx, CUDA_ERROR_INVALID_PTX, CALL)                        \
  /* NVIDIA PTX text that cuemu's JIT (cuemu_ptx_module.c, NVRTC) could */    \
  /* not translate or compile: the driver's JIT compile fails. */             \
  XX(CUEMU_PTX_JIT, "a PTX JIT compilation failed",                             \
     cudaErrorInvalidPtx, CUDA_ERROR_INVALID_PTX, CALL)
/* clang-format on */

/* The status codes: CUEMU_SUCCESS, CUEMU_INVALID_VALUE, ... */
typedef enum cuemu_status {
#define CUEMU_STATUS_ENUM_(name, msg, runtime, driver, kind) name,
  CUEMU_STATUS_MAP(CUEMU_STATUS_ENUM_)
#undef CUEMU_STATUS_ENUM_
  CUEMU_STATUS_COUNT_
} cuemu_status;

/* The enumerator's name without its prefix ("DEADLOCK"); "UNKNOWN" for a
 * value outside the table. Host code, any thread. */
const char *cuemu_status_name(cuemu_status status);

/* A one-line description of the status. Host code, any thread. */
const char *cuemu_strerror(cuemu_status status);

/* The CUDA runtime error (a cudaError_t value) that the status becomes;
 * cudaErrorUnknown (999) for a value outside the table. Host code, any
 * thread. */
int cuemu_status_cuda_error(cuemu_status status);

/* The CUDA driver error (a CUresult value) that the status becomes;
 * CUDA_ERROR_UNKNOWN (999) for a value outside the table. Host code, any
 * thread. */
int cuemu_status_driver_error(cuemu_status status);

/* Non-zero when the status is an execution error, which CUDA makes sticky
 * (see the table's kind column); 0 for every other status and for a value
 * outside the table. Host code, any thread. */
int cuemu_status_is_sticky(cuemu_status status);

/* cuGetErrorName and cuGetErrorString of a CUresult value ("CUDA_ERROR_
 * ILLEGAL_ADDRESS", "an illegal memory access was encountered"); NULL for
 * a value that CUDA does not have, as the driver's calls leave *pStr NULL
 * and return CUDA_ERROR_INVALID_VALUE. Host code, any thread. */
const char *cuemu_driver_error_name(int code);
const char *cuemu_driver_error_string(int code);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_STATUS_H */
