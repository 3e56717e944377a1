// ipc_close_while_kernel_runs.cu: a process that opened another's memory
// (cudaIpcOpenMemHandle) and launched a kernel on it may close the handle
// at once: the kernel still writes its results, as in CUDA's simpleIPC
// (and cuda-api-wrappers' copy of it), whose child closes the memory right
// after launching and recording an event. cuemu unmapped the memory while
// the kernel was still queued on the stream: the parent read zeros.
#include <cstdio>
#include <cstdlib>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cuda_runtime.h>

__global__ void halve(int *dst, const int *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int v = src[i];
  for (int k = 0; k < 2000; ++k) /* long enough to be running at the close */
    v = (v * 7 + k) % 1000003;
  dst[i] = src[i] / 2 + (v < 0);
}

struct shared_t {
  cudaIpcMemHandle_t handle;
  volatile int stage;
};

int main() {
  const int n = 1 << 16;
  shared_t *s = (shared_t *)mmap(nullptr, sizeof *s, PROT_READ | PROT_WRITE,
                                 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (s == MAP_FAILED)
    return 1;
  s->stage = 0;
  pid_t pid = fork();
  if (pid == 0) {
    while (s->stage < 1)
      usleep(1000);
    int *p = nullptr;
    if (cudaIpcOpenMemHandle((void **)&p, s->handle,
                             cudaIpcMemLazyEnablePeerAccess) != cudaSuccess)
      _exit(2);
    halve<<<n / 256, 256>>>(p + n, p, n);
    if (cudaIpcCloseMemHandle(p) != cudaSuccess)
      _exit(3);
    _exit(cudaDeviceSynchronize() == cudaSuccess ? 0 : 4);
  }
  int *d = nullptr;
  if (cudaMalloc(&d, 2 * n * sizeof(int)) != cudaSuccess)
    return 1;
  int *h = (int *)malloc(2 * n * sizeof(int));
  for (int i = 0; i < n; ++i)
    h[i] = 2 * i + 1;
  cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(d + n, 0, n * sizeof(int));
  cudaIpcGetMemHandle(&s->handle, d);
  s->stage = 1;
  int status = -1;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    printf("FAIL: the child ended with status %d\n", status);
    return 1;
  }
  cudaMemcpy(h + n, d + n, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i)
    if (h[n + i] != i) {
      printf("FAIL: element %d is %d, not %d\n", i, h[n + i], i);
      return 1;
    }
  cudaFree(d);
  free(h);
  printf("PASS\n");
  return 0;
}
