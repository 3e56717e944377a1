// Stream-ordered allocation: per-stream pipelines from an explicit pool,
// pool attributes and trimming, then sharing the pool with child
// processes over a unix socket (POSIX fd handles).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>
#include "helper_cuda.h"
#include "ipc_util.h"
#include "kernels.cuh"

static const int kN = 1 << 14;
static const int kChildren = 2;

struct ExportMsg {
  cudaMemPoolPtrExportData ptr;
  int n;
  int base;
};

static int child_main(int sock, int index) {
  int fd = -1;
  ExportMsg msg;
  if (recv_fd(sock, &fd, &msg, sizeof msg) != 0 || fd < 0) {
    printf("child %d: no descriptor\n", index);
    return 1;
  }
  cudaMemPool_t pool;
  checkCudaErrors(cudaMemPoolImportFromShareableHandle(
      &pool, (void *)(uintptr_t)fd, cudaMemHandleTypePosixFileDescriptor, 0));
  int *p = nullptr;
  checkCudaErrors(cudaMemPoolImportPointer((void **)&p, pool, &msg.ptr));
  cudaStream_t s;
  checkCudaErrors(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  int *derr;
  checkCudaErrors(cudaMallocAsync(&derr, sizeof(int), s));
  checkCudaErrors(cudaMemsetAsync(derr, 0, sizeof(int), s));
  check_kernel<<<32, 128, 0, s>>>(p, msg.n, msg.base, derr);
  getLastCudaError("check_kernel");
  // Each child then writes its own slice with a new value.
  int slice = msg.n / kChildren;
  init_kernel<<<16, 128, 0, s>>>(p + index * slice, slice, 1000000 * (index + 1));
  int herr = -1;
  checkCudaErrors(cudaMemcpyAsync(&herr, derr, sizeof(int), cudaMemcpyDeviceToHost, s));
  checkCudaErrors(cudaFreeAsync(derr, s));
  checkCudaErrors(cudaStreamSynchronize(s));
  // The importer must free its mapping before the exporter frees.
  checkCudaErrors(cudaFree(p));
  checkCudaErrors(cudaMemPoolDestroy(pool));
  checkCudaErrors(cudaStreamDestroy(s));
  int ack = herr;
  send_fd(sock, -1, &ack, sizeof ack);
  close(fd);
  return herr == 0 ? 0 : 1;
}

static bool stream_pipelines(cudaMemPool_t pool) {
  const int nStreams = 4;
  cudaStream_t streams[nStreams];
  cudaEvent_t start, stop;
  checkCudaErrors(cudaEventCreate(&start));
  checkCudaErrors(cudaEventCreate(&stop));
  std::vector<int> host(kN * nStreams);
  int *hres;
  checkCudaErrors(cudaMallocHost(&hres, sizeof(int) * kN * nStreams));
  for (int i = 0; i < nStreams; ++i)
    checkCudaErrors(cudaStreamCreateWithFlags(&streams[i], cudaStreamNonBlocking));
  checkCudaErrors(cudaEventRecord(start, streams[0]));
  for (int rep = 0; rep < 3; ++rep) {
    for (int i = 0; i < nStreams; ++i) {
      cudaStream_t s = streams[i];
      int *a, *b, *c;
      checkCudaErrors(cudaMallocFromPoolAsync(&a, kN * sizeof(int), pool, s));
      checkCudaErrors(cudaMallocFromPoolAsync(&b, kN * sizeof(int), pool, s));
      checkCudaErrors(cudaMallocAsync(&c, kN * sizeof(int), s));
      init_kernel<<<32, 256, 0, s>>>(a, kN, i);
      init_kernel<<<32, 256, 0, s>>>(b, kN, rep);
      checkCudaErrors(cudaFreeAsync(a, s));
      add_kernel<<<32, 256, 0, s>>>(c, b, b, kN);
      checkCudaErrors(cudaMemcpyAsync(hres + i * kN, c, kN * sizeof(int),
                                      cudaMemcpyDeviceToHost, s));
      checkCudaErrors(cudaFreeAsync(b, s));
      checkCudaErrors(cudaFreeAsync(c, s));
    }
  }
  for (int i = 1; i < nStreams; ++i) {
    cudaEvent_t e;
    checkCudaErrors(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    checkCudaErrors(cudaEventRecord(e, streams[i]));
    checkCudaErrors(cudaStreamWaitEvent(streams[0], e, 0));
    checkCudaErrors(cudaEventDestroy(e));
  }
  checkCudaErrors(cudaEventRecord(stop, streams[0]));
  checkCudaErrors(cudaEventSynchronize(stop));
  float ms;
  checkCudaErrors(cudaEventElapsedTime(&ms, start, stop));
  bool ok = true;
  for (int i = 0; i < nStreams && ok; ++i)
    for (int j = 0; j < kN && ok; ++j) ok = hres[i * kN + j] == 2 * (2 + j);
  size_t used = 0, reserved = 0, high = 0;
  checkCudaErrors(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
  checkCudaErrors(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved));
  checkCudaErrors(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high));
  printf("pipelines: %.3f ms, used %zu, reserved %zu, high %zu: %s\n", ms, used,
         reserved, high, ok ? "ok" : "WRONG");
  ok = ok && used == 0 && high >= 2 * kN * sizeof(int) && reserved >= high;
  checkCudaErrors(cudaMemPoolTrimTo(pool, 0));
  checkCudaErrors(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved));
  printf("after trim: reserved %zu\n", reserved);
  ok = ok && reserved == 0;
  size_t zero = 0;
  checkCudaErrors(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero));
  for (int i = 0; i < nStreams; ++i) checkCudaErrors(cudaStreamDestroy(streams[i]));
  checkCudaErrors(cudaFreeHost(hres));
  checkCudaErrors(cudaEventDestroy(start));
  checkCudaErrors(cudaEventDestroy(stop));
  return ok;
}

