// faults.cu: bugs people make in CUDA code, each in a case of its own, and
// their fixed forms. Built once with `cuemu-nvcc --check=all` by
// tests/programs_trialbugs.sh, which runs
//   ./faults                every fixed form: PASS, and no checker report
//   ./faults CASE           one bug, which must be reported where it is
// Cases: float4 (a float4 view of a float array one element in), heap
// (a double free on the device heap), recursion (a stack overflow),
// divergent (a barrier in a branch while the other warps spin),
// volatile_flag (correct: a shared flag polled through a volatile pointer),
// shared_header (an int stored at byte 2 of a static shared byte buffer).
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#include "faults_kernels.cuh"

#define CUDA_CHECK(call)                                                     \
  do {                                                                       \
    cudaError_t err_ = (call);                                               \
    if (err_ != cudaSuccess) {                                               \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,     \
                   cudaGetErrorString(err_));                                \
      return false;                                                          \
    }                                                                        \
  } while (0)

static bool run_axpy4(int offset) {
  const int n = 1024 + 4;
  static float hx[n], hy[n];
  for (int i = 0; i < n; ++i) {
    hx[i] = 1.0f;
    hy[i] = 2.0f;
  }
  float *x, *y;
  CUDA_CHECK(cudaMalloc(&x, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&y, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice));
  faults::axpy4<<<1, 256>>>(3.0f, x + offset, y + offset, 256);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost));
  cudaFree(x);
  cudaFree(y);
  return hy[offset] == 5.0f && hy[offset + 1023] == 5.0f;
}

static bool run_lists(bool twice) {
  int *d, h[32];
  CUDA_CHECK(cudaMalloc(&d, sizeof h));
  faults::one_node_lists<<<1, 32>>>(d, twice);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  cudaFree(d);
  for (int t = 0; t < 32; ++t)
    if (h[t] != t)
      return false;
  return true;
}

static bool run_walk(int n) {
  int *a, *out, h = -1;
  CUDA_CHECK(cudaMalloc(&a, n * sizeof(int)));
  CUDA_CHECK(cudaMemset(a, 0, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&out, 32 * sizeof(int)));
  faults::walk<<<1, 32>>>(a, n, out);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost));
  cudaFree(a);
  cudaFree(out);
  int expect = 0;
  for (int i = 0; i < n; ++i)
    expect += i % 16;
  return h == expect;
}

static bool run_publish(bool divergent, bool atomics) {
  int h[32], r[128], *d, *o;
  for (int i = 0; i < 32; ++i)
    h[i] = i;
  CUDA_CHECK(cudaMalloc(&d, sizeof h));
  CUDA_CHECK(cudaMalloc(&o, sizeof r));
  CUDA_CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  faults::publish<<<1, 128>>>(d, o, divergent, atomics);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost));
  cudaFree(d);
  cudaFree(o);
  for (int i = 0; i < 128; ++i)
    if (r[i] != 2 * (i % 32))
      return false;
  return true;
}

template <int At> static bool run_header() {
  int length = 0x01020304, *d;
  unsigned char r[16], *o;
  CUDA_CHECK(cudaMalloc(&d, sizeof length));
  CUDA_CHECK(cudaMalloc(&o, sizeof r));
  CUDA_CHECK(cudaMemcpy(d, &length, sizeof length, cudaMemcpyHostToDevice));
  faults::pack_header<At><<<1, 16>>>(d, o);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost));
  cudaFree(d);
  cudaFree(o);
  int back;
  std::memcpy(&back, r + At, sizeof back);
  return r[0] == 0x7e && back == length;
}

int main(int argc, char **argv) {
  const char *c = argc > 1 ? argv[1] : "fixed";
  bool ok;
  if (!std::strcmp(c, "fixed"))
    ok = run_axpy4(4) && run_lists(false) && run_walk(8) &&
         run_publish(false, true) && run_header<4>();
  else if (!std::strcmp(c, "float4"))
    ok = run_axpy4(1);
  else if (!std::strcmp(c, "shared_header"))
    ok = run_header<2>();
  else if (!std::strcmp(c, "heap"))
    ok = run_lists(true);
  else if (!std::strcmp(c, "recursion"))
    ok = run_walk(100000);
  else if (!std::strcmp(c, "divergent"))
    ok = run_publish(true, true);
  else if (!std::strcmp(c, "volatile_flag"))
    ok = run_publish(false, false);
  else {
    std::fprintf(stderr, "unknown case %s\n", c);
    return 2;
  }
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
