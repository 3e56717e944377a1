// libdevice_bits.cu: kernels' math functions give the bits that CUDA's
// device math library (libdevice, the toolkit's nvvm/libdevice) gives, which
// are not always the host C library's.
//
// Each row is a function, an argument and the result's bits. The arguments
// are ones where libdevice and glibc 2.36 disagree in the last bits (found
// by comparing the two over random inputs), so a kernel that computed with
// the host's library would fail here; the CUDA-only functions (erfinv,
// normcdfinv, rsqrt, sinpi) and the fast intrinsics (__expf, __logf,
// __fdividef: libdevice's composition, such as __expf's product x * log2(e)
// rounded to float, which makes __expf(50) differ from expf(50)) have plain
// arguments. The expected bits are libdevice's as cuemu compiles it for the
// host (docs/device-math.md); on a GPU, the same program built by nvcc
// checks them against the hardware.
// Each expected value is also checked against a long double reference,
// within CUDA's documented ulp bound for the function (CUDA C++ Programming
// Guide, "Mathematical Functions"), so a wrong row cannot pass unnoticed.
// It also builds with nvcc (nvcc -arch=sm_90 libdevice_bits.cu).
#include <cmath>
#include <cstdio>
#include <cstring>

// A failed runtime call ends the program with its error.
#define CHECK_CUDA(call)                                                        \
  do {                                                                         \
    cudaError_t check_cuda_error = (call);                                     \
    if (check_cuda_error != cudaSuccess) {                                     \
      std::printf("FAIL: %s: %s\n", #call, cudaGetErrorString(check_cuda_error)); \
      return 1;                                                                \
    }                                                                          \
  } while (0)

enum func {
  F_exp, F_sin, F_cos, F_tan, F_log, F_pow, F_atan2, F_erf, F_tanh, F_atan,
  F_expm1, F_log1p, F_sinh, F_cbrt, F_lgamma, F_sincos_c, F_expf, F_sinf,
  F_logf, F_powf, F_tanhf, F_erff, F_cbrtf, F_erfinv, F_normcdfinv, F_rsqrt,
  F_erfinvf, F_sinpi, F_fast_expf, F_fast_fdividef, F_fast_logf
};

struct row {
  func f;
  double x;
  double unused;
  unsigned long long bits;  // a double's bits, or a float's in the low 32
};

static const row rows[] = {
  {F_exp, 0x1.415248p+1, 0, 0x40289e29aaf93c8full},
  {F_exp, 0x1.84f83bp+3, 0, 0x41073499fb37a604ull},
  {F_exp, -0x1.100aaa8p+4, 0, 0x3e662b16ffbaf747ull},
  {F_sin, -0x1.7322122p+5, 0, 0xbfe564bd583087d1ull},
  {F_sin, -0x1.68a87dcp+4, 0, 0x3fe0b9c34782b4e6ull},
  {F_sin, -0x1.b545554p+4, 0, 0xbfe9ef24de5a0adcull},
  {F_cos, 0x1.5b6eb34p+4, 0, 0xbfeec8917e2ce456ull},
  {F_cos, -0x1.fc9288p+0, 0, 0xbfd9da1317b8d3a1ull},
  {F_tan, 0x1.0c0b8ap+0, 0, 0x3ffbb414af86ee04ull},
  {F_tan, 0x1.1f7defp+1, 0, 0xbff3fad302e9e9bfull},
  {F_log, 0x1.701c582b0948fp+19, 0, 0x402b10e5bc841640ull},
  {F_log, 0x1.2a5720ea496b8p+18, 0, 0x40294268ec05db77ull},
  {F_pow, 0x1.076a1f3d9999ap+5, 0, 0x40c870d46fc319bbull},
  {F_pow, 0x1.4c04a85333333p+2, 0, 0x40554cf1f2c53b97ull},
  {F_atan2, -0x1.7168a7p+1, 0, 0xbff5109229110634ull},
  {F_atan2, 0x1.280ce8p+1, 0, 0x3ff41d98a4507536ull},
  {F_erf, 0x1.e839c4p+0, 0, 0x3fefc6b2d0b9163full},
  {F_erf, -0x1.67e17p-2, 0, 0xbfd85f6eca06678eull},
  {F_tanh, 0x1.3ec21p-1, 0, 0x3fe1b180d7be4802ull},
  {F_tanh, 0x1.c5816p-2, 0, 0x3fdaa02aa7aae547ull},
  {F_atan, 0x1.3f4db58p+3, 0, 0x3ff788dabb363f31ull},
  {F_atan, 0x1.33f3bep+1, 0, 0x3ff2d4786174dcfeull},
  {F_expm1, -0x1.13c36p-2, 0, 0xbfce381069307c77ull},
  {F_expm1, 0x1.f33c6p-1, 0, 0x3ffa6bf0e972c623ull},
  {F_log1p, 0x1.5cdb568p+0, 0, 0x3feb839938a4ea79ull},
  {F_log1p, 0x1.5c9ab04p+2, 0, 0x3ffdd15456b48411ull},
  {F_sinh, 0x1.01bd68p-1, 0, 0x3fe0cc3a69eaa1d7ull},
  {F_sinh, 0x1.786dp-4, 0, 0x3fb78f4b409276cbull},
  {F_cbrt, 0x1.38b6718p+6, 0, 0x40111a87fec4e03full},
  {F_cbrt, -0x1.8d7068cp+6, 0, 0xc01286d26c4aeb5cull},
  {F_lgamma, 0x1.67157da333333p+3, 0, 0x402f413330e0b956ull},
  {F_lgamma, 0x1.2e1c5a28p+4, 0, 0x404206907605b891ull},
  {F_sincos_c, -0x1.163aa9p+3, 0, 0xbfe7d7d3ef2969b0ull},
  {F_sincos_c, -0x1.3281afp+2, 0, 0x3fb3a2ab1be3ad0aull},
  {F_expf, 0x1.04d5ecp+4, 0, 0x4b376feaull},
  {F_expf, 0x1.255a1ep+4, 0, 0x4caefc5eull},
  {F_sinf, 0x1.034a4p+4, 0, 0xbef46a6aull},
  {F_sinf, -0x1.0eefc4p+5, 0, 0xbf230aa6ull},
  {F_logf, 0x1.3c37a2p+17, 0, 0x413fea84ull},
  {F_logf, 0x1.468c24p+17, 0, 0x41406e2full},
  {F_powf, 0x1.a851aep+5, 0, 0x4455ae27ull},
  {F_powf, 0x1.ce6ffcp+3, 0, 0x42bb70f5ull},
  {F_tanhf, 0x1.33cdp+0, 0, 0x3f559935ull},
  {F_tanhf, 0x1.624828p+0, 0, 0x3f61bf41ull},
  {F_erff, 0x1.2de83cp+1, 0, 0x3f7fc839ull},
  {F_erff, -0x1.214d9p-2, 0, 0xbe9efb25ull},
  {F_cbrtf, 0x1.03e014p+5, 0, 0x404c351dull},
  {F_cbrtf, -0x1.4a444ap+5, 0, 0xc05d316full},
  {F_erfinv, 0x1.3333333333333p-2, 0, 0x3fd1700774485ed3ull},
  {F_erfinv, -0x1.8a3d70a3d70a4p-1, 0, 0xbfeb2938a27fb15aull},
  {F_erfinv, 0x1.ccccccccccccdp-1, 0, 0x3ff29c0146770650ull},
  {F_normcdfinv, 0x1.47ae147ae147bp-7, 0, 0xc0029c5c4630ff0full},
  {F_normcdfinv, 0x1.3333333333333p-2, 0, 0xbfe0c7e39582c5fbull},
  {F_normcdfinv, 0x1.f333333333333p-1, 0, 0x3fff5c0331eeff84ull},
  {F_rsqrt, 0x1.8p+1, 0, 0x3fe279a74590331dull},
  {F_rsqrt, 0x1.47ae147ae147bp-6, 0, 0x401c48c6001f0ac0ull},
  {F_rsqrt, 0x1.81cd6c8b43958p+13, 0, 0x3f826e9799fda16aull},
  {F_erfinvf, 0x1.333334p-2, 0, 0x3e8b803cull},
  {F_erfinvf, -0x1.8a3d7p-1, 0, 0xbf5949c4ull},
  {F_sinpi, 0x1.3333333333333p-2, 0, 0x3fe9e3779b97f4a7ull},
  {F_sinpi, 0x1.cp+0, 0, 0xbfe6a09e667f3bccull},
  {F_sinpi, -0x1.199999999999ap+1, 0, 0xbfe2cf2304755a62ull},
  {F_fast_expf, 0x1.9p+5, 0, 0x638c8814ull},
  {F_fast_expf, -0x1.e8p+4, 0, 0x297f9c43ull},
  {F_fast_expf, 0x1.dp+2, 0, 0x44b00356ull},
  {F_fast_fdividef, 0x1p+0, 0, 0x00000000ull},
  {F_fast_logf, 0x1.8p+1, 0, 0x3f8c9f54ull},
};
static const int nrows = sizeof rows / sizeof rows[0];

__device__ unsigned long long dbits(double d) { return static_cast<unsigned long long>(__double_as_longlong(d)); }
__device__ unsigned long long fbits(float f) { return static_cast<unsigned>(__float_as_int(f)); }

// One thread a row: the function as a CUDA program calls it.
__global__ void evaluate(const row *r, unsigned long long *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double x = r[i].x;
  const float xf = static_cast<float>(x);
  double s, c;
  switch (r[i].f) {
    case F_exp: out[i] = dbits(exp(x)); break;
    case F_sin: out[i] = dbits(sin(x)); break;
    case F_cos: out[i] = dbits(cos(x)); break;
    case F_tan: out[i] = dbits(tan(x)); break;
    case F_log: out[i] = dbits(log(x)); break;
    case F_pow: out[i] = dbits(pow(x, 2.7)); break;
    case F_atan2: out[i] = dbits(atan2(x, 0.75)); break;
    case F_erf: out[i] = dbits(erf(x)); break;
    case F_tanh: out[i] = dbits(tanh(x)); break;
    case F_atan: out[i] = dbits(atan(x)); break;
    case F_expm1: out[i] = dbits(expm1(x)); break;
    case F_log1p: out[i] = dbits(log1p(x)); break;
    case F_sinh: out[i] = dbits(sinh(x)); break;
    case F_cbrt: out[i] = dbits(cbrt(x)); break;
    case F_lgamma: out[i] = dbits(lgamma(x)); break;
    case F_sincos_c: sincos(x, &s, &c); out[i] = dbits(c); break;
    case F_expf: out[i] = fbits(expf(xf)); break;
    case F_sinf: out[i] = fbits(sinf(xf)); break;
    case F_logf: out[i] = fbits(logf(xf)); break;
    case F_powf: out[i] = fbits(powf(xf, 1.7f)); break;
    case F_tanhf: out[i] = fbits(tanhf(xf)); break;
    case F_erff: out[i] = fbits(erff(xf)); break;
    case F_cbrtf: out[i] = fbits(cbrtf(xf)); break;
    case F_erfinv: out[i] = dbits(erfinv(x)); break;
    case F_normcdfinv: out[i] = dbits(normcdfinv(x)); break;
    case F_rsqrt: out[i] = dbits(rsqrt(x)); break;
    case F_erfinvf: out[i] = fbits(erfinvf(xf)); break;
    case F_sinpi: out[i] = dbits(sinpi(x)); break;
    case F_fast_expf: out[i] = fbits(__expf(xf)); break;
    case F_fast_fdividef: out[i] = fbits(__fdividef(xf, 1e38f)); break;
    case F_fast_logf: out[i] = fbits(__logf(xf)); break;
  }
}

static double as_double(unsigned long long b) { double d; std::memcpy(&d, &b, sizeof d); return d; }
static float as_float(unsigned long long b) { unsigned u = static_cast<unsigned>(b); float f; std::memcpy(&f, &u, sizeof f); return f; }

// The error of `got` from `exact` in ulps of the nearest value of the type
// (53 or 24 bits of mantissa).
static double ulps(long double got, long double exact, int mantissa) {
  int e;
  std::frexp(static_cast<double>(exact), &e);
  return static_cast<double>(std::fabs(got - exact) / std::ldexp(1.0L, e - mantissa));
}

// The expected value's error against long double, within CUDA's bound.
static bool plausible(const row &r, double *error, double *bound) {
  const long double x = r.x, pi = 3.141592653589793238462643383279502884L;
  const bool single = r.f == F_expf || r.f == F_sinf || r.f == F_logf || r.f == F_powf ||
                      r.f == F_tanhf || r.f == F_erff || r.f == F_cbrtf || r.f == F_erfinvf ||
                      r.f == F_fast_expf || r.f == F_fast_fdividef || r.f == F_fast_logf;
  const long double got = single ? as_float(r.bits) : as_double(r.bits);
  const long double xf = static_cast<float>(r.x);
  long double exact = 0;
  switch (r.f) {
    case F_exp: exact = expl(x); *bound = 1; break;
    case F_sin: exact = sinl(x); *bound = 2; break;
    case F_cos: case F_sincos_c: exact = cosl(x); *bound = 2; break;
    case F_tan: exact = tanl(x); *bound = 2; break;
    case F_log: exact = logl(x); *bound = 1; break;
    case F_pow: exact = powl(x, static_cast<long double>(2.7)); *bound = 2; break;
    case F_atan2: exact = atan2l(x, 0.75L); *bound = 2; break;
    case F_erf: exact = erfl(x); *bound = 2; break;
    case F_tanh: exact = tanhl(x); *bound = 2; break;
    case F_atan: exact = atanl(x); *bound = 2; break;
    case F_expm1: exact = expm1l(x); *bound = 1; break;
    case F_log1p: exact = log1pl(x); *bound = 1; break;
    case F_sinh: exact = sinhl(x); *bound = 2; break;
    case F_cbrt: exact = cbrtl(x); *bound = 1; break;
    case F_lgamma: exact = lgammal(x); *bound = 4; break;
    case F_expf: exact = expl(xf); *bound = 2; break;
    case F_sinf: exact = sinl(xf); *bound = 2; break;
    case F_logf: exact = logl(xf); *bound = 1; break;
    case F_powf: exact = powl(xf, static_cast<long double>(1.7f)); *bound = 4; break;
    case F_tanhf: exact = tanhl(xf); *bound = 2; break;
    case F_erff: exact = erfl(xf); *bound = 2; break;
    case F_cbrtf: exact = cbrtl(xf); *bound = 1; break;
    case F_rsqrt: exact = 1.0L / sqrtl(x); *bound = 1; break;
    case F_sinpi: exact = sinl(pi * x); *bound = 2; break;
    // The intrinsics' bounds: __expf 2 + floor(|1.173 x|) ulp; __logf 3 ulp
    // outside [0.5, 2]; __fdividef is 0 for 2^126 < |y| < 2^128.
    case F_fast_expf: exact = expl(xf); *bound = 2 + std::floor(std::fabs(1.173 * r.x)); break;
    case F_fast_logf: exact = logl(xf); *bound = 3; break;
    case F_fast_fdividef: *error = got == 0 ? 0 : 1; *bound = 0; return got == 0;
    // The inverses: the function of the result gives the argument back.
    case F_erfinv:
    case F_erfinvf:
      *error = ulps(erfl(got), single ? xf : x, single ? 24 : 53);
      *bound = single ? 4 : 8;
      return *error <= *bound;
    case F_normcdfinv:
      *error = ulps(0.5L * erfcl(-got / sqrtl(2.0L)), x, 53);
      *bound = 8;
      return *error <= *bound;
  }
  *error = ulps(got, exact, single ? 24 : 53);
  return *error <= *bound;
}

int main() {
  row *r;
  unsigned long long *out;
  CHECK_CUDA(cudaMalloc(&r, sizeof rows));
  CHECK_CUDA(cudaMalloc(&out, nrows * sizeof *out));
  CHECK_CUDA(cudaMemcpy(r, rows, sizeof rows, cudaMemcpyHostToDevice));
  evaluate<<<(nrows + 63) / 64, 64>>>(r, out, nrows);
  CHECK_CUDA(cudaGetLastError());
  unsigned long long got[sizeof rows / sizeof rows[0]];
  CHECK_CUDA(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < nrows; ++i) {
    double error, bound;
    if (!plausible(rows[i], &error, &bound)) {
      std::printf("row %d (function %d, x = %a): the expected value is %.2f ulp from long double, over CUDA's %g\n",
                  i, rows[i].f, rows[i].x, error, bound);
      ++bad;
    }
    if (got[i] != rows[i].bits) {
      std::printf("row %d (function %d, x = %a): got 0x%llx, libdevice gives 0x%llx\n", i, rows[i].f,
                  rows[i].x, got[i], rows[i].bits);
      ++bad;
    }
  }
  CHECK_CUDA(cudaFree(r));
  CHECK_CUDA(cudaFree(out));
  if (bad) {
    std::printf("%d of %d rows wrong\nFAIL\n", bad, nrows);
    return 1;
  }
  std::printf("%d results bit for bit as libdevice's\nPASS\n", nrows);
  return 0;
}
