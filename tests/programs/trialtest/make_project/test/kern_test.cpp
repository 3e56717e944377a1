// kern_test.cpp: GoogleTest tests of libkern.a with GoogleMock matchers.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <algorithm>
#include <random>
#include <vector>
#include "kern.h"

using ::testing::ElementsAre;
using ::testing::FloatEq;

TEST(Saxpy, Matchers) {
  std::vector<float> x{1, 2, 3}, y{1, 1, 1};
  DevPtr<float> dx(3), dy(3);
  cudaMemcpy(dx, x.data(), 12, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y.data(), 12, cudaMemcpyHostToDevice);
  ASSERT_EQ(kern::saxpy(3, 2.0f, dx, dy), cudaSuccess);
  cudaMemcpy(y.data(), dy, 12, cudaMemcpyDeviceToHost);
  EXPECT_THAT(y, ElementsAre(FloatEq(3), FloatEq(5), FloatEq(7)));
}

class SortTest : public ::testing::TestWithParam<int> {};

TEST_P(SortTest, MatchesStdSort) {
  const int n = GetParam();
  std::mt19937 rng(n);
  std::vector<int> h(n);
  for (auto& v : h) v = int(rng() % 1000) - 500;
  DevPtr<int> d(n);
  cudaMemcpy(d, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  ASSERT_EQ(kern::sort_small(d, n), cudaSuccess);
  std::vector<int> got(n);
  cudaMemcpy(got.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost);
  std::sort(h.begin(), h.end());
  EXPECT_THAT(got, ::testing::ContainerEq(h));
}

INSTANTIATE_TEST_SUITE_P(Sizes, SortTest, ::testing::Range(1, 200, 37));

TEST(SortLimits, TooLargeIsRejected) {
  EXPECT_EQ(kern::sort_small(nullptr, 5000), cudaErrorInvalidValue);
}
