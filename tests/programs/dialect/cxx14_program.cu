// cxx14_program.cu: a program written for -std=c++14, which does not
// compile as C++17 (dynamic exception specifications, legacy_buffer.cuh):
// both of nvcc's passes see __cplusplus 201402L, a library's test for
// C++17 picks its fallback, and launches of every form (overloaded
// kernels, a default argument, a kernel template with deduced and explicit
// arguments, a kernel named like a libc function, generic lambdas and
// variable templates of C++14 around them) run as nvcc would run them.
// CUEMU_OPTIONS: -std=c++14
// NVCC_OPTIONS: -std=c++14
#include <cstdlib>
#include <memory>
#include <vector>

#include "../check.cuh"
#include "legacy_buffer.cuh"

// The dialect each pass compiled the code in.
__global__ void dialect(long *out) {
  out[0] = __cplusplus;
#ifdef __CUDA_ARCH__
  out[1] = __CUDA_ARCH__;
#endif
}

// A kernel named like the C library's rand().
__global__ void rand(unsigned *out, unsigned seed) {
  unsigned x = seed + threadIdx.x;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  out[threadIdx.x] = x;
}

// C++14: a variable template and a relaxed constexpr function.
template <typename T> constexpr T tolerance = T(0);
constexpr int triangle(int n) {
  int sum = 0;
  for (int i = 1; i <= n; ++i)
    sum += i;
  return sum;
}

static unsigned xorshift(unsigned x) {
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return x;
}

template <typename T> static std::vector<T> copy_back(const device_buffer<T> &b) {
  std::vector<T> h(b.size());
  CHECK(cudaMemcpy(h.data(), b.get(), b.size() * sizeof(T),
                   cudaMemcpyDeviceToHost) == cudaSuccess);
  return h;
}

int main() {
  const int n = 300;
  static_assert(triangle(4) == 10, "relaxed constexpr");
  CHECK(__cplusplus == 201402L);
  CHECK(library_dialect == 14);
  maybe<int> none, some(0b1010'1010);
  CHECK(!none.has_value() && some.value() == 170);

  device_buffer<long> passes(2);
  dialect<<<1, 1>>>(passes.get());
  std::vector<long> seen = copy_back(passes);
  CHECK(seen[0] == 201402L);
  CHECK(seen[1] == 900);

  // Overloads and a default argument.
  auto ints = std::make_unique<device_buffer<int>>(n);
  device_buffer<float> floats(n);
  fill<<<(n + 127) / 128, 128>>>(ints->get(), n);
  fill<<<(n + 127) / 128, 128>>>(floats.get(), n, 2.5f);
  std::vector<int> hi = copy_back(*ints);
  std::vector<float> hf = copy_back(floats);
  for (int i = 0; i < n; ++i)
    CHECK(hi[i] == 7 && hf[i] - 2.5f == tolerance<float>);

  // A kernel template: explicit arguments, then the generic lambda's.
  scale_by<int, 3><<<(n + 127) / 128, 128>>>(ints->get(), n);
  auto launch_scaled = [&](auto *data) {
    scale_by<typename std::remove_pointer<decltype(data)>::type, 4>
        <<<(n + 127) / 128, 128>>>(data, n);
  };
  launch_scaled(floats.get());
  hi = copy_back(*ints);
  hf = copy_back(floats);
  for (int i = 0; i < n; ++i)
    CHECK(hi[i] == 21 && hf[i] == 10.0f);
  cudaFuncAttributes attr;
  CHECK(cudaFuncGetAttributes(&attr, scale_by<int, 3>) == cudaSuccess);
  CHECK(attr.maxThreadsPerBlock == 128);

  // The kernel named rand, and the C library's rand, side by side.
  device_buffer<unsigned> r(32);
  rand<<<1, 32>>>(r.get(), 99u);
  std::vector<unsigned> hr = copy_back(r);
  for (unsigned t = 0; t < 32; ++t)
    CHECK(hr[t] == xorshift(99u + t));
  std::srand(1);
  int libc = std::rand();
  CHECK(libc >= 0);

  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  return finish();
}
