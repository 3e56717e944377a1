// read_then_update.cu: every lane of a warp reads a __shared__ value, then one
// lane updates it, with no barrier between the read and the update. The
// converged warp makes its loads together, before the one lane's store, so on
// a GPU every lane sees the old value. Run one lane after another, the lanes
// after the updating one saw the new value: a k-nearest-neighbours program
// that takes neighbours off a shared counter (`if (left >= k) { ...; if
// (threadIdx.x == 0) left -= k; }`) counted 77.14 % where a GPU counts
// 80.00 %. (A race since Volta, which racecheck reports; a __syncwarp()
// between the read and the update makes it well defined.)
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "../check.cuh"

/* A counter in a __shared__ scalar: every lane reads it, lane 5 then takes
 * five off it. Each lane writes whether it saw the old value. */
__global__ void take_from_counter(int *saw_old) {
  __shared__ int left;
  if (threadIdx.x == 0)
    left = 5 + blockIdx.x;
  __syncthreads();
  int old = 0;
  if (left >= 5 + (int)blockIdx.x) {
    old = 1;
    if (threadIdx.x == 5)
      left = left - 5;
  }
  __syncthreads();
  saw_old[blockIdx.x * blockDim.x + threadIdx.x] = old;
}

/* The same through a constant element of a __shared__ array: every lane
 * reads s[1] into its result, and lane 0 then doubles it. */
__global__ void double_after_read(const int *in, int *out) {
  __shared__ int s[4];
  if (threadIdx.x < 4)
    s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  int seen = s[1];
  if (threadIdx.x == 0)
    s[1] = 2 * s[1];
  __syncthreads();
  out[threadIdx.x] = seen + (threadIdx.x == 31 ? s[1] : 0);
}

/* Rows of a 2D block, a warp each, that keep a count in dynamic shared
 * memory behind other data, indexed by threadIdx.y: every lane of the row
 * reads the row's count, then lane 0 takes its part off. */
__global__ void rows_take(const int *parts, int *saw_old) {
  extern __shared__ float buffer[];
  float *values = (float *)buffer;
  int *tags = (int *)&values[32 * blockDim.y];
  int *counts = (int *)&tags[32 * blockDim.y];
  if (threadIdx.x == 0)
    counts[threadIdx.y] = 10;
  __syncthreads();
  int part = parts[threadIdx.y];
  int old = 0;
  if (counts[threadIdx.y] >= part) {
    old = counts[threadIdx.y];
    if (threadIdx.x == 0)
      counts[threadIdx.y] = counts[threadIdx.y] - part;
  }
  __syncthreads();
  saw_old[threadIdx.y * blockDim.x + threadIdx.x] = old;
}

int main() {
  const int blocks = 3, threads = 32;
  int *d_saw;
  CHECK(cudaMalloc(&d_saw, blocks * threads * sizeof(int)) == cudaSuccess);
  take_from_counter<<<blocks, threads>>>(d_saw);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<int> saw(blocks * threads);
  cudaMemcpy(saw.data(), d_saw, saw.size() * sizeof(int), cudaMemcpyDeviceToHost);
  int count = 0;
  for (int v : saw)
    count += v;
  printf("lanes that saw the counter's old value: %d of %d\n", count, blocks * threads);
  CHECK(count == blocks * threads);

  int h_in[4] = {3, 7, 11, 13}, *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, sizeof(h_in)) == cudaSuccess);
  CHECK(cudaMalloc(&d_out, threads * sizeof(int)) == cudaSuccess);
  cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
  double_after_read<<<1, threads>>>(d_in, d_out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<int> out(threads);
  cudaMemcpy(out.data(), d_out, threads * sizeof(int), cudaMemcpyDeviceToHost);
  for (int t = 0; t < threads; t++)
    CHECK(out[t] == 7 + (t == 31 ? 14 : 0));

  const int rows = 4;
  int h_parts[rows] = {3, 10, 7, 1}, *d_parts, *d_rows;
  CHECK(cudaMalloc(&d_parts, sizeof(h_parts)) == cudaSuccess);
  CHECK(cudaMalloc(&d_rows, rows * threads * sizeof(int)) == cudaSuccess);
  cudaMemcpy(d_parts, h_parts, sizeof(h_parts), cudaMemcpyHostToDevice);
  rows_take<<<1, dim3(threads, rows), (32 + 32 + 1) * rows * sizeof(float)>>>(d_parts, d_rows);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<int> row_saw(rows * threads);
  cudaMemcpy(row_saw.data(), d_rows, row_saw.size() * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < rows * threads; i++)
    CHECK(row_saw[i] == 10);

  cudaFree(d_parts);
  cudaFree(d_rows);
  cudaFree(d_saw);
  cudaFree(d_in);
  cudaFree(d_out);
  return finish();
}
