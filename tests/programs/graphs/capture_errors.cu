/*
 * capture_errors.cu: what CUDA refuses during stream capture, with its
 * error codes: capturing the legacy stream; synchronous copies,
 * cudaStreamSynchronize / Query, cudaDeviceSynchronize and cudaMalloc
 * while capturing (the capture is then invalidated and cudaStreamEndCapture
 * returns no graph); work on the legacy stream while a blocking stream
 * captures; unjoined forks; ending on a forked stream or from another
 * thread; events recorded in a capture; merging two captures; waiting on
 * work outside the capture. And what the modes allow: cudaMalloc in a
 * relaxed capture, in a thread switched to relaxed, and in another thread
 * while this one captures thread-locally.
 */
#include <cuda_runtime.h>

#include <thread>

#include "../check.cuh"
#include "graph_kernels.cuh"

/* Ends a capture expected to have been invalidated. */
static void end_invalidated(cudaStream_t s) {
  cudaGraph_t graph = reinterpret_cast<cudaGraph_t>(&check_failures);
  CHECK(cudaStreamEndCapture(s, &graph) == cudaErrorStreamCaptureInvalidated);
  CHECK(graph == nullptr);
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusActive;
  CUDA_OK(cudaStreamIsCapturing(s, &status));
  CHECK(status == cudaStreamCaptureStatusNone);
  cudaGetLastError();
}

/* Ends a capture expected to succeed; returns its node count. */
static size_t end_ok(cudaStream_t s) {
  cudaGraph_t graph = nullptr;
  size_t nodes = 0;
  CUDA_OK(cudaStreamEndCapture(s, &graph));
  if (graph) {
    CUDA_OK(cudaGraphGetNodes(graph, nullptr, &nodes));
    CUDA_OK(cudaGraphDestroy(graph));
  }
  return nodes;
}

/* cudaMalloc (and cudaFree) in a thread of its own; the error. */
static cudaError_t malloc_in_other_thread() {
  cudaError_t result = cudaSuccess;
  std::thread([&result] {
    float *p = nullptr;
    result = cudaMalloc(&p, 16);
    if (result == cudaSuccess)
      cudaFree(p);
  }).join();
  return result;
}

