// Kernels whose thread loop keeps or loses the "has this thread blocked?"
// test (the detached pass of cuemu's GCC plugin): every thread of each
// kernel must run exactly once, whichever way its barrier is reached: in the
// kernel itself behind a condition that only some blocks meet, in a device
// function that is not inlined, through a device function pointer, in a
// warp collective, or not at all (a barrier-free kernel with calls of the
// C library's math functions that cannot block); and in the ways that block
// without a barrier: a 2-D block (the thunk's second thread loop) with a
// barrier in its last block only, warp-synchronous volatile shared memory
// (its lanes step in lockstep), a spin-wait with __nanosleep, and a
// cooperative-groups tile's sync. A thread that blocked and came back into
// its runner's loop without the test would run the threads after it a
// second time (counts of 2) or skip them. tests/programs_saxpy.sh also runs
// this program with the threads in reverse and in a random order, and
// checks in its machine code that the barrier-free kernel's thread loop
// lost the test while those of barrier_in_call and heap_copy kept it, and
// that saxpy_int_index's loop over global indices sign-extends no index
// per thread.
#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstring>

#include <cooperative_groups.h>

#include "../check.cuh"

namespace cg = cooperative_groups;

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

// Barrier-free with CUDA's usual int index: the thunk runs a 1-D block as a
// loop over the global index, which the kernel's own index folds into (one
// induction variable and no sign extension per thread: programs_saxpy.sh
// checks its machine code). Each y[i] below n gets a * x[i] once.
__global__ void saxpy_int_index(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
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

// Barrier-free but for the device heap: malloc and free are built-ins that
// g++ knows call nothing back, yet in device code they are libcuemu's.
__global__ void heap_copy(const int *in, int *out, int *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int *cell = static_cast<int *>(malloc(sizeof(int)));
  if (cell) {
    *cell = in[i] * 3;
    out[i] = *cell;
    free(cell);
  }
  atomicAdd(&count[i], 1);
}

// A 2-D block (16 x 8) whose barrier only the last block reaches.
__global__ void rare_barrier_2d(int *count, int *sum) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  int i = blockIdx.x * blockDim.x * blockDim.y + t;
  if (blockIdx.x == gridDim.x - 1) {
    __syncthreads();
    atomicAdd(sum, t);
  }
  atomicAdd(&count[i], 1);
}

// Each warp sums its 32 values through volatile shared memory, with no
// __syncwarp(): warp-synchronous code from before Volta, uniform over the
// warp (the upper half of each warp's 64 cells stays 0).
__global__ void warp_volatile_sum(const int *in, int *out, int *count) {
  __shared__ int cells[kBlock / 32][64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  volatile int *v = cells[threadIdx.x / 32];
  v[lane] = in[i];
  v[lane + 32] = 0;
  v[lane] += v[lane + 16];
  v[lane] += v[lane + 8];
  v[lane] += v[lane + 4];
  v[lane] += v[lane + 2];
  v[lane] += v[lane + 1];
  if (lane == 0)
    out[i / 32] = v[0];
  atomicAdd(&count[i], 1);
}

// Every thread of a block but the last spins, with a back-off, until the
// block's last thread has raised the block's flag.
__global__ void spin_for_last(int *flags, int *seen, int *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == blockDim.x - 1) {
    seen[i] = 1;
    __threadfence();
    atomicExch(&flags[blockIdx.x], 1);
  } else {
    while (atomicAdd(&flags[blockIdx.x], 0) == 0)
      __nanosleep(64);
    __threadfence();
    seen[i] = atomicAdd(&seen[blockIdx.x * blockDim.x + blockDim.x - 1], 0);
  }
  atomicAdd(&count[i], 1);
}

