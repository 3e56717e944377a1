// common.h - small helpers shared by the imaging samples (error checks and a
// host model of the texture unit, per the CUDA Programming Guide, "Texture Fetching").
#ifndef TRIALTEX_COMMON_H
#define TRIALTEX_COMMON_H
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

#define CK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  fprintf(stderr, "%s:%d: %s -> %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
  exit(1); } } while (0)

static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 10) { fprintf(stderr, "mismatch: "); \
  fprintf(stderr, __VA_ARGS__); fprintf(stderr, "\n"); } g_fail++; } } while (0)
static inline int finish(const char *name) {
  printf("%s: %s\n", name, g_fail ? "FAIL" : "ok");
  printf(g_fail ? "FAIL\n" : "PASS\n");
  return g_fail ? 1 : 0;
}

// Host model of the texture unit.
enum HostAddr { H_WRAP, H_CLAMP, H_MIRROR, H_BORDER };
static inline float frac_(float x) { return x - floorf(x); }
// 9-bit fixed point with 8 fractional bits.
static inline float q8(float a) { return floorf(a * 256.0f + 0.5f) / 256.0f; }
// Normalized coordinate -> texel-space coordinate (wrap/mirror applied first).
static inline float host_coord(float x, int n, HostAddr m, bool norm) {
  if (!norm) return x;
  if (m == H_WRAP) x = x - floorf(x);
  else if (m == H_MIRROR) { float f = floorf(x); x = ((int)f % 2 == 0) ? x - f : 1.0f - (x - f); }
  return x * n;
}
// Integer index through the address mode; -1 means border.
static inline int host_index(int i, int n, HostAddr m) {
  switch (m) {
  case H_CLAMP: return i < 0 ? 0 : (i >= n ? n - 1 : i);
  case H_BORDER: return (i < 0 || i >= n) ? -1 : i;
  case H_WRAP: { int r = i % n; return r < 0 ? r + n : r; }
  case H_MIRROR: { int p = 2 * n; int r = i % p; if (r < 0) r += p; return r < n ? r : p - 1 - r; }
  }
  return 0;
}
struct HF4 { float x, y, z, w; };
// Texel fetcher: f(i, j, k) returns a float4 (i, j, k already through the address mode; -1 border).
template <class F>
static HF4 host_tex2D(F f, int w, int h, HostAddr m, bool norm, bool linear, float x, float y,
                      HF4 border = {0, 0, 0, 0}) {
  x = host_coord(x, w, m, norm); y = host_coord(y, h, m, norm);
  auto at = [&](int i, int j) -> HF4 {
    int ii = host_index(i, w, m), jj = host_index(j, h, m);
    if (ii < 0 || jj < 0) return border;
    return f(ii, jj);
  };
  if (!linear) return at((int)floorf(x), (int)floorf(y));
  float xb = x - 0.5f, yb = y - 0.5f;
  int i = (int)floorf(xb), j = (int)floorf(yb);
  float a = q8(frac_(xb)), b = q8(frac_(yb));
  HF4 t00 = at(i, j), t10 = at(i + 1, j), t01 = at(i, j + 1), t11 = at(i + 1, j + 1);
  float w00 = (1 - a) * (1 - b), w10 = a * (1 - b), w01 = (1 - a) * b, w11 = a * b;
  HF4 r;
  r.x = w00 * t00.x + w10 * t10.x + w01 * t01.x + w11 * t11.x;
  r.y = w00 * t00.y + w10 * t10.y + w01 * t01.y + w11 * t11.y;
  r.z = w00 * t00.z + w10 * t10.z + w01 * t01.z + w11 * t11.z;
  r.w = w00 * t00.w + w10 * t10.w + w01 * t01.w + w11 * t11.w;
  return r;
}
static inline bool near_(float a, float b, float tol = 2e-6f) {
  return fabsf(a - b) <= tol * fmaxf(1.0f, fabsf(b));
}
#endif // TRIALTEX_COMMON_H
