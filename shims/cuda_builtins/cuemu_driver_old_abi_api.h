/*
 * cuemu_driver_old_abi_api.h: other ABI versions of driver functions than
 * cuda.h's, for cuGetProcAddress and cudaGetDriverEntryPoint(ByVersion):
 * older ones, for a program that asks for the CUDA version it was written
 * for, and CUDA 13's cuCtxGetDevice and cuCtxSynchronize with a context
 * (cuda.h's cuCtxGetDevice_v2 and cuCtxSynchronize_v2; cuda.h's names are
 * CUDA 2.0's).
 * Each is named cuName_vVERSION after the PFN_cuName_vVERSION of CUDA's
 * cudaTypedefs.h whose type it has, and forwards to the current function;
 * scripts/driver_entry_points.py lists it for that version (and for older
 * versions of the same type). Included by cuda.h. (cuStreamBatchMemOp_v8000
 * is in cuemu_driver_memop_api.h, which this header cannot include.)
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_OLD_ABI_API_H
#define CUEMU_DRIVER_OLD_ABI_API_H

#include "cuemu_driver_array_api.h"
#include "cuemu_driver_capture_api.h"
#include "cuemu_driver_graph_api.h"
#include "cuemu_driver_graph_exec_api.h"
#include "cuemu_driver_graph_nodes_api.h"
#include "cuemu_driver_pool_api.h"

/* cuCtxCreate before CUDA 11.4 (cuCtxCreate_v2) and before 12.5
 * (cuCtxCreate_v3, with execution affinity, which cuemu has not). */
inline CUresult cuCtxCreate_v3020(CUcontext *pctx, unsigned int flags,
                                  CUdevice dev) {
  return cuCtxCreate(pctx, nullptr, flags, dev);
}

inline CUresult cuCtxCreate_v11040(CUcontext *pctx,
                                   CUexecAffinityParam *paramsArray,
                                   int numParams, unsigned int flags,
                                   CUdevice dev) {
  if (paramsArray || numParams)
    return CUDA_ERROR_NOT_SUPPORTED;
  return cuCtxCreate(pctx, nullptr, flags, dev);
}

/* CUDA 13's: the context's device, and a wait for the context's work
 * (NULL: the current context's). */
inline CUresult cuCtxGetDevice_v13000(CUdevice *device, CUcontext ctx) {
  if (!ctx)
    return cuCtxGetDevice(device);
  CUresult __cuemu_r = cuCtxPushCurrent(ctx);
  if (__cuemu_r != CUDA_SUCCESS)
    return __cuemu_r;
  __cuemu_r = cuCtxGetDevice(device);
  CUcontext popped;
  cuCtxPopCurrent(&popped);
  return __cuemu_r;
}

inline CUresult cuCtxSynchronize_v13000(CUcontext ctx) {
  if (!ctx)
    return cuCtxSynchronize();
  CUresult __cuemu_r = cuCtxPushCurrent(ctx);
  if (__cuemu_r != CUDA_SUCCESS)
    return __cuemu_r;
  __cuemu_r = cuCtxSynchronize();
  CUcontext popped;
  cuCtxPopCurrent(&popped);
  return __cuemu_r;
}

/* The graph's edges before CUDA 12.3, without edge data. */
inline CUresult cuGraphAddDependencies_v10000(CUgraph hGraph,
                                              const CUgraphNode *from,
                                              const CUgraphNode *to,
                                              size_t numDependencies) {
  return cuGraphAddDependencies(hGraph, from, to, nullptr, numDependencies);
}

inline CUresult cuGraphRemoveDependencies_v10000(CUgraph hGraph,
                                                 const CUgraphNode *from,
                                                 const CUgraphNode *to,
                                                 size_t numDependencies) {
  return cuGraphRemoveDependencies(hGraph, from, to, nullptr,
                                   numDependencies);
}

inline CUresult cuGraphGetEdges_v10000(CUgraph hGraph, CUgraphNode *from,
                                       CUgraphNode *to, size_t *numEdges) {
  return cuGraphGetEdges(hGraph, from, to, nullptr, numEdges);
}

inline CUresult cuGraphNodeGetDependencies_v10000(CUgraphNode hNode,
                                                  CUgraphNode *dependencies,
                                                  size_t *numDependencies) {
  return cuGraphNodeGetDependencies(hNode, dependencies, nullptr,
                                    numDependencies);
}

inline CUresult cuGraphNodeGetDependentNodes_v10000(CUgraphNode hNode,
                                                    CUgraphNode *dependentNodes,
                                                    size_t *numDependentNodes) {
  return cuGraphNodeGetDependentNodes(hNode, dependentNodes, nullptr,
                                      numDependentNodes);
}

