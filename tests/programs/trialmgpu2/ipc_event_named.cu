// ipc_event_named.cu: an opened interprocess event names the exporter's
// event: its state is the event's most recent record, made in either
// process after the handle was opened. The child opens the parent's event
// before any record. 1: the parent records it behind slow work in one
// stream, then again in another stream whose work is done: the most recent
// record has run, so the event is complete in both processes while the
// first record still waits. 2: the parent records it after slow work and a
// kernel that writes a shared buffer, and tells the child at once: the
// child's query is cudaErrorNotReady and its cudaStreamWaitEvent makes its
// kernel read the parent's value. 3: the parent records it again after
// writing another value: the child's cudaEventSynchronize waits for that
// later record. cuemu once counted records instead: the event stayed
// pending while any record issued in any process had not run.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                     \
             cudaGetErrorString(e_));                                          \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

struct Handles {
  cudaIpcMemHandle_t mem;
  cudaIpcEventHandle_t event;
};

__global__ void put(int *p, int v) { *p = v; }
__global__ void take(const int *p, int *out) { *out = *p; }

// Under cuemu's CUEMU_STREAMS=sync, work runs when it is issued: nothing
// is pending when the other process looks.
static int synchronous(void) {
  const char *v = getenv("CUEMU_STREAMS");
  return v && strcmp(v, "sync") == 0;
}

static void CUDART_CB slow(void *) {
  struct timespec t = {0, 300 * 1000 * 1000};
  nanosleep(&t, NULL);
}

static int child(int from_parent, int to_parent) {
  Handles h;
  if (read(from_parent, &h, sizeof h) != (ssize_t)sizeof h)
    return 3;
  int *buf = NULL, *seen = NULL;
  CHECK(cudaIpcOpenMemHandle((void **)&buf, h.mem,
                             cudaIpcMemLazyEnablePeerAccess));
  cudaEvent_t event;
  CHECK(cudaIpcOpenEventHandle(&event, h.event));
  CHECK(cudaMalloc(&seen, sizeof(int)));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  // Never recorded: complete.
  cudaError_t q0 = cudaEventQuery(event);
  if (write(to_parent, "o", 1) != 1)
    return 3;
  char go;
  // 1: the parent's most recent record has run, an earlier one has not.
  if (read(from_parent, &go, 1) != 1)
    return 3;
  cudaError_t q1 = cudaEventQuery(event);
  if (write(to_parent, "1", 1) != 1)
    return 3;
  // 2: the parent's record after slow work and put(5), not yet run.
  if (read(from_parent, &go, 1) != 1)
    return 3;
  cudaError_t q2 = cudaEventQuery(event);
  CHECK(cudaStreamWaitEvent(s, event, 0));
  take<<<1, 1, 0, s>>>(buf, seen);
  int got2 = 0;
  CHECK(cudaMemcpyAsync(&got2, seen, sizeof got2, cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  if (write(to_parent, "2", 1) != 1)
    return 3;
  // 3: the parent's later record, after put(6).
  if (read(from_parent, &go, 1) != 1)
    return 3;
  CHECK(cudaEventSynchronize(event));
  int got3 = 0;
  CHECK(cudaMemcpy(&got3, buf, sizeof got3, cudaMemcpyDeviceToHost));
  cudaError_t q3 = cudaEventQuery(event);
  printf("child: queries %s %s %s %s, read %d then %d\n", cudaGetErrorName(q0),
         cudaGetErrorName(q1), cudaGetErrorName(q2), cudaGetErrorName(q3),
         got2, got3);
  int ok = q0 == cudaSuccess && q1 == cudaSuccess &&
           (q2 == cudaErrorNotReady || synchronous()) && q3 == cudaSuccess &&
           got2 == 5 && got3 == 6;
  if (write(to_parent, "3", 1) != 1)
    return 3;
  CHECK(cudaIpcCloseMemHandle(buf));
  CHECK(cudaEventDestroy(event));
  CHECK(cudaFree(seen));
  return ok ? 0 : 4;
}

int main() {
  setenv("CUEMU_QUIET", "1", 1);
  int down[2], up[2];
  if (pipe(down) || pipe(up))
    return 1;
  pid_t pid = fork(); // before CUDA starts, as simpleIPC does
  if (pid == 0) {
    close(down[1]);
    close(up[0]);
    exit(child(down[0], up[1]));
  }
  close(down[0]);
  close(up[1]);
  int *buf = NULL;
  CHECK(cudaMalloc(&buf, sizeof(int)));
  CHECK(cudaMemset(buf, 0, sizeof(int)));
  Handles h;
  cudaEvent_t event;
  CHECK(cudaEventCreateWithFlags(
      &event, cudaEventInterprocess | cudaEventDisableTiming));
  CHECK(cudaIpcGetMemHandle(&h.mem, buf));
  CHECK(cudaIpcGetEventHandle(&h.event, event));
  if (write(down[1], &h, sizeof h) != (ssize_t)sizeof h)
    return 1;
  cudaStream_t slow_stream, fast_stream;
  CHECK(cudaStreamCreateWithFlags(&slow_stream, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&fast_stream, cudaStreamNonBlocking));
  char r = 0;
  int ok = read(up[0], &r, 1) == 1; // the child opened the event

  // 1: an earlier record behind slow work, a later one that has run.
  CHECK(cudaLaunchHostFunc(slow_stream, slow, NULL));
  CHECK(cudaEventRecord(event, slow_stream));
  CHECK(cudaEventRecord(event, fast_stream));
  CHECK(cudaStreamSynchronize(fast_stream));
  cudaError_t mine = cudaEventQuery(event);
  ok = ok && write(down[1], "1", 1) == 1 && read(up[0], &r, 1) == 1;
  CHECK(cudaStreamSynchronize(slow_stream));

  // 2: a record after slow work and put(5), told at once.
  CHECK(cudaLaunchHostFunc(slow_stream, slow, NULL));
  put<<<1, 1, 0, slow_stream>>>(buf, 5);
  CHECK(cudaEventRecord(event, slow_stream));
  ok = ok && write(down[1], "2", 1) == 1 && read(up[0], &r, 1) == 1;

  // 3: a later record, after put(6).
  CHECK(cudaLaunchHostFunc(slow_stream, slow, NULL));
  put<<<1, 1, 0, slow_stream>>>(buf, 6);
  CHECK(cudaEventRecord(event, slow_stream));
  ok = ok && write(down[1], "3", 1) == 1 && read(up[0], &r, 1) == 1;
  CHECK(cudaStreamSynchronize(slow_stream));

  int status = 0;
  waitpid(pid, &status, 0);
  int child_ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  printf("parent: own query after the later record %s; child %s\n",
         cudaGetErrorName(mine), child_ok ? "ok" : "failed");
  CHECK(cudaEventDestroy(event));
  CHECK(cudaFree(buf));
  ok = ok && child_ok && mine == cudaSuccess;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
