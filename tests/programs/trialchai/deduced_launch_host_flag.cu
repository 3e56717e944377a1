// deduced_launch_host_flag.cu: a kernel template launched with deduced
// template arguments (Chai's style: `kernel<<<g, b>>>(ptrs...)`) that waits
// for a flag the host raises after the launch returns. On a GPU the launch
// returns at once and the kernel sees the flag. cuemu ran such a launch at
// once on the launching thread (it queued only launches whose parameter
// sizes it knew), so the kernel spun until CUEMU_SPIN_TIMEOUT (10 s) and
// failed with cudaErrorLaunchTimeout.
// CUEMU_OPTIONS: --expt-extended-lambda
// NVCC_OPTIONS: -std=c++17 --expt-extended-lambda
#include <chrono>
#include <cstdio>
#include <cuda_runtime.h>

template <typename T, typename Flag>
__global__ void wait_then_add(const volatile Flag *flag, T *out, T amount) {
  while (*flag == 0) {}
  out[threadIdx.x] += amount * static_cast<T>(*flag);
}

template <typename Op>
__global__ void handshake(volatile int *turn, int rounds, Op op) {
  for (int r = 0; r < rounds; ++r) {
    while (*turn != 2 * r + 1) {}
    *turn = op(*turn);
  }
}

struct NextTurn {
  __device__ int operator()(int t) const { return t + 1; }
};

int main() {
  int *flag;
  double *out;
  if (cudaMallocManaged(&flag, sizeof(int)) != cudaSuccess ||
      cudaMallocManaged(&out, 32 * sizeof(double)) != cudaSuccess)
    return 1;
  *flag = 0;
  for (int i = 0; i < 32; ++i) out[i] = i;
  auto t0 = std::chrono::steady_clock::now();
  wait_then_add<<<1, 32>>>(flag, out, 0.5);  // T = double, Flag = int
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  *(volatile int *)flag = 4;
  cudaError_t e = cudaDeviceSynchronize();
  bool ok = e == cudaSuccess && ms < 5000;
  for (int i = 0; i < 32; ++i) ok = ok && out[i] == i + 2.0;
  std::printf("deduced launch, host flag after it: %s (%s, launch returned after %.1f ms)\n",
              ok ? "PASS" : "FAIL", cudaGetErrorString(e), ms);

  // A functor argument, the host playing its part of a ping-pong.
  *flag = 0;
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  handshake<<<1, 1, 0, s>>>(flag, 10, NextTurn{});
  bool turns = true;
  for (int r = 0; r < 10 && turns; ++r) {
    *(volatile int *)flag = 2 * r + 1;
    auto start = std::chrono::steady_clock::now();
    while (*(volatile int *)flag != 2 * r + 2 &&
           std::chrono::steady_clock::now() - start < std::chrono::seconds(5)) {}
    turns = *(volatile int *)flag == 2 * r + 2;
  }
  e = cudaStreamSynchronize(s);
  turns = turns && e == cudaSuccess;
  std::printf("deduced launch with a functor, ping-pong: %s\n", turns ? "PASS" : "FAIL");
  cudaStreamDestroy(s);
  cudaFree(flag);
  cudaFree(out);
  ok = ok && turns;
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
