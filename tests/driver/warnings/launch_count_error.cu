// launch_count_error.cu: a launch with fewer arguments than its kernel has
// parameters, which nvcc refuses ("too few arguments in function call"),
// and with -DTEMPLATE_LAUNCH, a kernel template's launch with more ("no
// instance of function template "fill_t" matches the argument list").
__global__ void fill(int *x, int n) { x[threadIdx.x] = n; }

template <class T>
__global__ void fill_t(T *x, T n) { x[threadIdx.x] = n; }

int main() {
  int *d = nullptr;
#ifndef TEMPLATE_LAUNCH
  fill<<<1, 1>>>(d);
#else
  fill_t<int><<<1, 1>>>(d, 1, 2);
#endif
  return 0;
}
