// cupy/carray.cuh of the fake CuPy: the array and indexer types that the
// generated code of ElementwiseKernel and ReductionKernel uses, written to
// CuPy's documented interface: a raw argument x is indexed by a linear
// index over its own shape (x[i]), and has size(), shape() and strides()
// (in bytes), and a multi-dimensional index: x[idx] with an array of one
// integer per dimension (int idx[] = {row, col}), through its strides;
// _ind.size() is the number of elements of the loop.
//
// It also has CuPy's float16, the C type of the float16 dtype in the code
// that ElementwiseKernel, ReductionKernel and cupy.fuse generate: a class
// around a half (cuda_fp16.h), made from a float implicitly and from the
// other arithmetic types explicitly, and converted to float implicitly, so
// that arithmetic on float16 values is done in float and rounded to half
// once, when the result is stored (`z = x * y + w` rounds once, where
// __half's operators round after each operation). It has the member tests
// iszero(), isnan(), isinf(), isfinite() and signbit() and their free
// forms, copysign, nextafter, min, max, fmin and fmax of two float16s, and
// atomicAdd.
#ifndef FAKE_CUPY_CARRAY_CUH
#define FAKE_CUPY_CARRAY_CUH

#include <cuda_fp16.h>

// CuPy's carray.cuh defines M_PI, which NVRTC's headers lack, so the code of
// an ElementwiseKernel or a ReductionKernel may use it. The digits are
// glibc's, so that <math.h> after this header redefines it identically.
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

class float16 {
  __half h_;

  __device__ unsigned short bits() const { return __half_as_ushort(h_); }
  static __device__ float16 from_bits(unsigned short b) {
    return float16(__ushort_as_half(b));
  }

public:
  __device__ float16() {}
  __device__ float16(float v) : h_(__float2half_rn(v)) {}
  explicit __device__ float16(bool v) : h_(__float2half_rn(v ? 1.0f : 0.0f)) {}
  explicit __device__ float16(double v) : h_(__double2half(v)) {}
  explicit __device__ float16(int v) : h_(__float2half_rn((float)v)) {}
  explicit __device__ float16(unsigned int v) : h_(__float2half_rn((float)v)) {}
  explicit __device__ float16(long long v) : h_(__float2half_rn((float)v)) {}
  explicit __device__ float16(unsigned long long v)
      : h_(__float2half_rn((float)v)) {}
  explicit __device__ float16(const __half &v) : h_(v) {}
  explicit __device__ float16(const __half_raw &v) : h_(v) {}

  __device__ operator float() const { return __half2float(h_); }

  static const unsigned short nan = 0x7e00u;

  __device__ int iszero() const { return (bits() & 0x7fffu) == 0; }
  __device__ int isnan() const {
    return (bits() & 0x7c00u) == 0x7c00u && (bits() & 0x03ffu) != 0;
  }
  __device__ int isinf() const { return (bits() & 0x7fffu) == 0x7c00u; }
  __device__ int isfinite() const { return (bits() & 0x7c00u) != 0x7c00u; }
  __device__ int signbit() const { return (bits() & 0x8000u) != 0; }

  template <typename T> __device__ float16 &operator+=(const T &v) {
    return *this = *this + v;
  }
  template <typename T> __device__ float16 &operator-=(const T &v) {
    return *this = *this - v;
  }
  template <typename T> __device__ float16 &operator*=(const T &v) {
    return *this = *this * v;
  }
  template <typename T> __device__ float16 &operator/=(const T &v) {
    return *this = *this / v;
  }

  friend __device__ float16 copysign(float16 x, float16 y) {
    return from_bits((unsigned short)((x.bits() & 0x7fffu) |
                                      (y.bits() & 0x8000u)));
  }

  // The next half after x toward y (NaN when x is not finite or y is NaN).
  friend __device__ float16 nextafter(float16 x, float16 y) {
    const unsigned short xb = x.bits(), yb = y.bits();
    if (!x.isfinite() || y.isnan())
      return from_bits(nan);
    if (xb == yb || ((xb | yb) & 0x7fffu) == 0)
      return x;
    if (x.iszero())
      return from_bits((unsigned short)((yb & 0x8000u) | 1u));
    // Away from zero when y is farther from zero on x's side.
    const bool up = (float)y > (float)x;
    const bool away = (xb & 0x8000u) ? !up : up;
    return from_bits((unsigned short)(away ? xb + 1 : xb - 1));
  }
};

