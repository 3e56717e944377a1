// CUDA 12.8's built-in atomic functions (__nv_atomic_*), as a program chooses
// them with `#if CUDA_VERSION >= 12080` (HeCBench's atomicCAS does): the
// compare-and-swap loops of a derived min, max and add that start from
// __nv_atomic_load_n, every read-modify-write under contention from many
// blocks, the generic forms on 8- and 16-byte structs, compare-and-swap
// failure reporting the current value, and the fence.
#include <cuda.h>
#include <cstdio>

#include "../check.cuh"

#if CUDA_VERSION < 12080
#error "these built-ins are CUDA 12.8's"
#endif

constexpr int kBlocks = 64;
constexpr int kThreads = 128;
constexpr int kN = kBlocks * kThreads;

// A minimum by compare-and-swap, the way pre-12.8 code wrote atomicMin for
// 64-bit signed values, now starting from a relaxed built-in load.
__device__ long long derived_min(long long *address, long long val) {
  long long ret = __nv_atomic_load_n(address, __NV_ATOMIC_RELAXED);
  while (val < ret) {
    long long old = ret;
    if ((ret = (long long)atomicCAS((unsigned long long *)address,
                                    (unsigned long long)old,
                                    (unsigned long long)val)) == old)
      break;
  }
  return ret;
}

__device__ double derived_add(double *address, double val) {
  unsigned long long *ptr = (unsigned long long *)address;
  unsigned long long old, ret = __nv_atomic_load_n(ptr, __NV_ATOMIC_RELAXED);
  do {
    old = ret;
    ret = atomicCAS(ptr, old, __double_as_longlong(__longlong_as_double(old) + val));
  } while (ret != old);
  return __longlong_as_double(ret);
}

struct Counters {
  long long smin;
  double dsum;
  int iadd, isub, imin, imax;
  unsigned uand, uor, uxor;
  unsigned long long ull_add;
  float fadd;
  double dsub;
  long long llmax;
};

__global__ void contend(Counters *c) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
  derived_min(&c->smin, (long long)i);
  derived_add(&c->dsum, (double)i);
  __nv_atomic_fetch_add(&c->iadd, 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_fetch_sub(&c->isub, 2, __NV_ATOMIC_SEQ_CST);
  __nv_atomic_fetch_min(&c->imin, -i, __NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_BLOCK);
  __nv_atomic_fetch_max(&c->imax, i, __NV_ATOMIC_RELEASE);
  __nv_atomic_fetch_and(&c->uand, ~(1u << (i % 32)), __NV_ATOMIC_RELAXED);
  __nv_atomic_fetch_or(&c->uor, 1u << (i % 16), __NV_ATOMIC_RELAXED);
  __nv_atomic_fetch_xor(&c->uxor, (unsigned)i, __NV_ATOMIC_RELAXED);
  __nv_atomic_fetch_add(&c->ull_add, 3, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_SYSTEM);
  __nv_atomic_fetch_add(&c->fadd, 0.5f, __NV_ATOMIC_RELAXED);
  __nv_atomic_fetch_sub(&c->dsub, 0.25, __NV_ATOMIC_RELAXED);
  __nv_atomic_fetch_max(&c->llmax, (long long)i << 33, __NV_ATOMIC_RELAXED);
}

// Returned old values: each thread of a ticket counter gets a distinct one.
__global__ void tickets(unsigned *counter, unsigned *seen) {
  const unsigned t = __nv_atomic_fetch_add(counter, 1u, __NV_ATOMIC_ACQ_REL);
  __nv_atomic_fetch_add(&seen[t], 1u, __NV_ATOMIC_RELAXED);
}

struct Pair {
  int a, b;
};
struct alignas(16) Quad {
  int a, b, c, d;
};

struct Singles {
  int cas_ok, cas_fail, expected_after_fail, value_after;
  int exch_old, exch_now;
  short short_loaded;
  Pair pair_loaded, pair_old, pair_expected;
  int pair_cas_ok, pair_cas_fail;
  Quad quad_loaded, quad_old;
  int quad_cas_ok;
  unsigned long long stored;
};

