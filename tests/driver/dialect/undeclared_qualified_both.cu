// undeclared_qualified_both.cu: a __host__ __device__ template that both
// passes see names `::nowhere_arg`, declared nowhere, in the same words in
// both: nvcc's host pass refuses it ("the global scope has no
// "nowhere_arg"") although nothing instantiates the template, and so must
// cuemu-nvcc (driver_device_undeclared.sh).
template <class T> struct phase_of {
  __host__ __device__ static float run(const T &z) {
    using ::nowhere_arg;
    return nowhere_arg(z);
  }
};

__global__ void k(float *p) { *p = 1.0f; }
