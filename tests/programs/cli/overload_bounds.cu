// overload_bounds.cu: kernels that share a name across namespaces (named
// qualified, or unqualified through argument-dependent lookup and a
// using-directive), overloads with default arguments, kernel templates
// launched with deduced template arguments, and a prototype spelled
// otherwise than its definition, each with its own __launch_bounds__.
// A launch (<<<>>> and cudaLaunchKernel) and cudaFuncGetAttributes see the
// attributes of the overload that is named: a block larger than its bound
// is refused (cudaErrorLaunchOutOfResources), one within it runs.
#include <cuda_runtime.h>

#include "../check.cuh"

namespace blas {
__global__ void __launch_bounds__(64) axpy(float *y, const float *x, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] += a * x[i];
}
__global__ void __launch_bounds__(128) axpy(double *y, const double *x,
                                            double a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] += a * x[i];
}
} // namespace blas

namespace sparse {
// The same name and the same parameters as blas's first, another bound.
__global__ void __launch_bounds__(256) axpy(float *y, const float *x, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] += 2.0f * a * x[i];
}
} // namespace sparse

// Kernels of one name in three namespaces, each launched in its own
// namespace's function, the third by a name relative to it (inner::tally
// in tally_c): the launch is lookup's, not a cast to the first namespace's
// type (which did not compile: "conversion from 'void (*)(float*)' to
// 'void (*)(unsigned int*)'").
namespace tally_a {
__global__ void __launch_bounds__(32) tally(unsigned *o) { o[threadIdx.x] = 1; }
void run(unsigned *o, int threads) { tally<<<1, threads>>>(o); }
} // namespace tally_a
namespace tally_b {
__global__ void __launch_bounds__(64) tally(float *o) { o[threadIdx.x] = 1.0f; }
void run(float *o, int threads) { tally<<<1, threads>>>(o); }
} // namespace tally_b
namespace tally_c {
namespace inner {
__global__ void __launch_bounds__(192) tally(float *o) {
  o[threadIdx.x] += 2.0f;
}
} // namespace inner
void run(float *o, int threads) { inner::tally<<<1, threads>>>(o); }
} // namespace tally_c

// Overloads with default arguments.
__global__ void __launch_bounds__(32) fill(float *out, float value = 1.5f) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = value;
}
__global__ void __launch_bounds__(96) fill(int *out, int value = 7,
                                           int step = 1) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = value + step * i;
}

// Kernels of one name in two namespaces, launched by the unqualified name:
// argument-dependent lookup finds geo's, the using-directive img's.
namespace geo {
struct points {
  float *p;
};
__global__ void __launch_bounds__(64) scale_all(points v, float a) {
  v.p[threadIdx.x] *= a;
}
} // namespace geo
namespace img {
__global__ void __launch_bounds__(128) scale_all(float *p, float a) {
  p[threadIdx.x] *= a;
}
} // namespace img
using namespace img;

// Kernel templates launched with template arguments deduced (all, or all
// but the first), whose bound is a template parameter or a constant.
template <int Threads, typename T>
__global__ void __launch_bounds__(Threads) add_to(T *x, T v) {
  x[threadIdx.x] += v;
}
template <typename T> __global__ void __launch_bounds__(160) twice_all(T *x) {
  x[threadIdx.x] *= 2;
}

// A prototype with a default argument, spelled otherwise than the
// definition (after the launch) that gives the bound.
typedef float real;
__global__ void shift(real *out, const real by = 0.5f);

// Launched with the bound's block and with one twice as large: returns the
// two launches' errors.
template <typename Launch> void both(Launch launch, int bound, cudaError_t *e) {
  launch(bound);
  e[0] = cudaGetLastError();
  launch(2 * bound);
  e[1] = cudaGetLastError();
}

