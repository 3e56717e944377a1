// device_template_undeclared.cu: a class template and a function template
// that only the device pass sees (under __CUDA_ARCH__) and that nothing
// instantiates name a variable and a function declared nowhere, in the
// way of CGBN's device-only headers (trialcgbn). nvcc 13's device pass
// does not parse such a template's body and builds the program; g++ and
// clang++ refuse the names at the template's definition (two-phase
// lookup), so cuemu-nvcc compiles the device pass again with clang++
// -fdelayed-template-parsing (cuemu_undeclared_names.c). The same holds
// for a __host__ __device__ template that both passes see, where a macro
// names the function in the global namespace in the device pass and in
// std in the host pass, in the way of a linear-algebra library's
// `USING_STD(arg)` (`using ::arg;` on the device, where no global `arg`
// exists): only the device pass's text is wrong there. The instantiated
// members beside them must still work.
#include <cuda_runtime.h>

#include <complex>

#include "../check.cuh"

#ifdef __CUDA_ARCH__
template <unsigned WIDTH> struct lane_math {
  __device__ static unsigned low_bits(unsigned x) { return x & (WIDTH - 1); }
  /* Never instantiated: `nowhere_count` and `nowhere_min` are declared
   * nowhere. */
  __device__ static unsigned unused_count(unsigned x) {
    unsigned top = x >> WIDTH;
    return nowhere_min(nowhere_count, top);
  }
};

template <unsigned WIDTH> __device__ unsigned unused_helper() {
  return nowhere_total + WIDTH;
}
#endif

#ifdef __CUDA_ARCH__
#define USING_MATH(f) using ::f;
#else
#define USING_MATH(f) using std::f;
#endif

template <class T> struct phase_of {
  /* Never instantiated: the device pass reads `using ::arg;`. */
  __host__ __device__ static float run(const T &z) {
    USING_MATH(arg);
    return static_cast<float>(arg(z));
  }
  __host__ __device__ static T twice(const T &z) { return z + z; }
};

__global__ void low_bits_kernel(unsigned *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef __CUDA_ARCH__
  if (i < n)
    out[i] = lane_math<8>::low_bits((unsigned)i * 37u) +
             phase_of<unsigned>::twice(1u);
#endif
}

int main() {
  const int n = 300;
  unsigned *d = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(unsigned)) == cudaSuccess);
  low_bits_kernel<<<3, 128>>>(d, n);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  unsigned h[n];
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int i = 0; i < n; ++i)
    CHECK(h[i] == (((unsigned)i * 37u) & 7u) + 2u);
  cudaFree(d);
  return finish();
}
