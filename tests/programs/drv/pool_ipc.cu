// pool_ipc.cu: a memory pool shared between two processes, as CUDA's
// streamOrderedAllocationIPC sample shares one. Before CUDA is used, the
// program forks; the parent makes a pool with
// cudaMemHandleTypePosixFileDescriptor, allocates two buffers from it with
// cudaMallocFromPoolAsync, fills them with a kernel, and sends the pool's
// descriptor (cudaMemPoolExportToShareableHandle, over a Unix socket with
// SCM_RIGHTS) and the buffers' export data (cudaMemPoolExportPointer and
// the driver's cuMemPoolExportPointer) to the child. The child imports the
// pool (cudaMemPoolImportFromShareableHandle) and the buffers
// (cudaMemPoolImportPointer, cuMemPoolImportPointer), checks them with a
// kernel, writes into them, and frees them; the parent then sees what the
// child wrote. Both processes check CUDA's errors for what cannot be done:
// handle types Linux does not have, a pool made without a shareable handle,
// pointers that are no pool allocation's start, allocating from an imported
// pool.
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>

#include "../check.cuh"

#define RT(call) CHECK((call) == cudaSuccess)
#define CU(call) CHECK((call) == CUDA_SUCCESS)

const int N = 4096;

__global__ void fill(int *a, int n, int base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = base + i;
}

// Counts the elements equal to base + i, then replaces each with its
// negation.
__global__ void check_and_negate(int *a, int n, int base, int *good) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    if (a[i] == base + i)
      atomicAdd(good, 1);
    a[i] = -a[i];
  }
}

// A message of one byte with room for one descriptor.
struct FdMessage {
  char byte = 'F';
  struct iovec io;
  char control[CMSG_SPACE(sizeof(int))];
  struct msghdr msg;
  FdMessage() {
    std::memset(control, 0, sizeof control);
    std::memset(&msg, 0, sizeof msg);
    io.iov_base = &byte;
    io.iov_len = 1;
    msg.msg_iov = &io;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
  }
};

static bool send_fd(int sock, int fd) {
  FdMessage m;
  struct cmsghdr *c = CMSG_FIRSTHDR(&m.msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(c), &fd, sizeof fd);
  return sendmsg(sock, &m.msg, 0) == 1;
}

static int recv_fd(int sock) {
  FdMessage m;
  if (recvmsg(sock, &m.msg, 0) != 1)
    return -1;
  struct cmsghdr *c = CMSG_FIRSTHDR(&m.msg);
  if (!c || c->cmsg_type != SCM_RIGHTS)
    return -1;
  int fd;
  std::memcpy(&fd, CMSG_DATA(c), sizeof fd);
  return fd;
}

static bool send_all(int sock, const void *p, size_t n) {
  return write(sock, p, n) == (ssize_t)n;
}

static bool recv_all(int sock, void *p, size_t n) {
  size_t done = 0;
  while (done < n) {
    ssize_t r = read(sock, (char *)p + done, n - done);
    if (r <= 0)
      return false;
    done += (size_t)r;
  }
  return true;
}

struct Exports {
  cudaMemPoolPtrExportData a;
  CUmemPoolPtrExportData b;
};

// The importer: checks both buffers, negates them, reports the counts.
static int child(int sock) {
  int fd = recv_fd(sock);
  Exports e;
  if (fd < 0 || !recv_all(sock, &e, sizeof e))
    return 2;
  RT(cudaSetDevice(0));
  cudaMemPool_t pool;
  RT(cudaMemPoolImportFromShareableHandle(
      &pool, (void *)(uintptr_t)fd, cudaMemHandleTypePosixFileDescriptor, 0));
  close(fd);
  int *a = nullptr;
  RT(cudaMemPoolImportPointer((void **)&a, pool, &e.a));
  CU(cuInit(0));
  CUdeviceptr b = 0;
  CU(cuMemPoolImportPointer(&b, pool, &e.b));
  int *good;
  RT(cudaMallocManaged(&good, 2 * sizeof(int)));
  good[0] = good[1] = 0;
  cudaStream_t s;
  RT(cudaStreamCreate(&s));
  check_and_negate<<<N / 256, 256, 0, s>>>(a, N, 100, good);
  check_and_negate<<<N / 256, 256, 0, s>>>((int *)b, N, 7000, good + 1);
  RT(cudaStreamSynchronize(s));
  int counts[2] = {good[0], good[1]};
  // An imported pool makes no allocations, nor is it a device's pool; data
  // that no export made imports nothing.
  void *p = nullptr;
  CHECK(cudaMallocFromPoolAsync(&p, 256, pool, s) == cudaErrorInvalidValue);
  CHECK(cudaDeviceSetMemPool(0, pool) == cudaErrorInvalidValue);
  cudaMemPoolPtrExportData junk;
  std::memset(&junk, 0x5a, sizeof junk);
  CHECK(cudaMemPoolImportPointer(&p, pool, &junk) == cudaErrorInvalidValue);
  cudaGetLastError();
  RT(cudaFreeAsync(a, s));
  RT(cudaStreamSynchronize(s));
  CU(cuMemFree(b));
  RT(cudaMemPoolDestroy(pool));
  RT(cudaFree(good));
  RT(cudaStreamDestroy(s));
  send_all(sock, counts, sizeof counts);
  return check_failures ? 1 : 0;
}

