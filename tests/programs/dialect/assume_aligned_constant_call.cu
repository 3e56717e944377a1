// assume_aligned_constant_call.cu: __builtin_assume_aligned whose alignment
// is a constexpr call that returns a reference (cuda::std::min), as
// cuCollections' bloom_filter_impl.cuh writes it in device code. nvcc 13
// takes it; clang++ 14, which compiles every unit that includes CCCL, crashed
// on it at -O2 in C++17 (a segmentation fault in its code generation), so
// such units (this one includes Thrust) take the alignment as a hint they
// may drop (cuemu_compile.c).
#include <cuda/std/__algorithm/min.h>
#include <thrust/version.h>
#include <cuda_runtime.h>

#include "../check.cuh"

template <class Word> struct words_view {
  __host__ __device__ static constexpr unsigned long max_vec_bytes() {
    return 16;
  }
  const Word *words;
  /* The sum of the `Words` words at `index`, read as one vector. */
  template <unsigned Words> __device__ Word sum(unsigned long index) const {
    auto const *aligned = static_cast<const Word *>(__builtin_assume_aligned(
        words + index,
        cuda::std::min(sizeof(Word) * Words, max_vec_bytes())));
    Word s = 0;
    for (unsigned i = 0; i < Words; ++i)
      s += aligned[i];
    return s;
  }
};

__global__ void sums(const unsigned *words, unsigned *out) {
  out[threadIdx.x] = words_view<unsigned>{words}.sum<4>(4 * threadIdx.x);
}

int main() {
  unsigned *words, *out;
  CHECK(cudaMallocManaged(&words, 64 * sizeof(unsigned)) == cudaSuccess);
  CHECK(cudaMallocManaged(&out, 16 * sizeof(unsigned)) == cudaSuccess);
  for (int i = 0; i < 64; ++i)
    words[i] = i;
  sums<<<1, 16>>>(words, out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int t = 0; t < 16; ++t)
    CHECK(out[t] == 16u * t + 6u);
  CHECK(cudaFree(words) == cudaSuccess);
  CHECK(cudaFree(out) == cudaSuccess);
  return finish();
}
