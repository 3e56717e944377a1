// CUDA's min and max overloads and umin, llmin, ullmin, umax, llmax and
// ullmax are __host__ __device__ (crt/math_functions.hpp), so the host code
// of a .cu file calls them, as Learn-CUDA-Programming's reductions size their
// grid: `int n_blocks = min(num_blocks_per_sm * num_sms, (size + n_threads -
// 1) / n_threads);`. cuemu's host pass declared them device-only, and the
// host function's call was refused ("calling a __device__ function from a
// __host__ function is not allowed"). Host and device results of the same
// calls must agree, and a signed and an unsigned operand compare as unsigned
// in both.
#include <cstdio>
#include "../check.cuh"

struct Bounds {
  int lo, hi;
  unsigned int ulo;
  long long int llhi;
  float flo;
  double dhi;
};

// Every call of the overload set; the same expressions run on both sides.
__host__ __device__ Bounds bounds(int a, int b, unsigned int u, long long int l, float f, double d) {
  Bounds r;
  r.lo = min(a, b);
  r.hi = max(a, b);
  r.ulo = min(a, u);  // -1 compares as 0xffffffff
  r.llhi = max(l, static_cast<long long int>(b)) + llmax(l, 2) + llmin(l, 2);
  r.flo = min(f, 2.5f);
  r.dhi = max(d, f);
  return r;
}

__global__ void bounds_kernel(Bounds *out, const int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = bounds(a[i], n - i, 7u, 10LL * i, 0.5f * i, -1.0 * i);
}

// A grid size chosen by host code with min, as public programs do.
static int grid_for(int n, int threads, int cap) { return min(cap, (n + threads - 1) / threads); }

int main() {
  const int n = 40;
  CHECK(grid_for(n, 16, 2) == 2);
  CHECK(grid_for(n, 16, 100) == 3);
  CHECK(umin(3u, 4u) == 3u && umax(3u, 4u) == 4u);
  CHECK(ullmin(5ull, 6ull) == 5ull && ullmax(5ull, 6ull) == 6ull);
  CHECK(min(-1, 1u) == 1u);       // signed against unsigned: as unsigned
  CHECK(max(-1L, 1UL) == static_cast<unsigned long>(-1L));
  CHECK(min(2.0f, 1.0) == 1.0 && max(1.5, 0.5f) == 1.5);

  int h_a[n];
  for (int i = 0; i < n; ++i) h_a[i] = (i % 5) - 2;
  int *d_a;
  Bounds *d_out;
  cudaMalloc(&d_a, sizeof h_a);
  cudaMalloc(&d_out, n * sizeof(Bounds));
  cudaMemcpy(d_a, h_a, sizeof h_a, cudaMemcpyHostToDevice);
  bounds_kernel<<<grid_for(n, 16, 8), 16>>>(d_out, d_a, n);
  Bounds h_out[n];
  cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) {
    Bounds want = bounds(h_a[i], n - i, 7u, 10LL * i, 0.5f * i, -1.0 * i);
    // Worked out independently of the overloads, for one element.
    if (i == 3) {
      CHECK(want.lo == 1 && want.hi == 37 && want.ulo == 1u);
      CHECK(want.llhi == 37 + 30 + 2 && want.flo == 1.5f && want.dhi == 1.5);
    }
    if (i == 0) CHECK(want.ulo == 7u);  // -2 as unsigned is above 7
    CHECK(h_out[i].lo == want.lo && h_out[i].hi == want.hi && h_out[i].ulo == want.ulo);
    CHECK(h_out[i].llhi == want.llhi && h_out[i].flo == want.flo && h_out[i].dhi == want.dhi);
  }
  cudaFree(d_a);
  cudaFree(d_out);
  return finish();
}