// The launches of the kernels above; returns the number of failed checks.
int launch_picked_kernels() {
  float *g;
  double *gd;
  int failures = 0;
  CHECK(cudaMallocManaged(&g, 512 * sizeof(float)) == cudaSuccess);
  CHECK(cudaMallocManaged(&gd, 512 * sizeof(double)) == cudaSuccess);
  for (int i = 0; i < 512; ++i) {
    g[i] = (float)i;
    gd[i] = (double)i;
  }
  cudaError_t e[2];
  both([&](int t) { scale_all<<<1, t>>>(geo::points{g}, 2.0f); }, 64, e);
  failures += !(e[0] == cudaSuccess && e[1] == cudaErrorLaunchOutOfResources);
  both([&](int t) { scale_all<<<1, t>>>(g + 128, 3.0f); }, 128, e);
  failures += !(e[0] == cudaSuccess && e[1] == cudaErrorLaunchOutOfResources);
  both([&](int t) { add_to<48><<<1, t>>>(g + 256, 1.0f); }, 48, e);
  failures += !(e[0] == cudaSuccess && e[1] == cudaErrorLaunchOutOfResources);
  both([&](int t) { twice_all<<<1, t>>>(gd); }, 160, e);
  failures += !(e[0] == cudaSuccess && e[1] == cudaErrorLaunchOutOfResources);
  both([&](int t) { shift<<<1, t>>>(g + 320); }, 96, e);
  failures += !(e[0] == cudaSuccess && e[1] == cudaErrorLaunchOutOfResources);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int bad = 0;
  for (int i = 0; i < 512; ++i) {
    bad += g[i] != (i < 64                ? 2.0f * i
                    : i >= 128 && i < 256 ? 3.0f * i
                    : i >= 256 && i < 304 ? i + 1.0f
                    : i >= 320 && i < 416 ? i + 0.5f
                                          : (float)i);
    bad += gd[i] != (i < 160 ? 2.0 * i : (double)i);
  }
  failures += bad != 0;
  // The instances' attributes.
  void (*geo_k)(geo::points, float) = geo::scale_all;
  const void *kernels[] = {(const void *)geo_k, (const void *)add_to<48, float>,
                           (const void *)twice_all<double>,
                           (const void *)shift};
  const int bounds[] = {64, 48, 160, 96};
  for (int k = 0; k < 4; ++k) {
    cudaFuncAttributes a;
    failures += cudaFuncGetAttributes(&a, kernels[k]) != cudaSuccess ||
                a.maxThreadsPerBlock != bounds[k];
  }
  CHECK(cudaFree(g) == cudaSuccess && cudaFree(gd) == cudaSuccess);
  return failures;
}

__global__ void __launch_bounds__(96) shift(float *out, float by) {
  out[threadIdx.x] += by;
}

