// typed_test.cu: typed and value-parameterized GoogleTest tests whose
// bodies instantiate and launch the header-only library's kernel templates.
// NVCC_OPTIONS: -I../include --extended-lambda --expt-relaxed-constexpr
#include <gtest/gtest.h>
#include <cmath>
#include <numeric>
#include <sstream>
#include <vector>
#include "kern/reduce.cuh"
#include "kern/transform.cuh"

template <typename T>
class ReduceTyped : public ::testing::Test {
 protected:
  std::vector<T> host;
  void SetUp() override {
    host.resize(3000);
    for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<T>(i % 7);
  }
};

using ReduceTypes = ::testing::Types<int, unsigned long long, float, double>;
TYPED_TEST_SUITE(ReduceTyped, ReduceTypes);

TYPED_TEST(ReduceTyped, SumMatchesHost) {
  using T = TypeParam;
  kern::DeviceBuffer<T> d(this->host.size());
  d.upload(this->host.data());
  T got = kern::reduce(d.ptr, static_cast<int>(d.n), kern::Plus<T>{});
  EXPECT_EQ(got, std::accumulate(this->host.begin(), this->host.end(), T(0)));
}

TYPED_TEST(ReduceTyped, MaxMatchesHost) {
  using T = TypeParam;
  this->host[1234] = T(100);
  kern::DeviceBuffer<T> d(this->host.size());
  d.upload(this->host.data());
  EXPECT_EQ((kern::reduce<T, 64>(d.ptr, static_cast<int>(d.n), kern::Max<T>{})), T(100));
}

struct ReduceCase {
  int n;
  int block;
};
std::ostream& operator<<(std::ostream& os, const ReduceCase& c) {
  return os << "n" << c.n << "_b" << c.block;
}

class ReduceSizes : public ::testing::TestWithParam<ReduceCase> {};

TEST_P(ReduceSizes, SumOfIota) {
  const ReduceCase c = GetParam();
  std::vector<int> h(c.n);
  std::iota(h.begin(), h.end(), 1);
  kern::DeviceBuffer<int> d(c.n);
  d.upload(h.data());
  int got = c.block == 32 ? kern::reduce<int, 32>(d.ptr, c.n, kern::Plus<int>{})
                          : kern::reduce<int, 256>(d.ptr, c.n, kern::Plus<int>{});
  EXPECT_EQ(got, c.n * (c.n + 1) / 2);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

INSTANTIATE_TEST_SUITE_P(Sizes, ReduceSizes,
                         ::testing::Values(ReduceCase{1, 32}, ReduceCase{31, 32},
                                           ReduceCase{4097, 256}),
                         [](const ::testing::TestParamInfo<ReduceCase>& info) {
                           std::ostringstream os;
                           os << info.param;
                           return os.str();
                         });

__global__ void warp_sum_kernel(const float* in, float* out) {
  float v = kern::warp_reduce_sum(in[threadIdx.x]);
  if (threadIdx.x % 32 == 0) out[threadIdx.x / 32] = v;
}

TEST(WarpReduce, ShuffleDown) {
  std::vector<float> h(64);
  for (int i = 0; i < 64; ++i) h[i] = float(i);
  kern::DeviceBuffer<float> in(64), out(2);
  in.upload(h.data());
  warp_sum_kernel<<<1, 64>>>(in.ptr, out.ptr);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  float r[2];
  out.download(r);
  EXPECT_FLOAT_EQ(r[0], 496.0f);
  EXPECT_FLOAT_EQ(r[1], 1520.0f);
}

struct Negate {
  __host__ __device__ int operator()(int x) const { return -x; }
};
struct Halve {
  __host__ __device__ double operator()(int x) const { return x / 2.0; }
};

template <typename F>
class TransformTyped : public ::testing::Test {};
using Functors = ::testing::Types<Negate, Halve>;
TYPED_TEST_SUITE(TransformTyped, Functors);

TYPED_TEST(TransformTyped, AppliesFunctor) {
  using F = TypeParam;
  using Out = decltype(std::declval<F>()(0));
  const int n = 77;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = i * 3;
  kern::DeviceBuffer<int> in(n);
  kern::DeviceBuffer<Out> out(n);
  in.upload(h.data());
  kern::transform<<<(n + 31) / 32, 32>>>(in.ptr, out.ptr, n, F{});
  std::vector<Out> r(n);
  out.download(r.data());
  for (int i = 0; i < n; ++i) EXPECT_EQ(r[i], F{}(h[i]));
}

// nvcc refuses an extended lambda inside TestBody (a private member), so
// the launch with a lambda is in a free function, as projects write it.
static void sqrt_bias(const float* in, float* out, int n, float bias) {
  kern::transform<<<4, 32>>>(in, out, n,
                             [=] __device__(float x) { return std::sqrt(x) + bias; });
}

TEST(Transform, ExtendedLambda) {
  const int n = 100;
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i) h[i] = 0.25f * i;
  kern::DeviceBuffer<float> in(n), out(n);
  in.upload(h.data());
  sqrt_bias(in.ptr, out.ptr, n, 1.5f);
  std::vector<float> r(n);
  out.download(r.data());
  for (int i = 0; i < n; ++i) EXPECT_NEAR(r[i], std::sqrt(h[i]) + 1.5f, 1e-5f);
}
