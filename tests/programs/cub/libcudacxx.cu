/*
 * libcudacxx.cu: libcu++ from the toolkit's CCCL in kernels, against
 * values worked out on the host: cuda::atomic and cuda::std::atomic with
 * scopes (fetch_add from every thread of every block, compare_exchange
 * for a maximum, 64-bit and float), cuda::atomic_ref on shared and global
 * memory, cuda::barrier of a block (phases, arrive/wait tokens, a
 * completion function), cuda::pipeline with cuda::memcpy_async (double
 * buffering through shared memory), cuda::memcpy_async with a barrier,
 * cuda::std::complex, span, array, tuple, numeric_limits and the
 * <cuda/cmath> helpers.
 */
#include <cooperative_groups.h>
#include <cuda/atomic>
#include <cuda/barrier>
#include <cuda/cmath>
#include <cuda/pipeline>
#include <cuda/std/array>
#include <cuda/std/complex>
#include <cuda/std/limits>
#include <cuda/std/span>
#include <cuda/std/tuple>

#include "cub_test.cuh"

namespace cg = cooperative_groups;

/* As CUDA's own examples: barriers are __shared__ objects with
 * constructors, initialised by init() from one thread. */
#pragma nv_diag_suppress static_var_with_dynamic_init


/* ---- Atomics ----------------------------------------------------------------- */

struct Counters {
  cuda::atomic<int, cuda::thread_scope_device> sum;
  cuda::std::atomic<unsigned long long> wide;
  cuda::atomic<int, cuda::thread_scope_system> max;
  cuda::atomic<float, cuda::thread_scope_device> fsum;
  int plain;
};

__global__ void atomics(Counters *c, const int *in) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  c->sum.fetch_add(in[g], cuda::std::memory_order_relaxed);
  c->wide += 1ULL << 33;
  int seen = c->max.load();
  while (seen < in[g] && !c->max.compare_exchange_weak(seen, in[g])) {
  }
  c->fsum.fetch_add(0.5f);
  cuda::atomic_ref<int, cuda::thread_scope_device> plain(c->plain);
  plain.fetch_xor(in[g]);
  /* Block-scope atomics on shared memory. */
  __shared__ int block_count;
  if (threadIdx.x == 0) block_count = 0;
  __syncthreads();
  cuda::atomic_ref<int, cuda::thread_scope_block> count(block_count);
  const int before = count.fetch_add(1);
  EXPECT(before >= 0 && before < (int)blockDim.x);
  __syncthreads();
  EXPECT(count.load() == (int)blockDim.x);
  __syncthreads(); /* every thread has read the count */
  cuda::std::atomic_ref<int> again(block_count);
  EXPECT(again.exchange(7) == (int)blockDim.x || again.load() == 7);
}

void test_atomics() {
  const int blocks = 4, threads = 96, n = blocks * threads;
  std::vector<int> h = inputs<int>(n, 3);
  int *in = to_device(h);
  Counters *c;
  cudaMallocManaged(&c, sizeof(Counters));
  new (c) Counters{{0}, {0}, {-100000}, {0.0f}, 0};
  atomics<<<blocks, threads>>>(c, in);
  CHECK_LAUNCH();
  int sum = 0, mx = -100000, x = 0;
  for (int v : h) {
    sum += v;
    mx = v > mx ? v : mx;
    x ^= v;
  }
  CHECK(c->sum.load() == sum);
  CHECK(c->wide.load() == (unsigned long long)n << 33);
  CHECK(c->max.load() == mx);
  CHECK(c->fsum.load() == 0.5f * n);
  CHECK(c->plain == x);
  CHECK(take_errors("atomics") == 0);
  cudaFree(c);
  cudaFree(in);
}

/* ---- cuda::barrier --------------------------------------------------------- */

struct Completion {
  int *phases;
  __device__ void operator()() noexcept { ++*phases; }
};

/* Each phase, every thread writes its slot, arrives, waits, and reads its
 * neighbour's slot of that phase. */
__global__ void barrier_phases(int rounds) {
  using block_barrier = cuda::barrier<cuda::thread_scope_block>;
  __shared__ block_barrier bar;
  __shared__ int slots[256];
  __shared__ int phases;
  __shared__ cuda::barrier<cuda::thread_scope_block, Completion> counted;
  const int t = threadIdx.x, n = blockDim.x;
  if (t == 0) {
    init(&bar, n);
    phases = 0;
    init(&counted, n, Completion{&phases});
  }
  __syncthreads();
  for (int r = 0; r < rounds; ++r) {
    slots[t] = r * 1000 + t;
    block_barrier::arrival_token token = bar.arrive();
    bar.wait(cuda::std::move(token));
    EXPECT(slots[(t + 1) % n] == r * 1000 + (t + 1) % n);
    bar.arrive_and_wait();
    counted.arrive_and_wait();
  }
  EXPECT(phases == rounds);
}

/* cuda::memcpy_async into shared memory, completed by a barrier. */
__global__ void barrier_copy(const int *in, int *out, int n) {
  extern __shared__ int tile[];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, tile, in + blockIdx.x * n, sizeof(int) * n, bar);
  bar.arrive_and_wait();
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[blockIdx.x * n + i] = tile[n - 1 - i];
}

