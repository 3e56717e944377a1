/*
 * cuemu_stream_types.h: the flags of streams, events and occupancy, the
 * event handle, the host callbacks' types, and cudaFuncAttributes and
 * cudaFuncAttribute (CUDA's driver_types.h). C and C++ (cuemu_streams_api.h).
 */
#ifndef CUEMU_STREAM_TYPES_H
#define CUEMU_STREAM_TYPES_H

#include <stddef.h>

#include "driver_types.h"

/* ---- Types and flags (CUDA's driver_types.h) ------------------------------ */

#ifndef CUDART_CB
#define CUDART_CB
#endif
#ifndef cudaStreamDefault
#define cudaStreamDefault 0x00
#endif
#ifndef cudaStreamNonBlocking
#define cudaStreamNonBlocking 0x01
#endif
#ifndef cudaStreamLegacy
#define cudaStreamLegacy ((cudaStream_t)0x1)
#endif
#ifndef cudaStreamPerThread
#define cudaStreamPerThread ((cudaStream_t)0x2)
#endif
#ifndef cudaEventDefault
#define cudaEventDefault 0x00
#endif
#ifndef cudaEventBlockingSync
#define cudaEventBlockingSync 0x01
#endif
#ifndef cudaEventDisableTiming
#define cudaEventDisableTiming 0x02
#endif
#ifndef cudaEventInterprocess
#define cudaEventInterprocess 0x04
#endif
#ifndef cudaEventRecordDefault
#define cudaEventRecordDefault 0x00
#endif
#ifndef cudaEventWaitDefault
#define cudaEventWaitDefault 0x00
#endif
#ifndef cudaEventWaitExternal
#define cudaEventWaitExternal 0x01
#endif
#ifndef cudaOccupancyDefault
#define cudaOccupancyDefault 0x00
#endif
#ifndef cudaOccupancyDisableCachingOverride
#define cudaOccupancyDisableCachingOverride 0x01
#endif

/* cudaEvent_t is <cuemu/cuemu_rt_host_types.h>'s (driver_types.h). */
typedef void(CUDART_CB *cudaHostFn_t)(void *userData);
typedef void(CUDART_CB *cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status,
                                     void *userData);

#ifndef CUEMU_HAVE_CUDA_FUNC_ATTRIBUTES
#define CUEMU_HAVE_CUDA_FUNC_ATTRIBUTES 1
/* The attributes of a kernel (cudaFuncGetAttributes), in CUDA's layout. */
struct cudaFuncAttributes {
  size_t sharedSizeBytes;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
  int clusterDimMustBeSet;
  int requiredClusterWidth;
  int requiredClusterHeight;
  int requiredClusterDepth;
  int clusterSchedulingPolicyPreference;
  int nonPortableClusterSizeAllowed;
  int reserved[16];
};

/* The settable attributes of a kernel (cudaFuncSetAttribute). */
enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
  cudaFuncAttributeClusterDimMustBeSet = 10,
  cudaFuncAttributeRequiredClusterWidth = 11,
  cudaFuncAttributeRequiredClusterHeight = 12,
  cudaFuncAttributeRequiredClusterDepth = 13,
  cudaFuncAttributeNonPortableClusterSizeAllowed = 14,
  cudaFuncAttributeClusterSchedulingPolicyPreference = 15,
  cudaFuncAttributeMax
};
#endif

#endif /* CUEMU_STREAM_TYPES_H */