int main() {
  const int n = 64;
  float *d, *h = new float[n]();
  CUDA_OK(cudaMalloc(&d, n * sizeof(float)));
  cudaStream_t s, s1, nb;
  CUDA_OK(cudaStreamCreate(&s));
  CUDA_OK(cudaStreamCreate(&s1));
  CUDA_OK(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));
  cudaEvent_t e, outside;
  CUDA_OK(cudaEventCreate(&e));
  CUDA_OK(cudaEventCreate(&outside));
  cudaStreamCaptureStatus status;

  /* The legacy stream cannot be captured. */
  CHECK(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal) ==
        cudaErrorStreamCaptureUnsupported);
  cudaGetLastError();

  /* Not twice. */
  CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess);
  CHECK(end_ok(s) == 0);
  cudaGetLastError();

  /* A synchronous copy during a global capture. */
  CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CUDA_OK(cudaMemsetAsync(d, 0, n * sizeof(float), s));
  CHECK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost) ==
        cudaErrorStreamCaptureUnsupported);
  CUDA_OK(cudaStreamIsCapturing(s, &status));
  CHECK(status == cudaStreamCaptureStatusInvalidated);
  /* Work issued to an invalidated capture fails too. */
  scale_into<<<1, n, 0, s>>>(d, d, 2.0f, n);
  CHECK(cudaGetLastError() == cudaErrorStreamCaptureInvalidated);
  end_invalidated(s);

  /* Synchronizing with the capturing stream, or querying it. */
  CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaStreamSynchronize(s) == cudaErrorStreamCaptureUnsupported);
  end_invalidated(s);
  CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  CHECK(cudaStreamQuery(s) == cudaErrorStreamCaptureUnsupported);
  end_invalidated(s);

  /* cudaDeviceSynchronize and cudaMalloc in a global capture. */
  CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaDeviceSynchronize() == cudaErrorStreamCaptureUnsupported);
  end_invalidated(s);
  float *extra = nullptr;
  CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaMalloc(&extra, 16) == cudaErrorStreamCaptureUnsupported);
  end_invalidated(s);

  /* ... allowed in a relaxed capture, or from a thread in relaxed mode. */
  CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
  CUDA_OK(cudaDeviceSynchronize());
  CUDA_OK(cudaMalloc(&extra, 16));
  CUDA_OK(cudaFree(extra));
  CUDA_OK(cudaMemsetAsync(d, 0, n * sizeof(float), s));
  CHECK(end_ok(s) == 1);
  CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  CUDA_OK(cudaThreadExchangeStreamCaptureMode(&mode));
  CHECK(mode == cudaStreamCaptureModeGlobal);
  CUDA_OK(cudaMalloc(&extra, 16));
  CUDA_OK(cudaFree(extra));
  CUDA_OK(cudaThreadExchangeStreamCaptureMode(&mode));
  CHECK(mode == cudaStreamCaptureModeRelaxed);
  CHECK(end_ok(s) == 0);

  /* Another thread's cudaMalloc: refused while this thread captures in
   * global mode, allowed while it captures thread-locally. */
  CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(malloc_in_other_thread() == cudaErrorStreamCaptureUnsupported);
  cudaGraph_t ignored = nullptr;
  cudaStreamEndCapture(s, &ignored);
  if (ignored)
    cudaGraphDestroy(ignored);
  cudaGetLastError();
  CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  CHECK(malloc_in_other_thread() == cudaSuccess);
  CHECK(end_ok(s) == 0);

  /* Ending a global capture from another thread. */
  CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  cudaError_t other = cudaSuccess;
  std::thread([&other, s] {
    cudaGraph_t g = nullptr;
    other = cudaStreamEndCapture(s, &g);
  }).join();
  CHECK(other == cudaErrorStreamCaptureWrongThread);
  CHECK(end_ok(s) == 0);

  /* The legacy stream while a blocking stream captures: asking whether it
   * captures is an error that leaves the capture alone; work on it is an
   * implicit dependency CUDA refuses; a non-blocking stream's capture
   * allows it. */
  CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaStreamIsCapturing(0, &status) == cudaErrorStreamCaptureImplicit);
  cudaGetLastError();
  CHECK(end_ok(s) == 0);
  CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  scale_into<<<1, n>>>(d, d, 2.0f, n);
  CHECK(cudaGetLastError() == cudaErrorStreamCaptureImplicit);
  end_invalidated(s);
  CUDA_OK(cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal));
  scale_into<<<1, n>>>(d, d, 2.0f, n);
  CUDA_OK(cudaGetLastError());
  scale_into<<<1, n, 0, nb>>>(d, d, 2.0f, n);
  CHECK(end_ok(nb) == 1);

  /* A fork never joined back. */
  CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CUDA_OK(cudaEventRecord(e, s));
  CUDA_OK(cudaStreamWaitEvent(s1, e, 0));
  scale_into<<<1, n, 0, s1>>>(d, d, 2.0f, n);
  cudaGraph_t graph = nullptr;
  CHECK(cudaStreamEndCapture(s, &graph) == cudaErrorStreamCaptureUnjoined);
  CHECK(graph == nullptr);
  CUDA_OK(cudaStreamIsCapturing(s1, &status));
  CHECK(status == cudaStreamCaptureStatusNone);
  cudaGetLastError();

  /* Ending on the forked stream rather than the origin. */
  CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CUDA_OK(cudaEventRecord(e, s));
  CUDA_OK(cudaStreamWaitEvent(s1, e, 0));
  CHECK(cudaStreamEndCapture(s1, &graph) == cudaErrorStreamCaptureUnmatched);
  cudaGetLastError();
  CHECK(end_ok(s) == 0);

  /* An event recorded in a capture cannot be queried or waited for. */
  CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
  CUDA_OK(cudaEventRecord(e, s));
  CHECK(cudaEventQuery(e) == cudaErrorCapturedEvent);
  CHECK(cudaEventSynchronize(e) == cudaErrorCapturedEvent);
  cudaGetLastError();
  cudaStreamEndCapture(s, &ignored);
  if (ignored)
    cudaGraphDestroy(ignored);
  cudaGetLastError();

  /* Two captures cannot merge. */
  CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CUDA_OK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  CUDA_OK(cudaEventRecord(e, s));
  CHECK(cudaStreamWaitEvent(s1, e, 0) == cudaErrorStreamCaptureMerge);
  cudaGetLastError();
  cudaStreamEndCapture(s1, &ignored);
  cudaStreamEndCapture(s, &ignored);
  cudaGetLastError();

  /* Waiting in a capture on work recorded outside it. */
  CUDA_OK(cudaEventRecord(outside, s1));
  CUDA_OK(cudaStreamSynchronize(s1));
  CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaStreamWaitEvent(s, outside, 0) ==
        cudaErrorStreamCaptureIsolation);
  cudaGetLastError();
  cudaStreamEndCapture(s, &ignored);
  cudaGetLastError();

  /* An invalid launch configuration is refused when it is captured. */
  CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  scale_into<<<1, 4096, 0, s>>>(d, d, 2.0f, n);
  CHECK(cudaGetLastError() == cudaErrorInvalidConfiguration);
  cudaStreamEndCapture(s, &ignored);
  cudaGetLastError();

#ifdef CUEMU_GRAPH_API_H
  /* cuemu refuses to destroy the graph a capture is building (undefined
   * behaviour on a GPU). */
  cudaGraph_t building = nullptr;
  CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CUDA_OK(cudaStreamGetCaptureInfo(s, &status, nullptr, &building));
  CHECK(cudaGraphDestroy(building) == cudaErrorIllegalState);
  cudaGetLastError();
  CHECK(end_ok(s) == 0);
#endif

  /* After all of it, the streams work as usual. */
  CUDA_OK(cudaMemsetAsync(d, 0, n * sizeof(float), s));
  CUDA_OK(cudaStreamSynchronize(s));
  CUDA_OK(cudaDeviceSynchronize());

  CUDA_OK(cudaEventDestroy(e));
  CUDA_OK(cudaEventDestroy(outside));
  CUDA_OK(cudaStreamDestroy(s));
  CUDA_OK(cudaStreamDestroy(s1));
  CUDA_OK(cudaStreamDestroy(nb));
  CUDA_OK(cudaFree(d));
  delete[] h;
  return finish();
}
