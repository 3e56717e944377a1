// CUEMU_OPTIONS: --check=init,race,mem -lcurand -lcublas -lcufft -lcusparse -lcusolver
// NVCC_OPTIONS: -lcurand -lcublas -lcufft -lcusparse -lcusolver
// What a library writes into device memory is written memory: a kernel
// that reads the values cuRAND's host API generated, or the C of a cuBLAS
// GEMM (beta 0, C never set; a leading dimension larger than m, whose
// padding stays unset and unread), or of the other BLAS calls (batched LU
// and QR, rotg and rotmg too), cuFFT's
// output (C2C and R2C), cuSPARSE's SpMV y (beta 0), DenseToSparse's CSR
// and Csr2cscEx2's CSC arrays, or cuSOLVER's S, U
// and VT of gesvd, pivots of getrf and devInfo, is not reported by
// initcheck. cuemu's libraries compute on the host and must
// say what they wrote (cuemu_rt_library_wrote).
#include <cmath>
#include <cstdio>
#include <cublas_v2.h>
#include <cufft.h>
#include <cusolverDn.h>
#include <cusparse.h>
#include <curand.h>

#define CURAND_OK(call)                                                   \
  do {                                                                    \
    curandStatus_t s_ = (call);                                           \
    if (s_ != CURAND_STATUS_SUCCESS) {                                    \
      printf("FAIL: %s gave %d\n", #call, (int)s_);                       \
      return 1;                                                           \
    }                                                                     \
  } while (0)

__global__ void sum_all(const float *u, const float *g, const unsigned *bits,
                        const double *d, int n, double *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(out, (double)u[i] + g[i] + (bits[i] & 1u) + d[i]);
}

__global__ void sum_matrix(const float *c, int m, int ldc, float *out) {
  for (int i = threadIdx.x; i < m * m; i += blockDim.x)
    atomicAdd(out, c[i % m + (i / m) * ldc]);
}

__global__ void sum_outputs(const float *y1, const float *y2, const float *dot,
                            const float *c2, const float *c3, int m,
                            float *out) {
  for (int i = threadIdx.x; i < m * m; i += blockDim.x) {
    int r = i % m, col = i / m;
    float v = c2[i] + (r <= col ? c3[i] : 0.0f);
    if (i < m)
      v += y1[i] + y2[i];
    if (i == 0)
      v += *dot;
    atomicAdd(out, v);
  }
}

__global__ void sum_fft_sparse(const cufftComplex *c2c, const cufftComplex *r2c,
                               const float *y, int m, float *out) {
  for (int i = threadIdx.x; i < m; i += blockDim.x) {
    float v = c2c[i].x + y[i];
    if (i == 0)
      v += r2c[0].x;
    if (i <= m / 2)
      v += 0.0f * (r2c[i].x + r2c[i].y);
    atomicAdd(out, v);
  }
}

__global__ void sum_solver(const float *s, const float *u, const float *vt,
                           const int *piv, const int *info, int q,
                           float *out) {
  if (threadIdx.x == 0)
    atomicAdd(out + 1, (float)*info);
  for (int i = threadIdx.x; i < q * q; i += blockDim.x) {
    float v = u[i] * u[i] + vt[i] * vt[i];
    if (i < q) {
      v += s[i] * s[i];
      atomicAdd(out + 1, piv[i] >= 1 && piv[i] <= q ? 1.0f : 0.0f);
    }
    atomicAdd(out, v);
  }
}

__global__ void sum_batched(const float *inv, const int *piv, const int *info,
                            const float *tau, int n, float *out) {
  for (int i = threadIdx.x; i < n * n; i += blockDim.x) {
    float v = inv[i];
    if (i < n) {
      v += 0.0f * tau[i];
      atomicAdd(out + 1, (float)piv[i]);
    }
    if (i < 2)
      atomicAdd(out + 1, (float)info[i]);
    atomicAdd(out, v);
  }
}

__global__ void sum_sparse_arrays(const float *csrv, const int *csro,
                                  const int *csrc, const float *cscv,
                                  const int *csco, const int *cscr, int n,
                                  int nnz, float *out) {
  for (int i = threadIdx.x; i < nnz; i += blockDim.x) {
    float v = csrv[i] + cscv[i] + 0.0f * (csrc[i] + cscr[i]);
    if (i <= n)
      v += 0.0f * (csro[i] + csco[i]);
    atomicAdd(out, v);
  }
}

__global__ void sum_rot(const float *c, const float *s, const float *param,
                        float *out) {
  *out = *c + *s + param[0];
}

int main() {
  const int n = 4096;
  float *u, *g;
  unsigned *bits;
  double *d, *out;
  cudaMalloc(&u, n * sizeof(float));
  cudaMalloc(&g, n * sizeof(float));
  cudaMalloc(&bits, n * sizeof(unsigned));
  cudaMalloc(&d, n * sizeof(double));
  cudaMalloc(&out, sizeof(double));
  cudaMemset(out, 0, sizeof(double));
  curandGenerator_t gen;
  CURAND_OK(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_PHILOX4_32_10));
  CURAND_OK(curandSetPseudoRandomGeneratorSeed(gen, 7ULL));
  CURAND_OK(curandGenerateUniform(gen, u, n));
  CURAND_OK(curandGenerateNormal(gen, g, n, 0.0f, 1.0f));
  CURAND_OK(curandGenerate(gen, bits, n));
  CURAND_OK(curandGenerateUniformDouble(gen, d, n));
  sum_all<<<(n + 255) / 256, 256>>>(u, g, bits, d, n, out);
  cudaError_t e = cudaDeviceSynchronize();
  double sum = 0;
  cudaMemcpy(&sum, out, sizeof sum, cudaMemcpyDeviceToHost);

  // C (m x m, leading dimension m + 3) = A * B with A and B from cuRAND.
  const int m = 24, ldc = m + 3;
  float *c, *csum;
  cudaMalloc(&c, ldc * m * sizeof(float));
  cudaMalloc(&csum, sizeof(float));
  cudaMemset(csum, 0, sizeof(float));
  cublasHandle_t h;
  const float one = 1.0f, zero = 0.0f;
  bool blas_ok = cublasCreate(&h) == CUBLAS_STATUS_SUCCESS &&
                 cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, m, m, &one, u, m,
                             u + m * m, m, &zero, c, ldc) ==
                     CUBLAS_STATUS_SUCCESS;
  sum_matrix<<<1, 256>>>(c, m, ldc, csum);
  cudaError_t e2 = cudaDeviceSynchronize();
  float cs = 0;
  cudaMemcpy(&cs, csum, sizeof cs, cudaMemcpyDeviceToHost);
  float hu[2 * m * m];
  cudaMemcpy(hu, u, sizeof hu, cudaMemcpyDeviceToHost);
  double want = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j)
      for (int k = 0; k < m; ++k)
        want += (double)hu[i + k * m] * hu[m * m + k + j * m];
  // Other cuBLAS outputs that nothing set before: copy's y, gemv's y
  // (beta 0), dot's result in device pointer mode, geam's C, and the upper
  // triangle of syrk's C (the lower one stays unset and unread).
  float *y1, *y2, *dot, *c2, *c3, *osum;
  cudaMalloc(&y1, m * sizeof(float));
  cudaMalloc(&y2, m * sizeof(float));
  cudaMalloc(&dot, sizeof(float));
  cudaMalloc(&c2, m * m * sizeof(float));
  cudaMalloc(&c3, m * m * sizeof(float));
  cudaMalloc(&osum, sizeof(float));
  cudaMemset(osum, 0, sizeof(float));
  blas_ok = blas_ok && cublasScopy(h, m, u, 1, y1, 1) == 0 &&
            cublasSgemv(h, CUBLAS_OP_N, m, m, &one, u, m, u, 1, &zero, y2,
                        1) == 0 &&
            cublasSgeam(h, CUBLAS_OP_N, CUBLAS_OP_T, m, m, &one, u, m, &one,
                        u, m, c2, m) == 0 &&
            cublasSsyrk(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, m, m, &one,
                        u, m, &zero, c3, m) == 0 &&
            cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE) == 0 &&
            cublasSdot(h, m, u, 1, u, 1, dot) == 0;
  sum_outputs<<<1, 128>>>(y1, y2, dot, c2, c3, m, osum);
  cudaError_t e3 = cudaDeviceSynchronize();
  float os = 0;
  cudaMemcpy(&os, osum, sizeof os, cudaMemcpyDeviceToHost);
  double owant = 0, dsum = 0;
  for (int i = 0; i < m; ++i) {
    owant += hu[i];
    for (int k = 0; k < m; ++k)
      owant += (double)hu[i + k * m] * hu[k] + hu[i + k * m] + hu[k + i * m];
    for (int j = i; j < m; ++j)
      for (int k = 0; k < m; ++k)
        owant += (double)hu[i + k * m] * hu[j + k * m];
    dsum += (double)hu[i] * hu[i];
  }
  owant += dsum;
  cudaFree(y1);
  cudaFree(y2);
  cudaFree(dot);
  cudaFree(c2);
  cudaFree(c3);
  cudaFree(osum);
  // The batched LU and QR calls: matinvBatched's inverse, getrfBatched's
  // pivots and infos, geqrfBatched's taus, of diag(2) (4 x 4).
  const int nb = 4;
  float hdiag[nb * nb] = {}, *da, *dlu, *dinv, *dtau, *bsum;
  for (int i = 0; i < nb; ++i)
    hdiag[i * nb + i] = 2.0f;
  int *dpiv, *dinfo;
  float **parr;
  cudaMalloc(&da, sizeof hdiag);
  cudaMalloc(&dlu, sizeof hdiag);
  cudaMalloc(&dinv, sizeof hdiag);
  cudaMalloc(&dtau, nb * sizeof(float));
  cudaMalloc(&bsum, 2 * sizeof(float));
  cudaMalloc(&dpiv, nb * sizeof(int));
  cudaMalloc(&dinfo, 2 * sizeof(int));
  cudaMalloc(&parr, 4 * sizeof(float *));
  cudaMemset(bsum, 0, 2 * sizeof(float));
  cudaMemcpy(da, hdiag, sizeof hdiag, cudaMemcpyHostToDevice);
  cudaMemcpy(dlu, hdiag, sizeof hdiag, cudaMemcpyHostToDevice);
  float *hp[4] = {da, dinv, dlu, dtau};
  cudaMemcpy(parr, hp, sizeof hp, cudaMemcpyHostToDevice);
  int qr_info = 0;
  blas_ok = blas_ok &&
            cublasSmatinvBatched(h, nb, parr, nb, parr + 1, nb, dinfo, 1) ==
                0 &&
            cublasSgetrfBatched(h, nb, parr + 2, nb, dpiv, dinfo + 1, 1) == 0 &&
            cublasSgeqrfBatched(h, nb, nb, parr + 2, nb, parr + 3, &qr_info,
                                1) == 0;
  sum_batched<<<1, 32>>>(dinv, dpiv, dinfo, dtau, nb, bsum);
  cudaError_t e6 = cudaDeviceSynchronize();
  float bhost[2] = {0, 0};
  cudaMemcpy(bhost, bsum, sizeof bhost, cudaMemcpyDeviceToHost);
  // The inverse's sum is nb / 2; the pivots' 1 + ... + nb; the infos 0.
  bool batched_ok = e6 == cudaSuccess && bhost[0] == nb * 0.5f &&
                    bhost[1] == nb * (nb + 1) / 2;
  printf("batched LU and QR: %s, inverse %.3f, pivots %.0f\n",
         cudaGetErrorString(e6), bhost[0], bhost[1]);
  // rotg's c and s and rotmg's param, in device pointer mode: a = 3, b = 4
  // give c = 0.6 and s = 0.8; d1 = d2 = 1, x1 = 1, y1 = 0 give the flag -2.
  float hrot[8] = {3, 4, 0, 0, 1, 1, 1, 0}, *drot, *dparam, *rsum;
  cudaMalloc(&drot, sizeof hrot);
  cudaMalloc(&dparam, 5 * sizeof(float));
  cudaMalloc(&rsum, sizeof(float));
  cudaMemcpy(drot, hrot, sizeof hrot, cudaMemcpyHostToDevice);
  cudaMemset(rsum, 0, sizeof(float));
  blas_ok = blas_ok &&
            cublasSrotg(h, drot, drot + 1, drot + 2, drot + 3) == 0 &&
            cublasSrotmg(h, drot + 4, drot + 5, drot + 6, drot + 7, dparam) ==
                0;
  sum_rot<<<1, 1>>>(drot + 2, drot + 3, dparam, rsum);
  cudaError_t e7 = cudaDeviceSynchronize();
  float rs = 0;
  cudaMemcpy(&rs, rsum, sizeof rs, cudaMemcpyDeviceToHost);
  printf("rotg and rotmg: %s, c + s + flag %.3f (want -0.6)\n",
         cudaGetErrorString(e7), rs);
  batched_ok = batched_ok && e7 == cudaSuccess && fabs(rs + 0.6f) < 1e-5;
  cudaFree(drot);
  cudaFree(dparam);
  cudaFree(rsum);
  cudaFree(da);
  cudaFree(dlu);
  cudaFree(dinv);
  cudaFree(dtau);
  cudaFree(bsum);
  cudaFree(dpiv);
  cudaFree(dinfo);
  cudaFree(parr);
  if (blas_ok)
    cublasDestroy(h);
  cudaFree(c);
  cudaFree(csum);

  // cuFFT: a C2C and an R2C transform of m values into unset outputs; the
  // sum of the C2C output's real parts is m times the first input.
  // cuSPARSE: y = A x with A the m x m identity in CSR, beta 0.
  cufftComplex *cin, *cout, *rout;
  float *y3, *fsum;
  int *rowptr, *colind;
  cudaMalloc(&cin, m * sizeof(cufftComplex));
  cudaMalloc(&cout, m * sizeof(cufftComplex));
  cudaMalloc(&rout, (m / 2 + 1) * sizeof(cufftComplex));
  cudaMalloc(&y3, m * sizeof(float));
  cudaMalloc(&fsum, sizeof(float));
  cudaMalloc(&rowptr, (m + 1) * sizeof(int));
  cudaMalloc(&colind, m * sizeof(int));
  cudaMemset(fsum, 0, sizeof(float));
  cudaMemcpy2D(cin, sizeof(cufftComplex), u, sizeof(float), sizeof(float), m,
               cudaMemcpyDeviceToDevice);
  cudaMemcpy2D((char *)cin + sizeof(float), sizeof(cufftComplex), u,
               sizeof(float), sizeof(float), m, cudaMemcpyDeviceToDevice);
  int hrow[m + 1], hcol[m];
  for (int i = 0; i <= m; ++i)
    hrow[i] = i;
  for (int i = 0; i < m; ++i)
    hcol[i] = i;
  cudaMemcpy(rowptr, hrow, sizeof hrow, cudaMemcpyHostToDevice);
  cudaMemcpy(colind, hcol, sizeof hcol, cudaMemcpyHostToDevice);
  cufftHandle p1, p2;
  bool fft_ok = cufftPlan1d(&p1, m, CUFFT_C2C, 1) == CUFFT_SUCCESS &&
                cufftPlan1d(&p2, m, CUFFT_R2C, 1) == CUFFT_SUCCESS &&
                cufftExecC2C(p1, cin, cout, CUFFT_INVERSE) == CUFFT_SUCCESS &&
                cufftExecR2C(p2, u, rout) == CUFFT_SUCCESS;
  cusparseHandle_t sh;
  cusparseSpMatDescr_t A;
  cusparseDnVecDescr_t vx, vy;
  size_t need = 0;
  void *buffer = nullptr;
  bool sparse_ok =
      cusparseCreate(&sh) == CUSPARSE_STATUS_SUCCESS &&
      cusparseCreateCsr(&A, m, m, m, rowptr, colind, u, CUSPARSE_INDEX_32I,
                        CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                        CUDA_R_32F) == CUSPARSE_STATUS_SUCCESS &&
      cusparseCreateDnVec(&vx, m, u + m, CUDA_R_32F) == 0 &&
      cusparseCreateDnVec(&vy, m, y3, CUDA_R_32F) == 0 &&
      cusparseSpMV_bufferSize(sh, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A,
                              vx, &zero, vy, CUDA_R_32F,
                              CUSPARSE_SPMV_ALG_DEFAULT, &need) == 0 &&
      cudaMalloc(&buffer, need + 1) == cudaSuccess &&
      cusparseSpMV(sh, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, vx, &zero,
                   vy, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, buffer) == 0;
  // DenseToSparse of a 4 x 4 dense matrix with 6 non-zeros into unset CSR
  // arrays, then cusparseCsr2cscEx2 into unset CSC arrays.
  const int dn = 4, dnnz = 6;
  float hdense[dn * dn] = {1, 0, 0, 2, 0, 3, 0, 0, 4, 0, 5, 0, 0, 0, 0, 6};
  float *ddense, *csrv, *cscv;
  int *csro, *csrc, *csco, *cscr;
  cudaMalloc(&ddense, sizeof hdense);
  cudaMalloc(&csrv, dnnz * sizeof(float));
  cudaMalloc(&cscv, dnnz * sizeof(float));
  cudaMalloc(&csro, (dn + 1) * sizeof(int));
  cudaMalloc(&csrc, dnnz * sizeof(int));
  cudaMalloc(&csco, (dn + 1) * sizeof(int));
  cudaMalloc(&cscr, dnnz * sizeof(int));
  cudaMemcpy(ddense, hdense, sizeof hdense, cudaMemcpyHostToDevice);
  cusparseDnMatDescr_t dmat;
  cusparseSpMatDescr_t smat;
  int64_t r64, c64, nnz64 = 0;
  size_t need2 = 0, need3 = 0;
  void *buffer2 = nullptr, *buffer3 = nullptr;
  sparse_ok =
      sparse_ok &&
      cusparseCreateDnMat(&dmat, dn, dn, dn, ddense, CUDA_R_32F,
                          CUSPARSE_ORDER_ROW) == 0 &&
      cusparseCreateCsr(&smat, dn, dn, 0, csro, nullptr, nullptr,
                        CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                        CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F) == 0 &&
      cusparseDenseToSparse_bufferSize(sh, dmat, smat,
                                       CUSPARSE_DENSETOSPARSE_ALG_DEFAULT,
                                       &need2) == 0 &&
      cudaMalloc(&buffer2, need2 + 1) == cudaSuccess &&
      cusparseDenseToSparse_analysis(sh, dmat, smat,
                                     CUSPARSE_DENSETOSPARSE_ALG_DEFAULT,
                                     buffer2) == 0 &&
      cusparseSpMatGetSize(smat, &r64, &c64, &nnz64) == 0 && nnz64 == dnnz &&
      cusparseCsrSetPointers(smat, csro, csrc, csrv) == 0 &&
      cusparseDenseToSparse_convert(sh, dmat, smat,
                                    CUSPARSE_DENSETOSPARSE_ALG_DEFAULT,
                                    buffer2) == 0 &&
      cusparseCsr2cscEx2_bufferSize(sh, dn, dn, dnnz, csrv, csro, csrc, cscv,
                                    csco, cscr, CUDA_R_32F,
                                    CUSPARSE_ACTION_NUMERIC,
                                    CUSPARSE_INDEX_BASE_ZERO,
                                    CUSPARSE_CSR2CSC_ALG1, &need3) == 0 &&
      cudaMalloc(&buffer3, need3 + 1) == cudaSuccess &&
      cusparseCsr2cscEx2(sh, dn, dn, dnnz, csrv, csro, csrc, cscv, csco, cscr,
                         CUDA_R_32F, CUSPARSE_ACTION_NUMERIC,
                         CUSPARSE_INDEX_BASE_ZERO,
                         CUSPARSE_CSR2CSC_ALG1, buffer3) == 0;
  sum_sparse_arrays<<<1, 32>>>(csrv, csro, csrc, cscv, csco, cscr, dn, dnnz,
                               fsum);
  sum_fft_sparse<<<1, 64>>>(cout, rout, y3, m, fsum);
  cudaError_t e4 = cudaDeviceSynchronize();
  float fs = 0;
  cudaMemcpy(&fs, fsum, sizeof fs, cudaMemcpyDeviceToHost);
  // C2C inverse: sum over k of out[k] = m in[0]; R2C: out[0].re is the sum
  // of the inputs; SpMV with the identity and u on the diagonal: y = u * x.
  // DenseToSparse and Csr2cscEx2: the values 1 + ... + 6 twice (offsets and
  // indices are read, times 0).
  double fwant = m * (double)hu[0] + 42;
  for (int i = 0; i < m; ++i)
    fwant += hu[i] + (double)hu[i] * hu[m + i];
  cufftDestroy(p1);
  cufftDestroy(p2);
  cusparseDestroy(sh);
  cudaFree(cin);
  cudaFree(cout);
  cudaFree(rout);
  cudaFree(y3);
  cudaFree(fsum);
  cudaFree(rowptr);
  cudaFree(colind);
  cudaFree(buffer);
  cudaFree(ddense);
  cudaFree(csrv);
  cudaFree(cscv);
  cudaFree(csro);
  cudaFree(csrc);
  cudaFree(csco);
  cudaFree(cscr);
  cudaFree(buffer2);
  cudaFree(buffer3);

  // cuSOLVER: the SVD of an 8 x 8 matrix from cuRAND (sum of S^2 is its
  // Frobenius norm squared; U and VT are orthogonal: m each), and the
  // pivots of its LU factorisation (each in 1..8) and its devInfo (0).
  const int q = 8;
  float *qa, *qs, *qu, *qvt, *work, *qsum;
  int *qinfo, *qpiv, lwork = 0, lwork2 = 0;
  cudaMalloc(&qa, q * q * sizeof(float));
  cudaMalloc(&qs, q * sizeof(float));
  cudaMalloc(&qu, q * q * sizeof(float));
  cudaMalloc(&qvt, q * q * sizeof(float));
  cudaMalloc(&qinfo, sizeof(int));
  cudaMalloc(&qpiv, q * sizeof(int));
  cudaMalloc(&qsum, 2 * sizeof(float));
  cudaMemset(qsum, 0, 2 * sizeof(float));
  cudaMemcpy(qa, u, q * q * sizeof(float), cudaMemcpyDeviceToDevice);
  cusolverDnHandle_t qh;
  bool solver_ok =
      cusolverDnCreate(&qh) == CUSOLVER_STATUS_SUCCESS &&
      cusolverDnSgesvd_bufferSize(qh, q, q, &lwork) == 0 &&
      cusolverDnSgetrf_bufferSize(qh, q, q, qa, q, &lwork2) == 0 &&
      cudaMalloc(&work, (lwork > lwork2 ? lwork : lwork2) * sizeof(float)) ==
          cudaSuccess &&
      cusolverDnSgesvd(qh, 'A', 'A', q, q, qa, q, qs, qu, q, qvt, q, work,
                       lwork, nullptr, qinfo) == 0 &&
      cudaMemcpy(qa, u, q * q * sizeof(float), cudaMemcpyDeviceToDevice) ==
          cudaSuccess &&
      cusolverDnSgetrf(qh, q, q, qa, q, work, qpiv, qinfo) == 0;
  sum_solver<<<1, 64>>>(qs, qu, qvt, qpiv, qinfo, q, qsum);
  cudaError_t e5 = cudaDeviceSynchronize();
  float qhost[2] = {0, 0};
  cudaMemcpy(qhost, qsum, sizeof qhost, cudaMemcpyDeviceToHost);
  double frob = 0;
  for (int i = 0; i < q * q; ++i)
    frob += (double)hu[i] * hu[i];
  solver_ok = solver_ok && e5 == cudaSuccess &&
              fabs(qhost[0] - (frob + 2 * q)) < 1e-3 * (frob + 2 * q) &&
              qhost[1] == q;
  printf("cuSOLVER: %s, S^2 + |U|^2 + |VT|^2 %.4f (host %.4f), pivots in "
         "range %.0f of %d\n",
         cudaGetErrorString(e5), qhost[0], frob + 2 * q, qhost[1], q);
  cusolverDnDestroy(qh);
  cudaFree(qa);
  cudaFree(qs);
  cudaFree(qu);
  cudaFree(qvt);
  cudaFree(work);
  cudaFree(qinfo);
  cudaFree(qpiv);
  cudaFree(qsum);
  CURAND_OK(curandDestroyGenerator(gen));
  cudaFree(u);
  cudaFree(g);
  cudaFree(bits);
  cudaFree(d);
  cudaFree(out);
  // Means: 0.5 + 0 + 0.5 + 0.5 per element.
  double mean = sum / n;
  bool ok = e == cudaSuccess && mean > 1.4 && mean < 1.6 && blas_ok &&
            e2 == cudaSuccess && fabs(cs - want) < 1e-3 * want &&
            e3 == cudaSuccess && fabs(os - owant) < 1e-3 * owant &&
            fft_ok && sparse_ok && e4 == cudaSuccess &&
            fabs(fs - fwant) < 1e-3 * fwant && solver_ok && batched_ok;
  printf("%s, %s, %s, %s, mean %.4f, GEMM sum %.3f (host %.3f), other BLAS "
         "outputs %.3f (host %.3f), cuFFT and cuSPARSE %.3f (host %.3f)\n"
         "%s\n",
         cudaGetErrorString(e), cudaGetErrorString(e2),
         cudaGetErrorString(e3), cudaGetErrorString(e4), mean, cs, want, os,
         owant, fs, fwant, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
