/*
 * ipc_event_limits.cu: interprocess events (cudaEventInterprocess), what
 * cuemu once approximated or left unchecked.
 *
 * Which records have run is exact: a stream that waits for a record still
 * blocked keeps waiting though the same event is recorded 100 more times
 * in another stream and those records have run (cuemu once counted a
 * record as run once the record 64 tickets after it had); the event
 * itself, its most recent record done, is complete.
 *
 * A handle whose event is gone does not open: a child process exports
 * two events, destroys the first (and makes the second, whose file may
 * take the first's descriptor), and the parent's cudaIpcOpenEventHandle
 * of the first handle gives cudaErrorMapBufferObjectFailed; the second
 * opens while the child lives, and after it has exited gives that error
 * too (cuemu once gave cudaErrorInvalidValue, or could open another file
 * of the exporter's at the descriptor). CUDA says operations on an event
 * whose exporter destroyed it are undefined; cuemu refuses them. Prints
 * PASS when all is well.
 */
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

#include "../check.cuh"

static const unsigned kFlags = cudaEventInterprocess | cudaEventDisableTiming;

/* Runs until the host sets *go (mapped pinned memory). */
__global__ void wait_for_host(volatile int *go) {
  while (*go == 0) {
  }
}

__global__ void set_one(int *p) { *p = 1; }

/* The child: exports two events, the first destroyed, then waits for the
 * parent's word before it exits. */
static void exporter(int to_parent, int from_parent) {
  cudaEvent_t first, second;
  cudaIpcEventHandle_t handles[2];
  if (cudaEventCreateWithFlags(&first, kFlags) != cudaSuccess ||
      cudaIpcGetEventHandle(&handles[0], first) != cudaSuccess ||
      cudaEventDestroy(first) != cudaSuccess ||
      cudaEventCreateWithFlags(&second, kFlags) != cudaSuccess ||
      cudaIpcGetEventHandle(&handles[1], second) != cudaSuccess)
    _exit(2);
  if (write(to_parent, handles, sizeof handles) != (ssize_t)sizeof handles)
    _exit(3);
  char word;
  if (read(from_parent, &word, 1) != 1)
    _exit(4);
  _exit(0);
}

static void gone_handles() {
  int up[2], down[2];
  CHECK(pipe(up) == 0 && pipe(down) == 0);
  std::fflush(stdout);
  pid_t child = fork();
  if (child == 0)
    exporter(up[1], down[0]);
  cudaIpcEventHandle_t handles[2];
  CHECK(read(up[0], handles, sizeof handles) == (ssize_t)sizeof handles);
  cudaEvent_t opened;
  CHECK(cudaIpcOpenEventHandle(&opened, handles[0]) ==
        cudaErrorMapBufferObjectFailed);
  CHECK(cudaGetLastError() == cudaErrorMapBufferObjectFailed);
  CHECK(cudaIpcOpenEventHandle(&opened, handles[1]) == cudaSuccess);
  CHECK(cudaEventQuery(opened) == cudaSuccess);
  CHECK(cudaEventDestroy(opened) == cudaSuccess);
  CHECK(write(down[1], "x", 1) == 1);
  int status = 0;
  CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) &&
        WEXITSTATUS(status) == 0);
  CHECK(cudaIpcOpenEventHandle(&opened, handles[1]) ==
        cudaErrorMapBufferObjectFailed);
  CHECK(cudaGetLastError() == cudaErrorMapBufferObjectFailed);
  close(up[0]);
  close(up[1]);
  close(down[0]);
  close(down[1]);
}

static void exact_records() {
  int *go = nullptr, *flag = nullptr;
  CHECK(cudaHostAlloc(&go, sizeof(int), cudaHostAllocMapped) == cudaSuccess);
  CHECK(cudaMalloc(&flag, sizeof(int)) == cudaSuccess);
  CHECK(cudaMemset(flag, 0, sizeof(int)) == cudaSuccess);
  *go = 0;
  cudaStream_t blocked, waiting, busy;
  CHECK(cudaStreamCreateWithFlags(&blocked, cudaStreamNonBlocking) ==
        cudaSuccess);
  CHECK(cudaStreamCreateWithFlags(&waiting, cudaStreamNonBlocking) ==
        cudaSuccess);
  CHECK(cudaStreamCreateWithFlags(&busy, cudaStreamNonBlocking) ==
        cudaSuccess);
  cudaEvent_t event;
  CHECK(cudaEventCreateWithFlags(&event, kFlags) == cudaSuccess);
  wait_for_host<<<1, 1, 0, blocked>>>(go);
  CHECK(cudaEventRecord(event, blocked) == cudaSuccess);
  CHECK(cudaStreamWaitEvent(waiting, event, 0) == cudaSuccess);
  set_one<<<1, 1, 0, waiting>>>(flag);
  for (int i = 0; i < 100; ++i)
    CHECK(cudaEventRecord(event, busy) == cudaSuccess);
  CHECK(cudaStreamSynchronize(busy) == cudaSuccess);
  CHECK(cudaEventQuery(event) == cudaSuccess); // its most recent record ran
  usleep(50 * 1000);
  CHECK(cudaStreamQuery(waiting) == cudaErrorNotReady);
  int seen = -1;
  CHECK(cudaMemcpyAsync(&seen, flag, sizeof seen, cudaMemcpyDeviceToHost,
                        busy) == cudaSuccess);
  CHECK(cudaStreamSynchronize(busy) == cudaSuccess);
  CHECK(seen == 0);
  *go = 1;
  CHECK(cudaStreamSynchronize(waiting) == cudaSuccess);
  CHECK(cudaMemcpy(&seen, flag, sizeof seen, cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  CHECK(seen == 1);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaEventDestroy(event) == cudaSuccess);
  CHECK(cudaStreamDestroy(blocked) == cudaSuccess);
  CHECK(cudaStreamDestroy(waiting) == cudaSuccess);
  CHECK(cudaStreamDestroy(busy) == cudaSuccess);
  CHECK(cudaFree(flag) == cudaSuccess);
  CHECK(cudaFreeHost(go) == cudaSuccess);
}

int main() {
  // The child starts CUDA itself: the fork comes before this process's
  // first CUDA call.
  gone_handles();
  // Under CUEMU_STREAMS=sync a kernel that waits for the host would not
  // let its launch return: the records' order needs asynchronous streams.
  const char *streams = getenv("CUEMU_STREAMS");
  if (!streams || streams[0] != 's')
    exact_records();
  return finish();
}
