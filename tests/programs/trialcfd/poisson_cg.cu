// Poisson solver by conjugate gradients, twice: one kernel launch per step
// of the iteration (scalars kept on the device), and one persistent
// cooperative kernel with grid-wide syncs. Both must converge to the
// tolerance and agree with each other and with a host residual.
#include "cfd/poisson.cuh"

#include <cmath>
#include <cstdio>
#include <vector>

namespace {

constexpr int kBlock = 256;

double host_residual(const std::vector<double> &x, const std::vector<double> &b,
                     int n) {
  double rr = 0.0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const int c = j * n + i;
      double s = 4.0 * x[c];
      if (i > 0) s -= x[c - 1];
      if (i < n - 1) s -= x[c + 1];
      if (j > 0) s -= x[c - n];
      if (j < n - 1) s -= x[c + n];
      const double d = b[c] - s;
      rr += d * d;
    }
  return std::sqrt(rr);
}

struct Problem {
  int n;
  std::vector<double> b;
  double bnorm;
};

Problem make_problem(int n) {
  Problem pr{n, std::vector<double>(size_t(n) * n), 0.0};
  const double h = 1.0 / (n + 1);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const double x = (i + 1) * h, y = (j + 1) * h;
      // A smooth part and a square source: not an eigenvector.
      const double square = (x > 0.2 && x < 0.45 && y > 0.6 && y < 0.8) ? 10.0 : 0.0;
      pr.b[size_t(j) * n + i] =
          h * h * (2.0 * M_PI * M_PI * std::sin(M_PI * x) * std::sin(M_PI * y) +
                   square + x);
    }
  for (double v : pr.b)
    pr.bnorm += v * v;
  pr.bnorm = std::sqrt(pr.bnorm);
  return pr;
}

