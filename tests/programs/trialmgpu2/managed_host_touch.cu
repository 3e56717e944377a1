// managed_host_touch.cu: on a device without concurrent managed access
// (CUEMU_DEVICE's cma=0, set before the first CUDA call; a GPU ignores it
// and the program then checks what its device has), the host must not
// touch managed memory after a launch until it synchronises: a GPU's host
// gets a segmentation fault, and so does cuemu's, with a message naming
// the address and the kernel. Memory attached to the host stays the
// host's, and after cudaDeviceSynchronize all of it is. The touch is made
// in a child process (fork), whose end the parent checks. cuemu once let
// the touch pass unnoticed.
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

int main() {
  setenv("CUEMU_DEVICE", "cma=0", 1);
  const bool guarded = managed_guard_available();
  int cma = -1;
  CHECK(cudaDeviceGetAttribute(&cma, cudaDevAttrConcurrentManagedAccess, 0) ==
        cudaSuccess);
  int *global = nullptr, *host = nullptr, *go = nullptr;
  CHECK(cudaMallocManaged(&global, 64) == cudaSuccess);
  CHECK(cudaMallocManaged(&host, 64, cudaMemAttachHost) == cudaSuccess);
  CHECK(cudaHostAlloc(&go, sizeof(int), cudaHostAllocMapped) == cudaSuccess);
  global[0] = 0;
  *go = 1;
  wait_then_add<<<1, 1>>>(go, global);
  host[0] = 7; // attached to the host: allowed while the kernel runs
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(global[0] == 1 && host[0] == 7);
  if (cma == 0 && guarded) {
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
      *go = 0;
      wait_then_add<<<1, 1>>>(go, global);
      global[1] = 5; // the host's touch while the kernel may run: a fault
      _exit(0);
    }
    int status = 0;
    CHECK(waitpid(child, &status, 0) == child);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
  }
  CHECK(cudaFree(global) == cudaSuccess);
  CHECK(cudaFree(host) == cudaSuccess);
  CHECK(cudaFreeHost(go) == cudaSuccess);
  return finish();
}
