// Kernels whose thread loop keeps or loses the "has this thread blocked?"
// test (the detached pass of cuemu's GCC plugin): every thread of each
// kernel must run exactly once, whichever way its barrier is reached: in the
// kernel itself behind a condition that only some blocks meet, in a device
// function that is not inlined, through a device function pointer, in a
// warp collective, or not at all (a barrier-free kernel with calls of the
// C library's math functions that cannot block). A thread that blocked and
// came back into its runner's loop without the test would run the threads
// after it a second time (counts of 2) or skip them.
#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "../check.cuh"

constexpr int kBlock = 128;
constexpr int kBlocks = 6;
constexpr int kThreads = kBlock * kBlocks;

__device__ __noinline__ int sync_and_add(int *cell, int v) {
  __syncthreads();
  return atomicAdd(cell, v);
}

__device__ int plain_add(int *cell, int v) { return atomicAdd(cell, v); }

__device__ int barrier_add(int *cell, int v) {
  __syncthreads();
  return atomicAdd(cell, v);
}

typedef int (*adder)(int *, int);
__device__ adder adders[2] = {plain_add, barrier_add};

// Barrier-free; calls sqrtf and fabsf (built-ins that cannot block) and an
// assert whose failure never returns.
__global__ void no_barrier(const float *x, float *y, int *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(i >= 0);
  if (i < n) {
    y[i] = sqrtf(fabsf(x[i])) + y[i];
    atomicAdd(&count[i], 1);
  }
}

// The barrier only in the last block (all of its threads reach it).
__global__ void rare_barrier(float *y, int *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += 1.0f;
  if (blockIdx.x == gridDim.x - 1)
    __syncthreads();
  atomicAdd(&count[i], 1);
}

// The barrier in a device function that is not inlined, in odd blocks.
__global__ void barrier_in_call(int *count, int *sum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x % 2 == 1)
    sync_and_add(sum, 1);
  atomicAdd(&count[i], 1);
}

// The barrier behind a device function pointer, chosen per block.
__global__ void barrier_through_pointer(int *count, int *sum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  adders[blockIdx.x % 2](sum, 1);
  atomicAdd(&count[i], 1);
}

// A warp collective (each lane waits for the others of its warp).
__global__ void warp_sum(const int *in, int *out, int *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  for (int d = 16; d > 0; d /= 2)
    v += __shfl_down_sync(0xffffffffu, v, d);
  if (threadIdx.x % 32 == 0)
    out[i / 32] = v;
  atomicAdd(&count[i], 1);
}

static bool all_once(const int *count, int n) {
  for (int i = 0; i < n; ++i)
    if (count[i] != 1) {
      std::fprintf(stderr, "thread %d ran %d times\n", i, count[i]);
      return false;
    }
  return true;
}

int main() {
  float *x, *y;
  int *count, *sum, *in, *out;
  cudaMallocManaged(&x, kThreads * sizeof(float));
  cudaMallocManaged(&y, kThreads * sizeof(float));
  cudaMallocManaged(&count, kThreads * sizeof(int));
  cudaMallocManaged(&sum, sizeof(int));
  cudaMallocManaged(&in, kThreads * sizeof(int));
  cudaMallocManaged(&out, kThreads / 32 * sizeof(int));
  for (int i = 0; i < kThreads; ++i) {
    x[i] = float((i % 7) * (i % 7)) * (i % 2 ? -1.0f : 1.0f);
    y[i] = 1.0f;
    in[i] = i;
  }

  int n = kThreads - 5; // the last threads of the last block do nothing
  std::memset(count, 0, kThreads * sizeof(int));
  no_barrier<<<kBlocks, kBlock>>>(x, y, count, n);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  bool ok = true;
  for (int i = 0; i < kThreads; ++i)
    ok = ok && count[i] == (i < n) && y[i] == (i < n ? float(i % 7) + 1.0f : 1.0f);
  CHECK(ok);

  std::memset(count, 0, kThreads * sizeof(int));
  rare_barrier<<<kBlocks, kBlock>>>(y, count, kThreads);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(all_once(count, kThreads));
  ok = true;
  for (int i = 0; i < kThreads; ++i)
    ok = ok && y[i] == (i < n ? float(i % 7) + 2.0f : 2.0f);
  CHECK(ok);

  std::memset(count, 0, kThreads * sizeof(int));
  *sum = 0;
  barrier_in_call<<<kBlocks, kBlock>>>(count, sum);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(all_once(count, kThreads));
  CHECK(*sum == kBlock * (kBlocks / 2));

  std::memset(count, 0, kThreads * sizeof(int));
  *sum = 0;
  barrier_through_pointer<<<kBlocks, kBlock>>>(count, sum);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(all_once(count, kThreads));
  CHECK(*sum == kThreads);

  std::memset(count, 0, kThreads * sizeof(int));
  warp_sum<<<kBlocks, kBlock>>>(in, out, count);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(all_once(count, kThreads));
  ok = true;
  for (int w = 0; w < kThreads / 32; ++w)
    ok = ok && out[w] == 32 * 32 * w + 31 * 32 / 2;
  CHECK(ok);

  cudaFree(x);
  cudaFree(y);
  cudaFree(count);
  cudaFree(sum);
  cudaFree(in);
  cudaFree(out);
  return finish();
}
