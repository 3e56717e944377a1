// device_prototypes.cu: __device__ functions declared before they are
// defined (a prototype in a header, an `extern __device__` one), in a unit
// that includes CUB, which cuemu-nvcc compiles with clang++. The host
// pass's stub of each definition carries GCC's `error` attribute (a call
// from host code is refused, as by nvcc); clang++ refused the unit with
// "'error' attribute does not appear on the first declaration" until the
// prototypes got it too. Reduced from a conjugate-gradient solver (CSR
// SpMV, dot products by cub::BlockReduce, -rdc=true) of branch trialapps.
#include <cstdio>
#include <cub/block/block_reduce.cuh>

extern __device__ double row_dot(const double *a, const double *b, int n);
__device__ double scaled(double x, double by);
template <typename T> __device__ T clamp_to(T x, T hi);
__device__ double (*no_function_pointer_here)(double);
__device__ int constructed_variable(7);

__device__ double row_dot(const double *a, const double *b, int n) {
  double s = 0.0;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    s += a[i] * b[i];
  return s;
}
__device__ double scaled(double x, double by) { return x * by; }
template <typename T> __device__ T clamp_to(T x, T hi) { return x < hi ? x : hi; }

__global__ void dot(const double *a, const double *b, int n, double *out) {
  typedef cub::BlockReduce<double, 128> Reduce;
  __shared__ typename Reduce::TempStorage temp;
  double s = Reduce(temp).Sum(row_dot(a, b, n));
  if (threadIdx.x == 0)
    *out = clamp_to(scaled(s, 0.5), 1e9) + constructed_variable;
}

int main() {
  const int n = 1000;
  double *a, *b, *out;
  cudaMallocManaged(&a, n * sizeof(double));
  cudaMallocManaged(&b, n * sizeof(double));
  cudaMallocManaged(&out, sizeof(double));
  for (int i = 0; i < n; i++) {
    a[i] = i;
    b[i] = 2.0;
  }
  dot<<<1, 128>>>(a, b, n, out);
  cudaError_t err = cudaDeviceSynchronize();
  double expect = 0.5 * 2.0 * (n - 1) * n / 2.0 + 7;
  int ok = err == cudaSuccess && *out == expect;
  printf("dot %.1f (expected %.1f)\n", *out, expect);
  cudaFree(a);
  cudaFree(b);
  cudaFree(out);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
