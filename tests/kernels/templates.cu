/*
 * templates.cu: template kernels, exported by name expressions
 * ("scale<double, 3>", "ns::shift<int>") for tests/check_launch.c.
 */

template <typename T, int N> __global__ void scale(T *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] *= N;
}

namespace ns {
template <typename T> __global__ void shift(T *data, T by, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] += by;
}
} // namespace ns

/* A plain kernel beside the templates, found without a name expression. */
extern "C" __global__ void plain(int *out) { *out = 5; }
