// pre_included_headers.cu: headers named with -include come after the
// CUDA runtime header that nvcc pre-includes, so a forced-included CCCL
// header (thrust/pair.h: CCCL checks the toolkit's version, which
// cuda_runtime.h defines) and a forced-included project header that uses
// float2, make_float2 and cudaSuccess without including anything compile.
// This file includes neither: both come from the command line. cuemu-nvcc
// once put the user's -include files first, and CCCL stopped the compile
// with "CUDA compiler and CUDA toolkit headers are incompatible" (HeCBench
// rowwiseMoments built with -include thrust/pair.h for CUDA 13).
// CUEMU_OPTIONS: -std=c++17 -include thrust/pair.h -include pre_included.cuh
// NVCC_OPTIONS: -include thrust/pair.h -include pre_included.cuh
#include "../check.cuh"

// A kernel that returns two results through thrust::pair, as PyTorch-style
// reductions do (Welford's mean and variance).
__global__ void min_max(const float *x, int n, thrust::pair<float, float> *out) {
  __shared__ float lo[64], hi[64];
  int t = threadIdx.x;
  float l = x[0], h = x[0];
  for (int i = t; i < n; i += blockDim.x) {
    l = fminf(l, x[i]);
    h = fmaxf(h, x[i]);
  }
  lo[t] = l;
  hi[t] = h;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (t < s) {
      lo[t] = fminf(lo[t], lo[t + s]);
      hi[t] = fmaxf(hi[t], hi[t + s]);
    }
    __syncthreads();
  }
  if (t == 0)
    *out = thrust::make_pair(lo[0], hi[0]);
}

__global__ void widen_all(pre_included_stats *s, float by) {
  s[threadIdx.x].range = widen(s[threadIdx.x].range, by);
  s[threadIdx.x].count += 1;
}

int main() {
  const int n = 1000;
  float *x;
  thrust::pair<float, float> *mm;
  CHECK(PRE_INCLUDED_CHECK(cudaMallocManaged(&x, n * sizeof(float))));
  CHECK(PRE_INCLUDED_CHECK(cudaMallocManaged(&mm, sizeof *mm)));
  for (int i = 0; i < n; ++i)
    x[i] = (float)((i * 37) % 1000) - 400.0f; // -400 .. 599
  min_max<<<1, 64>>>(x, n, mm);
  CHECK(PRE_INCLUDED_CHECK(cudaDeviceSynchronize()));
  CHECK(mm->first == -400.0f);
  CHECK(mm->second == 599.0f);

  pre_included_stats *s;
  CHECK(PRE_INCLUDED_CHECK(cudaMallocManaged(&s, 4 * sizeof *s)));
  for (int i = 0; i < 4; ++i)
    s[i] = {make_float2((float)i, (float)(2 * i)), i};
  widen_all<<<1, 4>>>(s, 0.5f);
  CHECK(PRE_INCLUDED_CHECK(cudaDeviceSynchronize()));
  for (int i = 0; i < 4; ++i) {
    CHECK(s[i].range.x == i - 0.5f);
    CHECK(s[i].range.y == 2 * i + 0.5f);
    CHECK(s[i].count == i + 1);
  }
  // The same widening on the host: the header's __host__ __device__
  // function is in the host pass too.
  float2 h = widen(make_float2(1.0f, 2.0f), 0.25f);
  CHECK(h.x == 0.75f && h.y == 2.25f);
  cudaFree(x);
  cudaFree(mm);
  cudaFree(s);
  return finish();
}
