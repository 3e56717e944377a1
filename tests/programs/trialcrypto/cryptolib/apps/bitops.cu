// bitops.cu - the integer intrinsics and inline PTX that hash and cipher
// kernels lean on, each checked against a host model over many inputs:
// funnel shifts (wrapping and clamped), byte permutes (every selector
// mode), bit reversal, counts, high products, lop3, bfe/bfi, prmt, shf,
// SIMD video intrinsics, and a warp-aggregated atomic through a coalesced
// group.
// NVCC_OPTIONS: -rdc=true -I../include -I../host
#include <cooperative_groups.h>
#include <vector>
#include "common.cuh"

namespace cg = cooperative_groups;

// Host models written from the CUDA Math API's descriptions.
namespace model {
static uint32_t funnel_l(uint32_t lo, uint32_t hi, uint32_t s) {
  uint64_t v = (uint64_t)hi << 32 | lo;
  s &= 31;
  return (uint32_t)((v << s) >> 32);
}
static uint32_t funnel_r(uint32_t lo, uint32_t hi, uint32_t s) {
  uint64_t v = (uint64_t)hi << 32 | lo;
  s &= 31;
  return (uint32_t)(v >> s);
}
static uint32_t funnel_lc(uint32_t lo, uint32_t hi, uint32_t s) {
  uint64_t v = (uint64_t)hi << 32 | lo;
  s = s > 32 ? 32 : s;
  return (uint32_t)((v << s) >> 32);
}
static uint32_t funnel_rc(uint32_t lo, uint32_t hi, uint32_t s) {
  uint64_t v = (uint64_t)hi << 32 | lo;
  s = s > 32 ? 32 : s;
  return (uint32_t)(v >> s);
}
static uint32_t byte_perm(uint32_t x, uint32_t y, uint32_t s) {
  uint8_t b[8];
  for (int i = 0; i < 4; ++i) {
    b[i] = (uint8_t)(x >> (8 * i));
    b[4 + i] = (uint8_t)(y >> (8 * i));
  }
  uint32_t r = 0;
  for (int i = 0; i < 4; ++i) r |= (uint32_t)b[(s >> (4 * i)) & 7] << (8 * i);
  return r;
}
// prmt's default mode: bit 3 of a selector nibble replicates the sign of
// the selected byte.
static uint32_t prmt(uint32_t x, uint32_t y, uint32_t s) {
  uint32_t r = 0;
  for (int i = 0; i < 4; ++i) {
    const uint32_t nib = (s >> (4 * i)) & 0xf;
    uint8_t v = (uint8_t)(byte_perm(x, y, nib) & 0xff);
    if (nib & 8) v = (v & 0x80) ? 0xff : 0;
    r |= (uint32_t)v << (8 * i);
  }
  return r;
}
static uint32_t brev(uint32_t x) {
  uint32_t r = 0;
  for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
  return r;
}
static uint32_t lop3(uint32_t a, uint32_t b, uint32_t c, uint8_t lut) {
  uint32_t r = 0;
  for (int i = 0; i < 32; ++i) {
    int idx = ((a >> i) & 1) << 2 | ((b >> i) & 1) << 1 | ((c >> i) & 1);
    r |= (uint32_t)((lut >> idx) & 1) << i;
  }
  return r;
}
static uint32_t bfe_u32(uint32_t a, uint32_t pos, uint32_t len) {
  pos &= 0xff;
  len &= 0xff;
  if (len == 0 || pos >= 32) return 0;
  uint64_t v = (uint64_t)a >> pos;
  if (len < 32) v &= (1ull << len) - 1;
  return (uint32_t)v;
}
static uint32_t vadd4(uint32_t a, uint32_t b) {
  uint32_t r = 0;
  for (int i = 0; i < 4; ++i) r |= (uint32_t)(uint8_t)((a >> (8 * i)) + (b >> (8 * i))) << (8 * i);
  return r;
}
static uint32_t vcmpeq4(uint32_t a, uint32_t b) {
  uint32_t r = 0;
  for (int i = 0; i < 4; ++i)
    if ((uint8_t)(a >> (8 * i)) == (uint8_t)(b >> (8 * i))) r |= 0xffu << (8 * i);
  return r;
}
}  // namespace model

