/* blas_emulation.cu: CUDA 13's floating-point emulation settings of a cuBLAS
 * handle, as NVIDIA's library samples use them: the strategy, the special
 * values and the fixed-point mantissa settings are kept and read back (bad
 * values refused), and GEMMs run with them, with the emulated compute types
 * (CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT, CUBLAS_COMPUTE_32F_EMULATED_16BFX9)
 * and with CUBLAS_GEMM_AUTOTUNE, give the GEMM's definition. All of these
 * were refused (a link error, CUBLAS_STATUS_INVALID_VALUE and
 * CUBLAS_STATUS_NOT_SUPPORTED).
 * CUEMU_OPTIONS: -lcublas */
#include <cmath>
#include <vector>

#include <cublas_v2.h>

#include "../cudalibs/check_libs.h"

namespace {

/* C = op(A) op(B) on the host, column-major, in double. */
template <typename T>
std::vector<double> reference(bool ta, bool tb, int m, int n, int k,
                              const std::vector<T> &A, int lda,
                              const std::vector<T> &B, int ldb) {
  std::vector<double> C(m * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double s = 0;
      for (int l = 0; l < k; ++l) {
        double a = ta ? A[l + i * lda] : A[i + l * lda];
        double b = tb ? B[j + l * ldb] : B[l + j * ldb];
        s += a * b;
      }
      C[i + j * m] = s;
    }
  return C;
}

/* One GemmEx of m x n x k with op(A) = A^T and the given compute type and
 * algorithm, against the reference. */
template <typename T>
void gemm_ex(cublasHandle_t h, cudaDataType type, cublasComputeType_t compute,
             cublasGemmAlgo_t algo, double tolerance, const char *what) {
  const int m = 3, n = 4, k = 5, lda = k, ldb = k, ldc = m;
  std::vector<T> A(lda * m), B(ldb * n), C(ldc * n, T(-7));
  for (size_t i = 0; i < A.size(); ++i)
    A[i] = T(0.25 * (int)(i % 7) - 0.6 + 1e-9 * i);
  for (size_t i = 0; i < B.size(); ++i)
    B[i] = T(1.5 - 0.125 * (int)(i % 11) + 1e-10 * i);
  T *dA, *dB, *dC;
  CHECK_CUDA(cudaMalloc(&dA, A.size() * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&dB, B.size() * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&dC, C.size() * sizeof(T)));
  CHECK_CUDA(cudaMemcpy(dA, A.data(), A.size() * sizeof(T), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dB, B.data(), B.size() * sizeof(T), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dC, C.data(), C.size() * sizeof(T), cudaMemcpyHostToDevice));
  const T alpha = T(1), beta = T(0);
  EXPECT_STATUS(cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, dA, type,
                             lda, dB, type, ldb, &beta, dC, type, ldc, compute, algo),
                CUBLAS_STATUS_SUCCESS);
  CHECK_CUDA(cudaMemcpy(C.data(), dC, C.size() * sizeof(T), cudaMemcpyDeviceToHost));
  std::vector<double> want = reference(true, false, m, n, k, A, lda, B, ldb);
  double worst = 0;
  for (int i = 0; i < m * n; ++i)
    worst = std::fmax(worst, std::fabs(C[i] - want[i]));
  EXPECT(worst <= tolerance, "%s: largest error %g", what, worst);
  CHECK_CUDA(cudaFree(dA));
  CHECK_CUDA(cudaFree(dB));
  CHECK_CUDA(cudaFree(dC));
}

} // namespace

