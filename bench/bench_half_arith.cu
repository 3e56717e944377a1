// bench_half_arith.cu: the cost of __half2 arithmetic in a kernel against
// float arithmetic in the same kernel shape. cuemu does 16-bit floating
// point in software (shims/cuda_builtins/cuemu_narrow_float.h: widen to
// double exactly, compute, round once), so a __hfma2 (two fused
// multiply-adds) costs several float ones; it cost 10 to 50 times as much
// while the widening called the C library's ldexp (mixbench's half2 rows).
// Rounds of the two kernels alternate in one process; each is timed by the
// process's CPU time and the minimum of each taken. Prints
//   half_arith_half2_ns: N...    (per __hfma2)
//   half_arith_float_ns: N...    (per float multiply-add)
//   half_arith_ratio: R          (half2 over float, minimum over minimum)
// Usage: bench_half_arith [ROUNDS]
#include <cuda_fp16.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

static const int blocks = 16, threads = 256, steps = 400;

static double cpu_ns() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

__global__ void half2_chain(__half2 *data, __half2 seed) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  __half2 t = data[i];
  for (int k = 0; k < steps; ++k) t = __hfma2(t, t, seed);
  data[i] = t;
}

__global__ void float_chain(float *data, float seed) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float t = data[i];
  for (int k = 0; k < steps; ++k) t = t * t + seed;
  data[i] = t;
}

int main(int argc, char **argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 5;
  const int n = blocks * threads;
  __half2 *h;
  float *f;
  if (cudaMalloc(&h, n * sizeof *h) != cudaSuccess || cudaMalloc(&f, n * sizeof *f) != cudaSuccess) {
    std::printf("error: cudaMalloc\n");
    return 1;
  }
  cudaMemset(h, 0, n * sizeof *h);
  cudaMemset(f, 0, n * sizeof *f);
  // A seed that keeps the chains finite: t stays in [0.125, 0.15).
  const __half2 hseed = __float2half2_rn(0.125f);
  std::vector<double> hs, fs;
  double best_h = 1e300, best_f = 1e300;
  for (int r = 0; r < rounds; ++r) {
    double t0 = cpu_ns();
    half2_chain<<<blocks, threads>>>(h, hseed);
    cudaDeviceSynchronize();
    double t1 = cpu_ns();
    float_chain<<<blocks, threads>>>(f, 0.125f);
    if (cudaDeviceSynchronize() != cudaSuccess) {
      std::printf("error: a kernel failed\n");
      return 1;
    }
    double t2 = cpu_ns();
    const double a = (t1 - t0) / ((double)n * steps), b = (t2 - t1) / ((double)n * steps);
    hs.push_back(a);
    fs.push_back(b);
    best_h = a < best_h ? a : best_h;
    best_f = b < best_f ? b : best_f;
  }
  std::printf("half_arith_half2_ns:");
  for (double a : hs) std::printf(" %.2f", a);
  std::printf("\nhalf_arith_float_ns:");
  for (double b : fs) std::printf(" %.2f", b);
  std::printf("\nhalf_arith_ratio: %.2f\n", best_h / best_f);
  return 0;
}
