/*
 * check_parity_compare.c: comparing outputs: ulps across zero and between
 * neighbours, NaN, +0 and -0, infinities, tolerances as NumPy's allclose,
 * exact comparison, integers, vector fields, and the report of the first
 * differing indices.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../parity/cuemu_parity_internal.h"
#include "check_parity_suites.h"
#include "cuemu_test_util.h"

static cuemu__ptype type(const char *name) {
  cuemu__ptype t;
  char err[256];
  ck_assert_int_eq(cuemu__ptype_resolve(NULL, name, &t, err, sizeof err), 0);
  return t;
}

/* Compares one float pair under `cmp`; returns 1 when they agree. */
static int floats_agree(float got, float want, cuemu_parity_compare cmp) {
  cuemu__ptype t = type("float");
  cuemu__pdiff d;
  int differ = cuemu__parity_compare("y", "host", &t, &cmp, &got, &want, 1, &d);
  free(d.report);
  return !differ;
}

START_TEST(test_ulps) {
  cuemu__ptype t = type("float");
  float a = 1.0f, b = nextafterf(1.0f, 2.0f), c = nextafterf(b, 2.0f);
  ck_assert(cuemu__parity_ulps(&t.fields[0], &a, &b) == 1);
  ck_assert(cuemu__parity_ulps(&t.fields[0], &a, &c) == 2);
  /* Across zero: the smallest subnormals on each side are 2 ulps apart, and
   * the two zeros are none. */
  float pz = 0.0f, nz = -0.0f, ps = FLT_TRUE_MIN, ns = -FLT_TRUE_MIN;
  ck_assert(cuemu__parity_ulps(&t.fields[0], &pz, &nz) == 0);
  ck_assert(cuemu__parity_ulps(&t.fields[0], &ps, &ns) == 2);
  float nan = NAN, inf = INFINITY, big = FLT_MAX;
  ck_assert(cuemu__parity_ulps(&t.fields[0], &nan, &nan) == 0);
  ck_assert(isinf(cuemu__parity_ulps(&t.fields[0], &nan, &a)));
  ck_assert(isinf(cuemu__parity_ulps(&t.fields[0], &inf, &big)));
  cuemu__ptype d = type("double");
  double x = 1.0, y = nextafter(1.0, 0.0);
  ck_assert(cuemu__parity_ulps(&d.fields[0], &x, &y) == 1);
  cuemu__ptype h = type("__half");
  unsigned short h1 = 0x3c00, h2 = 0x3c03; /* 1.0 and 3 ulps above */
  ck_assert(cuemu__parity_ulps(&h.fields[0], &h1, &h2) == 3);
}
END_TEST

START_TEST(test_modes) {
  cuemu_parity_compare exact = {CUEMU_PARITY_EXACT, 0, 0, 0, 0};
  cuemu_parity_compare ulps2 = {CUEMU_PARITY_ULPS, 0, 0, 2, 0};
  cuemu_parity_compare tol = {CUEMU_PARITY_TOLERANCE, 1e-3, 1e-6, 0, 0};
  cuemu_parity_compare dflt = {CUEMU_PARITY_DEFAULT, 0, 0, 0, 0};
  float one = 1.0f, up2 = nextafterf(nextafterf(1.0f, 2.0f), 2.0f);
  float up3 = nextafterf(up2, 2.0f);
  ck_assert(floats_agree(one, one, exact));
  ck_assert(!floats_agree(up2, one, exact));
  ck_assert(floats_agree(up2, one, ulps2));
  ck_assert(!floats_agree(up3, one, ulps2));
  /* NaN matches NaN in every mode; +0 and -0 except bit for bit. */
  ck_assert(floats_agree(NAN, NAN, exact));
  ck_assert(floats_agree(NAN, -NAN, tol));
  ck_assert(!floats_agree(NAN, 1.0f, tol));
  ck_assert(!floats_agree(1.0f, NAN, ulps2));
  ck_assert(floats_agree(-0.0f, 0.0f, ulps2));
  ck_assert(floats_agree(-0.0f, 0.0f, tol));
  ck_assert(!floats_agree(-0.0f, 0.0f, exact));
  /* An infinity matches only itself. */
  ck_assert(floats_agree(INFINITY, INFINITY, tol));
  ck_assert(!floats_agree(INFINITY, -INFINITY, tol));
  ck_assert(!floats_agree(INFINITY, FLT_MAX, ulps2));
  ck_assert(!floats_agree(FLT_MAX, INFINITY, (cuemu_parity_compare){CUEMU_PARITY_TOLERANCE, 1, 0, 0, 0}));
  /* allclose: |got - want| <= atol + rtol * |want|. */
  ck_assert(floats_agree(1000.9f, 1000.0f, tol));
  ck_assert(!floats_agree(1001.1f, 1000.0f, tol));
  ck_assert(floats_agree(1e-6f, 0.0f, tol));
  ck_assert(!floats_agree(1e-5f, 0.0f, tol));
  /* The default for floats is rtol 1e-5, atol 1e-8. */
  ck_assert(floats_agree(1.000001f, 1.0f, dflt));
  ck_assert(!floats_agree(1.0001f, 1.0f, dflt));
}
END_TEST