// Each tile of 16 threads passes its values one place to the left through
// shared memory, between two syncs of the tile.
__global__ void tile_rotate(const int *in, int *out, int *count) {
  __shared__ int cells[kBlock];
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int base = threadIdx.x - tile.thread_rank();
  cells[threadIdx.x] = in[i];
  tile.sync();
  int v = cells[base + (tile.thread_rank() + 1) % 16];
  tile.sync();
  out[i] = v;
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

// Waits for a launch: whether it succeeded and ran each thread once. Clears
// the counts for the next launch.
static bool ran_once(int *count) {
  bool ok = cudaDeviceSynchronize() == cudaSuccess && all_once(count, kThreads);
  std::memset(count, 0, kThreads * sizeof(int));
  return ok;
}

// Whether `p(i)` holds for every i in [0, n).
template <typename P> static bool all_of(int n, P p) {
  for (int i = 0; i < n; ++i)
    if (!p(i))
      return false;
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
  CHECK(all_of(kThreads, [&](int i) {
    return count[i] == (i < n) && y[i] == (i < n ? float(i % 7) + 1.0f : 1.0f);
  }));
  std::memset(count, 0, kThreads * sizeof(int));

  // Blocks of 99 threads (the unrolled loop's remainder runs too), the last
  // one partly past n; y[i] is i % 7 + 1 here, and x[i] an exact square.
  saxpy_int_index<<<(kThreads + 98) / 99, 99>>>(n, 0.5f, x, y);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(all_of(kThreads, [&](int i) {
    float before = i < n ? float(i % 7) + 1.0f : 1.0f;
    return y[i] == (i < n ? 0.5f * x[i] + before : before);
  }));
  for (int i = 0; i < kThreads; ++i) // back to what rare_barrier expects
    y[i] = i < n ? float(i % 7) + 1.0f : 1.0f;

  rare_barrier<<<kBlocks, kBlock>>>(y, count, kThreads);
  CHECK(ran_once(count));
  CHECK(all_of(kThreads, [&](int i) {
    return y[i] == (i < n ? float(i % 7) + 2.0f : 2.0f);
  }));

  *sum = 0;
  barrier_in_call<<<kBlocks, kBlock>>>(count, sum);
  CHECK(ran_once(count));
  CHECK(*sum == kBlock * (kBlocks / 2));

  *sum = 0;
  barrier_through_pointer<<<kBlocks, kBlock>>>(count, sum);
  CHECK(ran_once(count));
  CHECK(*sum == kThreads);

  // Warp w sums in[32 w .. 32 w + 31].
  auto warp_sums = [&](int w) { return out[w] == 32 * 32 * w + 31 * 32 / 2; };
  warp_sum<<<kBlocks, kBlock>>>(in, out, count);
  CHECK(ran_once(count));
  CHECK(all_of(kThreads / 32, warp_sums));

  *sum = 0;
  rare_barrier_2d<<<kBlocks, dim3(16, kBlock / 16)>>>(count, sum);
  CHECK(ran_once(count));
  CHECK(*sum == kBlock * (kBlock - 1) / 2);

  std::memset(out, 0, kThreads / 32 * sizeof(int));
  warp_volatile_sum<<<kBlocks, kBlock>>>(in, out, count);
  CHECK(ran_once(count));
  CHECK(all_of(kThreads / 32, warp_sums));

  int *flags, *seen, *res;
  cudaMallocManaged(&flags, kBlocks * sizeof(int));
  cudaMallocManaged(&seen, kThreads * sizeof(int));
  cudaMallocManaged(&res, kThreads * sizeof(int));
  std::memset(flags, 0, kBlocks * sizeof(int));
  std::memset(seen, 0, kThreads * sizeof(int));
  spin_for_last<<<kBlocks, kBlock>>>(flags, seen, count);
  CHECK(ran_once(count));
  CHECK(all_of(kThreads, [&](int i) { return seen[i] == 1; }));

  tile_rotate<<<kBlocks, kBlock>>>(in, res, count);
  CHECK(ran_once(count));
  CHECK(all_of(kThreads, [&](int i) {
    return res[i] == i - i % 16 + (i % 16 + 1) % 16;
  }));

  heap_copy<<<kBlocks, kBlock>>>(in, res, count);
  CHECK(ran_once(count));
  CHECK(all_of(kThreads, [&](int i) { return res[i] == 3 * i; }));

  cudaFree(flags);
  cudaFree(seen);
  cudaFree(res);
  cudaFree(x);
  cudaFree(y);
  cudaFree(count);
  cudaFree(sum);
  cudaFree(in);
  cudaFree(out);
  return finish();
}
