// lambda_without_parameters.cu: extended __device__ lambdas written with no
// parameter list (`[=, *this] __device__ { ... }`, as a GPU hash-table
// library writes the lambdas that its member functions hand to a one-line
// kernel template), whose bodies declare a __shared__ variable, leave
// early before a barrier and count with a coalesced group, as its size()
// does. nvcc takes such a lambda for device code; cuemu-nvcc marked only
// a lambda with parentheses as device code, and refused the __shared__
// variable ("a static "__shared__" variable declaration is not allowed
// inside a host function body"), then the kernel's call of the lambda.
// A `() mutable` lambda that writes its copy of a capture, a
// `__host__ __device__` one without parameters, and a plain one check that
// their spaces are kept.
// CUEMU_OPTIONS: --extended-lambda
// NVCC_OPTIONS: --extended-lambda
#include <cooperative_groups.h>
#include <cstdint>

#include "../check.cuh"

namespace cg = cooperative_groups;

template <class F> __global__ void run_lambda(F f) { f(); }

struct Slots {
  const std::uint32_t *keys;
  std::uint64_t capacity;
  std::uint64_t *count;

  // Counts the non-zero keys: one atomic per block.
  std::uint64_t occupied() const {
    const unsigned threads = 128;
    const unsigned blocks = unsigned((capacity + threads - 1) / threads);
    run_lambda<<<blocks, threads>>>([=, *this] __device__ {
      __shared__ std::uint64_t block_count;
      const std::uint64_t tid = std::uint64_t(blockIdx.x) * blockDim.x +
                                threadIdx.x;
      const auto block = cg::this_thread_block();
      if (tid >= capacity)
        return;
      if (block.thread_rank() == 0)
        block_count = 0;
      block.sync();
      if (keys[tid] != 0) {
        const auto active = cg::coalesced_threads();
        if (active.thread_rank() == 0)
          atomicAdd((unsigned long long *)&block_count,
                    (unsigned long long)active.size());
      }
      block.sync();
      if (block.thread_rank() == 0 && block_count != 0)
        atomicAdd((unsigned long long *)count,
                  (unsigned long long)block_count);
    });
    cudaDeviceSynchronize();
    return *count;
  }
};

int main() {
  const std::uint64_t n = 1000; // the last block is partial
  std::uint32_t *keys = nullptr;
  std::uint64_t *count = nullptr;
  int *out = nullptr;
  CHECK(cudaMallocManaged(&keys, n * sizeof *keys) == cudaSuccess);
  CHECK(cudaMallocManaged(&count, sizeof *count) == cudaSuccess);
  CHECK(cudaMallocManaged(&out, 3 * sizeof *out) == cudaSuccess);
  std::uint64_t expected = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    keys[i] = (i % 3 == 0) ? 0u : std::uint32_t(i);
    expected += keys[i] != 0;
  }
  *count = 0;
  Slots slots{keys, n, count};
  CHECK(slots.occupied() == expected);

  int seed = 5;
  run_lambda<<<1, 1>>>([=] __device__ () mutable {
    seed += 2;
    out[0] = seed;
  });
  auto both = [=] __host__ __device__ { return seed * 3; };
  run_lambda<<<1, 1>>>([=] __device__ { out[1] = both(); });
  auto plain = [=] { return seed + 1; };
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(out[0] == 7);
  CHECK(out[1] == 15);
  CHECK(both() == 15 && plain() == 6 && seed == 5);
  CHECK(cudaFree(keys) == cudaSuccess);
  CHECK(cudaFree(count) == cudaSuccess);
  CHECK(cudaFree(out) == cudaSuccess);
  return finish();
}