START_TEST(test_integers_and_fields) {
  cuemu__ptype t = type("int");
  cuemu_parity_compare dflt = {CUEMU_PARITY_DEFAULT, 0, 0, 0, 0};
  int got[4] = {1, 2, 3, -4}, want[4] = {1, 2, 4, -4};
  cuemu__pdiff d;
  ck_assert_int_eq(cuemu__parity_compare("k", "host", &t, &dflt, got, want, 4, &d), 1);
  ck_assert_uint_eq(d.differing, 1);
  TEST_ASSERT_CONTAINS(d.report, "k[2]: got 3, host 4");
  free(d.report);
  cuemu__ptype c = type("cuFloatComplex");
  float zg[4] = {1, 2, 3, 4}, zw[4] = {1, 2, 3, 5};
  cuemu_parity_compare exact = {CUEMU_PARITY_EXACT, 0, 0, 0, 0};
  ck_assert_int_eq(cuemu__parity_compare("z", "host", &c, &exact, zg, zw, 2, &d), 1);
  TEST_ASSERT_CONTAINS(d.report, "z[1].y: got 4, host 5");
  free(d.report);
}
END_TEST

/* 64-bit integers are compared and shown exactly. */
START_TEST(test_int64) {
  cuemu__ptype t = type("long long");
  long long got = (1ll << 53) + 1, want = 1ll << 53;
  cuemu_parity_compare modes[] = {{CUEMU_PARITY_EXACT, 0, 0, 0, 0},
                                  {CUEMU_PARITY_ULPS, 0, 0, 0, 0},
                                  {CUEMU_PARITY_TOLERANCE, 0, 0, 0, 0}};
  for (int m = 0; m < 3; ++m) {
    cuemu__pdiff d;
    ck_assert_int_eq(cuemu__parity_compare("k", "host", &t, &modes[m], &got, &want, 1, &d), 1);
    TEST_ASSERT_CONTAINS(d.report, "k[0]: got 9007199254740993, host 9007199254740992");
    ck_assert(d.max_abs == 1);
    free(d.report);
  }
  cuemu__ptype u = type("uint64_t");
  unsigned long long big = ~0ull, one = 1;
  cuemu__pdiff d;
  ck_assert_int_eq(cuemu__parity_compare("u", "host", &u, &modes[0], &big, &one, 1, &d), 1);
  TEST_ASSERT_CONTAINS(d.report, "got 18446744073709551615, host 1");
  free(d.report);
}
END_TEST

/* The report names the first differences with both values and ulps, and
 * how many elements differ in all. */
