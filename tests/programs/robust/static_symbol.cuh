// static_symbol.cuh: device variables of internal linkage (static, or in an
// unnamed namespace) that device code reads and nothing in the translation
// unit writes: the host sets them with cudaMemcpyToSymbol, and the kernel
// must read what the host wrote, as on a GPU. cuemu's device pass once
// let the compiler fold such a variable to its initial value at -O2, and
// the host's write was silently lost. A static variable of an unnamed
// struct did not compile, and the instances of a static variable template
// were the host pass's own under clang++ (the kernel read the initial
// value). Included by the static_symbol_*.cu programs, each built with
// another compiler or optimisation level.
#include <cuda_runtime.h>

#include "../check.cuh"

static __device__ int scale = 1;
static __device__ float bias[2] = {0.5f, 0.25f};
static __constant__ int table[4] = {1, 2, 3, 4};
static __device__ struct {
  int first, second;
} pair = {1, 2};
template <class T> static __device__ T per_type = T(1);
namespace {
__device__ int offset = 0;
__device__ const int *where_from = nullptr;
} // namespace

__global__ void read_symbols(int *out, float *fout) {
  out[0] = scale * 10 + offset;
  out[1] = table[threadIdx.x + 2];
  out[2] = where_from ? *where_from : -1;
  fout[0] = bias[0] + bias[1] + per_type<float>;
  out[3] = pair.first * 10 + pair.second + per_type<int> * 100;
}

int main() {
  int *out, *source;
  float *fout;
  cudaMalloc(&out, 4 * sizeof(int));
  cudaMalloc(&fout, sizeof(float));
  cudaMalloc(&source, sizeof(int));
  int forty_two = 42;
  cudaMemcpy(source, &forty_two, sizeof forty_two, cudaMemcpyHostToDevice);
  int seven = 7, five = 5, tab[4] = {10, 20, 30, 40};
  float b[2] = {2.0f, 3.0f};
  CHECK(cudaMemcpyToSymbol(scale, &seven, sizeof seven) == cudaSuccess);
  CHECK(cudaMemcpyToSymbol(offset, &five, sizeof five) == cudaSuccess);
  CHECK(cudaMemcpyToSymbol(table, tab, sizeof tab) == cudaSuccess);
  CHECK(cudaMemcpyToSymbol(bias, b, sizeof b) == cudaSuccess);
  CHECK(cudaMemcpyToSymbol(where_from, &source, sizeof source) ==
        cudaSuccess);
  int pair_values[2] = {3, 4}, per_int = 5;
  float per_float = 0.5f;
  CHECK(cudaMemcpyToSymbol(pair, pair_values, sizeof pair_values) ==
        cudaSuccess);
  CHECK(cudaMemcpyToSymbol(per_type<int>, &per_int, sizeof per_int) ==
        cudaSuccess);
  CHECK(cudaMemcpyToSymbol(per_type<float>, &per_float, sizeof per_float) ==
        cudaSuccess);
  read_symbols<<<1, 1>>>(out, fout);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int got[4] = {0, 0, 0, 0};
  float fgot = 0;
  cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
  cudaMemcpy(&fgot, fout, sizeof fgot, cudaMemcpyDeviceToHost);
  CHECK(got[0] == 75);
  CHECK(got[1] == 30);
  CHECK(got[2] == 42);
  CHECK(got[3] == 534);
  CHECK(fgot == 5.5f);
  // And back: the host reads what the device holds.
  int back = 0;
  CHECK(cudaMemcpyFromSymbol(&back, scale, sizeof back) == cudaSuccess);
  CHECK(back == 7);
  if (check_failures)
    std::fprintf(stderr, "got %d %d %d %d %g\n", got[0], got[1], got[2],
                 got[3], fgot);
  return finish();
}
