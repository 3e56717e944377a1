/* cublas_gemm.cu: cuBLAS GEMM in the style of matrixMulCUBLAS and
 * batchCUBLAS: SGEMM and DGEMM against a host reference for every pair of
 * transposes with odd sizes and padded leading dimensions, CGEMM, beta 0
 * over a C full of NaN, batched and strided batched forms, GemmEx with half
 * inputs, Hgemm, alpha and beta in device memory, and a GEMM captured
 * into a graph and replayed, ordered with a kernel on the stream.
 * CUEMU_OPTIONS: -lcublas */
#include <cmath>
#include <complex>
#include <vector>

#include <cublas_v2.h>
#include <cuda_fp16.h>

#include "check_libs.h"

static const cublasOperation_t ops[3] = {CUBLAS_OP_N, CUBLAS_OP_T,
                                         CUBLAS_OP_C};

/* A deterministic value for element i of matrix `which`. */
static double value(int which, long i) {
  return std::sin(0.37 * (double)i + 1.3 * which) * 2.0;
}

template <typename T>
static void fill(std::vector<T> &v, int which) {
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = (T)value(which, (long)i);
}

/* The host reference: C = alpha op(A) op(B) + beta C, column-major. */
template <typename T>
static void reference(cublasOperation_t ta, cublasOperation_t tb, int m,
                      int n, int k, T alpha, const std::vector<T> &A, int lda,
                      const std::vector<T> &B, int ldb, T beta,
                      std::vector<T> &C, int ldc) {
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double s = 0;
      for (int p = 0; p < k; ++p) {
        double a = ta == CUBLAS_OP_N ? A[i + (size_t)p * lda]
                                     : A[p + (size_t)i * lda];
        double b = tb == CUBLAS_OP_N ? B[p + (size_t)j * ldb]
                                     : B[j + (size_t)p * ldb];
        s += a * b;
      }
      T &c = C[i + (size_t)j * ldc];
      c = (T)(alpha * s + (beta == (T)0 ? 0 : beta * c));
    }
}

template <typename T>
static void gemm_call(cublasHandle_t h, cublasOperation_t ta,
                      cublasOperation_t tb, int m, int n, int k,
                      const T *alpha, const T *A, int lda, const T *B, int ldb,
                      const T *beta, T *C, int ldc);
template <>
void gemm_call<float>(cublasHandle_t h, cublasOperation_t ta,
                      cublasOperation_t tb, int m, int n, int k,
                      const float *alpha, const float *A, int lda,
                      const float *B, int ldb, const float *beta, float *C,
                      int ldc) {
  EXPECT_STATUS(cublasSgemm(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta,
                            C, ldc),
                CUBLAS_STATUS_SUCCESS);
}
template <>
void gemm_call<double>(cublasHandle_t h, cublasOperation_t ta,
                       cublasOperation_t tb, int m, int n, int k,
                       const double *alpha, const double *A, int lda,
                       const double *B, int ldb, const double *beta,
                       double *C, int ldc) {
  EXPECT_STATUS(cublasDgemm(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta,
                            C, ldc),
                CUBLAS_STATUS_SUCCESS);
}