enum { OUTS = 20 };

__global__ void __launch_bounds__(128, 4) bitops_kernel(const uint4 *__restrict__ in, uint32_t *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint4 v = __ldg(in + i);
  const uint32_t a = v.x, b = v.y, c = v.z, s = v.w;
  uint32_t *o = out + (size_t)i * OUTS;
  o[0] = __funnelshift_l(a, b, s);
  o[1] = __funnelshift_r(a, b, s);
  o[2] = __funnelshift_lc(a, b, s & 63);
  o[3] = __funnelshift_rc(a, b, s & 63);
  o[4] = __byte_perm(a, b, s & 0x7777);
  o[5] = __brev(a);
  o[6] = (uint32_t)__brevll(((unsigned long long)a << 32) | b) ;
  o[7] = __popc(a) | __clz(b) << 8 | __ffs(c) << 16 | __popcll(((unsigned long long)a << 32) | b) << 24;
  o[8] = __umulhi(a, b);
  o[9] = (uint32_t)(__umul64hi(((unsigned long long)a << 32) | b, ((unsigned long long)c << 32) | s) >> 7);
  uint32_t r;
  asm("lop3.b32 %0, %1, %2, %3, 0xE8;" : "=r"(r) : "r"(a), "r"(b), "r"(c));  // Maj
  o[10] = r;
  asm("lop3.b32 %0, %1, %2, %3, 0xCA;" : "=r"(r) : "r"(a), "r"(b), "r"(c));  // Ch
  o[11] = r;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(s & 0x3f), "r"((s >> 8) & 0x3f));
  o[12] = r;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(s));
  o[13] = r;
  asm("shf.r.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(s));
  o[14] = r;
  asm("shf.l.clamp.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(s & 63));
  o[15] = r;
  o[16] = __vadd4(a, b);
  o[17] = __vcmpeq4(a, a ^ (c & 0x00ff00ffu));
  o[18] = (uint32_t)__mul64hi((long long)(((unsigned long long)a << 32) | b), -(long long)c);
  o[19] = __clzll(((unsigned long long)(a & 0xffff) << 32) | b) | (__ffsll((long long)((unsigned long long)c << 32)) << 8);
}

// Warp-aggregated atomics: the active threads of a branch take consecutive
// slots with one atomicAdd per coalesced group.
__global__ void aggregate(const uint32_t *keys, int n, uint32_t *slots, uint32_t *counter) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (keys[i] % 3 == 0) {
    cg::coalesced_group active = cg::coalesced_threads();
    uint32_t base = 0;
    if (active.thread_rank() == 0) base = atomicAdd(counter, active.size());
    base = active.shfl(base, 0);
    slots[base + active.thread_rank()] = keys[i];
  }
}

