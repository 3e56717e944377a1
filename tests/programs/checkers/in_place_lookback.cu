// in_place_lookback.cu: an in-place stream compaction in the way of
// Thrust's unique and CUB's in-place select: each block takes a tile by a
// ticket, reads it, waits for the previous tile's inclusive count and
// publishes its own with a relaxed atomic (CUB's tile states are stored
// relaxed: ScanTileState's default memory order), then writes its kept
// items at that count, over tiles that earlier blocks read before they
// published. No race: a write that needs a block's published count comes
// after that block's reads (a read followed by a strong store cannot see a
// write made after that store was seen). racecheck reported it as a
// write-after-read race (trialzip: thrust::unique in place under
// --check=all, "race (WAR: write after read)" between unique.h and
// assign_value.h; docs/checkers.md, racecheck).
// CUEMU_OPTIONS: --check=race,init
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "../check.cuh"

constexpr int kTile = 128;

__global__ void compact_in_place(int *data, int n, int *ticket, int *status) {
  __shared__ int tile, prefix;
  if (threadIdx.x == 0)
    tile = atomicAdd(ticket, 1);
  __syncthreads();
  const int i = tile * kTile + threadIdx.x;
  const int item = i < n ? data[i] : 0;
  const int keep = i < n && item % 3 == 0;
  const int kept = __syncthreads_count(keep);
  if (threadIdx.x == 0) {
    int before = 0;
    if (tile > 0) {
      int s;
      while ((s = atomicAdd(&status[tile - 1], 0)) == 0) {
      }
      before = s - 1;
    }
    atomicExch(&status[tile], before + kept + 1); /* relaxed, as CUB's */
    prefix = before;
  }
  __syncthreads();
  /* The kept items' ranks in the tile, by a count of the lower threads. */
  __shared__ int flags[kTile];
  flags[threadIdx.x] = keep;
  __syncthreads();
  int rank = 0;
  for (int t = 0; t < (int)threadIdx.x; ++t)
    rank += flags[t];
  if (keep)
    data[prefix + rank] = item;
}

int main() {
  const int n = 64 * kTile;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i)
    h[i] = (i * 7) % 10;
  int *data, *ticket, *status;
  CHECK(cudaMalloc(&data, n * sizeof(int)) == cudaSuccess);
  CHECK(cudaMalloc(&ticket, sizeof(int)) == cudaSuccess);
  CHECK(cudaMalloc(&status, (n / kTile) * sizeof(int)) == cudaSuccess);
  CHECK(cudaMemcpy(data, h.data(), n * sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemset(ticket, 0, sizeof(int)) == cudaSuccess);
  CHECK(cudaMemset(status, 0, (n / kTile) * sizeof(int)) == cudaSuccess);
  compact_in_place<<<n / kTile, kTile>>>(data, n, ticket, status);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<int> want;
  for (int v : h)
    if (v % 3 == 0)
      want.push_back(v);
  std::vector<int> got(want.size());
  CHECK(cudaMemcpy(got.data(), data, got.size() * sizeof(int),
                   cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(got == want);
  return finish();
}
