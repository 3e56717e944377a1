// bench_device_math.cu: the cost of device math (exp and sin in double, expf
// in float) in a kernel, which takes libdevice's functions when cuemu has
// them (docs/device-math.md), against the same loop in host code, which
// takes the C library's. Kernel code runs as host code, so the ratio is the
// cost of libdevice's algorithms (with FMA instructions where the processor
// has them) over glibc's. Rounds of the two alternate in one process; each
// is timed by the process's CPU time and the minimum of each taken. Prints
//   device_math_kernel_ns: N...   device_math_host_ns: N...   (per call)
//   device_math_ratio: R          (kernel over host, minimum over minimum)
// and checks that both agree within 2 ulp of float (expf is one of the terms).
// Usage: bench_device_math [ROUNDS]
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

static const int n = 1 << 16;
static const int threads = 128;

static double cpu_ns() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

static const int terms = 16;

// The work of one element, in device and host code alike: enough calls that
// the cost of the element's loads and stores in a kernel does not count.
__host__ __device__ inline double work(double x) {
  double sum = 0.0;
  for (int k = 0; k < terms; ++k) {
    const double t = x + k * 1e-3;
    sum += exp(t) + sin(t) + static_cast<double>(expf(static_cast<float>(t)));
  }
  return sum;
}

// The sum of the terms' magnitudes: the scale of the rounding errors.
static double scale(double x) {
  double sum = 0.0;
  for (int k = 0; k < terms; ++k)
    sum += 2.0 * std::exp(x + k * 1e-3) + 1.0;
  return sum;
}

// Few threads, each a long stride of elements: the launch costs little
// beside the math.
__global__ void kernel(const double *x, double *y, int count) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x)
    y[i] = work(x[i]);
}

int main(int argc, char **argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 5;
  double *x, *y;
  if (cudaMallocManaged(&x, n * sizeof *x) != cudaSuccess || cudaMallocManaged(&y, n * sizeof *y) != cudaSuccess) {
    std::printf("error: cudaMallocManaged\n");
    return 1;
  }
  std::vector<double> host(n);
  for (int i = 0; i < n; ++i)
    x[i] = -20.0 + 40.0 * i / n;
  double best_kernel = 1e300, best_host = 1e300;
  std::printf("device_math_kernel_ns:");
  std::vector<double> host_samples;
  for (int r = 0; r < rounds; ++r) {
    double t0 = cpu_ns();
    kernel<<<2, threads>>>(x, y, n);
    if (cudaDeviceSynchronize() != cudaSuccess) {
      std::printf("\nerror: the kernel failed\n");
      return 1;
    }
    double t1 = cpu_ns();
    for (int i = 0; i < n; ++i)
      host[i] = work(x[i]);
    double t2 = cpu_ns();
    const double k = (t1 - t0) / (n * terms * 3), h = (t2 - t1) / (n * terms * 3);
    std::printf(" %.2f", k);
    host_samples.push_back(h);
    best_kernel = k < best_kernel ? k : best_kernel;
    best_host = h < best_host ? h : best_host;
  }
  std::printf("\ndevice_math_host_ns:");
  for (double h : host_samples)
    std::printf(" %.2f", h);
  std::printf("\n");
  for (int i = 0; i < n; ++i)
    if (std::fabs(y[i] - host[i]) > 2.5e-7 * scale(x[i])) {
      std::printf("error: element %d: kernel %.17g, host %.17g\n", i, y[i], host[i]);
      return 1;
    }
  std::printf("device_math_ratio: %.2f\n", best_kernel / best_host);
  return 0;
}
