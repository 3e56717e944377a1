/* nan_bits_host.c: the host writes another NaN (0x7fc00002) than the
 * kernel: the same under {exact: true, nan_equal: true}, different bit for
 * bit. */
#include <stdint.h>
#include <string.h>

void quiet_nan(int n, float *y) {
  uint32_t bits = 0x7fc00002u;
  for (int i = 0; i < n; ++i)
    memcpy(&y[i], &bits, sizeof bits);
}
