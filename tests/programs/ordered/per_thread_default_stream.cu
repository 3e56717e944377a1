// per_thread_default_stream.cu: built with `--default-stream per-thread`,
// stream 0 is each host thread's own default stream, as CUDA specifies:
//  - a kernel that a second host thread holds on its stream 0 does not
//    hold this thread's stream 0 (a kernel and a cudaMemcpy on it finish),
//    nor a created blocking stream (it synchronises with the legacy
//    default stream only);
//  - the held thread's stream 0 and cudaStreamPerThread are one stream:
//    cudaStreamQuery of either says cudaErrorNotReady on that thread;
//  - the legacy default stream (cudaStreamLegacy) still waits for the
//    per-thread default streams' earlier work (they are blocking streams);
//  - each thread's work on its stream 0 runs in order and gets its result.
// A valve thread raises the flag after seconds if the program's order
// is wrong, and the checks that count on the hold then fail.
// CUEMU_OPTIONS: --default-stream per-thread -std=c++17
// NVCC_OPTIONS: --default-stream per-thread
#include <cuda_runtime.h>

#include <atomic>
#include <thread>

#include "../check.cuh"
#include "ordered_kernels.cuh"

#define RT(call) CHECK((call) == cudaSuccess)

static const int N = 4096;

// fill, then twice_plus, then sum on the calling thread's stream 0; the
// host reads the sum with cudaMemcpy (which waits for that stream). The
// buffers are allocated before (cudaFree waits for the whole device).
static int pipeline_on_stream_zero(int offset, int *a, int *sum) {
  RT(cudaMemsetAsync(sum, 0, sizeof(int), 0));
  fill<int><<<N / 256, 256>>>(a, N, 1, offset);
  twice_plus<int><<<N / 256, 256>>>(a, a, N, 1);
  sum_into<int><<<N / 256, 256, 0, cudaStreamPerThread>>>(a, N, sum);
  int host = -1;
  RT(cudaMemcpy(&host, sum, sizeof host, cudaMemcpyDeviceToHost));
  return host;
}

static int expected(int offset) {
  return 2 * (N * (N - 1) / 2 + N * offset) + N;
}

int main() {
  RT(cudaSetDeviceFlags(cudaDeviceMapHost));
  int *buffers[4], *x;
  for (int *&b : buffers)
    RT(cudaMalloc(&b, N * sizeof(int)));
  RT(cudaMalloc(&x, N * sizeof(int)));
  cudaStream_t blocking;
  RT(cudaStreamCreate(&blocking));
  const bool held = !streams_run_inline();
  Hold hold(5.0);
  std::atomic<int> stage{0};
  int other_result = 0;
  // The other host thread holds its stream 0, queues work behind the
  // hold, and waits until this thread has checked what it must.
  std::thread other([&] {
    hold_until<<<1, 32>>>(hold.dflag);
    RT(cudaGetLastError());
    if (held) {
      CHECK(cudaStreamQuery(0) == cudaErrorNotReady);
      CHECK(cudaStreamQuery(cudaStreamPerThread) == cudaErrorNotReady);
      cudaGetLastError();
    }
    stage = 1;
    while (stage.load() != 2)
      std::this_thread::yield();
    other_result = pipeline_on_stream_zero(5, buffers[0], buffers[1]);
    RT(cudaStreamSynchronize(0));
  });
  while (stage.load() != 1)
    std::this_thread::yield();

  // This thread's stream 0 is not held.
  CHECK(pipeline_on_stream_zero(2, buffers[2], buffers[3]) == expected(2));
  RT(cudaStreamSynchronize(0));
  RT(cudaStreamQuery(cudaStreamPerThread));
  // Nor is a blocking stream created here.
  fill<int><<<N / 256, 256, 0, blocking>>>(x, N, 3, 0);
  RT(cudaStreamSynchronize(blocking));
  int probe[2] = {0, 0};
  RT(cudaMemcpyAsync(probe, x + 1, 2 * sizeof(int), cudaMemcpyDeviceToHost,
                     blocking));
  RT(cudaStreamSynchronize(blocking));
  CHECK(probe[0] == 3 && probe[1] == 6);
  // The legacy default stream waits for the held per-thread stream.
  fill<int><<<N / 256, 256, 0, cudaStreamLegacy>>>(x, N, 1, 0);
  if (held) {
    CHECK(cudaStreamQuery(cudaStreamLegacy) == cudaErrorNotReady);
    cudaGetLastError();
  }
  CHECK(hold.release()); // nothing above waited for the hold
  RT(cudaStreamSynchronize(cudaStreamLegacy));
  RT(cudaMemcpyAsync(probe, x + 1, 2 * sizeof(int), cudaMemcpyDeviceToHost,
                     cudaStreamLegacy));
  RT(cudaStreamSynchronize(cudaStreamLegacy));
  CHECK(probe[0] == 1 && probe[1] == 2);
  stage = 2;
  other.join();
  CHECK(other_result == expected(5));
  RT(cudaFree(x));
  for (int *b : buffers)
    RT(cudaFree(b));
  RT(cudaStreamDestroy(blocking));
  RT(cudaDeviceSynchronize());
  RT(cudaGetLastError());
  return finish();
}
