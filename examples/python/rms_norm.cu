// rms_norm.cu: RMS normalisation of each row of a matrix, one block per row:
// out[r][j] = x[r][j] / sqrt(mean_j(x[r][j]^2) + eps).
// The block's threads stride over the row, then combine their partial sums
// of squares in a shared-memory tree (blockDim.x must be a power of two and
// the launch must pass blockDim.x * sizeof(double) bytes of shared memory).
extern "C" __global__ void rms_norm(const double *x, double *out, int cols,
                                    double eps) {
  extern __shared__ double partial[];
  const double *row = x + (size_t)blockIdx.x * cols;
  double *dst = out + (size_t)blockIdx.x * cols;
  double sum = 0.0;
  for (int j = threadIdx.x; j < cols; j += blockDim.x)
    sum += row[j] * row[j];
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s)
      partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  double scale = rsqrt(partial[0] / cols + eps);
  for (int j = threadIdx.x; j < cols; j += blockDim.x)
    dst[j] = row[j] * scale;
}
