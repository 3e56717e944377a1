/* sparse_errors.cu: cuSPARSE's status codes for bad arguments (NULL
 * handles and descriptors, negative sizes, unknown index and value types,
 * sizes that do not match, a compute type unlike the values'), its
 * versions, status names and strings, streams and pointer modes, the
 * getters of the descriptors, the legacy matrix descriptor; and a host
 * array given to cusparseSpMV: the call succeeds and, as a GPU kernel's
 * illegal access would, the next synchronisation returns
 * cudaErrorIllegalAddress (a GPU system with HMM or ATS reads the host
 * array instead, so this part checks cuemu's behaviour). First, the checks
 * of sparse_formats.h (Csr2cscEx2, SDDMM, gtsv2, BSR and Blocked-ELL).
 * CUEMU_OPTIONS: -lcusparse
 * NVCC_OPTIONS: -lcusparse */
#include <cstdint>
#include <cstring>
#include <vector>

#include <cusparse.h>

#include "../cudalibs/check_libs.h"
#include "sparse_formats.h"

int main() {
  check_formats();
  const cusparseStatus_t OK = CUSPARSE_STATUS_SUCCESS,
                         BAD = CUSPARSE_STATUS_INVALID_VALUE;
  int v = 0;
  EXPECT_STATUS(cusparseGetVersion(NULL, &v), CUSPARSE_STATUS_NOT_INITIALIZED);
  cusparseHandle_t h;
  EXPECT_STATUS(cusparseCreate(NULL), BAD);
  EXPECT_STATUS(cusparseCreate(&h), OK);
  EXPECT_STATUS(cusparseGetVersion(h, &v), OK);
  EXPECT(v == CUSPARSE_VERSION, "version %d, cusparse.h says %d", v,
         CUSPARSE_VERSION);
  int major = -1, minor = -1, patch = -1;
  cusparseGetProperty(MAJOR_VERSION, &major);
  cusparseGetProperty(MINOR_VERSION, &minor);
  cusparseGetProperty(PATCH_LEVEL, &patch);
  EXPECT(major == CUSPARSE_VER_MAJOR && minor == CUSPARSE_VER_MINOR &&
             patch == CUSPARSE_VER_PATCH,
         "properties %d.%d.%d", major, minor, patch);
  EXPECT(!std::strcmp(cusparseGetErrorName(CUSPARSE_STATUS_ZERO_PIVOT),
                      "CUSPARSE_STATUS_ZERO_PIVOT"),
         "name %s", cusparseGetErrorName(CUSPARSE_STATUS_ZERO_PIVOT));
  EXPECT(std::strlen(cusparseGetErrorString(CUSPARSE_STATUS_INVALID_VALUE)) > 0,
         "no string");
  cudaStream_t s, got;
  CHECK_CUDA(cudaStreamCreate(&s));
  EXPECT_STATUS(cusparseSetStream(h, s), OK);
  EXPECT_STATUS(cusparseGetStream(h, &got), OK);
  EXPECT(got == s, "stream");
  EXPECT_STATUS(cusparseSetPointerMode(h, (cusparsePointerMode_t)5), BAD);

  /* Descriptors. */
  int *rows, *cols;
  double *vals, *x, *y;
  CHECK_CUDA(cudaMalloc(&rows, 5 * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&cols, 4 * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&vals, 4 * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&x, 4 * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&y, 4 * sizeof(double)));
  std::vector<int> hr = {0, 1, 2, 3, 4}, hc = {0, 1, 2, 3};
  std::vector<double> hv = {1, 2, 3, 4};
  cudaMemcpy(rows, hr.data(), 5 * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(cols, hc.data(), 4 * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(vals, hv.data(), 4 * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(x, hv.data(), 4 * sizeof(double), cudaMemcpyHostToDevice);
  cusparseSpMatDescr_t A;
  EXPECT_STATUS(cusparseCreateCsr(NULL, 4, 4, 4, rows, cols, vals,
                                  CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                  CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F),
                BAD);
  EXPECT_STATUS(cusparseCreateCsr(&A, -1, 4, 4, rows, cols, vals,
                                  CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                  CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F),
                BAD);
  EXPECT_STATUS(cusparseCreateCsr(&A, 4, 4, 4, rows, cols, vals,
                                  CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                  (cusparseIndexBase_t)2, CUDA_R_64F),
                BAD);
  EXPECT_STATUS(cusparseCreateCsr(&A, 4, 4, 4, rows, NULL, vals,
                                  CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                  CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F),
                BAD);
  EXPECT_STATUS(cusparseCreateCsr(&A, 4, 4, 4, rows, cols, vals,
                                  CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                  CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F),
                OK);
  int64_t r, c, z;
  EXPECT_STATUS(cusparseSpMatGetSize(A, &r, &c, &z), OK);
  EXPECT(r == 4 && c == 4 && z == 4, "size");
  cusparseFormat_t format;
  cusparseSpMatGetFormat(A, &format);
  EXPECT(format == CUSPARSE_FORMAT_CSR, "format %d", format);
  void *p0, *p1, *p2;
  cusparseIndexType_t t0, t1;
  cusparseIndexBase_t base;
  cudaDataType vt;
  EXPECT_STATUS(cusparseCsrGet(A, &r, &c, &z, &p0, &p1, &p2, &t0, &t1, &base,
                               &vt),
                OK);
  EXPECT(p0 == rows && p1 == cols && p2 == vals && vt == CUDA_R_64F, "get");
  EXPECT_STATUS(cusparseCooGet(A, &r, &c, &z, &p0, &p1, &p2, &t0, &base, &vt),
                BAD);
  int fill = 0;
  EXPECT_STATUS(cusparseSpMatSetAttribute(A, CUSPARSE_SPMAT_FILL_MODE, &fill,
                                          1),
                BAD);
  cusparseDnVecDescr_t X, Y, Y3, F;
  EXPECT_STATUS(cusparseCreateDnVec(&X, 4, x, CUDA_R_64F), OK);
  EXPECT_STATUS(cusparseCreateDnVec(&Y, 4, y, CUDA_R_64F), OK);
  EXPECT_STATUS(cusparseCreateDnVec(&Y3, 3, y, CUDA_R_64F), OK);
  EXPECT_STATUS(cusparseCreateDnVec(&F, 4, y, CUDA_R_32F), OK);
  EXPECT_STATUS(cusparseCreateDnVec(&F, 4, y, (cudaDataType)77), BAD);

  /* SpMV's checks. */
  double one = 1, zero = 0;
  size_t size;
  cusparseOperation_t N = CUSPARSE_OPERATION_NON_TRANSPOSE;
  EXPECT_STATUS(cusparseSpMV_bufferSize(NULL, N, &one, A, X, &zero, Y,
                                        CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT,
                                        &size),
                CUSPARSE_STATUS_NOT_INITIALIZED);
  EXPECT_STATUS(cusparseSpMV_bufferSize(h, N, &one, A, X, &zero, Y, CUDA_R_64F,
                                        CUSPARSE_SPMV_ALG_DEFAULT, NULL),
                BAD);
  EXPECT_STATUS(cusparseSpMV(h, N, &one, A, X, &zero, Y3, CUDA_R_64F,
                             CUSPARSE_SPMV_ALG_DEFAULT, NULL),
                BAD);
  EXPECT_STATUS(cusparseSpMV(h, N, NULL, A, X, &zero, Y, CUDA_R_64F,
                             CUSPARSE_SPMV_ALG_DEFAULT, NULL),
                BAD);
  EXPECT_STATUS(cusparseSpMV(h, N, &one, A, X, &zero, Y, CUDA_R_32F,
                             CUSPARSE_SPMV_ALG_DEFAULT, NULL),
                CUSPARSE_STATUS_NOT_SUPPORTED);
  EXPECT_STATUS(cusparseSpMV(h, N, &one, A, X, &zero, Y, CUDA_R_64F,
                             CUSPARSE_SPMV_ALG_DEFAULT, NULL),
                OK);
  std::vector<double> hy(4);
  CHECK_CUDA(cudaMemcpyAsync(hy.data(), y, 4 * sizeof(double),
                             cudaMemcpyDeviceToHost, s));
  CHECK_CUDA(cudaStreamSynchronize(s));
  EXPECT(hy[3] == 16, "y[3] = %g", hy[3]);

  /* The legacy matrix descriptor. */
  cusparseMatDescr_t descr;
  EXPECT_STATUS(cusparseCreateMatDescr(&descr), OK);
  EXPECT(cusparseGetMatType(descr) == CUSPARSE_MATRIX_TYPE_GENERAL &&
             cusparseGetMatIndexBase(descr) == CUSPARSE_INDEX_BASE_ZERO,
         "defaults");
  EXPECT_STATUS(cusparseSetMatIndexBase(descr, CUSPARSE_INDEX_BASE_ONE), OK);
  EXPECT_STATUS(cusparseSetMatType(descr, CUSPARSE_MATRIX_TYPE_GENERAL), OK);
  EXPECT(cusparseGetMatIndexBase(descr) == CUSPARSE_INDEX_BASE_ONE, "base");
  EXPECT_STATUS(cusparseDestroyMatDescr(descr), OK);

  /* A host array as x, last: a sticky illegal address, as fft_fault.cu
   * checks for cuFFT. */
  {
    std::vector<double> host(4, 1.0);
    cusparseDnVecDescr_t H;
    cusparseCreateDnVec(&H, 4, host.data(), CUDA_R_64F);
    EXPECT_STATUS(cusparseSpMV(h, N, &one, A, H, &zero, Y, CUDA_R_64F,
                               CUSPARSE_SPMV_ALG_DEFAULT, NULL),
                  OK);
    cudaError_t e = cudaDeviceSynchronize();
    EXPECT(e == cudaErrorIllegalAddress, "synchronize gave %s",
           cudaGetErrorName(e));
    e = cudaMemcpy(hy.data(), y, sizeof(double), cudaMemcpyDeviceToHost);
    EXPECT(e == cudaErrorIllegalAddress, "next memcpy gave %s",
           cudaGetErrorName(e));
  }
  return finish();
}