void test_barrier() {
  barrier_phases<<<3, 64>>>(5);
  CHECK_LAUNCH();
  barrier_phases<<<2, 100>>>(3);
  CHECK_LAUNCH();
  CHECK(take_errors("cuda::barrier") == 0);
  const int n = 300, blocks = 2;
  std::vector<int> h = inputs<int>(n * blocks, 9);
  int *in = to_device(h), *out;
  cudaMalloc(&out, n * blocks * sizeof(int));
  barrier_copy<<<blocks, 64, n * sizeof(int)>>>(in, out, n);
  CHECK_LAUNCH();
  std::vector<int> g = to_host(out, n * blocks);
  int bad = 0;
  for (int b = 0; b < blocks; ++b)
    for (int i = 0; i < n; ++i) bad += g[b * n + i] != h[b * n + n - 1 - i];
  CHECK(bad == 0);
  cudaFree(in);
  cudaFree(out);
}

/* ---- cuda::pipeline ---------------------------------------------------------- */

/* Sums `chunks` chunks of blockDim.x ints each, double-buffered: the copy
 * of chunk k + 1 is in flight while chunk k is summed. */
__global__ void pipelined_sum(const int *in, int *out, int chunks) {
  constexpr int stages = 2;
  extern __shared__ int buffer[]; /* stages * blockDim.x */
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, stages> state;
  auto block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &state);
  const int n = blockDim.x;
  const int *src = in + blockIdx.x * chunks * n;
  int sum = 0, fetched = 0;
  for (int k = 0; k < chunks; ++k) {
    for (; fetched < chunks && fetched < k + stages; ++fetched) {
      pipe.producer_acquire();
      cuda::memcpy_async(block, buffer + (fetched % stages) * n, src + fetched * n,
                         sizeof(int) * n, pipe);
      pipe.producer_commit();
    }
    pipe.consumer_wait();
    sum += buffer[(k % stages) * n + threadIdx.x];
    pipe.consumer_release();
  }
  out[blockIdx.x * n + threadIdx.x] = sum;
}

void test_pipeline() {
  const int blocks = 2, threads = 64, chunks = 5, n = blocks * chunks * threads;
  std::vector<int> h = inputs<int>(n, 11);
  int *in = to_device(h), *out;
  cudaMalloc(&out, blocks * threads * sizeof(int));
  pipelined_sum<<<blocks, threads, 2 * threads * sizeof(int)>>>(in, out, chunks);
  CHECK_LAUNCH();
  std::vector<int> g = to_host(out, blocks * threads);
  int bad = 0;
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < threads; ++t) {
      int s = 0;
      for (int k = 0; k < chunks; ++k) s += h[(b * chunks + k) * threads + t];
      bad += g[b * threads + t] != s;
    }
  CHECK(bad == 0);
  cudaFree(in);
  cudaFree(out);
}

/* ---- Vocabulary types and <cuda/cmath> ----------------------------------------- */

__global__ void vocabulary(const double *in, double *out) {
  const int t = threadIdx.x;
  cuda::std::complex<double> z(in[2 * t], in[2 * t + 1]), w(1.0, -2.0);
  cuda::std::complex<double> p = z * w + cuda::std::conj(z);
  out[4 * t + 0] = p.real();
  out[4 * t + 1] = p.imag();
  out[4 * t + 2] = cuda::std::norm(z);
  cuda::std::array<int, 4> a{t, t + 1, t + 2, t + 3};
  cuda::std::span<int> s(a.data() + 1, 2);
  cuda::std::tuple<int, double, char> tup(s[0] + s[1], 0.25, 'x');
  out[4 * t + 3] = cuda::std::get<0>(tup) + cuda::std::get<1>(tup) + (a.size() == 4) +
                   (cuda::std::get<2>(tup) == 'x');
  EXPECT(cuda::std::numeric_limits<int>::max() == 2147483647);
  EXPECT(cuda::std::numeric_limits<unsigned char>::max() == 255);
  EXPECT(cuda::std::numeric_limits<float>::epsilon() == 0x1p-23f);
  EXPECT(cuda::std::numeric_limits<double>::lowest() == -1.7976931348623157e308);
  EXPECT(cuda::std::numeric_limits<long long>::min() == -9223372036854775807LL - 1);
  EXPECT(cuda::std::numeric_limits<float>::has_infinity);
  EXPECT(cuda::ceil_div(t + 1, 4) == (t + 4) / 4);
  EXPECT(cuda::ceil_div(1000000007ULL, 10ULL) == 100000001ULL);
  EXPECT(cuda::round_up(t, 8) == (t + 7) / 8 * 8);
  EXPECT(cuda::round_down(t, 8) == t / 8 * 8);
}

void test_vocabulary() {
  const int threads = 40;
  std::vector<double> h(2 * threads);
  for (int i = 0; i < 2 * threads; ++i) h[i] = (i % 7) - 3.5;
  double *in = to_device(h), *out;
  cudaMalloc(&out, 4 * threads * sizeof(double));
  vocabulary<<<1, threads>>>(in, out);
  CHECK_LAUNCH();
  std::vector<double> g = to_host(out, 4 * threads);
  int bad = 0;
  for (int t = 0; t < threads; ++t) {
    const double x = h[2 * t], y = h[2 * t + 1];
    /* (x + iy)(1 - 2i) + (x - iy) = (2x + 2y) + i(y - 2x - y) */
    bad += g[4 * t + 0] != x + 2 * y + x;
    bad += g[4 * t + 1] != y - 2 * x - y;
    bad += g[4 * t + 2] != x * x + y * y;
    bad += g[4 * t + 3] != (2 * t + 3) + 0.25 + 2;
  }
  CHECK(bad == 0);
  CHECK(take_errors("vocabulary") == 0);
  cudaFree(in);
  cudaFree(out);
}

int main() {
  test_atomics();
  test_barrier();
  test_pipeline();
  test_vocabulary();
  return finish();
}
