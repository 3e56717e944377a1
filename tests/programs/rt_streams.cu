/*
 * rt_streams.cu: streams and events: creation with flags and priorities,
 * the default streams, work ordered across streams with events, callbacks
 * and host functions running in stream order, elapsed time of real work,
 * and the error paths (a destroyed stream or event, an event without
 * timing, an event never recorded, bad flags). Prints PASS and exits 0
 * when all is well.
 */
#include <cuda_runtime.h>

#include "check.cuh"

__global__ void fill(int *out, int n, int value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = value;
}

__global__ void add_one(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] += 1;
}

/* Enough arithmetic per thread for the elapsed time to be measurable. */
__global__ void busy(float *out, int n, int rounds) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float x = out[i];
  for (int r = 0; r < rounds; ++r)
    x = x * 0.999f + 0.5f;
  out[i] = x;
}

static const int N = 1024;

/* What the host functions and callbacks saw, in the order they ran. */
static int order[8];
static int order_count = 0;
static int *watched = nullptr;

struct note {
  int tag;
  int expect_first; /* the value watched[0] must hold when it runs */
};

static void host_note(void *data) {
  const note *n = static_cast<const note *>(data);
  CHECK(watched[0] == n->expect_first);
  CHECK(watched[N - 1] == n->expect_first);
  if (order_count < 8)
    order[order_count++] = n->tag;
}

static void CUDART_CB callback_note(cudaStream_t stream, cudaError_t status,
                                    void *data) {
  (void)stream;
  CHECK(status == cudaSuccess);
  host_note(data);
}

