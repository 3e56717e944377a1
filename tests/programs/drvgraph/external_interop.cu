// External memory and semaphores on file descriptors: a memfd imported as
// external memory and mapped as a device buffer that kernels use; a
// forked child imports the same memory and semaphores, and parent and
// child hand work back and forth with a binary and a timeline semaphore
// (each waits for the other's signal); semaphore signal and wait nodes in
// a graph, made and captured; the handle types that need a graphics API
// are refused with cudaErrorNotSupported.
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>

#include "../check.cuh"

__global__ void add_one(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] += 1;
}

__global__ void times(int *p, int n, int f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= f;
}

static int make_file(size_t bytes) {
  int fd = memfd_create("cuemu-test-external", 0);
  if (fd >= 0 && ftruncate(fd, (off_t)bytes) != 0) {
    close(fd);
    fd = -1;
  }
  return fd;
}

static cudaExternalMemory_t import_memory(int fd, size_t bytes) {
  cudaExternalMemoryHandleDesc d = {};
  d.type = cudaExternalMemoryHandleTypeOpaqueFd;
  d.handle.fd = fd;
  d.size = bytes;
  cudaExternalMemory_t m = nullptr;
  CHECK(cudaImportExternalMemory(&m, &d) == cudaSuccess);
  return m;
}

static cudaExternalSemaphore_t import_semaphore(int fd, bool timeline) {
  cudaExternalSemaphoreHandleDesc d = {};
  d.type = timeline ? cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd
                    : cudaExternalSemaphoreHandleTypeOpaqueFd;
  d.handle.fd = fd;
  cudaExternalSemaphore_t s = nullptr;
  CHECK(cudaImportExternalSemaphore(&s, &d) == cudaSuccess);
  return s;
}

static void signal(cudaExternalSemaphore_t s, unsigned long long value,
                   cudaStream_t stream) {
  cudaExternalSemaphoreSignalParams p = {};
  p.params.fence.value = value;
  CHECK(cudaSignalExternalSemaphoresAsync(&s, &p, 1, stream) == cudaSuccess);
}

static void wait(cudaExternalSemaphore_t s, unsigned long long value,
                 cudaStream_t stream) {
  cudaExternalSemaphoreWaitParams p = {};
  p.params.fence.value = value;
  CHECK(cudaWaitExternalSemaphoresAsync(&s, &p, 1, stream) == cudaSuccess);
}

