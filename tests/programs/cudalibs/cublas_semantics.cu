/* cublas_semantics.cu: the corners of cuBLAS's documented semantics that a
 * library port relies on: alpha and beta in device memory read when the
 * GEMM runs (after the stream's earlier writes, before its later ones),
 * beta 0 over NaN, k == 0 (C = beta C), m == 0 (nothing, not even NULL
 * pointers read), lda below max(1, rows) for each transpose, iamax ties,
 * nrm2 without overflow and with NaN, axpy and level 2 with alpha 0 over NaN
 * (y = beta y, A unchanged), a dot result in device memory
 * written in stream order, strided batched GEMM with stride 0 (one A for
 * every batch), GemmEx with CUBLAS_COMPUTE_32F_FAST_TF32 and
 * CUBLAS_COMPUTE_16F (under cuemu, also that the FAST compute types and
 * CUBLAS_TF32_TENSOR_OP_MATH round the inputs as tensor cores do),
 * cublasSetStream(NULL), cublasDestroy with work still queued, one handle used
 * by two host threads at once, and a GEMM captured many times over, then
 * replayed after its handle is destroyed. CUEMU_OPTIONS: -lcublas */
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include <cublas_v2.h>
#include <cuda_fp16.h>

#include "check_libs.h"

/* A host function that holds its stream for a while, so that the calls
 * after it are made before the stream gets to them. */
static void CUDART_CB hold(void *) {
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
}

__global__ void set_value(float *p, float v) { *p = v; }

/* C = alpha A B with alpha in device memory: a kernel queued before the
 * GEMM sets it to 2, one queued after it sets 5; the GEMM must see 2. */
static void device_scalars_in_order(cublasHandle_t h, cudaStream_t s) {
  const int n = 4;
  std::vector<float> A(n * n), B(n * n, 0.0f), C(n * n, 7.0f);
  for (int i = 0; i < n * n; ++i)
    A[i] = (float)(i + 1);
  for (int i = 0; i < n; ++i)
    B[i + i * n] = 1.0f; /* identity */
  float *dA, *dB, *dC, *dScal;
  CHECK_CUDA(cudaMalloc(&dA, n * n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dB, n * n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dC, n * n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dScal, 2 * sizeof(float)));
  CHECK_CUDA(
      cudaMemcpy(dA, A.data(), n * n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(
      cudaMemcpy(dB, B.data(), n * n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(
      cudaMemcpy(dC, C.data(), n * n * sizeof(float), cudaMemcpyHostToDevice));
  const float init[2] = {1.0f, 0.0f}; /* alpha 1, beta 0 at the call */
  CHECK_CUDA(cudaMemcpy(dScal, init, sizeof init, cudaMemcpyHostToDevice));
  EXPECT_STATUS(cublasSetStream(h, s), CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE),
                CUBLAS_STATUS_SUCCESS);
  CHECK_CUDA(cudaLaunchHostFunc(s, hold, nullptr));
  set_value<<<1, 1, 0, s>>>(dScal, 2.0f);
  set_value<<<1, 1, 0, s>>>(dScal + 1, 1.0f);
  EXPECT_STATUS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, dScal, dA, n,
                            dB, n, dScal + 1, dC, n),
                CUBLAS_STATUS_SUCCESS);
  set_value<<<1, 1, 0, s>>>(dScal, 5.0f);
  CHECK_CUDA(cudaStreamSynchronize(s));
  CHECK_CUDA(
      cudaMemcpy(C.data(), dC, n * n * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n * n; ++i)
    bad += C[i] != 2.0f * A[i] + 7.0f;
  EXPECT(bad == 0,
         "device alpha/beta read in stream order: C[0] = %g, "
         "expected %g",
         C[0], 2.0f * A[0] + 7.0f);

  /* A dot product into device memory, written when it runs: a copy queued
   * after it on the stream sees it. */
  float *dRes, res = -1.0f;
  CHECK_CUDA(cudaMalloc(&dRes, sizeof(float)));
  CHECK_CUDA(cudaLaunchHostFunc(s, hold, nullptr));
  EXPECT_STATUS(cublasSdot(h, n, dA, 1, dA, 1, dRes), CUBLAS_STATUS_SUCCESS);
  CHECK_CUDA(
      cudaMemcpyAsync(&res, dRes, sizeof(float), cudaMemcpyDeviceToHost, s));
  CHECK_CUDA(cudaStreamSynchronize(s));
  EXPECT(res == 1.0f + 4.0f + 9.0f + 16.0f, "device dot: %g", res);
  EXPECT_STATUS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST),
                CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasSetStream(h, nullptr), CUBLAS_STATUS_SUCCESS);
  cudaStream_t got = s;
  EXPECT_STATUS(cublasGetStream(h, &got), CUBLAS_STATUS_SUCCESS);
  EXPECT(got == nullptr, "cublasSetStream(NULL): the default stream");
  cudaFree(dA), cudaFree(dB), cudaFree(dC), cudaFree(dScal), cudaFree(dRes);
}