/* Every pair of transposes, odd sizes, padded leading dimensions. */
template <typename T>
static void gemm_all_transposes(cublasHandle_t h, double tol) {
  const int m = 37, n = 29, k = 41;
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) {
      cublasOperation_t ta = ops[a], tb = ops[b];
      int arows = ta == CUBLAS_OP_N ? m : k, acols = ta == CUBLAS_OP_N ? k : m;
      int brows = tb == CUBLAS_OP_N ? k : n, bcols = tb == CUBLAS_OP_N ? n : k;
      int lda = arows + 3, ldb = brows + 1, ldc = m + 5;
      std::vector<T> A((size_t)lda * acols), B((size_t)ldb * bcols),
          C((size_t)ldc * n);
      fill(A, 1), fill(B, 2), fill(C, 3);
      T alpha = (T)1.5, beta = (T)-0.5;
      T *dA, *dB, *dC;
      CHECK_CUDA(cudaMalloc(&dA, A.size() * sizeof(T)));
      CHECK_CUDA(cudaMalloc(&dB, B.size() * sizeof(T)));
      CHECK_CUDA(cudaMalloc(&dC, C.size() * sizeof(T)));
      EXPECT_STATUS(cublasSetMatrix(arows, acols, sizeof(T), A.data(), lda,
                                    dA, lda),
                    CUBLAS_STATUS_SUCCESS);
      CHECK_CUDA(cudaMemcpy(dB, B.data(), B.size() * sizeof(T),
                            cudaMemcpyHostToDevice));
      CHECK_CUDA(cudaMemcpy(dC, C.data(), C.size() * sizeof(T),
                            cudaMemcpyHostToDevice));
      gemm_call<T>(h, ta, tb, m, n, k, &alpha, dA, lda, dB, ldb, &beta, dC,
                   ldc);
      std::vector<T> got(C.size());
      /* All ldc rows, to see the padding too. */
      EXPECT_STATUS(cublasGetMatrix(ldc, n, sizeof(T), dC, ldc, got.data(),
                                    ldc),
                    CUBLAS_STATUS_SUCCESS);
      reference(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
      double worst = 0;
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < ldc; ++i) {
          size_t at = i + (size_t)j * ldc;
          /* Rows past m (the padding) must be untouched. */
          double want = i < m ? (double)C[at] : value(3, (long)at);
          if (i >= m)
            want = (double)(T)want;
          worst = std::fmax(worst, std::fabs((double)got[at] - want));
        }
      EXPECT(worst <= tol, "%s gemm op %d/%d: max error %g",
             sizeof(T) == 4 ? "S" : "D", a, b, worst);
      cudaFree(dA), cudaFree(dB), cudaFree(dC);
    }
}

/* beta == 0: C is not read, so the NaN there does not propagate. */
static void beta_zero_ignores_nan(cublasHandle_t h) {
  const int n = 8;
  std::vector<float> A(n * n, 1.0f), C(n * n, NAN);
  float *dA, *dC;
  CHECK_CUDA(cudaMalloc(&dA, n * n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dC, n * n * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(dA, A.data(), n * n * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dC, C.data(), n * n * 4, cudaMemcpyHostToDevice));
  float alpha = 2.0f, beta = 0.0f;
  EXPECT_STATUS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, dA,
                            n, dA, n, &beta, dC, n),
                CUBLAS_STATUS_SUCCESS);
  CHECK_CUDA(cudaMemcpy(C.data(), dC, n * n * 4, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (float v : C)
    bad += v != 2.0f * n;
  EXPECT(bad == 0, "%d elements of C are not %d after beta = 0 over NaN", bad,
         2 * n);
  cudaFree(dA), cudaFree(dC);
}

/* CGEMM with conjugate transposes, against a std::complex reference. */
static void cgemm(cublasHandle_t h) {
  const int m = 5, n = 4, k = 3;
  std::vector<cuComplex> A(k * m), B(k * n), C(m * n);
  for (size_t i = 0; i < A.size(); ++i)
    A[i] = make_cuComplex((float)value(4, i), (float)value(5, i));
  for (size_t i = 0; i < B.size(); ++i)
    B[i] = make_cuComplex((float)value(6, i), (float)value(7, i));
  cuComplex *dA, *dB, *dC;
  CHECK_CUDA(cudaMalloc(&dA, A.size() * sizeof(cuComplex)));
  CHECK_CUDA(cudaMalloc(&dB, B.size() * sizeof(cuComplex)));
  CHECK_CUDA(cudaMalloc(&dC, C.size() * sizeof(cuComplex)));
  cudaMemcpy(dA, A.data(), A.size() * sizeof(cuComplex), cudaMemcpyHostToDevice);
  cudaMemcpy(dB, B.data(), B.size() * sizeof(cuComplex), cudaMemcpyHostToDevice);
  cuComplex alpha = make_cuComplex(1.0f, 0.5f), beta = make_cuComplex(0, 0);
  /* C = alpha A^H B^T: A is k x m, B is n x k. */
  EXPECT_STATUS(cublasCgemm(h, CUBLAS_OP_C, CUBLAS_OP_T, m, n, k, &alpha, dA,
                            k, dB, n, &beta, dC, m),
                CUBLAS_STATUS_SUCCESS);
  cudaMemcpy(C.data(), dC, C.size() * sizeof(cuComplex), cudaMemcpyDeviceToHost);
  double worst = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      std::complex<double> s = 0;
      for (int p = 0; p < k; ++p)
        s += std::conj(std::complex<double>(A[p + i * k].x, A[p + i * k].y)) *
             std::complex<double>(B[j + p * n].x, B[j + p * n].y);
      s *= std::complex<double>(1.0, 0.5);
      worst = std::fmax(worst, std::abs(s - std::complex<double>(
                                               C[i + j * m].x, C[i + j * m].y)));
    }
  EXPECT(worst < 1e-5, "cgemm max error %g", worst);
  cudaFree(dA), cudaFree(dB), cudaFree(dC);
}

