// specfun_host.cu: host code of a .cu calls the C++17 special functions of
// <cmath> (std::betaf, std::cyl_bessel_jf, std::riemann_zetal) and the
// three-argument std::hypot, whose templates the shims' prelude does not
// instantiate in a module (cuemu_rtc_specfun_hide.h) but a program keeps,
// as with nvcc. Prints them and a kernel's result.
#include <cmath>
#include <cstdio>

__global__ void twice(float *x) { x[threadIdx.x] *= 2.0f; }

int main() {
  float *d = nullptr;
  if (cudaMallocManaged(&d, 4 * sizeof(float)) != cudaSuccess)
    return 1;
  for (int i = 0; i < 4; ++i)
    d[i] = static_cast<float>(i);
  twice<<<1, 4>>>(d);
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 1;
  std::printf("%.6f %.6f %.6Lf %.1f %.1f\n", std::betaf(2.0f, 3.0f),
              std::cyl_bessel_jf(1.0f, 2.0f), std::riemann_zetal(2.0L),
              std::hypot(3.0f, 4.0f, 12.0f), d[3]);
  cudaFree(d);
  return 0;
}
