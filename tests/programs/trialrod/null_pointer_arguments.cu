/* Reduced from a k-means benchmark (academic suite style) whose host code
 * passes 0 for pointer parameters it does not use:
 *   kmeansPoint<<<grid, threads>>>(features, ..., clusters_d, 0, 0);
 * A null pointer constant (0, NULL, 0L) converts to the pointer parameter
 * as in any call; cuemu's forwarded launch once took it as an int and did
 * not compile ("no matching function for call to std::tuple<...>"). */
#include <cstdio>
#include <cstddef>

struct Params {
  int scale;
  float bias;
};

__global__ void assign(const float *in, float *out, int *unused_counts,
                       float *unused_centres, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * 2.0f + (unused_counts == 0 ? 1.0f : 0.0f) +
             (unused_centres == NULL ? 1.0f : 0.0f);
}

__global__ void with_struct(Params p, float *out, const int *mask) {
  int i = threadIdx.x;
  out[i] = p.scale * i + p.bias + (mask ? 100.0f : 0.0f);
}

template <typename T>
__global__ void fill(T *out, const T *from, T v) {
  out[threadIdx.x] = from ? from[threadIdx.x] : v;
}

static int failures = 0;
static void expect(const char *what, float got, float want) {
  if (got != want) {
    printf("%s: %g, expected %g\n", what, got, want);
    failures++;
  }
}

int main() {
  const int n = 64;
  float h[n], *d_in, *d_out;
  for (int i = 0; i < n; i++)
    h[i] = (float)i;
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMalloc(&d_out, n * sizeof(float));
  cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice);

  /* 0 and NULL for pointer parameters */
  assign<<<2, 32>>>(d_in, d_out, 0, NULL, n);
  cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost);
  expect("assign(0, NULL)[5]", h[5], 12.0f);
  expect("assign(0, NULL)[63]", h[63], 128.0f);

  /* 0L and nullptr */
  assign<<<2, 32>>>(d_in, d_out, 0L, nullptr, n);
  cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost);
  expect("assign(0L, nullptr)[7]", h[7], 16.0f);

  /* beside a struct passed by value */
  Params p = {3, 0.5f};
  with_struct<<<1, 32>>>(p, d_out, 0);
  cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost);
  expect("with_struct(0)[4]", h[4], 12.5f);

  /* a kernel template with its argument given */
  fill<float><<<1, 32>>>(d_out, 0, 7.0f);
  cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost);
  expect("fill<float>(0)[9]", h[9], 7.0f);

  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {
    printf("error: %s\n", cudaGetErrorString(e));
    failures++;
  }
  cudaFree(d_in);
  cudaFree(d_out);
  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures != 0;
}
