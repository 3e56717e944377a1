/*
 * reports_go_on.cu: racecheck and initcheck report and let the program go
 * on, as compute-sanitizer's do on a GPU (tests/checkers_reports.sh builds
 * it with --check=race,init and judges its output and exit status).
 *
 * A racy relaxation (a missing __syncthreads) runs until a device flag says
 * nothing changed: when a report ended the launch with a sticky error, the
 * flag could never be read again and the loop never ended. A kernel reads
 * inputs of which only half were written. Every launch succeeds and every
 * thread runs; the results are checked. The first argument picks how main
 * ends: "pass" returns 0, "fail" returns 2, "clear" forgets the reports
 * first (cuemu_check_reports_clear, cuemu only).
 */
#include <cstdio>
#include <cstring>

#include <cuda_runtime.h>

#ifdef __CUEMU__
#include <cuemu/cuemu.h>
#endif

#define CHECK(x)                                                              \
  do {                                                                        \
    if (!(x)) {                                                               \
      std::printf("%s:%d: check failed: %s\n", __FILE__, __LINE__, #x);      \
      return 1;                                                               \
    }                                                                         \
  } while (0)

/* Spreads the largest value rightwards, one element a launch at least. */
__global__ void relax(int *v, int *changed) {
  __shared__ int tile[64];
  int t = threadIdx.x;
  tile[t] = v[t];
  /* missing __syncthreads() */
  int left = t ? tile[t - 1] : tile[t];
  if (left > v[t]) {
    v[t] = left;
    *changed = 1;
  }
}

/* out[i] = in[i] + 1 for every i; counts the threads that ran. */
__global__ void add_one(const int *in, int *out, int *ran) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] + 1;
  atomicAdd(ran, 1);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "pass";
  int h[64], *v, *changed, c = 0;
  for (int i = 0; i < 64; ++i)
    h[i] = i == 0 ? 100 : 0;
  CHECK(cudaMalloc(&v, sizeof h) == cudaSuccess);
  CHECK(cudaMalloc(&changed, sizeof c) == cudaSuccess);
  CHECK(cudaMemcpy(v, h, sizeof h, cudaMemcpyHostToDevice) == cudaSuccess);
  int rounds = 0;
  do {
    CHECK(cudaMemset(changed, 0, sizeof c) == cudaSuccess);
    relax<<<1, 64>>>(v, changed);
    CHECK(cudaGetLastError() == cudaSuccess);
    CHECK(cudaMemcpy(&c, changed, sizeof c, cudaMemcpyDeviceToHost) ==
          cudaSuccess);
    ++rounds;
  } while (c && rounds < 1000);
  CHECK(cudaMemcpy(h, v, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int i = 0; i < 64; ++i)
    CHECK(h[i] == 100);
  std::printf("relaxed in %d rounds\n", rounds);

  const int n = 256;
  int *in, *out, *ran, hin[n / 2], hout[n], hran = 0;
  for (int i = 0; i < n / 2; ++i)
    hin[i] = 3 * i;
  CHECK(cudaMalloc(&in, n * sizeof(int)) == cudaSuccess);
  CHECK(cudaMalloc(&out, n * sizeof(int)) == cudaSuccess);
  CHECK(cudaMalloc(&ran, sizeof(int)) == cudaSuccess);
  CHECK(cudaMemset(ran, 0, sizeof(int)) == cudaSuccess);
  /* Only the first half of the input is written. */
  CHECK(cudaMemcpy(in, hin, sizeof hin, cudaMemcpyHostToDevice) ==
        cudaSuccess);
  add_one<<<n / 64, 64>>>(in, out, ran);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(hout, out, sizeof hout, cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  CHECK(cudaMemcpy(&hran, ran, sizeof hran, cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  CHECK(hran == n);
  for (int i = 0; i < n / 2; ++i)
    CHECK(hout[i] == 3 * i + 1);
  CHECK(cudaFree(in) == cudaSuccess);
  CHECK(cudaFree(out) == cudaSuccess);
  CHECK(cudaFree(ran) == cudaSuccess);
  CHECK(cudaFree(v) == cudaSuccess);
  CHECK(cudaFree(changed) == cudaSuccess);
  std::printf("PASS\n");
  if (std::strcmp(mode, "fail") == 0)
    return 2;
#ifdef __CUEMU__
  if (std::strcmp(mode, "clear") == 0) {
    const char *last = "";
    unsigned long long reports = cuemu_check_reports(&last);
    std::printf("%llu reports, the last: %s\n", reports, last);
    cuemu_check_reports_clear();
  }
#endif
  return 0;
}
