// cccl_unit.cu: a unit that includes CUB (so cuemu-nvcc compiles it with
// clang++) gets a GPU's results where C++ leaves them undefined, and runs
// its warp-synchronous code in lockstep, as units compiled by g++ do:
// cuemu's LLVM plugin (emulator/compile/cuemu_llvm_plugin.cc) does for
// clang++ what its GCC plugin does for g++. Programs that use CUB for one
// reduction often keep a hand-written one beside it (a volatile last warp,
// or a tail loop with no barrier); before, both of those printed a wrong
// sum here, and a run-time shift by 32 or a float-to-int conversion out of
// range gave x86-64's results, with no diagnostic.
#include <cstdio>
#include <cub/block/block_reduce.cuh>

#include "../check.cuh"
#include "../gpu_results.cuh"

constexpr int kThreads = 128;

/* The last warp unrolled through a volatile pointer. */
__device__ void volatile_tail(int *sdata, unsigned tid) {
  volatile int *v = sdata;
  v[tid] += v[tid + 32];
  v[tid] += v[tid + 16];
  v[tid] += v[tid + 8];
  v[tid] += v[tid + 4];
  v[tid] += v[tid + 2];
  v[tid] += v[tid + 1];
}

/* Three sums of each block's values: CUB's, one finished by the volatile
 * tail and one finished by a loop with neither barrier nor volatile. */
__global__ void sums(const int *in, int *out) {
  using reduce = cub::BlockReduce<int, kThreads>;
  __shared__ typename reduce::TempStorage temp;
  __shared__ int a[kThreads], b[kThreads];
  unsigned tid = threadIdx.x;
  int x = in[blockIdx.x * kThreads + tid];
  int total = reduce(temp).Sum(x);
  a[tid] = x;
  b[tid] = x;
  __syncthreads();
  for (unsigned s = kThreads / 2; s > 32; s >>= 1) {
    if (tid < s) {
      a[tid] += a[tid + s];
      b[tid] += b[tid + s];
    }
    __syncthreads();
  }
  if (tid < 32) {
    volatile_tail(a, tid);
    for (unsigned s = 32; s > 0; s >>= 1)
      b[tid] += b[tid + s];
  }
  if (tid == 0) {
    out[3 * blockIdx.x] = total;
    out[3 * blockIdx.x + 1] = a[0];
    out[3 * blockIdx.x + 2] = b[0];
  }
}

/* Shifts by run-time amounts and conversions out of range (gpu_results.cu
 * has the whole table; these are its first cases). */
__global__ void results(const int *amounts, const float *f, long long *r) {
  if (threadIdx.x != 0)
    return;
  r[0] = low_bits(amounts[0]);           /* 32: all ones */
  r[1] = spread_sign(-8, amounts[1]);    /* 40: -1 */
  r[2] = quantise<int>(f[0], 1.0f);      /* 3e9: INT_MAX */
  r[3] = quantise<unsigned>(f[1], 1.0f); /* -1: 0 */
  r[4] = quantise<int>(f[2], 1.0f);      /* NaN: 0 */
}

int main() {
  const int blocks = 4, n = blocks * kThreads;
  int host[n], expect[blocks] = {0};
  for (int i = 0; i < n; ++i) {
    host[i] = (i * 7919) % 1000 - 300;
    expect[i / kThreads] += host[i];
  }
  int *d_in, *d_out, out[3 * blocks];
  CHECK(cudaMalloc(&d_in, sizeof host) == cudaSuccess);
  CHECK(cudaMalloc(&d_out, sizeof out) == cudaSuccess);
  CHECK(cudaMemcpy(d_in, host, sizeof host, cudaMemcpyHostToDevice) ==
        cudaSuccess);
  sums<<<blocks, kThreads>>>(d_in, d_out);
  CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  for (int b = 0; b < blocks; ++b) {
    CHECK(out[3 * b] == expect[b]);
    CHECK(out[3 * b + 1] == expect[b]);
    CHECK(out[3 * b + 2] == expect[b]);
  }

  const int amounts[] = {32, 40};
  const float floats[] = {3e9f, -1.0f, NAN};
  int *d_amounts;
  float *d_floats;
  long long *d_r, r[5];
  CHECK(cudaMalloc(&d_amounts, sizeof amounts) == cudaSuccess);
  CHECK(cudaMalloc(&d_floats, sizeof floats) == cudaSuccess);
  CHECK(cudaMalloc(&d_r, sizeof r) == cudaSuccess);
  cudaMemcpy(d_amounts, amounts, sizeof amounts, cudaMemcpyHostToDevice);
  cudaMemcpy(d_floats, floats, sizeof floats, cudaMemcpyHostToDevice);
  results<<<1, 32>>>(d_amounts, d_floats, d_r);
  CHECK(cudaMemcpy(r, d_r, sizeof r, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(r[0] == 0xffffffffll);
  CHECK(r[1] == -1);
  CHECK(r[2] == 2147483647);
  CHECK(r[3] == 0);
  CHECK(r[4] == 0);
  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_amounts);
  cudaFree(d_floats);
  cudaFree(d_r);
  return finish();
}
