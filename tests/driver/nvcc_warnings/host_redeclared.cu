// host_redeclared.cu: functions first declared without an execution space
// (host functions) and redeclared __device__ (nvcc's warning #20039-D) or
// __host__ __device__ (#20040-D), as reduction operators are
// (tests/driver_nvcc_warnings.sh). nvcc 13.0 warns at the first
// redeclaration's name alone; a later one, a function declared
// __host__ __device__ first, and one under nv_diag_suppress get none.
#include <cstdio>

int plain(int x);
__device__ int plain(int x);
__device__ int plain(int x) { return x + 1; }

float twice(float x);
__host__ __device__ float twice(float x) { return x * 2; }

struct Op {
  int at(int i) const;
  static float sum(float a, float b);
};
__device__ int Op::at(int i) const { return i; }
__host__ __device__ float Op::sum(float a, float b) { return a + b; }

template <typename T> T same(T a);
template <typename T> __device__ T same(T a) { return a; }

template <typename T> struct Box {
  T width() const;
};
template <typename T> __host__ __device__ T Box<T>::width() const {
  return T(3);
}

namespace geo {
double square(double x);
__device__ double square(double x) { return x * x; }
}  // namespace geo

__host__ int host_first(int x);
__device__ int host_first(int x) { return x; }

struct Acc {
  Acc(int start);
  Acc &operator+=(int x);
  int v;
};
__device__ Acc::Acc(int start) : v(start) {}
__host__ __device__ Acc &Acc::operator +=(int x) { v += x; return *this; }

__host__ __device__ int both_first(int x);
int both_first(int x) { return x + 4; }

#pragma nv_diagnostic push
#pragma nv_diag_suppress 20039
int hidden(int x);
__device__ int hidden(int x) { return x; }
#pragma nv_diagnostic pop

__global__ void use(int *out) {
  Op op;
  Box<int> box;
  Acc acc(1);
  acc += 2;
  out[0] = acc.v + plain(1) + (int)twice(2.0f) + op.at(3) + (int)Op::sum(1, 2) +
           same(4) + box.width() + (int)geo::square(2) + host_first(5) +
           both_first(6) + hidden(7);
}

int main() {
  int *out = nullptr;
  cudaMalloc(&out, sizeof(int));
  use<<<1, 1>>>(out);
  int got = 0;
  cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost);
  cudaFree(out);
  // Host code calls those defined __host__ __device__ (a __device__
  // definition's function stays device-only, whatever the warning says).
  int host = (int)twice(2.0f) + (int)Op::sum(1, 2) + Box<int>().width() +
             both_first(6);
  if (got != 48 || host != 20) {
    printf("FAIL: %d %d\n", got, host);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
