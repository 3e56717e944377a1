// sgemm_tiles.cu: three steps of a matrix-multiplication tutorial series,
// kernels in headers (sgemm/*.cuh): 1D block tiling, 2D tiling with float4
// loads into a transposed shared tile, and warp tiling (templates of nine
// parameters, __launch_bounds__ of a template argument, helpers in a
// namespace), each compared with cuBLAS's cublasGemmEx (row-major through
// the transposed product) and cuBLAS with a host loop on some rows.
// CUEMU_OPTIONS: -lcublas
#include <cublas_v2.h>
#include <cmath>
#include <cstdio>
#include <vector>

#include "sgemm/blocktiling_1d.cuh"
#include "sgemm/vectorize.cuh"
#include "sgemm/warptiling.cuh"

#define CEIL_DIV(M, N) (((M) + (N)-1) / (N))
#define cudaCheck(err) cudaCheckImpl((err), __FILE__, __LINE__)
static void cudaCheckImpl(cudaError_t error, const char *file, int line) {
  if (error != cudaSuccess) {
    printf("[CUDA ERROR] at file %s:%d:\n%s\n", file, line, cudaGetErrorString(error));
    exit(EXIT_FAILURE);
  }
}

static void run(int kernel, int M, int N, int K, float alpha, float *A, float *B, float beta,
                float *C) {
  if (kernel == 1) {
    const uint BM = 64, BN = 64, BK = 8, TM = 8;
    sgemm1DBlocktiling<BM, BN, BK, TM>
        <<<dim3(CEIL_DIV(N, BN), CEIL_DIV(M, BM)), (BM * BN) / TM>>>(M, N, K, alpha, A, B, beta, C);
  } else if (kernel == 2) {
    const uint BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
    sgemmVectorize<BM, BN, BK, TM, TN>
        <<<dim3(CEIL_DIV(N, BN), CEIL_DIV(M, BM)), (BM * BN) / (TM * TN)>>>(M, N, K, alpha, A, B,
                                                                            beta, C);
  } else {
    const uint NUM_THREADS = 128, BN = 128, BM = 128, BK = 16, WN = 64, WM = 64, WNITER = 4,
               TN = 4, TM = 8;
    static_assert((BN / WN) * (BM / WM) == NUM_THREADS / 32, "one warp per warp tile");
    static_assert((WM * WN) % (WARPSIZE * TM * TN * WNITER) == 0, "warp tile splits evenly");
    sgemmWarptiling<BM, BN, BK, WM, WN, WNITER, TM, TN, NUM_THREADS>
        <<<dim3(CEIL_DIV(N, BN), CEIL_DIV(M, BM)), NUM_THREADS>>>(M, N, K, alpha, A, B, beta, C);
  }
}

int main() {
  const int m = 256, n = 256, k = 256;
  const float alpha = 0.5f, beta = 3.0f;
  std::vector<float> A(m * k), B(k * n), C(m * n), ref(m * n), out(m * n);
  srand(17);
  for (auto *v : {&A, &B, &C})
    for (float &x : *v) {
      x = (float)(rand() % 5) + 0.01f * (rand() % 5);
      if (rand() % 2) x = -x;
    }
  float *dA, *dB, *dC, *dRef;
  cudaCheck(cudaMalloc(&dA, sizeof(float) * m * k));
  cudaCheck(cudaMalloc(&dB, sizeof(float) * k * n));
  cudaCheck(cudaMalloc(&dC, sizeof(float) * m * n));
  cudaCheck(cudaMalloc(&dRef, sizeof(float) * m * n));
  cudaCheck(cudaMemcpy(dA, A.data(), sizeof(float) * m * k, cudaMemcpyHostToDevice));
  cudaCheck(cudaMemcpy(dB, B.data(), sizeof(float) * k * n, cudaMemcpyHostToDevice));
  cudaCheck(cudaMemcpy(dRef, C.data(), sizeof(float) * m * n, cudaMemcpyHostToDevice));
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return 1;
  cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, dB, CUDA_R_32F, n, dA,
               CUDA_R_32F, k, &beta, dRef, CUDA_R_32F, n, CUBLAS_COMPUTE_32F,
               CUBLAS_GEMM_DEFAULT_TENSOR_OP);
  cudaCheck(cudaMemcpy(ref.data(), dRef, sizeof(float) * m * n, cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < m && ok; i += 37)
    for (int j = 0; j < n; j++) {
      double acc = 0;
      for (int p = 0; p < k; p++) acc += (double)A[i * k + p] * B[p * n + j];
      if (std::fabs(alpha * acc + beta * C[i * n + j] - ref[i * n + j]) > 0.01) {
        printf("cuBLAS differs from the host at (%d,%d)\n", i, j);
        ok = false;
        break;
      }
    }
  for (int kernel = 1; kernel <= 3; kernel++) {
    cudaCheck(cudaMemcpy(dC, C.data(), sizeof(float) * m * n, cudaMemcpyHostToDevice));
    run(kernel, m, n, k, alpha, dA, dB, beta, dC);
    cudaCheck(cudaGetLastError());
    cudaCheck(cudaMemcpy(out.data(), dC, sizeof(float) * m * n, cudaMemcpyDeviceToHost));
    for (int i = 0; i < m * n; i++)
      if (std::fabs(ref[i] - out[i]) > 0.01) {
        printf("kernel %d: should %5.2f, is %5.2f at %d\n", kernel, ref[i], out[i], i);
        ok = false;
        break;
      }
  }
  cublasDestroy(handle);
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
  cudaFree(dRef);
  printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
