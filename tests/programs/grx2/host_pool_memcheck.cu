// host_pool_memcheck.cu: memcheck on memory of a pool of pinned host
// memory, as compute-sanitizer checks it: a kernel of a device that the
// pool gives access to reads it without complaint; after cudaFreeAsync the
// memory is freed memory (the pool keeps it) and a kernel that reads it
// fails with cudaErrorLaunchFailure (the emulator's report names the use
// after free).
// CUEMU_OPTIONS: --check=mem
#include <cstdlib>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "../check.cuh"

__global__ void sum(const int *v, int n, int *out) {
  int t = 0;
  for (int i = 0; i < n; ++i)
    t += v[i];
  *out = t;
}

int main() {
#ifdef __CUEMU__
  /* Its memcheck reports are expected: they leave the exit status 0
   * (they count for it otherwise, docs/checkers.md). */
  setenv("CUEMU_CHECK_EXIT_STATUS", "0", 1);
#endif
  const int n = 256;
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
  cudaMemPoolProps props;
  std::memset(&props, 0, sizeof props);
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeHost;
  cudaMemPool_t pool = nullptr;
  CHECK(cudaMemPoolCreate(&pool, &props) == cudaSuccess);
  uint64_t keep = UINT64_MAX; /* the pool keeps freed memory */
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold,
                                &keep) == cudaSuccess);
  cudaMemAccessDesc desc;
  std::memset(&desc, 0, sizeof desc);
  desc.location.type = cudaMemLocationTypeDevice;
  desc.location.id = 0;
  desc.flags = cudaMemAccessFlagsProtReadWrite;
  CHECK(cudaMemPoolSetAccess(pool, &desc, 1) == cudaSuccess);
  int *out = nullptr;
  CHECK(cudaMalloc(&out, sizeof *out) == cudaSuccess);

  int *h = nullptr;
  CHECK(cudaMallocFromPoolAsync(&h, n * sizeof(int), pool, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  for (int i = 0; i < n; ++i)
    h[i] = 2;
  sum<<<1, 1, 0, s>>>(h, n, out);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  int total = 0;
  CHECK(cudaMemcpy(&total, out, sizeof total, cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  CHECK(total == 2 * n);

  CHECK(cudaFreeAsync(h, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(cudaGetLastError() == cudaSuccess);
  sum<<<1, 1, 0, s>>>(h, n, out); /* a use after the free */
  CHECK(cudaStreamSynchronize(s) == cudaErrorLaunchFailure);
  return finish();
}
