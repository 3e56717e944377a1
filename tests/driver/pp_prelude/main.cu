// main.cu: a program whose preprocessing depends on the prelude's state
// (tests/driver_pp_prelude.sh): macros of system headers and of the shims,
// __COUNTER__, headers included twice, -D flags.
#include "util.cuh"
#include "util.cuh"
#include <cassert>
#include <climits>

constexpr int first_id = UNIQUE_ID;
constexpr int second_id = UNIQUE_ID;

template <typename T> __global__ void fill(T *out, int n, T base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = base + static_cast<T>(i) * SCALE;
}

int main() {
  const int n = 200;
  int *d = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  fill<<<(n + 63) / 64, 64>>>(d, n, second_id - first_id);
  std::vector<int> h(n);
  CHECK(cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += h[i] != 1 + i * SCALE;
  std::printf("%s scale=%d ids=%d,%d max=%d exit=%d arch=%d\n",
              bad ? "FAIL" : "PASS", SCALE, first_id, second_id,
              INT_MAX == 2147483647, EXIT_FAILURE, CUDART_VERSION > 0);
  CHECK(cudaFree(d));
  return bad ? EXIT_FAILURE : 0;
}