static bool share_with_children() {
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.handleTypes = cudaMemHandleTypePosixFileDescriptor;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t pool;
  checkCudaErrors(cudaMemPoolCreate(&pool, &props));
  int fd = -1;
  checkCudaErrors(cudaMemPoolExportToShareableHandle(
      &fd, pool, cudaMemHandleTypePosixFileDescriptor, 0));
  cudaStream_t s;
  checkCudaErrors(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  int *p;
  checkCudaErrors(cudaMallocFromPoolAsync(&p, kN * sizeof(int), pool, s));
  init_kernel<<<32, 256, 0, s>>>(p, kN, 7);
  checkCudaErrors(cudaStreamSynchronize(s));
  ExportMsg msg;
  checkCudaErrors(cudaMemPoolExportPointer(&msg.ptr, p));
  msg.n = kN;
  msg.base = 7;
  pid_t pids[kChildren];
  int socks[kChildren];
  for (int c = 0; c < kChildren; ++c) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) return false;
    pids[c] = fork();
    if (pids[c] == 0) {
      close(sv[0]);
      _exit(child_main(sv[1], c));
    }
    close(sv[1]);
    socks[c] = sv[0];
  }
  bool ok = true;
  // Children take turns: the first checks the original data, then the
  // second one would see the first one's slice changed, so send in order.
  for (int c = 0; c < kChildren; ++c) {
    if (c == 1) {
      // Restore the original values before the second child checks.
      init_kernel<<<32, 256, 0, s>>>(p, kN, 7);
      checkCudaErrors(cudaStreamSynchronize(s));
    }
    send_fd(socks[c], fd, &msg, sizeof msg);
    int ack = -1;
    recv_fd(socks[c], nullptr, &ack, sizeof ack);
    int status = 0;
    waitpid(pids[c], &status, 0);
    printf("child %d: errors %d, exit %d\n", c, ack,
           WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    ok = ok && ack == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    close(socks[c]);
  }
  std::vector<int> h(kN);
  checkCudaErrors(cudaMemcpy(h.data(), p, kN * sizeof(int), cudaMemcpyDeviceToHost));
  int slice = kN / kChildren;
  for (int i = 0; i < kN && ok; ++i) {
    int owner = i / slice;
    int expect = owner == 1 ? 2000000 + (i - slice) : 7 + i;
    if (h[i] != expect) {
      printf("p[%d] = %d, expected %d\n", i, h[i], expect);
      ok = false;
    }
  }
  checkCudaErrors(cudaFreeAsync(p, s));
  checkCudaErrors(cudaStreamSynchronize(s));
  checkCudaErrors(cudaMemPoolDestroy(pool));
  checkCudaErrors(cudaStreamDestroy(s));
  close(fd);
  return ok;
}

int main(int argc, char **argv) {
  bool skipIpc = argc > 1 && !strcmp(argv[1], "--no-ipc");
  int dev = 0, supported = 0, handles = 0;
  checkCudaErrors(cudaSetDevice(dev));
  checkCudaErrors(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, dev));
  checkCudaErrors(cudaDeviceGetAttribute(&handles, cudaDevAttrMemoryPoolSupportedHandleTypes, dev));
  printf("memory pools: %d, handle types 0x%x\n", supported, handles);
  if (!supported) {
    printf("Waiving: no memory pools\n");
    return 0;
  }
  cudaMemPool_t pool;
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = dev;
  checkCudaErrors(cudaMemPoolCreate(&pool, &props));
  uint64_t threshold = UINT64_MAX;
  checkCudaErrors(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  int reuse = 0;
  checkCudaErrors(cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &reuse));
  bool ok = stream_pipelines(pool);
  checkCudaErrors(cudaMemPoolDestroy(pool));
  if (ok && !skipIpc && (handles & cudaMemHandleTypePosixFileDescriptor))
    ok = share_with_children();
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
