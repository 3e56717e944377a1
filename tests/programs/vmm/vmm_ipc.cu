// vmm_ipc.cu: physical memory of cuMemCreate shared between two processes
// by a POSIX file descriptor, as NVIDIA's memMapIPCDrv sample shares it.
// Before CUDA is used, the program forks. The parent makes an allocation
// with requestedHandleTypes CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, maps
// it, fills it with a kernel and sends the descriptor of
// cuMemExportToShareableHandle over a Unix socket (SCM_RIGHTS). The child
// imports it (cuMemImportFromShareableHandle), maps it into a reservation
// of its own, checks it with a kernel and negates it; the parent then sees
// the negated values through its own mapping: one physical memory.
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "../check.cuh"
#include "vmm_kernels.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)
#define RT(call) CHECK((call) == cudaSuccess)

// A message of `size` bytes at `data` with room for one descriptor.
struct Message {
  struct iovec io;
  char control[CMSG_SPACE(sizeof(int))] = {};
  struct msghdr msg = {};
  Message(void *data, size_t size) : io{data, size} {
    msg.msg_iov = &io;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
  }
};

// Sends `fd` and `size` in one message.
static bool send_handle(int sock, int fd, size_t size) {
  Message m(&size, sizeof size);
  struct cmsghdr *c = CMSG_FIRSTHDR(&m.msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(c), &fd, sizeof fd);
  return sendmsg(sock, &m.msg, 0) == (ssize_t)sizeof size;
}

static int receive_handle(int sock, size_t *size) {
  Message m(size, sizeof *size);
  if (recvmsg(sock, &m.msg, 0) != (ssize_t)sizeof *size)
    return -1;
  struct cmsghdr *c = CMSG_FIRSTHDR(&m.msg);
  int fd = -1;
  if (c && c->cmsg_type == SCM_RIGHTS)
    std::memcpy(&fd, CMSG_DATA(c), sizeof fd);
  return fd;
}

// Reserves and maps `size` bytes of `handle`, readable and writable.
static CUdeviceptr map_whole(CUmemGenericAllocationHandle handle,
                             size_t size) {
  CUdeviceptr p = 0;
  CU(cuMemAddressReserve(&p, size, 0, 0, 0));
  CU(cuMemMap(p, size, 0, handle, 0));
  CUmemAccessDesc d = {};
  d.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  d.location.id = 0;
  d.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  CU(cuMemSetAccess(p, size, &d, 1));
  return p;
}

static void unmap_whole(CUdeviceptr p, size_t size) {
  CU(cuMemUnmap(p, size));
  CU(cuMemAddressFree(p, size));
}

static CUcontext start() {
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext ctx = nullptr;
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));
  return ctx;
}

const int BASE = 11;

// The importer: checks the parent's values and negates them.
static int child(int sock) {
  start();
  size_t size = 0;
  int fd = receive_handle(sock, &size);
  CHECK(fd >= 0);
  CUmemGenericAllocationHandle h = 0;
  CHECK(cuMemImportFromShareableHandle(&h, (void *)(uintptr_t)fd,
                                       CU_MEM_HANDLE_TYPE_WIN32) !=
        CUDA_SUCCESS);
  CU(cuMemImportFromShareableHandle(&h, (void *)(uintptr_t)fd,
                                    CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
  close(fd);
  CUmemAllocationProp prop = {};
  CU(cuMemGetAllocationPropertiesFromHandle(&prop, h));
  CHECK(prop.location.type == CU_MEM_LOCATION_TYPE_DEVICE);
  CUdeviceptr p = map_whole(h, size);
  CU(cuMemRelease(h));
  size_t n = size / sizeof(int);
  unsigned long long *good = nullptr;
  RT(cudaMallocManaged(&good, sizeof *good));
  *good = 0;
  check_and_negate<int><<<32, 256>>>(reinterpret_cast<int *>(p), n, BASE,
                                     good);
  RT(cudaDeviceSynchronize());
  CHECK(*good == n);
  unmap_whole(p, size);
  char done = 'D';
  CHECK(write(sock, &done, 1) == 1);
  return check_failures ? 1 : 0;
}

int main() {
  int socks[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, socks) != 0)
    return 2;
  pid_t pid = fork();
  if (pid == 0) {
    close(socks[0]);
    _exit(child(socks[1]));
  }
  close(socks[1]);
  start();
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = 0;
  prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  size_t gran = 0;
  CU(cuMemGetAllocationGranularity(&gran, &prop,
                                   CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
  const size_t size = 2 * gran, n = size / sizeof(int);
  CUmemGenericAllocationHandle h = 0;
  CU(cuMemCreate(&h, size, &prop, 0));
  CUdeviceptr p = map_whole(h, size);
  iota<int><<<32, 256>>>(reinterpret_cast<int *>(p), n, BASE);
  RT(cudaDeviceSynchronize());
  int fd = -1;
  CU(cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
                                  0));
  CHECK(fd >= 0 && send_handle(socks[0], fd, size));
  close(fd);
  char done = 0;
  CHECK(read(socks[0], &done, 1) == 1 && done == 'D');
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  std::vector<int> seen(n);
  CU(cuMemcpyDtoH(seen.data(), p, size));
  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i)
    wrong += seen[i] != -(BASE + (int)i);
  CHECK(wrong == 0);
  unmap_whole(p, size);
  CU(cuMemRelease(h));
  return finish();
}
