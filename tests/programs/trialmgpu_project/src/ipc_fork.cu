// NVCC_OPTIONS: -I../common -Xcompiler -fopenmp
// ipc_fork.cu - a producer process shares device memory with forked worker
// processes: cudaIpc memory and event handles sent over a socket, plus a
// stream-ordered memory pool exported as a POSIX file descriptor (sent with
// SCM_RIGHTS) from which one allocation is shared by cudaMemPoolExportPointer.
// Workers are forked before the parent initialises CUDA, as CUDA requires.
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cstdint>
#include <cstring>
#include <vector>
#include "mgpu_check.h"

#define NWORKERS 3
#define N (1 << 14)

struct Handles {
  cudaIpcMemHandle_t mem;
  cudaIpcEventHandle_t event;
  cudaMemPoolPtrExportData pool_ptr;
  int pool_device;
};

__global__ void scale_slice(float *data, int begin, int end, float factor) {
  int i = begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < end) data[i] *= factor;
}

__global__ void iota(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = (float)i;
}

__global__ void tag_pool(int *p, int n, int worker) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i % NWORKERS == worker) p[i] = p[i] * 10 + worker;
}

static void send_all(int fd, const void *buf, size_t len, int pass_fd = -1) {
  struct msghdr msg = {};
  struct iovec iov = {const_cast<void *>(buf), len};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  char ctrl[CMSG_SPACE(sizeof(int))];
  if (pass_fd >= 0) {
    std::memset(ctrl, 0, sizeof ctrl);
    msg.msg_control = ctrl;
    msg.msg_controllen = sizeof ctrl;
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(c), &pass_fd, sizeof(int));
  }
  if (sendmsg(fd, &msg, 0) != (ssize_t)len) { perror("sendmsg"); std::exit(2); }
}

static int recv_all(int fd, void *buf, size_t len) {
  struct msghdr msg = {};
  struct iovec iov = {buf, len};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  char ctrl[CMSG_SPACE(sizeof(int))];
  msg.msg_control = ctrl;
  msg.msg_controllen = sizeof ctrl;
  if (recvmsg(fd, &msg, MSG_WAITALL) != (ssize_t)len) { perror("recvmsg"); std::exit(2); }
  int got = -1;
  for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
      std::memcpy(&got, CMSG_DATA(c), sizeof(int));
  return got;
}

static int worker(int id, int sock) {
  Handles h;
  int pool_fd = recv_all(sock, &h, sizeof h);
  if (pool_fd < 0) { std::fprintf(stderr, "worker %d: no pool fd\n", id); return 1; }
  int ndev;
  CUDA_CHECK(cudaGetDeviceCount(&ndev));
  int dev = id % ndev;
  CUDA_CHECK(cudaSetDevice(dev));

  float *data;
  CUDA_CHECK(cudaIpcOpenMemHandle((void **)&data, h.mem, cudaIpcMemLazyEnablePeerAccess));
  cudaEvent_t ev;
  CUDA_CHECK(cudaIpcOpenEventHandle(&ev, h.event));
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CUDA_CHECK(cudaStreamWaitEvent(s, ev, 0));
  int per = N / NWORKERS;
  int begin = id * per, end = id == NWORKERS - 1 ? N : begin + per;
  scale_slice<<<(end - begin + 255) / 256, 256, 0, s>>>(data, begin, end, (float)(id + 2));
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaStreamSynchronize(s));

  // Pool import: the allocation is on the pool's device.
  CUDA_CHECK(cudaSetDevice(h.pool_device));
  cudaMemPool_t pool;
  CUDA_CHECK(cudaMemPoolImportFromShareableHandle(&pool, (void *)(uintptr_t)pool_fd,
                                                  cudaMemHandleTypePosixFileDescriptor, 0));
  int *shared;
  CUDA_CHECK(cudaMemPoolImportPointer((void **)&shared, pool, &h.pool_ptr));
  tag_pool<<<(N + 255) / 256, 256>>>(shared, N, id);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(shared));  // releases the import, not the memory
  CUDA_CHECK(cudaMemPoolDestroy(pool));
  close(pool_fd);

  CUDA_CHECK(cudaIpcCloseMemHandle(data));
  CUDA_CHECK(cudaEventDestroy(ev));
  CUDA_CHECK(cudaStreamDestroy(s));
  char done = 'D';
  send_all(sock, &done, 1);
  return 0;
}

