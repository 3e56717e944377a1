/*
 * ptx_trial_forms.cu: the inline PTX forms that the trial of
 * high-performance CUDA code (tests/programs/trialptx) found missing or
 * wrong, each against a host reference:
 * - named barrier 1 of the whole block is not __syncthreads: a producer
 *   warp arrives (bar.arrive 1, 128) while the consumers wait (bar.sync
 *   1, 128), then waits itself at barrier 2 for the consumers;
 * - createpolicy and the .L2::cache_hint operand of cp.async, red, atom;
 * - mma.sync.aligned.m16n8k32 and .m16n8k16 with .s8/.u8 inputs (and
 *   .satfinite);
 * - ex2.approx and tanh.approx of .f16x2/.bf16x2, setp and set of .f16,
 *   .bf16 and the pairs;
 * - the SIMD video instructions vabsdiff4, vadd4, vsub2, vmin4, vmax2
 *   (with .sat and .add);
 * - stmatrix (sm_90) .x1/.x2/.x4 and .trans, the inverse of ldmatrix;
 * - cvt.rna.tf32.f32 and mma.sync.aligned.m16n8k8 with .tf32 inputs;
 * - atom/red .add.noftz of .f16, .f16x2, .bf16, .bf16x2;
 * - isspacep of the state spaces, red.global.add.v2/.v4.f32 (sm_90);
 * - cp.async's ignore-src predicate (a fourth operand that is a .pred
 *   register: true gives zeros), not a src-size.
 */
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <cuda_fp16.h>

static int failures = 0;
#define CHECK(c, ...)                                                          \
  do {                                                                         \
    if (!(c)) {                                                                \
      ++failures;                                                              \
      std::printf("FAIL line %d: ", __LINE__);                                 \
      std::printf(__VA_ARGS__);                                                \
      std::printf("\n");                                                       \
    }                                                                          \
  } while (0)

/* Warp 0 fills a tile of 96 values, warps 1..3 consume it, T times. */
__global__ void ring(const int *in, int *out, int tiles) {
  __shared__ int buf[96];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int t = 0; t < tiles; ++t) {
    if (warp == 0) {
      if (t > 0) asm volatile("bar.sync 2, 128;" ::: "memory");
      for (int j = lane; j < 96; j += 32) buf[j] = in[t * 96 + j];
      asm volatile("bar.arrive 1, 128;" ::: "memory");
    } else {
      asm volatile("bar.sync 1, 128;" ::: "memory");
      const int j = (warp - 1) * 32 + lane;
      out[t * 96 + j] = buf[j] * 2 + 1;
      asm volatile("bar.arrive 2, 128;" ::: "memory");
    }
  }
}

__global__ void cache_hints(const int4 *src, int4 *dst, unsigned *sum, unsigned long long *policy) {
  __shared__ __align__(16) int4 stage[32];
  uint64_t evict_first, evict_last, range;
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(evict_first));
  asm volatile("createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64 %0, 0.5;"
               : "=l"(evict_last));
  asm volatile("createpolicy.range.global.L2::evict_last.L2::evict_first.b64 %0, [%1], %2, %3;"
               : "=l"(range) : "l"(src), "r"(256u), "r"(512u));
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(&stage[threadIdx.x]));
  asm volatile("cp.async.cg.shared.global.L2::cache_hint [%0], [%1], 16, %2;" ::"r"(s),
               "l"(src + threadIdx.x), "l"(evict_first));
  asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;" ::: "memory");
  __syncthreads();
  int4 v;
  asm volatile("ld.global.nc.L1::no_allocate.L2::cache_hint.v4.s32 {%0,%1,%2,%3}, [%4], %5;"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(src + threadIdx.x), "l"(evict_last));
  const int4 w = stage[(threadIdx.x + 1) % 32];
  dst[threadIdx.x] = make_int4(v.x + w.x, v.y + w.y, v.z + w.z, v.w + w.w);
  asm volatile("red.global.add.L2::cache_hint.u32 [%0], %1, %2;" ::"l"(sum),
               "r"(static_cast<unsigned>(v.x)), "l"(range)
               : "memory");
  unsigned old;
  asm volatile("atom.global.add.L2::cache_hint.u32 %0, [%1], %2, %3;"
               : "=r"(old) : "l"(sum), "r"(static_cast<unsigned>(v.y)), "l"(evict_first)
               : "memory");
  if (threadIdx.x == 0) *policy = evict_first ^ evict_last ^ (old & 0);
}

