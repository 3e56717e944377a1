// NVCC_OPTIONS: -I../common -Xcompiler -fopenmp
// ring_allreduce.cu - NCCL-style ring all-reduce (reduce-scatter followed by
// all-gather) over every visible GPU, one std::thread per GPU, with plain
// P2P copies (cudaMemcpyPeerAsync) between neighbours on the ring. Works
// with a single GPU too (the ring is then trivial).
#include <thread>
#include <vector>
#include <mutex>
#include <condition_variable>
#include <cmath>
#include "mgpu_check.h"

// A reusable host barrier (std::barrier is C++20).
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

template <typename T>
__global__ void fill(T *x, size_t n, int rank) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    x[i] = T((i % 97) * 0.5 + rank + 1);
}

template <typename T>
__global__ void accumulate(T *__restrict__ dst, const T *__restrict__ src, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    dst[i] += src[i];
}

struct Rank {
  int dev;
  double *buf = nullptr;
  double *recv = nullptr;
  cudaStream_t stream;
  cudaEvent_t ready;
};

int main() {
  int ndev = 0;
  CUDA_CHECK(cudaGetDeviceCount(&ndev));
  const size_t n = 1 << 16;
  const size_t chunk = (n + ndev - 1) / ndev;
  std::vector<Rank> ranks(ndev);
  HostBarrier barrier(ndev);
  std::vector<int> ok(ndev, 0);

  auto worker = [&](int r) {
    Rank &me = ranks[r];
    me.dev = r;
    CUDA_CHECK(cudaSetDevice(r));
    CUDA_CHECK(cudaMalloc(&me.buf, n * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&me.recv, chunk * sizeof(double)));
    CUDA_CHECK(cudaStreamCreateWithFlags(&me.stream, cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreateWithFlags(&me.ready, cudaEventDisableTiming));
    fill<double><<<64, 256, 0, me.stream>>>(me.buf, n, r);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaStreamSynchronize(me.stream));
    barrier.arrive_and_wait();

    int next = (r + 1) % ndev;
    Rank &nx = ranks[next];
    // Reduce-scatter: at step s, rank r sends chunk (r - s) to next, which
    // adds it into its own copy.
    for (int s = 0; s < ndev - 1; ++s) {
      int c = ((r - s) % ndev + ndev) % ndev;
      size_t off = c * chunk, len = off < n ? std::min(chunk, n - off) : 0;
      // The receiver's recv buffer is written by us and read by its stream.
      if (len)
        CUDA_CHECK(cudaMemcpyPeerAsync(nx.recv, next, me.buf + off, r, len * sizeof(double), me.stream));
      CUDA_CHECK(cudaEventRecord(me.ready, me.stream));
      barrier.arrive_and_wait();
      // Wait for our predecessor's send, then accumulate.
      int prev = (r - 1 + ndev) % ndev;
      int pc = ((prev - s) % ndev + ndev) % ndev;
      size_t poff = pc * chunk, plen = poff < n ? std::min(chunk, n - poff) : 0;
      CUDA_CHECK(cudaStreamWaitEvent(me.stream, ranks[prev].ready, 0));
      if (plen) accumulate<double><<<32, 256, 0, me.stream>>>(me.buf + poff, me.recv, plen);
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaStreamSynchronize(me.stream));
      barrier.arrive_and_wait();
    }
    // All-gather: rank r owns the reduced chunk (r + 1) % ndev.
    for (int s = 0; s < ndev - 1; ++s) {
      int c = ((r + 1 - s) % ndev + ndev) % ndev;
      size_t off = c * chunk, len = off < n ? std::min(chunk, n - off) : 0;
      if (len)
        CUDA_CHECK(cudaMemcpyPeerAsync(nx.buf + off, next, me.buf + off, r, len * sizeof(double), me.stream));
      CUDA_CHECK(cudaStreamSynchronize(me.stream));
      barrier.arrive_and_wait();
    }
    // Check on this device against the closed form.
    std::vector<double> h(n);
    CUDA_CHECK(cudaMemcpy(h.data(), me.buf, n * sizeof(double), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (size_t i = 0; i < n; ++i) {
      double want = ndev * ((i % 97) * 0.5) + ndev * (ndev + 1) / 2.0;
      if (std::fabs(h[i] - want) > 1e-9) {
        if (bad++ < 3) std::fprintf(stderr, "rank %d: [%zu] = %g, want %g\n", r, i, h[i], want);
      }
    }
    ok[r] = bad == 0;
    barrier.arrive_and_wait();
    CUDA_CHECK(cudaFree(me.buf));
    CUDA_CHECK(cudaFree(me.recv));
    CUDA_CHECK(cudaStreamDestroy(me.stream));
    CUDA_CHECK(cudaEventDestroy(me.ready));
  };

  std::vector<std::thread> threads;
  for (int r = 0; r < ndev; ++r) threads.emplace_back(worker, r);
  for (auto &t : threads) t.join();
  bool all = true;
  for (int r = 0; r < ndev; ++r) {
    std::printf("rank %d (device %d): %s\n", r, r, ok[r] ? "ok" : "wrong");
    all = all && ok[r];
  }
  return mgpu_report(all, "ring_allreduce");
}
