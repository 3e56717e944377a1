// query_keeps_last_error.cu: cudaEventQuery, cudaStreamQuery and
// cudaEventElapsedTime answer cudaErrorNotReady while work is pending, and
// that answer is not an error: it is not left as the thread's last error.
// Benchmark suites time their phases with events (a marker recorded and
// queried at each switch of timer) and then check a copy with
// cudaGetLastError(), which must not report the query. Also the common
// polling loop: query until done, then check the last error.
#include <cuda_runtime.h>

#include <cstdlib>
#include <cstring>

#include "../check.cuh"

#define RT(call) CHECK((call) == cudaSuccess)

// Spins until the host raises *flag (mapped pinned memory), then writes.
__global__ void wait_then_write(volatile int *flag, int *out) {
  while (*flag == 0) {
  }
  out[threadIdx.x] = threadIdx.x + 1;
}

__global__ void scale(float *v, int n, float by) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] *= by;
}

static bool streams_run_inline() {
  const char *s = std::getenv("CUEMU_STREAMS");
  return s && std::strcmp(s, "sync") == 0;
}

// A query that finds the kernel still running: NotReady, and no last error.
static void pending_queries() {
  int *flag, *out;
  RT(cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped));
  RT(cudaMalloc(&out, 32 * sizeof(int)));
  *flag = 0;
  cudaStream_t s;
  RT(cudaStreamCreate(&s));
  cudaEvent_t start, done;
  RT(cudaEventCreate(&start));
  RT(cudaEventCreate(&done));
  int *dflag;
  RT(cudaHostGetDevicePointer(&dflag, flag, 0));
  RT(cudaEventRecord(start, s));
  wait_then_write<<<1, 32, 0, s>>>(dflag, out);
  RT(cudaEventRecord(done, s));
  CHECK(cudaEventQuery(done) == cudaErrorNotReady);
  CHECK(cudaPeekAtLastError() == cudaSuccess);
  CHECK(cudaStreamQuery(s) == cudaErrorNotReady);
  CHECK(cudaPeekAtLastError() == cudaSuccess);
  float ms = -1;
  CHECK(cudaEventElapsedTime(&ms, start, done) == cudaErrorNotReady);
  CHECK(cudaGetLastError() == cudaSuccess);
  __atomic_store_n(flag, 1, __ATOMIC_RELEASE);
  RT(cudaEventSynchronize(done));
  RT(cudaEventQuery(done));
  RT(cudaEventElapsedTime(&ms, start, done));
  int h[32];
  RT(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
  CHECK(h[0] == 1 && h[31] == 32);
  RT(cudaGetLastError());
  RT(cudaEventDestroy(start));
  RT(cudaEventDestroy(done));
  RT(cudaStreamDestroy(s));
  RT(cudaFree(out));
  RT(cudaFreeHost(flag));
}

// The timer pattern: a marker recorded and queried right after a kernel
// and after a device-wide synchronisation, then a copy checked with
// cudaGetLastError(), as a phase timer's switch does.
static void timer_markers() {
  const int n = 1 << 12;
  float *d, h[n];
  for (int i = 0; i < n; ++i)
    h[i] = (float)i;
  RT(cudaMalloc(&d, n * sizeof(float)));
  RT(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  cudaEvent_t marks[4];
  for (auto &m : marks)
    RT(cudaEventCreate(&m));
  for (int round = 0; round < 4; ++round) {
    RT(cudaEventRecord(marks[0], 0));
    scale<<<n / 256, 256>>>(d, n, 2.0f);
    RT(cudaEventRecord(marks[1], 0));
    cudaError_t q = cudaEventQuery(marks[1]);
    CHECK(q == cudaSuccess || q == cudaErrorNotReady);
    RT(cudaEventSynchronize(marks[1]));
    RT(cudaDeviceSynchronize());
    RT(cudaEventRecord(marks[2], 0));
    q = cudaEventQuery(marks[2]);
    CHECK(q == cudaSuccess || q == cudaErrorNotReady);
    RT(cudaEventSynchronize(marks[2]));
    RT(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    CHECK(cudaGetLastError() == cudaSuccess);
  }
  CHECK(h[3] == 3.0f * 16 && h[n - 1] == (float)(n - 1) * 16);
  // The polling loop, then the usual check.
  scale<<<n / 256, 256>>>(d, n, 0.5f);
  RT(cudaEventRecord(marks[3], 0));
  while (cudaEventQuery(marks[3]) == cudaErrorNotReady) {
  }
  while (cudaStreamQuery(0) == cudaErrorNotReady) {
  }
  CHECK(cudaGetLastError() == cudaSuccess);
  for (auto &m : marks)
    RT(cudaEventDestroy(m));
  RT(cudaFree(d));
}

int main() {
  if (!streams_run_inline())
    pending_queries();
  timer_markers();
  return finish();
}
