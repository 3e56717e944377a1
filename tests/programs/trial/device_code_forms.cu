// Device code as public programs write it, which did not compile or gave
// wrong answers:
//   1. Cooperative groups of CUDA 12 that public code uses for warp-aggregated
//      work: cg::invoke_one and cg::invoke_one_broadcast (one member takes a
//      ticket for its tile or its coalesced group and shares it),
//      cg::reduce_update_async / reduce_store_async into a cuda::atomic_ref
//      (plus, greater and an operator of the user's, which takes the
//      compare-and-swap path), and cg::inclusive_scan_update /
//      exclusive_scan_update, which allocate slots in a global counter for a
//      stream compaction. The checks hold whatever order the tiles run in.
//   2. cuRAND's device API, as Monte Carlo codes use it: <curand_kernel.h>
//      (the toolkit's own header; it did not compile: `libraryPropertyType`
//      undeclared, cuda_runtime.h brought no library_types.h, and its host-pass
//      `extern const dim3 blockDim` clashed with cuemu's built-in variables).
//      Checked against values worked out here: the first XORWOW draw of
//      subsequence 0 from its documented seeding, the first four Philox4x32-10
//      draws of a subsequence from the Philox rounds, skipahead and offsets
//      against the plain sequence, and the moments of curand_normal.
//   3. Vectorised 128-bit loads and stores through a packed local, the way
//      inference kernels are written (sgl-kernel's merge_attn_states, reduced
//      from HeCBench's attentionMergeState): a uint4 is loaded whole, its
//      elements are read and written through a float, __half or __nv_bfloat16
//      pointer to the local, and the local is stored whole. On a GPU the bytes
//      written through the element pointer are the ones stored; compiled with
//      type-based alias analysis, the element stores to the uint4 local were
//      dropped and the pack stored garbage (no diagnostic).
// CUEMU_OPTIONS: -isystem /usr/local/cuda/include
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda/atomic>
#include <curand_kernel.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "../check.cuh"

namespace cg = cooperative_groups;

constexpr int kBlocks = 6;
constexpr int kThreads = 96;
constexpr int kN = kBlocks * kThreads;

struct Counters {
  int calls;          // invoke_one calls
  int tickets;        // invoke_one_broadcast tickets
  int odd_calls;      // calls from the coalesced groups of odd lanes
  int sum;            // reduce_update_async, plus
  int max;            // reduce_update_async, greater
  unsigned xor_all;   // reduce_update_async, a user's operator
  int stored;         // reduce_store_async of the last tile
  int slots_inc;      // inclusive_scan_update, plus
  int slots_exc;      // exclusive_scan_update, plus
  int best;           // exclusive_scan_update, greater
};

struct XorOp {
  __device__ unsigned operator()(unsigned a, unsigned b) const { return a ^ b; }
};

__device__ int value_of(int i) { return (i * 7 + 3) % 5; }

__global__ void tickets(Counters *c, int *ticket_of, int *odd_leader) {
  cg::thread_block block = cg::this_thread_block();
  auto tile = cg::tiled_partition<16>(block);
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  cg::invoke_one(tile, [&] { atomicAdd(&c->calls, 1); });
  ticket_of[gid] = cg::invoke_one_broadcast(
      tile, [&](int step) { return atomicAdd(&c->tickets, step); }, 1);
  if (threadIdx.x % 2) {
    cg::coalesced_group odd = cg::coalesced_threads();
    cg::invoke_one(odd, [&] { atomicAdd(&c->odd_calls, 1); });
    odd_leader[gid] = cg::invoke_one_broadcast(odd, [] { return (int)threadIdx.x; });
  } else {
    odd_leader[gid] = -1;
  }
}

__global__ void updates(Counters *c, int *inc, int *exc, int *best) {
  cg::thread_block block = cg::this_thread_block();
  auto tile = cg::tiled_partition<32>(block);
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = value_of(gid);
  cuda::atomic_ref<int, cuda::thread_scope_device> sum(c->sum);
  cuda::atomic_ref<int, cuda::thread_scope_device> mx(c->max);
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> x(c->xor_all);
  cg::reduce_update_async(tile, sum, v, cg::plus<int>());
  cg::reduce_update_async(tile, mx, gid, cg::greater<int>());
  cg::reduce_update_async(tile, x, (unsigned)gid * 2654435761u, XorOp());
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x >= blockDim.x - 32) {
    cuda::atomic_ref<int, cuda::thread_scope_device> st(c->stored);
    cg::reduce_store_async(tile, st, v, cg::plus<int>());
  }
  cuda::atomic_ref<int, cuda::thread_scope_device> si(c->slots_inc);
  cuda::atomic_ref<int, cuda::thread_scope_device> se(c->slots_exc);
  inc[gid] = cg::inclusive_scan_update(tile, si, v);
  exc[gid] = cg::exclusive_scan_update(tile, se, v, cg::plus<int>());
  cuda::atomic_ref<int, cuda::thread_scope_device> b(c->best);
  best[gid] = cg::exclusive_scan_update(tile, b, v + 10 * (gid % 7), cg::greater<int>());
}

