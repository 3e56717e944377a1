// bio_common.cuh: error checks, timing, host RNG and sequence packing shared
// by every program of the project.
#ifndef TRIALBIO_BIO_COMMON_CUH
#define TRIALBIO_BIO_COMMON_CUH
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <random>
#include <string>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorName(err_),  \
              __FILE__, __LINE__, cudaGetErrorString(err_));                   \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  } while (0)

#define CUDA_CHECK_LAST() CUDA_CHECK(cudaGetLastError())

namespace bio {

static const char kDna[4] = {'A', 'C', 'G', 'T'};

__host__ __device__ inline int dna_code(char c) {
  switch (c) {
    case 'A': case 'a': return 0;
    case 'C': case 'c': return 1;
    case 'G': case 'g': return 2;
    case 'T': case 't': return 3;
    default: return -1;
  }
}

// Packs residues of BITS bits each into 32-bit words, little end first.
template <int BITS>
struct Packer {
  static constexpr int kPerWord = 32 / BITS;
  static constexpr uint32_t kMask = (1u << BITS) - 1u;
  static int words(int n) { return (n + kPerWord - 1) / kPerWord; }
  static void pack(const uint8_t* codes, int n, uint32_t* out) {
    for (int w = 0; w < words(n); ++w) out[w] = 0;
    for (int i = 0; i < n; ++i)
      out[i / kPerWord] |= (uint32_t(codes[i]) & kMask) << (BITS * (i % kPerWord));
  }
  __host__ __device__ static inline uint32_t get(const uint32_t* p, int i) {
    return (p[i / kPerWord] >> (BITS * (i % kPerWord))) & kMask;
  }
};

struct GpuTimer {
  cudaEvent_t start_, stop_;
  GpuTimer() {
    CUDA_CHECK(cudaEventCreate(&start_));
    CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~GpuTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  void start(cudaStream_t s = 0) { CUDA_CHECK(cudaEventRecord(start_, s)); }
  float stop(cudaStream_t s = 0) {
    float ms = 0.f;
    CUDA_CHECK(cudaEventRecord(stop_, s));
    CUDA_CHECK(cudaEventSynchronize(stop_));
    CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }
};

inline std::string random_dna(std::mt19937& rng, int n) {
  std::uniform_int_distribution<int> d(0, 3);
  std::string s(n, 'A');
  for (auto& c : s) c = kDna[d(rng)];
  return s;
}

inline int report(const char* name, bool ok) {
  printf("%s: %s\n%s\n", name, ok ? "passed" : "failed", ok ? "PASS" : "FAIL");
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}

}  // namespace bio

#endif  // TRIALBIO_BIO_COMMON_CUH