/* beta 0 over NaN, k == 0, m == 0, and the leading-dimension rules. */
static void gemm_corners(cublasHandle_t h) {
  const int m = 3, n = 2, k = 4;
  std::vector<double> A(m * k, 1.0), B(k * n, 2.0), C(m * n, NAN);
  double *dA, *dB, *dC;
  CHECK_CUDA(cudaMalloc(&dA, A.size() * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&dB, B.size() * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&dC, C.size() * sizeof(double)));
  CHECK_CUDA(cudaMemcpy(dA, A.data(), A.size() * sizeof(double),
                        cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dB, B.data(), B.size() * sizeof(double),
                        cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dC, C.data(), C.size() * sizeof(double),
                        cudaMemcpyHostToDevice));
  const double one = 1.0, zero = 0.0, three = 3.0;
  EXPECT_STATUS(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, dA, m,
                            dB, k, &zero, dC, m),
                CUBLAS_STATUS_SUCCESS);
  CHECK_CUDA(cudaMemcpy(C.data(), dC, C.size() * sizeof(double),
                        cudaMemcpyDeviceToHost));
  EXPECT(C[0] == 8.0 && C[m * n - 1] == 8.0, "beta 0 over NaN: %g %g", C[0],
         C[m * n - 1]);
  /* k == 0: C = beta C; A and B are not read (NULL). */
  EXPECT_STATUS(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, 0, &one, nullptr,
                            m, nullptr, 1, &three, dC, m),
                CUBLAS_STATUS_SUCCESS);
  CHECK_CUDA(cudaMemcpy(C.data(), dC, C.size() * sizeof(double),
                        cudaMemcpyDeviceToHost));
  EXPECT(C[0] == 24.0 && C[m * n - 1] == 24.0, "k == 0: C = beta C: %g", C[0]);
  /* m == 0 or n == 0: success, nothing read or written. */
  EXPECT_STATUS(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 0, n, k, &one, nullptr,
                            1, nullptr, k, &zero, nullptr, 1),
                CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, 0, k, &one, nullptr,
                            m, nullptr, k, &zero, nullptr, m),
                CUBLAS_STATUS_SUCCESS);
  /* lda >= max(1, m) for A not transposed, max(1, k) transposed; ldb
   * likewise with k and n; ldc >= max(1, m). */
  EXPECT_STATUS(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, dA,
                            m - 1, dB, k, &zero, dC, m),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasDgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &one, dA,
                            k - 1, dB, k, &zero, dC, m),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasDgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &one, dA, k,
                            dB, k, &zero, dC, m),
                CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, m, n, k, &one, dA, m,
                            dB, n - 1, &zero, dC, m),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, dA, m,
                            dB, k, &zero, dC, m - 1),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 0, n, k, &one, dA, 0,
                            dB, k, &zero, dC, 0),
                CUBLAS_STATUS_INVALID_VALUE);
  CHECK_CUDA(cudaDeviceSynchronize());
  cudaFree(dA), cudaFree(dB), cudaFree(dC);
}