static int host_value(int i) { return (i * 7 + 3) % 5; }

// The slots [start, start + v) of all threads tile [0, total) exactly.
static bool tiles_exactly(const std::vector<int> &start, int total) {
  std::vector<int> seen(total, 0);
  for (int i = 0; i < kN; ++i)
    for (int k = 0; k < host_value(i); ++k) {
      int s = start[i] + k;
      if (s < 0 || s >= total || seen[s]++)
        return false;
    }
  return true;
}

static void cooperative_groups_12() {
  Counters *c;
  int *ticket_of, *odd_leader, *inc, *exc, *best;
  cudaMallocManaged(&c, sizeof(Counters));
  cudaMallocManaged(&ticket_of, kN * sizeof(int));
  cudaMallocManaged(&odd_leader, kN * sizeof(int));
  cudaMallocManaged(&inc, kN * sizeof(int));
  cudaMallocManaged(&exc, kN * sizeof(int));
  cudaMallocManaged(&best, kN * sizeof(int));
  *c = Counters{};
  c->max = -1;

  tickets<<<kBlocks, kThreads>>>(c, ticket_of, odd_leader);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  const int tiles16 = kN / 16;
  CHECK(c->calls == tiles16);
  CHECK(c->tickets == tiles16);
  CHECK(c->odd_calls == kN / 32);
  std::vector<int> owner(tiles16, -1);
  for (int i = 0; i < kN; ++i) {
    int t = ticket_of[i];
    CHECK(t >= 0 && t < tiles16);
    if (t < 0 || t >= tiles16)
      continue;
    // Every member of a tile gets its tile's ticket, no other tile's.
    if (owner[t] == -1)
      owner[t] = i / 16;
    CHECK(owner[t] == i / 16);
    int lane = i % kThreads % 32;
    if (lane % 2) {
      // The leader is one of the odd lanes of the caller's warp.
      int lead = odd_leader[i];
      CHECK(lead % 2 == 1 && lead / 32 == (i % kThreads) / 32);
    }
  }

  updates<<<kBlocks, kThreads>>>(c, inc, exc, best);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int total = 0, last_tile = 0;
  unsigned x = 0;
  for (int i = 0; i < kN; ++i) {
    total += host_value(i);
    x ^= (unsigned)i * 2654435761u;
    if (i >= kN - 32)
      last_tile += host_value(i);
  }
  CHECK(c->sum == total);
  CHECK(c->max == kN - 1);
  CHECK(c->xor_all == x);
  CHECK(c->stored == last_tile);
  CHECK(c->slots_inc == total);
  CHECK(c->slots_exc == total);
  std::vector<int> from_inc(kN), from_exc(kN);
  for (int i = 0; i < kN; ++i) {
    from_inc[i] = inc[i] - host_value(i);
    from_exc[i] = exc[i];
  }
  CHECK(tiles_exactly(from_inc, total));
  CHECK(tiles_exactly(from_exc, total));
  // greater: each thread sees the maximum of the atomic's old value and its
  // tile's values before it; the atomic ends with the maximum of all.
  int want_best = 0;
  for (int i = 0; i < kN; ++i)
    want_best = std::max(want_best, host_value(i) + 10 * (i % 7));
  CHECK(c->best == want_best);
  for (int i = 0; i < kN; ++i) {
    int before = 0;
    for (int j = i - i % 32; j < i; ++j)
      before = std::max(before, host_value(j) + 10 * (j % 7));
    CHECK(best[i] >= before && best[i] <= want_best);
  }

  cudaFree(c);
  cudaFree(ticket_of);
  cudaFree(odd_leader);
  cudaFree(inc);
  cudaFree(exc);
  cudaFree(best);
}

constexpr int kRngThreads = 64;
constexpr int kNormals = 64;

struct Draws {
  unsigned xorwow_first[kRngThreads];
  unsigned xorwow_fifth[kRngThreads];     // curand_init(seed, i, 0), 5th draw
  unsigned xorwow_offset4[kRngThreads];   // curand_init(seed, i, 4), 1st draw
  unsigned xorwow_skip[kRngThreads];      // subsequence 0, skipahead_sequence(i)
  unsigned philox[kRngThreads][4];
  float uniform0;
  double normal_sum, normal_sq;
  double mrg_sum;
};

