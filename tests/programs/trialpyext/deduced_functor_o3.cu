// deduced_functor_o3.cu: kernel templates taking a functor, launched with
// deduced template arguments from a function template, built at -O3 as
// CMake's Release build (and pybind11_add_module) compiles them. g++ -O3
// cloned the host pass's forwarder of such an instance for the launch's
// constant arguments, and the launch failed with "the host pass's instance
// of this kernel template was not matched to the device pass's".
// CUEMU_OPTIONS: -O3
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>

template <typename T>
struct AddOp {
  __device__ T operator()(T a, T b) const { return a + b; }
};

template <typename T>
struct MaxOp {
  __device__ T operator()(T a, T b) const { return a > b ? a : b; }
};

template <typename T, typename Op>
__global__ void binary(const T* a, const T* b, T* out, int64_t n, Op op) {
  int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = op(a[i], b[i]);
}

struct Negate {
  __device__ float operator()(float v) const { return -v; }
};

template <typename Op>
__global__ void apply(float* x, int n, Op op) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = op(x[i]);
}

template <typename T>
static bool check_binary(int n, bool maximum) {
  T *a, *b, *out;
  cudaMallocManaged(&a, n * sizeof(T));
  cudaMallocManaged(&b, n * sizeof(T));
  cudaMallocManaged(&out, n * sizeof(T));
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<T>(i % 17);
    b[i] = static_cast<T>(i % 5) * 3;
  }
  if (maximum)
    binary<<<4, 64>>>(a, b, out, n, MaxOp<T>{});
  else
    binary<<<4, 64>>>(a, b, out, n, AddOp<T>());
  bool ok = cudaDeviceSynchronize() == cudaSuccess;
  for (int i = 0; ok && i < n; ++i)
    ok = out[i] == (maximum ? (a[i] > b[i] ? a[i] : b[i]) : a[i] + b[i]);
  cudaFree(a);
  cudaFree(b);
  cudaFree(out);
  return ok;
}

int main() {
  bool ok = check_binary<float>(1000, false) && check_binary<float>(1000, true) &&
            check_binary<int64_t>(777, false) && check_binary<double>(300, true);
  float* x;
  cudaMallocManaged(&x, 64 * sizeof(float));
  for (int i = 0; i < 64; ++i) x[i] = (float)i;
  apply<<<1, 64>>>(x, 64, Negate());
  ok = ok && cudaDeviceSynchronize() == cudaSuccess;
  for (int i = 0; ok && i < 64; ++i) ok = x[i] == -(float)i;
  cudaFree(x);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