/* Batched and strided batched SGEMM: each matrix of the batch its own. */
static void batched(cublasHandle_t h) {
  const int m = 6, n = 7, k = 5, batch = 4;
  const long sa = m * k + 2, sb = k * n + 1, sc = m * n + 3;
  std::vector<float> A(sa * batch), B(sb * batch), C(sc * batch, 0.0f);
  fill(A, 8), fill(B, 9);
  float *dA, *dB, *dC, *dC2;
  CHECK_CUDA(cudaMalloc(&dA, A.size() * 4));
  CHECK_CUDA(cudaMalloc(&dB, B.size() * 4));
  CHECK_CUDA(cudaMalloc(&dC, C.size() * 4));
  CHECK_CUDA(cudaMalloc(&dC2, C.size() * 4));
  cudaMemcpy(dA, A.data(), A.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dB, B.data(), B.size() * 4, cudaMemcpyHostToDevice);
  cudaMemset(dC, 0, C.size() * 4);
  cudaMemset(dC2, 0, C.size() * 4);
  float alpha = 1.0f, beta = 0.0f;
  EXPECT_STATUS(cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k,
                                          &alpha, dA, m, sa, dB, k, sb, &beta,
                                          dC, m, sc, batch),
                CUBLAS_STATUS_SUCCESS);
  /* The same through arrays of device pointers. */
  std::vector<const float *> pa(batch), pb(batch);
  std::vector<float *> pc(batch);
  for (int i = 0; i < batch; ++i)
    pa[i] = dA + i * sa, pb[i] = dB + i * sb, pc[i] = dC2 + i * sc;
  const float **dpa, **dpb;
  float **dpc;
  CHECK_CUDA(cudaMalloc(&dpa, batch * sizeof(float *)));
  CHECK_CUDA(cudaMalloc(&dpb, batch * sizeof(float *)));
  CHECK_CUDA(cudaMalloc(&dpc, batch * sizeof(float *)));
  /* Copied in the stream's order, before the GEMM reads them. */
  cudaMemcpyAsync(dpa, pa.data(), batch * sizeof(float *),
                  cudaMemcpyHostToDevice, 0);
  cudaMemcpyAsync(dpb, pb.data(), batch * sizeof(float *),
                  cudaMemcpyHostToDevice, 0);
  cudaMemcpyAsync(dpc, pc.data(), batch * sizeof(float *),
                  cudaMemcpyHostToDevice, 0);
  EXPECT_STATUS(cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k,
                                   &alpha, dpa, m, dpb, k, &beta, dpc, m,
                                   batch),
                CUBLAS_STATUS_SUCCESS);
  std::vector<float> got(C.size()), got2(C.size());
  cudaMemcpy(got.data(), dC, C.size() * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(got2.data(), dC2, C.size() * 4, cudaMemcpyDeviceToHost);
  double worst = 0, worst2 = 0;
  for (int b = 0; b < batch; ++b) {
    std::vector<float> a(A.begin() + b * sa, A.begin() + b * sa + m * k);
    std::vector<float> bb(B.begin() + b * sb, B.begin() + b * sb + k * n);
    std::vector<float> c(m * n, 0.0f);
    reference(CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, 1.0f, a, m, bb, k, 0.0f, c, m);
    for (int i = 0; i < m * n; ++i) {
      worst = std::fmax(worst, std::fabs(c[i] - got[b * sc + i]));
      worst2 = std::fmax(worst2, std::fabs(c[i] - got2[b * sc + i]));
    }
    /* The gap between matrices of C stays 0. */
    for (long i = m * n; i < sc; ++i)
      worst = std::fmax(worst, std::fabs(got[b * sc + i]));
  }
  EXPECT(worst < 1e-4, "strided batched max error %g", worst);
  EXPECT(worst2 < 1e-4, "batched max error %g", worst2);
  cudaFree(dA), cudaFree(dB), cudaFree(dC), cudaFree(dC2);
  cudaFree(dpa), cudaFree(dpb), cudaFree(dpc);
}

