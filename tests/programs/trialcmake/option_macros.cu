// option_macros.cu: the macros that nvcc defines for the options that CMake
// projects pass (every cuda-samples CMakeLists.txt adds --extended-lambda,
// CUDA_SEPARABLE_COMPILATION adds -rdc=true or -dc, a Debug build with
// device debugging -G): __CUDACC_EXTENDED_LAMBDA__,
// __CUDACC_RELAXED_CONSTEXPR__, __CUDACC_RDC__ and __CUDACC_DEBUG__, in
// host and device code alike. cuemu-nvcc defined none of them, and code
// that stops with `#error` without them (libraries that need extended
// lambdas or relocatable device code) did not compile.
// CUEMU_OPTIONS: --extended-lambda --expt-relaxed-constexpr -rdc=true -G
// NVCC_OPTIONS: --extended-lambda --expt-relaxed-constexpr -rdc=true -G
#include "../check.cuh"

#ifndef __CUDACC_EXTENDED_LAMBDA__
#error "--extended-lambda did not define __CUDACC_EXTENDED_LAMBDA__"
#endif
#ifndef __CUDACC_RELAXED_CONSTEXPR__
#error "--expt-relaxed-constexpr did not define __CUDACC_RELAXED_CONSTEXPR__"
#endif
#ifndef __CUDACC_RDC__
#error "-rdc=true did not define __CUDACC_RDC__"
#endif
#ifndef __CUDACC_DEBUG__
#error "-G did not define __CUDACC_DEBUG__"
#endif

// Each macro seen by device code: a bit of the flags that a kernel reports.
__device__ int device_flags() {
  int flags = 0;
#ifdef __CUDACC_EXTENDED_LAMBDA__
  flags |= 1;
#endif
#ifdef __CUDACC_RELAXED_CONSTEXPR__
  flags |= 2;
#endif
#ifdef __CUDACC_RDC__
  flags |= 4;
#endif
#ifdef __CUDACC_DEBUG__
  flags |= 8;
#endif
  return flags;
}

template <typename F> __global__ void apply(int *out, F f) {
  out[threadIdx.x] = f(threadIdx.x);
}

int main() {
  int *d = nullptr;
  int h[8] = {};
  CHECK(cudaMalloc(&d, sizeof h) == cudaSuccess);
  // An extended __device__ lambda, which --extended-lambda allows.
  apply<<<1, 8>>>(d, [] __device__(int i) { return device_flags() * 100 + i; });
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int i = 0; i < 8; ++i)
    CHECK(h[i] == 15 * 100 + i);
  CHECK(cudaFree(d) == cudaSuccess);
  return finish();
}