/* One 16x8 tile: A 16 x K bytes row-major, B 8 x K bytes (the "col"
 * operand), the fragments loaded as the PTX ISA lays them out. */
template <bool K32, bool Unsigned>
__global__ void mma_int8(const uint32_t *A, const uint32_t *B, const int *C, int *D) {
  const int lane = threadIdx.x, g = lane / 4, t = lane % 4, words = K32 ? 8 : 4;
  int c[4] = {C[g * 8 + 2 * t], C[g * 8 + 2 * t + 1], C[(g + 8) * 8 + 2 * t],
              C[(g + 8) * 8 + 2 * t + 1]};
  int d[4];
  if constexpr (K32 && Unsigned) {
    asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(A[g * words + t]), "r"(A[(g + 8) * words + t]),
                   "r"(A[g * words + t + 4]), "r"(A[(g + 8) * words + t + 4]),
                   "r"(B[g * words + t]), "r"(B[g * words + t + 4]), "r"(c[0]), "r"(c[1]),
                   "r"(c[2]), "r"(c[3]));
  } else if constexpr (K32) {
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(A[g * words + t]), "r"(A[(g + 8) * words + t]),
                   "r"(A[g * words + t + 4]), "r"(A[(g + 8) * words + t + 4]),
                   "r"(B[g * words + t]), "r"(B[g * words + t + 4]), "r"(c[0]), "r"(c[1]),
                   "r"(c[2]), "r"(c[3]));
  } else {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.s32.s8.u8.s32 "
                 "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(A[g * words + t]), "r"(A[(g + 8) * words + t]), "r"(B[g * words + t]),
                   "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
  }
  D[g * 8 + 2 * t] = d[0];
  D[g * 8 + 2 * t + 1] = d[1];
  D[(g + 8) * 8 + 2 * t] = d[2];
  D[(g + 8) * 8 + 2 * t + 1] = d[3];
}

__global__ void half_forms(const unsigned *x, unsigned *out) {
  const unsigned a = x[threadIdx.x], b = x[(threadIdx.x + 5) % 32];
  unsigned e, th, tb, lt, sethalf;
  asm("ex2.approx.f16x2 %0, %1;" : "=r"(e) : "r"(a));
  asm("tanh.approx.f16x2 %0, %1;" : "=r"(th) : "r"(a));
  asm("ex2.approx.ftz.bf16x2 %0, %1;" : "=r"(tb) : "r"(a & 0x3fff3fffu));
  asm("{ .reg .pred p, q, r;\n\t"
      "setp.lt.f16x2 p|q, %1, %2;\n\t"
      "setp.geu.bf16 r, %3, %4;\n\t"
      "selp.u32 %0, 1, 0, p;\n\t"
      "@q or.b32 %0, %0, 2;\n\t"
      "@r or.b32 %0, %0, 4; }"
      : "=r"(lt) : "r"(a), "r"(b), "h"(static_cast<unsigned short>(a)),
        "h"(static_cast<unsigned short>(b)));
  asm("set.gt.u32.f16x2 %0, %1, %2;" : "=r"(sethalf) : "r"(a), "r"(b));
  out[threadIdx.x * 5 + 0] = e;
  out[threadIdx.x * 5 + 1] = th;
  out[threadIdx.x * 5 + 2] = tb;
  out[threadIdx.x * 5 + 3] = lt;
  out[threadIdx.x * 5 + 4] = sethalf;
}

