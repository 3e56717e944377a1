// multi_gpu_pools.cu: a multi-GPU reduction in the form of public samples
// (one stream and one stream-ordered buffer per device), built with the
// device count as a command-line macro, -DN=3, as Makefiles pass sizes.
// nvcc's headers take -DN (its cooperative groups and wmma headers
// included); cuemu's shims once named template parameters N and every
// compile failed. The buffers are allocated with cudaMallocAsync on each
// device's stream while device 0 is current: CUDA takes the memory from
// the current pool of the stream's device, not of the calling thread's
// current device (cuemu once gave device 0's memory for every stream).
// Device 0 then gathers the sums from the other devices' pools, which it
// may read once cudaMemPoolSetAccess gives it access; cudaMemPoolGetAccess
// reports what was set (cuemu once reported no access whatever was set).
// CUEMU_OPTIONS: -DN=3
// NVCC_OPTIONS: -DN=3
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdlib>
#include <mma.h>

#include "../check.cuh"

namespace cg = cooperative_groups;

static_assert(N == 3, "the device count comes from -DN=3");

constexpr int kElements = 4096;
constexpr int kThreads = 128;

template <typename T> __global__ void fill(T *p, int n, T base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = base + T(i % 7);
}

// Each warp sums its part with a tile reduction; one atomic per warp.
template <typename T> __global__ void sum(const T *p, int n, T *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  T v = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    v += p[i];
  T total = cg::reduce(warp, v, cg::plus<T>());
  if (warp.thread_rank() == 0)
    atomicAdd(out, total);
}

// Device 0 reads every device's sum (pool memory of the other devices).
__global__ void gather(int *const *sums, int count, int *total) {
  int t = 0;
  for (int d = 0; d < count; ++d)
    t += *sums[d];
  *total = t;
}

int main() {
  setenv("CUEMU_DEVICE", "count=3", 1); // before the first CUDA call
  int count = 0;
  CHECK(cudaGetDeviceCount(&count) == cudaSuccess && count == N);
  if (count != N)
    return finish();

  cudaStream_t streams[N];
  for (int d = 0; d < N; ++d) {
    CHECK(cudaSetDevice(d) == cudaSuccess);
    CHECK(cudaStreamCreateWithFlags(&streams[d], cudaStreamNonBlocking) ==
          cudaSuccess);
  }

  // Device 0 is current; each allocation names its device by its stream.
  CHECK(cudaSetDevice(0) == cudaSuccess);
  int *data[N];
  int *sums[N];
  for (int d = 0; d < N; ++d) {
    CHECK(cudaMallocAsync(&data[d], kElements * sizeof(int), streams[d]) ==
          cudaSuccess);
    CHECK(cudaMallocAsync(&sums[d], sizeof(int), streams[d]) == cudaSuccess);
    cudaPointerAttributes attributes{};
    CHECK(cudaPointerGetAttributes(&attributes, data[d]) == cudaSuccess);
    CHECK(attributes.type == cudaMemoryTypeDevice);
    CHECK(attributes.device == d);
  }
  // Each device's current pool holds its own allocations.
  for (int d = 0; d < N; ++d) {
    cudaMemPool_t pool;
    CHECK(cudaDeviceGetMemPool(&pool, d) == cudaSuccess);
    size_t used = 0;
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent,
                                  &used) == cudaSuccess);
    CHECK(used >= kElements * sizeof(int));
  }

  for (int d = 0; d < N; ++d) {
    CHECK(cudaSetDevice(d) == cudaSuccess);
    CHECK(cudaMemsetAsync(sums[d], 0, sizeof(int), streams[d]) ==
          cudaSuccess);
    fill<<<kElements / kThreads, kThreads, 0, streams[d]>>>(data[d],
                                                             kElements, d);
    sum<<<8, kThreads, 0, streams[d]>>>(data[d], kElements, sums[d]);
    CHECK(cudaGetLastError() == cudaSuccess);
  }

  // Device 0 gets access to the other devices' pools, and gathers.
  for (int d = 0; d < N; ++d)
    CHECK(cudaStreamSynchronize(streams[d]) == cudaSuccess);
  cudaMemLocation device0 = {cudaMemLocationTypeDevice, 0};
  for (int d = 1; d < N; ++d) {
    cudaMemPool_t pool;
    CHECK(cudaDeviceGetMemPool(&pool, d) == cudaSuccess);
    cudaMemAccessFlags flags = cudaMemAccessFlagsProtReadWrite;
    CHECK(cudaMemPoolGetAccess(&flags, pool, &device0) == cudaSuccess);
    CHECK(flags == cudaMemAccessFlagsProtNone);
    const cudaMemAccessDesc read = {device0, cudaMemAccessFlagsProtRead};
    CHECK(cudaMemPoolSetAccess(pool, &read, 1) == cudaSuccess);
    CHECK(cudaMemPoolGetAccess(&flags, pool, &device0) == cudaSuccess);
    CHECK(flags == cudaMemAccessFlagsProtRead);
    // The pool's own device always reads and writes.
    cudaMemLocation own = {cudaMemLocationTypeDevice, d};
    const cudaMemAccessDesc none = {own, cudaMemAccessFlagsProtNone};
    CHECK(cudaMemPoolSetAccess(pool, &none, 1) == cudaErrorInvalidDevice);
    cudaGetLastError();
    CHECK(cudaMemPoolGetAccess(&flags, pool, &own) == cudaSuccess);
    CHECK(flags == cudaMemAccessFlagsProtReadWrite);
  }
  CHECK(cudaSetDevice(0) == cudaSuccess);
  int **table = nullptr;
  int *total = nullptr;
  CHECK(cudaMallocManaged(&table, N * sizeof(int *)) == cudaSuccess);
  CHECK(cudaMalloc(&total, sizeof(int)) == cudaSuccess);
  for (int d = 0; d < N; ++d)
    table[d] = sums[d];
  gather<<<1, 1>>>(table, N, total);
  int gathered = -1;
  CHECK(cudaMemcpy(&gathered, total, sizeof gathered,
                   cudaMemcpyDeviceToHost) == cudaSuccess);

  // The host reference: sum over i of (d + i % 7).
  int all = 0;
  for (int d = 0; d < N; ++d) {
    int expect = 0;
    for (int i = 0; i < kElements; ++i)
      expect += d + i % 7;
    all += expect;
    int got = -1;
    CHECK(cudaSetDevice(d) == cudaSuccess);
    CHECK(cudaMemcpyAsync(&got, sums[d], sizeof(int), cudaMemcpyDeviceToHost,
                          streams[d]) == cudaSuccess);
    CHECK(cudaFreeAsync(data[d], streams[d]) == cudaSuccess);
    CHECK(cudaFreeAsync(sums[d], streams[d]) == cudaSuccess);
    CHECK(cudaStreamSynchronize(streams[d]) == cudaSuccess);
    CHECK(got == expect);
    CHECK(cudaStreamDestroy(streams[d]) == cudaSuccess);
  }
  CHECK(gathered == all);
  CHECK(cudaSetDevice(0) == cudaSuccess);
  CHECK(cudaFree(table) == cudaSuccess);
  CHECK(cudaFree(total) == cudaSuccess);
  return finish();
}
