// vmm_ipc_exec.cu: cuMemCreate memory shared with child processes started
// by fork and exec, over a named Unix socket.
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
// Shares cuMemCreate allocations with two child processes (started with
// fork + exec of this program) by POSIX file descriptors over a named Unix
// socket. Each child maps every allocation into one reservation of its own
// and adds its rank to its slice; the parent checks the sums.
#include "drv_helpers.h"
#include "ipc_socket.h"
#include "vmm_ipc_kernel.cuh"
#include <string>
#include <vector>
#include <sys/wait.h>
#include <cstdint>

static const int kProcs = 2;
static const int kAllocs = 3;

static size_t granularity_for(CUdevice dev, CUmemAllocationProp &prop) {
  prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = dev;
  prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  size_t gran = 0;
  checkCudaErrors(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
  return gran;
}

static int child(int rank, const std::string &sockPath) {
  CUdevice dev;
  checkCudaErrors(cuInit(0));
  checkCudaErrors(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  checkCudaErrors(cuDevicePrimaryCtxRetain(&ctx, dev));
  checkCudaErrors(cuCtxSetCurrent(ctx));
  int sock = ipc_connect(sockPath);
  if (sock < 0) { perror("connect"); return 1; }
  std::vector<int> fds; int sliceBytes = 0;
  if (!ipc_recv_fds(sock, fds, kAllocs, sliceBytes)) { fprintf(stderr, "recv failed\n"); return 1; }
  CUmemAllocationProp prop;
  size_t gran = granularity_for(dev, prop);
  size_t each = (size_t)sliceBytes;
  if (each % gran) { fprintf(stderr, "size not granular\n"); return 1; }
  CUdeviceptr base;
  checkCudaErrors(cuMemAddressReserve(&base, each * kAllocs, gran, 0, 0));
  std::vector<CUmemGenericAllocationHandle> handles(kAllocs);
  for (int i = 0; i < kAllocs; ++i) {
    checkCudaErrors(cuMemImportFromShareableHandle(&handles[i], (void *)(uintptr_t)fds[i],
                                                   CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
    close(fds[i]);
    CUmemAllocationProp got = {};
    checkCudaErrors(cuMemGetAllocationPropertiesFromHandle(&got, handles[i]));
    if (got.location.type != CU_MEM_LOCATION_TYPE_DEVICE) { fprintf(stderr, "bad prop\n"); return 1; }
    checkCudaErrors(cuMemMap(base + i * each, each, 0, handles[i], 0));
    checkCudaErrors(cuMemRelease(handles[i]));
  }
  CUmemAccessDesc access = {};
  access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  access.location.id = dev;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  checkCudaErrors(cuMemSetAccess(base, each * kAllocs, &access, 1));
  // Rank r owns the r-th third of the whole span, which crosses allocations.
  size_t total = each * kAllocs / sizeof(int);
  size_t per = total / kProcs;
  int *mine = (int *)(base) + rank * per;
  CUstream s;
  checkCudaErrors(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  addRank<<<64, 128, 0, s>>>(mine, per, rank);
  checkCudaErrors(cuStreamSynchronize(s));
  checkCudaErrors(cuStreamDestroy(s));
  checkCudaErrors(cuMemUnmap(base, each * kAllocs));
  checkCudaErrors(cuMemAddressFree(base, each * kAllocs));
  int done = rank;
  if (write(sock, &done, sizeof done) != sizeof done) return 1;
  close(sock);
  checkCudaErrors(cuDevicePrimaryCtxRelease(dev));
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 4 && std::string(argv[1]) == "child") return child(atoi(argv[2]), argv[3]);
  std::string sockPath = "/tmp/memmapipc_" + std::to_string(getpid());
  IpcListener listener;
  if (ipc_listen(listener, sockPath) != 0) { perror("listen"); return 1; }
  std::vector<pid_t> kids;
  for (int r = 0; r < kProcs; ++r) {
    pid_t pid = fork();
    if (pid == 0) {
      std::string rs = std::to_string(r);
      execl("/proc/self/exe", argv[0], "child", rs.c_str(), sockPath.c_str(), (char *)NULL);
      perror("exec"); _exit(127);
    }
    kids.push_back(pid);
  }
  CUdevice dev = findCudaDeviceDRV(argc, argv);
  int supported = 0;
  checkCudaErrors(cuDeviceGetAttribute(&supported, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, dev));
  int fdSupported = 0;
  checkCudaErrors(cuDeviceGetAttribute(&fdSupported, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED, dev));
  if (!supported || !fdSupported) { printf("VMM IPC not supported, waiving\n"); return 2; }
  CUcontext ctx;
  checkCudaErrors(cuCtxCreate(&ctx, NULL, 0, dev));
  CUmemAllocationProp prop;
  size_t gran = granularity_for(dev, prop);
  size_t each = gran * 2;
  std::vector<CUmemGenericAllocationHandle> handles(kAllocs);
  std::vector<int> fds(kAllocs);
  CUdeviceptr base;
  checkCudaErrors(cuMemAddressReserve(&base, each * kAllocs, 0, 0, 0));
  for (int i = 0; i < kAllocs; ++i) {
    checkCudaErrors(cuMemCreate(&handles[i], each, &prop, 0));
    checkCudaErrors(cuMemExportToShareableHandle(&fds[i], handles[i], CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    checkCudaErrors(cuMemMap(base + i * each, each, 0, handles[i], 0));
  }
  CUmemAccessDesc access = {};
  access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  access.location.id = dev;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  checkCudaErrors(cuMemSetAccess(base, each * kAllocs, &access, 1));
  checkCudaErrors(cuMemsetD32(base, 0, each * kAllocs / 4));
  // Retaining the handle from an address gives back the allocation mapped there.
  CUmemGenericAllocationHandle again;
  checkCudaErrors(cuMemRetainAllocationHandle(&again, (void *)(base + each + 64)));
  if (again != handles[1]) printf("note: retained handle differs from the created one\n");
  checkCudaErrors(cuMemRelease(again));

  bool ok = true;
  for (int r = 0; r < kProcs; ++r) {
    int conn = accept(listener.fd, NULL, NULL);
    if (!ipc_send_fds(conn, fds, (int)each)) { printf("send failed\n"); ok = false; }
    int done = -1;
    if (read(conn, &done, sizeof done) != sizeof done) { printf("child did not finish\n"); ok = false; }
    close(conn);
  }
  for (pid_t k : kids) {
    int st = 0; waitpid(k, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) { printf("child %d failed (%d)\n", (int)k, st); ok = false; }
  }
  unlink(sockPath.c_str());
  size_t total = each * kAllocs / sizeof(int), per = total / kProcs;
  std::vector<int> h(total);
  checkCudaErrors(cuMemcpyDtoH(h.data(), base, total * sizeof(int)));
  for (size_t i = 0; i < total && ok; ++i) {
    int r = (int)(i / per);
    size_t local = i - r * per;
    int expect = r < kProcs ? (r + 1) * 1000 + (int)(local % 97) : 0;
    if (h[i] != expect) { printf("mismatch at %zu: %d vs %d\n", i, h[i], expect); ok = false; }
  }
  checkCudaErrors(cuMemUnmap(base, each * kAllocs));
  for (int i = 0; i < kAllocs; ++i) { checkCudaErrors(cuMemRelease(handles[i])); close(fds[i]); }
  checkCudaErrors(cuMemAddressFree(base, each * kAllocs));
  checkCudaErrors(cuCtxDestroy(ctx));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
