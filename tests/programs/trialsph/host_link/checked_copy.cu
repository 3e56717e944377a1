/* checked_copy.cu: a checked object linked by the host C++ compiler
 * alone, as CMake links a target whose linker language is C++: the
 * kernel's memcpy and memset calls, which the instrumentation does not see
 * into, still tell the checkers what they write, so that a kernel reading
 * the copy is clean for initcheck. */
#include <cstdio>
#include <cstring>

struct Particle {
  float pos[4];
  float vel[4];
  int id;
};

__global__ void gather(Particle *out, const Particle *in, const int *order, int n, size_t bytes) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    memcpy(&out[i], &in[order[i]], bytes);   /* a library call */
    memset(out[i].vel, 0, sizeof out[i].vel);
  }
}

__global__ void sum_ids(const Particle *p, int n, int *total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(total, p[i].id + (int)p[i].vel[0] + (int)p[i].pos[0]);
}

int main() {
  const int n = 200;
  Particle h[n];
  int order[n];
  for (int i = 0; i < n; ++i) {
    memset(&h[i], 0, sizeof h[i]);
    h[i].id = i;
    h[i].pos[0] = 1.0f;
    h[i].vel[0] = 5.0f;
    order[i] = n - 1 - i;
  }
  Particle *d_in, *d_out;
  int *d_order, *d_total, total = 0;
  cudaMalloc(&d_in, sizeof h);
  cudaMalloc(&d_out, sizeof h);
  cudaMalloc(&d_order, sizeof order);
  cudaMalloc(&d_total, sizeof(int));
  cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemcpy(d_order, order, sizeof order, cudaMemcpyHostToDevice);
  cudaMemset(d_total, 0, sizeof(int));
  gather<<<(n + 63) / 64, 64>>>(d_out, d_in, d_order, n, sizeof(Particle));
  sum_ids<<<(n + 63) / 64, 64>>>(d_out, n, d_total);
  cudaError_t err = cudaMemcpy(&total, d_total, sizeof(int), cudaMemcpyDeviceToHost);
  int want = n * (n - 1) / 2 + n;
  printf("%s: total %d (want %d)\n", cudaGetErrorString(err), total, want);
  printf("%s\n", err == cudaSuccess && total == want ? "PASS" : "FAIL");
  return !(err == cudaSuccess && total == want);
}
