// event_query_in_host_function.cu: a host function that asks about an
// event recorded after it in its own stream sees it not ready
// (cudaErrorNotReady), as the host does: the record cannot have run before
// the host function ends. cuda-api-wrappers' event_management reports
// from its callbacks whether its events have occurred; cuemu answered
// cudaSuccess on a stream's execution thread, whatever the records.
#include <atomic>
#include <cstdio>
#include <unistd.h>

#include <cuda_runtime.h>

__global__ void touch(int *p) { p[threadIdx.x] += 1; }

static cudaEvent_t before, after;
static std::atomic<int> issued{0};
static cudaError_t seen_before = cudaErrorUnknown, seen_after = cudaErrorUnknown;

static void report(void *) {
  while (issued.load() == 0) /* until the host has recorded `after` */
    usleep(1000);
  seen_before = cudaEventQuery(before);
  seen_after = cudaEventQuery(after);
}

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                   \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main() {
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) ==
        cudaSuccess);
  int *p;
  CHECK(cudaMalloc(&p, 64 * sizeof(int)) == cudaSuccess);
  CHECK(cudaMemset(p, 0, 64 * sizeof(int)) == cudaSuccess);
  CHECK(cudaEventCreate(&before) == cudaSuccess);
  CHECK(cudaEventCreate(&after) == cudaSuccess);
  CHECK(cudaEventRecord(before, stream) == cudaSuccess);
  CHECK(cudaLaunchHostFunc(stream, report, nullptr) == cudaSuccess);
  touch<<<1, 64, 0, stream>>>(p);
  CHECK(cudaEventRecord(after, stream) == cudaSuccess);
  issued.store(1);
  CHECK(cudaStreamSynchronize(stream) == cudaSuccess);
  CHECK(seen_before == cudaSuccess);
  CHECK(seen_after == cudaErrorNotReady);
  CHECK(cudaEventQuery(after) == cudaSuccess);
  float ms = -1;
  CHECK(cudaEventElapsedTime(&ms, before, after) == cudaSuccess && ms >= 0);
  CHECK(cudaFree(p) == cudaSuccess);
  printf("PASS\n");
  return 0;
}