__global__ void singles(int *x, short *s, Pair *p, Quad *q, unsigned long long *u,
                        Singles *out) {
  int expected = 5;
  out->cas_ok = __nv_atomic_compare_exchange_n(x, &expected, 7, false,
                                               __NV_ATOMIC_ACQ_REL, __NV_ATOMIC_RELAXED);
  expected = 5;  // x is 7 now: this one fails and reports 7
  out->cas_fail = __nv_atomic_compare_exchange_n(x, &expected, 9, true,
                                                 __NV_ATOMIC_SEQ_CST, __NV_ATOMIC_RELAXED,
                                                 __NV_THREAD_SCOPE_DEVICE);
  out->expected_after_fail = expected;
  out->value_after = __nv_atomic_load_n(x, __NV_ATOMIC_ACQUIRE);
  out->exch_old = __nv_atomic_exchange_n(x, 11, __NV_ATOMIC_ACQ_REL);
  int nv = 13;
  __nv_atomic_exchange(x, &nv, &out->exch_now, __NV_ATOMIC_RELAXED);  // old: 11
  out->short_loaded = __nv_atomic_load_n(s, __NV_ATOMIC_RELAXED);

  __nv_atomic_load(p, &out->pair_loaded, __NV_ATOMIC_RELAXED);
  Pair np = {21, 22};
  __nv_atomic_exchange(p, &np, &out->pair_old, __NV_ATOMIC_RELAXED);
  Pair e = {21, 22}, d = {31, 32};
  out->pair_cas_ok = __nv_atomic_compare_exchange(p, &e, &d, false, __NV_ATOMIC_SEQ_CST,
                                                  __NV_ATOMIC_SEQ_CST);
  Pair wrong = {0, 0}, d2 = {41, 42};
  out->pair_cas_fail = __nv_atomic_compare_exchange(p, &wrong, &d2, false,
                                                    __NV_ATOMIC_RELAXED,
                                                    __NV_ATOMIC_RELAXED);
  out->pair_expected = wrong;  // the current value, {31, 32}

  __nv_atomic_load(q, &out->quad_loaded, __NV_ATOMIC_RELAXED);
  Quad nq = {5, 6, 7, 8};
  __nv_atomic_exchange(q, &nq, &out->quad_old, __NV_ATOMIC_RELAXED);
  Quad eq = {5, 6, 7, 8}, dq = {9, 10, 11, 12};
  out->quad_cas_ok = __nv_atomic_compare_exchange(q, &eq, &dq, false,
                                                  __NV_ATOMIC_RELAXED, __NV_ATOMIC_RELAXED);

  __nv_atomic_store_n(u, 0x123456789abcdefULL, __NV_ATOMIC_RELEASE);
  __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_DEVICE);
  unsigned long long w = 0xfedcba9876543210ULL;
  __nv_atomic_store(u + 1, &w, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK);
  out->stored = __nv_atomic_load_n(u, __NV_ATOMIC_SEQ_CST);
}

