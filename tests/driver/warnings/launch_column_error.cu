// launch_column_error.cu: errors at launches, which cuemu's translation
// rewrites: the compiler's messages must give the columns of these lines,
// not of the longer translated ones.
template <class T>
__global__ void fill(T *x, T n) { x[threadIdx.x] = n; }

__global__ void scale(float *x, float by) { x[threadIdx.x] *= by; }

int main() {
  int *d = nullptr;
  float *f = nullptr;
  fill<int><<<1, 1>>>(f, 1);
  scale<<<1, 32>>>(d, 2.0f);
  return 0;
}
