/*
 * param_types.cuh: kernel parameter types with user copy constructors and
 * destructors, as CUDA projects write them (a non-owning device view, a
 * buffer that owns device memory, a thrust-like functor), each counting
 * where its copy constructor and destructor run: host and device apart.
 */
#ifndef PARAMS_PARAM_TYPES_CUH
#define PARAMS_PARAM_TYPES_CUH

#include <cstdlib>

/* Counts of the device side (managed, read by the host after a
 * synchronization) and of the host side. */
__managed__ int device_copies, device_dtors;
static int host_copies, host_dtors;

__host__ __device__ inline void count_copy() {
#ifdef __CUDA_ARCH__
  atomicAdd(&device_copies, 1);
#else
  ++host_copies;
#endif
}
__host__ __device__ inline void count_dtor() {
#ifdef __CUDA_ARCH__
  atomicAdd(&device_dtors, 1);
#else
  ++host_dtors;
#endif
}

/* A view of device data whose copy constructor counts its copies. */
struct View {
  int *data;
  int base;
  __host__ __device__ View(int *d, int b) : data(d), base(b) {}
  __host__ __device__ View(const View &o) : data(o.data), base(o.base) {
    count_copy();
  }
  __host__ __device__ ~View() { count_dtor(); }
};

/* An owning buffer: its destructor frees the memory it owns (device
 * memory on the host side; on the device side, memory of the device heap,
 * as a buffer made in a kernel would own). A copy is a non-owning alias. */
struct Buffer {
  int *data;
  int size;
  bool owns;
  explicit Buffer(int n) : size(n), owns(true) {
    cudaMalloc(&data, n * sizeof(int));
  }
  __host__ __device__ Buffer(const Buffer &o)
      : data(o.data), size(o.size), owns(false) {
    count_copy();
  }
  __host__ __device__ ~Buffer() {
    count_dtor();
    if (!owns)
      return;
#ifdef __CUDA_ARCH__
    free(data);
#else
    cudaFree(data);
#endif
  }
  __device__ int &operator[](int i) const { return data[i]; }
};

/* A thrust-like functor with a user copy constructor. */
struct Saxpy {
  float a;
  explicit Saxpy(float a_) : a(a_) {}
  __host__ __device__ Saxpy(const Saxpy &o) : a(o.a) { count_copy(); }
  __host__ __device__ float operator()(float x, float y) const {
    return a * x + y;
  }
};

#endif