__global__ void video(const unsigned *x, unsigned *out) {
  const unsigned a = x[threadIdx.x], b = x[(threadIdx.x + 7) % 32], c = threadIdx.x * 1000u;
  unsigned r[6];
  asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(r[0]) : "r"(a), "r"(b), "r"(c));
  asm("vabsdiff4.u32.u32.u32 %0, %1, %2, %3;" : "=r"(r[1]) : "r"(a), "r"(b), "r"(0));
  asm("vadd4.u32.u32.u32.sat %0, %1, %2, %3;" : "=r"(r[2]) : "r"(a), "r"(b), "r"(0));
  asm("vsub2.s32.s32.s32.sat %0, %1, %2, %3;" : "=r"(r[3]) : "r"(a), "r"(b), "r"(0));
  asm("vmin4.s32.s32.s32 %0, %1, %2, %3;" : "=r"(r[4]) : "r"(a), "r"(b), "r"(0));
  asm("vmax2.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(r[5]) : "r"(a), "r"(b), "r"(c));
  for (int k = 0; k < 6; ++k) out[threadIdx.x * 6 + k] = r[k];
}

/* Lane t holds, in register m, the pair (row t/4, cols 2(t%4), +1) of
 * matrix m; values are row * 8 + col + 64 m. stmatrix stores the count
 * matrices (lanes 8m..8m+7 give matrix m's rows) into tile; with .trans
 * each matrix lands transposed. */
__global__ void st_matrix(unsigned short *out) {
  __shared__ __align__(16) unsigned short tile[3][4 * 64];
  const int lane = threadIdx.x;
  unsigned r[4];
  for (int m = 0; m < 4; ++m) {
    const unsigned v = 64 * m + (lane / 4) * 8 + 2 * (lane % 4);
    r[m] = v | (v + 1) << 16;
  }
  const unsigned row = (lane % 8) * 16 + (lane / 8) * 128; /* bytes: row lane%8 of matrix lane/8 */
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(&tile[0][0]));
  asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" ::"r"(base + row % 128),
               "r"(r[0]) : "memory");
  asm volatile("stmatrix.sync.aligned.x2.m8n8.shared::cta.b16 [%0], {%1, %2};" ::"r"(base + 512 + row % 256),
               "r"(r[0]), "r"(r[1]) : "memory");
  asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(base + 1024 + row),
               "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]) : "memory");
  __syncwarp();
  for (int i = lane; i < 3 * 256; i += 32) out[i] = (&tile[0][0])[i];
}

__global__ void tf32_mma(const float *A, const float *B, float *D, unsigned *rounded) {
  const int lane = threadIdx.x, g = lane / 4, t = lane % 4;
  unsigned a[4], b[2];
  const float av[4] = {A[g * 8 + t], A[(g + 8) * 8 + t], A[g * 8 + t + 4], A[(g + 8) * 8 + t + 4]};
  for (int i = 0; i < 4; ++i) asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(a[i]) : "f"(av[i]));
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(b[0]) : "f"(B[g * 8 + t]));
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(b[1]) : "f"(B[g * 8 + t + 4]));
  float d[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, "
               "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  D[g * 8 + 2 * t] = d[0];
  D[g * 8 + 2 * t + 1] = d[1];
  D[(g + 8) * 8 + 2 * t] = d[2];
  D[(g + 8) * 8 + 2 * t + 1] = d[3];
  if (lane == 0) {
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(rounded[0]) : "f"(__uint_as_float(0x3f801000u)));
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(rounded[1]) : "f"(__uint_as_float(0xbf800fffu)));
  }
}

__global__ void half_atomics(unsigned *pair, unsigned short *one, unsigned *bpair, unsigned *old) {
  asm volatile("red.global.add.noftz.f16x2 [%0], %1;" ::"l"(pair), "r"(0x38003c00u) : "memory");
  unsigned short o;
  asm volatile("atom.global.add.noftz.f16 %0, [%1], %2;"
               : "=h"(o) : "l"(one), "h"(static_cast<unsigned short>(0x3400u)) : "memory");
  asm volatile("red.relaxed.gpu.global.add.noftz.bf16x2 [%0], %1;" ::"l"(bpair), "r"(0x3f804000u)
               : "memory");
  if (threadIdx.x == 0) *old = o;
}

__constant__ int table[4];

