// rle.cuh: run-length coding of byte and integer columns on top of CUB and Thrust.
#ifndef ZIPK_RLE_CUH
#define ZIPK_RLE_CUH
#include <cub/cub.cuh>
#include "common.cuh"

namespace zip {
namespace rle {

// Expands runs: one thread per run, writing its value run_length times at
// the offset the exclusive scan gave it.
template <typename T, typename LenT>
__global__ void expand_runs(const T *__restrict__ values, const LenT *__restrict__ lengths,
                            const LenT *__restrict__ offsets, int num_runs, T *out) {
  for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < num_runs; r += blockDim.x * gridDim.x) {
    const T v = values[r];
    const LenT start = offsets[r];
    for (LenT i = 0; i < lengths[r]; ++i) out[start + i] = v;
  }
}

// Marks the first element of every run (1) and the others (0).
template <typename T>
__global__ void mark_run_heads(const T *in, int n, unsigned char *flags) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) flags[i] = (i == 0 || in[i] != in[i - 1]) ? 1 : 0;
}

// A predicate functor for DeviceSelect::If, as CUB examples write it.
struct GreaterThan {
  int threshold;
  __host__ __device__ explicit GreaterThan(int t) : threshold(t) {}
  __host__ __device__ bool operator()(const int &v) const { return v > threshold; }
};

// Runs any CUB device algorithm with the two-call temporary storage idiom.
template <typename F>
void with_temp_storage(F &&call, cudaStream_t stream = 0) {
  void *temp = nullptr;
  size_t bytes = 0;
  CUDA_CHECK(call(temp, bytes));
  CUDA_CHECK(cudaMallocAsync(&temp, bytes, stream));
  CUDA_CHECK(call(temp, bytes));
  CUDA_CHECK(cudaFreeAsync(temp, stream));
}

// Encodes n values into (unique values, run lengths); returns the run count.
template <typename T>
int encode(const T *d_in, int n, T *d_unique, int *d_lengths, int *d_num_runs, cudaStream_t s) {
  with_temp_storage([&](void *temp, size_t &bytes) {
    return cub::DeviceRunLengthEncode::Encode(temp, bytes, d_in, d_unique, d_lengths,
                                              d_num_runs, n, s);
  }, s);
  int runs = 0;
  CUDA_CHECK(cudaMemcpyAsync(&runs, d_num_runs, sizeof(int), cudaMemcpyDeviceToHost, s));
  CUDA_CHECK(cudaStreamSynchronize(s));
  return runs;
}

template <typename T>
void decode(const T *d_unique, const int *d_lengths, int runs, int *d_offsets, T *d_out,
            cudaStream_t s) {
  with_temp_storage([&](void *temp, size_t &bytes) {
    return cub::DeviceScan::ExclusiveSum(temp, bytes, d_lengths, d_offsets, runs, s);
  }, s);
  int threads = 128;
  int blocks = div_up(runs, threads);
  expand_runs<<<blocks, threads, 0, s>>>(d_unique, d_lengths, d_offsets, runs, d_out);
  CUDA_CHECK_LAST();
}

}  // namespace rle
}  // namespace zip
#endif  // ZIPK_RLE_CUH