/* Stream capture's queries before CUDA 12.3. */
inline CUresult cuStreamGetCaptureInfo_v10010(
    CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
    cuuint64_t *id_out) {
  return cuStreamGetCaptureInfo(hStream, captureStatus_out, id_out, nullptr,
                                nullptr, nullptr, nullptr);
}

inline CUresult cuStreamGetCaptureInfo_v11030(
    CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
    cuuint64_t *id_out, CUgraph *graph_out,
    const CUgraphNode **dependencies_out, size_t *numDependencies_out) {
  return cuStreamGetCaptureInfo(hStream, captureStatus_out, id_out, graph_out,
                                dependencies_out, nullptr,
                                numDependencies_out);
}

inline CUresult cuStreamUpdateCaptureDependencies_v11030(
    CUstream hStream, CUgraphNode *dependencies, size_t numDependencies,
    unsigned int flags) {
  return cuStreamUpdateCaptureDependencies(hStream, dependencies, nullptr,
                                           numDependencies, flags);
}

/* Unified-memory hints before CUDA 12.2: a device ordinal (CU_DEVICE_CPU:
 * the host) for a location. */
namespace cuemu {
namespace drv {
inline CUmemLocation location_of(CUdevice device) {
  /* The runtime's CUDA 12 forms' (CU_DEVICE_CPU is cudaCpuDeviceId). */
  cudaMemLocation __cuemu_r = cuemu::rt::location_of(device);
  CUmemLocation l;
  l.type = static_cast<CUmemLocationType>(__cuemu_r.type);
  l.id = __cuemu_r.id;
  return l;
}
} // namespace drv
} // namespace cuemu

inline CUresult cuMemAdvise_v8000(CUdeviceptr devPtr, size_t count,
                                  CUmem_advise advice, CUdevice device) {
  return cuMemAdvise(devPtr, count, advice, cuemu::drv::location_of(device));
}

inline CUresult cuMemPrefetchAsync_v8000(CUdeviceptr devPtr, size_t count,
                                         CUdevice dstDevice,
                                         CUstream hStream) {
  return cuMemPrefetchAsync(devPtr, count, cuemu::drv::location_of(dstDevice),
                            0, hStream);
}

/* CUDA 10 and 11's graph instantiation (CUDA 12's cuda.h makes
 * cuGraphInstantiate cuGraphInstantiateWithFlags, which is cuemu's, but
 * the driver's "cuGraphInstantiate" is still this one): the node that
 * failed, and a message in the log buffer. */
inline CUresult cuGraphInstantiate_v10000(CUgraphExec *phGraphExec,
                                          CUgraph hGraph,
                                          CUgraphNode *phErrorNode,
                                          char *logBuffer,
                                          size_t bufferSize) {
  CUDA_GRAPH_INSTANTIATE_PARAMS params = {};
  CUresult __cuemu_r = cuGraphInstantiateWithParams(phGraphExec, hGraph, &params);
  if (phErrorNode)
    *phErrorNode = params.hErrNode_out;
  if (logBuffer && bufferSize) {
    const char *text = "";
    if (__cuemu_r != CUDA_SUCCESS)
      cuGetErrorString(__cuemu_r, &text);
    size_t n = 0;
    while (text && text[n] && n + 1 < bufferSize) {
      logBuffer[n] = text[n];
      ++n;
    }
    logBuffer[n] = '\0';
  }
  return __cuemu_r;
}

/* CUDA 10.0's capture, without a mode: the global mode, as CUDA gives. */
inline CUresult cuStreamBeginCapture_v10000(CUstream hStream) {
  return cuStreamBeginCapture(hStream, CU_STREAM_CAPTURE_MODE_GLOBAL);
}

/* CUDA 10.2 and 11's graph update: the node that failed and the reason. */
inline CUresult cuGraphExecUpdate_v10020(CUgraphExec hGraphExec,
                                         CUgraph hGraph,
                                         CUgraphNode *hErrorNode_out,
                                         CUgraphExecUpdateResult *updateResult_out) {
  CUgraphExecUpdateResultInfo info = {};
  CUresult __cuemu_r = cuGraphExecUpdate(hGraphExec, hGraph, &info);
  if (hErrorNode_out)
    *hErrorNode_out = info.errorNode;
  if (updateResult_out)
    *updateResult_out = info.result;
  return __cuemu_r;
}

