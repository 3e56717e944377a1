// launch_column_error.cu: errors at launches, which cuemu's translation
// rewrites, and after macros, which the preprocessing expands (printf is a
// macro of the shims): the compiler's messages must give the columns of
// these lines, not of the longer translated or expanded ones.
#include <cstdio>
#define REPORT(msg) do { if (cudaGetLastError() != cudaSuccess) printf("%s\n", msg); } while (0)
#define SQUARE(v) ((v) * (v))

template <class T>
__global__ void fill(T *x, T n) { x[threadIdx.x] = n; }

__global__ void scale(float *x, float by) { x[threadIdx.x] *= by; }

__global__ void square(int *x) { x[threadIdx.x] = SQUARE(threadIdx.x) + missing_a; }

int main() {
  int *d = nullptr;
  float *f = nullptr;
  fill<int><<<1, 1>>>(f, 1);
  scale<<<1, 32>>>(d, 2.0f);
  scale<<<1, 32>>>(f, 2.0f); REPORT("scale"); int y = missing_b;
  return y;
}
