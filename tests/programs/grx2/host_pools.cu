// host_pools.cu: memory pools of pinned host memory (CUDA 12.2's
// cudaMemLocationTypeHost and HostNuma pools) and of managed memory
// (CUDA 13's cudaMemGetDefaultMemPool with cudaMemAllocationTypeManaged),
// used as a staging-buffer allocator does: stream-ordered allocations
// that the host fills directly, kernels read and write once
// cudaMemPoolSetAccess lets their device, and the pool's counters follow.
// cuemu once refused every such pool (cudaErrorNotSupported).
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "../check.cuh"

__global__ void add_one(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] += 1;
}

static uint64_t attr(cudaMemPool_t pool, cudaMemPoolAttr a) {
  uint64_t v = 0;
  CHECK(cudaMemPoolGetAttribute(pool, a, &v) == cudaSuccess);
  return v;
}

static cudaMemLocation location(cudaMemLocationType type, int id) {
  cudaMemLocation l;
  std::memset(&l, 0, sizeof l);
  l.type = type;
  l.id = id;
  return l;
}

static cudaMemPoolProps host_props(cudaMemLocationType type, int id) {
  cudaMemPoolProps p;
  std::memset(&p, 0, sizeof p);
  p.allocType = cudaMemAllocationTypePinned;
  p.handleTypes = cudaMemHandleTypeNone;
  p.location = location(type, id);
  return p;
}