__global__ void draw(Draws *d, unsigned long long seed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  curandState s;
  curand_init(seed, i, 0, &s);
  d->xorwow_first[i] = curand(&s);
  for (int k = 0; k < 3; ++k)
    curand(&s);
  d->xorwow_fifth[i] = curand(&s);
  curandState o;
  curand_init(seed, i, 4, &o);
  d->xorwow_offset4[i] = curand(&o);
  curandState q;
  curand_init(seed, 0, 0, &q);
  skipahead_sequence((unsigned long long)i, &q);
  d->xorwow_skip[i] = curand(&q);
  if (i == 0) {
    curandState u;
    curand_init(seed, 0, 0, &u);
    d->uniform0 = curand_uniform(&u);
  }

  curandStatePhilox4_32_10_t p;
  curand_init(seed, (unsigned long long)i + 3, 0, &p);
  for (int k = 0; k < 4; ++k)
    d->philox[i][k] = curand(&p);

  curandState n;
  curand_init(seed + 1, i, 0, &n);
  double sum = 0, sq = 0;
  for (int k = 0; k < kNormals; ++k) {
    float z = curand_normal(&n);
    sum += z;
    sq += (double)z * z;
  }
  atomicAdd(&d->normal_sum, sum);
  atomicAdd(&d->normal_sq, sq);

  curandStateMRG32k3a m;
  curand_init(seed, i, 0, &m);
  atomicAdd(&d->mrg_sum, (double)curand_uniform(&m));
}

// XORWOW's first draw from curand_init(seed, 0, 0): its seeding and one
// step of the generator, as cuRAND documents them.
static unsigned xorwow_first(unsigned long long seed) {
  unsigned s0 = (unsigned)seed ^ 0xaad26b49u;
  unsigned s1 = (unsigned)(seed >> 32) ^ 0xf7dcefddu;
  unsigned t0 = 1099087573u * s0, t1 = 2591861531u * s1;
  unsigned d = 6615241u + t1 + t0;
  unsigned v[5] = {123456789u + t0, 362436069u ^ t0, 521288629u + t1,
                   88675123u ^ t1, 5783321u + t0};
  unsigned t = v[0] ^ (v[0] >> 2);
  v[4] = (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1));
  return v[4] + d + 362437u;
}

// Philox4x32-10 of a counter and a key (Salmon et al., SC'11).
static void philox(uint32_t c[4], uint32_t k0, uint32_t k1) {
  for (int r = 0; r < 10; ++r) {
    uint64_t p0 = (uint64_t)0xD2511F53u * c[0];
    uint64_t p1 = (uint64_t)0xCD9E8D57u * c[2];
    uint32_t n[4] = {(uint32_t)(p1 >> 32) ^ c[1] ^ k0, (uint32_t)p1,
                     (uint32_t)(p0 >> 32) ^ c[3] ^ k1, (uint32_t)p0};
    for (int j = 0; j < 4; ++j)
      c[j] = n[j];
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
}

static void curand_device_api() {
  const unsigned long long seed = 0x123456789abcdefULL;
  Draws *d;
  CHECK(cudaMallocManaged(&d, sizeof(Draws)) == cudaSuccess);
  d->normal_sum = d->normal_sq = d->mrg_sum = 0;
  draw<<<kRngThreads / 32, 32>>>(d, seed);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);

  CHECK(d->xorwow_first[0] == xorwow_first(seed));
  // curand_uniform is x * 2^-32 + 2^-33; a GPU may fuse it (one rounding).
  CHECK(std::fabs(d->uniform0 - (xorwow_first(seed) * 0x1p-32 + 0x1p-33)) <
        1e-7);
  int bad = 0, distinct = 0;
  for (int i = 0; i < kRngThreads; ++i) {
    bad += d->xorwow_offset4[i] != d->xorwow_fifth[i];
    bad += d->xorwow_skip[i] != d->xorwow_first[i];
    distinct += i > 0 && d->xorwow_first[i] != d->xorwow_first[i - 1];
    uint32_t c[4] = {0, 0, (uint32_t)(i + 3), 0};
    philox(c, (uint32_t)seed, (uint32_t)(seed >> 32));
    for (int k = 0; k < 4; ++k)
      bad += d->philox[i][k] != c[k];
  }
  CHECK(bad == 0);
  CHECK(distinct == kRngThreads - 1);
  const double count = (double)kRngThreads * kNormals;
  double mean = d->normal_sum / count;
  double var = d->normal_sq / count - mean * mean;
  CHECK(std::fabs(mean) < 0.1);
  CHECK(std::fabs(var - 1.0) < 0.15);
  CHECK(std::fabs(d->mrg_sum / kRngThreads - 0.5) < 0.15);
  CHECK(cudaFree(d) == cudaSuccess);
}

constexpr int kPacks = 96;

