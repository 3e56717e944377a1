/*
 * static_member_lambda.cu: a static const data member initialised in its
 * class and defined nowhere, given to a kernel template beside a
 * `__device__` lambda (a benchmark's `static const int kBatch = 64;` and the
 * body of a parallel-for). nvcc's launch is a call of a stub taking each
 * parameter by value, so the member is read, not odr-used, and needs no
 * definition. A lambda cannot appear in the unevaluated operand through
 * which cuemu's launches of kernel templates copy such arguments, so the
 * member was taken by reference there, and at -O0 the program did not link
 * ("undefined reference to `Batch::kSize'"). Also an enumerator, a variable the launch's
 * enclosing lambda captured by copy, and a non-const variable the kernel
 * must see the value of at the launch.
 * Prints PASS and exits 0 when all is well.
 */
// CUEMU_OPTIONS: -O0 --extended-lambda
// NVCC_OPTIONS: -O0 --extended-lambda
#include <cuda_runtime.h>

#include "../check.cuh"

struct Batch {
  static const int kSize = 64;
  static const unsigned kShift = 3;
  enum { kLanes = 32 };
};

template <typename F>
__global__ void for_each_index(int n, unsigned shift, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) f(i, shift);
}

int main() {
  int *d = nullptr;
  CHECK(cudaMalloc(&d, Batch::kSize * sizeof(int)) == cudaSuccess);
  for_each_index<<<2, Batch::kLanes>>>(
      Batch::kSize, Batch::kShift,
      [=] __device__(int i, unsigned s) { d[i] = i << s; });
  CHECK(cudaGetLastError() == cudaSuccess);
  int h[Batch::kSize];
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int i = 0; i < Batch::kSize; ++i)
    CHECK(h[i] == i * 8);

  int lanes = Batch::kLanes;
  auto launch = [=] {
    for_each_index<<<1, lanes>>>(lanes, 1u,
                                 [=] __device__(int i, unsigned s) {
                                   d[i] = lanes - (i << s);
                                 });
  };
  launch();
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int i = 0; i < Batch::kLanes; ++i)
    CHECK(h[i] == 32 - 2 * i);

  int count = 4;
  for_each_index<<<1, 8>>>(count, 0u,
                           [=] __device__(int i, unsigned) { d[i] = -1; });
  count = 8;
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(h[3] == -1 && h[4] == 24 && h[7] == 18);
  cudaFree(d);
  return finish();
}
