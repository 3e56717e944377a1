/*
 * cuemu_driver_errors.h: CUDA's driver error codes (CUresult), one table:
 * CUEMU_DRIVER_ERROR_MAP(XX) calls XX(name, value, description) for every
 * CUresult code of CUDA 13 with the name and numeric value of the toolkit's
 * cuda.h. The description is cudaGetErrorString's text for the runtime
 * error of the same number (cuemu_rt_errors.h); the driver and the runtime
 * share their numbers and texts wherever both have a code. The two codes
 * the runtime lacks (202, deprecated since CUDA 3.2, and 916) have a short
 * text written from cuda.h's comments.
 *
 * The table only carries names: it defines no enumerators, so that a file
 * may include it beside the toolkit's cuda.h. cuemu_status.h maps each
 * cuemu status to one of these codes, and cuemu_driver_error_name() and
 * cuemu_driver_error_string() (cuemu_status.h) look them up; the fake CuPy
 * raises its CUDADriverError with them.
 */
#ifndef CUEMU_DRIVER_ERRORS_H
#define CUEMU_DRIVER_ERRORS_H

#define CUEMU_DRIVER_ERROR_MAP(XX)                                             \
  XX(CUDA_SUCCESS, 0, "no error")                                              \
  XX(CUDA_ERROR_INVALID_VALUE, 1, "invalid argument")                          \
  XX(CUDA_ERROR_OUT_OF_MEMORY, 2, "out of memory")                             \
  XX(CUDA_ERROR_NOT_INITIALIZED, 3, "initialization error")                    \
  XX(CUDA_ERROR_DEINITIALIZED, 4, "driver shutting down")                      \
  XX(CUDA_ERROR_PROFILER_DISABLED, 5,                                          \
     "profiler disabled while using external profiling tool")                  \
  XX(CUDA_ERROR_PROFILER_NOT_INITIALIZED, 6,                                   \
     "profiler not initialized: call cudaProfilerInitialize()")                \
  XX(CUDA_ERROR_PROFILER_ALREADY_STARTED, 7, "profiler already started")       \
  XX(CUDA_ERROR_PROFILER_ALREADY_STOPPED, 8, "profiler already stopped")       \
  XX(CUDA_ERROR_STUB_LIBRARY, 34, "CUDA driver is a stub library")             \
  XX(CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER, 36,                                \
     "API call is not supported in the installed CUDA driver")                 \
  XX(CUDA_ERROR_DEVICE_UNAVAILABLE, 46,                                        \
     "CUDA-capable device(s) is/are busy or unavailable")                      \
  XX(CUDA_ERROR_NO_DEVICE, 100, "no CUDA-capable device is detected")          \
  XX(CUDA_ERROR_INVALID_DEVICE, 101, "invalid device ordinal")                 \
  XX(CUDA_ERROR_DEVICE_NOT_LICENSED, 102,                                      \
     "device doesn't have valid Grid license")                                 \
  XX(CUDA_ERROR_INVALID_IMAGE, 200, "device kernel image is invalid")          \
  XX(CUDA_ERROR_INVALID_CONTEXT, 201, "invalid device context")                \
  XX(CUDA_ERROR_CONTEXT_ALREADY_CURRENT, 202, "context already current")       \
  XX(CUDA_ERROR_MAP_FAILED, 205, "mapping of buffer object failed")            \
  XX(CUDA_ERROR_UNMAP_FAILED, 206, "unmapping of buffer object failed")        \
  XX(CUDA_ERROR_ARRAY_IS_MAPPED, 207, "array is mapped")                       \
  XX(CUDA_ERROR_ALREADY_MAPPED, 208, "resource already mapped")                \
  XX(CUDA_ERROR_NO_BINARY_FOR_GPU, 209,                                        \
     "no kernel image is available for execution on the device")               \
  XX(CUDA_ERROR_ALREADY_ACQUIRED, 210, "resource already acquired")            \
  XX(CUDA_ERROR_NOT_MAPPED, 211, "resource not mapped")                        \
  XX(CUDA_ERROR_NOT_MAPPED_AS_ARRAY, 212, "resource not mapped as array")      \
  XX(CUDA_ERROR_NOT_MAPPED_AS_POINTER, 213, "resource not mapped as pointer")  \
  XX(CUDA_ERROR_ECC_UNCORRECTABLE, 214,                                        \
     "uncorrectable ECC error encountered")                                    \
  XX(CUDA_ERROR_UNSUPPORTED_LIMIT, 215,                                        \
     "limit is not supported on this architecture")                            \
  XX(CUDA_ERROR_CONTEXT_ALREADY_IN_USE, 216,                                   \
     "exclusive-thread device already in use by a different thread")           \
  XX(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED, 217,                                  \
     "peer access is not supported between these two devices")                 \
  XX(CUDA_ERROR_INVALID_PTX, 218, "a PTX JIT compilation failed")              \
  XX(CUDA_ERROR_INVALID_GRAPHICS_CONTEXT, 219,                                 \
     "invalid OpenGL or DirectX context")                                      \
  XX(CUDA_ERROR_NVLINK_UNCORRECTABLE, 220,                                     \
     "uncorrectable NVLink error detected during the execution")               \
  XX(CUDA_ERROR_JIT_COMPILER_NOT_FOUND, 221,                                   \
     "PTX JIT compiler library not found")                                     \
  XX(CUDA_ERROR_UNSUPPORTED_PTX_VERSION, 222,                                  \
     "the provided PTX was compiled with an unsupported toolchain.")           \
  XX(CUDA_ERROR_JIT_COMPILATION_DISABLED, 223,                                 \
     "PTX JIT compilation was disabled")                                       \
  XX(CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY, 224,                                \
     "the provided execution affinity is not supported")                       \
  XX(CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC, 225,                                 \
     "the operation is not supported due to the device-side "                  \
     "synchronization")                                                        \
  XX(CUDA_ERROR_CONTAINED, 226,                                                \
     "an error was contained during kernel execution")                         \
  XX(CUDA_ERROR_INVALID_SOURCE, 300, "device kernel image is invalid")         \
  XX(CUDA_ERROR_FILE_NOT_FOUND, 301, "file not found")                         \
  XX(CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND, 302,                           \
     "shared object symbol not found")                                         \
  XX(CUDA_ERROR_SHARED_OBJECT_INIT_FAILED, 303,                                \
     "shared object initialization failed")                                    \
  XX(CUDA_ERROR_OPERATING_SYSTEM, 304,                                         \
     "OS call failed or operation not supported on this OS")                   \
  XX(CUDA_ERROR_INVALID_HANDLE, 400, "invalid resource handle")                \
  XX(CUDA_ERROR_ILLEGAL_STATE, 401,                                            \
     "the operation cannot be performed in the present state")                 \
  XX(CUDA_ERROR_LOSSY_QUERY, 402,                                              \
     "attempted introspection would be semantically lossy")                    \
  XX(CUDA_ERROR_NOT_FOUND, 500, "named symbol not found")                      \
  XX(CUDA_ERROR_NOT_READY, 600, "device not ready")                            \
  XX(CUDA_ERROR_ILLEGAL_ADDRESS, 700,                                          \
     "an illegal memory access was encountered")                               \
  XX(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, 701,                                  \
     "too many resources requested for launch")                                \
  XX(CUDA_ERROR_LAUNCH_TIMEOUT, 702,                                           \
     "the launch timed out and was terminated")                                \
  XX(CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING, 703,                            \
     "launch uses incompatible texturing mode")                                \
  XX(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, 704,                              \
     "peer access is already enabled")                                         \
  XX(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, 705,                                  \
     "peer access has not been enabled")                                       \
  XX(CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE, 708,                                   \
     "cannot set while device is active in this process")                      \
  XX(CUDA_ERROR_CONTEXT_IS_DESTROYED, 709, "context is destroyed")             \
  XX(CUDA_ERROR_ASSERT, 710, "device-side assert triggered")                   \
  XX(CUDA_ERROR_TOO_MANY_PEERS, 711, "peer mapping resources exhausted")       \
  XX(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, 712,                           \
     "part or all of the requested memory range is already mapped")            \
  XX(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, 713,                               \
     "pointer does not correspond to a registered memory region")              \
  XX(CUDA_ERROR_HARDWARE_STACK_ERROR, 714, "hardware stack error")             \
  XX(CUDA_ERROR_ILLEGAL_INSTRUCTION, 715,                                      \
     "an illegal instruction was encountered")                                 \
  XX(CUDA_ERROR_MISALIGNED_ADDRESS, 716, "misaligned address")                 \
  XX(CUDA_ERROR_INVALID_ADDRESS_SPACE, 717,                                    \
     "operation not supported on global/shared address space")                 \
  XX(CUDA_ERROR_INVALID_PC, 718, "invalid program counter")                    \
  XX(CUDA_ERROR_LAUNCH_FAILED, 719, "unspecified launch failure")              \
  XX(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, 720,                             \
     "too many blocks in cooperative launch")                                  \
  XX(CUDA_ERROR_TENSOR_MEMORY_LEAK, 721,                                       \
     "tensor memory not completely freed")                                     \
  XX(CUDA_ERROR_NOT_PERMITTED, 800, "operation not permitted")                 \
  XX(CUDA_ERROR_NOT_SUPPORTED, 801, "operation not supported")                 \
  XX(CUDA_ERROR_SYSTEM_NOT_READY, 802, "system not yet initialized")           \
  XX(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH, 803,                                   \
     "system has unsupported display driver / cuda driver combination")        \
  XX(CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE, 804,                           \
     "forward compatibility was attempted on non supported HW")                \
  XX(CUDA_ERROR_MPS_CONNECTION_FAILED, 805,                                    \
     "MPS client failed to connect to the MPS control daemon or the MPS "      \
     "server")                                                                 \
  XX(CUDA_ERROR_MPS_RPC_FAILURE, 806,                                          \
     "the remote procedural call between the MPS server and the MPS client "   \
     "failed")                                                                 \
  XX(CUDA_ERROR_MPS_SERVER_NOT_READY, 807,                                     \
     "MPS server is not ready to accept new MPS client requests")              \
  XX(CUDA_ERROR_MPS_MAX_CLIENTS_REACHED, 808,                                  \
     "the hardware resources required to create MPS client have been "         \
     "exhausted")                                                              \
  XX(CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED, 809,                              \
     "the hardware resources required to support device connections have "     \
     "been exhausted")                                                         \
  XX(CUDA_ERROR_MPS_CLIENT_TERMINATED, 810,                                    \
     "the MPS client has been terminated by the server")                       \
  XX(CUDA_ERROR_CDP_NOT_SUPPORTED, 811,                                        \
     "the module is using CUDA Dynamic Parallelism, but the current "          \
     "configuration, like MPS, does not support it")                           \
  XX(CUDA_ERROR_CDP_VERSION_MISMATCH, 812,                                     \
     "the module is using CUDA Dynamic Parallelism, but the driver and the "   \
     "runtime versions do not match")                                          \
  XX(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, 900,                               \
     "operation not permitted when stream is capturing")                       \
  XX(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, 901,                               \
     "operation failed due to a previous error during capture")                \
  XX(CUDA_ERROR_STREAM_CAPTURE_MERGE, 902,                                     \
     "operation would result in a merge of separate capture sequences")        \
  XX(CUDA_ERROR_STREAM_CAPTURE_UNMATCHED, 903,                                 \
     "capture was not ended in the same stream as it began")                   \
  XX(CUDA_ERROR_STREAM_CAPTURE_UNJOINED, 904,                                  \
     "capturing stream has unjoined work")                                     \
  XX(CUDA_ERROR_STREAM_CAPTURE_ISOLATION, 905,                                 \
     "dependency created on uncaptured work in another stream")                \
  XX(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT, 906,                                  \
     "operation would make the legacy stream depend on a capturing "           \
     "blocking stream")                                                        \
  XX(CUDA_ERROR_CAPTURED_EVENT, 907,                                           \
     "operation not permitted on an event last recorded in a capturing "       \
     "stream")                                                                 \
  XX(CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD, 908,                              \
     "attempt to terminate a thread-local capture sequence from another "      \
     "thread")                                                                 \
  XX(CUDA_ERROR_TIMEOUT, 909, "wait operation timed out")                      \
  XX(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE, 910,                                \
     "the graph update was not performed because it included changes which "   \
     "violated constraints specific to instantiated graph update")             \
  XX(CUDA_ERROR_EXTERNAL_DEVICE, 911,                                          \
     "an async error has occured in external entity outside of CUDA")          \
  XX(CUDA_ERROR_INVALID_CLUSTER_SIZE, 912,                                     \
     "a kernel launch error has occurred due to cluster misconfiguration")     \
  XX(CUDA_ERROR_FUNCTION_NOT_LOADED, 913,                                      \
     "the function handle is not loaded when calling an API that requires "    \
     "a loaded function")                                                      \
  XX(CUDA_ERROR_INVALID_RESOURCE_TYPE, 914,                                    \
     "one or more resources passed in are not valid resource types for the "   \
     "operation")                                                              \
  XX(CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION, 915,                           \
     "one or more resources are insufficient or non-applicable for the "       \
     "operation")                                                              \
  XX(CUDA_ERROR_KEY_ROTATION, 916, "key rotation error")                       \
  XX(CUDA_ERROR_UNKNOWN, 999, "unknown error")

#endif /* CUEMU_DRIVER_ERRORS_H */
