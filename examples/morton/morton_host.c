/* morton_host.c: the host implementations of morton.cu, interleaving the
 * bits one at a time (rather than with the kernel's masks). */
#include <math.h>
#include <stdint.h>

static uint64_t cell(double x, double lower, double scale, int levels) {
  double top = (double)((UINT64_C(1) << levels) - 1);
  double c = floor((x - lower) * scale);
  if (isnan(c) || c < 0.0) return 0;
  return c > top ? (uint64_t)top : (uint64_t)c;
}

/* Puts bit b of cells[a] at bit b * dims + a of the key. */
static uint64_t interleave(const uint64_t *cells, int dims, int levels) {
  uint64_t key = 0;
  for (int b = 0; b < levels; ++b)
    for (int a = 0; a < dims; ++a)
      key |= ((cells[a] >> b) & 1u) << (b * dims + a);
  return key;
}

void morton2(int n, const double *x, const double *y, double lower_x,
             double lower_y, double scale_x, double scale_y, int levels,
             unsigned long long *keys) {
  for (int i = 0; i < n; ++i) {
    uint64_t c[2] = {cell(x[i], lower_x, scale_x, levels),
                     cell(y[i], lower_y, scale_y, levels)};
    keys[i] = interleave(c, 2, levels);
  }
}

void morton3(int n, const double *x, const double *y, const double *z,
             double lower_x, double lower_y, double lower_z, double scale_x,
             double scale_y, double scale_z, int levels,
             unsigned long long *keys) {
  for (int i = 0; i < n; ++i) {
    uint64_t c[3] = {cell(x[i], lower_x, scale_x, levels),
                     cell(y[i], lower_y, scale_y, levels),
                     cell(z[i], lower_z, scale_z, levels)};
    keys[i] = interleave(c, 3, levels);
  }
}
