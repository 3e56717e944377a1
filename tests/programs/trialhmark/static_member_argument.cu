/*
 * static_member_argument.cu: a launch whose argument is a static const data
 * member initialised in its class and never defined out of it (a benchmark
 * class's `static const uint32_t kNumVariables = 500;` passed as a kernel's
 * size). nvcc's launch is a call of a stub taking each parameter by value,
 * so the member is read, not odr-used, and needs no definition; cuemu's
 * launcher took the arguments by forwarding reference, which odr-uses the
 * member, and at -O0 (where nothing folds the constant) the program did not
 * link: "undefined reference to `Island::kNumVariables'". Also an enum
 * constant, a constexpr member and a null pointer constant, which binds to
 * a pointer parameter as in a call; and the same member given to a kernel
 * template whose template argument the launch deduces and to one of two
 * overloaded kernels, whose launches pick the kernel from the arguments'
 * types and value categories.
 * Prints PASS and exits 0 when all is well.
 */
// CUEMU_OPTIONS: -O0
#include <cstdint>

#include <cuda_runtime.h>

#include "../check.cuh"

class Island {
public:
  static const uint32_t kNumVariables = 500;
  static const int kScale = -3;
  static constexpr double kHalf = 0.5;
  enum { kLanes = 32 };
};

__global__ void record(uint32_t *out, uint32_t count, int scale, double half,
                       int lanes, const float *unused) {
  out[0] = count;
  out[1] = static_cast<uint32_t>(scale);
  out[2] = static_cast<uint32_t>(half * 4);
  out[3] = static_cast<uint32_t>(lanes);
  out[4] = unused == nullptr;
}

template <typename T> __global__ void store(T *out, uint32_t count) {
  out[0] = static_cast<T>(count);
}

__global__ void pick(uint32_t *out, uint32_t count) { out[0] = count + 1; }
__global__ void pick(float *out, uint32_t count) { out[0] = count + 2.0f; }

int main() {
  uint32_t *d = nullptr;
  CHECK(cudaMalloc(&d, 5 * sizeof(uint32_t)) == cudaSuccess);
  record<<<1, 1>>>(d, Island::kNumVariables, Island::kScale, Island::kHalf,
                   Island::kLanes, 0);
  CHECK(cudaGetLastError() == cudaSuccess);
  uint32_t h[5] = {0, 0, 0, 0, 0};
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(h[0] == 500);
  CHECK(h[1] == static_cast<uint32_t>(-3));
  CHECK(h[2] == 2);
  CHECK(h[3] == 32);
  CHECK(h[4] == 1);

  store<<<1, 1>>>(d, Island::kNumVariables);
  CHECK(cudaMemcpy(h, d, sizeof h[0], cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(h[0] == 500);
  pick<<<1, 1>>>(d, Island::kNumVariables);
  CHECK(cudaMemcpy(h, d, sizeof h[0], cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(h[0] == 501);
  float *f = nullptr;
  CHECK(cudaMalloc(&f, sizeof(float)) == cudaSuccess);
  pick<<<1, 1>>>(f, Island::kNumVariables);
  float g = 0;
  CHECK(cudaMemcpy(&g, f, sizeof g, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(g == 502.0f);
  cudaFree(f);
  cudaFree(d);
  return finish();
}