int main() {
  CHECK(launch_picked_kernels() == 0);
  float *fy, *fx;
  double *dy, *dx;
  int *iv;
  CHECK(cudaMallocManaged(&fy, 512 * sizeof(float)) == cudaSuccess);
  CHECK(cudaMallocManaged(&fx, 512 * sizeof(float)) == cudaSuccess);
  CHECK(cudaMallocManaged(&dy, 512 * sizeof(double)) == cudaSuccess);
  CHECK(cudaMallocManaged(&dx, 512 * sizeof(double)) == cudaSuccess);
  CHECK(cudaMallocManaged(&iv, 512 * sizeof(int)) == cudaSuccess);
  for (int i = 0; i < 512; ++i) {
    fy[i] = 0.0f;
    fx[i] = (float)i;
    dy[i] = 0.0;
    dx[i] = (double)i;
  }

  // <<<>>> with each overload's bound.
  cudaError_t e[2];
  both([&](int t) { blas::axpy<<<1, t>>>(fy, fx, 1.0f); }, 64, e);
  CHECK(e[0] == cudaSuccess && e[1] == cudaErrorLaunchOutOfResources);
  both([&](int t) { blas::axpy<<<1, t>>>(dy, dx, 1.0); }, 128, e);
  CHECK(e[0] == cudaSuccess && e[1] == cudaErrorLaunchOutOfResources);
  both([&](int t) { sparse::axpy<<<1, t>>>(fy + 256, fx + 256, 1.0f); }, 256,
       e);
  CHECK(e[0] == cudaSuccess && e[1] == cudaErrorLaunchOutOfResources);
  both([&](int t) { fill<<<1, t>>>(fy + 64); }, 32, e);
  CHECK(e[0] == cudaSuccess && e[1] == cudaErrorLaunchOutOfResources);
  both([&](int t) { fill<<<1, t>>>(iv, 3); }, 96, e);
  CHECK(e[0] == cudaSuccess && e[1] == cudaErrorLaunchOutOfResources);
  float *in;
  CHECK(cudaMallocManaged(&in, 384 * sizeof(float)) == cudaSuccess);
  CHECK(cudaMemset(in, 0, 384 * sizeof(float)) == cudaSuccess);
  both([&](int t) { tally_a::run((unsigned *)in, t); }, 32, e);
  CHECK(e[0] == cudaSuccess && e[1] == cudaErrorLaunchOutOfResources);
  both([&](int t) { tally_b::run(in + 32, t); }, 64, e);
  CHECK(e[0] == cudaSuccess && e[1] == cudaErrorLaunchOutOfResources);
  both([&](int t) { tally_c::run(in + 96, t); }, 192, e);
  CHECK(e[0] == cudaSuccess && e[1] == cudaErrorLaunchOutOfResources);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int bad = 0;
  for (int i = 0; i < 384; ++i)
    bad += i < 32 ? ((unsigned *)in)[i] != 1u
                  : in[i] != (i < 96 ? 1.0f : i < 288 ? 2.0f : 0.0f);
  CHECK(bad == 0 && cudaFree(in) == cudaSuccess);
  for (int i = 0; i < 64; ++i)
    bad += fy[i] != (float)i;
  for (int i = 64; i < 96; ++i)
    bad += fy[i] != 1.5f;
  for (int i = 0; i < 128; ++i)
    bad += dy[i] != (double)i;
  for (int i = 256; i < 512; ++i)
    bad += fy[i] != 2.0f * i;
  for (int i = 0; i < 96; ++i)
    bad += iv[i] != 3 + i;
  CHECK(bad == 0);

  // cudaFuncGetAttributes and cudaLaunchKernel through each overload's
  // pointer.
  void (*blas_f)(float *, const float *, float) = blas::axpy;
  void (*blas_d)(double *, const double *, double) = blas::axpy;
  void (*sparse_f)(float *, const float *, float) = sparse::axpy;
  void (*fill_f)(float *, float) = fill;
  void (*fill_i)(int *, int, int) = fill;
  const void *kernels[] = {(const void *)blas_f, (const void *)blas_d,
                           (const void *)sparse_f, (const void *)fill_f,
                           (const void *)fill_i};
  const int bounds[] = {64, 128, 256, 32, 96};
  for (int k = 0; k < 5; ++k) {
    cudaFuncAttributes a;
    CHECK(cudaFuncGetAttributes(&a, kernels[k]) == cudaSuccess);
    CHECK(a.maxThreadsPerBlock == bounds[k]);
  }
  float a = 1.0f, *py = fy, *px = fx;
  void *args[] = {&py, &px, &a};
  CHECK(cudaLaunchKernel(kernels[2], dim3(1), dim3(512), args, 0, 0) ==
        cudaErrorLaunchOutOfResources);
  CHECK(cudaLaunchKernel(kernels[2], dim3(2), dim3(256), args, 0, 0) ==
        cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  bad = 0;
  for (int i = 0; i < 512; ++i)
    bad += fy[i] != (i < 64    ? 3.0f * i
                     : i < 96  ? 1.5f + 2.0f * i
                     : i < 256 ? 2.0f * i
                               : 4.0f * i);
  CHECK(bad == 0);
  CHECK(cudaFree(fy) == cudaSuccess && cudaFree(fx) == cudaSuccess);
  CHECK(cudaFree(dy) == cudaSuccess && cudaFree(dx) == cudaSuccess);
  CHECK(cudaFree(iv) == cudaSuccess);
  return finish();
}