static void exporter_errors(cudaMemPool_t shared, int *a) {
  int supported = 0;
  RT(cudaDeviceGetAttribute(&supported,
                            cudaDevAttrMemoryPoolSupportedHandleTypes, 0));
  CHECK(supported & cudaMemHandleTypePosixFileDescriptor);
  cudaMemPoolProps props;
  std::memset(&props, 0, sizeof props);
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t pool;
  // Handle types that cannot work on Linux.
  props.handleTypes = cudaMemHandleTypeWin32;
  CHECK(cudaMemPoolCreate(&pool, &props) == cudaErrorNotSupported);
  props.handleTypes = cudaMemHandleTypeFabric;
  CHECK(cudaMemPoolCreate(&pool, &props) == cudaErrorNotSupported);
  int fd = -1;
  CHECK(cudaMemPoolExportToShareableHandle(&fd, shared, cudaMemHandleTypeWin32,
                                           0) == cudaErrorNotSupported);
  // A pool made without a shareable handle type exports nothing.
  props.handleTypes = cudaMemHandleTypeNone;
  RT(cudaMemPoolCreate(&pool, &props));
  CHECK(cudaMemPoolExportToShareableHandle(
            &fd, pool, cudaMemHandleTypePosixFileDescriptor, 0) ==
        cudaErrorInvalidValue);
  void *plain = nullptr;
  RT(cudaMallocFromPoolAsync(&plain, 1024, pool, 0));
  cudaMemPoolPtrExportData d;
  CHECK(cudaMemPoolExportPointer(&d, plain) == cudaErrorInvalidValue);
  RT(cudaFreeAsync(plain, 0));
  RT(cudaStreamSynchronize(0));
  RT(cudaMemPoolDestroy(pool));
  // Only an allocation's start, only pool memory.
  CHECK(cudaMemPoolExportPointer(&d, a + 1) == cudaErrorInvalidValue);
  int *device = nullptr;
  RT(cudaMalloc(&device, 64));
  CHECK(cudaMemPoolExportPointer(&d, device) == cudaErrorInvalidValue);
  RT(cudaFree(device));
  CHECK(cudaMemPoolExportToShareableHandle(
            &fd, shared, cudaMemHandleTypePosixFileDescriptor, 1) ==
        cudaErrorInvalidValue);
  // The exporter's own pool is not an imported one.
  CHECK(cudaMemPoolImportPointer(&plain, shared, &d) == cudaErrorInvalidValue);
  cudaGetLastError();
}

static int parent(int sock, pid_t pid) {
  RT(cudaSetDevice(0));
  cudaMemPoolProps props;
  std::memset(&props, 0, sizeof props);
  props.allocType = cudaMemAllocationTypePinned;
  props.handleTypes = cudaMemHandleTypePosixFileDescriptor;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t pool;
  RT(cudaMemPoolCreate(&pool, &props));
  cudaStream_t s;
  RT(cudaStreamCreate(&s));
  int *a = nullptr, *b = nullptr;
  RT(cudaMallocFromPoolAsync((void **)&a, N * sizeof(int), pool, s));
  RT(cudaMallocFromPoolAsync((void **)&b, N * sizeof(int), pool, s));
  fill<<<N / 256, 256, 0, s>>>(a, N, 100);
  fill<<<N / 256, 256, 0, s>>>(b, N, 7000);
  RT(cudaStreamSynchronize(s));
  int fd = -1;
  RT(cudaMemPoolExportToShareableHandle(
      &fd, pool, cudaMemHandleTypePosixFileDescriptor, 0));
  Exports e;
  RT(cudaMemPoolExportPointer(&e.a, a));
  CU(cuInit(0));
  CU(cuMemPoolExportPointer(&e.b, (CUdeviceptr)(uintptr_t)b));
  CHECK(fd >= 0 && send_fd(sock, fd) && send_all(sock, &e, sizeof e));
  close(fd);
  int counts[2] = {-1, -1};
  CHECK(recv_all(sock, counts, sizeof counts));
  CHECK(counts[0] == N && counts[1] == N);
  int status = 0;
  CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
        WEXITSTATUS(status) == 0);
  // What the child wrote is here.
  int h[N];
  RT(cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost));
  CHECK(h[0] == -100 && h[N - 1] == -(100 + N - 1));
  RT(cudaMemcpy(h, b, sizeof h, cudaMemcpyDeviceToHost));
  CHECK(h[5] == -7005);
  exporter_errors(pool, a);
  RT(cudaFreeAsync(a, s));
  RT(cudaFreeAsync(b, s));
  RT(cudaStreamSynchronize(s));
  RT(cudaMemPoolDestroy(pool));
  RT(cudaStreamDestroy(s));
  return finish();
}

int main() {
  int socks[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, socks) != 0)
    return 1;
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    close(socks[0]);
    _exit(child(socks[1]));
  }
  close(socks[1]);
  return parent(socks[0], pid);
}
