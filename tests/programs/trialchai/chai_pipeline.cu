// chai_pipeline.cu: task partitioning. The CPU prepares chunk k+1 while the
// GPU transforms chunk k on its own stream; a host function queued after
// each kernel (cudaLaunchHostFunc) reduces the chunk on the CPU, and a
// stream callback (cudaStreamAddCallback) records completion.
// CUEMU_OPTIONS: --expt-extended-lambda
// NVCC_OPTIONS: -std=c++17 --expt-extended-lambda
#include <atomic>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>
#include "common/chai_support.h"

constexpr int kChunks = 12;
constexpr int kChunk = 1 << 14;
constexpr int kStreams = 3;

template <typename T, int ITEMS>
__global__ void scale_chunk(T *data, int n, T factor) {
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * ITEMS;
#pragma unroll
  for (int k = 0; k < ITEMS; ++k)
    if (base + k < n) data[base + k] = data[base + k] * factor + T(1);
}

struct ChunkJob {
  int index;
  const float *data;
  double *sums;
  std::atomic<int> *finished;
};

static void CUDART_CB reduce_on_host(void *arg) {
  ChunkJob *job = static_cast<ChunkJob *>(arg);
  double s = 0;
  for (int i = 0; i < kChunk; ++i) s += job->data[i];
  job->sums[job->index] = s;
}

static void CUDART_CB mark_done(cudaStream_t, cudaError_t status, void *arg) {
  ChunkJob *job = static_cast<ChunkJob *>(arg);
  if (status == cudaSuccess) job->finished->fetch_add(1);
}

int main() {
  if (!check_concurrent_managed_access()) return 0;
  float *buf;
  CUDA_CHECK(cudaMallocManaged(&buf, sizeof(float) * kChunk * kChunks));
  cudaStream_t streams[kStreams];
  for (auto &s : streams) CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  std::vector<double> sums(kChunks, 0.0);
  std::atomic<int> finished(0);
  std::vector<ChunkJob> jobs(kChunks);

  // Stage 1 (CPU) runs in its own thread, one chunk ahead of stage 2 (GPU).
  std::atomic<int> prepared(0);
  std::thread producer([&] {
    for (int c = 0; c < kChunks; ++c) {
      float *chunk = buf + (size_t)c * kChunk;
      for (int i = 0; i < kChunk; ++i) chunk[i] = (float)((c * 131 + i) % 97);
      prepared.store(c + 1, std::memory_order_release);
    }
  });
  for (int c = 0; c < kChunks; ++c) {
    while (prepared.load(std::memory_order_acquire) <= c) std::this_thread::yield();
    cudaStream_t s = streams[c % kStreams];
    float *chunk = buf + (size_t)c * kChunk;
    jobs[c] = ChunkJob{c, chunk, sums.data(), &finished};
    scale_chunk<float, 4><<<(kChunk / 4 + 127) / 128, 128, 0, s>>>(chunk, kChunk, 2.0f);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaLaunchHostFunc(s, reduce_on_host, &jobs[c]));
    CUDA_CHECK(cudaStreamAddCallback(s, mark_done, &jobs[c], 0));
  }
  producer.join();
  for (auto &s : streams) CUDA_CHECK(cudaStreamSynchronize(s));

  int failures = 0;
  bool ok = finished.load() == kChunks;
  for (int c = 0; c < kChunks; ++c) {
    double expect = 0;
    for (int i = 0; i < kChunk; ++i) expect += (float)((c * 131 + i) % 97) * 2.0f + 1.0f;
    if (sums[c] != expect) { ok = false; std::printf("chunk %d: %f != %f\n", c, sums[c], expect); }
  }
  failures += report("cpu-gpu pipeline with host functions and callbacks", ok);

  for (auto &s : streams) CUDA_CHECK(cudaStreamDestroy(s));
  CUDA_CHECK(cudaFree(buf));
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures;
}
