// Threads that wait for threads of a later warp of their own block by
// re-reading a few volatile words in turn (their own status, then their
// neighbours'), with no barrier and no __nanosleep: the shape of a
// maximal-independent-set or colouring kernel whose thread keeps checking
// its vertex's undecided neighbours. A GPU schedules the warps
// independently, so the later warps decide and the loops end. (cuemu runs
// a block's threads one at a time: a thread whose volatile reads come back
// to the same address with the same value, round after round, polls, and
// yields now and then so that the other warps run.)
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                        \
  do {                                                                     \
    cudaError_t err_ = (call);                                             \
    if (err_ != cudaSuccess) {                                             \
      printf("FAIL: %s: %s\n", #call, cudaGetErrorString(err_));           \
      return 1;                                                            \
    }                                                                      \
  } while (0)

// Item i depends on item i + 32 (the same lane of the next warp) and, read
// only, on its weight. An item is decided (non-zero) once the item it
// depends on is; the last warp's items are decided at once. Each thread
// owns the items i = threadIdx.x + k * blockDim.x.
__global__ void decide(volatile int *status, const volatile int *weight,
                       int n) {
  int missing;
  do {
    missing = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
      if (status[i] != 0)
        continue;
      if (i + 32 >= n) {
        status[i] = weight[i];
      } else {
        const int next = status[i + 32];
        if (next != 0)
          status[i] = next + weight[i];
        else
          missing = 1;
      }
    }
  } while (missing != 0);
}

int main() {
  const int shapes[][2] = {{256, 256}, {128, 512}, {96, 96}};
  for (const auto &shape : shapes) {
    const int threads = shape[0], n = shape[1];
    int *status, *weight;
    CHECK(cudaMallocManaged(&status, n * sizeof(int)));
    CHECK(cudaMallocManaged(&weight, n * sizeof(int)));
    for (int i = 0; i < n; ++i) {
      status[i] = 0;
      weight[i] = 1 + i % 3;
    }
    decide<<<1, threads>>>(status, weight, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    for (int i = n - 1; i >= 0; --i) {
      const int expect = weight[i] + (i + 32 < n ? status[i + 32] : 0);
      if (status[i] != expect) {
        printf("FAIL: %d threads, %d items: status[%d] = %d, expected %d\n",
               threads, n, i, status[i], expect);
        return 1;
      }
    }
    CHECK(cudaFree(status));
    CHECK(cudaFree(weight));
  }
  printf("PASS\n");
  return 0;
}