/* iamax: 1-based, ties to the lowest index; nrm2: no overflow for large
 * values, NaN for a NaN among zeros, +inf for an infinity. */
static void level1_corners(cublasHandle_t h) {
  const double x[6] = {1.0, -3.0, 2.0, 3.0, -3.0, 0.5};
  double *dx;
  CHECK_CUDA(cudaMalloc(&dx, sizeof x));
  CHECK_CUDA(cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice));
  int index = 0;
  EXPECT_STATUS(cublasIdamax(h, 6, dx, 1, &index), CUBLAS_STATUS_SUCCESS);
  EXPECT(index == 2, "idamax ties: %d, expected 2", index);
  EXPECT_STATUS(cublasIdamin(h, 6, dx, 1, &index), CUBLAS_STATUS_SUCCESS);
  EXPECT(index == 6, "idamin: %d, expected 6", index);
  EXPECT_STATUS(cublasIdamax(h, 3, dx, 2, &index), CUBLAS_STATUS_SUCCESS);
  EXPECT(index == 3, "idamax with incx 2: %d, expected 3", index);

  const double big[3] = {3e200, 4e200, 0.0};
  const double nan_zero[3] = {0.0, NAN, 0.0};
  const double inf_one[3] = {1.0, INFINITY, 2.0};
  double r = 0;
  CHECK_CUDA(cudaMemcpy(dx, big, sizeof big, cudaMemcpyHostToDevice));
  EXPECT_STATUS(cublasDnrm2(h, 3, dx, 1, &r), CUBLAS_STATUS_SUCCESS);
  EXPECT(std::fabs(r / 5e200 - 1.0) < 1e-14, "dnrm2 of 3e200, 4e200: %g", r);
  float *fx;
  const float fbig[2] = {3e30f, 4e30f};
  float fr = 0;
  CHECK_CUDA(cudaMalloc(&fx, sizeof fbig));
  CHECK_CUDA(cudaMemcpy(fx, fbig, sizeof fbig, cudaMemcpyHostToDevice));
  EXPECT_STATUS(cublasSnrm2(h, 2, fx, 1, &fr), CUBLAS_STATUS_SUCCESS);
  EXPECT(std::fabs(fr / 5e30f - 1.0f) < 1e-6f, "snrm2 of 3e30, 4e30: %g", fr);
  CHECK_CUDA(cudaMemcpy(dx, nan_zero, sizeof nan_zero, cudaMemcpyHostToDevice));
  EXPECT_STATUS(cublasDnrm2(h, 3, dx, 1, &r), CUBLAS_STATUS_SUCCESS);
  EXPECT(std::isnan(r), "dnrm2 of {0, NaN, 0}: %g, expected NaN", r);
  CHECK_CUDA(cudaMemcpy(dx, inf_one, sizeof inf_one, cudaMemcpyHostToDevice));
  EXPECT_STATUS(cublasDnrm2(h, 3, dx, 1, &r), CUBLAS_STATUS_SUCCESS);
  EXPECT(std::isinf(r) && r > 0, "dnrm2 of {1, inf, 2}: %g", r);
  /* axpy with alpha 0: y unchanged, NaN in x not read. */
  const double y3[3] = {1.0, 2.0, 3.0};
  double *dy, y[3], zero = 0.0;
  CHECK_CUDA(cudaMalloc(&dy, sizeof y3));
  CHECK_CUDA(cudaMemcpy(dy, y3, sizeof y3, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dx, nan_zero, sizeof nan_zero, cudaMemcpyHostToDevice));
  EXPECT_STATUS(cublasDaxpy(h, 3, &zero, dx, 1, dy, 1), CUBLAS_STATUS_SUCCESS);
  CHECK_CUDA(cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost));
  EXPECT(y[1] == 2.0, "daxpy with alpha 0 and NaN in x: y[1] = %g", y[1]);
  cudaFree(dy);
  cudaFree(dx), cudaFree(fx);
}

