// multi_device_grid_barrier.cu: one cooperative grid per device, the grids
// meeting at a barrier across devices through flags in pinned host memory,
// as the CUDA samples' conjugateGradientMultiDeviceCG does (its PeerGroup):
// each grid does grid.sync(), then its first thread raises or waits for the
// flag of the other device. The grids of two devices run at the same time
// on a GPU; cuemu once ran the launches of several blocks one at a time,
// so the first grid waited for the second forever. A distributed dot
// product checks the result of every round.
#include <atomic>
#include <chrono>
#include <cooperative_groups.h>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <unistd.h>

#include "../check.cuh"

namespace cg = cooperative_groups;

constexpr int kDevices = 2;
constexpr int kBlocks = 4;
constexpr int kThreads = 64;
constexpr int kRounds = 5;
constexpr int kLength = 4096;

struct Peers {
  unsigned char *arrived; // pinned host memory: one flag per other device
  int rank;
};

__device__ unsigned char load_flag(unsigned char *f) {
  return *(volatile unsigned char *)f;
}

__device__ void store_flag(unsigned char *f, unsigned char v) {
  *(volatile unsigned char *)f = v;
}

// Every thread of both grids passes it together.
__device__ void sync_devices(const Peers &peers, cg::grid_group &grid) {
  grid.sync();
  if (grid.thread_rank() == 0) {
    if (peers.rank == 0) {
      for (int d = 0; d < kDevices - 1; ++d)
        while (load_flag(&peers.arrived[d]) == 0)
          ;
      for (int d = 0; d < kDevices - 1; ++d)
        store_flag(&peers.arrived[d], 0);
      __threadfence_system();
    } else {
      store_flag(&peers.arrived[peers.rank - 1], 1);
      while (load_flag(&peers.arrived[peers.rank - 1]) == 1)
        ;
    }
  }
  grid.sync();
}

// Each round scales the shared vector by the round's number, then every
// grid adds its part of the dot product into the round's total.
__global__ void rounds(float *v, double *totals, Peers peers) {
  cg::grid_group grid = cg::this_grid();
  const int stride = kDevices * grid.size();
  const int first = peers.rank * grid.size() + grid.thread_rank();
  for (int r = 1; r <= kRounds; ++r) {
    for (int i = first; i < kLength; i += stride)
      v[i] = v[i] * r;
    sync_devices(peers, grid);
    double part = 0;
    for (int i = first; i < kLength; i += stride)
      part += (double)v[i] * v[i];
    atomicAdd_system(&totals[r - 1], part);
    sync_devices(peers, grid);
  }
}

int main() {
  // With CUEMU_STREAMS=sync each launch runs when it is issued, so the first
  // grid would wait for the second for ever (docs/streams.md).
  const char *mode = std::getenv("CUEMU_STREAMS");
  if (mode && std::strcmp(mode, "sync") == 0) {
    std::printf("skipped: CUEMU_STREAMS=sync runs one grid at a time\n");
    return finish();
  }
  setenv("CUEMU_DEVICE", "count=2", 1);
  // Grids that never meet would wait for ever: the test fails instead.
  static std::atomic<bool> done{false};
  std::thread([] {
    for (int s = 0; s < 120 && !done; ++s)
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
    if (!done) {
      std::fprintf(stderr, "the grids did not meet in 60 s\nFAIL\n");
      _exit(1);
    }
  }).detach();
  int count = 0;
  CHECK(cudaGetDeviceCount(&count) == cudaSuccess && count >= kDevices);
  if (count < kDevices)
    return finish();
  float *v = nullptr;
  double *totals = nullptr;
  Peers peers;
  CHECK(cudaMallocManaged(&v, kLength * sizeof(float)) == cudaSuccess);
  CHECK(cudaMallocManaged(&totals, kRounds * sizeof(double)) == cudaSuccess);
  CHECK(cudaHostAlloc(&peers.arrived, kDevices - 1, cudaHostAllocPortable) ==
        cudaSuccess);
  for (int i = 0; i < kLength; ++i)
    v[i] = 1.0f + float(i % 3);
  for (int r = 0; r < kRounds; ++r)
    totals[r] = 0;
  for (int d = 0; d < kDevices - 1; ++d)
    peers.arrived[d] = 0;

  cudaStream_t streams[kDevices];
  for (int d = 0; d < kDevices; ++d) {
    CHECK(cudaSetDevice(d) == cudaSuccess);
    CHECK(cudaStreamCreate(&streams[d]) == cudaSuccess);
  }
  for (int d = 0; d < kDevices; ++d) {
    CHECK(cudaSetDevice(d) == cudaSuccess);
    peers.rank = d;
    void *args[] = {&v, &totals, &peers};
    CHECK(cudaLaunchCooperativeKernel((void *)rounds, dim3(kBlocks),
                                      dim3(kThreads), args, 0,
                                      streams[d]) == cudaSuccess);
  }
  for (int d = 0; d < kDevices; ++d) {
    CHECK(cudaSetDevice(d) == cudaSuccess);
    CHECK(cudaStreamSynchronize(streams[d]) == cudaSuccess);
  }

  // The host reference: after round r every element is multiplied by r!.
  double factor = 1;
  for (int r = 1; r <= kRounds; ++r) {
    factor *= r;
    double expect = 0;
    for (int i = 0; i < kLength; ++i) {
      double x = (1.0 + i % 3) * factor;
      expect += x * x;
    }
    CHECK(totals[r - 1] == expect);
  }
  CHECK(cudaFree(v) == cudaSuccess);
  CHECK(cudaFree(totals) == cudaSuccess);
  CHECK(cudaFreeHost(peers.arrived) == cudaSuccess);
  done = true;
  return finish();
}
