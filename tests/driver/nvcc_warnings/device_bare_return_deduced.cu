// A lattice's accessors written for nvcc: device function templates, an
// overload set, a function of an array parameter and a class template's
// members whose return type is deduced (`auto`, `auto &`, `decltype(auto)`)
// end with a bare `return;` after a return with a value. nvcc takes each,
// with its warning #117-D (at the plain functions, and at each instance of
// a template that it names with its arguments); cuemu-nvcc refused them
// (g++: "return-statement with no value"). The results checked are those
// of the paths that return a value (tests/driver_nvcc_warnings.sh).
#include <cstdio>

__device__ float sites[4];

template <class T> __device__ auto &site(T i) {
  if (i >= 0) return sites[(int)i];
  return;
}

template <int N, class T> __device__ auto scaled(T i) {
  if (i >= 0) return sites[(int)i] * N;
  return;
}

template <class... Ts> __device__ auto first(int i, Ts... rest) {
  if (i >= 0) return sites[i] + sizeof...(rest);
  return;
}

__device__ auto weight(int i) {
  if (i >= 0) return sites[i];
  return;
}

__device__ auto weight(float f, int i) {
  if (i >= 0) return sites[i] * f;
  return;
}

template <class T> struct Lattice {
  T v[4];
  __device__ auto &at(int i) {
    if (i >= 0) return v[i];
    return;
  }
  __device__ auto at(int i) const {
    if (i >= 0) return v[i];
    return;
  }
  template <class U> __device__ decltype(auto) get(const U &i) {
    if (i >= 0) return (v[(int)i]);
    return;
  }
};

__device__ auto &slot(float cells[], int i) {
  if (i >= 0) return cells[i];
  return;
}

__global__ void gather(float *out) {
  Lattice<float> g{{1.0f, 2.0f, 3.0f, 4.0f}};
  const Lattice<float> &c = g;
  site(1) = 2.0f;
  site(2L) = 3.0f;
  out[0] = site(1) + scaled<2>(2) + first(1, 'a', 2.0) + weight(1) +
           weight(2.0f, 2);
  g.at(0) = 5.0f;
  slot(sites, 3) = 7.0f;
  out[1] = g.at(0) + c.at(1) + g.get(2) + slot(sites, 3) - 7.0f;
}

int main() {
  float *out = nullptr, h[2] = {0, 0};
  cudaMalloc(&out, sizeof h);
  gather<<<1, 1>>>(out);
  cudaError_t e = cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) {
    std::printf("launch failed: %s\n", cudaGetErrorName(e));
    return 1;
  }
  // 2 + 6 + 4 + 2 + 6, and 5 + 2 + 3.
  if (h[0] != 20.0f || h[1] != 10.0f) {
    std::printf("FAIL: %g %g\n", h[0], h[1]);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
