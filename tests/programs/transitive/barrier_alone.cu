// barrier_alone.cu: the names a .cu file may use with nvcc 13.0 after
// including <cuda/barrier> alone: cuda::barrier, cuda::memcpy_async,
// cuda::std::barrier and what libcu++ brings with them (<cuda/std/atomic>,
// <cuda/std/chrono>, <cuda/std/type_traits>, <cuda/std/limits>), and from
// the C and C++ libraries <cstdint>, <cstdio>, <string>, <chrono> and
// <stdexcept>: each also compiles with cuemu-nvcc (docs/nvcc-checks.md,
// "What a header brings"). Prints PASS.
#include <cuda/barrier>

__global__ void device_names(const uint32_t *in, uint32_t *out) {
  __shared__ uint32_t staged[32];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  cuda::memcpy_async(&staged[threadIdx.x], &in[threadIdx.x], sizeof(uint32_t),
                     bar);
  bar.arrive_and_wait();
  static_assert(cuda::std::is_same_v<cuda::std::uint32_t, uint32_t>, "");
  out[threadIdx.x] =
      staged[31 - threadIdx.x] + cuda::std::numeric_limits<uint8_t>::max();
}

int main() {
  uint32_t *in = nullptr, *out = nullptr;
  if (cudaMallocManaged(&in, 32 * sizeof(uint32_t)) != cudaSuccess ||
      cudaMallocManaged(&out, 32 * sizeof(uint32_t)) != cudaSuccess)
    return 1;
  for (uint32_t i = 0; i < 32; ++i)
    in[i] = i;
  device_names<<<1, 32>>>(in, out);
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 2;
  std::string failure;
  for (uint32_t i = 0; i < 32; ++i)
    if (out[i] != 31 - i + 255)
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
