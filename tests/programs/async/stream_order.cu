// stream_order.cu: the orders CUDA defines between streams, kept while the
// work runs asynchronously (and under CUEMU_SCHEDULE=reverse and
// random:SEED, which change the order of threads inside each launch).
//  - A producer/consumer pair of streams issued by one host thread: each
//    round the producer fills a buffer and raises a flag with
//    cuStreamWriteValue32, the consumer waits on it (cuStreamWaitValue32),
//    sums the buffer and acknowledges with its own write, which the
//    producer waits for before refilling the buffer.
//  - Streams ordered by events: a three-stage pipeline over three streams
//    joined by cudaEventRecord / cudaStreamWaitEvent, whose stages would
//    read stale data if the order were lost; a wait on an event never
//    recorded does not wait.
//  - Host functions (cudaLaunchHostFunc, cudaStreamAddCallback, a graph's
//    host node) run in their stream's order, after the kernels before them
//    and before those after them, on a thread other than the one that
//    issued them.
//  - The legacy default stream waits for the blocking streams' work and
//    they for its work; a non-blocking stream does not wait for it.
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>
#include <vector>

#include "../check.cuh"
#include "async_kernels.cuh"

#define RT(call) CHECK((call) == cudaSuccess)
#define CU(call) CHECK((call) == CUDA_SUCCESS)

static CUdeviceptr dptr(const void *p) { return (CUdeviceptr)(uintptr_t)p; }

static int blocks(int n) { return (n + 127) / 128; }

// Several rounds through one buffer, handed over by flags.
static void producer_consumer() {
  const int n = 1000, rounds = 4;
  int *data, *counts;
  unsigned *flags; // [0]: filled round, [1]: consumed round
  RT(cudaMalloc(&data, n * sizeof(int)));
  RT(cudaMalloc(&counts, rounds * sizeof(int)));
  RT(cudaMalloc(&flags, 2 * sizeof(unsigned)));
  RT(cudaMemset(counts, 0, rounds * sizeof(int)));
  RT(cudaMemset(flags, 0, 2 * sizeof(unsigned)));
  cudaStream_t producer, consumer;
  RT(cudaStreamCreateWithFlags(&producer, cudaStreamNonBlocking));
  RT(cudaStreamCreateWithFlags(&consumer, cudaStreamNonBlocking));
  CUstream p = (CUstream)producer, c = (CUstream)consumer;
  // The consumer's side first: all of it waits for the producer.
  for (int r = 1; r <= rounds; ++r) {
    CU(cuStreamWaitValue32(c, dptr(flags), r, CU_STREAM_WAIT_VALUE_EQ));
    count_expected<int><<<blocks(n), 128, 0, consumer>>>(data, n, r, 7,
                                                          counts + r - 1);
    CU(cuStreamWriteValue32(c, dptr(flags + 1), r, 0));
  }
  for (int r = 1; r <= rounds; ++r) {
    if (r > 1) // the buffer is free again
      CU(cuStreamWaitValue32(p, dptr(flags + 1), r - 1,
                             CU_STREAM_WAIT_VALUE_GEQ));
    fill<int><<<blocks(n), 128, 0, producer>>>(data, n, r, 7);
    CU(cuStreamWriteValue32(p, dptr(flags), r, 0));
  }
  RT(cudaStreamSynchronize(consumer));
  int h[rounds];
  RT(cudaMemcpy(h, counts, sizeof h, cudaMemcpyDeviceToHost));
  for (int r = 0; r < rounds; ++r)
    CHECK(h[r] == n);
  RT(cudaStreamDestroy(producer));
  RT(cudaStreamDestroy(consumer));
  RT(cudaFree(data));
  RT(cudaFree(counts));
  RT(cudaFree(flags));
}

