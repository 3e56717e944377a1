// ipc_mem_events.cu (trial of public-style multi-GPU samples, issue 16).
// simpleIPC-style: worker processes forked before CUDA starts open the
// parent's device buffer (cudaIpcOpenMemHandle) and its interprocess events,
// each fills its slice on its own device, in several rounds.
#include <vector>
#include "mg_check.h"
#include "ipc_channel.h"

static const int kWorkers = 3, kRounds = 3, kSlice = 1024;

__global__ void fill_slice(int *buf, int offset, int n, int value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) buf[offset + i] = value + i;
}

struct Handles {
  cudaIpcMemHandle_t mem;
  cudaIpcEventHandle_t go[kWorkers];
  cudaIpcEventHandle_t done[kWorkers];
};

static int worker(int sock, int rank) {
  int ndev = 0;
  MG_CHECK(cudaGetDeviceCount(&ndev));
  MG_CHECK(cudaSetDevice(rank % ndev));
  Handles h;
  if (!ipc_recv(sock, &h, sizeof h)) return 3;
  int *buf = nullptr;
  MG_CHECK(cudaIpcOpenMemHandle((void **)&buf, h.mem, cudaIpcMemLazyEnablePeerAccess));
  cudaPointerAttributes a;
  MG_CHECK(cudaPointerGetAttributes(&a, buf));
  if (a.type != cudaMemoryTypeDevice) return 4;
  cudaEvent_t go, done;
  MG_CHECK(cudaIpcOpenEventHandle(&go, h.go[rank]));
  MG_CHECK(cudaIpcOpenEventHandle(&done, h.done[rank]));
  cudaStream_t s;
  MG_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  for (int r = 0; r < kRounds; ++r) {
    char tick = 0;
    if (!ipc_recv(sock, &tick, 1)) return 3;
    MG_CHECK(cudaStreamWaitEvent(s, go, 0));
    fill_slice<<<kSlice / 256, 256, 0, s>>>(buf, rank * kSlice, kSlice, 100000 * (r + 1) + 1000 * rank);
    MG_CHECK(cudaGetLastError());
    MG_CHECK(cudaEventRecord(done, s));
    MG_CHECK(cudaStreamSynchronize(s));
    if (!ipc_send(sock, &tick, 1)) return 3;
  }
  MG_CHECK(cudaIpcCloseMemHandle(buf));
  MG_CHECK(cudaEventDestroy(go));
  MG_CHECK(cudaEventDestroy(done));
  MG_CHECK(cudaStreamDestroy(s));
  return 0;
}

int main() {
  std::vector<IpcChannel> ch(kWorkers);
  std::vector<pid_t> pid(kWorkers);
  for (int r = 0; r < kWorkers; ++r) {
    if (!ch[r].open()) return 1;
    pid[r] = fork();
    if (pid[r] == 0) {
      close(ch[r].end(true));
      std::exit(worker(ch[r].end(false), r));
    }
    close(ch[r].end(false));
  }
  mg_device_count(2);
  MG_CHECK(cudaSetDevice(0));
  int *buf = nullptr;
  MG_CHECK(cudaMalloc(&buf, kWorkers * kSlice * sizeof(int)));
  MG_CHECK(cudaMemset(buf, 0xff, kWorkers * kSlice * sizeof(int)));
  Handles h;
  MG_CHECK(cudaIpcGetMemHandle(&h.mem, buf));
  std::vector<cudaEvent_t> go(kWorkers), done(kWorkers);
  for (int r = 0; r < kWorkers; ++r) {
    MG_CHECK(cudaEventCreateWithFlags(&go[r], cudaEventInterprocess | cudaEventDisableTiming));
    MG_CHECK(cudaEventCreateWithFlags(&done[r], cudaEventInterprocess | cudaEventDisableTiming));
    MG_CHECK(cudaIpcGetEventHandle(&h.go[r], go[r]));
    MG_CHECK(cudaIpcGetEventHandle(&h.done[r], done[r]));
  }
  for (int r = 0; r < kWorkers; ++r) ipc_send(ch[r].end(true), &h, sizeof h);
  bool ok = true;
  std::vector<int> host(kWorkers * kSlice);
  cudaStream_t s;
  MG_CHECK(cudaStreamCreate(&s));
  for (int round = 0; round < kRounds; ++round) {
    MG_CHECK(cudaMemsetAsync(buf, 0, kWorkers * kSlice * sizeof(int), s));
    for (int r = 0; r < kWorkers; ++r) {
      MG_CHECK(cudaEventRecord(go[r], s));
      char tick = 't';
      ipc_send(ch[r].end(true), &tick, 1);
    }
    for (int r = 0; r < kWorkers; ++r) {
      char tick = 0;
      if (!ipc_recv(ch[r].end(true), &tick, 1)) ok = false;
      MG_CHECK(cudaStreamWaitEvent(s, done[r], 0));
    }
    MG_CHECK(cudaMemcpyAsync(host.data(), buf, host.size() * sizeof(int), cudaMemcpyDeviceToHost, s));
    MG_CHECK(cudaStreamSynchronize(s));
    for (int r = 0; r < kWorkers; ++r)
      for (int i = 0; i < kSlice; ++i)
        if (host[r * kSlice + i] != 100000 * (round + 1) + 1000 * r + i) {
          std::printf("round %d worker %d item %d: %d\n", round, r, i, host[r * kSlice + i]);
          ok = false;
          i = kSlice;
        }
  }
  for (int r = 0; r < kWorkers; ++r) {
    int rc = ipc_wait_child(pid[r]);
    if (rc) { std::printf("worker %d exit %d\n", r, rc); ok = false; }
    MG_CHECK(cudaEventDestroy(go[r]));
    MG_CHECK(cudaEventDestroy(done[r]));
  }
  // Handles of memory that is not device memory are refused.
  cudaIpcMemHandle_t bad;
  int *pinned = nullptr;
  MG_CHECK(cudaMallocHost(&pinned, 64));
  MG_EXPECT(cudaIpcGetMemHandle(&bad, pinned), cudaErrorInvalidValue);
  (void)cudaGetLastError();
  MG_CHECK(cudaFreeHost(pinned));
  MG_CHECK(cudaFree(buf));
  MG_CHECK(cudaStreamDestroy(s));
  return mg_finish(ok, "ipc_mem_events");
}
