// constant_table_past_end.cu: a program built with memcheck whose kernel
// reads one entry past the end of a __constant__ table of 3-byte structures
// (an escape-time colouring whose count reaches the table's length, as a
// public Mandelbrot program does). compute-sanitizer's memcheck
// checks global, local and shared memory, not constant memory, and says
// nothing; neither does cuemu, for which a device variable's neighbours in
// the program's data are other variables. Its host object (shadow) used to
// follow it in the same section, so the read landed there and memcheck
// ended the launch with "host memory (... whose address host code took)",
// a report about a bug the program does not have. What the read past the
// end returns is not defined, and not checked here; the entries in range,
// the launch's success and the report's absence are. No other variable at
// file scope (check.cuh's counter would lie between the table and its
// shadow), and built alone (tests/programs_checkers.sh), for that layout.
// CUEMU_OPTIONS: --check=mem
#include <cstdio>

#include <cuda_runtime.h>

struct rgb {
  unsigned char r, g, b;
};

constexpr int kColors = 32;

__constant__ rgb colors[kColors];

/* Thread t takes the colour of count t, which reaches kColors. */
__global__ void paint(rgb *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = colors[t];
}

int main() {
  int failures = 0;
#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__,    \
                   #cond);                                                     \
      ++failures;                                                              \
    }                                                                          \
  } while (0)
  rgb table[kColors];
  for (int i = 0; i < kColors; ++i)
    table[i] = rgb{(unsigned char)i, (unsigned char)(2 * i),
                   (unsigned char)(255 - i)};
  CHECK(cudaMemcpyToSymbol(colors, table, sizeof table) == cudaSuccess);
  const int n = kColors + 1;
  rgb *d = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(rgb)) == cudaSuccess);
  paint<<<1, 64>>>(d, n);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  rgb out[n];
  CHECK(cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost) == cudaSuccess);
  int wrong = 0;
  for (int i = 0; i < kColors; ++i)
    wrong += out[i].r != i || out[i].g != 2 * i || out[i].b != 255 - i;
  CHECK(wrong == 0);
  CHECK(cudaFree(d) == cudaSuccess);
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
