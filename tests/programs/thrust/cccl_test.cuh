/*
 * cccl_test.cuh: what the tests of CUB's device-wide algorithms and of
 * Thrust share: a device buffer, inputs from a fixed generator, a custom
 * struct with its operators, the sizes every algorithm is run at, and the
 * temp-storage protocol of CUB's device-wide calls, checked on the way.
 */
#ifndef CUEMU_TEST_CCCL_TEST_CUH
#define CUEMU_TEST_CCCL_TEST_CUH

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "../check.cuh"

/* Sizes: empty, one, not powers of two around CUB's tiles, and forty
 * thousand: several tiles of every algorithm, several blocks and passes of
 * the decoupled look-back (DeviceRadixSort's onesweep on sm_90 takes at
 * most 384 x 30 keys a tile, its single-tile path 256 x 19 4-byte keys,
 * which 4099 takes). 300007 before: the same paths, and 35 s more of
 * emulation in programs_thrust.sh. */
static const int test_sizes[] = {0, 1, 7, 255, 256, 1023, 4099, 40009};

/* Deterministic values: x_{i+1} = a x_i + c (mod 2^64), then its high bits. */
struct generator {
  std::uint64_t state;
  explicit generator(std::uint64_t seed) : state(seed * 0x9E3779B97F4A7C15ull + 1) {}
  std::uint32_t next() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::uint32_t>(state >> 33);
  }
  /* In [lo, hi]. */
  long long range(long long lo, long long hi) {
    return lo + static_cast<long long>(next() % static_cast<std::uint64_t>(hi - lo + 1));
  }
};

/* A custom struct of 16 bytes with a 64-bit member. */
struct item {
  long long weight;
  int key;
  float score;
};

inline __host__ __device__ bool operator==(const item &x, const item &y) {
  return x.weight == y.weight && x.key == y.key && x.score == y.score;
}

/* Component-wise: sum of weights, max of keys, min of scores (associative,
 * commutative and exact: the scores are small integers). */
struct item_combine {
  __host__ __device__ item operator()(const item &x, const item &y) const {
    return item{x.weight + y.weight, x.key > y.key ? x.key : y.key,
                x.score < y.score ? x.score : y.score};
  }
};

/* A strict weak order by key, then by weight descending. */
struct item_less {
  __host__ __device__ bool operator()(const item &x, const item &y) const {
    return x.key != y.key ? x.key < y.key : x.weight > y.weight;
  }
};

inline item make_item(generator &g) {
  return item{g.range(-(1ll << 40), 1ll << 40), static_cast<int>(g.range(-50, 50)),
              static_cast<float>(g.range(-1000, 1000))};
}

/* A device buffer of n elements (at least one byte is allocated). */
template <typename T> struct dbuf {
  T *ptr = nullptr;
  size_t n = 0;
  explicit dbuf(size_t count) : n(count) {
    CHECK(cudaMalloc(&ptr, (count ? count : 1) * sizeof(T)) == cudaSuccess);
  }
  explicit dbuf(const std::vector<T> &v) : dbuf(v.size()) { upload(v); }
  ~dbuf() { cudaFree(ptr); }
  dbuf(const dbuf &) = delete;
  dbuf &operator=(const dbuf &) = delete;
  void upload(const std::vector<T> &v) {
    CHECK(cudaMemcpy(ptr, v.data(), v.size() * sizeof(T),
                     cudaMemcpyHostToDevice) == cudaSuccess);
  }
  std::vector<T> get(size_t count) const {
    std::vector<T> v(count);
    CHECK(cudaMemcpy(v.data(), ptr, count * sizeof(T),
                     cudaMemcpyDeviceToHost) == cudaSuccess);
    return v;
  }
  std::vector<T> get() const { return get(n); }
  T at(size_t i) const { return get(i + 1)[i]; }
};

/* Runs a CUB device-wide call with the temp-storage protocol:
 * call(nullptr, bytes) must only set the size (the output, `guard` bytes
 * at `watch`, is left as it was), then the call runs with that much
 * storage on `stream`, which is synchronised. Returns the call's error. */
template <typename Call>
cudaError_t with_temp(Call call, cudaStream_t stream, const void *watch = nullptr,
                      size_t guard = 0) {
  size_t bytes = 0;
  std::vector<unsigned char> before(guard), after(guard);
  if (guard)
    cudaMemcpy(before.data(), watch, guard, cudaMemcpyDeviceToHost);
  cudaError_t e = call(static_cast<void *>(nullptr), bytes);
  if (e != cudaSuccess) {
    std::fprintf(stderr, "with_temp: asking the size: %s\n",
                 cudaGetErrorString(e));
    return e;
  }
  if (guard) {
    cudaMemcpy(after.data(), watch, guard, cudaMemcpyDeviceToHost);
    CHECK(std::memcmp(before.data(), after.data(), guard) == 0);
  }
  void *temp = nullptr;
  if (cudaMalloc(&temp, bytes ? bytes : 1) != cudaSuccess)
    return cudaErrorMemoryAllocation;
  e = call(temp, bytes);
  if (e == cudaSuccess)
    e = cudaStreamSynchronize(stream);
  cudaFree(temp);
  if (e != cudaSuccess)
    std::fprintf(stderr, "with_temp: %s\n", cudaGetErrorString(e));
  return e;
}

#endif
