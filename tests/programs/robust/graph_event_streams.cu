// graph_event_streams.cu: a graph whose event record nodes time a kernel
// (start, kernel, end), instantiated twice and launched 50 times into each
// of two streams at once. While launches run, cudaEventQuery and
// cudaEventElapsedTime give cudaSuccess or cudaErrorNotReady and nothing
// else; once both streams are done, the events hold the records of the
// last launch issued (CUDA: an event is its most recent record), so the
// elapsed time is that launch's own and not negative, and every launch
// ran. Launches of two executable graphs run concurrently here, and one
// that was issued earlier may end later: its stamps must not replace the
// later launch's.
#include <cuda_runtime.h>

#include <cstdio>

#include "../check.cuh"

// Counts its launches after `work` rounds of arithmetic (the two
// instances of the graph work differently long, so that launches of the
// two streams end out of issue order).
__global__ void count_launch(unsigned *counter, unsigned *sink, int work) {
  unsigned x = threadIdx.x;
  for (int i = 0; i < work; ++i)
    x = x * 1664525u + 1013904223u;
  if (x == 0xdeadbeefu)
    *sink = x;
  if (threadIdx.x == 0 && blockIdx.x == 0)
    atomicAdd(counter, 1u);
}

static bool query_ok(cudaError_t e) {
  return e == cudaSuccess || e == cudaErrorNotReady;
}

int main() {
  unsigned *counter, *sink;
  cudaMalloc(&counter, sizeof(unsigned));
  cudaMalloc(&sink, sizeof(unsigned));
  cudaMemset(counter, 0, sizeof(unsigned));
  cudaStream_t streams[2];
  for (cudaStream_t &s : streams)
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaEvent_t start, end;
  cudaEventCreate(&start);
  cudaEventCreate(&end);

  // start -> kernel -> end, built explicitly; two instances of it, each
  // with its own amount of work.
  cudaGraphExec_t execs[2];
  for (int k = 0; k < 2; ++k) {
    cudaGraph_t graph;
    cudaGraphCreate(&graph, 0);
    cudaGraphNode_t record_start, kernel, record_end;
    CHECK(cudaGraphAddEventRecordNode(&record_start, graph, nullptr, 0,
                                      start) == cudaSuccess);
    int work = k == 0 ? 20000 : 10;
    void *args[] = {&counter, &sink, &work};
    cudaKernelNodeParams p = {};
    p.func = (void *)count_launch;
    p.gridDim = dim3(2);
    p.blockDim = dim3(32);
    p.kernelParams = args;
    CHECK(cudaGraphAddKernelNode(&kernel, graph, &record_start, 1, &p) ==
          cudaSuccess);
    CHECK(cudaGraphAddEventRecordNode(&record_end, graph, &kernel, 1, end) ==
          cudaSuccess);
    CHECK(cudaGraphInstantiate(&execs[k], graph, 0) == cudaSuccess);
    cudaGraphDestroy(graph);
  }

  int bad_query = 0, bad_elapsed = 0;
  for (int i = 0; i < 50; ++i) {
    for (int k = 0; k < 2; ++k) {
      CHECK(cudaGraphLaunch(execs[k], streams[k]) == cudaSuccess);
      bad_query += !query_ok(cudaEventQuery(end));
      float ms = -1;
      cudaError_t e = cudaEventElapsedTime(&ms, start, end);
      bad_elapsed += !query_ok(e) || (e == cudaSuccess && ms < 0);
    }
  }
  cudaGetLastError(); // the cudaErrorNotReady of the queries
  CHECK(bad_query == 0);
  CHECK(bad_elapsed == 0);
  // The last launch issued was execs[1]'s, into streams[1]: once that
  // stream is done, so are the events.
  CHECK(cudaStreamSynchronize(streams[1]) == cudaSuccess);
  CHECK(cudaEventQuery(end) == cudaSuccess);
  CHECK(cudaEventQuery(start) == cudaSuccess);
  float last = -1;
  CHECK(cudaEventElapsedTime(&last, start, end) == cudaSuccess);
  CHECK(last >= 0);
  CHECK(cudaStreamSynchronize(streams[0]) == cudaSuccess);
  // The earlier launches of streams[0], ended later, did not change them.
  float after = -1;
  CHECK(cudaEventElapsedTime(&after, start, end) == cudaSuccess);
  CHECK(after == last);
  unsigned launches = 0;
  cudaMemcpy(&launches, counter, sizeof launches, cudaMemcpyDeviceToHost);
  CHECK(launches == 100);
  if (check_failures)
    std::fprintf(stderr, "bad queries %d, bad elapsed %d, last %g, after %g, "
                 "launches %u\n", bad_query, bad_elapsed, last, after,
                 launches);
  for (cudaGraphExec_t e : execs)
    cudaGraphExecDestroy(e);
  return finish();
}
