/* solver_spectral.cu: cuSOLVER's eigen-solver and SVD in the four types:
 * syevd/heevd (vectors or not, lower and upper) checked by ||A V - V W||
 * and ||V^H V - I|| with ascending eigenvalues; gesvd with the jobs
 * 'A', 'S', 'O' and 'N' checked by ||A - U S V^H||, the orthogonality of
 * U and V^H, and the same singular values whatever the job; then the
 * checks of solver_jacobi.h (syevj, gesvdj, Xsyevd, Xgesvd, potrfBatched,
 * potrsBatched).
 * CUEMU_OPTIONS: -O0 -lcusolver
 * NVCC_OPTIONS: -lcusolver */
#include "solver_host.h"

static cusolverDnHandle_t g_h;
static int *g_info;

#include "solver_jacobi.h"

template <class T> static void check_eigen(void) {
  typedef typename real_of<T>::type R;
  const int n = 12, lda = 14;
  const char *t = type_name<T>();
  mat g = random_mat<T>(n, n);
  mat a = mul(g, adjoint(g));
  for (int i = 0; i < n; ++i)
    a(i, i) -= 3.0; /* some negative eigenvalues */
  const cublasFillMode_t uplos[] = {CUBLAS_FILL_MODE_LOWER,
                                    CUBLAS_FILL_MODE_UPPER};
  std::vector<R> first(n);
  for (cublasFillMode_t uplo : uplos)
    for (int vectors = 0; vectors <= 1; ++vectors) {
      /* Only the triangle uplo names is read: the other holds junk. */
      mat in = a;
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i)
          if (uplo == CUBLAS_FILL_MODE_LOWER ? i < j : i > j)
            in(i, j) = 99.0;
      T *da = to_device<T>(in, lda), *work;
      R *dw;
      CHECK_CUDA(cudaMalloc(&dw, n * sizeof(R)));
      cusolverEigMode_t job =
          vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
      int lwork = 0;
      EXPECT_STATUS(evd_bufferSize(g_h, job, uplo, n, da, lda, dw, &lwork),
                    CUSOLVER_STATUS_SUCCESS);
      CHECK_CUDA(cudaMalloc(&work, (lwork > 0 ? lwork : 1) * sizeof(T)));
      EXPECT_STATUS(evd(g_h, job, uplo, n, da, lda, dw, work, lwork, g_info),
                    CUSOLVER_STATUS_SUCCESS);
      std::vector<R> w(n);
      CHECK_CUDA(
          cudaMemcpy(w.data(), dw, n * sizeof(R), cudaMemcpyDeviceToHost));
      EXPECT(device_int(g_info) == 0, "%ssyevd info %d", t, device_int(g_info));
      for (int i = 1; i < n; ++i)
        EXPECT(w[i - 1] <= w[i], "%ssyevd: eigenvalues not ascending", t);
      if (uplo == CUBLAS_FILL_MODE_LOWER && !vectors)
        first = w;
      double spread = 0;
      for (int i = 0; i < n; ++i)
        spread = std::fmax(spread, std::fabs(w[i] - first[i]));
      EXPECT(spread < tolerance<T>() * norm(a), "%ssyevd: eigenvalues %g apart",
             t, spread);
      if (vectors) {
        mat v = from_device<T>(da, n, n, lda), vw = v;
        for (int j = 0; j < n; ++j)
          for (int i = 0; i < n; ++i)
            vw(i, j) *= (double)w[j];
        double r = diff(mul(a, v), vw) / norm(a);
        double o = diff(mul(v, v, true), eye(n)) / n;
        EXPECT(r < tolerance<T>() && o < tolerance<T>(),
               "%ssyevd uplo %d: ||A V - V W|| %g, ||V^H V - I|| %g", t,
               (int)uplo, r, o);
      }
      cudaFree(da);
      cudaFree(dw);
      cudaFree(work);
    }
}

