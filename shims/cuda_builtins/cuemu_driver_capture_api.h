/*
 * cuemu_driver_capture_api.h: the driver API's stream capture calls beyond
 * begin and end (cuStreamGetCaptureInfo, cuStreamBeginCaptureToGraph,
 * cuStreamUpdateCaptureDependencies), in CUDA 13's signatures, over the
 * runtime's (cuemu_graph_api.h): one implementation, edge data included.
 * Included at the end of cuemu_driver_graph_nodes_api.h.
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_CAPTURE_API_H
#define CUEMU_DRIVER_CAPTURE_API_H

#include "cuemu_driver_graph_api.h"

/* The dependencies read back are the capture's own (valid until the
 * stream's next captured operation), as in CUDA. */
inline CUresult cuStreamGetCaptureInfo(
    CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
    cuuint64_t *id_out, CUgraph *graph_out,
    const CUgraphNode **dependencies_out,
    const CUgraphEdgeData **edgeData_out, size_t *numDependencies_out) {
  CUEMU_DRV_SYMBOL(cuStreamGetCaptureInfo);
  CUEMU_DRV_FORWARD(cudaStreamGetCaptureInfo(
      hStream, reinterpret_cast<cudaStreamCaptureStatus *>(captureStatus_out),
      reinterpret_cast<unsigned long long *>(id_out), graph_out,
      reinterpret_cast<const cudaGraphNode_t **>(dependencies_out),
      edgeData_out, numDependencies_out));
}

inline CUresult cuStreamBeginCaptureToGraph(CUstream hStream, CUgraph hGraph,
                                            const CUgraphNode *dependencies,
                                            const CUgraphEdgeData *dependencyData,
                                            size_t numDependencies,
                                            CUstreamCaptureMode mode) {
  CUEMU_DRV_SYMBOL(cuStreamBeginCaptureToGraph);
  CUEMU_DRV_FORWARD(cudaStreamBeginCaptureToGraph(
      hStream, hGraph, cuemu::drv::rns(dependencies), dependencyData,
      numDependencies, static_cast<cudaStreamCaptureMode>(mode)));
}

inline CUresult cuStreamUpdateCaptureDependencies(
    CUstream hStream, CUgraphNode *dependencies,
    const CUgraphEdgeData *dependencyData, size_t numDependencies,
    unsigned int flags) {
  CUEMU_DRV_SYMBOL(cuStreamUpdateCaptureDependencies);
  CUEMU_DRV_FORWARD(cudaStreamUpdateCaptureDependencies(
      hStream, cuemu::drv::rns(dependencies), dependencyData, numDependencies,
      flags));
}

#endif /* CUEMU_DRIVER_CAPTURE_API_H */
