/* solver_errors.cu: cuSOLVER's error paths and handle calls: versions and
 * properties, a null handle, bad arguments (CUSOLVER_STATUS_INVALID_VALUE
 * with devInfo = -i, LAPACK's numbering of the arguments after the
 * handle), a singular matrix (getrf's info = the first zero pivot, 1-based),
 * a matrix that is not positive definite (potrf's info = the order of the
 * failing minor), the work in the order of the handle's stream (a kernel
 * writes the matrix just before getrf), and, last, a host array as A: the
 * call succeeds and, as a GPU kernel's illegal access would, the next
 * synchronisation returns cudaErrorIllegalAddress (a GPU system with HMM
 * or ATS reads the host array instead: that part checks cuemu's
 * behaviour).
 * CUEMU_OPTIONS: -O0 -lcusolver
 * NVCC_OPTIONS: -lcusolver */
#include <vector>

#include <cusolverDn.h>

#include "../cudalibs/check_libs.h"

static const cusolverStatus_t OK = CUSOLVER_STATUS_SUCCESS,
                              BAD = CUSOLVER_STATUS_INVALID_VALUE;

static int info_of(const int *d) {
  int v = 0;
  CHECK_CUDA(cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost));
  return v;
}

/* Writes the n x n identity with a(2, 2) = 0. */
__global__ void write_singular(double *a, int n) {
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      a[j * n + i] = i == j && i != 2 ? 1.0 : 0.0;
}

int main() {
  int version = 0, major = 0, minor = 0, patch = 0;
  EXPECT_STATUS(cusolverGetVersion(&version), OK);
  EXPECT(version == CUSOLVER_VERSION, "version %d", version);
  EXPECT_STATUS(cusolverGetProperty(MAJOR_VERSION, &major), OK);
  EXPECT_STATUS(cusolverGetProperty(MINOR_VERSION, &minor), OK);
  EXPECT_STATUS(cusolverGetProperty(PATCH_LEVEL, &patch), OK);
  EXPECT(major == CUSOLVER_VER_MAJOR && minor == CUSOLVER_VER_MINOR &&
             patch == CUSOLVER_VER_PATCH,
         "properties %d.%d.%d", major, minor, patch);
  EXPECT_STATUS(cusolverDnSetStream(nullptr, 0),
                CUSOLVER_STATUS_NOT_INITIALIZED);

  cusolverDnHandle_t h;
  EXPECT_STATUS(cusolverDnCreate(&h), OK);
  cusolverDnParams_t params;
  EXPECT_STATUS(cusolverDnCreateParams(&params), OK);
  EXPECT_STATUS(cusolverDnDestroyParams(params), OK);

  const int n = 6;
  double *a;
  int *info, *ipiv, lwork = 0;
  CHECK_CUDA(cudaMalloc(&a, n * n * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&info, sizeof(int)));
  CHECK_CUDA(cudaMalloc(&ipiv, n * sizeof(int)));
  double *work;
  EXPECT_STATUS(cusolverDnDgetrf_bufferSize(h, n, n, a, n, &lwork), OK);
  CHECK_CUDA(cudaMalloc(&work, (lwork > 0 ? lwork : 1) * sizeof(double)));

  /* Bad arguments: the status, and devInfo = -(the argument's position). */
  CHECK_CUDA(cudaMemset(info, 0, sizeof(int)));
  EXPECT_STATUS(cusolverDnDgetrf(h, n, n, a, n - 1, work, ipiv, info), BAD);
  EXPECT(info_of(info) == -4, "getrf with lda < m: info %d", info_of(info));
  EXPECT_STATUS(cusolverDnDgetrf(h, -1, n, a, n, work, ipiv, info), BAD);
  EXPECT(info_of(info) == -1, "getrf with m < 0: info %d", info_of(info));
  EXPECT_STATUS(
      cusolverDnDpotrf(h, CUBLAS_FILL_MODE_LOWER, -2, a, n, work, lwork, info),
      BAD);
  EXPECT(info_of(info) == -2, "potrf with n < 0: info %d", info_of(info));
  EXPECT_STATUS(cusolverDnDgetrs(h, CUBLAS_OP_N, n, 1, a, n, ipiv, a, 2, info),
                BAD);
  EXPECT(info_of(info) == -8, "getrs with ldb < n: info %d", info_of(info));
  double *s, *u, *vt;
  CHECK_CUDA(cudaMalloc(&s, n * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&u, n * n * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&vt, n * n * sizeof(double)));
  /* gesvd takes m >= n only. */
  EXPECT_STATUS(cusolverDnDgesvd(h, 'A', 'A', n - 1, n, a, n, s, u, n, vt, n,
                                 work, lwork, nullptr, info),
                BAD);
  EXPECT(info_of(info) == -4, "gesvd with m < n: info %d", info_of(info));
  EXPECT_STATUS(cusolverDnDgesvd(h, 'O', 'O', n, n, a, n, s, u, n, vt, n, work,
                                 lwork, nullptr, info),
                BAD);
  EXPECT_STATUS(cusolverDnDsyevd(h, CUSOLVER_EIG_MODE_VECTOR,
                                 CUBLAS_FILL_MODE_LOWER, n, a, n - 1, s, work,
                                 lwork, info),
                BAD);
  EXPECT(info_of(info) == -5, "syevd with lda < n: info %d", info_of(info));

  /* A singular matrix written by a kernel on the handle's stream just
   * before: getrf sees the kernel's values, info = 3 (column 3 is zero). */
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  EXPECT_STATUS(cusolverDnSetStream(h, stream), OK);
  CHECK_CUDA(cudaMemset(a, 0x7f, n * n * sizeof(double)));
  write_singular<<<1, 1, 0, stream>>>(a, n);
  EXPECT_STATUS(cusolverDnDgetrf(h, n, n, a, n, work, ipiv, info), OK);
  CHECK_CUDA(cudaStreamSynchronize(stream));
  EXPECT(info_of(info) == 3, "singular getrf: info %d", info_of(info));
  /* Without pivoting too. */
  write_singular<<<1, 1, 0, stream>>>(a, n);
  EXPECT_STATUS(cusolverDnDgetrf(h, n, n, a, n, work, nullptr, info), OK);
  CHECK_CUDA(cudaStreamSynchronize(stream));
  EXPECT(info_of(info) == 3, "singular getrf without pivots: info %d",
         info_of(info));

  /* Not positive definite: diag(1, 1, -1, ...) fails at the third minor. */
  std::vector<double> d(n * n, 0.0);
  for (int i = 0; i < n; ++i)
    d[i * n + i] = i == 2 ? -1.0 : 1.0;
  CHECK_CUDA(cudaMemcpy(a, d.data(), d.size() * sizeof(double),
                        cudaMemcpyHostToDevice));
  EXPECT_STATUS(
      cusolverDnDpotrf(h, CUBLAS_FILL_MODE_UPPER, n, a, n, work, lwork, info),
      OK);
  CHECK_CUDA(cudaStreamSynchronize(stream));
  EXPECT(info_of(info) == 3, "potrf of an indefinite matrix: info %d",
         info_of(info));

  /* Last: a host array as A, a sticky illegal address. */
  {
    std::vector<double> host(n * n, 1.0);
    EXPECT_STATUS(cusolverDnDgetrf(h, n, n, host.data(), n, work, ipiv, info),
                  OK);
    cudaError_t e = cudaDeviceSynchronize();
    EXPECT(e == cudaErrorIllegalAddress, "synchronize gave %s",
           cudaGetErrorName(e));
  }
  cusolverDnDestroy(h);
  return finish();
}