// A pipeline a -> b -> c over three streams, ordered by events only. The
// first stage is held back by a flag the host raises last, so a stage that
// did not wait would read the buffer before it is written.
static void event_pipeline() {
  const int n = 2048;
  double *a, *b, *c;
  int *count;
  int *gate;
  RT(cudaMalloc(&a, n * sizeof(double)));
  RT(cudaMalloc(&b, n * sizeof(double)));
  RT(cudaMalloc(&c, n * sizeof(double)));
  RT(cudaMalloc(&count, sizeof(int)));
  RT(cudaHostAlloc(&gate, sizeof(int), cudaHostAllocMapped));
  *gate = 0;
  int *seen, *out;
  RT(cudaMalloc(&seen, sizeof(int)));
  RT(cudaMalloc(&out, sizeof(int)));
  RT(cudaMemset(a, 0, n * sizeof(double)));
  RT(cudaMemset(b, 0, n * sizeof(double)));
  RT(cudaMemset(c, 0, n * sizeof(double)));
  RT(cudaMemset(count, 0, sizeof(int)));
  cudaStream_t s[3];
  cudaEvent_t e[2], never;
  for (auto &x : s)
    RT(cudaStreamCreateWithFlags(&x, cudaStreamNonBlocking));
  for (auto &x : e)
    RT(cudaEventCreateWithFlags(&x, cudaEventDisableTiming));
  RT(cudaEventCreate(&never));
  RT(cudaStreamWaitEvent(s[0], never, 0)); // never recorded: no wait
  wait_for_flag<<<1, 1, 0, s[0]>>>(gate, 1, seen, out);
  fill<double><<<blocks(n), 128, 0, s[0]>>>(a, n, 0.5, 1.0);
  RT(cudaEventRecord(e[0], s[0]));
  RT(cudaStreamWaitEvent(s[1], e[0], 0));
  add_to<double><<<blocks(n), 128, 0, s[1]>>>(a, b, n, 2.0);
  RT(cudaEventRecord(e[1], s[1]));
  RT(cudaStreamWaitEvent(s[2], e[1], 0));
  add_to<double><<<blocks(n), 128, 0, s[2]>>>(b, c, n, 4.0);
  count_expected<double><<<blocks(n), 128, 0, s[2]>>>(c, n, 0.5, 7.0, count);
  // Recording e[0] again now does not change what s[1] waits for.
  RT(cudaEventRecord(e[0], s[2]));
  // An event destroyed while its record is pending: no error later.
  cudaEvent_t gone;
  RT(cudaEventCreate(&gone));
  RT(cudaEventRecord(gone, s[2]));
  RT(cudaEventDestroy(gone));
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(cudaEventQuery(e[1]) == cudaErrorNotReady);
  (void)cudaGetLastError();
  __atomic_store_n(gate, 1, __ATOMIC_RELEASE);
  RT(cudaStreamSynchronize(s[2]));
  int h = 0;
  RT(cudaMemcpy(&h, count, sizeof h, cudaMemcpyDeviceToHost));
  CHECK(h == n);
  RT(cudaEventQuery(e[0]));
  RT(cudaEventQuery(e[1]));
  for (auto &x : s)
    RT(cudaStreamDestroy(x));
  for (auto &x : e)
    RT(cudaEventDestroy(x));
  RT(cudaEventDestroy(never));
  for (void *p : {(void *)a, (void *)b, (void *)c, (void *)count, (void *)seen,
                  (void *)out})
    RT(cudaFree(p));
  RT(cudaFreeHost(gate));
}

// What each host function saw, in the order they ran.
struct journal {
  std::atomic<int> next{0};
  int order[8];
  int values[8];
  std::thread::id threads[8];
  const int *data;
};

struct entry {
  journal *j;
  int id;
};

static void note(journal *j, int id) {
  int at = j->next.fetch_add(1);
  j->order[at] = id;
  j->values[at] = *(volatile const int *)&j->data[17];
  j->threads[at] = std::this_thread::get_id();
}

static void CUDART_CB host_fn(void *arg) {
  entry *e = static_cast<entry *>(arg);
  note(e->j, e->id);
}

static void CUDART_CB callback(cudaStream_t, cudaError_t status, void *arg) {
  entry *e = static_cast<entry *>(arg);
  CHECK(status == cudaSuccess);
  note(e->j, e->id);
}

