// halo_threads.cu (trial of public-style multi-GPU samples, issue 16).
// Multi-device Jacobi: one host thread per device (std::thread), slabs of rows
// with halos exchanged by peer copies after every sweep, threads meeting at a
// host barrier, a residual reduced on the host.
#include <thread>
#include <mutex>
#include <condition_variable>
#include <vector>
#include <cmath>
#include "mg_check.h"
#include "stencil.cuh"

class HostBarrier {
 public:
  explicit HostBarrier(int n) : n_(n) {}
  void arrive_and_wait() {
    std::unique_lock<std::mutex> lk(m_);
    int gen = gen_;
    if (++count_ == n_) { count_ = 0; ++gen_; cv_.notify_all(); return; }
    cv_.wait(lk, [&] { return gen != gen_; });
  }
 private:
  std::mutex m_;
  std::condition_variable cv_;
  int n_, count_ = 0, gen_ = 0;
};

struct Slab {
  float *cur = nullptr, *next = nullptr, *norm = nullptr;
  cudaStream_t compute = nullptr, halo = nullptr;
  cudaEvent_t done = nullptr;
  int rows = 0;
};

static const int kWidth = 256, kRowsTotal = 60, kIters = 40;

static void host_reference(std::vector<float> &grid) {
  std::vector<float> nxt(grid);
  for (int it = 0; it < kIters; ++it) {
    for (int y = 1; y <= kRowsTotal; ++y)
      for (int x = 0; x < kWidth; ++x) {
        const float *c = &grid[(size_t)y * kWidth];
        float l = x > 0 ? c[x - 1] : c[x], r = x + 1 < kWidth ? c[x + 1] : c[x];
        nxt[(size_t)y * kWidth + x] = 0.25f * (l + r + grid[(size_t)(y - 1) * kWidth + x] + grid[(size_t)(y + 1) * kWidth + x]);
      }
    std::swap(grid, nxt);
  }
}

int main() {
  int ndev = mg_device_count(2);
  if (ndev > 4) ndev = 4;
  std::vector<Slab> slab(ndev);
  std::vector<float> norms(ndev);
  std::vector<float> init((size_t)(kRowsTotal + 2) * kWidth);
  for (size_t i = 0; i < init.size(); ++i) init[i] = (float)((i * 37) % 101) / 101.0f;
  HostBarrier barrier(ndev);
  std::vector<std::thread> workers;
  std::vector<float> result(init.size());
  for (int t = 0; t < ndev; ++t) {
    workers.emplace_back([&, t] {
      MG_CHECK(cudaSetDevice(t));
      Slab &s = slab[t];
      s.rows = kRowsTotal / ndev;
      size_t bytes = (size_t)(s.rows + 2) * kWidth * sizeof(float);
      MG_CHECK(cudaMalloc(&s.cur, bytes));
      MG_CHECK(cudaMalloc(&s.next, bytes));
      MG_CHECK(cudaMalloc(&s.norm, sizeof(float)));
      MG_CHECK(cudaStreamCreate(&s.compute));
      MG_CHECK(cudaStreamCreateWithPriority(&s.halo, cudaStreamNonBlocking, -1));
      MG_CHECK(cudaEventCreateWithFlags(&s.done, cudaEventDisableTiming));
      const float *src = init.data() + (size_t)t * s.rows * kWidth;
      MG_CHECK(cudaMemcpy(s.cur, src, bytes, cudaMemcpyHostToDevice));
      MG_CHECK(cudaMemcpy(s.next, src, bytes, cudaMemcpyHostToDevice));
      for (int p = t - 1; p <= t + 1; p += 2) {
        if (p < 0 || p >= ndev) continue;
        int can = 0;
        MG_CHECK(cudaDeviceCanAccessPeer(&can, t, p));
        if (can) MG_CHECK(cudaDeviceEnablePeerAccess(p, 0));
      }
      barrier.arrive_and_wait();
      for (int it = 0; it < kIters; ++it) {
        MG_CHECK(cudaMemsetAsync(s.norm, 0, sizeof(float), s.compute));
        dim3 block(128), grid((kWidth + 127) / 128, s.rows);
        jacobi_rows<float><<<grid, block, 0, s.compute>>>(s.next, s.cur, s.rows, kWidth, s.norm);
        MG_CHECK(cudaGetLastError());
        MG_CHECK(cudaEventRecord(s.done, s.compute));
        float nh = 0;
        MG_CHECK(cudaMemcpyAsync(&nh, s.norm, sizeof(float), cudaMemcpyDeviceToHost, s.compute));
        MG_CHECK(cudaStreamSynchronize(s.compute));
        norms[t] = nh;
        barrier.arrive_and_wait();
        // Pull the neighbours' boundary rows into this slab's halos, after
        // their sweeps (their events), on this device's halo stream.
        if (t > 0) {
          MG_CHECK(cudaStreamWaitEvent(s.halo, slab[t - 1].done, 0));
          MG_CHECK(cudaMemcpyPeerAsync(s.next, t, slab[t - 1].next + (size_t)slab[t - 1].rows * kWidth, t - 1,
                                       kWidth * sizeof(float), s.halo));
        }
        if (t + 1 < ndev) {
          MG_CHECK(cudaStreamWaitEvent(s.halo, slab[t + 1].done, 0));
          MG_CHECK(cudaMemcpyPeerAsync(s.next + (size_t)(s.rows + 1) * kWidth, t, slab[t + 1].next + kWidth, t + 1,
                                       kWidth * sizeof(float), s.halo));
        }
        MG_CHECK(cudaStreamSynchronize(s.halo));
        barrier.arrive_and_wait();
        std::swap(s.cur, s.next);
        if (t == 0 && (it % 10 == 0 || it == kIters - 1)) {
          float sum = 0;
          for (float v : norms) sum += v;
          std::printf("iter %3d residual %.6f\n", it, std::sqrt(sum));
        }
      }
      MG_CHECK(cudaMemcpy(result.data() + (size_t)(t * s.rows + 1) * kWidth, s.cur + kWidth,
                          (size_t)s.rows * kWidth * sizeof(float), cudaMemcpyDeviceToHost));
      barrier.arrive_and_wait();
      MG_CHECK(cudaFree(s.cur));
      MG_CHECK(cudaFree(s.next));
      MG_CHECK(cudaFree(s.norm));
      MG_CHECK(cudaStreamDestroy(s.compute));
      MG_CHECK(cudaStreamDestroy(s.halo));
      MG_CHECK(cudaEventDestroy(s.done));
    });
  }
  for (auto &w : workers) w.join();
  std::vector<float> ref(init);
  host_reference(ref);
  double maxerr = 0;
  for (int y = 1; y <= kRowsTotal; ++y)
    for (int x = 0; x < kWidth; ++x)
      maxerr = std::fmax(maxerr, std::fabs(ref[(size_t)y * kWidth + x] - result[(size_t)y * kWidth + x]));
  std::printf("max error %.3g on %d devices\n", maxerr, ndev);
  return mg_finish(maxerr < 1e-4, "halo_threads");
}
