/*
 * cuda/cuemu_aligned_size.h: cuda::aligned_size_t<Alignment>, a byte count
 * that promises that the count and the pointers it goes with are multiples
 * of Alignment (memcpy_async checks the promise), for <cuda/barrier>.
 */
#ifndef CUEMU_CUDA_ALIGNED_SIZE_H
#define CUEMU_CUDA_ALIGNED_SIZE_H

#include <cstddef>

namespace cuda {

template <::std::size_t Alignment> struct aligned_size_t {
  static constexpr ::std::size_t align = Alignment;
  ::std::size_t value;

  explicit constexpr aligned_size_t(::std::size_t size) : value(size) {}
  constexpr operator ::std::size_t() const { return value; }
};

} // namespace cuda

#endif /* CUEMU_CUDA_ALIGNED_SIZE_H */