int main() {
  int socks[NWORKERS];
  pid_t pids[NWORKERS];
  for (int i = 0; i < NWORKERS; ++i) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) { perror("socketpair"); return 1; }
    pid_t pid = fork();
    if (pid == 0) {
      close(sv[0]);
      std::exit(worker(i, sv[1]));
    }
    close(sv[1]);
    socks[i] = sv[0];
    pids[i] = pid;
  }

  CUDA_CHECK(cudaSetDevice(0));
  int supported = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolSupportedHandleTypes, 0));
  if (!(supported & cudaMemHandleTypePosixFileDescriptor)) {
    std::printf("POSIX fd pools unsupported\n");
    return 1;
  }
  float *data;
  CUDA_CHECK(cudaMalloc(&data, N * sizeof(float)));
  iota<<<N / 256, 256>>>(data, N);
  CUDA_CHECK(cudaGetLastError());
  cudaEvent_t ev;
  CUDA_CHECK(cudaEventCreateWithFlags(&ev, cudaEventInterprocess | cudaEventDisableTiming));
  CUDA_CHECK(cudaEventRecord(ev, 0));
  CUDA_CHECK(cudaEventSynchronize(ev));

  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.handleTypes = cudaMemHandleTypePosixFileDescriptor;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t pool;
  CUDA_CHECK(cudaMemPoolCreate(&pool, &props));
  int fd = -1;
  CUDA_CHECK(cudaMemPoolExportToShareableHandle(&fd, pool, cudaMemHandleTypePosixFileDescriptor, 0));
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));
  int *pooled;
  CUDA_CHECK(cudaMallocFromPoolAsync((void **)&pooled, N * sizeof(int), pool, s));
  std::vector<int> init(N);
  for (int i = 0; i < N; ++i) init[i] = i % 1000;
  CUDA_CHECK(cudaMemcpyAsync(pooled, init.data(), N * sizeof(int), cudaMemcpyHostToDevice, s));
  CUDA_CHECK(cudaStreamSynchronize(s));

  Handles h;
  CUDA_CHECK(cudaIpcGetMemHandle(&h.mem, data));
  CUDA_CHECK(cudaIpcGetEventHandle(&h.event, ev));
  CUDA_CHECK(cudaMemPoolExportPointer(&h.pool_ptr, pooled));
  h.pool_device = 0;
  for (int i = 0; i < NWORKERS; ++i) send_all(socks[i], &h, sizeof h, fd);
  for (int i = 0; i < NWORKERS; ++i) {
    char c = 0;
    recv_all(socks[i], &c, 1);
    if (c != 'D') std::fprintf(stderr, "worker %d did not finish\n", i);
  }
  int failed_children = 0;
  for (int i = 0; i < NWORKERS; ++i) {
    int st;
    waitpid(pids[i], &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st)) ++failed_children;
  }

  std::vector<float> out(N);
  std::vector<int> tags(N);
  CUDA_CHECK(cudaMemcpy(out.data(), data, N * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpyAsync(tags.data(), pooled, N * sizeof(int), cudaMemcpyDeviceToHost, s));
  CUDA_CHECK(cudaStreamSynchronize(s));
  int bad = 0;
  int per = N / NWORKERS;
  for (int i = 0; i < N; ++i) {
    int w = i / per < NWORKERS ? i / per : NWORKERS - 1;
    if (out[i] != (float)i * (w + 2)) bad++;
    if (tags[i] != (i % 1000) * 10 + i % NWORKERS) bad++;
  }
  CUDA_CHECK(cudaFreeAsync(pooled, s));
  CUDA_CHECK(cudaStreamSynchronize(s));
  CUDA_CHECK(cudaMemPoolDestroy(pool));
  close(fd);
  CUDA_CHECK(cudaFree(data));
  std::printf("ipc: %d workers, %d failed, %d mismatches\n", NWORKERS, failed_children, bad);
  return mgpu_report(bad == 0 && failed_children == 0, "ipc_fork");
}