/* GemmEx: half A and B, float C, float compute; Hgemm; and combinations
 * cuBLAS does not list. */
static void gemm_ex(cublasHandle_t h) {
  const int m = 16, n = 8, k = 24;
  std::vector<__half> A(m * k), B(k * n);
  std::vector<float> Af(m * k), Bf(k * n), C(m * n, 0.0f);
  for (int i = 0; i < m * k; ++i)
    A[i] = __float2half((float)value(10, i)), Af[i] = __half2float(A[i]);
  for (int i = 0; i < k * n; ++i)
    B[i] = __float2half((float)value(11, i)), Bf[i] = __half2float(B[i]);
  __half *dA, *dB, *dH;
  float *dC;
  CHECK_CUDA(cudaMalloc(&dA, A.size() * sizeof(__half)));
  CHECK_CUDA(cudaMalloc(&dB, B.size() * sizeof(__half)));
  CHECK_CUDA(cudaMalloc(&dH, m * n * sizeof(__half)));
  CHECK_CUDA(cudaMalloc(&dC, C.size() * 4));
  cudaMemcpy(dA, A.data(), A.size() * 2, cudaMemcpyHostToDevice);
  cudaMemcpy(dB, B.data(), B.size() * 2, cudaMemcpyHostToDevice);
  float alpha = 1.0f, beta = 0.0f;
  EXPECT_STATUS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, dA,
                             CUDA_R_16F, m, dB, CUDA_R_16F, k, &beta, dC,
                             CUDA_R_32F, m, CUBLAS_COMPUTE_32F,
                             CUBLAS_GEMM_DEFAULT),
                CUBLAS_STATUS_SUCCESS);
  std::vector<float> got(m * n);
  cudaMemcpy(got.data(), dC, m * n * 4, cudaMemcpyDeviceToHost);
  reference(CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, 1.0f, Af, m, Bf, k, 0.0f, C, m);
  double worst = 0;
  for (int i = 0; i < m * n; ++i)
    worst = std::fmax(worst, std::fabs(C[i] - got[i]));
  EXPECT(worst < 1e-3, "GemmEx half -> float max error %g", worst);
  /* cublasSgemmEx: the same with float scalars, into C again. */
  cudaMemset(dC, 0, C.size() * 4);
  EXPECT_STATUS(cublasSgemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, dA,
                              CUDA_R_16F, m, dB, CUDA_R_16F, k, &beta, dC,
                              CUDA_R_32F, m),
                CUBLAS_STATUS_SUCCESS);
  cudaMemcpy(got.data(), dC, m * n * 4, cudaMemcpyDeviceToHost);
  worst = 0;
  for (int i = 0; i < m * n; ++i)
    worst = std::fmax(worst, std::fabs(C[i] - got[i]));
  EXPECT(worst < 1e-3, "SgemmEx half -> float max error %g", worst);
  /* Hgemm: half everything; within half precision of the reference. */
  __half ha = __float2half(1.0f), hb = __float2half(0.0f);
  EXPECT_STATUS(cublasHgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &ha, dA, m,
                            dB, k, &hb, dH, m),
                CUBLAS_STATUS_SUCCESS);
  std::vector<__half> hgot(m * n);
  cudaMemcpy(hgot.data(), dH, m * n * 2, cudaMemcpyDeviceToHost);
  worst = 0;
  for (int i = 0; i < m * n; ++i)
    worst = std::fmax(worst, std::fabs(C[i] - __half2float(hgot[i])) /
                                 (1.0 + std::fabs(C[i])));
  EXPECT(worst < 2e-2, "Hgemm max relative error %g", worst);
  /* half inputs with double output: not a combination of cuBLAS's table. */
  EXPECT_STATUS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, dA,
                             CUDA_R_16F, m, dB, CUDA_R_16F, k, &beta, dC,
                             CUDA_R_64F, m, CUBLAS_COMPUTE_32F,
                             CUBLAS_GEMM_DEFAULT),
                CUBLAS_STATUS_NOT_SUPPORTED);
  /* float inputs with 64-bit compute. */
  EXPECT_STATUS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, dC,
                             CUDA_R_32F, m, dC, CUDA_R_32F, k, &beta, dC,
                             CUDA_R_32F, m, CUBLAS_COMPUTE_64F,
                             CUBLAS_GEMM_DEFAULT),
                CUBLAS_STATUS_NOT_SUPPORTED);
  cudaFree(dA), cudaFree(dB), cudaFree(dH), cudaFree(dC);
}

