#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "kernels.h"
#include "scaler.h"

int main() {
  const int n = 3000;
  std::vector<float> h(n), r(n);
  for (int i = 0; i < n; ++i)
    h[i] = 0.001f * (float)i;
  float *din = nullptr, *dout = nullptr;
  if (cudaMalloc(&din, n * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&dout, n * sizeof(float)) != cudaSuccess) {
    std::printf("FAIL: cudaMalloc\n");
    return 1;
  }
  cudaMemcpy(din, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  if (run_poly(din, dout, n) != cudaSuccess || scale_device(dout, 0.5f, n)) {
    std::printf("FAIL: launch: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  cudaMemcpy(r.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n && !bad; ++i) {
    float x = h[i], want = 0.5f * (3.0f * x * x + 2.0f * x + 1.0f);
    float d = r[i] - want;
    if (d > 1e-4f || d < -1e-4f) {
      std::printf("FAIL: r[%d] = %g, want %g\n", i, r[i], want);
      bad = 1;
    }
  }
  int calls = poly_calls();
  if (calls != n) {
    std::printf("FAIL: poly called %d times, want %d\n", calls, n);
    bad = 1;
  }
  cudaFree(din);
  cudaFree(dout);
  std::printf("%s\n", bad ? "FAIL" : "PASS");
  return bad;
}