// Device vectors: x = 0, r = p = b.
struct DeviceCg {
  double *x, *r, *p, *ap, *scalars;
  int *iterations;
  DeviceCg(const Problem &pr) {
    const size_t bytes = pr.b.size() * sizeof(double);
    CUDA_CHECK(cudaMalloc(&x, bytes));
    CUDA_CHECK(cudaMalloc(&r, bytes));
    CUDA_CHECK(cudaMalloc(&p, bytes));
    CUDA_CHECK(cudaMalloc(&ap, bytes));
    CUDA_CHECK(cudaMalloc(&scalars, 8 * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&iterations, sizeof(int)));
    CUDA_CHECK(cudaMemset(x, 0, bytes));
    CUDA_CHECK(cudaMemset(scalars, 0, 8 * sizeof(double)));
    CUDA_CHECK(cudaMemcpy(r, pr.b.data(), bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(p, r, bytes, cudaMemcpyDeviceToDevice));
  }
  ~DeviceCg() {
    cudaFree(x);
    cudaFree(r);
    cudaFree(p);
    cudaFree(ap);
    cudaFree(scalars);
    cudaFree(iterations);
  }
};

bool solve_per_launch(const Problem &pr, double tol, std::vector<double> &x) {
  DeviceCg d(pr);
  const int total = pr.n * pr.n;
  const int blocks = std::min(64, (total + kBlock - 1) / kBlock);
  double rr = pr.bnorm * pr.bnorm;
  // scalars: [0] p.Ap, [1] rr_old, [2] rr_new
  CUDA_CHECK(cudaMemcpy(d.scalars + 1, &rr, sizeof(double), cudaMemcpyHostToDevice));
  int k = 0;
  const int max_iter = 4 * pr.n;
  while (k < max_iter && std::sqrt(rr) > tol * pr.bnorm) {
    CUDA_CHECK(cudaMemsetAsync(d.scalars, 0, sizeof(double)));
    CUDA_CHECK(cudaMemsetAsync(d.scalars + 2, 0, sizeof(double)));
    cfd::spmv_dot_kernel<kBlock><<<blocks, kBlock>>>(d.p, d.ap, pr.n, d.scalars);
    cfd::update_xr_kernel<kBlock><<<blocks, kBlock>>>(
        d.x, d.r, d.p, d.ap, d.scalars + 1, d.scalars, total, d.scalars + 2);
    cfd::update_p_kernel<<<blocks, kBlock>>>(d.p, d.r, d.scalars + 2,
                                             d.scalars + 1, total);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(&rr, d.scalars + 2, sizeof(double), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(d.scalars + 1, d.scalars + 2, sizeof(double),
                          cudaMemcpyDeviceToDevice));
    ++k;
  }
  x.resize(total);
  CUDA_CHECK(cudaMemcpy(x.data(), d.x, total * sizeof(double), cudaMemcpyDeviceToHost));
  const double res = host_residual(x, pr.b, pr.n) / pr.bnorm;
  const bool ok = std::sqrt(rr) <= tol * pr.bnorm && res < 10 * tol;
  std::printf("per-launch CG: %d iterations, residual %.3e (host %.3e) %s\n", k,
              std::sqrt(rr) / pr.bnorm, res, ok ? "ok" : "WRONG");
  return ok;
}

bool solve_cooperative(const Problem &pr, double tol, std::vector<double> &x) {
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  int supports = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&supports, cudaDevAttrCooperativeLaunch, dev));
  if (!supports) {
    std::printf("cooperative launch not supported\n");
    return false;
  }
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
  int per_sm = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &per_sm, cfd::cg_persistent_kernel<kBlock>, kBlock, 0));
  const int total = pr.n * pr.n;
  int blocks = per_sm * prop.multiProcessorCount;
  blocks = std::min(blocks, (total + kBlock - 1) / kBlock);
  if (blocks < 1) {
    std::printf("no resident block\n");
    return false;
  }

  DeviceCg d(pr);
  double *d_final = nullptr;
  CUDA_CHECK(cudaMalloc(&d_final, sizeof(double)));
  cfd::CgWork w{d.x, d.r, d.p, d.ap, d.scalars, d.iterations, d_final};
  const double rr0 = pr.bnorm * pr.bnorm;
  const double tol2 = tol * tol * rr0;
  int n = pr.n;
  int max_iter = 4 * pr.n;
  int print_every = 25;
  void *args[] = {&w, &n, const_cast<double *>(&rr0), const_cast<double *>(&tol2),
                  &max_iter, &print_every};
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  CUDA_CHECK(cudaEventRecord(start));
  CUDA_CHECK(cudaLaunchCooperativeKernel(
      reinterpret_cast<void *>(cfd::cg_persistent_kernel<kBlock>), blocks,
      kBlock, args, 0, 0));
  CUDA_CHECK(cudaEventRecord(stop));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  int iterations = 0;
  double rr = 0.0;
  CUDA_CHECK(cudaMemcpy(&iterations, d.iterations, sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&rr, d_final, sizeof(double), cudaMemcpyDeviceToHost));
  x.resize(total);
  CUDA_CHECK(cudaMemcpy(x.data(), d.x, total * sizeof(double), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_final));
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  const double res = host_residual(x, pr.b, pr.n) / pr.bnorm;
  const bool ok = rr <= tol2 && res < 10 * tol && ms >= 0.0f;
  std::printf("cooperative CG: %d blocks (%d per SM), %d iterations, residual "
              "%.3e (host %.3e) %s\n",
              blocks, per_sm, iterations, std::sqrt(rr / rr0), res,
              ok ? "ok" : "WRONG");
  return ok;
}

} // namespace

int main() {
  cfd::print_device_banner();
  const Problem pr = make_problem(48);
  const double tol = 1e-8;
  std::vector<double> x1, x2;
  bool ok = solve_per_launch(pr, tol, x1);
  ok = solve_cooperative(pr, tol, x2) && ok;
  double diff = 0.0, umax = 0.0;
  for (size_t c = 0; c < x1.size(); ++c) {
    diff = std::fmax(diff, std::fabs(x1[c] - x2[c]));
    umax = std::fmax(umax, x1[c]);
  }
  const bool agree = diff < 1e-6 && umax > 1.0 && umax < 2.0;
  std::printf("solutions differ by %.3e, max %.4f %s\n", diff, umax,
              agree ? "ok" : "WRONG");
  ok = ok && agree;
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
