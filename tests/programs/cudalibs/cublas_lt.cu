/* cublas_lt.cu: cuBLASLt's core API as programs use it (in the style of
 * the cuBLASLt samples' LtSgemm): a handle, a matmul descriptor with
 * TRANSA/TRANSB, matrix layouts, a preference with a workspace limit, the
 * heuristic's one algorithm, and cublasLtMatmul on a stream. Each result
 * is checked against a host GEMM in double: float in column-major order
 * with C and D apart, row-major A, B and D, half inputs with float output,
 * a strided batch, the RELU+BIAS and GELU epilogues, alpha and beta in
 * device memory; the explicit algorithm interface (AlgoGetIds, AlgoInit,
 * AlgoConfig, AlgoCap, AlgoCheck) and the library-wide calls; then
 * statuses.
 * CUEMU_OPTIONS: -lcublasLt -lcublas */
#include <cmath>
#include <string>
#include <vector>

#include <cublasLt.h>
#include <cuda_fp16.h>

#include "check_libs.h"

/* Element (i, j) of a rows x cols matrix with leading dimension ld. */
static size_t at(bool row, int64_t i, int64_t j, int64_t ld) {
  return row ? (size_t)(i * ld + j) : (size_t)(j * ld + i);
}

struct mat {
  int64_t rows, cols, ld;
  bool row;
  std::vector<float> v;
  mat(int64_t r, int64_t c, int64_t l, bool rm, int batch = 1, int64_t stride = 0)
      : rows(r), cols(c), ld(l), row(rm),
        v((size_t)(batch > 1 ? stride * batch : (rm ? r * l : c * l))) {
    for (size_t i = 0; i < v.size(); ++i)
      v[i] = (float)((int)(i * 37 % 19) - 9) / 8.0f;
  }
  float get(int64_t i, int64_t j, int64_t off = 0) const {
    return v[off + at(row, i, j, ld)];
  }
};

/* The reference: alpha op(A) op(B) + beta C, then bias and activation. */
static double reference(const mat &A, bool ta, const mat &B, bool tb,
                        const mat &C, float alpha, float beta, int64_t i,
                        int64_t j, int64_t k, int64_t oa = 0, int64_t ob = 0,
                        int64_t oc = 0) {
  double s = 0;
  for (int64_t p = 0; p < k; ++p)
    s += (double)(ta ? A.get(p, i, oa) : A.get(i, p, oa)) *
         (tb ? B.get(j, p, ob) : B.get(p, j, ob));
  return alpha * s + beta * (double)C.get(i, j, oc);
}

template <typename T> static T *to_device(const std::vector<T> &h) {
  T *d;
  CHECK_CUDA(cudaMalloc(&d, h.size() * sizeof(T)));
  CHECK_CUDA(cudaMemcpy(d, h.data(), h.size() * sizeof(T),
                        cudaMemcpyHostToDevice));
  return d;
}

static cublasLtMatrixLayout_t layout(cudaDataType t, const mat &m,
                                     int batch = 1, int64_t stride = 0) {
  cublasLtMatrixLayout_t l;
  EXPECT_STATUS(cublasLtMatrixLayoutCreate(&l, t, m.rows, m.cols, m.ld),
                CUBLAS_STATUS_SUCCESS);
  if (m.row) {
    cublasLtOrder_t order = CUBLASLT_ORDER_ROW;
    EXPECT_STATUS(cublasLtMatrixLayoutSetAttribute(
                      l, CUBLASLT_MATRIX_LAYOUT_ORDER, &order, sizeof order),
                  CUBLAS_STATUS_SUCCESS);
  }
  if (batch > 1) {
    int32_t count = batch;
    EXPECT_STATUS(cublasLtMatrixLayoutSetAttribute(
                      l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count,
                      sizeof count),
                  CUBLAS_STATUS_SUCCESS);
    EXPECT_STATUS(cublasLtMatrixLayoutSetAttribute(
                      l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride,
                      sizeof stride),
                  CUBLAS_STATUS_SUCCESS);
  }
  return l;
}

