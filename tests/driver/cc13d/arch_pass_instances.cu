// arch_pass_instances.cu: the instances of one kernel template in a build
// of two device passes (-gencode for compute_80/sm_80 and compute_90/sm_90)
// each run their own code of the picked pass: scaled<int>, scaled<float>
// and scaled<double> write that pass's __CUDA_ARCH__ plus their arguments,
// launched by name and with deduced template arguments. Built with clang++
// (as cuemu-nvcc builds a unit that includes CUB or Thrust), whose
// __PRETTY_FUNCTION__ names an instance without its template arguments: the
// picked pass's code was looked up by that name, so every instance ran the
// first one's code, reading its arguments as another type's (found by
// trialzip: CUB's DeviceSelect::If ran DeviceSelect::Flagged's sweep
// kernel, "invalid memory access"). The launch bounds of each pass are its
// own, as CUB's tuning policies make them (thrust::sort of an sm_75 +
// sm_80 build on a 9.0 device failed "invalid configuration argument": the
// launch was checked against the first pass's bounds): bounded and
// bounded_of<int> allow 128 threads in the compute_80 pass and 64 in the
// compute_90 one, which cudaFuncGetAttributes reports and a launch of 128
// threads meets. tests/cuda_arch_passes.sh.
#include <cstdio>

__host__ __device__ int pass_arch()
{
#ifdef __CUDA_ARCH__
  return __CUDA_ARCH__;
#else
  return 0;
#endif
}

template <typename T> __global__ void scaled(int n, T *out, T add)
{
  out[0] = static_cast<T>(pass_arch()) + add + static_cast<T>(n);
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define PASS_BOUND 64
#else
#define PASS_BOUND 128
#endif

__global__ void __launch_bounds__(PASS_BOUND) bounded(int *out)
{
  out[threadIdx.x] = pass_arch();
}

template <typename T> __global__ void __launch_bounds__(PASS_BOUND) bounded_of(T *out)
{
  out[threadIdx.x] = static_cast<T>(pass_arch());
}

int main()
{
  int *i;
  float *f;
  double *d;
  cudaMallocManaged(&i, 2 * sizeof *i);
  cudaMallocManaged(&f, 2 * sizeof *f);
  cudaMallocManaged(&d, 2 * sizeof *d);
  scaled<int><<<1, 1>>>(3, i, 8);
  scaled<float><<<1, 1>>>(3, f, 8.5f);
  scaled<double><<<1, 1>>>(3, d, 8.25);
  scaled<<<1, 1>>>(4, i + 1, 8);
  scaled<<<1, 1>>>(4, f + 1, 8.5f);
  scaled<<<1, 1>>>(4, d + 1, 8.25);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s int %d %d float %.1f %.1f double %.2f %.2f\n", cudaGetErrorName(e),
         i[0], i[1], f[0], f[1], d[0], d[1]);
  cudaFuncAttributes plain, templ;
  cudaFuncGetAttributes(&plain, bounded);
  cudaFuncGetAttributes(&templ, bounded_of<int>);
  int *wide;
  cudaMalloc(&wide, 128 * sizeof *wide);
  bounded<<<1, 128>>>(wide);
  cudaError_t e1 = cudaGetLastError();
  bounded_of<int><<<1, 128>>>(wide);
  cudaError_t e2 = cudaGetLastError();
  cudaDeviceSynchronize();
  printf("bounds %d %d launches of 128 threads %s %s\n", plain.maxThreadsPerBlock,
         templ.maxThreadsPerBlock, e1 == cudaSuccess ? "run" : "refused",
         e2 == cudaSuccess ? "run" : "refused");
  return 0;
}
