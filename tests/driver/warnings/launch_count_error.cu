// launch_count_error.cu: a launch with fewer arguments than its kernel has
// parameters, which nvcc refuses ("too few arguments in function call").
__global__ void fill(int *x, int n) { x[threadIdx.x] = n; }

int main() {
  int *d = nullptr;
  fill<<<1, 1>>>(d);
  return 0;
}
