// CUDA 13 deprecates double4 (and long4, ulong4, longlong4, ulonglong4):
// a use warns, and g++'s note names where the type is declared. The note
// must show a line of the header, not a macro expansion thousands of
// columns wide, and each use warns once, a kernel's parameter by value
// too (tests/driver_warnings.sh).
#include <cstdio>

__global__ void scale4(double4 *v, double s) {
  double4 a = v[threadIdx.x];
  v[threadIdx.x] = make_double4(a.x * s, a.y * s, a.z * s, a.w * s);
}

__global__ void shift4(double4 *v, double4 d) {
  v[threadIdx.x].w += d.w;
}

int main() {
  double4 *v;
  cudaMallocManaged(&v, 32 * sizeof *v);
  for (int i = 0; i < 32; ++i)
    v[i] = make_double4(i, i, i, i);
  scale4<<<1, 32>>>(v, 2.0);
  shift4<<<1, 32>>>(v, make_double4(0, 0, 0, 1.0));
  cudaDeviceSynchronize();
  bool ok = v[31].w == 63.0;
  cudaFree(v);
  printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
