// per_thread_capture.cu: stream capture under per-thread default streams
// (built with `--default-stream per-thread`). Stream 0 is the calling
// thread's default stream, so a capture begun on stream 0 captures the
// work that thread issues to cudaStreamPerThread by name, and is ended by
// that name; another host thread's stream 0 (and its cudaStreamPerThread)
// is another stream: its work runs, is not captured, and it cannot end
// the capture (cudaErrorIllegalState: its stream is not capturing). The
// legacy default stream (cudaStreamLegacy) still synchronises with the
// per-thread stream, so using it while that stream captures is
// cudaErrorStreamCaptureImplicit and invalidates the capture, and it
// cannot be captured itself; a blocking copy while the thread's own
// stream captures (relaxed mode) fails and invalidates the capture; a
// blocking stream of another device is not
// joined that way, and each device has its own per-thread stream (with two
// emulated devices, which the program asks cuemu for: CUEMU_DEVICE).
// CUEMU_OPTIONS: --default-stream per-thread -std=c++17
// NVCC_OPTIONS: --default-stream per-thread
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include "../check.cuh"
#include "graphs16_kernels.cuh"

static const int N = 1024;

static cudaStreamCaptureStatus capturing(cudaStream_t s) {
  cudaStreamCaptureStatus st = cudaStreamCaptureStatusInvalidated;
  CHECK(cudaStreamIsCapturing(s, &st) == cudaSuccess);
  return st;
}

// Work of a second host thread while the main one captures: its stream 0
// runs a kernel and a blocking copy (allowed: the capture is thread-local)
// and gets the result.
static void other_thread(int *buf, int *result, cudaError_t *end_error) {
  *result = -1;
  if (capturing(0) != cudaStreamCaptureStatusNone ||
      capturing(cudaStreamPerThread) != cudaStreamCaptureStatusNone)
    return;
  fill<int><<<N / 256, 256>>>(buf, N, 3, 1);
  std::vector<int> host(N);
  if (cudaMemcpy(host.data(), buf, N * sizeof(int), cudaMemcpyDeviceToHost) !=
      cudaSuccess)
    return;
  int ok = 0;
  for (int i = 0; i < N; ++i)
    ok += host[i] == 3 * i + 1;
  *result = ok;
  cudaGraph_t g = nullptr;
  *end_error = cudaStreamEndCapture(cudaStreamPerThread, &g);
  cudaGetLastError();
}

// The legacy stream of each device against a capture on device 1.
static void two_devices(int *a0) {
  int *a1;
  RT(cudaSetDevice(1));
  RT(cudaMalloc(&a1, N * sizeof(int)));
  cudaStream_t s1;
  RT(cudaStreamCreate(&s1)); // blocking, on device 1
  RT(cudaStreamBeginCapture(s1, cudaStreamCaptureModeRelaxed));
  RT(cudaMemsetAsync(a1, 0, N * sizeof(int), s1));
  RT(cudaSetDevice(0));
  CHECK(capturing(cudaStreamPerThread) == cudaStreamCaptureStatusNone);
  RT(cudaMemsetAsync(a0, 0, N * sizeof(int), cudaStreamLegacy));
  RT(cudaStreamSynchronize(cudaStreamLegacy));
  CHECK(capturing(s1) == cudaStreamCaptureStatusActive);
  RT(cudaSetDevice(1));
  CHECK(cudaMemsetAsync(a1, 1, N * sizeof(int), cudaStreamLegacy) ==
        cudaErrorStreamCaptureImplicit);
  cudaGetLastError();
  cudaGraph_t g = nullptr;
  CHECK(cudaStreamEndCapture(s1, &g) == cudaErrorStreamCaptureInvalidated);
  cudaGetLastError();
  // Device 1's per-thread stream is not device 0's.
  RT(cudaSetDevice(0));
  RT(cudaStreamBeginCapture(cudaStreamPerThread,
                            cudaStreamCaptureModeRelaxed));
  RT(cudaSetDevice(1));
  CHECK(capturing(cudaStreamPerThread) == cudaStreamCaptureStatusNone);
  RT(cudaSetDevice(0));
  CHECK(capturing(cudaStreamPerThread) == cudaStreamCaptureStatusActive);
  RT(cudaStreamEndCapture(cudaStreamPerThread, &g));
  RT(cudaGraphDestroy(g));
  RT(cudaSetDevice(1));
  RT(cudaStreamDestroy(s1));
  RT(cudaFree(a1));
  RT(cudaSetDevice(0));
}