START_TEST(test_report) {
  enum { N = 100 };
  float got[N], want[N];
  for (int i = 0; i < N; ++i)
    got[i] = want[i] = (float)i;
  for (int i = 10; i < 30; ++i)
    got[i] = nextafterf(want[i], 1e9f);
  cuemu__ptype t = type("float");
  cuemu_parity_compare exact = {CUEMU_PARITY_EXACT, 0, 0, 0, 0};
  cuemu__pdiff d;
  ck_assert_int_eq(cuemu__parity_compare("out", "host", &t, &exact, got, want, N, &d), 1);
  ck_assert_uint_eq(d.differing, 20);
  ck_assert(d.max_ulps == 1);
  TEST_ASSERT_CONTAINS(d.report, "out[10]: got 10.000001, host 10 (1 ulp)");
  TEST_ASSERT_CONTAINS(d.report, "out[17]");
  ck_assert_ptr_null(strstr(d.report, "out[18]"));
  TEST_ASSERT_CONTAINS(d.report, "20 of 100 elements of out differ");
  free(d.report);
  ck_assert_int_eq(cuemu__parity_compare("out", "host", &t, &exact, want, want, N, &d), 0);
  ck_assert_ptr_null(d.report);
}
END_TEST

/* Issue 17, defect 8: exact is bit for bit for NaNs too (a kernel NaN
 * 0x7fc00001 against a host NaN 0x7fc00002 differs, and the report shows
 * both NaNs' bits); {exact, nan_equal} lets any NaN match any NaN but keeps
 * every other value bit for bit; ulps and rtol/atol match any NaN. */
START_TEST(test_nan_bits) {
  float n1, n2, n1b;
  uint32_t b1 = 0x7fc00001u, b2 = 0x7fc00002u;
  memcpy(&n1, &b1, 4);
  memcpy(&n2, &b2, 4);
  memcpy(&n1b, &b1, 4);
  cuemu_parity_compare exact = {CUEMU_PARITY_EXACT, 0, 0, 0, 0};
  cuemu_parity_compare nan_equal = {CUEMU_PARITY_EXACT, 0, 0, 0, 1};
  cuemu_parity_compare ulps = {CUEMU_PARITY_ULPS, 0, 0, 0, 0};
  cuemu_parity_compare tol = {CUEMU_PARITY_TOLERANCE, 0, 0, 0, 0};
  ck_assert(!floats_agree(n1, n2, exact));
  ck_assert(floats_agree(n1, n1b, exact));
  ck_assert(floats_agree(n1, n2, nan_equal));
  ck_assert(floats_agree(n1, -n2, nan_equal));
  ck_assert(!floats_agree(n1, 1.0f, nan_equal));
  ck_assert(!floats_agree(-0.0f, 0.0f, nan_equal));
  ck_assert(!floats_agree(nextafterf(1.0f, 2.0f), 1.0f, nan_equal));
  ck_assert(floats_agree(n1, n2, ulps));
  ck_assert(floats_agree(n1, n2, tol));
  cuemu__ptype t = type("float");
  cuemu__pdiff d;
  ck_assert_int_eq(cuemu__parity_compare("y", "host", &t, &exact, &n1, &n2, 1, &d), 1);
  TEST_ASSERT_CONTAINS(d.report, "y[0]: got nan (0x7fc00001), host nan (0x7fc00002) (NaNs with other bits)");
  ck_assert_int_eq(d.nshown, 1);
  ck_assert_uint_eq(d.shown[0].index, 0);
  free(d.report);
  /* Doubles too. */
  cuemu__ptype dt = type("double");
  double m1, m2;
  uint64_t c1 = 0x7ff8000000000001ull, c2 = 0x7ff8000000000002ull;
  memcpy(&m1, &c1, 8);
  memcpy(&m2, &c2, 8);
  ck_assert_int_eq(cuemu__parity_compare("z", "host", &dt, &exact, &m1, &m2, 1, &d), 1);
  TEST_ASSERT_CONTAINS(d.report, "nan (0x7ff8000000000001)");
  free(d.report);
  ck_assert_int_eq(cuemu__parity_compare("z", "host", &dt, &nan_equal, &m1, &m2, 1, &d), 0);
  free(d.report);
  /* nan_equal is checked like the other fields of a comparison. */
  char why[256];
  ck_assert_int_eq(cuemu__parity_compare_check(&nan_equal, why, sizeof why), 0);
  cuemu_parity_compare bad_ulps = {CUEMU_PARITY_ULPS, 0, 0, 1, 1};
  ck_assert_int_eq(cuemu__parity_compare_check(&bad_ulps, why, sizeof why), -1);
  TEST_ASSERT_CONTAINS(why, "nan_equal goes with exact");
  cuemu_parity_compare bad_value = {CUEMU_PARITY_EXACT, 0, 0, 0, 7};
  ck_assert_int_eq(cuemu__parity_compare_check(&bad_value, why, sizeof why), -1);
  TEST_ASSERT_CONTAINS(why, "nan_equal is 0 or 1, not 7");
}
END_TEST