static void host_functions() {
  const int n = 256;
  int *data;
  RT(cudaMallocManaged(&data, n * sizeof(int)));
  for (int i = 0; i < n; ++i)
    data[i] = -1;
  journal j;
  j.data = data;
  entry e[4] = {{&j, 0}, {&j, 1}, {&j, 2}, {&j, 3}};
  cudaStream_t s;
  RT(cudaStreamCreate(&s));
  fill<int><<<2, 128, 0, s>>>(data, n, 1, 100); // data[17] = 117
  RT(cudaLaunchHostFunc(s, host_fn, &e[0]));
  fill<int><<<2, 128, 0, s>>>(data, n, 2, 100); // 134
  RT(cudaStreamAddCallback(s, callback, &e[1], 0));
  fill<int><<<2, 128, 0, s>>>(data, n, 3, 100); // 151
  RT(cudaLaunchHostFunc(s, host_fn, &e[2]));
  // A graph's host node, captured, then launched after the others.
  cudaStream_t cap;
  RT(cudaStreamCreateWithFlags(&cap, cudaStreamNonBlocking));
  RT(cudaStreamBeginCapture(cap, cudaStreamCaptureModeThreadLocal));
  fill<int><<<2, 128, 0, cap>>>(data, n, 4, 100); // 168
  RT(cudaLaunchHostFunc(cap, host_fn, &e[3]));
  cudaGraph_t graph;
  RT(cudaStreamEndCapture(cap, &graph));
  cudaGraphExec_t exec;
  RT(cudaGraphInstantiate(&exec, graph, 0));
  RT(cudaGraphLaunch(exec, s));
  RT(cudaStreamSynchronize(s));
  CHECK(j.next.load() == 4);
  const int expected[4] = {117, 134, 151, 168};
  for (int i = 0; i < 4 && i < j.next.load(); ++i) {
    CHECK(j.order[i] == i);
    CHECK(j.values[i] == expected[i]);
    CHECK(j.threads[i] != std::this_thread::get_id());
  }
  RT(cudaGraphExecDestroy(exec));
  RT(cudaGraphDestroy(graph));
  RT(cudaStreamDestroy(cap));
  RT(cudaStreamDestroy(s));
  RT(cudaFree(data));
}

// The legacy default stream and blocking / non-blocking streams.
static void legacy_stream() {
  int *gate, *seen, *out, *count;
  RT(cudaHostAlloc(&gate, sizeof(int), cudaHostAllocMapped));
  RT(cudaMallocManaged(&seen, 2 * sizeof(int)));
  RT(cudaMallocManaged(&out, 2 * sizeof(int)));
  RT(cudaMallocManaged(&count, sizeof(int)));
  *gate = 0;
  out[0] = out[1] = 0;
  *count = 0;
  cudaStream_t blocking, nonblocking;
  RT(cudaStreamCreate(&blocking));
  RT(cudaStreamCreateWithFlags(&nonblocking, cudaStreamNonBlocking));
  // A blocking stream's kernel is held by the gate; work on the legacy
  // stream issued after it waits for it, and work on the blocking stream
  // issued after that waits for the legacy stream's.
  wait_for_flag<<<1, 1, 0, blocking>>>(gate, 1, seen, out);
  count_expected<int><<<1, 1>>>(out, 1, 0, 1, count); // out[0] == 1?
  count_expected<int><<<1, 1, 0, blocking>>>(count, 1, 0, 1, count + 0);
  // The non-blocking stream waits for none of it.
  wait_for_flag<<<1, 1, 0, nonblocking>>>(gate + 0, 0, seen + 1, out + 1);
  RT(cudaStreamSynchronize(nonblocking));
  CHECK(out[1] == 1);
  CHECK(cudaStreamQuery(blocking) == cudaErrorNotReady);
  CHECK(cudaStreamQuery(0) == cudaErrorNotReady);
  (void)cudaGetLastError();
  __atomic_store_n(gate, 1, __ATOMIC_RELEASE);
  RT(cudaStreamSynchronize(blocking));
  // The legacy kernel saw out[0] == 1, then the blocking one saw count 1.
  CHECK(*count == 2);
  RT(cudaStreamDestroy(blocking));
  RT(cudaStreamDestroy(nonblocking));
  RT(cudaFreeHost(gate));
  RT(cudaFree(seen));
  RT(cudaFree(out));
  RT(cudaFree(count));
}

static void all() {
  producer_consumer();
  event_pipeline();
  host_functions();
  legacy_stream();
}

int main() {
  CU(cuInit(0));
  all();
  // The same under other orders of the threads inside each launch (read
  // at each launch; set while no work is pending).
  RT(cudaDeviceSynchronize());
  setenv("CUEMU_SCHEDULE", "reverse", 1);
  all();
  RT(cudaDeviceSynchronize());
  setenv("CUEMU_SCHEDULE", "random:7", 1);
  all();
  RT(cudaDeviceSynchronize());
  unsetenv("CUEMU_SCHEDULE");
  RT(cudaGetLastError());
  return finish();
}
