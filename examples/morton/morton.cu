/*
 * morton.cu: 2-D and 3-D Morton (Z-order) keys of points, as CuNumpy's
 * morton_key2/morton_key3: the cell of a coordinate is
 * floor((x - lower) * scale) clipped to [0, 2^levels - 1] (a point outside
 * the box goes to the nearest face; a negative scale reverses the axis), and
 * the key interleaves the cells' bits with axis 0 in the lowest bit of every
 * group. levels is at most 32 in 2-D and 21 in 3-D.
 */
__device__ unsigned long long morton_cell(double x, double lower, double scale,
                                          int levels) {
  double top = (double)((1ull << levels) - 1);
  double c = floor((x - lower) * scale);
  if (!(c >= 0.0)) c = 0.0; /* below the box, or NaN */
  if (c > top) c = top;
  return (unsigned long long)c;
}

/* Spreads the low 32 bits of v to the even bits of the result. */
__device__ unsigned long long morton_spread2(unsigned long long v) {
  v &= 0xffffffffull;
  v = (v | v << 16) & 0x0000ffff0000ffffull;
  v = (v | v << 8) & 0x00ff00ff00ff00ffull;
  v = (v | v << 4) & 0x0f0f0f0f0f0f0f0full;
  v = (v | v << 2) & 0x3333333333333333ull;
  v = (v | v << 1) & 0x5555555555555555ull;
  return v;
}

/* Spreads the low 21 bits of v to every third bit of the result. */
__device__ unsigned long long morton_spread3(unsigned long long v) {
  v &= 0x1fffffull;
  v = (v | v << 32) & 0x001f00000000ffffull;
  v = (v | v << 16) & 0x001f0000ff0000ffull;
  v = (v | v << 8) & 0x100f00f00f00f00full;
  v = (v | v << 4) & 0x10c30c30c30c30c3ull;
  v = (v | v << 2) & 0x1249249249249249ull;
  return v;
}

extern "C" __global__ void morton2(int n, const double *x, const double *y,
                                   double lower_x, double lower_y,
                                   double scale_x, double scale_y, int levels,
                                   unsigned long long *keys) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  keys[i] = morton_spread2(morton_cell(x[i], lower_x, scale_x, levels)) |
            morton_spread2(morton_cell(y[i], lower_y, scale_y, levels)) << 1;
}

extern "C" __global__ void morton3(int n, const double *x, const double *y,
                                   const double *z, double lower_x,
                                   double lower_y, double lower_z,
                                   double scale_x, double scale_y,
                                   double scale_z, int levels,
                                   unsigned long long *keys) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  keys[i] = morton_spread3(morton_cell(x[i], lower_x, scale_x, levels)) |
            morton_spread3(morton_cell(y[i], lower_y, scale_y, levels)) << 1 |
            morton_spread3(morton_cell(z[i], lower_z, scale_z, levels)) << 2;
}