/* Level 2 with alpha 0: gemv and symv give y = beta y, ger leaves A, even
 * with NaN in A or x (BLAS reads neither). */
static void level2_alpha_zero(cublasHandle_t h) {
  const int n = 3;
  std::vector<float> A(n * n, NAN), x(n, NAN), y(n, 2.0f);
  float *d;
  CHECK_CUDA(cudaMalloc(&d, (n * n + 2 * n) * sizeof(float)));
  float *dA = d, *dx = d + n * n, *dy = dx + n;
  CHECK_CUDA(
      cudaMemcpy(dA, A.data(), n * n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(
      cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(
      cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  const float zero = 0.0f, three = 3.0f;
  EXPECT_STATUS(
      cublasSgemv(h, CUBLAS_OP_N, n, n, &zero, dA, n, dx, 1, &three, dy, 1),
      CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasSsymv(h, CUBLAS_FILL_MODE_LOWER, n, &zero, dA, n, dx, 1,
                            &three, dy, 1),
                CUBLAS_STATUS_SUCCESS);
  CHECK_CUDA(
      cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  EXPECT(y[0] == 18.0f && y[n - 1] == 18.0f,
         "gemv, symv with alpha 0 and NaN in A: y[0] = %g, expected 18", y[0]);
  /* ger with alpha 0 and NaN in x: A (now 1) unchanged. */
  std::vector<float> ones(n * n, 1.0f);
  CHECK_CUDA(cudaMemcpy(dA, ones.data(), n * n * sizeof(float),
                        cudaMemcpyHostToDevice));
  EXPECT_STATUS(cublasSger(h, n, n, &zero, dx, 1, dy, 1, dA, n),
                CUBLAS_STATUS_SUCCESS);
  CHECK_CUDA(
      cudaMemcpy(A.data(), dA, n * n * sizeof(float), cudaMemcpyDeviceToHost));
  EXPECT(A[0] == 1.0f && A[n * n - 1] == 1.0f,
         "ger with alpha 0 and NaN in x: A[0] = %g, expected 1", A[0]);
  cudaFree(d);
}

/* Strided batched GEMM with stride 0 for A: every batch multiplies the
 * one A; and GemmEx with TF32 and 16-bit compute. */
static void strided_and_ex(cublasHandle_t h) {
  const int n = 2, batch = 3;
  const float A[4] = {1, 2, 3, 4};
  std::vector<float> B(n * n * batch), C(n * n * batch, 0.0f);
  for (int b = 0; b < batch; ++b)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        B[b * n * n + i + j * n] = i == j ? (float)(b + 1) : 0.0f;
  float *dA, *dB, *dC;
  CHECK_CUDA(cudaMalloc(&dA, sizeof A));
  CHECK_CUDA(cudaMalloc(&dB, B.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dC, C.size() * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(dA, A, sizeof A, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dB, B.data(), B.size() * sizeof(float),
                        cudaMemcpyHostToDevice));
  const float one = 1.0f, zero = 0.0f;
  EXPECT_STATUS(cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n,
                                          &one, dA, n, 0, dB, n, n * n, &zero,
                                          dC, n, n * n, batch),
                CUBLAS_STATUS_SUCCESS);
  CHECK_CUDA(cudaMemcpy(C.data(), dC, C.size() * sizeof(float),
                        cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < batch; ++b)
    for (int i = 0; i < n * n; ++i)
      bad += C[b * n * n + i] != A[i] * (float)(b + 1);
  EXPECT(bad == 0, "strided batched with stride 0 for A: %d wrong", bad);

  EXPECT_STATUS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, dA,
                             CUDA_R_32F, n, dB, CUDA_R_32F, n, &zero, dC,
                             CUDA_R_32F, n, CUBLAS_COMPUTE_32F_FAST_TF32,
                             CUBLAS_GEMM_DEFAULT),
                CUBLAS_STATUS_SUCCESS);
  CHECK_CUDA(
      cudaMemcpy(C.data(), dC, n * n * sizeof(float), cudaMemcpyDeviceToHost));
  EXPECT(C[0] == 1.0f && C[3] == 4.0f, "GemmEx TF32: %g %g", C[0], C[3]);
#ifdef CUEMU_VERSION
  /* cuemu's choice where cuBLAS "allows" reduced precision: always taken.
   * 1 + 2^-12 is 1 in TF32 (10 mantissa bits) and in bfloat16, and 1 +
   * 2^-12 + 2^-11 ... stays 1 + 2^-11 in half; so with B = I, C shows how
   * A was rounded. PEDANTIC and NVIDIA_TF32_OVERRIDE=0 keep float. */
  {
    const float x = 1.0f + 1.0f / 4096.0f, y = 1.0f + 3.0f / 4096.0f;
    const float A2[4] = {x, y, x, y}, I2[4] = {1, 0, 0, 1};
    CHECK_CUDA(cudaMemcpy(dA, A2, sizeof A2, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dB, I2, sizeof I2, cudaMemcpyHostToDevice));
    struct {
      cublasComputeType_t compute;
      float want0, want1;
    } rows[] = {{CUBLAS_COMPUTE_32F_FAST_TF32, 1.0f, 1.0f + 2.0f / 2048.0f},
                {CUBLAS_COMPUTE_32F_FAST_16BF, 1.0f, 1.0f},
                {CUBLAS_COMPUTE_32F_FAST_16F, 1.0f, 1.0f + 2.0f / 2048.0f},
                {CUBLAS_COMPUTE_32F_PEDANTIC, x, y},
                {CUBLAS_COMPUTE_32F, x, y}};
    for (auto &r : rows) {
      EXPECT_STATUS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, dA,
                                 CUDA_R_32F, n, dB, CUDA_R_32F, n, &zero, dC,
                                 CUDA_R_32F, n, r.compute, CUBLAS_GEMM_DEFAULT),
                    CUBLAS_STATUS_SUCCESS);
      CHECK_CUDA(cudaMemcpy(C.data(), dC, n * n * sizeof(float),
                            cudaMemcpyDeviceToHost));
      EXPECT(C[0] == r.want0 && C[1] == r.want1,
             "compute type %d: C = %.9g %.9g, expected %.9g %.9g",
             (int)r.compute, C[0], C[1], r.want0, r.want1);
    }
    /* The math mode: TF32 for Sgemm; then the override turns it off. */
    EXPECT_STATUS(cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH),
                  CUBLAS_STATUS_SUCCESS);
    for (int pass = 0; pass < 2; ++pass) {
      if (pass == 1)
        setenv("NVIDIA_TF32_OVERRIDE", "0", 1);
      EXPECT_STATUS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, dA,
                                n, dB, n, &zero, dC, n),
                    CUBLAS_STATUS_SUCCESS);
      CHECK_CUDA(cudaMemcpy(C.data(), dC, n * n * sizeof(float),
                            cudaMemcpyDeviceToHost));
      EXPECT(C[0] == (pass == 0 ? 1.0f : x),
             "Sgemm, CUBLAS_TF32_TENSOR_OP_MATH, pass %d: C[0] = %.9g", pass,
             C[0]);
    }
    unsetenv("NVIDIA_TF32_OVERRIDE");
    EXPECT_STATUS(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH),
                  CUBLAS_STATUS_SUCCESS);
  }
