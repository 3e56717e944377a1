/* abi_probe.c: the sizes and alignments of the runtime API's types as a C
 * file sees them, a few members' offsets and some constants. Compiled as C
 * against NVIDIA's headers and against cuemu's, the outputs must agree
 * (tests/driver_c_runtime.sh). */
#include <stddef.h>
#include <stdio.h>

#include <cuda_runtime.h>

#define TYPE(t) printf("%s %zu %zu\n", #t, sizeof(t), _Alignof(t));
#define MEMBER(t, m) printf("%s.%s %zu\n", #t, #m, offsetof(t, m));
#define CONSTANT(c) printf("%s %lld\n", #c, (long long)(c));

int main(void) {
  TYPE(char1) TYPE(uchar2) TYPE(short3) TYPE(ushort4) TYPE(int2) TYPE(uint4)
  TYPE(long2) TYPE(ulong3) TYPE(longlong2) TYPE(ulonglong4_16a)
  TYPE(float2) TYPE(float4) TYPE(double2) TYPE(double4_32a) TYPE(dim3)
  TYPE(struct cudaDeviceProp) TYPE(struct cudaPointerAttributes)
  TYPE(struct cudaFuncAttributes) TYPE(struct cudaChannelFormatDesc)
  TYPE(struct cudaResourceDesc) TYPE(struct cudaTextureDesc)
  TYPE(struct cudaMemcpy3DParms) TYPE(struct cudaKernelNodeParams)
  TYPE(struct cudaGraphNodeParams) TYPE(cudaGraphInstantiateParams)
  TYPE(cudaGraphExecUpdateResultInfo) TYPE(cudaGraphEdgeData)
  TYPE(cudaLaunchConfig_t) TYPE(cudaLaunchAttribute) TYPE(cudaIpcMemHandle_t)
  TYPE(cudaIpcEventHandle_t) TYPE(struct cudaExternalMemoryHandleDesc)
  TYPE(struct cudaExternalSemaphoreSignalParams)
  TYPE(struct cudaArraySparseProperties) TYPE(struct cudaMemPoolProps)
  TYPE(struct cudaMemcpyAttributes) TYPE(enum cudaError)
  TYPE(enum cudaMemcpyKind) TYPE(cudaStream_t) TYPE(cudaEvent_t)
  TYPE(cudaGraph_t) TYPE(cudaKernel_t) TYPE(cudaFunction_t)
  TYPE(cudaHostFn_t) TYPE(cudaStreamCallback_t)
  MEMBER(struct cudaDeviceProp, warpSize)
  MEMBER(struct cudaDeviceProp, multiProcessorCount)
  MEMBER(struct cudaDeviceProp, l2CacheSize)
  MEMBER(struct cudaGraphNodeParams, kernel)
  MEMBER(struct cudaGraphNodeParams, reserved2)
  MEMBER(cudaLaunchConfig_t, dynamicSmemBytes)
  MEMBER(cudaLaunchConfig_t, attrs)
  MEMBER(struct cudaKernelNodeParams, kernelParams)
  CONSTANT(cudaErrorInvalidValue) CONSTANT(cudaErrorMemoryAllocation)
  CONSTANT(cudaErrorInvalidMemcpyDirection) CONSTANT(cudaMemcpyDefault)
  CONSTANT(cudaStreamNonBlocking) CONSTANT(cudaEventDisableTiming)
  CONSTANT(cudaHostAllocMapped) CONSTANT(cudaDevAttrWarpSize)
  CONSTANT(cudaGraphNodeTypeKernel) CONSTANT(cudaStreamCaptureModeGlobal)
  CONSTANT(cudaLaunchAttributeClusterDimension) CONSTANT(cudaFuncAttributeMaxDynamicSharedMemorySize)
  CONSTANT(cudaDevP2PAttrAccessSupported) CONSTANT(cudaMemAttachGlobal)
  CONSTANT(CUDART_VERSION) CONSTANT(CUDA_IPC_HANDLE_SIZE)
  return 0;
}
