// bench_kernel_instances.cu: a unit whose host code launches NK instances of
// one kernel template, each with a functor of its own type (a distinct kernel
// signature per instance, as a library of templated element-wise operations
// has), for the compile cost of one kernel instance (bench/run_bench.sh, [5b]).
#ifndef NK
#define NK 32
#endif

template <int I> struct scaled_add {
  float alpha;
  __host__ __device__ float operator()(float a, float b) const {
    return a + alpha * b + static_cast<float>(I);
  }
};

template <int I, typename Op>
__global__ void combine(const float *a, const float *b, float *out, int n, Op op) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = op(a[i], b[i]);
}

// Launches the instances [first, last) by halves (no deep recursion).
template <int first, int last>
void launch_range(const float *a, const float *b, float *out, int n) {
  if constexpr (last - first == 1) {
    combine<first><<<(n + 255) / 256, 256>>>(a, b, out, n, scaled_add<first>{0.5f});
  } else {
    launch_range<first, (first + last) / 2>(a, b, out, n);
    launch_range<(first + last) / 2, last>(a, b, out, n);
  }
}

void launch_all(const float *a, const float *b, float *out, int n) {
  launch_range<0, NK>(a, b, out, n);
}
