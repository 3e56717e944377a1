// cupy/carray.cuh of the fake CuPy: the array and indexer types that the
// generated code of ElementwiseKernel and ReductionKernel uses, written to
// CuPy's documented interface: a raw argument x is indexed by a linear
// index over its own shape (x[i]), and has size(), shape() and strides()
// (in bytes), and a multi-dimensional index: x[idx] with an array of one
// integer per dimension (int idx[] = {row, col}), through its strides;
// _ind.size() is the number of elements of the loop.
#ifndef FAKE_CUPY_CARRAY_CUH
#define FAKE_CUPY_CARRAY_CUH

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
    char *p = (char *)data_;
    for (int d = ndim - 1; d >= 0; --d) {
      long long k = i % shape_[d];
      i /= shape_[d];
      p += k * strides_[d];
    }
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
