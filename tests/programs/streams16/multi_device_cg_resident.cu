// multi_device_cg_resident.cu: the launch shape of the CUDA samples'
// conjugateGradientMultiDeviceCG on two devices of 8 SMs: each device's
// grid is as large as the occupancy calculator allows (every SM full of
// 512-thread blocks), launched cooperatively, and the two grids meet at a
// barrier through flags in pinned host memory. All blocks of both grids are
// resident at once, 32768 emulated threads: cuemu once ran out of the
// process's memory mappings for their stacks (two per guarded stack) and
// failed the second grid with "no memory for a thread stack". A dot
// product of a vector split between the devices checks the result.
#include <cooperative_groups.h>

#include <cstdlib>
#include <cstring>

#include "../check.cuh"

namespace cg = cooperative_groups;

constexpr int kThreads = 512;
constexpr int kLength = 1 << 16;

// The other grid's arrival, in pinned host memory.
__device__ void meet(unsigned *flags, int rank, cg::grid_group &grid) {
  grid.sync();
  if (grid.thread_rank() == 0) {
    atomicAdd_system(&flags[rank], 1u);
    while (atomicAdd_system(&flags[1 - rank], 0u) == 0u) {
    }
  }
  grid.sync();
}

// Each grid scales its half by 3, meets the other, then sums the squares
// of the whole vector's other half (which the other grid scaled).
__global__ void scale_then_dot(float *v, double *dot, unsigned *flags,
                               int rank) {
  cg::grid_group grid = cg::this_grid();
  const int half = kLength / 2;
  for (int i = grid.thread_rank(); i < half; i += grid.size())
    v[rank * half + i] *= 3.0f;
  meet(flags, rank, grid);
  double part = 0;
  for (int i = grid.thread_rank(); i < half; i += grid.size()) {
    double x = v[(1 - rank) * half + i];
    part += x * x;
  }
  atomicAdd_system(dot, part);
}

int main() {
  const char *mode = std::getenv("CUEMU_STREAMS");
  if (mode && std::strcmp(mode, "sync") == 0) {
    // Each launch runs when issued: the first grid would wait for ever (the
    // watchdog test shows how that ends).
    std::printf("skipped: CUEMU_STREAMS=sync runs one grid at a time\n");
    return finish();
  }
  setenv("CUEMU_DEVICE", "count=2,sms=8", 1); // before the first CUDA call
  // Grids that never meet end the process (status 124) instead of hanging.
  setenv("CUEMU_TIMEOUT", "60", 0);
  // The stacks run out of guarded mappings here also where the system
  // allows many more than the usual 65530.
  setenv("CUEMU_MAX_MAP_COUNT", "65530", 0);
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0) == cudaSuccess);
  CHECK(prop.multiProcessorCount == 8 && prop.cooperativeLaunch == 1);
  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &per_sm, scale_then_dot, kThreads, 0) == cudaSuccess);
  CHECK(per_sm == prop.maxThreadsPerMultiProcessor / kThreads);
  const int blocks = per_sm * prop.multiProcessorCount;

  float *v;
  double *dot;
  unsigned *flags;
  CHECK(cudaMallocManaged(&v, kLength * sizeof(float)) == cudaSuccess);
  CHECK(cudaMallocManaged(&dot, sizeof(double)) == cudaSuccess);
  CHECK(cudaHostAlloc(&flags, 2 * sizeof(unsigned), cudaHostAllocPortable) ==
        cudaSuccess);
  for (int i = 0; i < kLength; ++i)
    v[i] = float(i % 5);
  *dot = 0;
  flags[0] = flags[1] = 0;
  cudaStream_t streams[2];
  for (int d = 0; d < 2; ++d) {
    CHECK(cudaSetDevice(d) == cudaSuccess);
    CHECK(cudaStreamCreate(&streams[d]) == cudaSuccess);
    void *args[] = {&v, &dot, &flags, &d};
    CHECK(cudaLaunchCooperativeKernel((void *)scale_then_dot, dim3(blocks),
                                      dim3(kThreads), args, 0,
                                      streams[d]) == cudaSuccess);
  }
  for (int d = 0; d < 2; ++d) {
    CHECK(cudaSetDevice(d) == cudaSuccess);
    CHECK(cudaStreamSynchronize(streams[d]) == cudaSuccess);
  }
  // The host reference: every element is 3 * (i % 5).
  double expect = 0;
  for (int i = 0; i < kLength; ++i)
    expect += 9.0 * (i % 5) * (i % 5);
  CHECK(*dot == expect);
  CHECK(cudaFree(v) == cudaSuccess);
  CHECK(cudaFree(dot) == cudaSuccess);
  CHECK(cudaFreeHost(flags) == cudaSuccess);
  return finish();
}
