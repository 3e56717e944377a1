// Pointers to __device__ functions of another file, with relocatable
// device code (rdc/reduce_ops.cu): a table in this file that names the
// other file's functions, the other file's table and its default operator
// (a full declarator), read by host code with cudaMemcpyFromSymbol (one
// address per function, whichever file's variable holds it), passed to a
// kernel template, and written back with cudaMemcpyToSymbol into the other
// file's variable, which a kernel of this file calls.
// CUEMU_OPTIONS: -rdc=true rdc/reduce_ops.cu
// NVCC_OPTIONS: -rdc=true
#include <cuda_runtime.h>
#include <cstdio>
#include "../check.cuh"
#include "rdc/reduce_ops.cuh"

__device__ reduce_op main_ops[2] = {op_sum, &op_max};

// Each block reduces its part of `in` with `op`, in shared memory.
template <int BLOCK>
__global__ void block_reduce(const float *in, float *out, int n, reduce_op op,
                             float identity) {
  __shared__ float part[BLOCK];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  part[threadIdx.x] = i < n ? in[i] : identity;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      part[threadIdx.x] = op(part[threadIdx.x], part[threadIdx.x + s]);
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = part[0];
}

// Reduces with the other file's default operator.
__global__ void default_reduce(const float *in, float *out, int n) {
  float acc = in[0];
  for (int i = 1; i < n; ++i) acc = lib_default(acc, in[i]);
  *out = acc;
}

int main() {
  reduce_op mine[2] = {0, 0}, theirs[2] = {0, 0}, dflt = 0;
  CHECK(cudaMemcpyFromSymbol(mine, main_ops, sizeof mine) == cudaSuccess);
  CHECK(cudaMemcpyFromSymbol(theirs, lib_ops, sizeof theirs) == cudaSuccess);
  CHECK(cudaMemcpyFromSymbol(&dflt, lib_default, sizeof dflt) == cudaSuccess);
  CHECK(mine[0] && mine[1] && mine[0] != mine[1]);
  CHECK(mine[0] == theirs[0] && mine[1] == theirs[1] && dflt == mine[1]);

  const int n = 1000, block = 128, blocks = (n + block - 1) / block;
  static float h[n], parts[blocks];
  for (int i = 0; i < n; ++i) h[i] = (float)((i * 7919) % 1009) - 300.0f;
  float *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, sizeof h) == cudaSuccess);
  CHECK(cudaMalloc(&d_out, sizeof parts) == cudaSuccess);
  CHECK(cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice) == cudaSuccess);
  for (int f = 0; f < 2; ++f) {
    float identity = f == 0 ? 0.0f : -1e30f;
    block_reduce<block><<<blocks, block>>>(d_in, d_out, n, mine[f], identity);
    CHECK(cudaMemcpy(parts, d_out, sizeof parts, cudaMemcpyDeviceToHost) == cudaSuccess);
    for (int b = 0; b < blocks; ++b) {
      float e = identity;
      for (int i = b * block; i < n && i < (b + 1) * block; ++i)
        e = f == 0 ? e + h[i] : (h[i] > e ? h[i] : e);
      // Integers well inside float's range: the sums are exact whatever
      // the order.
      CHECK(parts[b] == e);
    }
  }

  // The default is the maximum; then the sum, written by host code.
  float r = 0, sum = 0, max = h[0];
  for (int i = 0; i < n; ++i) { sum += h[i]; max = h[i] > max ? h[i] : max; }
  default_reduce<<<1, 1>>>(d_in, d_out, n);
  CHECK(cudaMemcpy(&r, d_out, sizeof r, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(r == max);
  CHECK(cudaMemcpyToSymbol(lib_default, &theirs[0], sizeof theirs[0]) == cudaSuccess);
  default_reduce<<<1, 1>>>(d_in, d_out, n);
  CHECK(cudaMemcpy(&r, d_out, sizeof r, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(r == sum);

  CHECK(cudaGetLastError() == cudaSuccess);
  cudaFree(d_in);
  cudaFree(d_out);
  return finish();
}