int main() {
  setenv("CUEMU_DEVICE", "count=2", 0); // before the first CUDA call
  int *a, *b, *other;
  RT(cudaMalloc(&a, N * sizeof(int)));
  RT(cudaMalloc(&b, N * sizeof(int)));
  RT(cudaMalloc(&other, N * sizeof(int)));
  RT(cudaMemset(a, 0, N * sizeof(int)));
  RT(cudaMemset(b, 0, N * sizeof(int)));

  // Captured from stream 0 and from cudaStreamPerThread by name: one
  // stream, one chain of three nodes.
  RT(cudaStreamBeginCapture(0, cudaStreamCaptureModeThreadLocal));
  CHECK(capturing(cudaStreamPerThread) == cudaStreamCaptureStatusActive);
  CHECK(capturing(0) == cudaStreamCaptureStatusActive);
  fill<int><<<N / 256, 256>>>(a, N, 2, 5);                      // a = 2i+5
  twice_plus<int><<<N / 256, 256, 0, cudaStreamPerThread>>>(a, b, N, 1);
  RT(cudaMemsetAsync(a, 0, N * sizeof(int), cudaStreamPerThread));
  int other_ok = -2;
  cudaError_t other_end = cudaSuccess;
  std::thread t(other_thread, other, &other_ok, &other_end);
  t.join();
  CHECK(other_ok == N); // the other thread's work ran, not captured
  CHECK(other_end == cudaErrorIllegalState);
  cudaGraph_t graph = nullptr;
  RT(cudaStreamEndCapture(cudaStreamPerThread, &graph));
  CHECK(graph != nullptr);
  size_t nodes = 0, edges = 0;
  RT(cudaGraphGetNodes(graph, nullptr, &nodes));
  RT(cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &edges));
  CHECK(nodes == 3 && edges == 2);
  CHECK(capturing(0) == cudaStreamCaptureStatusNone);

  // Nothing ran while capturing; the graph does it all.
  std::vector<int> ha(N), hb(N);
  RT(cudaMemcpy(hb.data(), b, N * sizeof(int), cudaMemcpyDeviceToHost));
  int untouched = 0;
  for (int i = 0; i < N; ++i)
    untouched += hb[i] == 0;
  CHECK(untouched == N);
  cudaGraphExec_t exec;
  RT(cudaGraphInstantiate(&exec, graph, 0));
  RT(cudaGraphLaunch(exec, 0));
  RT(cudaMemcpy(ha.data(), a, N * sizeof(int), cudaMemcpyDeviceToHost));
  RT(cudaMemcpy(hb.data(), b, N * sizeof(int), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < N; ++i)
    bad += ha[i] != 0 || hb[i] != 2 * (2 * i + 5) + 1;
  CHECK(bad == 0);

  // The legacy stream cannot be captured; using it while the per-thread
  // stream (a blocking stream) captures would join the capture implicitly.
  CHECK(cudaStreamBeginCapture(cudaStreamLegacy,
                               cudaStreamCaptureModeGlobal) ==
        cudaErrorStreamCaptureUnsupported);
  cudaGetLastError();
  RT(cudaStreamBeginCapture(cudaStreamPerThread, cudaStreamCaptureModeGlobal));
  cudaStreamCaptureStatus st;
  CHECK(cudaStreamIsCapturing(cudaStreamLegacy, &st) ==
        cudaErrorStreamCaptureImplicit);
  cudaGetLastError();
  fill<int><<<N / 256, 256>>>(a, N, 1, 0);
  CHECK(cudaMemsetAsync(b, 0, N * sizeof(int), cudaStreamLegacy) ==
        cudaErrorStreamCaptureImplicit);
  cudaGetLastError();
  CHECK(capturing(0) == cudaStreamCaptureStatusInvalidated);
  cudaGraph_t none = graph;
  CHECK(cudaStreamEndCapture(0, &none) == cudaErrorStreamCaptureInvalidated);
  CHECK(none == nullptr);
  cudaGetLastError();

  // A blocking copy uses the thread's own stream 0, which may not be
  // capturing even in relaxed mode (as cudaStreamSynchronize of it): the
  // copy fails and the capture is invalidated.
  RT(cudaStreamBeginCapture(cudaStreamPerThread,
                            cudaStreamCaptureModeRelaxed));
  fill<int><<<N / 256, 256>>>(a, N, 1, 0);
  CHECK(cudaMemcpy(ha.data(), a, N * sizeof(int), cudaMemcpyDeviceToHost) ==
        cudaErrorStreamCaptureUnsupported);
  cudaGetLastError();
  CHECK(capturing(cudaStreamPerThread) ==
        cudaStreamCaptureStatusInvalidated);
  none = graph;
  CHECK(cudaStreamEndCapture(cudaStreamPerThread, &none) ==
        cudaErrorStreamCaptureInvalidated);
  CHECK(none == nullptr);
  cudaGetLastError();

  int devices = 0;
  RT(cudaGetDeviceCount(&devices));
  if (devices >= 2)
    two_devices(a);
  else
    std::printf("one device: the checks of two devices are left out\n");

  RT(cudaGraphExecDestroy(exec));
  RT(cudaGraphDestroy(graph));
  RT(cudaFree(a));
  RT(cudaFree(b));
  RT(cudaFree(other));
  RT(cudaGetLastError());
  return finish();
}
