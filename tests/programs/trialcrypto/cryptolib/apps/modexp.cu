// modexp.cu - 256-bit Montgomery exponentiation in inline PTX, against a
// host big integer built on unsigned __int128.
// NVCC_OPTIONS: -rdc=true -I../include -I../host
#include <cstring>
#include <vector>
#include "bigint.cuh"

namespace host {

struct U256 {
  uint64_t l[4];
  bool operator==(const U256 &o) const { return std::memcmp(l, o.l, sizeof(l)) == 0; }
};

static bool geq(const U256 &a, const U256 &b) {
  for (int i = 3; i >= 0; --i)
    if (a.l[i] != b.l[i]) return a.l[i] > b.l[i];
  return true;
}
static uint64_t sub(U256 &r, const U256 &a, const U256 &b) {
  unsigned __int128 borrow = 0;
  for (int i = 0; i < 4; ++i) {
    unsigned __int128 d = (unsigned __int128)a.l[i] - b.l[i] - borrow;
    r.l[i] = (uint64_t)d;
    borrow = (d >> 64) & 1;
  }
  return (uint64_t)borrow;
}
// r = 2a mod n.
static void dbl(U256 &r, const U256 &a, const U256 &n) {
  uint64_t top = a.l[3] >> 63;
  U256 t;
  for (int i = 3; i > 0; --i) t.l[i] = a.l[i] << 1 | a.l[i - 1] >> 63;
  t.l[0] = a.l[0] << 1;
  if (top || geq(t, n)) sub(t, t, n);
  r = t;
}
// Montgomery product with 64-bit limbs (CIOS).
static U256 mont(const U256 &a, const U256 &b, const U256 &n, uint64_t np) {
  uint64_t t[6] = {0};
  for (int i = 0; i < 4; ++i) {
    unsigned __int128 c = 0;
    for (int j = 0; j < 4; ++j) {
      c += (unsigned __int128)a.l[j] * b.l[i] + t[j];
      t[j] = (uint64_t)c;
      c >>= 64;
    }
    c += t[4];
    t[4] = (uint64_t)c;
    t[5] = (uint64_t)(c >> 64);
    const uint64_t m = t[0] * np;
    c = (unsigned __int128)m * n.l[0] + t[0];
    c >>= 64;
    for (int j = 1; j < 4; ++j) {
      c += (unsigned __int128)m * n.l[j] + t[j];
      t[j - 1] = (uint64_t)c;
      c >>= 64;
    }
    c += t[4];
    t[3] = (uint64_t)c;
    t[4] = t[5] + (uint64_t)(c >> 64);
  }
  U256 r = {{t[0], t[1], t[2], t[3]}};
  if (t[4] || geq(r, n)) sub(r, r, n);
  return r;
}
static U256 modexp(const U256 &b, const U256 &e, const U256 &n, uint64_t np, const U256 &r2, const U256 &one) {
  U256 x = mont(b, r2, n, np), acc = one;
  for (int bit = 255; bit >= 0; --bit) {
    acc = mont(acc, acc, n, np);
    if ((e.l[bit / 64] >> (bit % 64)) & 1) acc = mont(acc, x, n, np);
  }
  U256 unit = {{1, 0, 0, 0}};
  return mont(acc, unit, n, np);
}

}  // namespace host

// A Fermat test in a kernel of this file, calling the library's device
// function mont_sqr256 across translation units: a^(2^k) by squaring.
__global__ void repeated_squares(mp::Num<8> *vals, int count, int k, ModCtx256 ctx) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= count) return;
  uint32_t a[8], b[8];
  mp::mont_mul<8>(a, vals[tid].w, ctx.r2, ctx.n, ctx.nprime);
  for (int i = 0; i < k; ++i) {
    mont_sqr256(b, a, ctx);
    for (int w = 0; w < 8; ++w) a[w] = b[w];
  }
  const uint32_t unit[8] = {1};
  mp::mont_mul<8>(b, a, unit, ctx.n, ctx.nprime);
  for (int w = 0; w < 8; ++w) vals[tid].w[w] = b[w];
}

// 128-bit additions with add.cc.u64 against unsigned __int128.
__global__ void add128_kernel(const ulonglong2 *a, const ulonglong2 *b, ulonglong2 *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint64_t lo = a[i].x, hi = a[i].y;
  mp::add128(lo, hi, b[i].x, b[i].y);
  out[i] = make_ulonglong2(lo, hi);
}

static void to32(const host::U256 &v, uint32_t w[8]) {
  for (int i = 0; i < 4; ++i) {
    w[2 * i] = (uint32_t)v.l[i];
    w[2 * i + 1] = (uint32_t)(v.l[i] >> 32);
  }
}
static host::U256 from32(const uint32_t w[8]) {
  host::U256 v;
  for (int i = 0; i < 4; ++i) v.l[i] = (uint64_t)w[2 * i + 1] << 32 | w[2 * i];
  return v;
}

