// xcompiler_quoted_lists.cu: the -Xcompiler value that CMake's FindCUDA
// (find_package(CUDA), cuda_add_executable) gives nvcc: a list that starts
// with a comma and whose items are in double quotes, as in ,"-g","-O2". nvcc
// splits such a list at the commas outside the quotes, skips empty items and
// runs the host compiler through a shell, which drops the quotes. cuemu-nvcc
// passed "-g" with its quotes to the host compiler, which took it for a
// missing input file, and no FindCUDA project built.
// CUEMU_OPTIONS: -Xcompiler ,"-DQUOTED_ONE=1","-DQUOTED_PAIR=2,3",,-DPLAIN_LAST=4
// NVCC_OPTIONS: -Xcompiler ,"-DQUOTED_ONE=1","-DQUOTED_PAIR=2,3",,-DPLAIN_LAST=4
#include "../check.cuh"

#if !defined(QUOTED_ONE) || !defined(QUOTED_PAIR) || !defined(PLAIN_LAST)
#error "the -Xcompiler list did not define its three macros"
#endif

__global__ void fill(int *out) {
  const int pair[] = {QUOTED_PAIR};
  out[threadIdx.x] = QUOTED_ONE + pair[threadIdx.x % 2] + PLAIN_LAST;
}

int main() {
  int *d = nullptr;
  int h[4] = {};
  CHECK(cudaMalloc(&d, sizeof h) == cudaSuccess);
  fill<<<1, 4>>>(d);
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int i = 0; i < 4; ++i)
    CHECK(h[i] == 1 + (i % 2 ? 3 : 2) + 4);
  CHECK(cudaFree(d) == cudaSuccess);
  return finish();
}