int main() {
  /* Creation, flags and priorities. */
  int least = 1, greatest = 1;
  CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest) == cudaSuccess);
  CHECK(greatest <= least);
  cudaStream_t plain, nonblocking, urgent;
  CHECK(cudaStreamCreate(&plain) == cudaSuccess);
  CHECK(cudaStreamCreateWithFlags(&nonblocking, cudaStreamNonBlocking) ==
        cudaSuccess);
  CHECK(cudaStreamCreateWithPriority(&urgent, cudaStreamDefault, greatest) ==
        cudaSuccess);
  unsigned flags = 99;
  CHECK(cudaStreamGetFlags(nonblocking, &flags) == cudaSuccess);
  CHECK(flags == cudaStreamNonBlocking);
  CHECK(cudaStreamGetFlags(plain, &flags) == cudaSuccess);
  CHECK(flags == cudaStreamDefault);
  int priority = 99;
  CHECK(cudaStreamGetPriority(urgent, &priority) == cudaSuccess);
  CHECK(priority == greatest);
  CHECK(plain != nonblocking && plain != urgent && plain != 0);

  /* Stream order, and order across streams through an event. */
  int *a;
  CHECK(cudaMallocManaged(&a, N * sizeof(int)) == cudaSuccess);
  watched = a;
  cudaEvent_t filled;
  CHECK(cudaEventCreateWithFlags(&filled, cudaEventDisableTiming) ==
        cudaSuccess);
  fill<<<N / 128, 128, 0, plain>>>(a, N, 10);
  CHECK(cudaEventRecord(filled, plain) == cudaSuccess);
  CHECK(cudaStreamWaitEvent(nonblocking, filled, 0) == cudaSuccess);
  add_one<<<N / 128, 128, 0, nonblocking>>>(a, N);
  static note first = {1, 11};
  CHECK(cudaLaunchHostFunc(nonblocking, host_note, &first) == cudaSuccess);
  add_one<<<N / 128, 128, 0, nonblocking>>>(a, N);
  static note second = {2, 12};
  CHECK(cudaStreamAddCallback(nonblocking, callback_note, &second, 0) ==
        cudaSuccess);
  add_one<<<N / 128, 128, 0, nonblocking>>>(a, N);
  static note third = {3, 13};
  CHECK(cudaLaunchHostFunc(nonblocking, host_note, &third) == cudaSuccess);
  CHECK(cudaStreamSynchronize(nonblocking) == cudaSuccess);
  CHECK(cudaStreamQuery(nonblocking) == cudaSuccess);
  CHECK(cudaEventQuery(filled) == cudaSuccess);
  CHECK(cudaEventSynchronize(filled) == cudaSuccess);
  CHECK(order_count == 3);
  CHECK(order[0] == 1 && order[1] == 2 && order[2] == 3);
  CHECK(a[0] == 13 && a[N / 2] == 13 && a[N - 1] == 13);

  /* The default streams: 0, cudaStreamLegacy and cudaStreamPerThread. */
  add_one<<<N / 128, 128>>>(a, N);
  add_one<<<N / 128, 128, 0, cudaStreamLegacy>>>(a, N);
  add_one<<<N / 128, 128, 0, cudaStreamPerThread>>>(a, N);
  CHECK(cudaStreamSynchronize(0) == cudaSuccess);
  CHECK(cudaStreamSynchronize(cudaStreamLegacy) == cudaSuccess);
  CHECK(cudaStreamSynchronize(cudaStreamPerThread) == cudaSuccess);
  CHECK(cudaStreamQuery(cudaStreamPerThread) == cudaSuccess);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(a[0] == 16 && a[N - 1] == 16);

  /* Elapsed time of real work. */
  float *f;
  CHECK(cudaMalloc(&f, N * sizeof(float)) == cudaSuccess);
  CHECK(cudaMemset(f, 0, N * sizeof(float)) == cudaSuccess);
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start) == cudaSuccess);
  CHECK(cudaEventCreate(&stop, cudaEventBlockingSync) == cudaSuccess);
  CHECK(cudaEventRecord(start, urgent) == cudaSuccess);
  busy<<<N / 256, 256, 0, urgent>>>(f, N, 2000);
  CHECK(cudaEventRecord(stop, urgent) == cudaSuccess);
  CHECK(cudaEventSynchronize(stop) == cudaSuccess);
  float ms = -1.0f;
  CHECK(cudaEventElapsedTime(&ms, start, stop) == cudaSuccess);
  CHECK(ms > 0.0f);
  float host[N];
  CHECK(cudaMemcpy(host, f, sizeof host, cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  CHECK(host[0] > 100.0f && host[N - 1] == host[0]);

  /* Error paths. An event without timing refuses the query. */
  CHECK(cudaEventElapsedTime(&ms, start, filled) ==
        cudaErrorInvalidResourceHandle);
  CHECK(cudaGetLastError() == cudaErrorInvalidResourceHandle);
  CHECK(cudaGetLastError() == cudaSuccess);
  /* An event never recorded. */
  cudaEvent_t fresh;
  CHECK(cudaEventCreate(&fresh) == cudaSuccess);
  CHECK(cudaEventQuery(fresh) == cudaSuccess);
  CHECK(cudaEventElapsedTime(&ms, start, fresh) ==
        cudaErrorInvalidResourceHandle);
  CHECK(cudaEventElapsedTime(nullptr, start, stop) == cudaErrorInvalidValue);
  /* Bad flags. */
  cudaStream_t bad_stream;
  CHECK(cudaStreamCreateWithFlags(&bad_stream, 0x10) == cudaErrorInvalidValue);
  cudaEvent_t bad_event;
  CHECK(cudaEventCreateWithFlags(&bad_event, 0x40) == cudaErrorInvalidValue);
  CHECK(cudaStreamAddCallback(plain, callback_note, &first, 1) ==
        cudaErrorInvalidValue);
  (void)cudaGetLastError();
  /* Destroyed streams and events. */
  CHECK(cudaStreamDestroy(plain) == cudaSuccess);
  CHECK(cudaStreamSynchronize(plain) == cudaErrorInvalidResourceHandle);
  CHECK(cudaStreamQuery(plain) == cudaErrorInvalidResourceHandle);
  CHECK(cudaStreamDestroy(plain) == cudaErrorInvalidResourceHandle);
  /* A launch into the destroyed stream is refused and runs nothing. */
  (void)cudaGetLastError();
  a[0] = -5;
  fill<<<1, 1, 0, plain>>>(a, 1, 9);
  CHECK(cudaGetLastError() == cudaErrorInvalidResourceHandle);
  CHECK(a[0] == -5);
  CHECK(cudaEventRecord(start, plain) == cudaErrorInvalidResourceHandle);
  CHECK(cudaLaunchHostFunc(plain, host_note, &first) ==
        cudaErrorInvalidResourceHandle);
  CHECK(order_count == 3);
  CHECK(cudaGetLastError() == cudaErrorInvalidResourceHandle);
  CHECK(cudaEventDestroy(fresh) == cudaSuccess);
  CHECK(cudaEventRecord(fresh, 0) == cudaErrorInvalidResourceHandle);
  CHECK(cudaEventSynchronize(fresh) == cudaErrorInvalidResourceHandle);
  CHECK(cudaEventQuery(fresh) == cudaErrorInvalidResourceHandle);
  CHECK(cudaEventElapsedTime(&ms, start, fresh) ==
        cudaErrorInvalidResourceHandle);
  CHECK(cudaStreamWaitEvent(urgent, fresh, 0) ==
        cudaErrorInvalidResourceHandle);
  CHECK(cudaEventDestroy(fresh) == cudaErrorInvalidResourceHandle);
  CHECK(cudaGetLastError() == cudaErrorInvalidResourceHandle);
  CHECK(cudaGetLastError() == cudaSuccess);

  CHECK(cudaEventDestroy(start) == cudaSuccess);
  CHECK(cudaEventDestroy(stop) == cudaSuccess);
  CHECK(cudaEventDestroy(filled) == cudaSuccess);
  CHECK(cudaStreamDestroy(nonblocking) == cudaSuccess);
  CHECK(cudaStreamDestroy(urgent) == cudaSuccess);
  CHECK(cudaFree(a) == cudaSuccess);
  CHECK(cudaFree(f) == cudaSuccess);
  return finish();
}
