// std_bare.cu: <cstdio>, <cstring>, <vector> and <algorithm> bring printf
// but not uint64_t with nvcc 13.0 (g++ 12): nvcc refuses line 9.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

__global__ void sum(const unsigned *in, unsigned long long *out, int n) {
  uint64_t s = 0;
  for (int i = 0; i < n; ++i)
    s += in[i];
  *out = s;
}

int main() {
  std::vector<unsigned> h(8, 3);
  unsigned *d;
  unsigned long long *r, got = 0;
  cudaMalloc(&d, 8 * sizeof(unsigned));
  cudaMalloc(&r, sizeof *r);
  cudaMemcpy(d, h.data(), 8 * sizeof(unsigned), cudaMemcpyHostToDevice);
  sum<<<1, 1>>>(d, r, 8);
  cudaMemcpy(&got, r, sizeof got, cudaMemcpyDeviceToHost);
  std::printf("%s\n", got == 24 ? "PASS" : "FAIL");
  return got != 24;
}
