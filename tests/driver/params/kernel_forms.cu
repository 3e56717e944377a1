// Forms of a kernel's declaration that nvcc refuses, one per -DCASE=N,
// each at the line that tests/driver_params.sh expects (a kernel that is
// constexpr or consteval, has an exception specification or a deduced
// return type, takes an rvalue reference or a std::initializer_list, or
// declares a template parameter pack before its last template parameter);
// without CASE, the near misses that nvcc accepts build and run: a
// trailing return type, && and initializer lists inside a parameter's
// default argument and template arguments, a `noexcept` host function
// beside the kernel, a forwarding reference in a __device__ function, and
// a variadic kernel template whose pack is last.
#include <cstdio>
#include <initializer_list>
#include <type_traits>
#include <utility>

#if CASE == 1
constexpr __global__ void fill_constexpr(int *out) { out[0] = 1; }
#elif CASE == 2
__global__ void fill_noexcept(int *out) noexcept { out[0] = 2; }
#elif CASE == 3
__global__ auto fill_deduced(int *out) { out[0] = 3; }
#elif CASE == 4
__global__ void fill_rvalue(int &&value) { (void)value; }
#elif CASE == 5
__global__ void fill_list(std::initializer_list<int> values) { (void)values; }
#elif CASE == 6
#if __cplusplus >= 202002L
consteval __global__ void fill_consteval() {}
#else
#error "case 6 needs -std=c++20"
#endif
#elif CASE == 7
template <typename... Ts, typename T> __global__ void fill_pack_first(T *out, Ts... ts) { out[0] = sizeof...(Ts); }
#endif

template <class T> __device__ T forward_twice(T &&x) { return std::forward<T>(x) * 2; }

__global__ auto fill_trailing(int *out) -> void { out[0] = forward_twice(4); }

template <bool B, std::enable_if_t<B && true, int> = 0>
__global__ void fill_flag(int *out, bool both = true && false) {
  out[1] = both ? 1 : 5;
}

template <typename T, typename... Ts> __global__ void fill_count(T *out, Ts... ts) {
  out[2] = static_cast<T>(sizeof...(Ts));
}

int host_sum(std::initializer_list<int> values) noexcept {
  int s = 0;
  for (int v : values) s += v;
  return s;
}

int main() {
  int *out = nullptr;
  cudaMallocManaged(&out, 3 * sizeof(int));
  fill_trailing<<<1, 1>>>(out);
  fill_flag<true><<<1, 1>>>(out);
  fill_count<<<1, 1>>>(out, 1.0f, 'c', 2u);
  cudaDeviceSynchronize();
  bool ok = out[0] == 8 && out[1] == 5 && out[2] == 3 && host_sum({1, 2, 3}) == 6;
  puts(ok ? "PASS" : "FAIL");
  cudaFree(out);
  return ok ? 0 : 1;
}
