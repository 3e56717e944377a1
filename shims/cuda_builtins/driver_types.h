/*
 * driver_types.h: the types of CUDA's runtime API: cudaError_t (with CUDA's
 * numeric values), cudaMemcpyKind and the stream handle.
 *
 * helper_cuda.h-style helpers compile their error checks only when
 * __DRIVER_TYPES_H__ is defined, so this header defines it as CUDA's does.
 */
#ifndef __DRIVER_TYPES_H__
#define __DRIVER_TYPES_H__

/* CUDA's error codes: name, value, description. */
#define CUEMU_CUDA_ERROR_MAP(XX)                                               \
  XX(cudaSuccess, 0, "no error")                                               \
  XX(cudaErrorInvalidValue, 1, "invalid argument")                             \
  XX(cudaErrorMemoryAllocation, 2, "out of memory")                            \
  XX(cudaErrorInitializationError, 3, "initialization error")                  \
  XX(cudaErrorCudartUnloading, 4, "driver shutting down")                      \
  XX(cudaErrorInvalidConfiguration, 9, "invalid configuration argument")       \
  XX(cudaErrorInvalidPitchValue, 12, "invalid pitch argument")                 \
  XX(cudaErrorInvalidSymbol, 13, "invalid device symbol")                      \
  XX(cudaErrorInvalidDevicePointer, 17, "invalid device pointer")              \
  XX(cudaErrorInvalidMemcpyDirection, 21, "invalid copy direction for memcpy") \
  XX(cudaErrorMissingConfiguration, 52, "__global__ function call is not "     \
                                        "configured")                          \
  XX(cudaErrorInvalidDeviceFunction, 98, "invalid device function")            \
  XX(cudaErrorNoDevice, 100, "no CUDA-capable device is detected")             \
  XX(cudaErrorInvalidDevice, 101, "invalid device ordinal")                    \
  XX(cudaErrorInvalidKernelImage, 200, "device kernel image is invalid")       \
  XX(cudaErrorInvalidResourceHandle, 400, "invalid resource handle")           \
  XX(cudaErrorNotReady, 600, "device not ready")                               \
  XX(cudaErrorIllegalAddress, 700, "an illegal memory access was encountered") \
  XX(cudaErrorLaunchOutOfResources, 701, "too many resources requested for "   \
                                         "launch")                             \
  XX(cudaErrorLaunchTimeout, 702, "the launch timed out and was terminated")   \
  XX(cudaErrorHardwareStackError, 714, "hardware stack error")                 \
  XX(cudaErrorIllegalInstruction, 715, "an illegal instruction was "           \
                                       "encountered")                          \
  XX(cudaErrorMisalignedAddress, 716, "misaligned address")                    \
  XX(cudaErrorAssert, 710, "device-side assert triggered")                     \
  XX(cudaErrorLaunchFailure, 719, "unspecified launch failure")                \
  XX(cudaErrorNotSupported, 801, "operation not supported")                    \
  XX(cudaErrorUnknown, 999, "unknown error")

enum cudaError {
#define CUEMU_CUDA_ERROR_ENUM_(name, value, text) name = value,
  CUEMU_CUDA_ERROR_MAP(CUEMU_CUDA_ERROR_ENUM_)
#undef CUEMU_CUDA_ERROR_ENUM_
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};

#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
#define cudaMemAttachSingle 0x04

typedef struct CUstream_st *cudaStream_t;

#endif /* __DRIVER_TYPES_H__ */
