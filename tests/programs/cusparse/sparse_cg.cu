/* sparse_cg.cu: a conjugate gradient solver in the style of the CUDA
 * samples' conjugateGradient: a kernel builds a symmetric positive
 * definite tridiagonal matrix in CSR on the device, cuSPARSE's SpMV and
 * cuBLAS's level-1 calls iterate on one stream (set on both handles), and
 * the solution is checked against the right-hand side's known source;
 * then an SpMV captured into a graph is replayed three times.
 * CUEMU_OPTIONS: -lcusparse -lcublas */
#include <cmath>
#include <vector>

#include <cublas_v2.h>
#include <cusparse.h>

#include "../cudalibs/check_libs.h"

/* Row i of the matrix: 4 on the diagonal, -1 beside it. */
__global__ void build(int n, int *rows, int *cols, float *vals) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > n)
    return;
  if (i == n) {
    rows[n] = 3 * n - 2;
    return;
  }
  int at = i == 0 ? 0 : 3 * i - 1;
  rows[i] = at;
  if (i > 0)
    cols[at] = i - 1, vals[at++] = -1.0f;
  cols[at] = i, vals[at++] = 4.0f;
  if (i < n - 1)
    cols[at] = i + 1, vals[at] = -1.0f;
}

int main() {
  const int n = 4096, nnz = 3 * n - 2;
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  int *rows, *cols;
  float *vals, *x, *r, *p, *ap;
  CHECK_CUDA(cudaMalloc(&rows, (n + 1) * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&cols, nnz * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&vals, nnz * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&x, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&r, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&p, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&ap, n * sizeof(float)));
  build<<<(n + 256) / 256, 256, 0, stream>>>(n, rows, cols, vals);

  /* b = A s for a known s: the solver must find s. */
  std::vector<float> s(n), b(n);
  for (int i = 0; i < n; ++i)
    s[i] = std::sin(0.01f * i) + 1.0f;
  for (int i = 0; i < n; ++i)
    b[i] = 4 * s[i] - (i > 0 ? s[i - 1] : 0) - (i < n - 1 ? s[i + 1] : 0);
  CHECK_CUDA(cudaMemcpyAsync(r, b.data(), n * sizeof(float),
                             cudaMemcpyHostToDevice, stream));
  CHECK_CUDA(cudaMemsetAsync(x, 0, n * sizeof(float), stream));

  cublasHandle_t blas;
  cusparseHandle_t sparse;
  EXPECT_STATUS(cublasCreate(&blas), CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cusparseCreate(&sparse), CUSPARSE_STATUS_SUCCESS);
  cublasSetStream(blas, stream);
  EXPECT_STATUS(cusparseSetStream(sparse, stream), CUSPARSE_STATUS_SUCCESS);
  cusparseSpMatDescr_t A;
  cusparseDnVecDescr_t vp, vap;
  EXPECT_STATUS(cusparseCreateCsr(&A, n, n, nnz, rows, cols, vals,
                                  CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                  CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F),
                CUSPARSE_STATUS_SUCCESS);
  EXPECT_STATUS(cusparseCreateDnVec(&vp, n, p, CUDA_R_32F),
                CUSPARSE_STATUS_SUCCESS);
  EXPECT_STATUS(cusparseCreateDnVec(&vap, n, ap, CUDA_R_32F),
                CUSPARSE_STATUS_SUCCESS);
  float one = 1, zero = 0;
  size_t size = 1;
  EXPECT_STATUS(cusparseSpMV_bufferSize(sparse, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                        &one, A, vp, &zero, vap, CUDA_R_32F,
                                        CUSPARSE_SPMV_ALG_DEFAULT, &size),
                CUSPARSE_STATUS_SUCCESS);
  void *buffer;
  CHECK_CUDA(cudaMalloc(&buffer, size ? size : 1));

  /* r = b - A x with x = 0; p = r. */
  float rr, rr0;
  cublasSdot(blas, n, r, 1, r, 1, &rr);
  rr0 = rr;
  cublasScopy(blas, n, r, 1, p, 1);
  int k = 0;
  while (rr > 1e-12f * rr0 && k < 200) {
    EXPECT_STATUS(cusparseSpMV(sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, &one,
                               A, vp, &zero, vap, CUDA_R_32F,
                               CUSPARSE_SPMV_CSR_ALG1, buffer),
                  CUSPARSE_STATUS_SUCCESS);
    float pap;
    cublasSdot(blas, n, p, 1, ap, 1, &pap);
    float a = rr / pap, na = -a;
    cublasSaxpy(blas, n, &a, p, 1, x, 1);
    cublasSaxpy(blas, n, &na, ap, 1, r, 1);
    float rr1;
    cublasSdot(blas, n, r, 1, r, 1, &rr1);
    float beta = rr1 / rr;
    cublasSscal(blas, n, &beta, p, 1);
    cublasSaxpy(blas, n, &one, r, 1, p, 1);
    rr = rr1;
    ++k;
  }
  std::vector<float> got(n);
  CHECK_CUDA(cudaMemcpyAsync(got.data(), x, n * sizeof(float),
                             cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  double worst = 0;
  for (int i = 0; i < n; ++i)
    worst = std::fmax(worst, std::fabs(got[i] - s[i]));
  std::printf("CG: %d iterations, largest error %.3g\n", k, worst);
  EXPECT(k < 200 && worst < 1e-4, "did not converge");

  /* An SpMV captured into a graph (ap += A p, beta 1) and replayed three
   * times after the descriptors it was called with are destroyed. */
  {
    cusparseDnVecDescr_t gp, gap;
    cusparseCreateDnVec(&gp, n, p, CUDA_R_32F);
    cusparseCreateDnVec(&gap, n, ap, CUDA_R_32F);
    std::vector<float> hp(n), after(n);
    for (int i = 0; i < n; ++i)
      hp[i] = (float)(i % 7);
    CHECK_CUDA(cudaMemcpyAsync(p, hp.data(), n * sizeof(float),
                               cudaMemcpyHostToDevice, stream));
    CHECK_CUDA(cudaMemsetAsync(ap, 0, n * sizeof(float), stream));
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CHECK_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    EXPECT_STATUS(cusparseSpMV(sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, &one,
                               A, gp, &one, gap, CUDA_R_32F,
                               CUSPARSE_SPMV_ALG_DEFAULT, buffer),
                  CUSPARSE_STATUS_SUCCESS);
    CHECK_CUDA(cudaStreamEndCapture(stream, &graph));
    cusparseDestroyDnVec(gp);
    cusparseDestroyDnVec(gap);
    CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
    for (int r = 0; r < 3; ++r)
      CHECK_CUDA(cudaGraphLaunch(exec, stream));
    CHECK_CUDA(cudaMemcpyAsync(after.data(), ap, n * sizeof(float),
                               cudaMemcpyDeviceToHost, stream));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    int wrong = 0;
    for (int i = 0; i < n; ++i) {
      float want = 4 * hp[i] - (i > 0 ? hp[i - 1] : 0) -
                   (i < n - 1 ? hp[i + 1] : 0);
      wrong += after[i] != 3 * want;
    }
    EXPECT(wrong == 0, "graph replays: %d values wrong", wrong);
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
  }

  cusparseDestroySpMat(A);
  cusparseDestroyDnVec(vp);
  cusparseDestroyDnVec(vap);
  EXPECT_STATUS(cusparseDestroy(sparse), CUSPARSE_STATUS_SUCCESS);
  cublasDestroy(blas);
  return finish();
}
