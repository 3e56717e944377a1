// spin_flags.cu: volatile shared memory used for flags rather than for
// warp-synchronous arithmetic: a lane that polls a flag another lane of
// its warp sets (with and without __nanosleep), a warp that waits for a
// flag of another warp, and a lone lane making many volatile accesses while
// the rest of its warp waits at a barrier. None may deadlock; each result
// is checked.
#include <cstdio>

#include <cuda_runtime.h>

#include "../check.cuh"

/* Lane 5 publishes a value and then a flag; lane 9 of the same warp polls
 * the flag, then reads the value. `sleep` polls with __nanosleep. */
template <bool sleep> __global__ void same_warp_flag(int *out) {
  __shared__ int data;
  __shared__ int flag;
  volatile int *vdata = &data, *vflag = &flag;
  if (threadIdx.x == 0) { *vdata = 0; *vflag = 0; }
  __syncthreads();
  if (threadIdx.x == 9) {
    while (*vflag == 0)
      if (sleep) __nanosleep(100);
    out[blockIdx.x] = *vdata;
  } else if (threadIdx.x == 5) {
    *vdata = 40 + (int)blockIdx.x;
    *vflag = 1;
  }
}

/* Lane 0 of warp 1 waits (with __nanosleep) for warp 0's lane 3. */
__global__ void cross_warp_flag(int *out) {
  __shared__ int data[2];
  volatile int *v = data;
  if (threadIdx.x == 0) { v[0] = 0; v[1] = 0; }
  __syncthreads();
  if (threadIdx.x == 3) {
    v[0] = 7 * ((int)blockIdx.x + 1);
    v[1] = 1;
  }
  if (threadIdx.x == 32) {
    while (v[1] == 0) __nanosleep(50);
    out[blockIdx.x] = v[0];
  }
}

/* Lane 0 alone counts through a volatile shared word while the other lanes
 * wait at the barrier after it. */
__global__ void lone_lane(int *out, int rounds) {
  __shared__ int counter;
  volatile int *c = &counter;
  if (threadIdx.x == 0) {
    *c = 0;
    for (int i = 0; i < rounds; ++i) *c = *c + 1;
  }
  __syncthreads();
  out[threadIdx.x] = *c;
}

int main() {
  int *out;
  cudaMalloc(&out, 64 * sizeof(int));
  int h[64];

  same_warp_flag<false><<<3, 32>>>(out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  cudaMemcpy(h, out, 3 * sizeof(int), cudaMemcpyDeviceToHost);
  for (int b = 0; b < 3; ++b) CHECK(h[b] == 40 + b);

  same_warp_flag<true><<<3, 64>>>(out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  cudaMemcpy(h, out, 3 * sizeof(int), cudaMemcpyDeviceToHost);
  for (int b = 0; b < 3; ++b) CHECK(h[b] == 40 + b);

  cross_warp_flag<<<4, 64>>>(out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  cudaMemcpy(h, out, 4 * sizeof(int), cudaMemcpyDeviceToHost);
  for (int b = 0; b < 4; ++b) CHECK(h[b] == 7 * (b + 1));

  lone_lane<<<2, 64>>>(out, 100000);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  cudaMemcpy(h, out, 64 * sizeof(int), cudaMemcpyDeviceToHost);
  for (int t = 0; t < 64; ++t) {
    if (h[t] != 100000) std::fprintf(stderr, "lone_lane: thread %d read %d\n", t, h[t]);
    CHECK(h[t] == 100000);
  }

  cudaFree(out);
  return finish();
}