template <class T> static void check_svd(void) {
  typedef typename real_of<T>::type R;
  const int m = 14, n = 9, lda = 16;
  const char *t = type_name<T>();
  mat a = random_mat<T>(m, n);
  const char jobs[][2] = {{'A', 'A'}, {'S', 'S'}, {'O', 'A'},
                          {'A', 'O'}, {'N', 'N'}, {'N', 'S'}};
  std::vector<R> ref;
  for (auto job : jobs) {
    char ju = job[0], jv = job[1];
    int ucols = ju == 'A' ? m : n;
    T *da = to_device<T>(a, lda), *du, *dvt, *work;
    R *ds, *rwork;
    CHECK_CUDA(cudaMalloc(&ds, n * sizeof(R)));
    CHECK_CUDA(cudaMalloc(&du, m * m * sizeof(T)));
    CHECK_CUDA(cudaMalloc(&dvt, n * n * sizeof(T)));
    CHECK_CUDA(cudaMalloc(&rwork, n * sizeof(R)));
    int lwork = 0;
    EXPECT_STATUS(gesvd_bufferSize(g_h, (T *)nullptr, m, n, &lwork),
                  CUSOLVER_STATUS_SUCCESS);
    CHECK_CUDA(cudaMalloc(&work, (lwork > 0 ? lwork : 1) * sizeof(T)));
    EXPECT_STATUS(gesvd(g_h, ju, jv, m, n, da, lda, ds, du, m, dvt, n, work,
                        lwork, rwork, g_info),
                  CUSOLVER_STATUS_SUCCESS);
    EXPECT(device_int(g_info) == 0, "%sgesvd %c%c info %d", t, ju, jv,
           device_int(g_info));
    std::vector<R> s(n);
    CHECK_CUDA(cudaMemcpy(s.data(), ds, n * sizeof(R), cudaMemcpyDeviceToHost));
    for (int i = 1; i < n; ++i)
      EXPECT(s[i - 1] >= s[i] && s[i] >= 0, "%sgesvd: not descending", t);
    if (ref.empty())
      ref = s;
    for (int i = 0; i < n; ++i)
      EXPECT(std::fabs(s[i] - ref[i]) < tolerance<T>() * ref[0],
             "%sgesvd %c%c: s[%d] %g vs %g", t, ju, jv, i, (double)s[i],
             (double)ref[i]);
    mat u = ju == 'O'   ? from_device<T>(da, m, n, lda)
            : ju == 'N' ? mat(0, 0)
                        : from_device<T>(du, m, ucols, m);
    mat vt = jv == 'O'   ? from_device<T>(da, n, n, lda)
             : jv == 'N' ? mat(0, 0)
                         : from_device<T>(dvt, n, n, n);
    if (u.rows) {
      double o = diff(mul(u, u, true), eye(u.cols)) / u.cols;
      EXPECT(o < tolerance<T>(), "%sgesvd %c%c: ||U^H U - I|| %g", t, ju, jv,
             o);
    }
    if (vt.rows) {
      double o = diff(mul(vt, adjoint(vt)), eye(n)) / n;
      EXPECT(o < tolerance<T>(), "%sgesvd %c%c: ||VT VT^H - I|| %g", t, ju, jv,
             o);
    }
    if (u.rows && vt.rows) {
      mat us(m, n);
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i)
          us(i, j) = u(i, j) * (double)s[j];
      double r = diff(mul(us, vt), a) / norm(a);
      EXPECT(r < tolerance<T>(), "%sgesvd %c%c: ||U S VT - A|| %g", t, ju, jv,
             r);
    }
    cudaFree(da);
    cudaFree(du);
    cudaFree(dvt);
    cudaFree(ds);
    cudaFree(rwork);
    cudaFree(work);
  }
}

int main(void) {
  if (cusolverDnCreate(&g_h) != CUSOLVER_STATUS_SUCCESS) {
    std::printf("cusolverDnCreate failed\n");
    return 1;
  }
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  EXPECT_STATUS(cusolverDnSetStream(g_h, stream), CUSOLVER_STATUS_SUCCESS);
  CHECK_CUDA(cudaMalloc(&g_info, sizeof(int)));
  check_eigen<float>();
  check_eigen<double>();
  check_eigen<cuComplex>();
  check_eigen<cuDoubleComplex>();
  check_svd<float>();
  check_svd<double>();
  check_svd<cuComplex>();
  check_svd<cuDoubleComplex>();
  check_jacobi();
  cudaFree(g_info);
  cusolverDnDestroy(g_h);
  cudaStreamDestroy(stream);
  return finish();
}
