/* host_overrun_host.c: host implementations of twice() that are right for
 * y[0..n) but also write past its end: one element (a canary byte), 64
 * elements (the guard region right after the array) and 100 KB (far into
 * it). Issue 17, defect 7: each must be reported naming y and the offset;
 * none may pass, crash the loader or abort free(). */
#include <stddef.h>

static void twice(int n, const float *x, float *y, size_t past) {
  for (int i = 0; i < n; ++i)
    y[i] = 2.0f * x[i];
  volatile float *end = y + n;
  end[past] = 1.0f;
}

void twice_one_past(int n, const float *x, float *y) { twice(n, x, y, 0); }

void twice_64_past(int n, const float *x, float *y) { twice(n, x, y, 64); }

void twice_100k_past(int n, const float *x, float *y) {
  twice(n, x, y, 100 * 1024 / sizeof(float));
}