int main() {
  const int n = 1024;
  const size_t bytes = n * sizeof(int);
  int mem_fd = make_file(bytes + 4096);
  int bin_fd = make_file(16), tl_fd = make_file(16);
  CHECK(mem_fd >= 0 && bin_fd >= 0 && tl_fd >= 0);

  // The child: imports duplicates of the descriptors (importing takes them
  // over), waits for the parent's binary signal, multiplies the buffer by
  // 3, and signals the timeline to 5.
  pid_t child = fork();
  if (child == 0) {
    cudaExternalMemory_t m = import_memory(dup(mem_fd), bytes + 4096);
    cudaExternalSemaphore_t bin = import_semaphore(dup(bin_fd), false);
    cudaExternalSemaphore_t tl = import_semaphore(dup(tl_fd), true);
    cudaExternalMemoryBufferDesc bd = {};
    bd.offset = 4096;
    bd.size = bytes;
    int *buf = nullptr;
    CHECK(cudaExternalMemoryGetMappedBuffer((void **)&buf, m, &bd) ==
          cudaSuccess);
    wait(bin, 0, 0);
    times<<<n / 256, 256>>>(buf, n, 3);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    signal(tl, 5, 0);
    // The signal must have run before the semaphore is destroyed.
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    cudaFree(buf);
    cudaDestroyExternalMemory(m);
    cudaDestroyExternalSemaphore(bin);
    cudaDestroyExternalSemaphore(tl);
    _exit(check_failures ? 1 : 0);
  }

  // The parent: the buffer at offset 4096 of the file.
  cudaExternalMemory_t m = import_memory(dup(mem_fd), bytes + 4096);
  cudaExternalSemaphore_t bin = import_semaphore(dup(bin_fd), false);
  cudaExternalSemaphore_t tl = import_semaphore(dup(tl_fd), true);
  cudaExternalMemoryBufferDesc bd = {};
  bd.offset = 4096;
  bd.size = bytes;
  int *buf = nullptr;
  CHECK(cudaExternalMemoryGetMappedBuffer((void **)&buf, m, &bd) ==
        cudaSuccess);
  cudaPointerAttributes attr;
  CHECK(cudaPointerGetAttributes(&attr, buf) == cudaSuccess &&
        attr.type == cudaMemoryTypeDevice);
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  CHECK(cudaMemsetAsync(buf, 0, bytes, s) == cudaSuccess);
  add_one<<<n / 256, 256, 0, s>>>(buf, n); // 1
  add_one<<<n / 256, 256, 0, s>>>(buf, n); // 2
  signal(bin, 0, s);                       // the child runs: 6
  wait(tl, 5, s);                          // ... and signals 5
  add_one<<<n / 256, 256, 0, s>>>(buf, n); // 7
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  int host[n];
  CHECK(cudaMemcpy(host, buf, bytes, cudaMemcpyDeviceToHost) == cudaSuccess);
  bool ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && host[i] == 7;
  CHECK(ok);
  // The file holds what the device buffer holds.
  int from_file = 0;
  CHECK(pread(mem_fd, &from_file, sizeof from_file, 4096 + 40) ==
        (ssize_t)sizeof from_file);
  CHECK(from_file == 7);
  int status = 0;
  waitpid(child, &status, 0);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);

  // ---- Graph nodes: a wait node on the timeline (value 8), then a kernel,
  // then a signal node (value 9); a captured signal and wait as well. ----
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaExternalSemaphoreWaitParams wp = {};
  wp.params.fence.value = 8;
  cudaExternalSemaphoreWaitNodeParams wn = {&tl, &wp, 1};
  cudaGraphNode_t wnode, k, snode;
  CHECK(cudaGraphAddExternalSemaphoresWaitNode(&wnode, g, nullptr, 0, &wn) ==
        cudaSuccess);
  cudaKernelNodeParams kp = {};
  int count = n;
  void *args[] = {&buf, &count};
  kp.func = (void *)add_one;
  kp.gridDim = dim3(n / 256);
  kp.blockDim = dim3(256);
  kp.kernelParams = args;
  CHECK(cudaGraphAddKernelNode(&k, g, &wnode, 1, &kp) == cudaSuccess);
  cudaExternalSemaphoreSignalParams sp = {};
  sp.params.fence.value = 9;
  cudaExternalSemaphoreSignalNodeParams sn = {&tl, &sp, 1};
  CHECK(cudaGraphAddExternalSemaphoresSignalNode(&snode, g, &k, 1, &sn) ==
        cudaSuccess);
  cudaGraphNodeType type;
  CHECK(cudaGraphNodeGetType(snode, &type) == cudaSuccess &&
        type == cudaGraphNodeTypeExtSemaphoreSignal);
  cudaExternalSemaphoreWaitNodeParams wback = {};
  CHECK(cudaGraphExternalSemaphoresWaitNodeGetParams(wnode, &wback) ==
            cudaSuccess &&
        wback.numExtSems == 1 && wback.extSemArray[0] == tl &&
        wback.paramsArray[0].params.fence.value == 8);
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0) == cudaSuccess);
  signal(tl, 8, 0); // satisfies the wait node
  CHECK(cudaGraphLaunch(x, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  unsigned long long value = 0;
  CHECK(pread(tl_fd, &value, sizeof value, 0) == (ssize_t)sizeof value);
  CHECK(value == 9);
  cudaMemcpy(host, buf, bytes, cudaMemcpyDeviceToHost);
  CHECK(host[0] == 8 && host[n - 1] == 8);

  cudaGraph_t captured;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) ==
        cudaSuccess);
  signal(bin, 0, s);
  wait(bin, 0, s);
  times<<<n / 256, 256, 0, s>>>(buf, n, 2);
  CHECK(cudaStreamEndCapture(s, &captured) == cudaSuccess);
  size_t nodes = 0;
  cudaGraphGetNodes(captured, nullptr, &nodes);
  CHECK(nodes == 3);
  cudaGraphExec_t cx;
  CHECK(cudaGraphInstantiate(&cx, captured, 0) == cudaSuccess);
  CHECK(cudaGraphLaunch(cx, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  cudaMemcpy(host, buf, bytes, cudaMemcpyDeviceToHost);
  CHECK(host[5] == 16);
  CHECK(pread(bin_fd, &value, sizeof value, 0) == (ssize_t)sizeof value);
  CHECK(value == 0); // the wait took the binary semaphore

  // ---- What is not emulated, and bad input. ----
  cudaExternalMemoryHandleDesc d3d = {};
  d3d.type = cudaExternalMemoryHandleTypeD3D12Resource;
  d3d.size = 64;
  cudaExternalMemory_t none = nullptr;
  CHECK(cudaImportExternalMemory(&none, &d3d) == cudaErrorNotSupported);
  cudaExternalSemaphoreHandleDesc fence = {};
  fence.type = cudaExternalSemaphoreHandleTypeD3D12Fence;
  cudaExternalSemaphore_t nosem = nullptr;
  CHECK(cudaImportExternalSemaphore(&nosem, &fence) == cudaErrorNotSupported);
  bd.offset = bytes + 4096;
  int *outside = nullptr;
  CHECK(cudaExternalMemoryGetMappedBuffer((void **)&outside, m, &bd) ==
        cudaErrorInvalidValue);
  cudaGetLastError();

  cudaGraphExecDestroy(x);
  cudaGraphExecDestroy(cx);
  cudaGraphDestroy(g);
  cudaGraphDestroy(captured);
  CHECK(cudaFree(buf) == cudaSuccess);
  CHECK(cudaDestroyExternalMemory(m) == cudaSuccess);
  CHECK(cudaDestroyExternalSemaphore(bin) == cudaSuccess);
  CHECK(cudaDestroyExternalSemaphore(tl) == cudaSuccess);
  CHECK(cudaDestroyExternalSemaphore(tl) == cudaErrorInvalidValue);
  cudaStreamDestroy(s);
  return finish();
}