#endif
  /* CUBLAS_COMPUTE_16F takes half scalars; float ones are refused by
   * type, half matrices with float C are not in its row. */
  EXPECT_STATUS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, dA,
                             CUDA_R_16F, n, dB, CUDA_R_16F, n, &zero, dC,
                             CUDA_R_32F, n, CUBLAS_COMPUTE_16F,
                             CUBLAS_GEMM_DEFAULT),
                CUBLAS_STATUS_NOT_SUPPORTED);
  __half hA[4], hB[4], hC[4], hone = __float2half(1.0f),
                              hzero = __float2half(0.0f);
  for (int i = 0; i < 4; ++i)
    hA[i] = __float2half(A[i]), hB[i] = __float2half(i == 0 || i == 3 ? 2 : 0);
  __half *dh;
  CHECK_CUDA(cudaMalloc(&dh, 3 * sizeof hA));
  CHECK_CUDA(cudaMemcpy(dh, hA, sizeof hA, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dh + 4, hB, sizeof hB, cudaMemcpyHostToDevice));
  EXPECT_STATUS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &hone, dh,
                             CUDA_R_16F, n, dh + 4, CUDA_R_16F, n, &hzero,
                             dh + 8, CUDA_R_16F, n, CUBLAS_COMPUTE_16F,
                             CUBLAS_GEMM_DEFAULT),
                CUBLAS_STATUS_SUCCESS);
  CHECK_CUDA(cudaMemcpy(hC, dh + 8, sizeof hC, cudaMemcpyDeviceToHost));
  EXPECT(__half2float(hC[0]) == 2.0f && __half2float(hC[3]) == 8.0f,
         "GemmEx 16F: %g %g", __half2float(hC[0]), __half2float(hC[3]));
  cudaFree(dA), cudaFree(dB), cudaFree(dC), cudaFree(dh);
}

