// extern_other_type_main.cu: host code that names another unit's
// __constant__ table (extern_other_type_table.cu, `ball balls[20]`, 560
// bytes) by a plain `extern ball *balls;`, and copies the whole table to it
// and back. CUDA's runtime bounds a symbol copy by the variable's registered
// size, whatever type the calling unit gives it; cuemu bounded it by the
// call's sizeof(T), 8, and answered cudaErrorInvalidValue (a public ray
// tracer stopped at its first copy).
// Built by tests/programs_shadow.sh with -rdc=true.
// NVCC_OPTIONS: -rdc=true
#include <cstdio>

#include <cuda_runtime.h>

struct ball {
  float radius;
  float x, y, z;
  float r, g, b;
};

extern ball *balls;
float extern_other_type_sum();

int main() {
  int failures = 0;
  ball h[20], back[20];
  float want = 0;
  for (int i = 0; i < 20; ++i) {
    h[i] = ball{1.0f + i, 0, 0, 0, 2.0f * i, 3.0f, 0.5f};
    want += h[i].radius + h[i].r + h[i].g + h[i].b;
  }
  if (cudaMemcpyToSymbol(balls, h, sizeof h) != cudaSuccess) {
    std::printf("cudaMemcpyToSymbol of the whole table failed\n");
    ++failures;
  }
  if (extern_other_type_sum() != want) {
    std::printf("the kernel does not see the table\n");
    ++failures;
  }
  if (cudaMemcpyFromSymbol(back, balls, sizeof back) != cudaSuccess ||
      back[19].radius != 20.0f || back[19].r != 38.0f) {
    std::printf("cudaMemcpyFromSymbol of the whole table failed\n");
    ++failures;
  }
  size_t size = 0;
  if (cudaGetSymbolSize(&size, balls) != cudaSuccess || size != sizeof h) {
    std::printf("cudaGetSymbolSize: %zu, not %zu\n", size, sizeof h);
    ++failures;
  }
  // Past the registered size: refused, as by CUDA.
  if (cudaMemcpyToSymbol(balls, h, sizeof h, sizeof(ball)) !=
      cudaErrorInvalidValue) {
    std::printf("a copy past the table's end was not refused\n");
    ++failures;
  }
  cudaGetLastError();
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
