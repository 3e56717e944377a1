// bench_arch_launch.cu: the CPU cost of a kernel launch in a build of one
// device pass against one of two (run_bench.sh [14]). Built with
// -arch=sm_80 (one pass) and with -gencode for compute_80 and compute_90
// (two passes: the launch runs the pass that the driver's rule picks for
// the device), and run on an emulated 8.6 device, where both run
// compute_80's code. The unit holds 48 kernels, as a real unit may, and
// launches the last one: <<<1, 32>>> on the default stream, `launches`
// times, then one synchronisation; the process's CPU time per launch, the
// minimum over the rounds, and the arch of the code that ran. Prints
//   arch_launch_ns: N (min) N N ... (the rounds)   arch: 800
// Usage: bench_arch_launch [ROUNDS [LAUNCHES]]
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

__device__ int ran_arch;

#define BENCH_KERNEL(n)                                                     \
  __global__ void kernel_##n(int *out) {                                   \
    if (out && threadIdx.x == 0)                                           \
      out[0] = n;                                                          \
  }
#define BENCH_KERNELS8(a)                                                   \
  BENCH_KERNEL(a##0) BENCH_KERNEL(a##1) BENCH_KERNEL(a##2)                 \
  BENCH_KERNEL(a##3) BENCH_KERNEL(a##4) BENCH_KERNEL(a##5)                 \
  BENCH_KERNEL(a##6) BENCH_KERNEL(a##7)
BENCH_KERNELS8(1)
BENCH_KERNELS8(2)
BENCH_KERNELS8(3)
BENCH_KERNELS8(4)
BENCH_KERNELS8(5)
BENCH_KERNELS8(6)

__global__ void last_kernel(int *out)
{
#ifdef __CUDA_ARCH__
  if (threadIdx.x == 0)
    ran_arch = __CUDA_ARCH__;
#endif
  if (out && threadIdx.x == 0)
    out[0] = 0;
}

static double cpu_ns()
{
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv)
{
  const int rounds = argc > 1 ? atoi(argv[1]) : 7;
  const int launches = argc > 2 ? atoi(argv[2]) : 2000;
  last_kernel<<<1, 32>>>(nullptr); // warm up
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("FAIL: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  double best = -1;
  char samples[1024] = "";
  for (int r = 0; r < rounds; ++r) {
    const double start = cpu_ns();
    for (int i = 0; i < launches; ++i)
      last_kernel<<<1, 32>>>(nullptr);
    if (cudaDeviceSynchronize() != cudaSuccess)
      return 1;
    const double ns = (cpu_ns() - start) / launches;
    if (best < 0 || ns < best)
      best = ns;
    const size_t used = std::strlen(samples);
    std::snprintf(samples + used, sizeof samples - used, " %.0f", ns);
  }
  int arch = 0;
  cudaMemcpyFromSymbol(&arch, ran_arch, sizeof arch);
  std::printf("arch_launch_ns: %.0f (min)%s   arch: %d\n", best, samples,
              arch);
  return 0;
}