/* CUDA 12.2's generic node, before edge data. */
inline CUresult cuGraphAddNode_v12020(CUgraphNode *phGraphNode, CUgraph hGraph,
                                      const CUgraphNode *dependencies,
                                      size_t numDependencies,
                                      CUgraphNodeParams *nodeParams) {
  return cuGraphAddNode(phGraphNode, hGraph, dependencies, nullptr,
                        numDependencies, nodeParams);
}

/* Kernel nodes before CUDA 12.0: CUDA_KERNEL_NODE_PARAMS_v1, without a
 * library's kernel and a context. */
namespace cuemu {
namespace drv {
/* Copies the fields that both versions of the kernel node parameters
 * have. */
template <class To, class From>
inline void kernel_fields(To &to, const From &from) {
  to.func = from.func;
  to.gridDimX = from.gridDimX;
  to.gridDimY = from.gridDimY;
  to.gridDimZ = from.gridDimZ;
  to.blockDimX = from.blockDimX;
  to.blockDimY = from.blockDimY;
  to.blockDimZ = from.blockDimZ;
  to.sharedMemBytes = from.sharedMemBytes;
  to.kernelParams = from.kernelParams;
  to.extra = from.extra;
}

inline CUDA_KERNEL_NODE_PARAMS kernel_params(
    const CUDA_KERNEL_NODE_PARAMS_v1 &p) {
  CUDA_KERNEL_NODE_PARAMS __cuemu_q = {};
  kernel_fields(__cuemu_q, p);
  return __cuemu_q;
}
} // namespace drv
} // namespace cuemu

inline CUresult cuGraphAddKernelNode_v10000(
    CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
    size_t numDependencies, const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams) {
  if (!nodeParams)
    return cuGraphAddKernelNode(phGraphNode, hGraph, dependencies,
                                numDependencies, nullptr);
  CUDA_KERNEL_NODE_PARAMS __cuemu_q = cuemu::drv::kernel_params(*nodeParams);
  return cuGraphAddKernelNode(phGraphNode, hGraph, dependencies,
                              numDependencies, &__cuemu_q);
}

inline CUresult cuGraphKernelNodeGetParams_v10000(
    CUgraphNode hNode, CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams) {
  CUDA_KERNEL_NODE_PARAMS __cuemu_q = {};
  CUresult __cuemu_r = cuGraphKernelNodeGetParams(hNode, nodeParams ? &__cuemu_q : nullptr);
  if (__cuemu_r == CUDA_SUCCESS)
    cuemu::drv::kernel_fields(*nodeParams, __cuemu_q);
  return __cuemu_r;
}

inline CUresult cuGraphKernelNodeSetParams_v10000(
    CUgraphNode hNode, const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams) {
  if (!nodeParams)
    return cuGraphKernelNodeSetParams(hNode, nullptr);
  CUDA_KERNEL_NODE_PARAMS __cuemu_q = cuemu::drv::kernel_params(*nodeParams);
  return cuGraphKernelNodeSetParams(hNode, &__cuemu_q);
}

inline CUresult cuGraphExecKernelNodeSetParams_v10010(
    CUgraphExec hGraphExec, CUgraphNode hNode,
    const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams) {
  if (!nodeParams)
    return cuGraphExecKernelNodeSetParams(hGraphExec, hNode, nullptr);
  CUDA_KERNEL_NODE_PARAMS __cuemu_q = cuemu::drv::kernel_params(*nodeParams);
  return cuGraphExecKernelNodeSetParams(hGraphExec, hNode, &__cuemu_q);
}

/* CUDA 2.0's forms whose 32-bit sizes and offsets hold no address (the
 * others take 32-bit device pointers, which cannot hold the emulated
 * device's addresses, or give memory sizes that 32 bits may not hold, and
 * are not provided: docs/driver-api.md lists them). */
CUEMU_AT_CALLER inline CUresult cuMemAllocHost_v2000(void **pp,
                                                     unsigned int bytesize) {
  return cuMemAllocHost(pp, bytesize);
}

inline CUresult cuMemcpyHtoA_v2000(CUarray dstArray, unsigned int dstOffset,
                                   const void *srcHost,
                                   unsigned int ByteCount) {
  return cuMemcpyHtoA(dstArray, dstOffset, srcHost, ByteCount);
}

inline CUresult cuMemcpyAtoH_v2000(void *dstHost, CUarray srcArray,
                                   unsigned int srcOffset,
                                   unsigned int ByteCount) {
  return cuMemcpyAtoH(dstHost, srcArray, srcOffset, ByteCount);
}

inline CUresult cuMemcpyAtoA_v2000(CUarray dstArray, unsigned int dstOffset,
                                   CUarray srcArray, unsigned int srcOffset,
                                   unsigned int ByteCount) {
  return cuMemcpyAtoA(dstArray, dstOffset, srcArray, srcOffset, ByteCount);
}

