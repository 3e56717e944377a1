// ops.cu: launches, memory and explicit instantiations for each dtype.
#include <algorithm>
#include "ops.h"
#include "ops.cuh"

namespace pyops {

template <typename T>
struct Device {
  T* p = nullptr;
  explicit Device(size_t n) { check(cudaMalloc(&p, n * sizeof(T)), "cudaMalloc"); }
  ~Device() { cudaFree(p); }
  Device(const Device&) = delete;
};

template <typename T>
void binary(const T* a, const T* b, T* out, int64_t n, BinaryOp op) {
  Device<T> da(n), db(n), dout(n);
  check(cudaMemcpy(da.p, a, n * sizeof(T), cudaMemcpyHostToDevice), "copy a");
  check(cudaMemcpy(db.p, b, n * sizeof(T), cudaMemcpyHostToDevice), "copy b");
  int grid = (int)std::min<int64_t>((n + 255) / 256, 1024);
  if (grid == 0) grid = 1;
  if (op == BinaryOp::add)
    kernels::binary<<<grid, 256>>>(da.p, db.p, dout.p, n, kernels::AddOp<T>());
  else
    kernels::binary<<<grid, 256>>>(da.p, db.p, dout.p, n, kernels::MaxOp<T>{});
  check(cudaGetLastError(), "binary launch");
  check(cudaMemcpy(out, dout.p, n * sizeof(T), cudaMemcpyDeviceToHost), "copy out");
}

template <typename T>
void softmax(const T* x, T* y, int rows, int cols) {
  Device<T> dx((size_t)rows * cols), dy((size_t)rows * cols);
  check(cudaMemcpy(dx.p, x, sizeof(T) * rows * cols, cudaMemcpyHostToDevice), "copy x");
  constexpr int kBlock = 128;
  kernels::softmax_rows<T, kBlock><<<rows, kBlock>>>(dx.p, dy.p, cols);
  check(cudaGetLastError(), "softmax launch");
  check(cudaMemcpy(y, dy.p, sizeof(T) * rows * cols, cudaMemcpyDeviceToHost), "copy y");
}

template void binary<float>(const float*, const float*, float*, int64_t, BinaryOp);
template void binary<double>(const double*, const double*, double*, int64_t, BinaryOp);
template void binary<int32_t>(const int32_t*, const int32_t*, int32_t*, int64_t, BinaryOp);
template void binary<int64_t>(const int64_t*, const int64_t*, int64_t*, int64_t, BinaryOp);
template void softmax<float>(const float*, float*, int, int);
template void softmax<double>(const double*, double*, int, int);

static __device__ int g_spin_done;

void spin_async(double milliseconds) {
  int clock_khz = 0;
  check(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0), "clock rate");
  unsigned long long cycles = (unsigned long long)(milliseconds * clock_khz);
  int* flag = nullptr;
  check(cudaGetSymbolAddress(reinterpret_cast<void**>(&flag), g_spin_done), "symbol");
  kernels::spin<<<1, 1>>>(cycles, flag);
  check(cudaGetLastError(), "spin launch");
}

void synchronize() { check(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }

void fault(int kind) {
  if (kind == 0) {
    // Too many threads per block: a launch error, not sticky.
    kernels::write_through<<<1, 2048>>>(nullptr, 1);
    check(cudaGetLastError(), "launch");
  } else {
    // A write through a null pointer: an illegal address, sticky.
    kernels::write_through<<<4, 64>>>(nullptr, 256);
    check(cudaGetLastError(), "launch");
    check(cudaDeviceSynchronize(), "synchronize after fault");
  }
}

int device_count() {
  int n = 0;
  check(cudaGetDeviceCount(&n), "cudaGetDeviceCount");
  return n;
}

}  // namespace pyops
