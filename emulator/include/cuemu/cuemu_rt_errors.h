/*
 * cuemu_rt_errors.h: CUDA's runtime error codes, one table:
 * CUEMU_RT_ERROR_MAP(XX) calls XX(name, value, description) for every
 * cudaError_t code of CUDA 13 with CUDA's numeric value and the text
 * cudaGetErrorString gives. The enum (cuemu_rt_types.h) and the name and
 * string look-ups (emulator/runtime/cuemu_rt_error.c) are made from it.
 */
#ifndef CUEMU_RT_ERRORS_H
#define CUEMU_RT_ERRORS_H

#define CUEMU_RT_ERROR_MAP(XX)                                                 \
  XX(cudaSuccess, 0, "no error")                                               \
  XX(cudaErrorInvalidValue, 1, "invalid argument")                             \
  XX(cudaErrorMemoryAllocation, 2, "out of memory")                            \
  XX(cudaErrorInitializationError, 3, "initialization error")                  \
  XX(cudaErrorCudartUnloading, 4, "driver shutting down")                      \
  XX(cudaErrorProfilerDisabled, 5,                                             \
     "profiler disabled while using external profiling tool")                  \
  XX(cudaErrorProfilerNotInitialized, 6,                                       \
     "profiler not initialized: call cudaProfilerInitialize()")                \
  XX(cudaErrorProfilerAlreadyStarted, 7, "profiler already started")           \
  XX(cudaErrorProfilerAlreadyStopped, 8, "profiler already stopped")           \
  XX(cudaErrorInvalidConfiguration, 9, "invalid configuration argument")       \
  XX(cudaErrorInvalidPitchValue, 12, "invalid pitch argument")                 \
  XX(cudaErrorInvalidSymbol, 13, "invalid device symbol")                      \
  XX(cudaErrorInvalidHostPointer, 16, "invalid host pointer")                  \
  XX(cudaErrorInvalidDevicePointer, 17, "invalid device pointer")              \
  XX(cudaErrorInvalidTexture, 18, "invalid texture reference")                 \
  XX(cudaErrorInvalidTextureBinding, 19, "texture is not bound to a pointer")  \
  XX(cudaErrorInvalidChannelDescriptor, 20, "invalid channel descriptor")      \
  XX(cudaErrorInvalidMemcpyDirection, 21, "invalid copy direction for memcpy") \
  XX(cudaErrorAddressOfConstant, 22, "invalid address of constant")            \
  XX(cudaErrorTextureFetchFailed, 23, "fetch from texture failed")             \
  XX(cudaErrorTextureNotBound, 24,                                             \
     "cannot fetch from a texture that is not bound")                          \
  XX(cudaErrorSynchronizationError, 25, "incorrect use of __syncthreads()")    \
  XX(cudaErrorInvalidFilterSetting, 26,                                        \
     "linear filtering not supported for non-float type")                      \
  XX(cudaErrorInvalidNormSetting, 27,                                          \
     "read as normalized float not supported for 32-bit non float type")       \
  XX(cudaErrorMixedDeviceExecution, 28,                                        \
     "device emulation mode and device execution mode cannot be mixed")        \
  XX(cudaErrorNotYetImplemented, 31, "feature not yet implemented")            \
  XX(cudaErrorMemoryValueTooLarge, 32,                                         \
     "memory size or pointer value too large to fit in 32 bit")                \
  XX(cudaErrorStubLibrary, 34, "CUDA driver is a stub library")                \
  XX(cudaErrorInsufficientDriver, 35,                                          \
     "CUDA driver version is insufficient for CUDA runtime version")           \
  XX(cudaErrorCallRequiresNewerDriver, 36,                                     \
     "API call is not supported in the installed CUDA driver")                 \
  XX(cudaErrorInvalidSurface, 37, "invalid surface reference")                 \
  XX(cudaErrorDuplicateVariableName, 43,                                       \
     "duplicate global variable looked up by string name")                     \
  XX(cudaErrorDuplicateTextureName, 44,                                        \
     "duplicate texture looked up by string name")                             \
  XX(cudaErrorDuplicateSurfaceName, 45,                                        \
     "duplicate surface looked up by string name")                             \
  XX(cudaErrorDevicesUnavailable, 46,                                          \
     "CUDA-capable device(s) is/are busy or unavailable")                      \
  XX(cudaErrorIncompatibleDriverContext, 49, "incompatible driver context")    \
  XX(cudaErrorMissingConfiguration, 52,                                        \
     "__global__ function call is not configured")                             \
  XX(cudaErrorPriorLaunchFailure, 53,                                          \
     "unspecified launch failure in prior launch")                             \
  XX(cudaErrorLaunchMaxDepthExceeded, 65,                                      \
     "launch would exceed maximum depth of nested launches")                   \
  XX(cudaErrorLaunchFileScopedTex, 66,                                         \
     "launch failed because kernel uses unsupported, file-scoped textures "    \
     "(texture objects are supported)")                                        \
  XX(cudaErrorLaunchFileScopedSurf, 67,                                        \
     "launch failed because kernel uses unsupported, file-scoped surfaces "    \
     "(surface objects are supported)")                                        \
  XX(cudaErrorSyncDepthExceeded, 68,                                           \
     "cudaDeviceSynchronize failed because caller's grid depth exceeds "       \
     "cudaLimitDevRuntimeSyncDepth")                                           \
  XX(cudaErrorLaunchPendingCountExceeded, 69,                                  \
     "launch failed because launch would exceed "                              \
     "cudaLimitDevRuntimePendingLaunchCount")                                  \
  XX(cudaErrorInvalidDeviceFunction, 98, "invalid device function")            \
  XX(cudaErrorNoDevice, 100, "no CUDA-capable device is detected")             \
  XX(cudaErrorInvalidDevice, 101, "invalid device ordinal")                    \
  XX(cudaErrorDeviceNotLicensed, 102,                                          \
     "device doesn't have valid Grid license")                                 \
  XX(cudaErrorSoftwareValidityNotEstablished, 103, "integrity checks failed")  \
  XX(cudaErrorStartupFailure, 127, "startup failure in cuda runtime")          \
  XX(cudaErrorInvalidKernelImage, 200, "device kernel image is invalid")       \
  XX(cudaErrorDeviceUninitialized, 201, "invalid device context")              \
  XX(cudaErrorMapBufferObjectFailed, 205, "mapping of buffer object failed")   \
  XX(cudaErrorUnmapBufferObjectFailed, 206,                                    \
     "unmapping of buffer object failed")                                      \
  XX(cudaErrorArrayIsMapped, 207, "array is mapped")                           \
  XX(cudaErrorAlreadyMapped, 208, "resource already mapped")                   \
  XX(cudaErrorNoKernelImageForDevice, 209,                                     \
     "no kernel image is available for execution on the device")               \
  XX(cudaErrorAlreadyAcquired, 210, "resource already acquired")               \
  XX(cudaErrorNotMapped, 211, "resource not mapped")                           \
  XX(cudaErrorNotMappedAsArray, 212, "resource not mapped as array")           \
  XX(cudaErrorNotMappedAsPointer, 213, "resource not mapped as pointer")       \
  XX(cudaErrorECCUncorrectable, 214, "uncorrectable ECC error encountered")    \
  XX(cudaErrorUnsupportedLimit, 215,                                           \
     "limit is not supported on this architecture")                            \
  XX(cudaErrorDeviceAlreadyInUse, 216,                                         \
     "exclusive-thread device already in use by a different thread")           \
  XX(cudaErrorPeerAccessUnsupported, 217,                                      \
     "peer access is not supported between these two devices")                 \
  XX(cudaErrorInvalidPtx, 218, "a PTX JIT compilation failed")                 \
  XX(cudaErrorInvalidGraphicsContext, 219,                                     \
     "invalid OpenGL or DirectX context")                                      \
  XX(cudaErrorNvlinkUncorrectable, 220,                                        \
     "uncorrectable NVLink error detected during the execution")               \
  XX(cudaErrorJitCompilerNotFound, 221, "PTX JIT compiler library not found")  \
  XX(cudaErrorUnsupportedPtxVersion, 222,                                      \
     "the provided PTX was compiled with an unsupported toolchain.")           \
  XX(cudaErrorJitCompilationDisabled, 223, "PTX JIT compilation was disabled") \
  XX(cudaErrorUnsupportedExecAffinity, 224,                                    \
     "the provided execution affinity is not supported")                       \
  XX(cudaErrorUnsupportedDevSideSync, 225,                                     \
     "the operation is not supported due to the device-side synchronization")  \
  XX(cudaErrorContained, 226,                                                  \
     "an error was contained during kernel execution")                         \
  XX(cudaErrorInvalidSource, 300, "device kernel image is invalid")            \
  XX(cudaErrorFileNotFound, 301, "file not found")                             \
  XX(cudaErrorSharedObjectSymbolNotFound, 302,                                 \
     "shared object symbol not found")                                         \
  XX(cudaErrorSharedObjectInitFailed, 303,                                     \
     "shared object initialization failed")                                    \
  XX(cudaErrorOperatingSystem, 304,                                            \
     "OS call failed or operation not supported on this OS")                   \
  XX(cudaErrorInvalidResourceHandle, 400, "invalid resource handle")           \
  XX(cudaErrorIllegalState, 401,                                               \
     "the operation cannot be performed in the present state")                 \
  XX(cudaErrorLossyQuery, 402,                                                 \
     "attempted introspection would be semantically lossy")                    \
  XX(cudaErrorSymbolNotFound, 500, "named symbol not found")                   \
  XX(cudaErrorNotReady, 600, "device not ready")                               \
  XX(cudaErrorIllegalAddress, 700, "an illegal memory access was encountered") \
  XX(cudaErrorLaunchOutOfResources, 701,                                       \
     "too many resources requested for launch")                                \
  XX(cudaErrorLaunchTimeout, 702, "the launch timed out and was terminated")   \
  XX(cudaErrorLaunchIncompatibleTexturing, 703,                                \
     "launch uses incompatible texturing mode")                                \
  XX(cudaErrorPeerAccessAlreadyEnabled, 704, "peer access is already enabled") \
  XX(cudaErrorPeerAccessNotEnabled, 705, "peer access has not been enabled")   \
  XX(cudaErrorSetOnActiveProcess, 708,                                         \
     "cannot set while device is active in this process")                      \
  XX(cudaErrorContextIsDestroyed, 709, "context is destroyed")                 \
  XX(cudaErrorAssert, 710, "device-side assert triggered")                     \
  XX(cudaErrorTooManyPeers, 711, "peer mapping resources exhausted")           \
  XX(cudaErrorHostMemoryAlreadyRegistered, 712,                                \
     "part or all of the requested memory range is already mapped")            \
  XX(cudaErrorHostMemoryNotRegistered, 713,                                    \
     "pointer does not correspond to a registered memory region")              \
  XX(cudaErrorHardwareStackError, 714, "hardware stack error")                 \
  XX(cudaErrorIllegalInstruction, 715,                                         \
     "an illegal instruction was encountered")                                 \
  XX(cudaErrorMisalignedAddress, 716, "misaligned address")                    \
  XX(cudaErrorInvalidAddressSpace, 717,                                        \
     "operation not supported on global/shared address space")                 \
  XX(cudaErrorInvalidPc, 718, "invalid program counter")                       \
  XX(cudaErrorLaunchFailure, 719, "unspecified launch failure")                \
  XX(cudaErrorCooperativeLaunchTooLarge, 720,                                  \
     "too many blocks in cooperative launch")                                  \
  XX(cudaErrorTensorMemoryLeak, 721, "tensor memory not completely freed")     \
  XX(cudaErrorNotPermitted, 800, "operation not permitted")                    \
  XX(cudaErrorNotSupported, 801, "operation not supported")                    \
  XX(cudaErrorSystemNotReady, 802, "system not yet initialized")               \
  XX(cudaErrorSystemDriverMismatch, 803,                                       \
     "system has unsupported display driver / cuda driver combination")        \
  XX(cudaErrorCompatNotSupportedOnDevice, 804,                                 \
     "forward compatibility was attempted on non supported HW")                \
  XX(cudaErrorMpsConnectionFailed, 805,                                        \
     "MPS client failed to connect to the MPS control daemon or the MPS "      \
     "server")                                                                 \
  XX(cudaErrorMpsRpcFailure, 806,                                              \
     "the remote procedural call between the MPS server and the MPS client "   \
     "failed")                                                                 \
  XX(cudaErrorMpsServerNotReady, 807,                                          \
     "MPS server is not ready to accept new MPS client requests")              \
  XX(cudaErrorMpsMaxClientsReached, 808,                                       \
     "the hardware resources required to create MPS client have been "         \
     "exhausted")                                                              \
  XX(cudaErrorMpsMaxConnectionsReached, 809,                                   \
     "the hardware resources required to support device connections have "     \
     "been exhausted")                                                         \
  XX(cudaErrorMpsClientTerminated, 810,                                        \
     "the MPS client has been terminated by the server")                       \
  XX(cudaErrorCdpNotSupported, 811,                                            \
     "the module is using CUDA Dynamic Parallelism, but the current "          \
     "configuration, like MPS, does not support it")                           \
  XX(cudaErrorCdpVersionMismatch, 812,                                         \
     "the module is using CUDA Dynamic Parallelism, but the driver and the "   \
     "runtime versions do not match")                                          \
  XX(cudaErrorStreamCaptureUnsupported, 900,                                   \
     "operation not permitted when stream is capturing")                       \
  XX(cudaErrorStreamCaptureInvalidated, 901,                                   \
     "operation failed due to a previous error during capture")                \
  XX(cudaErrorStreamCaptureMerge, 902,                                         \
     "operation would result in a merge of separate capture sequences")        \
  XX(cudaErrorStreamCaptureUnmatched, 903,                                     \
     "capture was not ended in the same stream as it began")                   \
  XX(cudaErrorStreamCaptureUnjoined, 904,                                      \
     "capturing stream has unjoined work")                                     \
  XX(cudaErrorStreamCaptureIsolation, 905,                                     \
     "dependency created on uncaptured work in another stream")                \
  XX(cudaErrorStreamCaptureImplicit, 906,                                      \
     "operation would make the legacy stream depend on a capturing blocking "  \
     "stream")                                                                 \
  XX(cudaErrorCapturedEvent, 907,                                              \
     "operation not permitted on an event last recorded in a capturing "       \
     "stream")                                                                 \
  XX(cudaErrorStreamCaptureWrongThread, 908,                                   \
     "attempt to terminate a thread-local capture sequence from another "      \
     "thread")                                                                 \
  XX(cudaErrorTimeout, 909, "wait operation timed out")                        \
  XX(cudaErrorGraphExecUpdateFailure, 910,                                     \
     "the graph update was not performed because it included changes which "   \
     "violated constraints specific to instantiated graph update")             \
  XX(cudaErrorExternalDevice, 911,                                             \
     "an async error has occured in external entity outside of CUDA")          \
  XX(cudaErrorInvalidClusterSize, 912,                                         \
     "a kernel launch error has occurred due to cluster misconfiguration")     \
  XX(cudaErrorFunctionNotLoaded, 913,                                          \
     "the function handle is not loaded when calling an API that requires a "  \
     "loaded function")                                                        \
  XX(cudaErrorInvalidResourceType, 914,                                        \
     "one or more resources passed in are not valid resource types for the "   \
     "operation")                                                              \
  XX(cudaErrorInvalidResourceConfiguration, 915,                               \
     "one or more resources are insufficient or non-applicable for the "       \
     "operation")                                                              \
  XX(cudaErrorUnknown, 999, "unknown error")                                   \
  XX(cudaErrorApiFailureBase, 10000, "api failure base")                       \

#endif /* CUEMU_RT_ERRORS_H */
