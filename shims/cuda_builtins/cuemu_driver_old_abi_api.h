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
 * versions of the same type). Included by cuda.h.
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_OLD_ABI_API_H
#define CUEMU_DRIVER_OLD_ABI_API_H

#include "cuemu_driver_capture_api.h"
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
  CUresult r = cuCtxPushCurrent(ctx);
  if (r != CUDA_SUCCESS)
    return r;
  r = cuCtxGetDevice(device);
  CUcontext popped;
  cuCtxPopCurrent(&popped);
  return r;
}

inline CUresult cuCtxSynchronize_v13000(CUcontext ctx) {
  if (!ctx)
    return cuCtxSynchronize();
  CUresult r = cuCtxPushCurrent(ctx);
  if (r != CUDA_SUCCESS)
    return r;
  r = cuCtxSynchronize();
  CUcontext popped;
  cuCtxPopCurrent(&popped);
  return r;
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
  cudaMemLocation r = cuemu::rt::location_of(device);
  CUmemLocation l;
  l.type = static_cast<CUmemLocationType>(r.type);
  l.id = r.id;
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

#endif /* CUEMU_DRIVER_OLD_ABI_API_H */