int main() {
  Counters h0 = {};
  h0.smin = 1LL << 40;
  h0.uand = 0xffffffffu;
  h0.imin = 0;
  h0.imax = -1;
  h0.llmax = -5;
  Counters *dc;
  cudaMalloc(&dc, sizeof(Counters));
  cudaMemcpy(dc, &h0, sizeof h0, cudaMemcpyHostToDevice);
  contend<<<kBlocks, kThreads>>>(dc);
  Counters c;
  cudaMemcpy(&c, dc, sizeof c, cudaMemcpyDeviceToHost);

  double sum = 0;
  unsigned uxor = 0, uand = 0xffffffffu, uor = 0;
  for (int i = 1; i <= kN; ++i) {
    sum += i;
    uxor ^= (unsigned)i;
    uand &= ~(1u << (i % 32));
    uor |= 1u << (i % 16);
  }
  CHECK(c.smin == 1);
  CHECK(c.dsum == sum);  // integers below 2^53: exact in any order
  CHECK(c.iadd == kN);
  CHECK(c.isub == -2 * kN);
  CHECK(c.imin == -kN);
  CHECK(c.imax == kN);
  CHECK(c.uand == uand);
  CHECK(c.uor == uor);
  CHECK(c.uxor == uxor);
  CHECK(c.ull_add == 3ULL * kN);
  CHECK(c.fadd == 0.5f * kN);  // multiples of 0.5 up to 4096: exact
  CHECK(c.dsub == -0.25 * kN);
  CHECK(c.llmax == (long long)kN << 33);

  unsigned *counter, *seen;
  cudaMalloc(&counter, sizeof(unsigned));
  cudaMalloc(&seen, kN * sizeof(unsigned));
  cudaMemset(counter, 0, sizeof(unsigned));
  cudaMemset(seen, 0, kN * sizeof(unsigned));
  tickets<<<kBlocks, kThreads>>>(counter, seen);
  static unsigned hs[kN];
  unsigned hc = 0;
  cudaMemcpy(hs, seen, sizeof hs, cudaMemcpyDeviceToHost);
  cudaMemcpy(&hc, counter, sizeof hc, cudaMemcpyDeviceToHost);
  int once = 0;
  for (int i = 0; i < kN; ++i)
    once += hs[i] == 1;
  CHECK(hc == (unsigned)kN);
  CHECK(once == kN);

  int *x;
  short *s;
  Pair *p;
  Quad *q;
  unsigned long long *u;
  Singles *out;
  cudaMalloc(&x, sizeof(int));
  cudaMalloc(&s, sizeof(short));
  cudaMalloc(&p, sizeof(Pair));
  cudaMalloc(&q, sizeof(Quad));
  cudaMalloc(&u, 2 * sizeof(unsigned long long));
  cudaMalloc(&out, sizeof(Singles));
  const int x0 = 5;
  const short s0 = -1234;
  const Pair p0 = {1, 2};
  const Quad q0 = {1, 2, 3, 4};
  cudaMemcpy(x, &x0, sizeof x0, cudaMemcpyHostToDevice);
  cudaMemcpy(s, &s0, sizeof s0, cudaMemcpyHostToDevice);
  cudaMemcpy(p, &p0, sizeof p0, cudaMemcpyHostToDevice);
  cudaMemcpy(q, &q0, sizeof q0, cudaMemcpyHostToDevice);
  singles<<<1, 1>>>(x, s, p, q, u, out);
  Singles o;
  cudaMemcpy(&o, out, sizeof o, cudaMemcpyDeviceToHost);
  int hx;
  Pair hp;
  Quad hq;
  unsigned long long hu[2];
  cudaMemcpy(&hx, x, sizeof hx, cudaMemcpyDeviceToHost);
  cudaMemcpy(&hp, p, sizeof hp, cudaMemcpyDeviceToHost);
  cudaMemcpy(&hq, q, sizeof hq, cudaMemcpyDeviceToHost);
  cudaMemcpy(hu, u, sizeof hu, cudaMemcpyDeviceToHost);
  CHECK(cudaGetLastError() == cudaSuccess);

  CHECK(o.cas_ok == 1);
  CHECK(o.cas_fail == 0);
  CHECK(o.expected_after_fail == 7);
  CHECK(o.value_after == 7);
  CHECK(o.exch_old == 7);
  CHECK(o.exch_now == 11);
  CHECK(hx == 13);
  CHECK(o.short_loaded == -1234);
  CHECK(o.pair_loaded.a == 1 && o.pair_loaded.b == 2);
  CHECK(o.pair_old.a == 1 && o.pair_old.b == 2);
  CHECK(o.pair_cas_ok == 1);
  CHECK(o.pair_cas_fail == 0);
  CHECK(o.pair_expected.a == 31 && o.pair_expected.b == 32);
  CHECK(hp.a == 31 && hp.b == 32);
  CHECK(o.quad_loaded.a == 1 && o.quad_loaded.d == 4);
  CHECK(o.quad_old.a == 1 && o.quad_old.b == 2 && o.quad_old.c == 3 && o.quad_old.d == 4);
  CHECK(o.quad_cas_ok == 1);
  CHECK(hq.a == 9 && hq.b == 10 && hq.c == 11 && hq.d == 12);
  CHECK(o.stored == 0x123456789abcdefULL);
  CHECK(hu[0] == 0x123456789abcdefULL && hu[1] == 0xfedcba9876543210ULL);
  return finish();
}
