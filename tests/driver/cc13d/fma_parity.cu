// fma_parity.cu: four patterns of multiply and add against two references
// computed on the host: the host's own (each operation rounded, as the host
// pass computes) and the GPU's (fmaf exactly where nvcc 13.0's PTX for
// sm_90 has fma.rn.f32 with -fmad=true, in its order: a*b+c fused;
// a*b + c*d as mul(a*b) then fma(c, d, that); x += a*b as one fma a step;
// the stencil c0*in[i-1] + c1*in[i] + c2*in[i+1] as mul(c1*in[i]) then
// fma(c0, in[i-1], .) and fma(c2, in[i+1], .)). Prints which reference
// each result matches (docs/nvcc-checks.md, the -fmad default).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cstdlib>

__global__ void patterns(const float *v, float *r)
{
  r[0] = v[0] * v[1] + v[2];
  r[1] = v[0] * v[1] + v[2] * v[3];
}

__global__ void dot(const float *a, const float *b, int n, float *r)
{
  float x = 0.0f;
  for (int q = 0; q < n; ++q)
    x += a[q] * b[q];
  r[0] = x;
}

__global__ void stencil(const float *in, float *out, int n, float c0, float c1, float c2)
{
  int q = blockIdx.x * blockDim.x + threadIdx.x;
  if (q > 0 && q < n - 1)
    out[q] = c0 * in[q - 1] + c1 * in[q] + c2 * in[q + 1];
}

static int ulps(float x, float y)
{
  int ix, iy;
  std::memcpy(&ix, &x, 4);
  std::memcpy(&iy, &y, 4);
  return std::abs(ix - iy);
}

int main()
{
  const int n = 1 << 16;
  float *a = (float *)malloc(n * 4), *b = (float *)malloc(n * 4), *o = (float *)malloc(n * 4);
  unsigned state = 7;
  for (int q = 0; q < n; ++q) {
    state = state * 1664525u + 1013904223u;
    a[q] = (float)(state >> 8) / 16777216.0f - 0.5f;
    state = state * 1664525u + 1013904223u;
    b[q] = (float)(state >> 8) / 16777216.0f - 0.5f;
  }
  float v[4] = {1.0f + ldexpf(1, -12), 1.0f + ldexpf(1, -12), -(1.0f + ldexpf(1, -11)), 1.0f};
  float *dv, *dr, *da, *db, *dout;
  cudaMalloc(&dv, 16); cudaMalloc(&dr, 16); cudaMalloc(&da, n * 4); cudaMalloc(&db, n * 4); cudaMalloc(&dout, n * 4);
  cudaMemcpy(dv, v, 16, cudaMemcpyHostToDevice);
  cudaMemcpy(da, a, n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, n * 4, cudaMemcpyHostToDevice);
  cudaMemset(dout, 0, n * 4);
  patterns<<<1, 1>>>(dv, dr);
  float r[4];
  cudaMemcpy(r, dr, 8, cudaMemcpyDeviceToHost);
  dot<<<1, 1>>>(da, db, n, dr + 2);
  cudaMemcpy(r + 2, dr + 2, 4, cudaMemcpyDeviceToHost);
  const float c0 = 0.2f, c1 = 0.6f, c2 = 0.2f;
  stencil<<<(n + 255) / 256, 256>>>(da, dout, n, c0, c1, c2);
  cudaMemcpy(o, dout, n * 4, cudaMemcpyDeviceToHost);
  // References: the host's own rounding (each operation rounded), and the
  // GPU's (nvcc -fmad=true's PTX: fma where it fuses, in its order).
  volatile float hp = v[0] * v[1];
  float host0 = hp + v[2];
  float gpu0 = fmaf(v[0], v[1], v[2]);
  volatile float hp1 = v[0] * v[1], hq1 = v[2] * v[3];
  float host1 = hp1 + hq1;
  float gpu1 = fmaf(v[2], v[3], hp1);
  float hostdot = 0.0f, gpudot = 0.0f;
  for (int q = 0; q < n; ++q) {
    volatile float p = a[q] * b[q];
    hostdot = hostdot + p;
    gpudot = fmaf(a[q], b[q], gpudot);
  }
  int host_mismatch = 0, gpu_mismatch = 0, host_max = 0, gpu_max = 0;
  for (int q = 1; q < n - 1; ++q) {
    volatile float p0 = c0 * a[q - 1], p1 = c1 * a[q], p2 = c2 * a[q + 1];
    float h = (p0 + p1) + p2;
    volatile float m1 = c1 * a[q];
    float g = fmaf(c2, a[q + 1], fmaf(c0, a[q - 1], m1));
    int uh = ulps(o[q], h), ug = ulps(o[q], g);
    host_mismatch += uh != 0; gpu_mismatch += ug != 0;
    if (uh > host_max) host_max = uh;
    if (ug > gpu_max) gpu_max = ug;
  }
  printf("a*b+c: %s (host %s, gpu %s)\n", r[0] == host0 ? "host" : r[0] == gpu0 ? "gpu" : "neither", host0 == 0 ? "0" : "2^-24", gpu0 == 0 ? "0" : "2^-24");
  printf("a*b+c*d: %s (host %g, gpu %g, got %g)\n", r[1] == host1 ? (r[1] == gpu1 ? "both" : "host") : r[1] == gpu1 ? "gpu" : "neither", host1, gpu1, r[1]);
  printf("dot %d: ulps from host %d, from gpu %d\n", n, ulps(r[2], hostdot), ulps(r[2], gpudot));
  printf("stencil %d: differ from host %d (max %d ulp), from gpu %d (max %d ulp)\n", n - 2, host_mismatch, host_max, gpu_mismatch, gpu_max);
  return 0;
}
