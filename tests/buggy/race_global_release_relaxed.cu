// race_global_release_relaxed.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race global RAW line 17 line 22
#include <cstdio>
#include <cuda/atomic>
#include <cuda_runtime.h>

/* Block 1 writes the data and raises a flag that block 0 waits for with an
 * acquire load, but the flag's store is relaxed: nothing orders the data's
 * write before it. (With memory_order_release, tests/programs/
 * release_publish.cu, it is no race.) */
__global__ void handoff(int *flag, int *data, int *out) {
  if (threadIdx.x != 0)
    return;
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
  if (blockIdx.x == 1) {
    data[0] = 42;
    f.store(1, cuda::std::memory_order_relaxed);
  } else {
    while (f.load(cuda::std::memory_order_acquire) == 0) {
    }
    out[0] = data[0];
  }
}

int main() {
  int *flag, *data, *out;
  cudaMalloc(&flag, sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  cudaMalloc(&data, sizeof(int));
  cudaMalloc(&out, sizeof(int));
  handoff<<<2, 32>>>(flag, data, out);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("handoff: %s\n", cudaGetErrorString(err));
  cudaFree(flag);
  cudaFree(data);
  cudaFree(out);
  return 0;
}
