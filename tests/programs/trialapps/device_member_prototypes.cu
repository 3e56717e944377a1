// device_member_prototypes.cu: __device__ member functions declared in their
// class and defined after it (a functor of a particle update, a static
// helper, an operator kept inline), in a unit that includes CUB, which
// cuemu-nvcc compiles with clang++. The host pass's stub of each out-of-class
// definition carries GCC's `error` attribute (a host call is refused, as by
// nvcc); clang++ refused the unit with "'error' attribute does not appear on
// the first declaration" until the declarations in the class got it too.
#include <cstdio>
#include <cub/warp/warp_reduce.cuh>

struct Drag {
  float coefficient;
  __device__ Drag(float c) : coefficient(c) {}
  __device__ float apply(float velocity) const;
  static __device__ float clamp(float v, float limit);
  __device__ float operator()(float v) const { return apply(v); }
  friend __device__ float twice_drag(const Drag &d, float v);
};

__device__ float Drag::apply(float velocity) const {
  return velocity - coefficient * velocity;
}
__device__ float Drag::clamp(float v, float limit) {
  return v < limit ? v : limit;
}
__device__ float twice_drag(const Drag &d, float v) { return d(d(v)); }

__global__ void step(const float *v, float *total) {
  typedef cub::WarpReduce<float> Reduce;
  __shared__ typename Reduce::TempStorage temp;
  Drag drag(0.5f);
  float mine = Drag::clamp(drag(v[threadIdx.x]), 10.0f) +
               twice_drag(drag, 4.0f);
  float sum = Reduce(temp).Sum(mine);
  if (threadIdx.x == 0)
    *total = sum;
}

int main() {
  float *v, *total;
  cudaMallocManaged(&v, 32 * sizeof(float));
  cudaMallocManaged(&total, sizeof(float));
  for (int i = 0; i < 32; i++)
    v[i] = (float)i;
  step<<<1, 32>>>(v, total);
  cudaError_t err = cudaDeviceSynchronize();
  /* min(i / 2, 10) over 32 lanes (0..9.5 by halves, then 10 twelve times)
   * plus 32 times 4 halved twice. */
  float expect = 0.0f;
  for (int i = 0; i < 32; i++)
    expect += (i * 0.5f < 10.0f ? i * 0.5f : 10.0f) + 1.0f;
  int ok = err == cudaSuccess && *total == expect;
  printf("total %.1f (expected %.1f)\n", *total, expect);
  cudaFree(v);
  cudaFree(total);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
