// Built with -I TOOLKIT/include/cccl, as a Makefile written for CUDA 13
// names CCCL (tests/driver_toolkit_cccl_folder.sh): Thrust's version
// header and libcu++'s array come from that folder, and a kernel uses the
// array.
#include <cstdio>
#include <thrust/version.h>
#include <cuda/std/array>

__global__ void sum_array(int *out) {
  cuda::std::array<int, 4> a = {1, 2, 3, 4};
  int s = 0;
  for (int v : a)
    s += v;
  out[threadIdx.x] = s + (int)threadIdx.x;
}

int main() {
  int *d = nullptr;
  int h[8] = {0};
  if (cudaMalloc(&d, sizeof h) != cudaSuccess)
    return 1;
  sum_array<<<1, 8>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  int ok = THRUST_MAJOR_VERSION >= 2;
  for (int i = 0; i < 8; ++i)
    ok = ok && h[i] == 10 + i;
  printf("thrust %d.%d, array sums %d..%d\n%s\n", THRUST_MAJOR_VERSION,
         THRUST_MINOR_VERSION, h[0], h[7], ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
