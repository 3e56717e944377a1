/*
 * cuemu_parity_compare.c: compares an output of a leg with the host's,
 * element by element and field by field: bit for bit, within a number of
 * units in the last place, or within rtol/atol as NumPy's allclose. Under
 * ulps and rtol/atol any NaN matches any NaN; bit for bit, a NaN matches
 * only the same NaN unless the comparison says nan_equal. An infinity
 * matches only itself, and +0 matches -0 except bit for bit.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuemu_parity_internal.h"

/* How many differing elements a report lists. */
#define SHOWN CUEMU__PSHOWN

static int is_float(const cuemu__pfield *f) {
  return f->kind == CUEMU__PS_FLOAT || f->kind == CUEMU__PS_HALF ||
         f->kind == CUEMU__PS_BF16;
}

/* The bits of a floating-point field mapped to an integer line on which
 * neighbouring values are 1 apart and -0 meets +0. */
static __int128 ordered(const cuemu__pfield *f, const void *elem) {
  const unsigned char *p = (const unsigned char *)elem + f->offset;
  uint64_t bits = 0, sign;
  memcpy(&bits, p, f->size);
  sign = (uint64_t)1 << (f->size * 8 - 1);
  return bits & sign ? -(__int128)(bits & ~sign) : (__int128)bits;
}

int cuemu__parity_compare_check(const cuemu_parity_compare *cmp, char *why,
                                size_t size) {
  if (cmp->kind == CUEMU_PARITY_ULPS && cmp->ulps < 0) {
    snprintf(why, size, "ulps must not be negative");
    return -1;
  }
  if (cmp->kind == CUEMU_PARITY_TOLERANCE &&
      !(cmp->rtol >= 0 && cmp->atol >= 0 && isfinite(cmp->rtol) &&
        isfinite(cmp->atol))) {
    snprintf(why, size, "tolerances are finite and not negative");
    return -1;
  }
  if ((unsigned)cmp->kind > CUEMU_PARITY_TOLERANCE) {
    snprintf(why, size, "unknown comparison kind %d", (int)cmp->kind);
    return -1;
  }
  if (cmp->nan_equal != 0 && cmp->nan_equal != 1) {
    snprintf(why, size, "nan_equal is 0 or 1, not %d", cmp->nan_equal);
    return -1;
  }
  if (cmp->nan_equal && cmp->kind != CUEMU_PARITY_EXACT) {
    snprintf(why, size, "nan_equal goes with exact (under ulps and rtol/atol "
                        "any NaN already matches any NaN)");
    return -1;
  }
  return 0;
}

/* An integer (or bool) field's exact value. */
static __int128 whole(const cuemu__pfield *f, const void *elem) {
  const unsigned char *p = (const unsigned char *)elem + f->offset;
  uint64_t bits = 0;
  memcpy(&bits, p, f->size); /* little-endian */
  if (f->kind == CUEMU__PS_INT && f->size < 8 && (bits >> (f->size * 8 - 1)) & 1)
    bits |= ~(uint64_t)0 << (f->size * 8); /* sign extension */
  if (f->kind == CUEMU__PS_INT)
    return (__int128)(int64_t)bits;
  return (__int128)bits;
}

/* |a - b| of two integer fields, exactly (as a double, exact to 2^53). */
static double whole_distance(const cuemu__pfield *f, const void *a,
                             const void *b) {
  __int128 d = whole(f, a) - whole(f, b);
  return (double)(d < 0 ? -d : d);
}

double cuemu__parity_ulps(const cuemu__pfield *f, const void *a,
                          const void *b) {
  if (!is_float(f))
    return whole_distance(f, a, b);
  double x = cuemu__pfield_get(f, a), y = cuemu__pfield_get(f, b);
  if (isnan(x) || isnan(y))
    return isnan(x) && isnan(y) ? 0 : INFINITY;
  if (isinf(x) || isinf(y))
    return x == y ? 0 : INFINITY;
  __int128 d = ordered(f, a) - ordered(f, b);
  return (double)(d < 0 ? -d : d);
}

/* Whether one field agrees under the comparison. */
static int agrees(const cuemu__pfield *f, const cuemu_parity_compare *cmp,
                  const void *got, const void *want, double ulps) {
  double x = cuemu__pfield_get(f, got), y = cuemu__pfield_get(f, want);
  cuemu_parity_compare_kind kind = cmp->kind;
  double rtol = cmp->rtol, atol = cmp->atol;
  if (kind == CUEMU_PARITY_DEFAULT) {
    if (!is_float(f))
      kind = CUEMU_PARITY_EXACT;
    rtol = 1e-5;
    atol = 1e-8;
  }
  /* Two NaNs match, except bit for bit where only nan_equal says so. */
  if (is_float(f) && isnan(x) && isnan(y) &&
      (kind != CUEMU_PARITY_EXACT || cmp->nan_equal))
    return 1;
  switch (kind) {
  case CUEMU_PARITY_EXACT:
    return memcmp((const char *)got + f->offset, (const char *)want + f->offset,
                  f->size) == 0;
  case CUEMU_PARITY_ULPS:
    return ulps <= (double)cmp->ulps;
  default:
    if (!is_float(f))
      return whole_distance(f, got, want) <= atol + rtol * fabs(y);
    if (isnan(x) || isnan(y))
      return 0;
    if (isinf(x) || isinf(y))
      return x == y;
    return fabs(x - y) <= atol + rtol * fabs(y);
  }
}