int main() {
  int fails = 0;
  // The secp256k1 field prime, 2^256 - 2^32 - 977.
  const host::U256 p = {{0xFFFFFFFEFFFFFC2Full, ~0ull, ~0ull, ~0ull}};
  uint64_t inv = 1;  // p^-1 mod 2^64 by Newton's iteration
  for (int i = 0; i < 6; ++i) inv *= 2 - p.l[0] * inv;
  const uint64_t np = (uint64_t)0 - inv;
  host::U256 one = {{1, 0, 0, 0}};
  for (int i = 0; i < 256; ++i) host::dbl(one, one, p);  // 2^256 mod p
  host::U256 r2 = one;
  for (int i = 0; i < 256; ++i) host::dbl(r2, r2, p);  // 2^512 mod p

  ModCtx256 ctx;
  to32(p, ctx.n);
  to32(r2, ctx.r2);
  to32(one, ctx.one);
  ctx.nprime = (uint32_t)np;

  const int count = 48;
  XorShift64 rng(99);
  std::vector<mp::Num<8>> base(count), exps(count), out(count);
  std::vector<host::U256> hb(count), he(count);
  for (int i = 0; i < count; ++i) {
    for (int l = 0; l < 4; ++l) {
      hb[i].l[l] = rng.next();
      he[i].l[l] = rng.next();
    }
    if (host::geq(hb[i], p)) host::sub(hb[i], hb[i], p);
    if (i == 0) he[i] = host::U256{{0, 0, 0, 0}};
    if (i == 1) {  // p - 1: Fermat
      host::sub(he[i], p, host::U256{{1, 0, 0, 0}});
    }
    if (i == 2) hb[i] = host::U256{{0, 0, 0, 0}};
    to32(hb[i], base[i].w);
    to32(he[i], exps[i].w);
  }
  mp::Num<8> *d_base, *d_exp, *d_out;
  CUDA_CHECK(cudaMalloc(&d_base, count * sizeof(mp::Num<8>)));
  CUDA_CHECK(cudaMalloc(&d_exp, count * sizeof(mp::Num<8>)));
  CUDA_CHECK(cudaMalloc(&d_out, count * sizeof(mp::Num<8>)));
  CUDA_CHECK(cudaMemcpy(d_base, base.data(), count * sizeof(mp::Num<8>), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_exp, exps.data(), count * sizeof(mp::Num<8>), cudaMemcpyHostToDevice));
  modexp256<<<(count + 31) / 32, 32>>>(d_base, d_exp, d_out, count, ctx);
  CUDA_CHECK_LAST();
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, count * sizeof(mp::Num<8>), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < count; ++i) {
    const host::U256 expect = host::modexp(hb[i], he[i], p, np, r2, one);
    if (!(from32(out[i].w) == expect) && bad++ < 3)
      std::printf("modexp mismatch at %d: %016llx vs %016llx\n", i, (unsigned long long)from32(out[i].w).l[0],
                  (unsigned long long)expect.l[0]);
  }
  const bool fermat = from32(out[1].w) == host::U256{{1, 0, 0, 0}};
  const bool zero_exp = from32(out[0].w) == host::U256{{1, 0, 0, 0}};
  fails += report("modexp256", bad == 0 && fermat && zero_exp);

  // Repeated squaring through the library's device function.
  CUDA_CHECK(cudaMemcpy(d_out, d_base, count * sizeof(mp::Num<8>), cudaMemcpyDeviceToDevice));
  repeated_squares<<<2, 32>>>(d_out, count, 5, ctx);
  CUDA_CHECK_LAST();
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, count * sizeof(mp::Num<8>), cudaMemcpyDeviceToHost));
  bad = 0;
  const host::U256 e32 = {{32, 0, 0, 0}};
  for (int i = 0; i < count; ++i)
    if (!(from32(out[i].w) == host::modexp(hb[i], e32, p, np, r2, one))) ++bad;
  fails += report("repeated_squares", bad == 0);

  // 128-bit adds.
  const int n = 256;
  std::vector<ulonglong2> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i) {
    a[i] = make_ulonglong2(rng.next(), rng.next());
    b[i] = make_ulonglong2(i % 3 ? rng.next() : ~0ull, rng.next());
  }
  ulonglong2 *d_a, *d_b, *d_c;
  CUDA_CHECK(cudaMalloc(&d_a, n * sizeof(ulonglong2)));
  CUDA_CHECK(cudaMalloc(&d_b, n * sizeof(ulonglong2)));
  CUDA_CHECK(cudaMalloc(&d_c, n * sizeof(ulonglong2)));
  CUDA_CHECK(cudaMemcpy(d_a, a.data(), n * sizeof(ulonglong2), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_b, b.data(), n * sizeof(ulonglong2), cudaMemcpyHostToDevice));
  add128_kernel<<<n / 64, 64>>>(d_a, d_b, d_c, n);
  CUDA_CHECK_LAST();
  CUDA_CHECK(cudaMemcpy(c.data(), d_c, n * sizeof(ulonglong2), cudaMemcpyDeviceToHost));
  bad = 0;
  for (int i = 0; i < n; ++i) {
    unsigned __int128 x = ((unsigned __int128)a[i].y << 64 | a[i].x) + ((unsigned __int128)b[i].y << 64 | b[i].x);
    if (c[i].x != (uint64_t)x || c[i].y != (uint64_t)(x >> 64)) ++bad;
  }
  fails += report("add128", bad == 0);
  CUDA_CHECK(cudaFree(d_a));
  CUDA_CHECK(cudaFree(d_b));
  CUDA_CHECK(cudaFree(d_c));
  CUDA_CHECK(cudaFree(d_base));
  CUDA_CHECK(cudaFree(d_exp));
  CUDA_CHECK(cudaFree(d_out));
  std::printf("%s\n", fails ? "FAIL" : "PASS");
  return fails ? 1 : 0;
}