/* One thread's share of work on a handle that another thread uses at the
 * same time (cuBLAS allows it): GEMMs C = A * 2I and dot products with the
 * result in host memory, each checked. */
static void shared_handle_work(cublasHandle_t h, int id, int *bad) {
  const int m = 8, rounds = 30;
  std::vector<float> A(m * m), B(m * m, 0.0f), C(m * m);
  for (int i = 0; i < m * m; ++i)
    A[i] = (float)(i % 7 + id);
  for (int i = 0; i < m; ++i)
    B[i + i * m] = 2.0f;
  float *d;
  CHECK_CUDA(cudaMalloc(&d, 3 * m * m * sizeof(float)));
  CHECK_CUDA(
      cudaMemcpy(d, A.data(), m * m * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d + m * m, B.data(), m * m * sizeof(float),
                        cudaMemcpyHostToDevice));
  float want = 0;
  for (int i = 0; i < m; ++i)
    want += A[i] * A[i];
  const float one = 1.0f, zero = 0.0f;
  for (int r = 0; r < rounds; ++r) {
    float dot = -1;
    *bad +=
        cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, m, m, &one, d, m, d + m * m,
                    m, &zero, d + 2 * m * m, m) != CUBLAS_STATUS_SUCCESS;
    *bad += cublasSdot(h, m, d, 1, d, 1, &dot) != CUBLAS_STATUS_SUCCESS;
    *bad += dot != want;
  }
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(C.data(), d + 2 * m * m, m * m * sizeof(float),
                        cudaMemcpyDeviceToHost));
  for (int i = 0; i < m * m; ++i)
    *bad += C[i] != 2.0f * A[i];
  cudaFree(d);
}

static void two_threads(cublasHandle_t h) {
  int bad[2] = {0, 0};
  std::thread t0(shared_handle_work, h, 0, &bad[0]);
  std::thread t1(shared_handle_work, h, 1, &bad[1]);
  t0.join();
  t1.join();
  EXPECT(bad[0] == 0 && bad[1] == 0, "one handle, two threads: %d, %d wrong",
         bad[0], bad[1]);
}