static void show(cuemu__ptext *t, const cuemu__pfield *f, const void *elem) {
  double v = cuemu__pfield_get(f, elem);
  __int128 w = is_float(f) ? 0 : whole(f, elem);
  if (!is_float(f) && w < 0)
    cuemu__ptext_add(t, "%" PRId64, (int64_t)w);
  else if (!is_float(f))
    cuemu__ptext_add(t, "%" PRIu64, (uint64_t)w);
  else if (isnan(v)) {
    /* NaNs differ only in their bits, so the bits are shown. */
    uint64_t bits = 0;
    memcpy(&bits, (const unsigned char *)elem + f->offset, f->size);
    cuemu__ptext_add(t, "nan (0x%0*" PRIx64 ")", (int)f->size * 2, bits);
  } else if (f->kind == CUEMU__PS_FLOAT && f->size == 8)
    cuemu__ptext_add(t, "%.17g", v);
  else
    cuemu__ptext_add(t, "%.9g", v);
}

int cuemu__parity_compare(const char *what, const char *ref,
                          const cuemu__ptype *type,
                          const cuemu_parity_compare *cmp, const void *got,
                          const void *want, size_t count, cuemu__pdiff *d) {
  memset(d, 0, sizeof *d);
  cuemu__ptext t = {0};
  const unsigned char *g = got, *w = want;
  for (size_t i = 0; i < count; ++i) {
    const void *ge = g + i * type->size, *we = w + i * type->size;
    int off = 0;
    for (int k = 0; k < type->nfields; ++k) {
      const cuemu__pfield *f = &type->fields[k];
      double ulps = cuemu__parity_ulps(f, ge, we);
      double x = cuemu__pfield_get(f, ge), y = cuemu__pfield_get(f, we);
      double abs = !is_float(f)                ? ulps
                   : isnan(x) && isnan(y) ? 0
                                          : fabs(x - y);
      if (ulps > d->max_ulps || isnan(ulps))
        d->max_ulps = isnan(ulps) ? INFINITY : ulps;
      if (abs > d->max_abs || isnan(abs))
        d->max_abs = isnan(abs) ? INFINITY : abs;
      if (agrees(f, cmp, ge, we, ulps))
        continue;
      if (!off && d->differing < SHOWN) {
        cuemu_parity_difference *s = &d->shown[d->nshown++];
        s->index = i;
        snprintf(s->field, sizeof s->field, "%s", f->name);
        s->got = x;
        s->want = y;
        s->ulps = ulps;
        cuemu__ptext_add(&t, "  %s[%zu]%s%s: got ", what, i, f->name[0] ? "." : "",
                         f->name);
        show(&t, f, ge);
        cuemu__ptext_add(&t, ", %s ", ref);
        show(&t, f, we);
        if (is_float(f) && isnan(x) && isnan(y))
          cuemu__ptext_add(&t, " (NaNs with other bits)");
        else if (is_float(f))
          cuemu__ptext_add(&t, " (%.3g ulp%s)", ulps, ulps == 1 ? "" : "s");
        cuemu__ptext_add(&t, "\n");
      }
      off = 1;
    }
    d->differing += (size_t)off;
  }
  if (d->differing > SHOWN)
    cuemu__ptext_add(&t, "  ... %zu of %zu elements of %s differ\n", d->differing,
                     count, what);
  else if (d->differing)
    cuemu__ptext_add(&t, "  %zu of %zu elements of %s differ\n", d->differing,
                     count, what);
  d->report = t.s;
  return d->differing != 0;
}

void cuemu__parity_error_map(const cuemu__ptype *type,
                             const cuemu_parity_compare *cmp, const void *got,
                             const void *want, size_t rows, size_t cols,
                             int map_rows, int map_cols, double *map,
                             int *fails) {
  for (int k = 0; k < map_rows * map_cols; ++k) {
    map[k] = 0;
    fails[k] = 0;
  }
  const unsigned char *g = got, *w = want;
  for (size_t r = 0; r < rows; ++r) {
    double *line = map + r * (size_t)map_rows / rows * (size_t)map_cols;
    for (size_t c = 0; c < cols; ++c) {
      size_t i = r * cols + c;
      size_t at = (size_t)(line - map) + c * (size_t)map_cols / cols;
      double *cell = map + at;
      int off = 0;
      for (int k = 0; k < type->nfields; ++k) {
        const cuemu__pfield *f = &type->fields[k];
        const unsigned char *ge = g + i * type->size, *we = w + i * type->size;
        double u = cuemu__parity_ulps(f, ge, we);
        if (u > *cell || isnan(u))
          *cell = isnan(u) ? INFINITY : u;
        off |= !agrees(f, cmp, ge, we, u);
      }
      fails[at] += off;
    }
  }
}
