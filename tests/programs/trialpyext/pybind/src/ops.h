// ops.h: host interface of the kernels (no CUDA syntax: included by bindings.cpp).
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <cuda_runtime_api.h>

namespace pyops {

class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const std::string& where)
      : std::runtime_error(where + ": " + cudaGetErrorName(code) + ": " + cudaGetErrorString(code)),
        code_(code) {}
  cudaError_t code() const { return code_; }

 private:
  cudaError_t code_;
};

inline void check(cudaError_t code, const char* where) {
  if (code != cudaSuccess) throw CudaError(code, where);
}

enum class BinaryOp { add, maximum };

template <typename T>
void binary(const T* a, const T* b, T* out, int64_t n, BinaryOp op);

template <typename T>
void softmax(const T* x, T* y, int rows, int cols);

void spin_async(double milliseconds);
void synchronize();
void fault(int kind);
int device_count();

}  // namespace pyops
