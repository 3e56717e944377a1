// perturb_float_sums.cu: global sums made by floating-point atomicAdd, run
// under schedule perturbation (CUEMU_CHECK_SCHEDULES=1, set here before the
// first CUDA call; a GPU ignores it). The order of the adds changes the
// last bits of such a sum, on a GPU as here: perturbation, which runs each
// launch in two orders and compares what they leave, once reported every
// block-reduced atomicAdd of a double or float sum as a race, and every
// persistent kernel that reads such a sum after grid.sync() (the trial of
// CFD solvers: a mass, a residual norm, the dot products of conjugate
// gradients). Under perturbation these sums (float, double, __half and
// __half2 here) are now exact sums rounded once, the same in every order. A sum whose terms themselves depend on
// the order (each thread adds a value that another thread overwrites) is
// still reported.
#include <cmath>
#include <cstdlib>
#include <cstring>

#include <cooperative_groups.h>
#include <cuda_fp16.h>

#include "../check.cuh"

#ifdef __CUEMU__
#include <cuemu/cuemu.h>
#endif

namespace cg = cooperative_groups;

template <typename T>
__global__ void block_sums(const float *__restrict__ x, int n, T *sum,
                           float *negated) {
  __shared__ T partial[128];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < n ? T(x[i]) : T(0);
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    atomicAdd(sum, partial[0]);
    atomicAdd(negated, -float(partial[0]));
  }
}

// Every thread adds, atomically, a value that the other threads of its
// block overwrite: the sum depends on the order by far more than rounding.
__global__ void racy_terms(float *scratch, float *sum) {
  scratch[blockIdx.x] = float(threadIdx.x) * 1000.0f + 1.0f;
  __syncthreads();
  atomicAdd(sum, scratch[blockIdx.x]);
  __syncthreads();
  // The scratch ends the same in both orders: the sum alone differs.
  if (threadIdx.x == 0)
    scratch[blockIdx.x] = 0.0f;
}

// Every thread adds to one __half and one __half2: thousands of adds whose
// rounding in half precision depends on the order.
__global__ void half_sums(const float *__restrict__ x, int n, __half *sum,
                          __half2 *pair) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(sum, __float2half(x[i]));
    atomicAdd(pair, __floats2half2_rn(x[i], -0.5f * x[i]));
  }
}

// A persistent kernel's dot product, read by every thread after the grid
// synchronises: the rounding of the sum reaches every output.
__global__ void normalise(const float *__restrict__ x, int n, double *sum,
                          float *out) {
  cg::grid_group grid = cg::this_grid();
  __shared__ double partial[128];
  double local = 0.0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    local += double(x[i]) * x[i];
  partial[threadIdx.x] = local;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(sum, partial[0]);
  grid.sync();
  const float scale = float(1.0 / sqrt(*sum));
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    out[i] = x[i] * scale;
}

int main() {
  setenv("CUEMU_CHECK_SCHEDULES", "1", 1);
  const int n = 128 * 40;
  float *x, *fsum, *scratch;
  double *dsum;
  float *negated;
  CHECK(cudaMalloc(&x, n * sizeof(float)) == cudaSuccess);
  CHECK(cudaMalloc(&fsum, sizeof(float)) == cudaSuccess);
  CHECK(cudaMalloc(&dsum, sizeof(double)) == cudaSuccess);
  CHECK(cudaMalloc(&negated, sizeof(float)) == cudaSuccess);
  CHECK(cudaMalloc(&scratch, 8 * sizeof(float)) == cudaSuccess);
  float *h = new float[n];
  double exact = 0.0;
  for (int i = 0; i < n; ++i) {
    h[i] = 1.0f / float(1 + i % 97) + 1e-3f * float(i % 13);
    exact += h[i];
  }
  CHECK(cudaMemcpy(x, h, n * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemset(fsum, 0, sizeof(float)) == cudaSuccess);
  CHECK(cudaMemset(dsum, 0, sizeof(double)) == cudaSuccess);
  CHECK(cudaMemset(negated, 0, sizeof(float)) == cudaSuccess);
  block_sums<float><<<n / 128, 128>>>(x, n, fsum, negated);
  CHECK(cudaGetLastError() == cudaSuccess);
  block_sums<double><<<n / 128, 128>>>(x, n, dsum, negated);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  float f = 0.0f;
  double d = 0.0;
  float m = 0.0f;
  CHECK(cudaMemcpy(&f, fsum, sizeof f, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(cudaMemcpy(&d, dsum, sizeof d, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(cudaMemcpy(&m, negated, sizeof m, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(std::abs(f - exact) < 1e-4 * exact);
  CHECK(std::abs(d - exact) < 1e-6 * exact);
  CHECK(std::abs(m + 2 * exact) < 1e-4 * exact);

  float *out;
  CHECK(cudaMalloc(&out, n * sizeof(float)) == cudaSuccess);
  CHECK(cudaMemset(dsum, 0, sizeof(double)) == cudaSuccess);
  int nn = n;
  void *args[] = {&x, &nn, &dsum, &out};
  CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void *>(normalise), 4, 128,
                                    args, 0, 0) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  float o = 0.0f;
  CHECK(cudaMemcpy(&o, out, sizeof o, cudaMemcpyDeviceToHost) == cudaSuccess);
  double norm2 = 0.0;
  for (int i = 0; i < n; ++i)
    norm2 += double(h[i]) * h[i];
  CHECK(std::abs(o - h[0] / std::sqrt(norm2)) < 1e-6);
  CHECK(cudaFree(out) == cudaSuccess);

  __half *hsum;
  __half2 *hpair;
  CHECK(cudaMalloc(&hsum, sizeof(__half)) == cudaSuccess);
  CHECK(cudaMalloc(&hpair, sizeof(__half2)) == cudaSuccess);
  CHECK(cudaMemset(hsum, 0, sizeof(__half)) == cudaSuccess);
  CHECK(cudaMemset(hpair, 0, sizeof(__half2)) == cudaSuccess);
  half_sums<<<n / 128, 128>>>(x, n, hsum, hpair);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  __half hs;
  __half2 hp;
  CHECK(cudaMemcpy(&hs, hsum, sizeof hs, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(cudaMemcpy(&hp, hpair, sizeof hp, cudaMemcpyDeviceToHost) == cudaSuccess);
  // Half precision: 11 bits; once the sum passes 256, where its spacing is
  // 0.25, each add rounds by up to 0.125, and a GPU's order ends about 20 %
  // below the exact sum (which is what perturbation gives).
  CHECK(std::abs(__half2float(hs) - exact) < 0.3 * exact);
  CHECK(std::abs(__low2float(hp) - exact) < 0.3 * exact);
  CHECK(std::abs(__high2float(hp) + 0.5 * exact) < 0.3 * exact);

  // A GPU leaves some order's sum; perturbation finds that the two orders
  // disagree by more than rounding, and reports it; the launch goes on (cuemu only).
  CHECK(cudaMemset(fsum, 0, sizeof(float)) == cudaSuccess);
  racy_terms<<<8, 64>>>(scratch, fsum);
  cudaError_t e = cudaDeviceSynchronize();
  CHECK(e == cudaSuccess);
#ifdef __CUEMU__
  const char *report = "";
  CHECK(cuemu_check_reports(&report) == 1);
  CHECK(std::strstr(report, "schedule perturbation") != nullptr);
  cuemu_check_reports_clear(); /* expected: the exit status stays 0 */
#endif
  delete[] h;
  return finish();
}