__device__ inline float16 min(float16 x, float16 y) {
  return float16(fminf((float)x, (float)y));
}
__device__ inline float16 max(float16 x, float16 y) {
  return float16(fmaxf((float)x, (float)y));
}
__device__ inline float16 fmin(float16 x, float16 y) {
  return float16(fminf((float)x, (float)y));
}
__device__ inline float16 fmax(float16 x, float16 y) {
  return float16(fmaxf((float)x, (float)y));
}
// atomicAdd on a float16, as CuPy's kernels have it: the sum is computed
// in float and rounded to half, in a compare-and-swap loop on the aligned
// 32-bit word that holds the value; returns the old value.
__device__ inline float16 atomicAdd(float16 *address, float16 val) {
  const size_t high = (size_t)address & 2;
  unsigned int *word = (unsigned int *)((size_t)address - high);
  unsigned int old = *word, assumed;
  do {
    assumed = old;
    const unsigned short bits =
        (unsigned short)(high ? assumed >> 16 : assumed & 0xffffu);
    const float sum = __half2float(__ushort_as_half(bits)) + (float)val;
    const unsigned int sum_bits = __half_as_ushort(__float2half_rn(sum));
    const unsigned int next = high ? (assumed & 0xffffu) | (sum_bits << 16)
                                   : (assumed & 0xffff0000u) | sum_bits;
    old = atomicCAS(word, assumed, next);
  } while (old != assumed);
  return float16(__ushort_as_half(
      (unsigned short)(high ? old >> 16 : old & 0xffffu)));
}

__device__ inline int iszero(float16 x) { return x.iszero(); }
__device__ inline int isnan(float16 x) { return x.isnan(); }
__device__ inline int isinf(float16 x) { return x.isinf(); }
__device__ inline int isfinite(float16 x) { return x.isfinite(); }
__device__ inline int signbit(float16 x) { return x.signbit(); }

template <typename T, int array_ndim>
struct CArray {
  static const int ndim = array_ndim;
  T *data_;
  long long size_;
  long long shape_[ndim > 0 ? ndim : 1];
  long long strides_[ndim > 0 ? ndim : 1];

  __host__ __device__ T *data() const { return data_; }
  __host__ __device__ long long size() const { return size_; }
  __host__ __device__ const long long *shape() const { return shape_; }
  __host__ __device__ const long long *strides() const { return strides_; }

  __host__ __device__ T &operator[](long long i) const {
    // As CuPy's: every dimension but the first takes its index modulo its
    // extent, and the first takes what is left, unwrapped, so that an index
    // past the end addresses memory past the array (where memcheck sees it)
    // instead of wrapping around to its start. A 0-d array has one element.
    char *p = (char *)data_;
    if (ndim == 0)
      return *(T *)p;
    for (int d = ndim - 1; d > 0; --d) {
      long long k = i % shape_[d];
      i /= shape_[d];
      p += k * strides_[d];
    }
    p += i * strides_[0];
    return *(T *)p;
  }

  // One index per dimension, of any integer type (a 0-d array takes any
  // one-element index and gives its only element).
  template <typename Int>
  __host__ __device__ T &operator[](const Int (&idx)[ndim > 0 ? ndim : 1]) const {
    char *p = (char *)data_;
    for (int d = 0; d < ndim; ++d)
      p += (long long)idx[d] * strides_[d];
    return *(T *)p;
  }
};

// The loop's indexer: size(), and the multi-dimensional index of element
// i over the loop's shape (set(i), then get()[dim]), in C order.
template <int indexer_ndim>
struct CIndexer {
  static const int ndim = indexer_ndim;
  long long size_;
  long long shape_[ndim > 0 ? ndim : 1];
  long long index_[ndim > 0 ? ndim : 1];

  __host__ __device__ long long size() const { return size_; }
  __host__ __device__ const long long (&get() const)[ndim > 0 ? ndim : 1] {
    return index_;
  }
  __host__ __device__ void set(long long i) {
    for (int d = ndim - 1; d > 0; --d) {
      index_[d] = i % shape_[d];
      i /= shape_[d];
    }
    if (ndim > 0)
      index_[0] = i;
  }
};

#endif
