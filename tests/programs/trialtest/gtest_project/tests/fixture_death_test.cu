// fixture_death_test.cu: a fixture that allocates device memory in SetUp
// and resets the device in TearDown; death tests (forked, and re-executed
// with the "threadsafe" style) on a device assert and on a kernel's fault,
// each reported by an aborting error check; kernels that call the
// separately compiled library's __device__ functions and variable.
// NVCC_OPTIONS: -rdc=true -I../lib
#include <gtest/gtest.h>
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "vec3.cuh"

#define CHECK_OR_ABORT(call)                                                  \
  do {                                                                        \
    cudaError_t e_ = (call);                                                  \
    if (e_ != cudaSuccess) {                                                  \
      std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorName(e_),  \
                   __FILE__, __LINE__);                                       \
      std::abort();                                                           \
    }                                                                         \
  } while (0)

__global__ void fill_kernel(int* out, int n, int capacity) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(n <= capacity && "fill beyond capacity");
  if (i < n) out[i] = i;
}

__global__ void read_kernel(const int* p, int* r) { *r = *p; }

__global__ void dot_kernel(const Vec3* a, const Vec3* b, float* out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = dot3(add(a[i], b[i]), b[i]) + g_gravity;
}

static void fill_checked(int* d, int n, int capacity) {
  fill_kernel<<<(n + 63) / 64, 64>>>(d, n, capacity);
  CHECK_OR_ABORT(cudaDeviceSynchronize());
}

// The launch is outside the death test's macro, whose arguments a launch's
// comma would split (with nvcc too).
static void read_checked(const int* p) {
  int* r;
  CHECK_OR_ABORT(cudaMalloc(&r, sizeof(int)));
  read_kernel<<<1, 1>>>(p, r);
  CHECK_OR_ABORT(cudaDeviceSynchronize());
}

class DeviceFixture : public ::testing::Test {
 protected:
  static constexpr int kCap = 256;
  int* d_buf = nullptr;
  cudaStream_t stream{};
  void SetUp() override {
    ASSERT_EQ(cudaMalloc(&d_buf, kCap * sizeof(int)), cudaSuccess);
    ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  }
  void TearDown() override {
    EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess);
    EXPECT_EQ(cudaFree(d_buf), cudaSuccess);
    EXPECT_EQ(cudaDeviceReset(), cudaSuccess);
  }
};

TEST_F(DeviceFixture, FillWithinCapacity) {
  fill_checked(d_buf, 100, kCap);
  std::vector<int> h(100);
  ASSERT_EQ(cudaMemcpy(h.data(), d_buf, 100 * sizeof(int), cudaMemcpyDeviceToHost),
            cudaSuccess);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(h[i], i);
}

TEST_F(DeviceFixture, SeparateDeviceCodeAfterReset) {
  Vec3 ha[2] = {{1, 0, 0}, {1, 2, 3}};
  Vec3 hb[2] = {{0, 1, 0}, {4, 5, 6}};
  Vec3 *da, *db;
  float* dout;
  ASSERT_EQ(cudaMalloc(&da, sizeof ha), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&db, sizeof hb), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&dout, 2 * sizeof(float)), cudaSuccess);
  cudaMemcpyAsync(da, ha, sizeof ha, cudaMemcpyHostToDevice, stream);
  cudaMemcpyAsync(db, hb, sizeof hb, cudaMemcpyHostToDevice, stream);
  dot_kernel<<<1, 32, 0, stream>>>(da, db, dout, 2);
  float r[2];
  cudaMemcpyAsync(r, dout, sizeof r, cudaMemcpyDeviceToHost, stream);
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  EXPECT_FLOAT_EQ(r[0], 1.0f - 9.81f);
  EXPECT_FLOAT_EQ(r[1], 5 * 4 + 7 * 5 + 9 * 6 - 9.81f);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dout);
}

using DeviceDeathTest = DeviceFixture;

TEST_F(DeviceDeathTest, DeviceAssertAborts) {
  EXPECT_DEATH(fill_checked(d_buf, 300, kCap), "cudaErrorAssert");
}

TEST_F(DeviceDeathTest, KernelFaultAborts) {
  ASSERT_DEATH(read_checked(nullptr), "cudaErrorIllegalAddress");
}

TEST_F(DeviceDeathTest, ExitCode) {
  EXPECT_EXIT(
      {
        fill_checked(d_buf, kCap, kCap);
        std::exit(3);
      },
      ::testing::ExitedWithCode(3), "");
}

TEST_F(DeviceDeathTest, ThreadsafeStyleReexecutes) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(fill_checked(d_buf, 1000, kCap), "CUDA error cudaErrorAssert");
  GTEST_FLAG_SET(death_test_style, "fast");
}

// The parent's device is still usable after its children died.
TEST_F(DeviceFixture, ParentHealthyAfterDeathTests) {
  fill_checked(d_buf, kCap, kCap);
  int last = -1;
  cudaMemcpy(&last, d_buf + kCap - 1, sizeof(int), cudaMemcpyDeviceToHost);
  EXPECT_EQ(last, kCap - 1);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}
