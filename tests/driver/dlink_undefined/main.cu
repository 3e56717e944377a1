// main.cu: a kernel that calls lib.cu's device function
// (tests/driver_dlink_undefined.sh).
#include <cstdio>

extern __device__ int scaled(int x);

__global__ void apply(int *out) { out[threadIdx.x] = scaled(int(threadIdx.x)); }

int main() {
  int *d = nullptr;
  if (cudaMalloc(&d, 32 * sizeof(int)) != cudaSuccess)
    return 1;
  apply<<<1, 32>>>(d);
  int h[32];
  if (cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess)
    return 1;
  int bad = 0;
  for (int i = 0; i < 32; ++i)
    bad += h[i] != 3 * i;
  std::printf("%s\n", bad ? "FAIL" : "PASS");
  return bad;
}
