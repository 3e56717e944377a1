// ipc_event_order.cu: an interprocess event orders work across processes.
// The parent queues slow work (a host function that sleeps, then a kernel
// that writes the shared buffer), records its interprocess event after it
// and tells the child at once; the child's cudaStreamWaitEvent on the
// opened event makes its kernel wait for that record, and its
// cudaEventSynchronize waits too, so the child reads the parent's value.
// Then the other way: the child records, the parent waits. Last, graphs:
// the parent's graph records the event in an event record node, the
// child's graph waits for it in an event wait node.
// cuemu's opened event had no record of its own, so it was always complete:
// the child read the buffer before the parent wrote it (simpleIPC-style
// programs saw stale slices now and then); then a graph's record node
// counted as issued only when it ran, so the child's wait node did not
// wait. Reduced from a trial program.
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
  cudaIpcEventHandle_t parent_done, child_done;
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
  CHECK(cudaSetDevice(1));
  int *buf = NULL, *seen = NULL;
  CHECK(cudaIpcOpenMemHandle((void **)&buf, h.mem,
                             cudaIpcMemLazyEnablePeerAccess));
  cudaEvent_t parent_done, child_done;
  CHECK(cudaIpcOpenEventHandle(&parent_done, h.parent_done));
  CHECK(cudaIpcOpenEventHandle(&child_done, h.child_done));
  CHECK(cudaMalloc(&seen, sizeof(int)));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  char go;
  if (read(from_parent, &go, 1) != 1)
    return 3;
  // The parent's record is issued, and its work is still sleeping.
  cudaError_t q = cudaEventQuery(parent_done);
  CHECK(cudaStreamWaitEvent(s, parent_done, 0));
  take<<<1, 1, 0, s>>>(buf, seen);
  int got = 0;
  CHECK(cudaMemcpyAsync(&got, seen, sizeof got, cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaEventSynchronize(parent_done));
  CHECK(cudaEventQuery(parent_done));
  int direct = 0;
  CHECK(cudaMemcpy(&direct, buf, sizeof direct, cudaMemcpyDeviceToHost));
  printf("child: query before %s, kernel saw %d, buffer %d\n",
         cudaGetErrorName(q), got, direct);
  if ((q != cudaErrorNotReady && !synchronous()) || got != 42 || direct != 42)
    return 4;
  // The other way: the child's slow work, recorded, waited for by the parent.
  CHECK(cudaLaunchHostFunc(s, slow, NULL));
  put<<<1, 1, 0, s>>>(buf, 7);
  CHECK(cudaEventRecord(child_done, s));
  if (write(to_parent, "r", 1) != 1)
    return 3;
  // Graphs: a wait node on the parent's event, then a kernel reading.
  cudaGraph_t g;
  cudaGraphNode_t wait, read_node;
  CHECK(cudaGraphCreate(&g, 0));
  CHECK(cudaGraphAddEventWaitNode(&wait, g, NULL, 0, parent_done));
  cudaKernelNodeParams kp;
  memset(&kp, 0, sizeof kp);
  void *args[] = {&buf, &seen};
  kp.func = (void *)take;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(1);
  kp.kernelParams = args;
  CHECK(cudaGraphAddKernelNode(&read_node, g, &wait, 1, &kp));
  cudaGraphExec_t ge;
  CHECK(cudaGraphInstantiate(&ge, g, 0));
  if (read(from_parent, &go, 1) != 1)
    return 3;
  CHECK(cudaGraphLaunch(ge, s));
  CHECK(cudaMemcpyAsync(&got, seen, sizeof got, cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  printf("child: graph's kernel saw %d\n", got);
  if (got != 9)
    return 5;
  CHECK(cudaGraphExecDestroy(ge));
  CHECK(cudaGraphDestroy(g));
  if (write(to_parent, "d", 1) != 1)
    return 3;
  if (read(from_parent, &go, 1) != 1)
    return 3;
  CHECK(cudaIpcCloseMemHandle(buf));
  CHECK(cudaEventDestroy(parent_done));
  CHECK(cudaEventDestroy(child_done));
  return 0;
}

int main() {
  setenv("CUEMU_DEVICE", "count=2", 1); // before the first CUDA call
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
  CHECK(cudaSetDevice(0));
  int *buf = NULL;
  CHECK(cudaMalloc(&buf, sizeof(int)));
  CHECK(cudaMemset(buf, 0, sizeof(int)));
  Handles h;
  cudaEvent_t parent_done, child_done;
  unsigned flags = cudaEventInterprocess | cudaEventDisableTiming;
  CHECK(cudaEventCreateWithFlags(&parent_done, flags));
  CHECK(cudaEventCreateWithFlags(&child_done, flags));
  CHECK(cudaIpcGetMemHandle(&h.mem, buf));
  CHECK(cudaIpcGetEventHandle(&h.parent_done, parent_done));
  CHECK(cudaIpcGetEventHandle(&h.child_done, child_done));
  if (write(down[1], &h, sizeof h) != (ssize_t)sizeof h)
    return 1;
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CHECK(cudaLaunchHostFunc(s, slow, NULL));
  put<<<1, 1, 0, s>>>(buf, 42);
  CHECK(cudaEventRecord(parent_done, s));
  if (write(down[1], "g", 1) != 1) // at once, without synchronizing
    return 1;
  char r = 0;
  if (read(up[0], &r, 1) != 1)
    r = 0; // the child failed: its status says how

  // The child's record is issued; its work sleeps.
  int pending = cudaEventQuery(child_done) == cudaErrorNotReady;
  CHECK(cudaStreamWaitEvent(s, child_done, 0));
  int got = 0;
  CHECK(cudaMemcpyAsync(&got, buf, sizeof got, cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  // Graphs: slow work, a kernel and an event record node.
  cudaGraph_t g;
  cudaGraphNode_t nap, write_node, record;
  CHECK(cudaGraphCreate(&g, 0));
  cudaHostNodeParams hp = {slow, NULL};
  CHECK(cudaGraphAddHostNode(&nap, g, NULL, 0, &hp));
  cudaKernelNodeParams kp;
  memset(&kp, 0, sizeof kp);
  int nine = 9;
  void *args[] = {&buf, &nine};
  kp.func = (void *)put;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(1);
  kp.kernelParams = args;
  CHECK(cudaGraphAddKernelNode(&write_node, g, &nap, 1, &kp));
  CHECK(cudaGraphAddEventRecordNode(&record, g, &write_node, 1, parent_done));
  cudaGraphExec_t ge;
  CHECK(cudaGraphInstantiate(&ge, g, 0));
  CHECK(cudaGraphLaunch(ge, s));
  char d = 0;
  if (r && (write(down[1], "g", 1) != 1 || read(up[0], &d, 1) != 1))
    d = 0;
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaGraphExecDestroy(ge));
  CHECK(cudaGraphDestroy(g));
  if (d && write(down[1], "e", 1) != 1)
    return 1;
  int status = 0;
  waitpid(pid, &status, 0);
  int child_ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  printf("parent: child's record pending %d, then read %d; child %s\n",
         pending, got, child_ok ? "ok" : "failed");
  CHECK(cudaEventDestroy(parent_done));
  CHECK(cudaEventDestroy(child_done));
  CHECK(cudaFree(buf));
  int ok = child_ok && (pending || synchronous()) && got == 7;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