/* Scalars in device memory (CUBLAS_POINTER_MODE_DEVICE). */
static void pointer_mode_device(cublasHandle_t h) {
  const int n = 4;
  std::vector<double> A(n * n), C(n * n, 1.0);
  fill(A, 12);
  double *dA, *dC, *dScalars;
  CHECK_CUDA(cudaMalloc(&dA, n * n * 8));
  CHECK_CUDA(cudaMalloc(&dC, n * n * 8));
  CHECK_CUDA(cudaMalloc(&dScalars, 2 * 8));
  double scalars[2] = {2.0, 3.0};
  cudaMemcpy(dScalars, scalars, 16, cudaMemcpyHostToDevice);
  cudaMemcpy(dA, A.data(), n * n * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(dC, C.data(), n * n * 8, cudaMemcpyHostToDevice);
  EXPECT_STATUS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE),
                CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasDgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, n, n, n, dScalars, dA,
                            n, dA, n, dScalars + 1, dC, n),
                CUBLAS_STATUS_SUCCESS);
  cublasPointerMode_t mode;
  cublasGetPointerMode(h, &mode);
  EXPECT(mode == CUBLAS_POINTER_MODE_DEVICE, "pointer mode %d", (int)mode);
  cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
  std::vector<double> got(n * n);
  cudaMemcpy(got.data(), dC, n * n * 8, cudaMemcpyDeviceToHost);
  reference(CUBLAS_OP_T, CUBLAS_OP_N, n, n, n, 2.0, A, n, A, n, 3.0, C, n);
  double worst = 0;
  for (int i = 0; i < n * n; ++i)
    worst = std::fmax(worst, std::fabs(C[i] - got[i]));
  EXPECT(worst < 1e-12, "device pointer mode max error %g", worst);
  cudaFree(dA), cudaFree(dC), cudaFree(dScalars);
}

__global__ void add_one(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 1.0f;
}

/* A kernel and a GEMM captured into a graph on the handle's stream, the
 * graph launched twice: each launch adds one to A, then C = A * I. */