__global__ void spaces(const int *global, unsigned *flags, float *sums) {
  __shared__ int shared;
  int local = threadIdx.x;
  const void *where[4] = {global, &shared, &local, table};
  unsigned bits = 0;
  for (int i = 0; i < 4; ++i) {
    unsigned g, s, l, c;
    asm volatile("{ .reg .pred p, q, r, t;\n\t"
                 "isspacep.global p, %4;\n\t"
                 "isspacep.shared::cta q, %4;\n\t"
                 "isspacep.local r, %4;\n\t"
                 "isspacep.const t, %4;\n\t"
                 "selp.u32 %0, 1, 0, p; selp.u32 %1, 1, 0, q;\n\t"
                 "selp.u32 %2, 1, 0, r; selp.u32 %3, 1, 0, t; }"
                 : "=r"(g), "=r"(s), "=r"(l), "=r"(c) : "l"(where[i]));
    bits |= (g | s << 1 | l << 2 | c << 3) << (4 * i);
  }
  if (threadIdx.x == 0) *flags = bits;
  asm volatile("red.global.add.v2.f32 [%0], {%1, %2};" ::"l"(sums), "f"(1.0f), "f"(0.5f)
               : "memory");
  asm volatile("red.relaxed.gpu.global.add.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(sums + 4),
               "f"(1.0f), "f"(2.0f), "f"(3.0f), "f"(4.0f)
               : "memory");
}

__global__ void ignore_src(const int4 *src, int4 *out) {
  __shared__ __align__(16) int4 stage[32];
  const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(&stage[threadIdx.x]));
  asm volatile("{ .reg .pred ignore;\n\t"
               "setp.ne.b32 ignore, %2, 0;\n\t"
               "cp.async.ca.shared.global [%0], [%1], 16, ignore; }" ::"r"(d),
               "l"(src + threadIdx.x), "r"(static_cast<int>(threadIdx.x % 2)));
  asm volatile("cp.async.wait_all;" ::: "memory");
  __syncthreads();
  out[threadIdx.x] = stage[threadIdx.x];
}

