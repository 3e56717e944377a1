// cccl_string_macros.cu: a unit that includes Thrust (which cuemu-nvcc
// compiles with clang++ where g++ was asked for, docs/cccl.md) and writes
// a string literal and a string macro without a space between them, as
// pre-C++11 code does: "[" __FILE__ "]" spelt "["__FILE__"]" in an
// error-checking macro (a CUDA by Example port's global.hpp), and
// "%"PRId64. nvcc (its host compiler g++) builds them with a warning and
// joins the strings; clang++ reads __FILE__ there as a user-defined
// literal's suffix and refused, and refused "%"PRId64 as a reserved one.
// A real user-defined literal keeps its meaning.
#include <thrust/version.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "../check.cuh"

#define WHERE(buffer) std::snprintf(buffer, sizeof buffer, "%s", "["__FILE__"]")

static std::size_t operator""_length(const char *, std::size_t n) { return n; }

__global__ void count_up(std::int64_t *value) { *value += THRUST_VERSION; }

int main() {
  char where[512];
  WHERE(where);
  CHECK(std::strcmp(where, "[" __FILE__ "]") == 0);
  std::int64_t *value = nullptr;
  CHECK(cudaMallocManaged(&value, sizeof *value) == cudaSuccess);
  *value = 1;
  count_up<<<1, 1>>>(value);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  char text[64];
  std::snprintf(text, sizeof text, "%"PRId64, *value);
  char expected[64];
  std::snprintf(expected, sizeof expected, "%lld",
                static_cast<long long>(THRUST_VERSION + 1));
  CHECK(std::strcmp(text, expected) == 0);
  CHECK("abcd"_length == 4);
  CHECK(cudaFree(value) == cudaSuccess);
  return finish();
}