/* One float matmul D = epilogue(alpha op(A) op(B) + beta C), checked. */
static void check_float(const char *what, bool rows, bool ta, bool tb,
                        bool apart, cublasLtEpilogue_t epilogue, int batch,
                        cublasLtHandle_t lt, cudaStream_t stream) {
  const int64_t m = 37, n = 29, k = 23;
  int64_t ar = ta ? k : m, ac = ta ? m : k, br = tb ? n : k, bc = tb ? k : n;
  auto ld = [&](int64_t r, int64_t c) { return (rows ? c : r) + 3; };
  int64_t sa = (rows ? ar : ac) * ld(ar, ac) + 5;
  int64_t sb = (rows ? br : bc) * ld(br, bc) + 5;
  int64_t sc = (rows ? m : n) * (ld(m, n) + 2) + 5;
  mat A(ar, ac, ld(ar, ac), rows, batch, sa), B(br, bc, ld(br, bc), rows, batch, sb);
  mat C(m, n, ld(m, n) + 2, rows, batch, sc);
  mat D = C; /* apart: its own buffer, its own values */
  D.ld = apart ? C.ld + 1 : C.ld;
  int64_t sd = (rows ? m : n) * D.ld + 5;
  D.v.assign(batch > 1 ? sd * batch : (rows ? m : n) * D.ld, -7.0f);
  if (!apart)
    D.v = C.v, sd = sc;
  std::vector<float> bias(m * batch);
  for (size_t i = 0; i < bias.size(); ++i)
    bias[i] = (float)i / 16.0f - 1.0f;
  float *dA = to_device(A.v), *dB = to_device(B.v), *dC = to_device(C.v);
  float *dD = apart ? to_device(D.v) : dC, *dbias = to_device(bias);

  cublasLtMatmulDesc_t desc;
  EXPECT_STATUS(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F),
                CUBLAS_STATUS_SUCCESS);
  cublasOperation_t opa = ta ? CUBLAS_OP_T : CUBLAS_OP_N;
  cublasOperation_t opb = tb ? CUBLAS_OP_T : CUBLAS_OP_N;
  EXPECT_STATUS(cublasLtMatmulDescSetAttribute(
                    desc, CUBLASLT_MATMUL_DESC_TRANSA, &opa, sizeof opa),
                CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasLtMatmulDescSetAttribute(
                    desc, CUBLASLT_MATMUL_DESC_TRANSB, &opb, sizeof opb),
                CUBLAS_STATUS_SUCCESS);
  if (epilogue != CUBLASLT_EPILOGUE_DEFAULT) {
    EXPECT_STATUS(cublasLtMatmulDescSetAttribute(
                      desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue,
                      sizeof epilogue),
                  CUBLAS_STATUS_SUCCESS);
    EXPECT_STATUS(cublasLtMatmulDescSetAttribute(
                      desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &dbias,
                      sizeof dbias),
                  CUBLAS_STATUS_SUCCESS);
    int64_t bias_stride = m;
    EXPECT_STATUS(cublasLtMatmulDescSetAttribute(
                      desc, CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE,
                      &bias_stride, sizeof bias_stride),
                  CUBLAS_STATUS_SUCCESS);
  }
  cublasLtMatrixLayout_t la = layout(CUDA_R_32F, A, batch, sa),
                         lb = layout(CUDA_R_32F, B, batch, sb),
                         lc = layout(CUDA_R_32F, C, batch, sc),
                         ldd = layout(CUDA_R_32F, D, batch, sd);
  cublasLtMatmulPreference_t pref;
  EXPECT_STATUS(cublasLtMatmulPreferenceCreate(&pref), CUBLAS_STATUS_SUCCESS);
  size_t workspace = 1 << 20;
  EXPECT_STATUS(cublasLtMatmulPreferenceSetAttribute(
                    pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace,
                    sizeof workspace),
                CUBLAS_STATUS_SUCCESS);
  cublasLtMatmulHeuristicResult_t result = {};
  int returned = 0;
  EXPECT_STATUS(cublasLtMatmulAlgoGetHeuristic(lt, desc, la, lb, lc, ldd, pref,
                                               1, &result, &returned),
                CUBLAS_STATUS_SUCCESS);
  EXPECT(returned == 1 && result.state == CUBLAS_STATUS_SUCCESS &&
             result.workspaceSize <= workspace,
         "%s: the heuristic returned %d algorithms", what, returned);
  void *dwork;
  CHECK_CUDA(cudaMalloc(&dwork, workspace));
  float alpha = 1.5f, beta = 0.5f;
  EXPECT_STATUS(cublasLtMatmul(lt, desc, &alpha, dA, la, dB, lb, &beta, dC, lc,
                               dD, ldd, &result.algo, dwork, workspace, stream),
                CUBLAS_STATUS_SUCCESS);
  std::vector<float> out(D.v.size());
  CHECK_CUDA(cudaMemcpyAsync(out.data(), dD, out.size() * sizeof(float),
                             cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  double worst = 0;
  for (int b = 0; b < batch; ++b)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < m; ++i) {
        double want = reference(A, ta, B, tb, C, alpha, beta, i, j, k, b * sa,
                                b * sb, b * sc);
        if (epilogue & CUBLASLT_EPILOGUE_BIAS)
          want += bias[b * m + i];
        if (epilogue == CUBLASLT_EPILOGUE_RELU_BIAS)
          want = want > 0 ? want : 0;
        if (epilogue == CUBLASLT_EPILOGUE_GELU)
          want = 0.5 * want *
                 (1 + std::tanh(0.7978845608028654 *
                                (want + 0.044715 * want * want * want)));
        double got = out[b * sd + at(rows, i, j, D.ld)];
        double diff = std::fabs(got - want);
        if (!(diff <= worst)) /* NaN counts as the worst */
          worst = std::isnan(diff) ? INFINITY : diff;
      }
  EXPECT(worst < 1e-4, "%s: D differs from the host GEMM by %.3g", what,
         worst);
  if (apart) {
    /* D's padding is untouched, and C is unchanged. */
    EXPECT(out[D.ld - 1] == -7.0f || rows, "%s: D's padding was written",
           what);
    std::vector<float> c_after(C.v.size());
    CHECK_CUDA(cudaMemcpy(c_after.data(), dC, c_after.size() * sizeof(float),
                          cudaMemcpyDeviceToHost));
    EXPECT(c_after == C.v, "%s: C was written", what);
  }
  cublasLtMatmulPreferenceDestroy(pref);
  cublasLtMatrixLayoutDestroy(la);
  cublasLtMatrixLayoutDestroy(lb);
  cublasLtMatrixLayoutDestroy(lc);
  cublasLtMatrixLayoutDestroy(ldd);
  cublasLtMatmulDescDestroy(desc);
  CHECK_CUDA(cudaFree(dA));
  CHECK_CUDA(cudaFree(dB));
  CHECK_CUDA(cudaFree(dC));
  if (apart)
    CHECK_CUDA(cudaFree(dD));
  CHECK_CUDA(cudaFree(dbias));
  CHECK_CUDA(cudaFree(dwork));
}