__device__ __forceinline__ float to_float(float u) { return u; }
__device__ __forceinline__ float to_float(__half u) { return __half2float(u); }
__device__ __forceinline__ float to_float(__nv_bfloat16 u) {
  return __bfloat162float(u);
}
__device__ __forceinline__ void from_float(float &d, float s) { d = s; }
__device__ __forceinline__ void from_float(__half &d, float s) {
  d = __float2half(s);
}
__device__ __forceinline__ void from_float(__nv_bfloat16 &d, float s) {
  d = __float2bfloat16(s);
}

// out = a * 0.5 + b * 0.25, element by element, one 16-byte pack per thread.
template <typename T>
__global__ void blend_packs(T *__restrict__ out, const T *__restrict__ a,
                            const T *__restrict__ b, int packs) {
  using pack_t = uint4;
  constexpr int kPer = 16 / sizeof(T);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= packs)
    return;
  pack_t pa = reinterpret_cast<const pack_t *>(a)[i];
  pack_t pb = reinterpret_cast<const pack_t *>(b)[i];
  pack_t po;
#pragma unroll
  for (int k = 0; k < kPer; ++k) {
    float x = to_float(reinterpret_cast<const T *>(&pa)[k]);
    float y = to_float(reinterpret_cast<const T *>(&pb)[k]);
    from_float(reinterpret_cast<T *>(&po)[k], x * 0.5f + y * 0.25f);
  }
  reinterpret_cast<pack_t *>(out)[i] = po;
}

// A float4 filled through a float pointer and a 64-bit word assembled
// through its two 32-bit halves: the same rule on other pack types.
__global__ void fill_words(float4 *f4, unsigned long long *u64, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float4 v;
  float *e = reinterpret_cast<float *>(&v);
  for (int k = 0; k < 4; ++k)
    e[k] = (float)(i * 4 + k);
  f4[i] = v;
  unsigned long long w;
  unsigned int *half_words = reinterpret_cast<unsigned int *>(&w);
  half_words[0] = 0x9e3779b9u * (unsigned)i;
  half_words[1] = (unsigned)i;
  u64[i] = w;
}

template <typename T> static float host_to_float(T v);
template <> float host_to_float(float v) { return v; }
template <> float host_to_float(__half v) { return __half2float(v); }
template <> float host_to_float(__nv_bfloat16 v) { return __bfloat162float(v); }

template <typename T> static T host_from_float(float v);
template <> float host_from_float(float v) { return v; }
template <> __half host_from_float(float v) { return __float2half(v); }
template <> __nv_bfloat16 host_from_float(float v) {
  return __float2bfloat16(v);
}

template <typename T> static int run_blend() {
  constexpr int kPer = 16 / sizeof(T);
  const int n = kPacks * kPer;
  T *a, *b, *out;
  cudaMallocManaged(&a, n * sizeof(T));
  cudaMallocManaged(&b, n * sizeof(T));
  cudaMallocManaged(&out, n * sizeof(T));
  // Small integers and quarters: exact in every type, and so is the blend.
  for (int i = 0; i < n; ++i) {
    a[i] = host_from_float<T>((float)(i % 37) - 18.0f);
    b[i] = host_from_float<T>((float)(i % 11) * 0.25f);
  }
  memset(out, 0xff, n * sizeof(T));
  blend_packs<T><<<(kPacks + 31) / 32, 32>>>(out, a, b, kPacks);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    float want = ((float)(i % 37) - 18.0f) * 0.5f + (float)(i % 11) * 0.0625f;
    if (host_to_float(out[i]) != want)
      ++bad;
  }
  cudaFree(a);
  cudaFree(b);
  cudaFree(out);
  return bad;
}

static void type_punned_packs() {
  CHECK(run_blend<float>() == 0);
  CHECK(run_blend<__half>() == 0);
  CHECK(run_blend<__nv_bfloat16>() == 0);

  const int n = 200;
  float4 *f4;
  unsigned long long *u64;
  cudaMallocManaged(&f4, n * sizeof(float4));
  cudaMallocManaged(&u64, n * sizeof(unsigned long long));
  fill_words<<<(n + 63) / 64, 64>>>(f4, u64, n);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    if (f4[i].x != i * 4 || f4[i].y != i * 4 + 1 || f4[i].z != i * 4 + 2 ||
        f4[i].w != i * 4 + 3)
      ++bad;
    unsigned long long want =
        ((unsigned long long)(unsigned)i << 32) | (0x9e3779b9u * (unsigned)i);
    if (u64[i] != want)
      ++bad;
  }
  CHECK(bad == 0);
  cudaFree(f4);
  cudaFree(u64);
}

int main() {
  cooperative_groups_12();
  curand_device_api();
  type_punned_packs();
  return finish();
}
