// cg_multi_thread.cu: a conjugate gradient solve split across every
// device, one host thread per device, in the shape of multi-GPU solver
// samples: each thread owns its device's slice, exchanges the halo of the
// search direction with its neighbours by cudaMemcpyPeerAsync (peer access
// enabled where cudaDeviceGetP2PAttribute reports it), computes its partial
// dot products with a cooperative kernel (cudaLaunchCooperativeKernel,
// grid sized by the occupancy calculator), and meets the other threads at
// a host barrier to combine them. Checked against a host CG.
#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>
#include "../samp_check.h"
#include "cg_kernels.cuh"

constexpr int N = 6000, THREADS = 128, MAX_IT = 400;
constexpr double TOL = 1e-10;

class HostBarrier {
 public:
  explicit HostBarrier(int n) : n_(n) {}
  void wait() {
    std::unique_lock<std::mutex> lk(m_);
    int gen = gen_;
    if (++count_ == n_) {
      count_ = 0;
      ++gen_;
      cv_.notify_all();
    } else {
      cv_.wait(lk, [&] { return gen != gen_; });
    }
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  int n_, count_ = 0, gen_ = 0;
};

struct Shared {
  int devices;
  HostBarrier barrier;
  std::vector<double> partial;  // one per device
  std::vector<double *> p;      // each device's p (with halo), base pointer
  std::vector<int> rows, first;
  int iterations = 0;
  double residual = 0;
  explicit Shared(int d) : devices(d), barrier(d), partial(d), p(d), rows(d), first(d) {}
  double reduce(int dev, double mine) {
    partial[dev] = mine;
    barrier.wait();
    double t = 0;
    for (double v : partial) t += v;
    barrier.wait();
    return t;
  }
};

static void deviceWorker(int dev, Shared *sh, const std::vector<double> *rhs,
                         std::vector<double> *x_out) {
  checkCudaErrors(cudaSetDevice(dev));
  int n = sh->rows[dev], first = sh->first[dev];
  for (int other = 0; other < sh->devices; ++other) {
    if (other == dev || std::abs(other - dev) != 1) continue;
    int access = 0;
    checkCudaErrors(cudaDeviceGetP2PAttribute(&access, cudaDevP2PAttrAccessSupported, dev, other));
    if (access) {
      cudaError_t e = cudaDeviceEnablePeerAccess(other, 0);
      if (e != cudaErrorPeerAccessAlreadyEnabled) checkCudaErrors(e);
    }
  }
  double *p, *x, *r, *Ap, *partials, *dot;
  checkCudaErrors(cudaMalloc(&p, (n + 2) * sizeof(double)));
  checkCudaErrors(cudaMalloc(&x, n * sizeof(double)));
  checkCudaErrors(cudaMalloc(&r, n * sizeof(double)));
  checkCudaErrors(cudaMalloc(&Ap, n * sizeof(double)));
  checkCudaErrors(cudaMemset(p, 0, (n + 2) * sizeof(double)));  // zero halos at the ends
  checkCudaErrors(cudaMemset(x, 0, n * sizeof(double)));
  checkCudaErrors(cudaMemcpy(r, rhs->data() + first, n * sizeof(double), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(p + 1, r, n * sizeof(double), cudaMemcpyDeviceToDevice));
  sh->p[dev] = p;

  int supportsCoop = 0, smCount = 0, perSm = 0;
  checkCudaErrors(cudaDeviceGetAttribute(&supportsCoop, cudaDevAttrCooperativeLaunch, dev));
  checkCudaErrors(cudaDeviceGetAttribute(&smCount, cudaDevAttrMultiProcessorCount, dev));
  checkCudaErrors(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, gridDot<THREADS>,
                                                                THREADS, 0));
  int dotBlocks = std::min(smCount * perSm, (n + THREADS - 1) / THREADS);
  if (!supportsCoop || dotBlocks < 1) {
    fprintf(stderr, "device %d cannot launch cooperatively\n", dev);
    exit(EXIT_FAILURE);
  }
  checkCudaErrors(cudaMalloc(&partials, dotBlocks * sizeof(double)));
  checkCudaErrors(cudaMalloc(&dot, sizeof(double)));
  cudaStream_t s;
  checkCudaErrors(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  auto localDot = [&](const double *a, const double *b) {
    const double *aa = a, *bb = b;
    int nn = n;
    void *args[] = {(void *)&aa, (void *)&bb, &nn, &partials, &dot};
    checkCudaErrors(cudaLaunchCooperativeKernel((void *)gridDot<THREADS>, dotBlocks,
                                                THREADS, args, 0, s));
    double h;
    checkCudaErrors(cudaMemcpyAsync(&h, dot, sizeof h, cudaMemcpyDeviceToHost, s));
    checkCudaErrors(cudaStreamSynchronize(s));
    return h;
  };
  sh->barrier.wait();  // every p is allocated

  double rr = sh->reduce(dev, localDot(r, r));
  double rr0 = rr;
  int blocks = (n + THREADS - 1) / THREADS, it = 0;
  for (; it < MAX_IT && rr > TOL * TOL * rr0; ++it) {
    // Halo exchange: my first and last rows into the neighbours' halos.
    if (dev > 0)
      checkCudaErrors(cudaMemcpyPeerAsync(sh->p[dev - 1] + sh->rows[dev - 1] + 1, dev - 1,
                                          p + 1, dev, sizeof(double), s));
    if (dev < sh->devices - 1)
      checkCudaErrors(cudaMemcpyPeerAsync(sh->p[dev + 1], dev + 1, p + n, dev,
                                          sizeof(double), s));
    checkCudaErrors(cudaStreamSynchronize(s));
    sh->barrier.wait();  // every halo has arrived
    laplaceApply<<<blocks, THREADS, 0, s>>>(p + 1, Ap, n);
    double pAp = sh->reduce(dev, localDot(p + 1, Ap));
    double alpha = rr / pAp;
    axpyPair<<<blocks, THREADS, 0, s>>>(x, r, p + 1, Ap, alpha, n);
    double rrNew = sh->reduce(dev, localDot(r, r));
    updateDirection<<<blocks, THREADS, 0, s>>>(p + 1, r, rrNew / rr, n);
    rr = rrNew;
    checkCudaErrors(cudaStreamSynchronize(s));
    sh->barrier.wait();  // nobody reads a halo before its owner updated p
  }
  checkCudaErrors(cudaMemcpy(x_out->data() + first, x, n * sizeof(double),
                             cudaMemcpyDeviceToHost));
  if (dev == 0) {
    sh->iterations = it;
    sh->residual = std::sqrt(rr / rr0);
  }
  sh->barrier.wait();
  checkCudaErrors(cudaStreamDestroy(s));
  for (double *b : {p, x, r, Ap, partials, dot}) checkCudaErrors(cudaFree(b));
}

int main() {
  int devices = 0;
  checkCudaErrors(cudaGetDeviceCount(&devices));
  devices = std::min(devices, 4);
  Shared sh(devices);
  for (int d = 0, row = 0; d < devices; ++d) {
    sh.first[d] = row;
    sh.rows[d] = N / devices + (d < N % devices);
    row += sh.rows[d];
  }
  std::vector<double> b(N), x(N, 0.0);
  for (int i = 0; i < N; ++i) b[i] = std::sin(0.01 * i) + 1.0;
  std::vector<std::thread> threads;
  for (int d = 0; d < devices; ++d) threads.emplace_back(deviceWorker, d, &sh, &b, &x);
  for (auto &t : threads) t.join();

  // Check: residual of the assembled solution on the host.
  double err = 0, bn = 0;
  for (int i = 0; i < N; ++i) {
    double ax = (2.0 + kShift) * x[i] - (i > 0 ? x[i - 1] : 0) - (i < N - 1 ? x[i + 1] : 0);
    err += (ax - b[i]) * (ax - b[i]);
    bn += b[i] * b[i];
  }
  double rel = std::sqrt(err / bn);
  printf("%d devices, %d iterations, CG residual %.3e, true relative residual %.3e\n",
         devices, sh.iterations, sh.residual, rel);
  return samp_result(sh.iterations > 0 && sh.iterations < MAX_IT && rel < 1e-8,
                     "conjugateGradientMultiThread");
}