/* Half A and B, float C = D, computed in float. */
static void check_half(cublasLtHandle_t lt, cudaStream_t stream) {
  const int m = 16, n = 8, k = 32;
  std::vector<__half> A(m * k), B(k * n);
  std::vector<float> Af(m * k), Bf(k * n), D(m * n, 0.0f);
  for (int i = 0; i < m * k; ++i)
    Af[i] = (float)(i % 7 - 3) / 4, A[i] = __float2half(Af[i]);
  for (int i = 0; i < k * n; ++i)
    Bf[i] = (float)(i % 5 - 2) / 2, B[i] = __float2half(Bf[i]);
  __half *dA = to_device(A), *dB = to_device(B);
  float *dD = to_device(D);
  cublasLtMatmulDesc_t desc;
  EXPECT_STATUS(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F),
                CUBLAS_STATUS_SUCCESS);
  cublasLtMatrixLayout_t la, lb, ld;
  cublasLtMatrixLayoutCreate(&la, CUDA_R_16F, m, k, m);
  cublasLtMatrixLayoutCreate(&lb, CUDA_R_16F, k, n, k);
  cublasLtMatrixLayoutCreate(&ld, CUDA_R_32F, m, n, m);
  float alpha = 1.0f, beta = 0.0f;
  EXPECT_STATUS(cublasLtMatmul(lt, desc, &alpha, dA, la, dB, lb, &beta, dD, ld,
                               dD, ld, nullptr, nullptr, 0, stream),
                CUBLAS_STATUS_SUCCESS);
  CHECK_CUDA(cudaMemcpyAsync(D.data(), dD, D.size() * sizeof(float),
                             cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  int wrong = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double s = 0;
      for (int p = 0; p < k; ++p)
        s += (double)Af[p * m + i] * Bf[j * k + p];
      wrong += D[j * m + i] != (float)s; /* exact: small dyadic values */
    }
  EXPECT(wrong == 0, "half matmul: %d of %d values wrong", wrong, m * n);
  /* The same with alpha and beta in device memory (POINTER_MODE device):
   * D = 2 A B - D, so D becomes A B. */
  cublasLtPointerMode_t mode = CUBLASLT_POINTER_MODE_DEVICE;
  EXPECT_STATUS(cublasLtMatmulDescSetAttribute(
                    desc, CUBLASLT_MATMUL_DESC_POINTER_MODE, &mode,
                    sizeof mode),
                CUBLAS_STATUS_SUCCESS);
  float scalars[2] = {2.0f, -1.0f};
  float *dscalars = to_device(std::vector<float>(scalars, scalars + 2));
  EXPECT_STATUS(cublasLtMatmul(lt, desc, dscalars, dA, la, dB, lb,
                               dscalars + 1, dD, ld, dD, ld, nullptr, nullptr,
                               0, stream),
                CUBLAS_STATUS_SUCCESS);
  std::vector<float> again(m * n);
  CHECK_CUDA(cudaMemcpyAsync(again.data(), dD, again.size() * sizeof(float),
                             cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  EXPECT(again == D, "device-pointer alpha and beta: D differs");
  CHECK_CUDA(cudaFree(dscalars));
  mode = CUBLASLT_POINTER_MODE_HOST;
  cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_POINTER_MODE,
                                 &mode, sizeof mode);
  /* A dimension that does not match: INVALID_VALUE. */
  cublasLtMatrixLayout_t bad;
  cublasLtMatrixLayoutCreate(&bad, CUDA_R_16F, k + 1, n, k + 1);
  EXPECT_STATUS(cublasLtMatmul(lt, desc, &alpha, dA, la, dB, bad, &beta, dD,
                               ld, dD, ld, nullptr, nullptr, 0, stream),
                CUBLAS_STATUS_INVALID_VALUE);
  cublasLtMatrixLayoutDestroy(bad);
  cublasLtMatrixLayoutDestroy(la);
  cublasLtMatrixLayoutDestroy(lb);
  cublasLtMatrixLayoutDestroy(ld);
  cublasLtMatmulDescDestroy(desc);
  CHECK_CUDA(cudaFree(dA));
  CHECK_CUDA(cudaFree(dB));
  CHECK_CUDA(cudaFree(dD));
}

/* The explicit algorithm interface as tuning programs use it: the IDs for
 * a type combination, an algorithm made from one and configured, its
 * capabilities, AlgoCheck, then the matmul with it; and the library-wide
 * calls (status names, properties, the logger, the heuristics cache). */
static void check_algorithms(cublasLtHandle_t lt, cudaStream_t stream) {
  int ids[4] = {-1, -1, -1, -1}, count = -1;
  EXPECT_STATUS(cublasLtMatmulAlgoGetIds(lt, CUBLAS_COMPUTE_32F, CUDA_R_32F,
                                         CUDA_R_32F, CUDA_R_32F, CUDA_R_32F,
                                         CUDA_R_32F, 4, ids, &count),
                CUBLAS_STATUS_SUCCESS);
  EXPECT(count >= 1, "AlgoGetIds: %d algorithms", count);
  int none = -1;
  EXPECT_STATUS(cublasLtMatmulAlgoGetIds(lt, CUBLAS_COMPUTE_64F, CUDA_R_64F,
                                         CUDA_R_32F, CUDA_R_32F, CUDA_R_32F,
                                         CUDA_R_32F, 4, ids + 1, &none),
                CUBLAS_STATUS_SUCCESS);
  EXPECT(none == 0, "AlgoGetIds: %d algorithms for 64F on floats", none);
  cublasLtMatmulAlgo_t algo;
  EXPECT_STATUS(cublasLtMatmulAlgoInit(lt, CUBLAS_COMPUTE_32F, CUDA_R_32F,
                                       CUDA_R_32F, CUDA_R_32F, CUDA_R_32F,
                                       CUDA_R_32F, ids[0], &algo),
                CUBLAS_STATUS_SUCCESS);
  int splitk = 1, got_splitk = 0;
  size_t written = 0;
  EXPECT_STATUS(cublasLtMatmulAlgoConfigSetAttribute(
                    &algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM, &splitk,
                    sizeof splitk),
                CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasLtMatmulAlgoConfigGetAttribute(
                    &algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM, &got_splitk,
                    sizeof got_splitk, &written),
                CUBLAS_STATUS_SUCCESS);
  EXPECT(got_splitk == 1 && written == sizeof got_splitk,
         "AlgoConfig: split-K %d", got_splitk);
  int32_t strided = 0;
  EXPECT_STATUS(cublasLtMatmulAlgoCapGetAttribute(
                    &algo, CUBLASLT_ALGO_CAP_STRIDED_BATCH_SUPPORT, &strided,
                    sizeof strided, &written),
                CUBLAS_STATUS_SUCCESS);
  EXPECT(strided == 1, "AlgoCap: strided batches %d", strided);

  const int m = 16, n = 8, k = 4;
  std::vector<float> a(m * k), b(k * n), d(m * n, -1.0f);
  for (int i = 0; i < m * k; ++i)
    a[i] = 0.25f * (float)(i % 9) - 1.0f;
  for (int i = 0; i < k * n; ++i)
    b[i] = 0.5f * (float)(i % 5) - 0.75f;
  float *dA, *dB, *dD;
  CHECK_CUDA(cudaMalloc(&dA, a.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dB, b.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dD, d.size() * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(dA, a.data(), a.size() * sizeof(float),
                        cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dB, b.data(), b.size() * sizeof(float),
                        cudaMemcpyHostToDevice));
  cublasLtMatmulDesc_t desc;
  cublasLtMatrixLayout_t la, lb, ld;
  EXPECT_STATUS(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F),
                CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasLtMatrixLayoutCreate(&la, CUDA_R_32F, m, k, m),
                CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasLtMatrixLayoutCreate(&lb, CUDA_R_32F, k, n, k),
                CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasLtMatrixLayoutCreate(&ld, CUDA_R_32F, m, n, m),
                CUBLAS_STATUS_SUCCESS);
  cublasLtMatmulHeuristicResult_t result = {};
  EXPECT_STATUS(cublasLtMatmulAlgoCheck(lt, desc, la, lb, ld, ld, &algo,
                                        &result),
                CUBLAS_STATUS_SUCCESS);
  EXPECT(result.state == CUBLAS_STATUS_SUCCESS && result.workspaceSize == 0,
         "AlgoCheck: state %d, workspace %zu", (int)result.state,
         result.workspaceSize);
  float alpha = 1.0f, beta = 0.0f;
  EXPECT_STATUS(cublasLtMatmul(lt, desc, &alpha, dA, la, dB, lb, &beta, dD, ld,
                               dD, ld, &algo, nullptr, 0, stream),
                CUBLAS_STATUS_SUCCESS);
  CHECK_CUDA(cudaMemcpyAsync(d.data(), dD, d.size() * sizeof(float),
                             cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  double worst = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double want = 0;
      for (int l = 0; l < k; ++l)
        want += (double)a[l * m + i] * b[j * k + l];
      worst = std::fmax(worst, std::fabs(d[j * m + i] - want));
    }
  EXPECT(worst < 1e-5, "matmul with an explicit algorithm: error %g", worst);
  cublasLtMatrixLayoutDestroy(la);
  cublasLtMatrixLayoutDestroy(lb);
  cublasLtMatrixLayoutDestroy(ld);
  cublasLtMatmulDescDestroy(desc);
  cudaFree(dA), cudaFree(dB), cudaFree(dD);

  EXPECT(std::string(cublasLtGetStatusName(CUBLAS_STATUS_NOT_SUPPORTED)) ==
             "CUBLAS_STATUS_NOT_SUPPORTED",
         "cublasLtGetStatusName: %s",
         cublasLtGetStatusName(CUBLAS_STATUS_NOT_SUPPORTED));
  EXPECT(cublasLtGetStatusString(CUBLAS_STATUS_INVALID_VALUE) != nullptr,
         "cublasLtGetStatusString gave no string");
  int major = 0;
  EXPECT_STATUS(cublasLtGetProperty(MAJOR_VERSION, &major),
                CUBLAS_STATUS_SUCCESS);
  EXPECT(major >= 13, "cublasLtGetProperty: major version %d", major);
  EXPECT(cublasLtGetCudartVersion() >= 13000, "cublasLtGetCudartVersion: %zu",
         cublasLtGetCudartVersion());
  EXPECT_STATUS(cublasLtLoggerSetLevel(2), CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasLtLoggerSetLevel(9), CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasLtLoggerSetLevel(0), CUBLAS_STATUS_SUCCESS);
  size_t capacity = 0;
  EXPECT_STATUS(cublasLtHeuristicsCacheSetCapacity(100), CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasLtHeuristicsCacheGetCapacity(&capacity),
                CUBLAS_STATUS_SUCCESS);
  EXPECT(capacity == 100, "heuristics cache capacity %zu", capacity);
}

int main(void) {
  cublasLtHandle_t lt;
  EXPECT_STATUS(cublasLtCreate(&lt), CUBLAS_STATUS_SUCCESS);
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  check_float("column-major, C and D apart", false, false, true, true,
              CUBLASLT_EPILOGUE_DEFAULT, 1, lt, stream);
  check_float("row-major", true, true, false, false, CUBLASLT_EPILOGUE_DEFAULT,
              1, lt, stream);
  check_float("row-major, C and D apart, RELU+BIAS", true, false, true, true,
              CUBLASLT_EPILOGUE_RELU_BIAS, 1, lt, stream);
  check_float("strided batch of 3, GELU", false, true, true, false,
              CUBLASLT_EPILOGUE_GELU, 3, lt, stream);
  check_half(lt, stream);
  check_algorithms(lt, stream);
  /* The *Init forms on a program's own storage, and GetAttribute. */
  cublasLtMatrixLayoutOpaque_t storage;
  EXPECT_STATUS(cublasLtMatrixLayoutInit(&storage, CUDA_R_32F, 12, 5, 16),
                CUBLAS_STATUS_SUCCESS);
  uint64_t rows = 0;
  int64_t ldv = 0;
  size_t written = 0;
  EXPECT_STATUS(cublasLtMatrixLayoutGetAttribute(
                    &storage, CUBLASLT_MATRIX_LAYOUT_ROWS, &rows, sizeof rows,
                    &written),
                CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasLtMatrixLayoutGetAttribute(
                    &storage, CUBLASLT_MATRIX_LAYOUT_LD, &ldv, sizeof ldv,
                    &written),
                CUBLAS_STATUS_SUCCESS);
  EXPECT(rows == 12 && ldv == 16 && written == sizeof ldv,
         "layout attributes: rows %llu ld %lld", (unsigned long long)rows,
         (long long)ldv);
  cublasLtMatmulDescOpaque_t desc_storage;
  EXPECT_STATUS(cublasLtMatmulDescInit(&desc_storage, CUBLAS_COMPUTE_32F,
                                       CUDA_R_32F),
                CUBLAS_STATUS_SUCCESS);
  cublasOperation_t transa = CUBLAS_OP_C;
  EXPECT_STATUS(cublasLtMatmulDescGetAttribute(
                    &desc_storage, CUBLASLT_MATMUL_DESC_TRANSA, &transa,
                    sizeof transa, &written),
                CUBLAS_STATUS_SUCCESS);
  EXPECT(transa == CUBLAS_OP_N, "default TRANSA %d", (int)transa);
  CHECK_CUDA(cudaStreamDestroy(stream));
  EXPECT_STATUS(cublasLtDestroy(lt), CUBLAS_STATUS_SUCCESS);
  return finish();
}
