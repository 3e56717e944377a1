// common.cuh: error checking and small launch helpers shared by every codec.
#ifndef ZIPK_COMMON_CUH
#define ZIPK_COMMON_CUH
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                        \
  do {                                                                          \
    cudaError_t err__ = (call);                                                 \
    if (err__ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "CUDA error %s at %s:%d: %s\n",                      \
                   cudaGetErrorName(err__), __FILE__, __LINE__,                 \
                   cudaGetErrorString(err__));                                  \
      std::exit(EXIT_FAILURE);                                                  \
    }                                                                           \
  } while (0)

#define CUDA_CHECK_LAST() CUDA_CHECK(cudaGetLastError())

namespace zip {

constexpr int kWarpSize = 32;
constexpr unsigned kFullMask = 0xffffffffu;

template <typename T>
__host__ __device__ constexpr T div_up(T a, T b) { return (a + b - 1) / b; }

inline int report(const char *name, bool ok) {
  std::printf("%s: %s\n", name, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

// A device buffer that frees itself, the way small codec projects wrap cudaMalloc.
template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t n) { resize(n); }
  ~DeviceBuffer() { if (ptr_) cudaFree(ptr_); }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  void resize(size_t n) {
    if (ptr_) CUDA_CHECK(cudaFree(ptr_));
    ptr_ = nullptr;
    n_ = n;
    if (n) CUDA_CHECK(cudaMalloc(&ptr_, n * sizeof(T)));
  }
  void zero() { CUDA_CHECK(cudaMemset(ptr_, 0, n_ * sizeof(T))); }
  void upload(const T *h, size_t n) {
    CUDA_CHECK(cudaMemcpy(ptr_, h, n * sizeof(T), cudaMemcpyHostToDevice));
  }
  void download(T *h, size_t n) const {
    CUDA_CHECK(cudaMemcpy(h, ptr_, n * sizeof(T), cudaMemcpyDeviceToHost));
  }
  T *get() const { return ptr_; }
  size_t size() const { return n_; }
  operator T *() const { return ptr_; }

 private:
  T *ptr_ = nullptr;
  size_t n_ = 0;
};

}  // namespace zip
#endif  // ZIPK_COMMON_CUH
