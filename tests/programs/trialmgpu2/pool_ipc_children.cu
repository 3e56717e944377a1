// pool_ipc_children.cu (trial of public-style multi-GPU samples, issue 16).
// Stream-ordered allocation shared between processes: the parent exports a
// POSIX-descriptor pool to forked children (spawned before CUDA starts), then
// the pointers of its allocations; each child imports them on its own device,
// adds its contribution with a kernel and signals the parent through an
// interprocess event.
#include <vector>
#include <cstdint>
#include "mg_check.h"
#include "ipc_channel.h"

static const int kChildren = 2;
static const int N = 4096;

__global__ void add_rank(int *data, int n, int rank) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&data[i], (rank + 1) * (i % 7));
}

struct ExportMsg {
  cudaMemPoolPtrExportData ptr;
  cudaIpcEventHandle_t done;
};

static int child_main(int sock, int rank) {
  int ndev = 0;
  MG_CHECK(cudaGetDeviceCount(&ndev));
  MG_CHECK(cudaSetDevice((rank + 1) % ndev));
  int fd = -1;
  char tag = 0;
  if (!ipc_recv(sock, &tag, 1, &fd) || fd < 0) return 3;
  cudaMemPool_t pool;
  MG_CHECK(cudaMemPoolImportFromShareableHandle(&pool, (void *)(uintptr_t)fd,
                                               cudaMemHandleTypePosixFileDescriptor, 0));
  close(fd);
  ExportMsg msg;
  if (!ipc_recv(sock, &msg, sizeof msg)) return 3;
  int *data = nullptr;
  MG_CHECK(cudaMemPoolImportPointer((void **)&data, pool, &msg.ptr));
  cudaEvent_t done;
  MG_CHECK(cudaIpcOpenEventHandle(&done, msg.done));
  // An imported pool makes no allocations.
  void *nope = nullptr;
  MG_EXPECT(cudaMallocFromPoolAsync(&nope, 256, pool, 0), cudaErrorInvalidValue);
  (void)cudaGetLastError();
  cudaStream_t s;
  MG_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  add_rank<<<(N + 127) / 128, 128, 0, s>>>(data, N, rank);
  MG_CHECK(cudaGetLastError());
  MG_CHECK(cudaEventRecord(done, s));
  MG_CHECK(cudaStreamSynchronize(s));
  char ack = 'k';
  if (!ipc_send(sock, &ack, 1)) return 3;
  // Wait for the parent before freeing the import.
  if (!ipc_recv(sock, &ack, 1)) return 3;
  MG_CHECK(cudaFreeAsync(data, s));
  MG_CHECK(cudaStreamSynchronize(s));
  MG_CHECK(cudaEventDestroy(done));
  MG_CHECK(cudaMemPoolDestroy(pool));
  MG_CHECK(cudaStreamDestroy(s));
  return 0;
}

int main() {
  // Children are forked before the parent touches CUDA.
  std::vector<IpcChannel> ch(kChildren);
  std::vector<pid_t> pid(kChildren);
  for (int r = 0; r < kChildren; ++r) {
    if (!ch[r].open()) { std::perror("socketpair"); return 1; }
    pid[r] = fork();
    if (pid[r] == 0) {
      close(ch[r].end(true));
      std::exit(child_main(ch[r].end(false), r));
    }
    close(ch[r].end(false));
  }

  mg_device_count(2);
  MG_CHECK(cudaSetDevice(0));
  int supported = 0;
  MG_CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolSupportedHandleTypes, 0));
  bool ok = (supported & cudaMemHandleTypePosixFileDescriptor) != 0;

  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.handleTypes = cudaMemHandleTypePosixFileDescriptor;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t pool;
  MG_CHECK(cudaMemPoolCreate(&pool, &props));
  int fd = -1;
  MG_CHECK(cudaMemPoolExportToShareableHandle(&fd, pool, cudaMemHandleTypePosixFileDescriptor, 0));

  cudaStream_t s;
  MG_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  int *data = nullptr;
  MG_CHECK(cudaMallocFromPoolAsync((void **)&data, N * sizeof(int), pool, s));
  MG_CHECK(cudaMemsetAsync(data, 0, N * sizeof(int), s));
  MG_CHECK(cudaStreamSynchronize(s));
  ExportMsg msg;
  MG_CHECK(cudaMemPoolExportPointer(&msg.ptr, data));
  std::vector<cudaEvent_t> done(kChildren);
  for (int r = 0; r < kChildren; ++r) {
    MG_CHECK(cudaEventCreateWithFlags(&done[r], cudaEventInterprocess | cudaEventDisableTiming));
    MG_CHECK(cudaIpcGetEventHandle(&msg.done, done[r]));
    char tag = 'p';
    if (!ipc_send(ch[r].end(true), &tag, 1, fd) || !ipc_send(ch[r].end(true), &msg, sizeof msg)) ok = false;
  }
  close(fd);
  // A timing event has no IPC handle.
  cudaEvent_t timed;
  cudaIpcEventHandle_t bad;
  MG_CHECK(cudaEventCreate(&timed));
  MG_EXPECT(cudaIpcGetEventHandle(&bad, timed), cudaErrorInvalidResourceHandle);
  (void)cudaGetLastError();

  for (int r = 0; r < kChildren; ++r) {
    char ack = 0;
    if (!ipc_recv(ch[r].end(true), &ack, 1) || ack != 'k') ok = false;
    MG_CHECK(cudaStreamWaitEvent(s, done[r], 0));
  }
  std::vector<int> host(N);
  MG_CHECK(cudaMemcpyAsync(host.data(), data, N * sizeof(int), cudaMemcpyDeviceToHost, s));
  MG_CHECK(cudaStreamSynchronize(s));
  for (int i = 0; i < N; ++i) {
    int want = 0;
    for (int r = 0; r < kChildren; ++r) want += (r + 1) * (i % 7);
    if (host[i] != want) { ok = false; std::printf("data[%d] = %d, want %d\n", i, host[i], want); break; }
  }
  for (int r = 0; r < kChildren; ++r) {
    char go = 'f';
    ipc_send(ch[r].end(true), &go, 1);
    int rc = ipc_wait_child(pid[r]);
    if (rc != 0) { std::printf("child %d exited with %d\n", r, rc); ok = false; }
    MG_CHECK(cudaEventDestroy(done[r]));
  }
  MG_CHECK(cudaFreeAsync(data, s));
  MG_CHECK(cudaStreamSynchronize(s));
  MG_CHECK(cudaMemPoolDestroy(pool));
  MG_CHECK(cudaEventDestroy(timed));
  MG_CHECK(cudaStreamDestroy(s));
  return mg_finish(ok, "pool_ipc_children");
}