static void graph_capture(cublasHandle_t h) {
  const int n = 16;
  std::vector<float> A(n * n), I(n * n, 0.0f);
  fill(A, 13);
  for (int i = 0; i < n; ++i)
    I[i + i * n] = 1.0f;
  float *dA, *dI, *dC;
  CHECK_CUDA(cudaMalloc(&dA, n * n * 4));
  CHECK_CUDA(cudaMalloc(&dI, n * n * 4));
  CHECK_CUDA(cudaMalloc(&dC, n * n * 4));
  cudaMemcpy(dA, A.data(), n * n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dI, I.data(), n * n * 4, cudaMemcpyHostToDevice);
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  EXPECT_STATUS(cublasSetStream(h, stream), CUBLAS_STATUS_SUCCESS);
  float alpha = 1.0f, beta = 0.0f;
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  add_one<<<(n * n + 63) / 64, 64, 0, stream>>>(dA, n * n);
  EXPECT_STATUS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, dA,
                            n, dI, n, &beta, dC, n),
                CUBLAS_STATUS_SUCCESS);
  /* The scalar is copied at the call: changing it now changes nothing. */
  alpha = 100.0f;
  CHECK_CUDA(cudaStreamEndCapture(stream, &graph));
  CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  CHECK_CUDA(cudaGraphLaunch(exec, stream));
  CHECK_CUDA(cudaGraphLaunch(exec, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  std::vector<float> got(n * n);
  cudaMemcpy(got.data(), dC, n * n * 4, cudaMemcpyDeviceToHost);
  double worst = 0;
  for (int i = 0; i < n * n; ++i)
    worst = std::fmax(worst, std::fabs(A[i] + 2.0f - got[i]));
  EXPECT(worst < 1e-5, "captured GEMM after two launches: max error %g",
         worst);
  cudaStream_t back;
  cublasGetStream(h, &back);
  EXPECT(back == stream, "cublasGetStream gave another stream");
  cublasSetStream(h, 0);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
  cudaFree(dA), cudaFree(dI), cudaFree(dC);
}

/* A GEMM large enough to measure, checked at a few elements. */
static void large_sgemm(cublasHandle_t h) {
  const int n = 384;
  std::vector<float> A((size_t)n * n), B((size_t)n * n);
  fill(A, 14), fill(B, 15);
  float *dA, *dB, *dC;
  CHECK_CUDA(cudaMalloc(&dA, A.size() * 4));
  CHECK_CUDA(cudaMalloc(&dB, B.size() * 4));
  CHECK_CUDA(cudaMalloc(&dC, A.size() * 4));
  cudaMemcpy(dA, A.data(), A.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dB, B.data(), B.size() * 4, cudaMemcpyHostToDevice);
  float alpha = 1.0f, beta = 0.0f;
  cudaEvent_t start, stop;
  cudaEventCreate(&start), cudaEventCreate(&stop);
  cudaEventRecord(start);
  EXPECT_STATUS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, dA,
                            n, dB, n, &beta, dC, n),
                CUBLAS_STATUS_SUCCESS);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  std::printf("SGEMM %d: %.2f ms, %.2f GFLOP/s\n", n, ms,
              2.0 * n * n * n / (ms * 1e6));
  std::vector<float> C((size_t)n * n);
  cudaMemcpy(C.data(), dC, C.size() * 4, cudaMemcpyDeviceToHost);
  double worst = 0;
  for (int probe = 0; probe < 50; ++probe) {
    int i = (probe * 97) % n, j = (probe * 61) % n;
    double s = 0;
    for (int p = 0; p < n; ++p)
      s += (double)A[i + (size_t)p * n] * B[p + (size_t)j * n];
    worst = std::fmax(worst, std::fabs(s - C[i + (size_t)j * n]));
  }
  EXPECT(worst < 1e-2, "SGEMM %d max error %g", n, worst);
  cudaFree(dA), cudaFree(dB), cudaFree(dC);
}

int main() {
  cublasHandle_t h;
  EXPECT_STATUS(cublasCreate(&h), CUBLAS_STATUS_SUCCESS);
  int version = 0;
  EXPECT_STATUS(cublasGetVersion(h, &version), CUBLAS_STATUS_SUCCESS);
  EXPECT(version >= 11000, "cuBLAS version %d", version);
  gemm_all_transposes<float>(h, 1e-4);
  gemm_all_transposes<double>(h, 1e-11);
  beta_zero_ignores_nan(h);
  cgemm(h);
  batched(h);
  gemm_ex(h);
  pointer_mode_device(h);
  graph_capture(h);
  large_sgemm(h);
  EXPECT_STATUS(cublasDestroy(h), CUBLAS_STATUS_SUCCESS);
  return finish();
}
