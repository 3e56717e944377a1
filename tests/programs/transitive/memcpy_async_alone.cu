// memcpy_async_alone.cu: the names a .cu file may use with nvcc 13.0 after
// including <cooperative_groups/memcpy_async.h> alone: cooperative groups,
// cg::memcpy_async and cg::wait, and what <cooperative_groups.h> brings
// (cooperative_groups_alone.cu: libcu++, <cstdint>, <string>...): each also
// compiles with cuemu-nvcc (docs/nvcc-checks.md, "What a header brings").
// Prints PASS.
#include <cooperative_groups/memcpy_async.h>

namespace cg = cooperative_groups;

__global__ void device_names(const uint32_t *in, uint32_t *out) {
  __shared__ uint32_t staged[64];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, staged, in, sizeof staged);
  cg::wait(block);
  using word = cuda::std::conditional_t<sizeof(uint32_t) == 4, uint32_t, int>;
  out[block.thread_rank()] = static_cast<word>(staged[63 - block.thread_rank()]);
}

int main() {
  uint32_t *in = nullptr, *out = nullptr;
  if (cudaMallocManaged(&in, 64 * sizeof(uint32_t)) != cudaSuccess ||
      cudaMallocManaged(&out, 64 * sizeof(uint32_t)) != cudaSuccess)
    return 1;
  for (uint32_t i = 0; i < 64; ++i)
    in[i] = i * 3;
  device_names<<<1, 64>>>(in, out);
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 2;
  std::string failure;
  for (uint32_t i = 0; i < 64; ++i)
    if (out[i] != (63 - i) * 3)
      failure = "element " + std::to_string(i);
  cudaFree(in);
  cudaFree(out);
  if (!failure.empty()) {
    printf("FAIL: %s\n", failure.c_str());
    return 3;
  }
  printf("PASS\n");
  return 0;
}
