"""CUDA sources of the fake CuPy's tests (each also valid for NVRTC)."""

AXPY = r'''
extern "C" __global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}
'''

# Stores each argument, to check how Python values are converted.
SCALARS = r'''
#include <cuComplex.h>
extern "C" __global__ void scalars(long long i, double d, bool b,
                                   cuDoubleComplex c, float f, int k,
                                   unsigned long long u,
                                   long long *iout, double *dout, bool *bout,
                                   double *cout, float *fout, int *kout,
                                   unsigned long long *uout) {
  *iout = i;
  *dout = d;
  *bout = b;
  cout[0] = cuCreal(c);
  cout[1] = cuCimag(c);
  *fout = f;
  *kout = k;
  *uout = u;
}
'''

BLOCK_SUM = r'''
extern "C" __global__ void block_sum(const double *x, double *out, int n) {
  extern __shared__ double buffer[];
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  buffer[threadIdx.x] = i < n ? x[i] : 0.0;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) buffer[threadIdx.x] += buffer[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = buffer[0];
}
'''

WARP_SUM = r'''
extern "C" __global__ void warp_sum(const float *x, float *out, int n) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  if (threadIdx.x % 32 == 0) atomicAdd(out, v);
}
'''

STRUCT = r'''
struct Particle {
  double mass;
  float x, y;
  int id;
};
extern "C" __global__ void weigh(Particle p, double scale, double *out) {
  out[threadIdx.x] = (p.mass * scale + p.x + p.y) * (p.id + threadIdx.x);
}
'''

FAULTS = r'''
extern "C" __global__ void trap_at(int bad_thread) {
  if (threadIdx.x == bad_thread) __trap();
}
extern "C" __global__ void assert_positive(const int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) assert(x[i] > 0);
}
extern "C" __global__ void write_to(int *p) {
  p[threadIdx.x] = 1;
}
'''

MODULE = r'''
__device__ int counter = 41;
__constant__ float factors[4] = {1.0f, 2.0f, 3.0f, 4.0f};

extern "C" __global__ void bump(int *out) {
  atomicAdd(&counter, 1);
  out[threadIdx.x] = counter > 0;
}

extern "C" __global__ void apply(float *x) {
  x[threadIdx.x] *= factors[threadIdx.x % 4];
}

template <typename T, int N>
__global__ void scale(T *x) {
  x[threadIdx.x] *= N;
}
'''

# A kernel that reads an input and writes an output: the operands of the
# lifetime checker's tests.
PULL = r'''
extern "C" __global__ void pull(float *out, const float *inp, const float *grid,
                                int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = inp[i] * grid[i];
}
'''


def run_pickled_axpy(blob):
    """Runs a pickled RawKernel (AXPY) in another process; returns y."""
    import pickle
    import numpy
    import fake_cupy as cp
    k = pickle.loads(blob)
    x = cp.ones(8, cp.float32)
    y = cp.zeros(8, cp.float32)
    k((1,), (8,), (numpy.float32(2), x, y, 8))
    return y.get().tolist()
