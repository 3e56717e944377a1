// kernels.cu: the plain extern "C" kernels of test_trialcupy.py, loaded
// as one cupy.RawModule: a row scaling of a column slice through its
// leading dimension, a grid-stride a*x+1, a check that traps on a
// negative value, and a reversal through more dynamic shared memory than
// the 48 KiB default (the launch raises max_dynamic_shared_size_bytes).
extern "C" __global__ void row_scale(float *m, const float *s, int rows,
                                     int cols, long long ld) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows && c < cols)
    m[r * ld + c] *= s[r];
}

extern "C" __global__ void scale_add(const double *x, double *y, double a,
                                     size_t n) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (size_t)blockDim.x * gridDim.x)
    y[i] = a * x[i] + 1.0;
}

extern "C" __global__ void check_positive(const int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i] < 0)
    __trap();
}

extern "C" __global__ void tile_reverse(const float *x, float *y, int n) {
  extern __shared__ float tile[];
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    tile[i] = x[i];
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    y[i] = tile[n - 1 - i];
}
