/* wrong_matrix.cu: wrong on purpose, in two places of a rows x cols
 * matrix: the bottom-right quarter is scaled by 1.0001 (hundreds of ulps
 * off) and the last column is one ulp high. The HTML report draws it as a
 * heat map. */
extern "C" __global__ void scale2d(int rows, int cols, float a, const float *x,
                                   float *y) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r >= rows || c >= cols) return;
  float v = a * x[r * cols + c];
  if (r >= rows / 2 && c >= cols / 2) v *= 1.0001f;
  if (c == cols - 1) v = nextafterf(v, 1e30f);
  y[r * cols + c] = v;
}
