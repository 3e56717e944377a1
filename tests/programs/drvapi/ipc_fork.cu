// ipc_fork.cu: CUDA IPC between two processes, as the simpleIPC samples
// do it: the parent fills a device buffer and sends its memory handle and
// an interprocess event's handle through a pipe; the forked child opens
// them, doubles the buffer with a kernel of its own and closes the handle;
// the parent then sees the child's result in its own buffer.
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>

#include "../check.cuh"

__global__ void iota(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = i;
}

__global__ void twice(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= 2;
}

struct Handles {
  cudaIpcMemHandle_t mem;
  cudaIpcEventHandle_t event;
};

static const int n = 1000;

static int child(int from_parent, int to_parent) {
  Handles h;
  if (read(from_parent, &h, sizeof h) != (ssize_t)sizeof h)
    return 1;
  int *p = nullptr;
  CHECK(cudaIpcOpenMemHandle(reinterpret_cast<void **>(&p), h.mem,
                             cudaIpcMemLazyEnablePeerAccess) == cudaSuccess);
  cudaEvent_t ready;
  CHECK(cudaIpcOpenEventHandle(&ready, h.event) == cudaSuccess);
  CHECK(cudaStreamWaitEvent(0, ready, 0) == cudaSuccess);
  if (p) {
    twice<<<(n + 127) / 128, 128>>>(p, n);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(cudaIpcCloseMemHandle(p) == cudaSuccess);
    CHECK(cudaIpcCloseMemHandle(p) == cudaErrorInvalidValue);
  }
  CHECK(cudaEventDestroy(ready) == cudaSuccess);
  char done = check_failures ? 'F' : 'D';
  CHECK(write(to_parent, &done, 1) == 1);
  return check_failures ? 1 : 0;
}

int main() {
  int down[2], up[2];
  CHECK(pipe(down) == 0 && pipe(up) == 0);
  pid_t pid = fork(); // before the first CUDA call, as CUDA requires
  if (pid == 0)
    _exit(child(down[0], up[1]));
  CHECK(pid > 0);

  int *buf = nullptr;
  CHECK(cudaMalloc(&buf, n * sizeof(int)) == cudaSuccess);
  iota<<<(n + 127) / 128, 128>>>(buf, n);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  Handles h;
  CHECK(cudaIpcGetMemHandle(&h.mem, buf) == cudaSuccess);
  cudaIpcMemHandle_t again;
  CHECK(cudaIpcGetMemHandle(&again, buf) == cudaSuccess);
  CHECK(std::memcmp(&again, &h.mem, sizeof again) == 0);
  CHECK(cudaIpcGetMemHandle(&again, buf + 1) == cudaErrorInvalidValue);
  // A process cannot open its own handle.
  void *self = nullptr;
  CHECK(cudaIpcOpenMemHandle(&self, h.mem, cudaIpcMemLazyEnablePeerAccess) !=
        cudaSuccess);
  cudaGetLastError();
  // Events: only an interprocess one has a handle.
  cudaEvent_t plain, shared;
  CHECK(cudaEventCreate(&plain) == cudaSuccess);
  CHECK(cudaIpcGetEventHandle(&h.event, plain) ==
        cudaErrorInvalidResourceHandle);
  CHECK(cudaEventCreateWithFlags(&shared, cudaEventInterprocess |
                                              cudaEventDisableTiming) ==
        cudaSuccess);
  CHECK(cudaEventRecord(shared, 0) == cudaSuccess);
  CHECK(cudaIpcGetEventHandle(&h.event, shared) == cudaSuccess);
  CHECK(write(down[1], &h, sizeof h) == (ssize_t)sizeof h);

  char done = 0;
  CHECK(read(up[0], &done, 1) == 1 && done == 'D');
  int status = -1;
  CHECK(waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);

  int host[n];
  CHECK(cudaMemcpy(host, buf, sizeof host, cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  bool ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && host[i] == 2 * i;
  CHECK(ok);
  CHECK(cudaFree(buf) == cudaSuccess);
  CHECK(cudaEventDestroy(plain) == cudaSuccess);
  CHECK(cudaEventDestroy(shared) == cudaSuccess);
  return finish();
}
