/*
 * system_header_kernels.cu: kernels with internal linkage declared in a
 * system header (-isystem) compile and launch, as with nvcc: by <<<>>>
 * (deduced and named template arguments) and cudaLaunchKernel. Also the
 * forms of __global__ inside braces that nvcc accepts, a friend
 * declaration and a declaration in a function's body, and narrowing conversions in braces in a kernel, which
 * nvcc's device front end warns about and compiles (in host code they
 * are the host compiler's errors, with nvcc too).
 */
// CUEMU_OPTIONS: -isystem sysinc
// NVCC_OPTIONS: -isystem sysinc
#include <cuda_runtime.h>

#include <params_sys_kernels.h>

#include "../check.cuh"

__global__ void touch(int *x);

/* A class that names a kernel as its friend, which reads its private
 * member. */
class Counter {
  int step_ = 1000;
  friend __global__ void touch(int *x);

public:
  int step() const { return step_; }
};

__global__ void touch(int *x) {
  Counter c;
  x[threadIdx.x] += c.step_;
}

static void launch_declared_here(int *y) {
  __global__ void touch(int *x); /* a declaration in a function's body */
  touch<<<1, 64>>>(y);
}

struct Range {
  int lo, hi;
};

__global__ void halves(Range *r, double scale) {
  Range mine = {threadIdx.x * scale, 3.0};
  r[threadIdx.x] = mine;
}

/* A functor with a user copy constructor, for a system header's kernel
 * template launched with deduced template arguments (it compiles and
 * runs, as with nvcc). */
struct AddK {
  int k;
  __host__ __device__ explicit AddK(int v) : k(v) {}
  __host__ __device__ AddK(const AddK &o) : k(o.k) {}
  __host__ __device__ int operator()(int i) const { return i + k; }
};

int main() {
  {
    int *out;
    CHECK(cudaMallocManaged(&out, 4 * sizeof(int)) == cudaSuccess);
    AddK add(10);
    sys_apply<<<1, 4>>>(add, out);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(out[0] == 10 && out[3] == 13);
    cudaFree(out);
  }
  Range *ranges;
  CHECK(cudaMallocManaged(&ranges, 4 * sizeof(Range)) == cudaSuccess);
  halves<<<1, 4>>>(ranges, 1.5);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(ranges[3].lo == 4 && ranges[3].hi == 3);
  cudaFree(ranges);
  float *x;
  int *y;
  CHECK(cudaMallocManaged(&x, 64 * sizeof(float)) == cudaSuccess);
  CHECK(cudaMallocManaged(&y, 64 * sizeof(int)) == cudaSuccess);
  sys_fill<<<1, 64>>>(x, 1.5f, 64);
  sys_scale<<<2, 32>>>(x, 2.0f, 64);
  sys_fill<int><<<1, 64>>>(y, 3, 64);
  sys_add_ten<<<1, 64>>>(y);
  syslib::add_hundred<<<1, 64>>>(y);
  syslib::add_k<20000><<<1, 64>>>(y);
  void *args[] = {&y};
  CHECK(cudaLaunchKernel((const void *)syslib::add_hundred, dim3(1), dim3(64),
                         args, 0, nullptr) == cudaSuccess);
  launch_declared_here(y);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  bool right = true;
  for (int i = 0; i < 64; ++i)
    right = right && x[i] == 3.0f && y[i] == 3 + 10 + 100 + 20000 + 100 + 1000;
  CHECK(right);
  cudaFuncAttributes attributes;
  CHECK(cudaFuncGetAttributes(&attributes,
                              (const void *)syslib::add_hundred) ==
        cudaSuccess);
  CHECK(attributes.maxThreadsPerBlock == 64);
  cudaFree(x);
  cudaFree(y);
  return finish();
}
