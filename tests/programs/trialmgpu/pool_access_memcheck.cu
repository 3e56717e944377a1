// pool_access_memcheck.cu: memcheck (--check=mem) checks memory of a
// stream-ordered pool against the pool's own access, as CUDA's pools
// ignore peer access: a kernel of device 1 may use device 0's pool memory
// once cudaMemPoolSetAccess gives device 1 read-write access (without
// cudaDeviceEnablePeerAccess, as streamOrderedAllocationP2P does), and a
// kernel of device 1 is stopped when the pool gives it no access, even
// with peer access. cuemu reported the first ("without peer access") and
// let the second run. Reduced from a ring all-reduce over pool buffers.
// CUEMU_OPTIONS: --check=mem
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                     \
             cudaGetErrorString(e_));                                          \
      return 1;                                                                \
    }                                                                          \
  } while (0)

__global__ void inc(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] += 1;
}

int main() {
#ifdef __CUEMU__
  /* Its memcheck reports are expected: they leave the exit status 0
   * (they count for it otherwise, docs/checkers.md). */
  setenv("CUEMU_CHECK_EXIT_STATUS", "0", 1);
#endif
#ifdef __CUEMU__
  setenv("CUEMU_DEVICE", "count=2", 1); // before the first CUDA call
  setenv("CUEMU_QUIET", "1", 1);
#endif
  const int n = 1024;
  cudaStream_t s0, s1;
  CHECK(cudaSetDevice(1));
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaSetDevice(0));
  CHECK(cudaStreamCreate(&s0));
  // A pool of device 0 that device 1 may read and write.
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t shared_pool, private_pool;
  CHECK(cudaMemPoolCreate(&shared_pool, &props));
  CHECK(cudaMemPoolCreate(&private_pool, &props));
  cudaMemAccessDesc access = {};
  access.location.type = cudaMemLocationTypeDevice;
  access.location.id = 1;
  access.flags = cudaMemAccessFlagsProtReadWrite;
  CHECK(cudaMemPoolSetAccess(shared_pool, &access, 1));
  int *shared_buf, *private_buf;
  CHECK(cudaMallocFromPoolAsync((void **)&shared_buf, n * sizeof(int),
                                shared_pool, s0));
  CHECK(cudaMallocFromPoolAsync((void **)&private_buf, n * sizeof(int),
                                private_pool, s0));
  CHECK(cudaMemsetAsync(shared_buf, 0, n * sizeof(int), s0));
  CHECK(cudaMemsetAsync(private_buf, 0, n * sizeof(int), s0));
  CHECK(cudaStreamSynchronize(s0));

  int ok = 1;
  CHECK(cudaSetDevice(1));
  inc<<<n / 256, 256, 0, s1>>>(shared_buf, n);
  if (cudaStreamSynchronize(s1) != cudaSuccess) {
    printf("a kernel of device 1 was stopped on memory its pool lets it "
           "use\n");
    ok = 0;
  }
  int h = 0;
  CHECK(cudaMemcpy(&h, shared_buf + n - 1, sizeof h, cudaMemcpyDefault));
  ok = ok && h == 1;
  // Peer access does not open a pool.
  CHECK(cudaDeviceEnablePeerAccess(0, 0));
  inc<<<n / 256, 256, 0, s1>>>(private_buf, n);
  if (cudaStreamSynchronize(s1) == cudaSuccess) {
    printf("a kernel of device 1 used a pool that gives it no access\n");
    ok = 0;
  }
  // Device 0 is unaffected by device 1's fault.
  CHECK(cudaSetDevice(0));
  CHECK(cudaFreeAsync(shared_buf, s0));
  CHECK(cudaFreeAsync(private_buf, s0));
  CHECK(cudaStreamSynchronize(s0));
  CHECK(cudaMemPoolDestroy(shared_pool));
  CHECK(cudaMemPoolDestroy(private_pool));
  puts(ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
