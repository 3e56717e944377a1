/*
 * narrow_conversions.cu: float and double to 8- and 16-bit integers in
 * device code give what a GPU gives. nvcc converts to a char or a short
 * through a 32-bit cvt.rzi of the destination's signedness, which saturates
 * to that 32-bit range and gives 0 for NaN, then keeps the low bits
 * (cvt.rzi.u32.f64 and and.b32 255 for an unsigned char, cvt.rzi.s32.f32
 * and cvt.s32.s8 for a signed char; nvcc 13.0's PTX, at -O0, -O3 and -G).
 * x86-64 converts through a 32-bit signed cvttss2si, whose out-of-range
 * result and NaN are 0x80000000: (unsigned char)-1.5 was 255 instead of 0
 * and (unsigned char)1e10 was 0 instead of 255. Seen in a public
 * rasterizer's `(unsigned char)(255.99 * color.x)`.
 */
#include <cmath>
#include <cstdio>

#include "../check.cuh"

/* The values, read from memory so that the conversions happen at run time. */
#define NVALUES 8
struct narrow {
  unsigned char u8[2][NVALUES];
  signed char s8[2][NVALUES];
  char c8[2][NVALUES];
  unsigned short u16[2][NVALUES];
  short s16[2][NVALUES];
};

__global__ void convert(const float *f, const double *d, narrow *r) {
  int i = threadIdx.x;
  if (i >= NVALUES)
    return;
  r->u8[0][i] = (unsigned char)f[i];
  r->s8[0][i] = (signed char)f[i];
  r->c8[0][i] = static_cast<char>(f[i]);
  r->u16[0][i] = (unsigned short)f[i];
  r->s16[0][i] = (short)f[i];
  r->u8[1][i] = (unsigned char)d[i];
  r->s8[1][i] = (signed char)d[i];
  r->c8[1][i] = static_cast<char>(d[i]);
  r->u16[1][i] = (unsigned short)d[i];
  r->s16[1][i] = (short)d[i];
}

int main() {
  const float floats[NVALUES] = {-1.5f, 300.7f, 1e10f,   -1e10f,
                                 NAN,   -200.0f, 65791.0f, 40000.0f};
  double doubles[NVALUES];
  for (int i = 0; i < NVALUES; ++i)
    doubles[i] = floats[i];
  /* Each value through a saturating 32-bit conversion, then its low bits. */
  const int u8[NVALUES] = {0, 44, 255, 0, 0, 0, 255, 64};
  const int s8[NVALUES] = {-1, 44, -1, 0, 0, 56, -1, 64};
  const int u16[NVALUES] = {0, 300, 65535, 0, 0, 0, 255, 40000};
  const int s16[NVALUES] = {-1, 300, -1, 0, 0, -200, 255, -25536};
  float *d_f;
  double *d_d;
  narrow *d_r, r;
  cudaMalloc(&d_f, sizeof floats);
  cudaMalloc(&d_d, sizeof doubles);
  cudaMalloc(&d_r, sizeof r);
  cudaMemcpy(d_f, floats, sizeof floats, cudaMemcpyHostToDevice);
  cudaMemcpy(d_d, doubles, sizeof doubles, cudaMemcpyHostToDevice);
  cudaMemset(d_r, 0x55, sizeof r);
  convert<<<1, 32>>>(d_f, d_d, d_r);
  CHECK(cudaMemcpy(&r, d_r, sizeof r, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int k = 0; k < 2; ++k)
    for (int i = 0; i < NVALUES; ++i) {
      if (r.u8[k][i] != u8[i] || r.s8[k][i] != s8[i] || r.c8[k][i] != s8[i] ||
          r.u16[k][i] != u16[i] || r.s16[k][i] != s16[i])
        std::fprintf(stderr, "%s %g: u8 %d s8 %d char %d u16 %d s16 %d\n",
                     k ? "double" : "float", doubles[i], r.u8[k][i],
                     r.s8[k][i], r.c8[k][i], r.u16[k][i], r.s16[k][i]);
      CHECK(r.u8[k][i] == u8[i]);
      CHECK(r.s8[k][i] == s8[i]);
      CHECK(r.c8[k][i] == s8[i]);
      CHECK(r.u16[k][i] == u16[i]);
      CHECK(r.s16[k][i] == s16[i]);
    }
  cudaFree(d_f);
  cudaFree(d_d);
  cudaFree(d_r);
  return finish();
}
