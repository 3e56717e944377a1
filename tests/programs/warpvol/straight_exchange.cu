// straight_exchange.cu: lanes of a warp that exchange values through plain
// (non-volatile) shared memory outside any loop, with no barrier between the
// store and the load: a few lanes each store a column's total to s[tid], and
// lane 0 then reads all of them; or each lane stores its element and reads
// its neighbour's. The converged warp makes all its stores before the next
// instruction's loads, so a GPU prints the totals and the neighbours' values;
// run one lane after another, lane 0 read the totals before the other lanes
// had stored them. Found by the HeCBench trial (a Romberg integration whose
// thread 0 combined the columns summed by threads 1 to 16 and printed 1.4e-8
// for 2304618.1).
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "../check.cuh"

constexpr int kCols = 12;

/* Each thread keeps kCols partial sums; after the barrier the first kCols
 * threads add up a column each and store it to s[tid]; thread 0 then makes
 * the running totals of the columns, with no barrier. */
__global__ void column_totals(const double *in, double *out) {
  extern __shared__ double s[];
  double part[kCols];
  for (int c = 0; c < kCols; c++)
    part[c] = in[(blockIdx.x * blockDim.x + threadIdx.x) * kCols + c];
  for (int c = 0; c < kCols; c++)
    s[kCols * threadIdx.x + c] = part[c];
  __syncthreads();
  if (threadIdx.x < kCols) {
    double sum = 0.0;
    for (unsigned i = threadIdx.x; i < blockDim.x * kCols; i += kCols)
      sum += s[i];
    s[threadIdx.x] = sum;
  }
  if (threadIdx.x == 0) {
    double *total = part;
    total[0] = s[0];
    for (int c = 1; c < kCols; c++)
      total[c] = total[c - 1] + s[c];
    for (int c = 0; c < kCols; c++)
      out[blockIdx.x * kCols + c] = total[c];
  }
}

/* One warp: each lane stores its square, then reads its neighbour's (lane
 * t ^ 1) with no barrier between (the warp's stores all come before its
 * loads). */
__global__ void swap_pairs(const int *in, int *out) {
  __shared__ int s[32];
  unsigned t = threadIdx.x;
  int v = in[t];
  s[t] = v * v;
  out[t] = s[t ^ 1];
}

int main() {
  const int blocks = 3, threads = 64;
  std::vector<double> in(blocks * threads * kCols);
  for (size_t i = 0; i < in.size(); i++)
    in[i] = (double)((i * 7) % 13) + 0.25;
  double *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, in.size() * sizeof(double)) == cudaSuccess);
  CHECK(cudaMalloc(&d_out, blocks * kCols * sizeof(double)) == cudaSuccess);
  cudaMemcpy(d_in, in.data(), in.size() * sizeof(double), cudaMemcpyHostToDevice);
  column_totals<<<blocks, threads, threads * kCols * sizeof(double)>>>(d_in, d_out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<double> got(blocks * kCols);
  cudaMemcpy(got.data(), d_out, got.size() * sizeof(double), cudaMemcpyDeviceToHost);
  for (int b = 0; b < blocks; b++) {
    double running = 0.0;
    for (int c = 0; c < kCols; c++) {
      for (int t = 0; t < threads; t++)
        running += in[(b * threads + t) * kCols + c];
      CHECK(got[b * kCols + c] == running);
    }
  }

  int *d_ints, *d_swapped;
  std::vector<int> ints(32), swapped(32);
  for (int i = 0; i < 32; i++)
    ints[i] = 100 + i;
  CHECK(cudaMalloc(&d_ints, 32 * sizeof(int)) == cudaSuccess);
  CHECK(cudaMalloc(&d_swapped, 32 * sizeof(int)) == cudaSuccess);
  cudaMemcpy(d_ints, ints.data(), 32 * sizeof(int), cudaMemcpyHostToDevice);
  swap_pairs<<<1, 32>>>(d_ints, d_swapped);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  cudaMemcpy(swapped.data(), d_swapped, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 32; i++)
    CHECK(swapped[i] == (100 + (i ^ 1)) * (100 + (i ^ 1)));

  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_ints);
  cudaFree(d_swapped);
  return finish();
}