static float h2f(unsigned short h) { return __half2float(__ushort_as_half(h)); }
static float bf2f(unsigned short h) {
  const unsigned u = static_cast<unsigned>(h) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
static long long lane(unsigned v, int i, int bits, bool sign) {
  const unsigned long long e = (v >> (bits * i)) & ((1ULL << bits) - 1);
  return sign && (e >> (bits - 1)) ? static_cast<long long>(e) - (1LL << bits)
                                   : static_cast<long long>(e);
}

int main() {
  /* Named barriers. */
  const int T = 6;
  int *in, *out;
  cudaMallocManaged(&in, T * 96 * sizeof(int));
  cudaMallocManaged(&out, T * 96 * sizeof(int));
  for (int i = 0; i < T * 96; ++i) in[i] = i * 7 % 103;
  ring<<<1, 128>>>(in, out, T);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "ring launch");
  int bad = 0;
  for (int i = 0; i < T * 96; ++i) bad += out[i] != in[i] * 2 + 1;
  CHECK(bad == 0, "%d values of the producer-consumer ring are from another tile", bad);

  /* Cache policies. */
  int4 *src, *dst;
  unsigned *sum;
  unsigned long long *policy;
  cudaMallocManaged(&src, 32 * sizeof(int4));
  cudaMallocManaged(&dst, 32 * sizeof(int4));
  cudaMallocManaged(&sum, sizeof(unsigned));
  cudaMallocManaged(&policy, sizeof(unsigned long long));
  *sum = 0;
  unsigned want = 0;
  for (int i = 0; i < 32; ++i) {
    src[i] = make_int4(i, 2 * i, 3 * i, 4 * i);
    want += 3 * i;
  }
  cache_hints<<<1, 32>>>(src, dst, sum, policy);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "cache_hints launch");
  for (int i = 0; i < 32; ++i)
    CHECK(dst[i].x == i + (i + 1) % 32 && dst[i].w == 4 * i + 4 * ((i + 1) % 32),
          "cp.async/ld with a cache hint, element %d", i);
  CHECK(*sum == want, "red/atom with a cache hint: %u, want %u", *sum, want);

  /* Integer mma. */
  uint32_t *A, *B;
  int *C, *D;
  cudaMallocManaged(&A, 16 * 32);
  cudaMallocManaged(&B, 8 * 32);
  cudaMallocManaged(&C, 128 * sizeof(int));
  cudaMallocManaged(&D, 128 * sizeof(int));
  int8_t *a8 = reinterpret_cast<int8_t *>(A), *b8 = reinterpret_cast<int8_t *>(B);
  for (int i = 0; i < 16 * 32; ++i) a8[i] = static_cast<int8_t>(i * 37 % 251 - 125);
  for (int i = 0; i < 8 * 32; ++i) b8[i] = static_cast<int8_t>(i * 91 % 241 - 120);
  for (int i = 0; i < 128; ++i) C[i] = i * 1001 - 50000;
  C[5] = 0x7fffff00; /* saturates with .satfinite when the sum is positive */
  for (int form = 0; form < 3; ++form) {
    const bool k32 = form < 2, ua = form == 1, ub = form == 2;
    const int K = k32 ? 32 : 16;
    if (form == 0) mma_int8<true, false><<<1, 32>>>(A, B, C, D);
    else if (form == 1) mma_int8<true, true><<<1, 32>>>(A, B, C, D);
    else mma_int8<false, false><<<1, 32>>>(A, B, C, D);
    CHECK(cudaDeviceSynchronize() == cudaSuccess, "mma form %d", form);
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 8; ++j) {
        long long s = C[i * 8 + j];
        for (int k = 0; k < K; ++k) {
          const long long x = ua ? static_cast<uint8_t>(a8[i * K + k]) : a8[i * K + k];
          const long long y = ub ? static_cast<uint8_t>(b8[j * K + k]) : b8[j * K + k];
          s += x * y;
        }
        if (form == 1) s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
        const int w = static_cast<int>(static_cast<uint32_t>(s));
        CHECK(D[i * 8 + j] == w, "mma form %d D[%d][%d] = %d, want %d", form, i, j,
              D[i * 8 + j], w);
      }
  }

  /* Half forms. */
  unsigned *hx, *hout;
  cudaMallocManaged(&hx, 32 * sizeof(unsigned));
  cudaMallocManaged(&hout, 32 * 6 * sizeof(unsigned));
  for (int i = 0; i < 32; ++i) {
    const unsigned short lo = __half_as_ushort(__float2half((i - 16) * 0.375f));
    const unsigned short hi = __half_as_ushort(__float2half((i % 5) * -0.5f + 1.0f));
    hx[i] = lo | static_cast<unsigned>(hi) << 16;
  }
  half_forms<<<1, 32>>>(hx, hout);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "half_forms launch");
  for (int i = 0; i < 32; ++i) {
    const unsigned a = hx[i], b = hx[(i + 5) % 32];
    for (int h = 0; h < 2; ++h) {
      const float v = h2f(static_cast<unsigned short>(a >> (16 * h)));
      const float vb = h2f(static_cast<unsigned short>(b >> (16 * h)));
      const float e = h2f(static_cast<unsigned short>(hout[i * 5] >> (16 * h)));
      const float th = h2f(static_cast<unsigned short>(hout[i * 5 + 1] >> (16 * h)));
      const float x16 = bf2f(static_cast<unsigned short>((a & 0x3fff3fffu) >> (16 * h)));
      const float eb = bf2f(static_cast<unsigned short>(hout[i * 5 + 2] >> (16 * h)));
      CHECK(std::fabs(e - std::exp2(v)) <= 1e-3f * std::exp2(v), "ex2.f16x2 %d.%d", i, h);
      CHECK(std::fabs(th - std::tanh(v)) <= 1e-3f, "tanh.f16x2 %d.%d", i, h);
      CHECK(std::fabs(eb - std::exp2(x16)) <= 8e-3f * std::exp2(x16), "ex2.bf16x2 %d.%d", i, h);
      CHECK(((hout[i * 5 + 3] >> h) & 1) == (v < vb ? 1u : 0u), "setp.lt.f16x2 %d.%d", i, h);
      CHECK(((hout[i * 5 + 4] >> (16 * h)) & 0xffffu) == (v > vb ? 0xffffu : 0u),
            "set.gt.u32.f16x2 %d.%d", i, h);
    }
    const float ba = bf2f(static_cast<unsigned short>(a)), bb = bf2f(static_cast<unsigned short>(b));
    CHECK(((hout[i * 5 + 3] >> 2) & 1) == (!(ba < bb) ? 1u : 0u), "setp.geu.bf16 %d", i);
  }

  /* Video instructions. */
  unsigned *vx, *vout;
  cudaMallocManaged(&vx, 32 * sizeof(unsigned));
  cudaMallocManaged(&vout, 32 * 6 * sizeof(unsigned));
  for (int i = 0; i < 32; ++i) vx[i] = 0x9e3779b9u * (i + 1) ^ (i << 7);
  video<<<1, 32>>>(vx, vout);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "video launch");
  for (int i = 0; i < 32; ++i) {
    const unsigned a = vx[i], b = vx[(i + 7) % 32];
    unsigned sad = i * 1000u, absd = 0, adds = 0, sub2 = 0, min4 = 0, max2 = i * 1000u;
    for (int k = 0; k < 4; ++k) {
      const long long x = lane(a, k, 8, false), y = lane(b, k, 8, false);
      const long long sx = lane(a, k, 8, true), sy = lane(b, k, 8, true);
      sad += static_cast<unsigned>(std::llabs(x - y));
      absd |= static_cast<unsigned>(std::llabs(x - y)) << (8 * k);
      adds |= static_cast<unsigned>(x + y > 255 ? 255 : x + y) << (8 * k);
      min4 |= (static_cast<unsigned>(sx < sy ? sx : sy) & 0xffu) << (8 * k);
    }
    for (int k = 0; k < 2; ++k) {
      const long long sx = lane(a, k, 16, true), sy = lane(b, k, 16, true);
      long long d = sx - sy;
      d = d > 32767 ? 32767 : d < -32768 ? -32768 : d;
      sub2 |= (static_cast<unsigned>(d) & 0xffffu) << (16 * k);
      const long long ux = lane(a, k, 16, false), uy = lane(b, k, 16, false);
      max2 += static_cast<unsigned>(ux > uy ? ux : uy);
    }
    CHECK(vout[i * 6] == sad, "vabsdiff4.add %d: %u, want %u", i, vout[i * 6], sad);
    CHECK(vout[i * 6 + 1] == absd, "vabsdiff4 %d", i);
    CHECK(vout[i * 6 + 2] == adds, "vadd4.sat %d", i);
    CHECK(vout[i * 6 + 3] == sub2, "vsub2.s32.sat %d", i);
    CHECK(vout[i * 6 + 4] == min4, "vmin4.s32 %d", i);
    CHECK(vout[i * 6 + 5] == max2, "vmax2.add %d", i);
  }
  /* stmatrix. */
  unsigned short *st;
  cudaMallocManaged(&st, 3 * 256 * sizeof(unsigned short));
  st_matrix<<<1, 32>>>(st);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "stmatrix launch");
  for (int m = 0; m < 4; ++m)
    for (int r = 0; r < 8; ++r)
      for (int c = 0; c < 8; ++c) {
        const unsigned v = 64 * m + r * 8 + c;
        if (m < 1) CHECK(st[r * 8 + c] == v, "stmatrix.x1 (%d,%d) = %u", r, c, st[r * 8 + c]);
        if (m < 2) CHECK(st[256 + m * 64 + r * 8 + c] == v, "stmatrix.x2 %d (%d,%d)", m, r, c);
        CHECK(st[512 + m * 64 + c * 8 + r] == v, "stmatrix.x4.trans %d (%d,%d) = %u", m, r, c,
              st[512 + m * 64 + c * 8 + r]);
      }

  /* tf32. */
  float *tA, *tB, *tD;
  unsigned *rounded;
  cudaMallocManaged(&tA, 128 * sizeof(float));
  cudaMallocManaged(&tB, 64 * sizeof(float));
  cudaMallocManaged(&tD, 128 * sizeof(float));
  cudaMallocManaged(&rounded, 2 * sizeof(unsigned));
  for (int i = 0; i < 128; ++i) tA[i] = (i % 11) * 0.125f - 0.625f;
  for (int i = 0; i < 64; ++i) tB[i] = (i % 7) * 0.25f - 0.75f;
  tA[3] = 1.0f + 1.0f / 2048; /* a tie: rounds to 1 + 2^-10 (away from zero) */
  tf32_mma<<<1, 32>>>(tA, tB, tD, rounded);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "tf32 launch");
  CHECK(rounded[0] == 0x3f802000u && rounded[1] == 0xbf800000u,
        "cvt.rna.tf32.f32: %08x %08x", rounded[0], rounded[1]);
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 8; ++j) {
      float want = static_cast<float>(1 + (i / 8) * 2 + j % 2);
      for (int k = 0; k < 8; ++k) {
        const float a = (i == 0 && k == 3) ? 1.0f + 1.0f / 1024 : tA[i * 8 + k];
        want += a * tB[j * 8 + k];
      }
      CHECK(std::fabs(tD[i * 8 + j] - want) <= 1e-5f, "tf32 mma (%d,%d) = %f, want %f", i, j,
            tD[i * 8 + j], want);
    }

  /* 16-bit floating-point atomics: 64 threads add 1.0 and 0.5 to a pair,
   * 0.25 to one half, (2.0, 1.0) to a bf16 pair. */
  unsigned *pair, *bpair, *old;
  unsigned short *one;
  cudaMallocManaged(&pair, sizeof(unsigned));
  cudaMallocManaged(&bpair, sizeof(unsigned));
  cudaMallocManaged(&old, sizeof(unsigned));
  cudaMallocManaged(&one, sizeof(unsigned short));
  *pair = 0;
  *bpair = 0;
  *one = 0;
  half_atomics<<<2, 32>>>(pair, one, bpair, old);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "half atomics launch");
  CHECK(h2f(static_cast<unsigned short>(*pair)) == 64.0f &&
        h2f(static_cast<unsigned short>(*pair >> 16)) == 32.0f, "red.add.noftz.f16x2: %08x", *pair);
  CHECK(h2f(*one) == 16.0f, "atom.add.noftz.f16: %04x", *one);
  CHECK(bf2f(static_cast<unsigned short>(*bpair)) == 128.0f &&
        bf2f(static_cast<unsigned short>(*bpair >> 16)) == 64.0f, "red.add.noftz.bf16x2: %08x",
        *bpair);
  CHECK(h2f(static_cast<unsigned short>(*old)) >= 0.0f && *old % 0x400 == 0, "atom.add.noftz.f16's old value");

  /* cp.async with ignore-src: odd threads get zeros. */
  ignore_src<<<1, 32>>>(src, dst);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "ignore_src launch");
  for (int i = 0; i < 32; ++i)
    CHECK(dst[i].x == (i % 2 ? 0 : i) && dst[i].w == (i % 2 ? 0 : 4 * i),
          "cp.async ignore-src, element %d: %d %d", i, dst[i].x, dst[i].w);

  /* isspacep and vector reductions. */
  int *global;
  unsigned *flags;
  float *sums;
  cudaMalloc(&global, sizeof(int));
  cudaMallocManaged(&flags, sizeof(unsigned));
  cudaMallocManaged(&sums, 8 * sizeof(float));
  for (int i = 0; i < 8; ++i) sums[i] = 0.0f;
  spaces<<<1, 32>>>(global, flags, sums);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "spaces launch");
  CHECK(*flags == 0x8421u, "isspacep: %04x, want 8421 (global, shared, local, const)", *flags);
  CHECK(sums[0] == 32.0f && sums[1] == 16.0f && sums[2] == 0.0f && sums[4] == 32.0f &&
            sums[7] == 128.0f, "red.add.v2/.v4.f32: %g %g %g %g", sums[0], sums[1], sums[4], sums[7]);

  if (failures == 0) std::printf("PASS\n");
  return failures != 0;
}
