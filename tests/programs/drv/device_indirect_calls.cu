/*
 * device_indirect_calls.cu: ptx_indirect_kernels.cuh's kernels built as
 * CUDA C++ and launched with <<<>>>: calls through a table of `__device__`
 * function pointers, virtual functions of classes created in device code
 * with new (and destroyed through a virtual destructor), and `__device__`
 * pointers initialised with addresses. ptx_indirect_calls.cu runs the same
 * kernels from nvcc's PTX text through the driver API, with the same
 * results.
 * Prints PASS and exits 0 when all is well.
 */
#include <cstdio>

#include "../check.cuh"
#include "ptx_indirect_kernels.cuh"

#define CUDA(call) CHECK((call) == cudaSuccess)

int main() {
  const int n = 96;
  int *out, *which;
  CUDA(cudaMallocManaged(&out, 2 * n * sizeof(int)));
  CUDA(cudaMallocManaged(&which, n * sizeof(int)));
  for (int i = 0; i < n; ++i) which[i] = (i * 7) % 5;

  apply_ops<<<3, 32>>>(out, which, 100, 9, n);
  CUDA(cudaDeviceSynchronize());
  for (int i = 0; i < n; ++i) CHECK(out[i] == expected_op(which[i], 100 + i, 9));

  pick_op<<<3, 32>>>(out, which, n);
  CUDA(cudaDeviceSynchronize());
  for (int i = 0; i < n; ++i) CHECK(out[i] == (which[i] ? i + 3 : i * 3));

  shapes<<<3, 32>>>(out, n);
  CUDA(cudaDeviceSynchronize());
  for (int i = 0; i < n; ++i) {
    CHECK(out[2 * i] == expected_area(i));
    CHECK(out[2 * i + 1] == expected_sides(i));
  }

  through_pointers<<<1, 1>>>(out);
  CUDA(cudaDeviceSynchronize());
  const int want[6] = {8, 30, 40, 9, 20, 'k'};
  for (int i = 0; i < 6; ++i) CHECK(out[i] == want[i]);

  CUDA(cudaFree(out));
  CUDA(cudaFree(which));
  return finish();
}