inline CUresult cuMemcpyHtoAAsync_v2000(CUarray dstArray,
                                        unsigned int dstOffset,
                                        const void *srcHost,
                                        unsigned int ByteCount,
                                        CUstream hStream) {
  return cuMemcpyHtoAAsync(dstArray, dstOffset, srcHost, ByteCount, hStream);
}

inline CUresult cuMemcpyAtoHAsync_v2000(void *dstHost, CUarray srcArray,
                                        unsigned int srcOffset,
                                        unsigned int ByteCount,
                                        CUstream hStream) {
  return cuMemcpyAtoHAsync(dstHost, srcArray, srcOffset, ByteCount, hStream);
}

/* CUDA 12.5's cuStreamGetCtx with a green context (cuda.h's
 * cuStreamGetCtx_v2; cuda.h's cuStreamGetCtx is CUDA 9.2's). */
inline CUresult cuStreamGetCtx_v12050(CUstream __cuemu_hStream, CUcontext *__cuemu_pctx,
                                      CUgreenCtx *__cuemu_pGreenCtx) {
  return cuStreamGetCtx_v2(__cuemu_hStream, __cuemu_pctx, __cuemu_pGreenCtx);
}

inline CUresult cuArrayCreate_v2000(CUarray *pHandle,
                                    const CUDA_ARRAY_DESCRIPTOR_v1 *pAllocateArray) {
  if (!pAllocateArray)
    return cuArrayCreate(pHandle, nullptr);
  CUDA_ARRAY_DESCRIPTOR d = {pAllocateArray->Width, pAllocateArray->Height,
                             pAllocateArray->Format, pAllocateArray->NumChannels};
  return cuArrayCreate(pHandle, &d);
}

inline CUresult cuArray3DCreate_v2000(CUarray *pHandle,
                                      const CUDA_ARRAY3D_DESCRIPTOR_v1 *pAllocateArray) {
  if (!pAllocateArray)
    return cuArray3DCreate(pHandle, nullptr);
  CUDA_ARRAY3D_DESCRIPTOR d = {pAllocateArray->Width, pAllocateArray->Height,
                               pAllocateArray->Depth, pAllocateArray->Format,
                               pAllocateArray->NumChannels, pAllocateArray->Flags};
  return cuArray3DCreate(pHandle, &d);
}

/* An array whose extent 32 bits cannot hold is CUDA_ERROR_INVALID_VALUE
 * (cuemu's arrays are at most 65536 by 65536 by 4096 elements, so none). */
inline CUresult cuArrayGetDescriptor_v2000(CUDA_ARRAY_DESCRIPTOR_v1 *pArrayDescriptor,
                                           CUarray hArray) {
  if (!pArrayDescriptor)
    return cuArrayGetDescriptor(nullptr, hArray);
  CUDA_ARRAY_DESCRIPTOR d;
  CUresult e = cuArrayGetDescriptor(&d, hArray);
  if (e != CUDA_SUCCESS)
    return e;
  if (d.Width > 0xffffffffu || d.Height > 0xffffffffu)
    return CUDA_ERROR_INVALID_VALUE;
  pArrayDescriptor->Width = (unsigned int)d.Width;
  pArrayDescriptor->Height = (unsigned int)d.Height;
  pArrayDescriptor->Format = d.Format;
  pArrayDescriptor->NumChannels = d.NumChannels;
  return CUDA_SUCCESS;
}

inline CUresult cuArray3DGetDescriptor_v2000(CUDA_ARRAY3D_DESCRIPTOR_v1 *pArrayDescriptor,
                                             CUarray hArray) {
  if (!pArrayDescriptor)
    return cuArray3DGetDescriptor(nullptr, hArray);
  CUDA_ARRAY3D_DESCRIPTOR d;
  CUresult e = cuArray3DGetDescriptor(&d, hArray);
  if (e != CUDA_SUCCESS)
    return e;
  if (d.Width > 0xffffffffu || d.Height > 0xffffffffu || d.Depth > 0xffffffffu)
    return CUDA_ERROR_INVALID_VALUE;
  pArrayDescriptor->Width = (unsigned int)d.Width;
  pArrayDescriptor->Height = (unsigned int)d.Height;
  pArrayDescriptor->Depth = (unsigned int)d.Depth;
  pArrayDescriptor->Format = d.Format;
  pArrayDescriptor->NumChannels = d.NumChannels;
  pArrayDescriptor->Flags = d.Flags;
  return CUDA_SUCCESS;
}

#endif /* CUEMU_DRIVER_OLD_ABI_API_H */
