// Launches in kernel code (CUDA dynamic parallelism) whose kernels take
// parameters that cuemu keeps as their bytes (docs/kernel-parameters.md):
// - a kernel template whose template argument is deduced, and an
//   overloaded kernel, launched with an 800-byte trivially copyable struct
//   (more than 512 bytes) and with a trivially copyable class that has a
//   forwarding constructor template: the child sees the parent's values;
// - an argument of a class with a user-provided copy constructor and a
//   conversion to int, passed to a kernel taking int (nvcc checks the
//   kernel's parameter types, not the argument's, and accepts it);
// - a 30000-byte parameter passed on by each block's first thread to a
//   child launch, after each thread changed its own copy (the launch
//   copies the launching thread's, which only thread 0 changed).
// CUEMU_OPTIONS: -rdc=true
// NVCC_OPTIONS: -rdc=true
#include <cuda_runtime.h>

#include "../check.cuh"

struct Big {
  float v[200];
};

struct Fwd {
  int a;
  Fwd() = default;
  template <class U> __host__ __device__ Fwd(U &&) : a(7) {}
};

struct Huge {
  int v[7500];
};

/* A class with a user-provided copy constructor that converts to int. */
struct Wrapped {
  int a;
  __device__ explicit Wrapped(int x) : a(x) {}
  __device__ Wrapped(const Wrapped &o) : a(o.a + 1) {}
  __device__ operator int() const { return a * 10; }
};

__device__ float value_of(const Big &b, int i) { return b.v[i]; }
__device__ float value_of(const Fwd &f, int) { return (float)f.a; }

template <class T> __global__ void deduced(T t, float *out) {
  out[threadIdx.x] = value_of(t, threadIdx.x);
}

__global__ void overloaded(Big b, float *out) {
  out[threadIdx.x] = b.v[threadIdx.x] + 1000.0f;
}
__global__ void overloaded(int i, float *out) { out[threadIdx.x] = (float)i; }

__global__ void take_int(int i, float *out) { out[threadIdx.x] = (float)i; }

__global__ void parent(Big b, Fwd f, float *out) {
  if (threadIdx.x == 0) {
    const Fwd &cf = f;
    deduced<<<1, 32>>>(b, out);
    deduced<<<1, 32>>>(cf, out + 32);
    overloaded<<<1, 32>>>(b, out + 64);
    Wrapped w(4);
    take_int<<<1, 32>>>(w, out + 96);
  }
}

__global__ void huge_child(Huge h, int *out) {
  out[blockIdx.x * 32 + threadIdx.x] = h.v[threadIdx.x];
}
__global__ void huge_child_launcher(Huge h, int *out) {
  h.v[threadIdx.x] += 1 + (int)blockIdx.x;
  __syncthreads();
  if (threadIdx.x == 0)
    huge_child<<<1, 32>>>(h, out + 32 * blockIdx.x);
}

int main() {
  float *out;
  CHECK(cudaMallocManaged(&out, 128 * sizeof(float)) == cudaSuccess);
  static Big b;
  for (int i = 0; i < 200; ++i)
    b.v[i] = 0.5f * (float)i;
  Fwd f;
  f.a = 3;
  parent<<<1, 32>>>(b, f, out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int i = 0; i < 32; ++i) {
    CHECK(out[i] == 0.5f * (float)i);
    /* The host made the parent's parameter with the template (a
     * non-const lvalue picks it); the child's is a copy of it. */
    CHECK(out[32 + i] == 7.0f);
    CHECK(out[64 + i] == 0.5f * (float)i + 1000.0f);
    CHECK(out[96 + i] == 40.0f);
  }

  int *hout;
  CHECK(cudaMallocManaged(&hout, 64 * sizeof(int)) == cudaSuccess);
  static Huge h;
  for (int i = 0; i < 7500; ++i)
    h.v[i] = 3 * i;
  huge_child_launcher<<<2, 32>>>(h, hout);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int blk = 0; blk < 2; ++blk)
    for (int i = 0; i < 32; ++i)
      CHECK(hout[32 * blk + i] == 3 * i + (i == 0 ? 1 + blk : 0));
  cudaFree(hout);
  cudaFree(out);
  return finish();
}
