// lambda_no_flag.cu: annotated lambdas, which nvcc refuses without
// --extended-lambda (or --expt-extended-lambda) at each lambda's line ("__host__
// or __device__ annotation on lambda requires --extended-lambda nvcc flag"),
// in host code and in device code alike; with the flag it builds and runs
// ("4 9 16"). tests/driver_extended_lambda.sh.
#include <cstdio>

template <typename F> __global__ void apply_each(F f, int *out)
{
  out[threadIdx.x] = f((int)threadIdx.x);
}

__global__ void square_in_kernel(int *out)
{
  auto square = [] __device__(int v) { return v * v; };
  out[threadIdx.x] = square((int)threadIdx.x + 2);
}

int main()
{
  int *d, h[3];
  cudaMalloc(&d, 3 * sizeof(int));
  auto plus = [] __host__ __device__(int v) { return v + 4; };
  apply_each<<<1, 3>>>(plus, d);
  square_in_kernel<<<1, 3>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d %d\n", h[0], h[1], h[2]);
  cudaFree(d);
  return h[0] == 4 && h[1] == 9 && h[2] == 16 ? 0 : 1;
}
