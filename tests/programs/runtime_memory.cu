/*
 * runtime_memory.cu: the memory functions of the CUDA runtime API in a whole
 * program: cudaMalloc, cudaMallocManaged, cudaMemcpy in every direction,
 * cudaMemset and cudaFree, around a saxpy kernel. Prints PASS and exits 0
 * when all is well.
 */
#include <cuda_runtime.h>

#include "check.cuh"

__global__ void saxpy(int n, float a, const float *x, float *y) {
  const int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n)
    y[i] = a * x[i] + y[i];
}

__global__ void count_bytes(const unsigned char *p, int n, unsigned value,
                            unsigned *matches) {
  const int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n && p[i] == value)
    atomicAdd(matches, 1u);
}

int main() {
  const int n = 1000;
  static float hx[n], hy[n], out[n];
  for (int i = 0; i < n; ++i) {
    hx[i] = (float)i;
    hy[i] = 1.0f;
  }
  float *dx = nullptr, *dy = nullptr, *dz = nullptr;
  CHECK(cudaMalloc(&dx, n * sizeof(float)) == cudaSuccess);
  CHECK(cudaMalloc((void **)&dy, n * sizeof(float)) == cudaSuccess);
  CHECK(cudaMalloc(&dz, n * sizeof(float)) == cudaSuccess);
  CHECK(dx != nullptr && dy != nullptr && dz != nullptr);
  CHECK(cudaMemcpy(dx, hx, n * sizeof(float), cudaMemcpyHostToDevice) ==
        cudaSuccess);
  CHECK(cudaMemcpy(dy, hy, n * sizeof(float), cudaMemcpyHostToDevice) ==
        cudaSuccess);
  saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, dx, dy);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(dz, dy, n * sizeof(float), cudaMemcpyDeviceToDevice) ==
        cudaSuccess);
  CHECK(cudaMemcpy(out, dz, n * sizeof(float), cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += out[i] != 2.0f * (float)i + 1.0f;
  CHECK(bad == 0);
  /* cudaMemcpyDefault infers the direction. */
  CHECK(cudaMemcpy(out, dx, n * sizeof(float), cudaMemcpyDefault) ==
        cudaSuccess);
  CHECK(out[999] == 999.0f);

  /* cudaMemset sets bytes. */
  unsigned char *bytes = nullptr;
  unsigned *matches = nullptr;
  CHECK(cudaMalloc(&bytes, 4096) == cudaSuccess);
  CHECK(cudaMallocManaged(&matches, sizeof(unsigned)) == cudaSuccess);
  CHECK(cudaMemset(bytes, 0xab, 4096) == cudaSuccess);
  CHECK(cudaMemset(bytes + 100, 0x01, 50) == cudaSuccess);
  *matches = 0;
  count_bytes<<<16, 256>>>(bytes, 4096, 0xab, matches);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(*matches == 4096u - 50u);
  int words[4];
  CHECK(cudaMemset(dz, 0x01, sizeof words) == cudaSuccess);
  CHECK(cudaMemcpy(words, dz, sizeof words, cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  CHECK(words[0] == 0x01010101 && words[3] == 0x01010101);

  /* Managed memory is usable from the host and from kernels. */
  float *mx = nullptr, *my = nullptr;
  CHECK(cudaMallocManaged(&mx, n * sizeof(float)) == cudaSuccess);
  CHECK(cudaMallocManaged(&my, n * sizeof(float), cudaMemAttachGlobal) ==
        cudaSuccess);
  for (int i = 0; i < n; ++i) {
    mx[i] = 1.0f;
    my[i] = (float)i;
  }
  saxpy<<<4, 256>>>(n, -1.0f, mx, my);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  bad = 0;
  for (int i = 0; i < n; ++i)
    bad += my[i] != (float)i - 1.0f;
  CHECK(bad == 0);

  /* Error cases that are not sticky. */
  CHECK(cudaMemcpy(out, dx, 4, (cudaMemcpyKind)42) ==
        cudaErrorInvalidMemcpyDirection);
  CHECK(cudaGetLastError() == cudaErrorInvalidMemcpyDirection);
  CHECK(cudaGetLastError() == cudaSuccess);
  float *none = nullptr;
  CHECK(cudaMalloc(&none, 0) == cudaSuccess);
  CHECK(cudaFree(nullptr) == cudaSuccess);

  CHECK(cudaFree(dx) == cudaSuccess);
  CHECK(cudaFree(dy) == cudaSuccess);
  CHECK(cudaFree(dz) == cudaSuccess);
  CHECK(cudaFree(bytes) == cudaSuccess);
  CHECK(cudaFree(matches) == cudaSuccess);
  CHECK(cudaFree(mx) == cudaSuccess);
  CHECK(cudaFree(my) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  return finish();
}
