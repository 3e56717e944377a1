// race_long_kernel_name.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race global RAW line 26 line 27
#include <cstdio>
#include <cuda_runtime.h>

/* The kernel's name, a template instantiated on a long list of types, is
 * longer than a report's line (about 2,600 characters), as Thrust's and
 * CUB's agents instantiated on lambdas and iterators are (a public game of
 * life's reduce_by_key). The report once gave the kernel's
 * name and nothing after it, cut at the line's end: which checker, the
 * address and the lines were lost. The name's end is cut now. */
struct a_struct_whose_name_is_long_enough_that_a_list_of_them_makes_a_kernel_name_of_thousands_of_chars {};
typedef a_struct_whose_name_is_long_enough_that_a_list_of_them_makes_a_kernel_name_of_thousands_of_chars L;

template <class... T> struct List {};
typedef List<L, L, L, L, L, L, L, L, L, L, L, L, L> Half;
typedef List<Half, Half> Long;

/* Each block's first thread stores its value; the next block's first
 * thread reads it without any ordering between blocks. */
template <class Tag>
__global__ void read_neighbour(int *cells, int *out) {
  int b = blockIdx.x;
  if (threadIdx.x == 0) {
    cells[b] = b + 1;
    out[b] = b > 0 ? cells[b - 1] : 0;
  }
}

int main() {
  const int blocks = 4;
  int *cells, *out;
  cudaMalloc(&cells, blocks * sizeof(int));
  cudaMalloc(&out, blocks * sizeof(int));
  cudaMemset(cells, 0, blocks * sizeof(int));
  read_neighbour<Long><<<blocks, 32>>>(cells, out);
  cudaDeviceSynchronize();
  int host[blocks];
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  printf("%d\n", host[blocks - 1]);
  return 0;
}
