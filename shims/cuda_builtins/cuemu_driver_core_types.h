/*
 * cuemu_driver_core_types.h: the driver API's base types and constants
 * (CUresult, CUdevice, CUdeviceptr, the context, module, function, stream
 * and event handles, cuCtxCreate's parameters, the launch parameters' and
 * host allocation flags), in CUDA 13's layout. C reads them too: cuda.h's C
 * view (cuemu_driver_c_decls.h, written by scripts/driver_c_view.py)
 * includes this header where cuda.h reads it.
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_CORE_TYPES_H
#define CUEMU_DRIVER_CORE_TYPES_H

#include <stdint.h>

#include <cuemu/cuemu_driver_errors.h>

#define CU_IPC_HANDLE_SIZE 64
#define CU_DEVICE_CPU ((CUdevice)-1)
#define CU_DEVICE_INVALID ((CUdevice)-2)
#define CU_LAUNCH_PARAM_END_AS_INT 0x00
#define CU_LAUNCH_PARAM_END ((void *)CU_LAUNCH_PARAM_END_AS_INT)
#define CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT 0x01
#define CU_LAUNCH_PARAM_BUFFER_POINTER                                         \
  ((void *)CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT)
#define CU_LAUNCH_PARAM_BUFFER_SIZE_AS_INT 0x02
#define CU_LAUNCH_PARAM_BUFFER_SIZE ((void *)CU_LAUNCH_PARAM_BUFFER_SIZE_AS_INT)
#define CU_MEMHOSTALLOC_PORTABLE 0x01
#define CU_MEMHOSTALLOC_DEVICEMAP 0x02
#define CU_MEMHOSTALLOC_WRITECOMBINED 0x04
#define CU_MEMHOSTREGISTER_PORTABLE 0x01
#define CU_MEMHOSTREGISTER_DEVICEMAP 0x02
#define CU_MEMHOSTREGISTER_IOMEMORY 0x04
#define CU_MEMHOSTREGISTER_READ_ONLY 0x08
#define CU_STREAM_LEGACY ((CUstream)0x1)
#define CU_STREAM_PER_THREAD ((CUstream)0x2)

/* CUresult: every code of CUDA 13, with CUDA's names and values. */
typedef enum cudaError_enum {
#define CUEMU_CURESULT_(name, value, text) name = value,
  CUEMU_DRIVER_ERROR_MAP(CUEMU_CURESULT_)
#undef CUEMU_CURESULT_
} CUresult;

typedef uint32_t cuuint32_t;
typedef uint64_t cuuint64_t;
typedef int CUdevice_v1;
typedef CUdevice_v1 CUdevice;
typedef unsigned long long CUdeviceptr_v2;
typedef CUdeviceptr_v2 CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUgreenCtx_st *CUgreenCtx;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef cudaStream_t CUstream;
typedef cudaEvent_t CUevent;
typedef void (*CUstreamCallback)(CUstream hStream, CUresult status,
                                 void *userData);
typedef void (*CUhostFn)(void *userData);

/* cuCtxCreate's parameters (CUDA 13): execution affinity and CIG are not
 * emulated; a request for either is CUDA_ERROR_NOT_SUPPORTED. */
typedef struct CUexecAffinityParam_st CUexecAffinityParam;
typedef struct CUctxCigParam_st CUctxCigParam;
typedef struct CUctxCreateParams_st {
  CUexecAffinityParam *execAffinityParams;
  int numExecAffinityParams;
  CUctxCigParam *cigParams;
} CUctxCreateParams;

#ifndef CUEMU_HAVE_CUOUTPUT_MODE
#define CUEMU_HAVE_CUOUTPUT_MODE 1
typedef enum CUoutput_mode_enum {
  CU_OUT_KEY_VALUE_PAIR = 0x00,
  CU_OUT_CSV = 0x01
} CUoutput_mode;
#endif

typedef enum CUfunctionLoadingState_enum {
  CU_FUNCTION_LOADING_STATE_UNLOADED = 0,
  CU_FUNCTION_LOADING_STATE_LOADED = 1,
  CU_FUNCTION_LOADING_STATE_MAX
} CUfunctionLoadingState;

typedef struct CUlinkState_st *CUlinkState;

typedef enum CUlibraryOption_enum {
  CU_LIBRARY_HOST_UNIVERSAL_FUNCTION_AND_DATA_TABLE = 0,
  CU_LIBRARY_BINARY_IS_PRESERVED = 1,
  CU_LIBRARY_NUM_OPTIONS
} CUlibraryOption;

typedef struct CUlib_st *CUlibrary;

#endif /* CUEMU_DRIVER_CORE_TYPES_H */