/* The error map holds the largest error in ulps of each cell's elements. */
START_TEST(test_error_map) {
  enum { R = 10, C = 20 };
  float got[R * C], want[R * C];
  for (int i = 0; i < R * C; ++i)
    got[i] = want[i] = 1.0f;
  got[0] = nextafterf(1.0f, 2.0f);                         /* 1 ulp */
  got[9 * C + 19] = nextafterf(nextafterf(1.0f, 2.0f), 2.0f); /* 2 ulps */
  got[5 * C + 7] = NAN;
  cuemu__ptype t = type("float");
  double map[5 * 4];
  int fails[5 * 4];
  cuemu_parity_compare ulps1 = {CUEMU_PARITY_ULPS, 0, 0, 1, 0};
  cuemu__parity_error_map(&t, &ulps1, got, want, R, C, 5, 4, map, fails);
  ck_assert(map[0] == 1);
  /* Within 1 ulp passes: only the 2-ulp element and the NaN fail. */
  ck_assert_int_eq(fails[0], 0);
  ck_assert_int_eq(fails[4 * 4 + 3], 1);
  ck_assert_int_eq(fails[2 * 4 + 1], 1);
  ck_assert(map[4 * 4 + 3] == 2);
  ck_assert(isinf(map[2 * 4 + 1])); /* row 5 of 10 -> 2 of 5, col 7 of 20 -> 1 of 4 */
  int nonzero = 0;
  for (int k = 0; k < 20; ++k)
    nonzero += map[k] != 0;
  ck_assert_int_eq(nonzero, 3);
  /* A map as large as the data is the data's own errors. */
  double full[R * C];
  int full_fails[R * C];
  cuemu_parity_compare exact = {CUEMU_PARITY_EXACT, 0, 0, 0, 0};
  cuemu__parity_error_map(&t, &exact, got, want, R, C, R, C, full, full_fails);
  ck_assert(full[0] == 1 && full[1] == 0 && full[9 * C + 19] == 2);
  int failing = 0;
  for (int k = 0; k < R * C; ++k)
    failing += full_fails[k];
  ck_assert_int_eq(failing, 3);
  /* NaNs that differ only in their bits fail bit for bit at 0 ulps. */
  float n1, n2;
  uint32_t b1 = 0x7fc00001u, b2 = 0x7fc00002u;
  memcpy(&n1, &b1, 4);
  memcpy(&n2, &b2, 4);
  double one;
  int one_fails;
  cuemu__parity_error_map(&t, &exact, &n1, &n2, 1, 1, 1, 1, &one, &one_fails);
  ck_assert(one == 0 && one_fails == 1);
}
END_TEST

Suite *make_parity_compare_suite(void) {
  Suite *s = suite_create("parity_compare");
  TCase *tc = test_tcase(s, "compare", 30);
  tcase_add_test(tc, test_ulps);
  tcase_add_test(tc, test_modes);
  tcase_add_test(tc, test_integers_and_fields);
  tcase_add_test(tc, test_report);
  tcase_add_test(tc, test_int64);
  tcase_add_test(tc, test_nan_bits);
  tcase_add_test(tc, test_error_map);
  return s;
}
