/*
 * header_forms.cu: CUDA syntax found in a header (header_forms.cuh):
 * launches in a header's function, kernel templates launched with deduced
 * arguments, extern __shared__ in a function template and in a member of a
 * class template (issue 13, item 2).
 */
#include "check.cuh"
#include "header_forms.cuh"

int main() {
  const int n = 100;
  float *f = nullptr;
  cudaMallocManaged(&f, n * sizeof(float));
  header_launch_fill(f, 2.5f, n);
  cudaDeviceSynchronize();
  for (int i = 0; i < n; ++i)
    CHECK(f[i] == 2.5f);

  int *d = nullptr;
  cudaMallocManaged(&d, 32 * sizeof(int));
  for (int i = 0; i < 32; ++i)
    d[i] = i;
  header_reverse<<<1, 32, 32 * sizeof(int)>>>(d, 32);
  cudaDeviceSynchronize();
  for (int i = 0; i < 32; ++i)
    CHECK(d[i] == 31 - i);

  int *in = nullptr, *out = nullptr;
  cudaMallocManaged(&in, 8 * sizeof(int));
  cudaMallocManaged(&out, sizeof(int));
  for (int i = 0; i < 8; ++i)
    in[i] = i + 1;
  header_sum<<<1, 8, 8 * sizeof(int)>>>(in, out);
  cudaDeviceSynchronize();
  CHECK(*out == 36);
  CHECK(cudaGetLastError() == cudaSuccess);
  cudaFree(f);
  cudaFree(d);
  cudaFree(in);
  cudaFree(out);
  return finish();
}
