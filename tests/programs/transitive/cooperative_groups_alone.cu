// cooperative_groups_alone.cu: the names a .cu file may use with nvcc 13.0
// after including <cooperative_groups.h> alone, which brings libcu++
// (<cuda/std/type_traits>, <cuda/std/limits>, <cuda/std/cstdint>,
// <cuda/atomic>, <cuda/std/chrono>), <nv/target>, <cuda_fp16.h>,
// <cuda_bf16.h> and <cuda_fp8.h>, and from the standard library <cstdint>,
// <cstdio>, <cassert>, <cfloat>, <cerrno>, <string>, <chrono> and
// <stdexcept>: each also compiles with cuemu-nvcc (docs/nvcc-checks.md,
// "What a header brings"). Prints PASS.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

template <class T, class = cuda::std::enable_if_t<cuda::std::is_integral_v<T>>>
__device__ T twice(T v) {
  return v * 2;
}

__global__ void device_names(unsigned *out) {
  cg::thread_block block = cg::this_thread_block();
  static_assert(cuda::std::is_same_v<int, int>, "is_same_v");
  static_assert(
      cuda::std::is_same<cuda::std::remove_cv_t<const int>, int>::value,
      "remove_cv_t");
  cuda::std::uint32_t top = cuda::std::numeric_limits<cuda::std::uint8_t>::max();
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> counter(out[0]);
  counter.fetch_add(1);
  block.sync();
  if (block.thread_rank() == 0) {
    __half h = __float2half(1.5f);
    __nv_bfloat16 b = __float2bfloat16(2.0f);
    out[1] = twice(top) + static_cast<unsigned>(__half2float(h) * 2.0f) +
             static_cast<unsigned>(__bfloat162float(b));
  }
}

static bool host_names() {
  uint32_t a = 1;
  uint64_t b = 2;
  uintptr_t c = 3;
  uint8_t d = 4;
  intptr_t e = 5;
  std::uint16_t f = 6;
  size_t wide = SIZE_MAX;
  std::string s = "x";
  s += std::to_string(7);
  auto start = std::chrono::steady_clock::now();
  bool caught = false;
  try {
    throw std::runtime_error("thrown");
  } catch (const std::exception &) {
    caught = true;
  }
  float big = FLT_MAX;
  errno = 0;
  cuda::std::chrono::nanoseconds ns(8);
  assert(caught);
  const bool ok = a + b + c + d + e + f == 21 && wide == UINT64_MAX &&
                  s == "x7" && caught && big > 1e38f && errno == 0 &&
                  ns.count() == 8 &&
                  std::chrono::steady_clock::now() >= start;
  if (!ok)
    fprintf(stderr, "FAIL: host names\n");
  return ok;
}

int main() {
  unsigned *out = nullptr;
  if (cudaMallocManaged(&out, 2 * sizeof(unsigned)) != cudaSuccess)
    return 1;
  out[0] = 0;
  device_names<<<1, 64>>>(out);
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 2;
  const bool device_ok = out[0] == 64 && out[1] == 510 + 3 + 2;
  if (!device_ok)
    printf("FAIL: device names (%u, %u)\n", out[0], out[1]);
  cudaFree(out);
  if (!device_ok || !host_names())
    return 3;
  printf("PASS\n");
  return 0;
}
