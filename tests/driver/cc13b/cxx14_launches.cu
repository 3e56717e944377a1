// cxx14_launches.cu: launches of every form that the translation names by
// a cast of the kernel's address, for -std=c++14 with clang++ as the host
// compiler (tests/driver_dialect.sh), which takes no cast as a template
// argument in C++14: a kernel template with deduced arguments, one with
// its first argument explicit and the rest deduced, overloaded kernels of
// one arity, a kernel named like a libc function, and a kernel template
// with a static __shared__ array. Prints PASS when each ran.
#include <cstdio>
#include <cstdlib>

template <typename T> __global__ void scale(T *p, T f) {
  p[threadIdx.x] *= f;
}

template <int Add, typename T> __global__ void add_then(T *p, T f) {
  p[threadIdx.x] = (p[threadIdx.x] + Add) * f;
}

__global__ void bump(float *p) { p[threadIdx.x] += 1.0f; }
__global__ void bump(int *p) { p[threadIdx.x] += 2; }

__global__ void rand(unsigned *out, unsigned seed) {
  out[threadIdx.x] = seed * 1103515245u + 12345u + threadIdx.x;
}

template <int N> __global__ void reverse(int *p) {
  __shared__ int tile[N];
  tile[threadIdx.x] = p[threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = tile[N - 1 - threadIdx.x];
}

int main() {
  float *f = nullptr;
  int *i = nullptr;
  unsigned *u = nullptr;
  if (cudaMallocManaged(&f, 4 * sizeof *f) != cudaSuccess ||
      cudaMallocManaged(&i, 4 * sizeof *i) != cudaSuccess ||
      cudaMallocManaged(&u, 4 * sizeof *u) != cudaSuccess)
    return 1;
  for (int k = 0; k < 4; ++k) {
    f[k] = static_cast<float>(k);
    i[k] = k;
  }
  scale<<<1, 4>>>(f, 2.0f);       // 0 2 4 6
  add_then<1><<<1, 4>>>(f, 3.0f); // 3 9 15 21
  bump<<<1, 4>>>(f);              // 4 10 16 22
  bump<<<1, 4>>>(i);              // 2 3 4 5
  reverse<4><<<1, 4>>>(i);        // 5 4 3 2
  rand<<<1, 4>>>(u, 7u);
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 1;
  int bad = 0;
  const float want_f[4] = {4.0f, 10.0f, 16.0f, 22.0f};
  const int want_i[4] = {5, 4, 3, 2};
  for (int k = 0; k < 4; ++k) {
    bad += f[k] != want_f[k];
    bad += i[k] != want_i[k];
    bad += u[k] != 7u * 1103515245u + 12345u + static_cast<unsigned>(k);
  }
  printf("%g %g %g %g / %d %d %d %d\n", f[0], f[1], f[2], f[3], i[0], i[1],
         i[2], i[3]);
  if (bad == 0)
    printf("PASS\n");
  return bad;
}