int main() {
  const int n = 4096;
  XorShift64 rng(77);
  std::vector<uint4> in(n);
  for (int i = 0; i < n; ++i) {
    in[i] = make_uint4(rng.next32(), rng.next32(), rng.next32(), rng.next32());
    if (i % 5 == 0) in[i].w &= 0x3f;  // shift amounts around 32
    if (i % 7 == 0) in[i].w = 0x0000ffff & rng.next32();  // byte_perm selectors with high nibble bits
    if (i % 11 == 0) in[i].x = 0;
    if (i % 13 == 0) in[i].z = 0;
  }
  uint4 *d_in;
  uint32_t *d_out;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(uint4)));
  CUDA_CHECK(cudaMalloc(&d_out, (size_t)n * OUTS * sizeof(uint32_t)));
  CUDA_CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(uint4), cudaMemcpyHostToDevice));
  bitops_kernel<<<n / 128, 128>>>(d_in, d_out, n);
  CUDA_CHECK_LAST();
  std::vector<uint32_t> out((size_t)n * OUTS);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  int bad[OUTS] = {0};
  for (int i = 0; i < n; ++i) {
    const uint32_t a = in[i].x, b = in[i].y, c = in[i].z, s = in[i].w;
    const uint64_t ab = (uint64_t)a << 32 | b, cs = (uint64_t)c << 32 | s;
    uint32_t e[OUTS];
    e[0] = model::funnel_l(a, b, s);
    e[1] = model::funnel_r(a, b, s);
    e[2] = model::funnel_lc(a, b, s & 63);
    e[3] = model::funnel_rc(a, b, s & 63);
    e[4] = model::byte_perm(a, b, s & 0x7777);
    e[5] = model::brev(a);
    e[6] = (uint32_t)((uint64_t)model::brev(b) << 32 | model::brev(a));
    e[7] = (uint32_t)__builtin_popcount(a) | (uint32_t)(b ? __builtin_clz(b) : 32) << 8 |
           (uint32_t)(c ? __builtin_ctz(c) + 1 : 0) << 16 | (uint32_t)__builtin_popcountll(ab) << 24;
    e[8] = (uint32_t)(((uint64_t)a * b) >> 32);
    e[9] = (uint32_t)((uint64_t)(((unsigned __int128)ab * cs) >> 64) >> 7);
    e[10] = model::lop3(a, b, c, 0xE8);
    e[11] = model::lop3(a, b, c, 0xCA);
    e[12] = model::bfe_u32(a, s & 0x3f, (s >> 8) & 0x3f);
    e[13] = model::prmt(a, b, s);
    e[14] = model::funnel_r(a, b, s);
    e[15] = model::funnel_lc(a, b, s & 63);
    e[16] = model::vadd4(a, b);
    e[17] = model::vcmpeq4(a, a ^ (c & 0x00ff00ffu));
    e[18] = (uint32_t)((__int128)(int64_t)ab * (__int128)(-(int64_t)c) >> 64);
    const uint64_t z = (uint64_t)(a & 0xffff) << 32 | b;
    e[19] = (uint32_t)(z ? __builtin_clzll(z) : 64) | (uint32_t)(c ? __builtin_ctzll((uint64_t)c << 32) + 1 : 0) << 8;
    for (int k = 0; k < OUTS; ++k)
      if (out[(size_t)i * OUTS + k] != e[k] && bad[k]++ < 2)
        std::printf("op %d input %d (%08x %08x %08x %08x): got %08x want %08x\n", k, i, a, b, c, s,
                    out[(size_t)i * OUTS + k], e[k]);
  }
  int fails = 0;
  for (int k = 0; k < OUTS; ++k) fails += bad[k] != 0;
  fails += report("bitops", fails == 0);

  // Warp-aggregated atomics.
  std::vector<uint32_t> keys(n);
  size_t expect = 0;
  for (auto &k : keys) {
    k = rng.next32();
    expect += k % 3 == 0;
  }
  uint32_t *d_keys, *d_slots, *d_counter;
  CUDA_CHECK(cudaMalloc(&d_keys, n * sizeof(uint32_t)));
  CUDA_CHECK(cudaMalloc(&d_slots, n * sizeof(uint32_t)));
  CUDA_CHECK(cudaMalloc(&d_counter, sizeof(uint32_t)));
  CUDA_CHECK(cudaMemcpy(d_keys, keys.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_counter, 0, sizeof(uint32_t)));
  aggregate<<<n / 256, 256>>>(d_keys, n, d_slots, d_counter);
  CUDA_CHECK_LAST();
  uint32_t count = 0;
  CUDA_CHECK(cudaMemcpy(&count, d_counter, sizeof(count), cudaMemcpyDeviceToHost));
  std::vector<uint32_t> slots(count);
  CUDA_CHECK(cudaMemcpy(slots.data(), d_slots, count * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  uint64_t sum_dev = 0, sum_host = 0;
  for (auto k : slots) sum_dev += k;
  for (auto k : keys)
    if (k % 3 == 0) sum_host += k;
  fails += report("warp_aggregated_atomics", count == expect && sum_dev == sum_host);
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_keys));
  CUDA_CHECK(cudaFree(d_slots));
  CUDA_CHECK(cudaFree(d_counter));
  std::printf("%s\n", fails ? "FAIL" : "PASS");
  return fails ? 1 : 0;
}