/* A GEMM captured into a graph many times over (each graph destroyed),
 * then once more and replayed after cublasDestroy: the graph owns what it
 * replays, as a GPU's graph keeps its kernels' arguments. cublasDestroy
 * also waits for work still queued behind a held stream. */
static void graphs_and_destroy(cudaStream_t s) {
  const int m = 4;
  cublasHandle_t h;
  EXPECT_STATUS(cublasCreate(&h), CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasSetStream(h, s), CUBLAS_STATUS_SUCCESS);
  std::vector<float> A(m * m), I(m * m, 0.0f), C(m * m);
  for (int i = 0; i < m * m; ++i)
    A[i] = (float)i;
  for (int i = 0; i < m; ++i)
    I[i + i * m] = 1.0f;
  float *d;
  CHECK_CUDA(cudaMalloc(&d, 3 * m * m * sizeof(float)));
  CHECK_CUDA(
      cudaMemcpy(d, A.data(), m * m * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d + m * m, I.data(), m * m * sizeof(float),
                        cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(d + 2 * m * m, 0, m * m * sizeof(float)));
  const float one = 1.0f;
  cudaGraph_t graph = nullptr;
  for (int r = 0; r < 200; ++r) {
    if (graph)
      CHECK_CUDA(cudaGraphDestroy(graph));
    CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    /* C += A I with alpha and beta 1 (copied at the call). */
    EXPECT_STATUS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, m, m, &one, d, m,
                              d + m * m, m, &one, d + 2 * m * m, m),
                  CUBLAS_STATUS_SUCCESS);
    CHECK_CUDA(cudaStreamEndCapture(s, &graph));
  }
  cudaGraphExec_t exec;
  CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  CHECK_CUDA(cudaGraphDestroy(graph));
  /* Work queued behind a held stream when cublasDestroy comes. */
  CHECK_CUDA(cudaLaunchHostFunc(s, hold, nullptr));
  EXPECT_STATUS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, m, m, &one, d, m,
                            d + m * m, m, &one, d + 2 * m * m, m),
                CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasDestroy(h), CUBLAS_STATUS_SUCCESS);
  CHECK_CUDA(cudaMemcpy(C.data(), d + 2 * m * m, m * m * sizeof(float),
                        cudaMemcpyDeviceToHost));
  EXPECT(C[5] == A[5], "cublasDestroy waits for queued work: %g", C[5]);
  /* Whatever the freed handle's memory now holds, the graph replays. */
  std::vector<void *> clobber;
  for (int i = 0; i < 64; ++i) {
    clobber.push_back(std::malloc(256));
    std::memset(clobber.back(), 0xa5, 256);
  }
  CHECK_CUDA(cudaGraphLaunch(exec, s));
  CHECK_CUDA(cudaGraphLaunch(exec, s));
  CHECK_CUDA(cudaStreamSynchronize(s));
  for (void *p : clobber)
    std::free(p);
  CHECK_CUDA(cudaMemcpy(C.data(), d + 2 * m * m, m * m * sizeof(float),
                        cudaMemcpyDeviceToHost));
  EXPECT(C[5] == 3.0f * A[5],
         "graph replayed after cublasDestroy: %g, "
         "expected %g",
         C[5], 3.0f * A[5]);
  CHECK_CUDA(cudaGraphExecDestroy(exec));
  cudaFree(d);
}

int main() {
  cublasHandle_t h;
  EXPECT_STATUS(cublasCreate(&h), CUBLAS_STATUS_SUCCESS);
  cudaStream_t s;
  CHECK_CUDA(cudaStreamCreate(&s));
  device_scalars_in_order(h, s);
  gemm_corners(h);
  level1_corners(h);
  level2_alpha_zero(h);
  strided_and_ex(h);
  two_threads(h);
  EXPECT_STATUS(cublasDestroy(h), CUBLAS_STATUS_SUCCESS);
  graphs_and_destroy(s);
  CHECK_CUDA(cudaStreamDestroy(s));
  return finish();
}
