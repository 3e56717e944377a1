/*
 * internal_linkage.cu: device variables and kernels with internal linkage
 * (`static`, an unnamed namespace) are one object of the program, as with
 * nvcc: what host code writes with cudaMemcpyToSymbol is what kernels read,
 * and what kernels write is what cudaMemcpyFromSymbol reads (issue 13: the
 * device and host passes each kept a copy, and kernels read zeros).
 * Static device functions that are operators whose symbol ends in `=`
 * (`^=`, `+=`, `==`, `>>=`, the uint2 operators of GPU miners) are
 * functions, not variables with an initializer (they did not compile).
 */
#include <cstdio>

#include "check.cuh"

static __device__ int counter;
static __constant__ float scale[4];
static __device__ int initialised = 17;
static __device__ __managed__ int managed_flag = 0;

namespace {
__device__ int anon_value;
__constant__ int anon_table[3] = {4, 5, 6};
__global__ void anon_kernel(int *out) { out[0] = anon_value + anon_table[2]; }
} // namespace

namespace geometry {
static __device__ double origin[2];
}

static __global__ void bump(int times);
static __global__ void bump(int times) {
  for (int i = 0; i < times; ++i)
    atomicAdd(&counter, 1);
}

static __global__ void put(int *out) { out[0] = initialised; }
static __global__ void put_scale(float *out) { out[0] = scale[2]; }

struct lanes {
  unsigned lo, hi;
};
static __device__ __forceinline__ lanes operator^(lanes a, lanes b) { return {a.lo ^ b.lo, a.hi ^ b.hi}; }
static __device__ __forceinline__ void operator^=(lanes &a, lanes b) { a = a ^ b; }
static __device__ lanes &operator+=(lanes &a, unsigned b) {
  a.lo += b;
  return a;
}
static __device__ lanes &operator>>=(lanes &a, int n) {
  a.lo >>= n;
  a.hi >>= n;
  return a;
}
static __host__ __device__ bool operator==(lanes a, lanes b) { return a.lo == b.lo && a.hi == b.hi; }
static __device__ bool operator!=(lanes a, lanes b) { return !(a == b); }

static __global__ void mix_lanes(lanes *v) {
  v[0] ^= v[1];
  v[0] += 4u;
  v[0] >>= 1;
  v[2].lo = v[0] != v[1];
}

template <typename T> static __global__ void read_origin(T *out) {
  out[0] = static_cast<T>(geometry::origin[0] + geometry::origin[1]);
  managed_flag = 1;
}

int main() {
  int start = 41;
  float s[4] = {1.5f, 2.5f, 3.5f, 4.5f};
  int a = 9;
  double o[2] = {0.25, 2.0};
  CHECK(cudaMemcpyToSymbol(counter, &start, sizeof start) == cudaSuccess);
  CHECK(cudaMemcpyToSymbol(scale, s, sizeof s) == cudaSuccess);
  CHECK(cudaMemcpyToSymbol(anon_value, &a, sizeof a) == cudaSuccess);
  CHECK(cudaMemcpyToSymbol(geometry::origin, o, sizeof o) == cudaSuccess);

  bump<<<4, 32>>>(2);
  int *iout;
  float *fout;
  double *dout;
  CHECK(cudaMallocManaged(&iout, 4 * sizeof(int)) == cudaSuccess);
  CHECK(cudaMallocManaged(&fout, sizeof(float)) == cudaSuccess);
  CHECK(cudaMallocManaged(&dout, sizeof(double)) == cudaSuccess);
  anon_kernel<<<1, 1>>>(iout);
  put<<<1, 1>>>(iout + 1);
  put_scale<<<1, 1>>>(fout);
  read_origin<<<1, 1>>>(dout);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);

  int count = 0;
  CHECK(cudaMemcpyFromSymbol(&count, counter, sizeof count) == cudaSuccess);
  CHECK(count == 41 + 4 * 32 * 2);
  CHECK(iout[0] == 9 + 6);
  CHECK(iout[1] == 17);
  CHECK(fout[0] == 3.5f);
  CHECK(dout[0] == 2.25);
  CHECK(managed_flag == 1);
  lanes *l;
  CHECK(cudaMallocManaged(&l, 3 * sizeof(lanes)) == cudaSuccess);
  l[0] = {8, 64};
  l[1] = {2, 32};
  mix_lanes<<<1, 1>>>(l);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(l[0] == (lanes{7, 48}));
  CHECK(l[2].lo == 1u);
  // The symbol's address is the device's object, not host code's own
  // object of the variable (its shadow), as on a GPU.
  void *where = nullptr;
  CHECK(cudaGetSymbolAddress(&where, counter) == cudaSuccess);
  CHECK(where != static_cast<void *>(&counter));
  int through = 0;
  CHECK(cudaMemcpy(&through, where, sizeof through,
                   cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(through == 41 + 4 * 32 * 2);
  return finish();
}
