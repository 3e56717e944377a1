/* host_cxx11.cpp: host code that the host compiler compiles itself in
 * C++11 (CMake's CXX language with CMAKE_CXX_STANDARD 11, as NVIDIA's
 * library samples set it), including the runtime's and the libraries'
 * headers from the toolkit's include folder and linking CUDA::cudart and
 * CUDA::curand: cuRAND's host and device generators agree, and a complex
 * value's magnitude comes from <cuComplex.h>. <cuda.h> comes first, as the
 * CIS 565 course projects' common.h includes it before <cuda_runtime.h>
 * in main.cpp, which FindCUDA's cuda_add_executable compiles with
 * -std=gnu++11 (the driver API's graph nodes used std::remove_cv_t). */
#include <cmath>
#include <cstdio>
#include <vector>

#include <cuda.h>
#include <cuComplex.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cufft.h>
#include <curand.h>
#include <cusolverDn.h>
#include <cusparse.h>

static int failures = 0;

static void expect(bool ok, const char *what) {
  if (!ok) {
    std::printf("FAILED: %s\n", what);
    ++failures;
  }
}

int main() {
#if __cplusplus != 201103L
  expect(false, "not compiled as C++11");
#endif
  const size_t n = 64;
  std::vector<float> host(n), device(n);
  curandGenerator_t gen = nullptr;
  expect(curandCreateGeneratorHost(&gen, CURAND_RNG_PSEUDO_PHILOX4_32_10) ==
             CURAND_STATUS_SUCCESS, "curandCreateGeneratorHost");
  curandSetPseudoRandomGeneratorSeed(gen, 42ULL);
  expect(curandGenerateUniform(gen, host.data(), n) == CURAND_STATUS_SUCCESS,
         "host generation");
  curandDestroyGenerator(gen);

  float *d = nullptr;
  expect(cudaMalloc(reinterpret_cast<void **>(&d), n * sizeof(float)) == cudaSuccess,
         "cudaMalloc");
  expect(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_PHILOX4_32_10) ==
             CURAND_STATUS_SUCCESS, "curandCreateGenerator");
  curandSetPseudoRandomGeneratorSeed(gen, 42ULL);
  expect(curandGenerateUniform(gen, d, n) == CURAND_STATUS_SUCCESS, "device generation");
  expect(cudaMemcpy(device.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost) ==
             cudaSuccess, "cudaMemcpy");
  curandDestroyGenerator(gen);
  cudaFree(d);
  for (size_t i = 0; i < n; ++i)
    if (host[i] != device[i] || !(host[i] > 0.0f && host[i] <= 1.0f)) {
      expect(false, "the host and device generators differ");
      break;
    }

  cuDoubleComplex z = make_cuDoubleComplex(3.0, -4.0);
  expect(std::fabs(cuCabs(z) - 5.0) < 1e-15, "cuCabs");
  if (failures == 0)
    std::printf("PASS\n");
  return failures != 0;
}