int main() {
  const int n = 3000;
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);

  /* Which props make a host pool: the id of a host pool is ignored; a
   * host pool is not IPC capable; HostNumaCurrent is refused. */
  cudaMemPoolProps props = host_props(cudaMemLocationTypeHost, 12345);
  cudaMemPool_t pool = nullptr, numa = nullptr, bad = nullptr;
  CHECK(cudaMemPoolCreate(&pool, &props) == cudaSuccess && pool);
  props.handleTypes = cudaMemHandleTypePosixFileDescriptor;
  CHECK(cudaMemPoolCreate(&bad, &props) == cudaErrorInvalidValue);
  props = host_props(cudaMemLocationTypeHostNumaCurrent, 0);
  CHECK(cudaMemPoolCreate(&bad, &props) == cudaErrorInvalidValue);
  props = host_props(cudaMemLocationTypeHostNuma, 0);
  CHECK(cudaMemPoolCreate(&numa, &props) == cudaSuccess && numa);
  (void)cudaGetLastError();

  /* The host touches the memory directly; the device may not until the
   * pool gives it access. */
  cudaMemLocation dev0 = location(cudaMemLocationTypeDevice, 0);
  cudaMemAccessFlags flags = cudaMemAccessFlagsProtReadWrite;
  CHECK(cudaMemPoolGetAccess(&flags, pool, &dev0) == cudaSuccess);
  CHECK(flags == cudaMemAccessFlagsProtNone);
  cudaMemAccessDesc desc;
  std::memset(&desc, 0, sizeof desc);
  desc.location = dev0;
  desc.flags = cudaMemAccessFlagsProtReadWrite;
  CHECK(cudaMemPoolSetAccess(pool, &desc, 1) == cudaSuccess);
  CHECK(cudaMemPoolGetAccess(&flags, pool, &dev0) == cudaSuccess);
  CHECK(flags == cudaMemAccessFlagsProtReadWrite);

  CHECK(attr(pool, cudaMemPoolAttrUsedMemCurrent) == 0);
  int *h = nullptr;
  CHECK(cudaMallocFromPoolAsync(&h, n * sizeof(int), pool, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  uint64_t used = attr(pool, cudaMemPoolAttrUsedMemCurrent);
  CHECK(used >= n * sizeof(int));
  CHECK(attr(pool, cudaMemPoolAttrReservedMemCurrent) >= used);
  CHECK(attr(pool, cudaMemPoolAttrUsedMemHigh) >= used);
  cudaPointerAttributes pa;
  CHECK(cudaPointerGetAttributes(&pa, h) == cudaSuccess);
  CHECK(pa.type == cudaMemoryTypeHost);
  for (int i = 0; i < n; ++i)
    h[i] = 5 * i;
  add_one<<<(n + 255) / 256, 256, 0, s>>>(h, n);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  int bad_values = 0;
  for (int i = 0; i < n; ++i)
    bad_values += h[i] != 5 * i + 1;
  CHECK(bad_values == 0);
  /* A copy to and from device memory. */
  int *d = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(int)) == cudaSuccess);
  CHECK(cudaMemcpyAsync(d, h, n * sizeof(int), cudaMemcpyHostToDevice, s) ==
        cudaSuccess);
  add_one<<<(n + 255) / 256, 256, 0, s>>>(d, n);
  CHECK(cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s) ==
        cudaSuccess);
  CHECK(cudaFreeAsync(h, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(attr(pool, cudaMemPoolAttrUsedMemCurrent) == 0);
  CHECK(attr(pool, cudaMemPoolAttrUsedMemHigh) >= used);
  int back[4] = {0, 0, 0, 0};
  CHECK(cudaMemcpy(back, d, sizeof back, cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  CHECK(back[0] == 2 && back[3] == 17);

  /* The NUMA node's pool serves the host as well. */
  int *g = nullptr;
  CHECK(cudaMallocAsync(&g, 64 * sizeof(int), numa, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  g[63] = 7;
  CHECK(g[63] == 7);
  CHECK(cudaFreeAsync(g, s) == cudaSuccess);

  /* The pools of a location and allocation type (CUDA 13). */
  cudaMemLocation host = location(cudaMemLocationTypeHost, 0);
  cudaMemPool_t def = nullptr, cur = nullptr;
  CHECK(cudaMemGetDefaultMemPool(&def, &host, cudaMemAllocationTypePinned) ==
        cudaSuccess);
  CHECK(def && def != pool);
  CHECK(cudaMemGetMemPool(&cur, &host, cudaMemAllocationTypePinned) ==
        cudaSuccess);
  CHECK(cur == def);
  CHECK(cudaMemSetMemPool(&host, cudaMemAllocationTypePinned, pool) ==
        cudaSuccess);
  CHECK(cudaMemGetMemPool(&cur, &host, cudaMemAllocationTypePinned) ==
        cudaSuccess);
  CHECK(cur == pool);
  /* A pool of another location, or another type, is refused. */
  CHECK(cudaMemSetMemPool(&dev0, cudaMemAllocationTypePinned, pool) ==
        cudaErrorInvalidValue);
  CHECK(cudaMemSetMemPool(&host, cudaMemAllocationTypeManaged, pool) ==
        cudaErrorInvalidValue);
  (void)cudaGetLastError();
  /* A device's pinned pool is the device's current pool. */
  cudaMemPool_t dev_pool = nullptr, dev_cur = nullptr;
  CHECK(cudaMemGetMemPool(&dev_pool, &dev0, cudaMemAllocationTypePinned) ==
        cudaSuccess);
  CHECK(cudaDeviceGetMemPool(&dev_cur, 0) == cudaSuccess);
  CHECK(dev_pool == dev_cur);
  /* Destroying the current pool makes the default current again. */
  CHECK(cudaMemPoolDestroy(pool) == cudaSuccess);
  CHECK(cudaMemGetMemPool(&cur, &host, cudaMemAllocationTypePinned) ==
        cudaSuccess);
  CHECK(cur == def);
  CHECK(cudaMemPoolDestroy(def) == cudaErrorInvalidValue);
  (void)cudaGetLastError();

  /* Managed memory from the default managed pool, with no preferred
   * location: kernels and the host both use it. */
  cudaMemLocation none = location(cudaMemLocationTypeNone, 0);
  cudaMemPool_t managed = nullptr;
  CHECK(cudaMemGetDefaultMemPool(&managed, &none,
                                 cudaMemAllocationTypeManaged) ==
        cudaSuccess);
  CHECK(managed != nullptr);
  CHECK(cudaMemGetDefaultMemPool(&bad, &none, cudaMemAllocationTypePinned) ==
        cudaErrorInvalidValue);
  (void)cudaGetLastError();
  int *m = nullptr;
  CHECK(cudaMallocFromPoolAsync(&m, n * sizeof(int), managed, s) ==
        cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(cudaPointerGetAttributes(&pa, m) == cudaSuccess);
  CHECK(pa.type == cudaMemoryTypeManaged);
  for (int i = 0; i < n; ++i)
    m[i] = i;
  add_one<<<(n + 255) / 256, 256, 0, s>>>(m, n);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  bad_values = 0;
  for (int i = 0; i < n; ++i)
    bad_values += m[i] != i + 1;
  CHECK(bad_values == 0);
  CHECK(attr(managed, cudaMemPoolAttrUsedMemCurrent) >= n * sizeof(int));
  CHECK(cudaFreeAsync(m, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(attr(managed, cudaMemPoolAttrUsedMemCurrent) == 0);

  CHECK(cudaMemPoolDestroy(numa) == cudaSuccess);
  CHECK(cudaFree(d) == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  return finish();
}