int main() {
  cublasHandle_t h;
  EXPECT_STATUS(cublasCreate(&h), CUBLAS_STATUS_SUCCESS);

  /* The defaults, then each setting kept and read back. */
  cublasEmulationStrategy_t strategy = CUBLAS_EMULATION_STRATEGY_EAGER;
  EXPECT_STATUS(cublasGetEmulationStrategy(h, &strategy), CUBLAS_STATUS_SUCCESS);
  EXPECT(strategy == CUBLAS_EMULATION_STRATEGY_DEFAULT, "default strategy %d", (int)strategy);
  cudaEmulationSpecialValuesSupport mask = CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_NONE;
  EXPECT_STATUS(cublasGetEmulationSpecialValuesSupport(h, &mask), CUBLAS_STATUS_SUCCESS);
  EXPECT(mask == CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_DEFAULT, "default mask %#x", (int)mask);
  cudaEmulationMantissaControl control = CUDA_EMULATION_MANTISSA_CONTROL_FIXED;
  EXPECT_STATUS(cublasGetFixedPointEmulationMantissaControl(h, &control),
                CUBLAS_STATUS_SUCCESS);
  EXPECT(control == CUDA_EMULATION_MANTISSA_CONTROL_DYNAMIC, "default control %d", (int)control);

  EXPECT_STATUS(cublasSetEmulationStrategy(h, CUBLAS_EMULATION_STRATEGY_EAGER),
                CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasGetEmulationStrategy(h, &strategy), CUBLAS_STATUS_SUCCESS);
  EXPECT(strategy == CUBLAS_EMULATION_STRATEGY_EAGER, "strategy %d", (int)strategy);
  EXPECT_STATUS(cublasSetEmulationStrategy(h, (cublasEmulationStrategy_t)3),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasSetEmulationSpecialValuesSupport(h, CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_NAN),
                CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasGetEmulationSpecialValuesSupport(h, &mask), CUBLAS_STATUS_SUCCESS);
  EXPECT(mask == CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_NAN, "mask %#x", (int)mask);
  EXPECT_STATUS(cublasSetFixedPointEmulationMantissaControl(h, CUDA_EMULATION_MANTISSA_CONTROL_FIXED),
                CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasGetFixedPointEmulationMantissaControl(h, &control), CUBLAS_STATUS_SUCCESS);
  EXPECT(control == CUDA_EMULATION_MANTISSA_CONTROL_FIXED, "control %d", (int)control);
  EXPECT_STATUS(cublasSetFixedPointEmulationMantissaControl(h, (cudaEmulationMantissaControl)2),
                CUBLAS_STATUS_INVALID_VALUE);
  int bits = -1;
  EXPECT_STATUS(cublasSetFixedPointEmulationMaxMantissaBitCount(h, 55), CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasGetFixedPointEmulationMaxMantissaBitCount(h, &bits), CUBLAS_STATUS_SUCCESS);
  EXPECT(bits == 55, "max mantissa bits %d", bits);
  EXPECT_STATUS(cublasSetFixedPointEmulationMaxMantissaBitCount(h, -1), CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasSetFixedPointEmulationMantissaBitOffset(h, -8), CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasGetFixedPointEmulationMantissaBitOffset(h, &bits), CUBLAS_STATUS_SUCCESS);
  EXPECT(bits == -8, "mantissa offset %d", bits);
  int *used = nullptr, *got = &bits;
  CHECK_CUDA(cudaMalloc(&used, sizeof(int)));
  EXPECT_STATUS(cublasSetFixedPointEmulationMantissaBitCountPointer(h, used), CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasGetFixedPointEmulationMantissaBitCountPointer(h, &got), CUBLAS_STATUS_SUCCESS);
  EXPECT(got == used, "the mantissa bit count pointer was not kept");
  EXPECT_STATUS(cublasGetEmulationStrategy(h, (cublasEmulationStrategy_t *)nullptr), CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasSetEmulationStrategy(nullptr, CUBLAS_EMULATION_STRATEGY_EAGER),
                CUBLAS_STATUS_NOT_INITIALIZED);

  /* GEMMs with the emulation math mode and settings, the emulated compute
   * types and the autotuning algorithm: the same results as without. */
  EXPECT_STATUS(cublasSetMathMode(h, CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH), CUBLAS_STATUS_SUCCESS);
  gemm_ex<double>(h, CUDA_R_64F, CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT, CUBLAS_GEMM_DEFAULT,
                  1e-12, "64F_EMULATED_FIXEDPOINT");
  gemm_ex<double>(h, CUDA_R_64F, CUBLAS_COMPUTE_64F, CUBLAS_GEMM_AUTOTUNE, 1e-12,
                  "64F with CUBLAS_GEMM_AUTOTUNE");
  gemm_ex<double>(h, CUDA_R_64F, CUBLAS_COMPUTE_64F, CUBLAS_GEMM_AUTOTUNE, 1e-12,
                  "64F with CUBLAS_GEMM_AUTOTUNE, second call");
  gemm_ex<float>(h, CUDA_R_32F, CUBLAS_COMPUTE_32F_EMULATED_16BFX9, CUBLAS_GEMM_DEFAULT, 1e-5,
                 "32F_EMULATED_16BFX9");
  /* The emulated types take their own precision's data only. */
  EXPECT_STATUS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, &bits, used, CUDA_R_32F, 1,
                             used, CUDA_R_32F, 1, &bits, used, CUDA_R_32F, 1,
                             CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT, CUBLAS_GEMM_DEFAULT),
                CUBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_STATUS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, &bits, used, CUDA_R_32F, 1,
                             used, CUDA_R_32F, 1, &bits, used, CUDA_R_32F, 1, CUBLAS_COMPUTE_64F,
                             (cublasGemmAlgo_t)998),
                CUBLAS_STATUS_NOT_SUPPORTED);
  CHECK_CUDA(cudaFree(used));
  EXPECT_STATUS(cublasDestroy(h), CUBLAS_STATUS_SUCCESS);
  return finish();
}
