// managed_guard_gaps.cu: on a device without concurrent managed access
// (CUEMU_DEVICE's cma=0, set before the first CUDA call; a GPU ignores it
// and the program then checks what its device has), the host must not
// touch managed memory after a launch until it synchronises, also when
// the launch is a graph's with a kernel node, and also when the kernel is
// already done: the device is active to the host until it synchronises
// (here with cuemu's synchronous streams, CUEMU_STREAMS=sync, which run a
// kernel before its launch returns). A GPU's host gets a segmentation
// fault; so does cuemu's. Each touch is made in a child process (fork),
// whose end the parent checks; after a synchronisation the touch is
// allowed. cuemu once checked neither a graph's launch nor a launch under
// CUEMU_STREAMS=sync.
#include <cuda_runtime.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../check.cuh"
#include "../managed_guard.cuh"

/* Runs until the host sets *go (mapped pinned memory), then adds one. */
__global__ void wait_then_add(volatile int *go, int *p) {
  while (*go == 0) {
  }
  atomicAdd(p, 1);
}

__global__ void add(int *p) { atomicAdd(p, 1); }

/* Whether the child ended with a segmentation fault. */
static int segfaulted(pid_t child) {
  int status = 0;
  return waitpid(child, &status, 0) == child && WIFSIGNALED(status) &&
         WTERMSIG(status) == SIGSEGV;
}

int main() {
  setenv("CUEMU_DEVICE", "cma=0", 1);
  const bool guarded = managed_guard_available();
  fflush(stdout);
  // With synchronous streams, in a child that starts CUDA itself: the
  // kernel is done, the device still the kernel's until a synchronisation.
  pid_t sync_child = fork();
  if (sync_child == 0) {
    setenv("CUEMU_STREAMS", "sync", 1);
    int *m = nullptr;
    if (cudaMallocManaged(&m, 64) != cudaSuccess)
      _exit(2);
    m[0] = 0;
    add<<<1, 1>>>(m);
    if (cudaDeviceSynchronize() != cudaSuccess || m[0] != 1)
      _exit(3); // allowed after a synchronisation
    add<<<1, 1>>>(m);
    m[1] = 5; // a touch before synchronising: a fault
    _exit(0);
  }

  int cma = -1;
  CHECK(cudaDeviceGetAttribute(&cma, cudaDevAttrConcurrentManagedAccess, 0) ==
        cudaSuccess);
  int sync_faulted = segfaulted(sync_child);
  CHECK(cma != 0 || !guarded || sync_faulted);

  int *global = nullptr, *go = nullptr;
  CHECK(cudaMallocManaged(&global, 64) == cudaSuccess);
  CHECK(cudaHostAlloc(&go, sizeof(int), cudaHostAllocMapped) == cudaSuccess);
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
  cudaGraph_t graph;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
  wait_then_add<<<1, 1, 0, s>>>(go, global);
  CHECK(cudaStreamEndCapture(s, &graph) == cudaSuccess);
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  global[0] = 0;
  *go = 1;
  CHECK(cudaGraphLaunch(exec, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(global[0] == 1); // allowed after a synchronisation
  // (Under CUEMU_STREAMS=sync the kernel would wait for *go before the
  // launch returns: the synchronous child above stands for it.)
  const char *streams = getenv("CUEMU_STREAMS");
  int synchronous = streams && streams[0] == 's';
  int graph_faulted = 0;
  if (cma == 0 && guarded && !synchronous) {
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
      *go = 0;
      cudaGraphLaunch(exec, s);
      global[1] = 5; // the host's touch while the graph's kernel may run
      _exit(0);
    }
    graph_faulted = segfaulted(child);
    CHECK(graph_faulted);
  }
  std::printf("cma %d: faults after a launch under CUEMU_STREAMS=sync %d, "
              "after a graph's launch %d\n",
              cma, sync_faulted, graph_faulted);
  CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
  CHECK(cudaGraphDestroy(graph) == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  CHECK(cudaFree(global) == cudaSuccess);
  CHECK(cudaFreeHost(go) == cudaSuccess);
  return finish();
}
