// chai_queue.cu: dynamic work partitioning between host threads and GPU
// blocks. Both sides take tiles from one counter in managed memory
// (atomicAdd_system on the GPU, cuda::atomic_ref<thread_scope_system> on
// the CPU) while the kernel runs; then a histogram shared by both sides.
// CUEMU_OPTIONS: --expt-extended-lambda
// NVCC_OPTIONS: -std=c++17 --expt-extended-lambda
#include <cmath>
#include <cstdio>
#include <thread>
#include <vector>
#include "common/chai_support.h"

constexpr int kTile = 256;

struct WorkQueue {
  int *next_tile;     // tiles handed out
  int *done_gpu;      // tiles done by GPU blocks
  int *done_cpu;      // tiles done by CPU threads
  int num_tiles;
};

__host__ __device__ inline float work_item(float x) {
  float y = x;
  for (int k = 0; k < 8; ++k) y = y * 0.5f + sinf(y) * 0.25f + 1.0f;
  return y;
}

// Persistent blocks: thread 0 takes the next tile; the block processes it.
__global__ void gpu_consumer(WorkQueue q, const float *in, float *out, int *owner) {
  __shared__ int tile;
  for (;;) {
    if (threadIdx.x == 0) tile = atomicAdd_system(q.next_tile, 1);
    __syncthreads();
    const int t = tile;
    __syncthreads();
    if (t >= q.num_tiles) break;
    const int i = t * kTile + threadIdx.x;
    out[i] = work_item(in[i]);
    if (threadIdx.x == 0) {
      owner[t] = 1;
      cuda::atomic_ref<int, cuda::thread_scope_system> done(*q.done_gpu);
      done.fetch_add(1, cuda::memory_order_relaxed);
    }
  }
}

static void cpu_consumer(WorkQueue q, const float *in, float *out, int *owner) {
  sys_atomic_int next(*q.next_tile);
  sys_atomic_int done(*q.done_cpu);
  for (;;) {
    int t = next.fetch_add(1);
    if (t >= q.num_tiles) break;
    for (int k = 0; k < kTile; ++k) out[t * kTile + k] = work_item(in[t * kTile + k]);
    owner[t] = 2;
    done.fetch_add(1);
  }
}

// Input partitioning: the GPU takes elements [0, split), the CPU threads the
// rest; both add to one histogram with system-scope atomics.
__global__ void gpu_histogram(const unsigned char *data, int split, unsigned *hist) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < split; i += gridDim.x * blockDim.x)
    atomicAdd_system(&hist[data[i]], 1u);
}

int main() {
  if (!check_concurrent_managed_access()) return 0;
  int failures = 0;

  const int num_tiles = 600, n = num_tiles * kTile, cpu_threads = 3;
  float *in, *out;
  int *owner;
  WorkQueue q;
  q.num_tiles = num_tiles;
  CUDA_CHECK(cudaMallocManaged(&in, n * sizeof(float)));
  CUDA_CHECK(cudaMallocManaged(&out, n * sizeof(float)));
  CUDA_CHECK(cudaMallocManaged(&owner, num_tiles * sizeof(int)));
  CUDA_CHECK(cudaMallocManaged(&q.next_tile, 3 * sizeof(int)));
  q.done_gpu = q.next_tile + 1;
  q.done_cpu = q.next_tile + 2;
  for (int i = 0; i < n; ++i) in[i] = (i % 1000) * 0.001f;
  for (int t = 0; t < num_tiles; ++t) owner[t] = 0;
  q.next_tile[0] = q.next_tile[1] = q.next_tile[2] = 0;

  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  gpu_consumer<<<prop.multiProcessorCount, kTile>>>(q, in, out, owner);
  CUDA_CHECK_LAST();
  std::vector<std::thread> workers;
  for (int k = 0; k < cpu_threads; ++k) workers.emplace_back(cpu_consumer, q, in, out, owner);
  for (auto &w : workers) w.join();
  CUDA_CHECK(cudaDeviceSynchronize());

  int bad = 0, by_gpu = 0, by_cpu = 0;
  for (int i = 0; i < n; ++i)
    if (std::fabs(out[i] - work_item(in[i])) > 1e-4f) ++bad;
  for (int t = 0; t < num_tiles; ++t) {
    by_gpu += owner[t] == 1;
    by_cpu += owner[t] == 2;
  }
  std::printf("tiles: %d by GPU, %d by CPU (counters %d, %d), %d wrong elements\n", by_gpu, by_cpu,
              *q.done_gpu, *q.done_cpu, bad);
  failures += report("dynamic partitioning results", bad == 0);
  failures += report("every tile taken once",
                     by_gpu + by_cpu == num_tiles && *q.done_gpu == by_gpu && *q.done_cpu == by_cpu);

  const int hn = 1 << 20, split = hn / 2;
  unsigned char *data;
  unsigned *hist;
  CUDA_CHECK(cudaMallocManaged(&data, hn));
  CUDA_CHECK(cudaMallocManaged(&hist, 256 * sizeof(unsigned)));
  for (int i = 0; i < hn; ++i) data[i] = (unsigned char)((i * 2654435761u) >> 24);
  CUDA_CHECK(cudaMemset(hist, 0, 256 * sizeof(unsigned)));
  CUDA_CHECK(cudaDeviceSynchronize());
  gpu_histogram<<<16, 256>>>(data, split, hist);
  std::vector<std::thread> hthreads;
  for (int k = 0; k < cpu_threads; ++k)
    hthreads.emplace_back([=] {
      for (int i = split + k; i < hn; i += cpu_threads) {
        cuda::atomic_ref<unsigned, cuda::thread_scope_system> h(hist[data[i]]);
        h.fetch_add(1u, cuda::std::memory_order_relaxed);
      }
    });
  for (auto &t : hthreads) t.join();
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> expect(256, 0);
  for (int i = 0; i < hn; ++i) expect[data[i]]++;
  bool same = true;
  for (int b = 0; b < 256; ++b) same &= hist[b] == expect[b];
  failures += report("collaborative histogram", same);

  cudaFree(data); cudaFree(hist);
  cudaFree(in); cudaFree(out); cudaFree(owner); cudaFree(q.next_tile);
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures;
}
