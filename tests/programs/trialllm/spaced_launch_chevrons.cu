// Launches whose chevrons an editor's formatter split, as karpathy/llm.c's
// dev/cuda/softmax_forward.cu writes one
// (`softmax_forward_online_kernel1 << <grid_size, block_size >> > (out, ...)`):
// nvcc reads `<<` followed by `<` after blanks or a comment on the same line
// as `<<<`, and `>>` followed by `>` after any blanks (a newline too) as
// `>>>`. cuemu took `<< <` for a shift ("expected primary-expression before
// '<' token") and `>> >` for no end of the launch. The forms here are each
// launched once, through a header's macro and a template too, and the lines
// after a split `>>` newline `>` keep their numbers. `operator<< <T>` is
// no launch.
#include "../check.cuh"

#include <cuda_runtime.h>

template <typename T>
__global__ void add_scaled(T *sum, T value, int scale) {
  atomicAdd(sum, value * scale);
}

// A template operator named with its arguments, `operator<< <int>(...)`,
// in device code is a call, not a launch (cuemu refused it).
struct Shifted { int v; };
template <typename T> __host__ __device__ Shifted operator<<(Shifted a, T b) {
  return Shifted{a.v << b};
}
__global__ void fill_rows(int *rows, int width) {
  rows[blockIdx.x * width + threadIdx.x] =
      operator<< <int>(Shifted{int(blockIdx.x * 10 + threadIdx.x)}, 1).v;
}

#define ADD_TWICE(p, v) add_scaled<int><< <1, 2>> >(p, v, 1)

template <typename T>
void add_in_stream(T *sum, T value, cudaStream_t stream) {
  add_scaled<T> << < dim3(1), dim3(1), 0, stream >> > (sum, value, 1);
}

int main() {
  int *sum = nullptr, *rows = nullptr;
  CHECK(cudaMallocManaged(&sum, sizeof(int)) == cudaSuccess);
  CHECK(cudaMalloc(&rows, 3 * 4 * sizeof(int)) == cudaSuccess);
  *sum = 0;
  add_scaled << < 1, 1 >> > (sum, 1, 1);
  add_scaled<< </* grid */ 1, 1>>>(sum, 1, 2);
  add_scaled<<<1, 1>>	>(sum, 1, 4);
  add_scaled <<< 1, 1 >>
      > (sum, 1, 8);
  const int line_after_split = __LINE__;
  ADD_TWICE(sum, 16);
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream) == cudaSuccess);
  add_in_stream(sum, 64, stream);
  fill_rows << <3, 4 >> > (rows, 4);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(*sum == 1 + 2 + 4 + 8 + 2 * 16 + 64);
  CHECK(line_after_split == 48);
  int host_rows[12];
  CHECK(cudaMemcpy(host_rows, rows, sizeof host_rows, cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  for (int b = 0; b < 3; ++b)
    for (int t = 0; t < 4; ++t)
      CHECK(host_rows[b * 4 + t] == (b * 10 + t) * 2);
  CHECK(cudaStreamDestroy(stream) == cudaSuccess);
  CHECK(cudaFree(rows) == cudaSuccess);
  CHECK(cudaFree(sum) == cudaSuccess);
  return finish();
}
