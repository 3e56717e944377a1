/*
 * host_heavy.cu: host code that the device pass need not compile (a host
 * class template instantiated for three sizes, a virtual host class), and
 * the device code that only host code names, which must stay: a kernel
 * template launched from a host template, one launched through its address
 * (cudaLaunchKernel), a __device__ variable template that only host code
 * copies to, and a __host__ __device__ function run on both sides. Prints
 * PASS when all is well (tests/driver_device_host_code.sh).
 */
#include <cstdio>
#include <string>
#include <vector>

template <class T> __device__ T bias;

__host__ __device__ int squared(int x) { return x * x; }

template <int N> __global__ void fill(int *out) {
  out[threadIdx.x] = squared(threadIdx.x) + N + bias<int>;
}

__global__ void twice(int *out) { out[threadIdx.x] *= 2; }

struct Report {
  virtual ~Report() {}
  virtual std::string line(int sum) const { return "sum " + std::to_string(sum); }
};

/* A host function of the unit's own (not inline: one copy per pass that
 * compiles it, where an inline function's copies are one COMDAT group). */
int summarise(const std::vector<int> &values) {
  int sum = 0;
  for (int v : values) sum += v;
  Report r;
  std::printf("%s\n", r.line(sum).c_str());
  return sum;
}

template <int N> class Tally {
public:
  int report() const {
    std::vector<int> host(32);
    int *out = nullptr;
    cudaMalloc(&out, 32 * sizeof(int));
    fill<N><<<1, 32>>>(out);
    void *args[] = {&out};
    cudaLaunchKernel((const void *)twice, dim3(1), dim3(32), args, 0, 0);
    cudaMemcpy(host.data(), out, 32 * sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(out);
    return summarise(host);
  }
};

int main() {
  const int b = 5;
  cudaMemcpyToSymbol(bias<int>, &b, sizeof b);
  int failures = 0;
  /* 2 * (sum of t*t for t < 32 + 32 * (N + 5)) */
  failures += Tally<1>().report() != 2 * (10416 + 32 * 6);
  failures += Tally<2>().report() != 2 * (10416 + 32 * 7);
  failures += Tally<3>().report() != 2 * (10416 + 32 * 8);
  failures += squared(7) != 49;
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures != 0;
}
