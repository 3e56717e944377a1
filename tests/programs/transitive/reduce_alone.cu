// reduce_alone.cu: the names a .cu file may use with nvcc 13.0 after
// including <cooperative_groups/reduce.h> alone: cooperative groups and
// what <cooperative_groups.h> brings (cooperative_groups_alone.cu), and
// besides libcu++'s <cuda/std/functional>, <cuda/std/tuple> and
// <cuda/std/utility>: each also compiles with cuemu-nvcc
// (docs/nvcc-checks.md, "What a header brings"). Prints PASS.
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__global__ void device_names(int *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const int sum = cg::reduce(warp, static_cast<int>(warp.thread_rank()),
                             cg::plus<int>());
  cuda::std::tuple<int, unsigned> pair_of(sum, warp.size());
  cuda::std::pair<int, int> two = cuda::std::make_pair(1, 2);
  cuda::std::plus<int> add;
  if (block.thread_rank() == 0)
    out[0] = add(cuda::std::get<0>(pair_of), two.second) +
             static_cast<int>(cuda::std::get<1>(pair_of));
}

int main() {
  int *out = nullptr;
  if (cudaMallocManaged(&out, sizeof(int)) != cudaSuccess)
    return 1;
  device_names<<<1, 32>>>(out);
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 2;
  const int value = out[0];
  cudaFree(out);
  std::string expected = std::to_string(496 + 2 + 32);
  if (std::to_string(value) != expected) {
    printf("FAIL: %d\n", value);
    return 3;
  }
  printf("PASS\n");
  return 0;
}
