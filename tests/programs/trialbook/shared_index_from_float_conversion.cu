// shared_index_from_float_conversion.cu: a __shared__ array indexed by a
// float converted to an integer, as a teaching histogram does
// (awmthink/cuda-examples' histo.cu: `atomicAdd(&shist_bins[bin_index], 1)`
// with `bin_index = static_cast<int>((value - kMinValue) / bin)`). Device
// code's conversions saturate as PTX's cvt.rzi does, so on the paths where
// the value is out of range the index is a constant (INT_MAX, INT_MIN), and
// g++ folded the address of that element of the thread-local array into
// the relocation of the array's offset, which holds 32 bits: the link
// failed ("relocation truncated to fit: R_X86_64_DTPOFF32"). The program
// also checks that the conversions still saturate as on a GPU.
#include <climits>
#include <cmath>
#include <cstdio>

#include <cuda_runtime.h>

constexpr float kMaxValue = 5.0f;
constexpr float kMinValue = -5.0f;
constexpr int kBins = 8;
constexpr int kNums = 1000;

__host__ __device__ int bin_of(float value) {
  constexpr float bin = (kMaxValue - kMinValue) / kBins;
  return static_cast<int>((value - kMinValue) / bin);
}

// Bins of floats, of doubles and by an unsigned and a 64-bit index, each
// kept in shared memory, then added to the global ones.
__global__ void histograms(const float *values, int n, int *bins) {
  __shared__ int by_float[kBins];
  __shared__ int by_double[kBins];
  __shared__ int by_unsigned[kBins];
  __shared__ long long by_wide[kBins];
  int tid = threadIdx.x;
  if (tid < kBins) {
    by_float[tid] = 0;
    by_double[tid] = 0;
    by_unsigned[tid] = 0;
    by_wide[tid] = 0;
  }
  __syncthreads();
  int i = blockIdx.x * blockDim.x + tid;
  if (i < n) {
    float v = values[i];
    atomicAdd(&by_float[bin_of(v)], 1);
    atomicAdd(&by_double[static_cast<int>((double(v) - kMinValue) / 1.25)], 1);
    atomicAdd(&by_unsigned[static_cast<unsigned>((v - kMinValue) / 1.25f)], 1);
    atomicAdd(reinterpret_cast<unsigned long long *>(
                  &by_wide[static_cast<long long>((v - kMinValue) / 1.25f)]),
              1ull);
  }
  __syncthreads();
  if (tid < kBins) {
    atomicAdd(&bins[tid], by_float[tid]);
    atomicAdd(&bins[kBins + tid], by_double[tid]);
    atomicAdd(&bins[2 * kBins + tid], by_unsigned[tid]);
    atomicAdd(&bins[3 * kBins + tid], static_cast<int>(by_wide[tid]));
  }
}

// Plain stores through such an index into a shared array, read back.
__global__ void scatter(const float *values, int n, float *out) {
  __shared__ float slots[kBins];
  int tid = threadIdx.x;
  if (tid < kBins)
    slots[tid] = -1.0f;
  __syncthreads();
  if (tid < n)
    slots[bin_of(values[tid])] = values[tid];
  __syncthreads();
  if (tid < kBins)
    out[tid] = slots[tid];
}

// Conversions of values out of range, read from memory so that they are
// known only at run time: cvt.rzi saturates and gives 0 for NaN.
__global__ void saturations(const float *in, long long *out) {
  out[0] = static_cast<int>(in[0]);                 // 3e9f
  out[1] = static_cast<int>(in[1]);                 // -3e9f
  out[2] = static_cast<int>(in[2]);                 // NaN
  out[3] = static_cast<unsigned>(in[1]);            // -3e9f
  out[4] = static_cast<unsigned>(in[3]);            // 5e9f
  out[5] = static_cast<long long>(in[4]);           // 1e19f
  out[6] = static_cast<long long>(-double(in[4]));  // -1e19
  out[7] = static_cast<int>(in[5]);                 // 2.75f
}

int main() {
  int failures = 0;
  float values[kNums];
  int expected[kBins] = {};
  for (int i = 0; i < kNums; ++i) {
    values[i] = kMinValue + (kMaxValue - kMinValue) * ((i * 37) % kNums) /
                                kNums;
    ++expected[bin_of(values[i])];
  }
  float *d_values;
  int *d_bins;
  cudaMalloc(&d_values, sizeof values);
  cudaMalloc(&d_bins, 4 * kBins * sizeof(int));
  cudaMemcpy(d_values, values, sizeof values, cudaMemcpyHostToDevice);
  cudaMemset(d_bins, 0, 4 * kBins * sizeof(int));
  histograms<<<(kNums + 255) / 256, 256>>>(d_values, kNums, d_bins);
  int bins[4 * kBins];
  cudaMemcpy(bins, d_bins, sizeof bins, cudaMemcpyDeviceToHost);
  for (int h = 0; h < 4; ++h)
    for (int b = 0; b < kBins; ++b)
      if (bins[h * kBins + b] != expected[b]) {
        printf("FAIL: histogram %d bin %d: %d, expected %d\n", h, b,
               bins[h * kBins + b], expected[b]);
        ++failures;
      }

  float probes[kBins] = {-4.5f, -3.0f, -1.5f, -0.5f, 0.5f, 1.5f, 3.0f, 4.5f};
  float *d_probes, *d_slots;
  cudaMalloc(&d_probes, sizeof probes);
  cudaMalloc(&d_slots, sizeof probes);
  cudaMemcpy(d_probes, probes, sizeof probes, cudaMemcpyHostToDevice);
  scatter<<<1, 32>>>(d_probes, kBins, d_slots);
  float slots[kBins];
  cudaMemcpy(slots, d_slots, sizeof slots, cudaMemcpyDeviceToHost);
  for (int b = 0; b < kBins; ++b)
    if (slots[b] != probes[b]) {
      printf("FAIL: slot %d holds %g, expected %g\n", b, slots[b], probes[b]);
      ++failures;
    }

  float inputs[6] = {3e9f, -3e9f, NAN, 5e9f, 1e19f, 2.75f};
  const long long want[8] = {INT_MAX, INT_MIN, 0, 0, UINT_MAX,
                             LLONG_MAX, LLONG_MIN, 2};
  float *d_inputs;
  long long *d_out;
  cudaMalloc(&d_inputs, sizeof inputs);
  cudaMalloc(&d_out, sizeof want);
  cudaMemcpy(d_inputs, inputs, sizeof inputs, cudaMemcpyHostToDevice);
  saturations<<<1, 1>>>(d_inputs, d_out);
  long long got[8];
  cudaMemcpy(got, d_out, sizeof got, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 8; ++i)
    if (got[i] != want[i]) {
      printf("FAIL: conversion %d gave %lld, expected %lld\n", i, got[i],
             want[i]);
      ++failures;
    }

  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    printf("FAIL: %s\n", cudaGetErrorString(err));
    ++failures;
  }
  if (failures)
    return 1;
  printf("PASS\n");
  return 0;
}
