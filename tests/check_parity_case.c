/*
 * check_parity_case.c: parity cases: the case file parser (every field,
 * several cases per file, the errors naming file, line and field), the C
 * API building the same case, expressions, generators and argument setup.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parity/cuemu_parity_internal.h"
#include "check_parity_suites.h"
#include "cuemu_test_util.h"

/* Writes `text` to a file in the build tree and returns its path. */
static char *write_case(const char *name, const char *text) {
  char *path = test_tmp_path(name);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs(text, f);
  fclose(f);
  return path;
}

/* Loads a file that must load, with `expect` cases. */
static cuemu_parity_case **load_ok(const char *path, int expect) {
  cuemu_parity_case **cases;
  int n;
  cuemu_status st = cuemu_parity_load(path, &cases, &n);
  ck_assert_msg(st == CUEMU_SUCCESS, "%s", cuemu_parity_last_message());
  ck_assert_int_eq(n, expect);
  return cases;
}

/* Loads a file that must fail, and checks that the message holds `part`. */
static void load_bad(const char *name, const char *text, const char *part) {
  char *path = write_case(name, text);
  cuemu_parity_case **cases;
  int n;
  ck_assert_int_eq(cuemu_parity_load(path, &cases, &n), CUEMU_CASE_INVALID);
  ck_assert_int_eq(n, 0);
  TEST_ASSERT_CONTAINS(cuemu_parity_last_message(), path);
  TEST_ASSERT_CONTAINS(cuemu_parity_last_message(), part);
  free(path);
}

static const char full_case[] =
    "# a case using every field\n"
    "name: everything\n"
    "source: k.cu\n"
    "kernel: \"scale<float, 3>\"\n"
    "options: [-DTILE=32, -Iinc]\n"
    "host: {file: k_host.c, function: scale_host}\n"
    "launch: {threads: [n, 5], block: [64, 2], shared: n * 4}\n"
    "seed: 11\n"
    "structs:\n"
    "  params: [{scale: float}, {count: int}, {offset: double}]\n"
    "args:\n"
    "  - {name: n, type: int, value: 1000}\n"
    "  - {name: half_n, type: unsigned long long, value: \"ceil_div(n, 2)\"}\n"
    "  - {name: p, type: params, value: {scale: 2.5, count: n - 1, offset: -1}}\n"
    "  - {name: z, type: cuFloatComplex, value: [1.5, -2]}\n"
    "  - {name: flag, type: bool, value: true}\n"
    "  - {name: x, type: const float *, size: n, input: {uniform: [-1, 1]}}\n"
    "  - {name: k, type: int *, size: n / 10, input: {integers: [3, 7]}}\n"
    "  - {name: perm, type: int *, size: 50, inout: {permutation: true}, compare: exact}\n"
    "  - {name: y, type: float *, size: n, output: {fill: 7}, compare: {ulps: 4}}\n"
    "  - {name: w, type: double *, size: 3, inout: {values: [1, 2]}, compare: {rtol: 1e-6, atol: 1e-9}}\n"
    "  - {name: c, type: cuDoubleComplex *, size: 4, input: {arange: [10, 0.5]}}\n";

START_TEST(test_load_every_field) {
  char *path = write_case("every.parity.yaml", full_case);
  cuemu_parity_case **cases = load_ok(path, 1);
  cuemu_parity_case *c = cases[0];
  ck_assert_str_eq(cuemu_parity_case_name(c), "everything");
  ck_assert_str_eq(cuemu_parity_case_file(c), path);
  ck_assert_str_eq(c->kernel, "scale<float, 3>");
  TEST_ASSERT_CONTAINS(c->source, "tests/tmp/k.cu");
  TEST_ASSERT_CONTAINS(c->host_file, "tests/tmp/k_host.c");
  ck_assert_str_eq(c->host_function, "scale_host");
  ck_assert_int_eq(c->noptions, 2);
  ck_assert_str_eq(c->options[0], "-DTILE=32");
  TEST_ASSERT_CONTAINS(c->options[1], "tests/tmp/inc");
  ck_assert_int_eq(c->nargs, 11);

  cuemu__psetup s;
  cuemu_status st = cuemu__psetup_build(c, &s);
  ck_assert_msg(st == CUEMU_SUCCESS, "%s", cuemu_parity_last_message());
  /* The grid follows from the thread count. */
  ck_assert_uint_eq(s.block.x, 64);
  ck_assert_uint_eq(s.block.y, 2);
  ck_assert_uint_eq(s.grid.x, 16);
  ck_assert_uint_eq(s.grid.y, 3);
  ck_assert_uint_eq(s.grid.z, 1);
  ck_assert_uint_eq(s.shared, 4000);
  /* Scalars. */
  int n;
  memcpy(&n, s.scalars[0], 4);
  ck_assert_int_eq(n, 1000);
  unsigned long long half;
  memcpy(&half, s.scalars[1], 8);
  ck_assert_uint_eq(half, 500);
  ck_assert_uint_eq(s.types[2].size, 16);
  float scale;
  int count;
  double offset;
  memcpy(&scale, s.scalars[2], 4);
  memcpy(&count, s.scalars[2] + 4, 4);
  memcpy(&offset, s.scalars[2] + 8, 8);
  ck_assert(scale == 2.5f && count == 999 && offset == -1.0);
  float z[2];
  memcpy(z, s.scalars[3], 8);
  ck_assert(z[0] == 1.5f && z[1] == -2.0f);
  ck_assert_int_eq(s.scalars[4][0], 1);
  /* Arrays. */
  ck_assert_uint_eq(s.count[5], 1000);
  const float *x = (const float *)s.init[5];
  for (int i = 0; i < 1000; ++i)
    ck_assert(x[i] >= -1.0f && x[i] < 1.0f);
  ck_assert_uint_eq(s.count[6], 100);
  const int *k = (const int *)s.init[6];
  int seen[10] = {0};
  for (int i = 0; i < 100; ++i) {
    ck_assert(k[i] >= 3 && k[i] < 7);
    seen[k[i]] = 1;
  }
  ck_assert(seen[3] && seen[4] && seen[5] && seen[6]);
  const int *perm = (const int *)s.init[7];
  int hit[50] = {0};
  for (int i = 0; i < 50; ++i)
    hit[perm[i]]++;
  for (int i = 0; i < 50; ++i)
    ck_assert_int_eq(hit[i], 1);
  const float *y = (const float *)s.init[8];
  ck_assert(y[0] == 7.0f && y[999] == 7.0f);
  const double *w = (const double *)s.init[9];
  ck_assert(w[0] == 1 && w[1] == 2 && w[2] == 1);
  const double *cz = (const double *)s.init[10];
  ck_assert(cz[0] == 10 && cz[1] == 10.5 && cz[7] == 13.5);
  ck_assert_int_eq(c->args[8].compare.kind, CUEMU_PARITY_ULPS);
  ck_assert_int_eq(c->args[8].compare.ulps, 4);
  ck_assert_int_eq(c->args[9].compare.kind, CUEMU_PARITY_TOLERANCE);
  ck_assert(c->args[9].compare.rtol == 1e-6 && c->args[9].compare.atol == 1e-9);
  cuemu__psetup_free(&s);
  cuemu_parity_case_free(c);
  free(cases);
  free(path);
}
END_TEST

/* The same seed gives the same inputs; another seed gives others. */
START_TEST(test_generators_are_seeded) {
  char *path = write_case("seeded.parity.yaml", full_case);
  cuemu_parity_case **a = load_ok(path, 1), **b = load_ok(path, 1);
  cuemu__psetup sa, sb;
  ck_assert_int_eq(cuemu__psetup_build(a[0], &sa), CUEMU_SUCCESS);
  ck_assert_int_eq(cuemu__psetup_build(b[0], &sb), CUEMU_SUCCESS);
  ck_assert(memcmp(sa.init[5], sb.init[5], sa.bytes[5]) == 0);
  cuemu__psetup_free(&sb);
  cuemu_parity_case_set_seed(b[0], 12);
  ck_assert_int_eq(cuemu__psetup_build(b[0], &sb), CUEMU_SUCCESS);
  ck_assert(memcmp(sa.init[5], sb.init[5], sa.bytes[5]) != 0);
  cuemu__psetup_free(&sa);
  cuemu__psetup_free(&sb);
  cuemu_parity_case_free(a[0]);
  cuemu_parity_case_free(b[0]);
  free(a);
  free(b);
  free(path);
}
END_TEST

START_TEST(test_normal_generator) {
  cuemu__ptype t;
  char err[256];
  ck_assert_int_eq(cuemu__ptype_resolve(NULL, "double", &t, err, sizeof err), 0);
  enum { N = 20000 };
  double *v = malloc(N * sizeof *v);
  cuemu_parity_generator g = {CUEMU_PARITY_NORMAL, 3.0, 2.0, NULL, 0};
  cuemu__parity_generate(&g, &t, v, N, 5, 0);
  double mean = 0, var = 0;
  for (int i = 0; i < N; ++i)
    mean += v[i] / N;
  for (int i = 0; i < N; ++i)
    var += (v[i] - mean) * (v[i] - mean) / N;
  ck_assert_msg(fabs(mean - 3.0) < 0.1 && fabs(sqrt(var) - 2.0) < 0.1,
                "mean %g, stddev %g", mean, sqrt(var));
  free(v);
}
END_TEST

/* Several documents are several cases; unnamed ones take the file's name. */
START_TEST(test_several_cases) {
  char *path = write_case("pair.parity.yaml",
                          "source: a.cu\nkernel: k\nhost: a.c\n"
                          "launch: {grid: 2, block: 32}\n"
                          "args: [{name: y, type: int *, size: 2, output: {}}]\n"
                          "---\n"
                          "source: a.cu\nkernel: k\nhost: a.c\n"
                          "launch: {grid: [1, 2, 3], block: 32}\n"
                          "args: [{name: y, type: int *, size: 2, output: {}}]\n");
  cuemu_parity_case **cases = load_ok(path, 2);
  ck_assert_str_eq(cuemu_parity_case_name(cases[0]), "pair");
  ck_assert_str_eq(cuemu_parity_case_name(cases[1]), "pair#2");
  ck_assert_str_eq(cases[0]->host_function ? cases[0]->host_function : "", "");
  cuemu__psetup s;
  ck_assert_int_eq(cuemu__psetup_build(cases[1], &s), CUEMU_SUCCESS);
  ck_assert(s.grid.x == 1 && s.grid.y == 2 && s.grid.z == 3);
  cuemu__psetup_free(&s);
  for (int i = 0; i < 2; ++i)
    cuemu_parity_case_free(cases[i]);
  free(cases);
  free(path);
}
END_TEST

static const char head[] = "name: bad\nsource: a.cu\nkernel: k\nhost: a.c\n"
                           "launch: {grid: 1, block: 32}\n";

START_TEST(test_errors_name_file_line_field) {
  load_bad("syntax.parity.yaml", "name: x\nargs: [ {name: n\n", "does not parse as YAML");
  load_bad("empty.parity.yaml", "", "holds no case");
  char text[1024];
  snprintf(text, sizeof text, "%sargs:\n  - {name: n, type: int}\n", head);
  load_bad("novalue.parity.yaml", text, ":7: case 'bad': field 'args[0] (n)': a scalar of type 'int' needs a value");
  snprintf(text, sizeof text, "%sargs:\n  - {name: x, type: float *, size: 4}\n", head);
  load_bad("nokind.parity.yaml", text, "field 'args[0] (x)': an array is one of input, output or inout");
  snprintf(text, sizeof text, "%sargs:\n  - {name: x, type: float *, size: 4, input: {gaussian: [0, 1]}}\n", head);
  load_bad("gen.parity.yaml", text, "unknown generator 'gaussian'");
  snprintf(text, sizeof text, "%sargs:\n  - {name: x, type: float *, size: 4, input: {uniform: [1, 1]}}\n", head);
  load_bad("range.parity.yaml", text, "the range [1, 1) is empty");
  snprintf(text, sizeof text, "%stolerance: 3\nargs: []\n", head);
  load_bad("unknown.parity.yaml", text, ":6: case 'bad': field 'tolerance': unknown field");
  snprintf(text, sizeof text, "%sargs:\n  - {name: y, type: float *, size: 4, output: {}, compare: {ulps: 2, rtol: 1}}\n", head);
  load_bad("cmp.parity.yaml", text, "give either exact or ulps or rtol/atol");
  load_bad("nokernel.parity.yaml", "source: a.cu\nhost: a.c\nlaunch: {grid: 1, block: 1}\nargs: []\n",
           "field 'kernel': missing");
  load_bad("nolaunch.parity.yaml", "source: a.cu\nkernel: k\nhost: a.c\nlaunch: {block: 1}\nargs: []\n",
           "field 'launch': give either grid or threads");
  load_bad("opt.parity.yaml", "source: a.cu\nkernel: k\nhost: a.c\noptions: [-O3]\nlaunch: {grid: 1, block: 1}\nargs: []\n",
           "only -D, -I and -U");
}
END_TEST

/* Errors found when the arguments are built name the field too. */
static void setup_bad(const char *name, const char *args, const char *part) {
  char text[2048];
  snprintf(text, sizeof text, "%sstructs:\n  s2: [{a: float}, {b: int}]\nargs:\n%s",
           head, args);
  char *path = write_case(name, text);
  cuemu_parity_case **cases = load_ok(path, 1);
  cuemu__psetup s;
  ck_assert_int_eq(cuemu__psetup_build(cases[0], &s), CUEMU_CASE_INVALID);
  TEST_ASSERT_CONTAINS(cuemu_parity_last_message(), path);
  TEST_ASSERT_CONTAINS(cuemu_parity_last_message(), part);
  cuemu__psetup_free(&s);
  cuemu_parity_case_free(cases[0]);
  free(cases);
  free(path);
}

START_TEST(test_setup_errors) {
  setup_bad("t1.parity.yaml", "  - {name: x, type: flaot *, size: 4, output: {}}\n",
            "field 'args[0] (x).type': unknown type 'flaot'");
  setup_bad("t2.parity.yaml", "  - {name: x, type: float *, size: m, output: {}}\n",
            "field 'args[0] (x).size': no scalar argument named 'm'");
  setup_bad("t3.parity.yaml", "  - {name: n, type: int, value: n + 1}\n",
            "'n' is defined in terms of itself");
  setup_bad("t4.parity.yaml", "  - {name: v, type: s2, value: {a: 1}}\n",
            "field b of s2 is missing");
  setup_bad("t5.parity.yaml", "  - {name: v, type: s2, value: {a: 1, b: 2, c: 3}}\n",
            "s2 has no field c");
  setup_bad("t6.parity.yaml", "  - {name: v, type: float2, value: [1, 2, 3]}\n",
            "a float2 has 2 fields, not 3");
  setup_bad("t7.parity.yaml",
            "  - {name: n, type: int, value: 4}\n  - {name: n, type: int, value: 5}\n",
            "a second argument named n");
  setup_bad("t8.parity.yaml", "  - {name: f, type: float, value: 1.5}\n"
                              "  - {name: x, type: float *, size: f, output: {}}\n",
            "'f' is not an integer scalar argument");
}
END_TEST

START_TEST(test_expressions) {
  int64_t v;
  char err[256];
  ck_assert_int_eq(cuemu__parity_eval("1 + 2 * 3 - (4 - 1) / 2", NULL, NULL, &v, err, sizeof err), 0);
  ck_assert_int_eq(v, 6);
  ck_assert_int_eq(cuemu__parity_eval("-7 / 2", NULL, NULL, &v, err, sizeof err), 0);
  ck_assert_int_eq(v, -3); /* truncating, as in C */
  ck_assert_int_eq(cuemu__parity_eval("17 % 5 + ceil_div(1000, 256)", NULL, NULL, &v, err, sizeof err), 0);
  ck_assert_int_eq(v, 6);
  ck_assert_int_eq(cuemu__parity_eval("max(3, min(10, 7)) * 0x10", NULL, NULL, &v, err, sizeof err), 0);
  ck_assert_int_eq(v, 112);
  ck_assert_int_eq(cuemu__parity_eval("1 / 0", NULL, NULL, &v, err, sizeof err), -1);
  TEST_ASSERT_CONTAINS(err, "division by zero");
  ck_assert_int_eq(cuemu__parity_eval("2 +", NULL, NULL, &v, err, sizeof err), -1);
  ck_assert_int_eq(cuemu__parity_eval("1.5", NULL, NULL, &v, err, sizeof err), -1);
  TEST_ASSERT_CONTAINS(err, "expected an integer");
  ck_assert_int_eq(cuemu__parity_eval("pow(2, 3)", NULL, NULL, &v, err, sizeof err), -1);
  TEST_ASSERT_CONTAINS(err, "unknown function pow");
  ck_assert_int_eq(cuemu__parity_eval("(1 + 2", NULL, NULL, &v, err, sizeof err), -1);
  TEST_ASSERT_CONTAINS(err, "expected ')'");
  ck_assert_int_eq(cuemu__parity_eval("ceil_div(-3, 2) + 010", NULL, NULL, &v, err, sizeof err), 0);
  ck_assert_int_eq(v, 9); /* -1 + 10: rounded up, and 010 is decimal */
  ck_assert_int_eq(cuemu__parity_eval("4611686018427387904 * 4", NULL, NULL, &v, err, sizeof err), -1);
  TEST_ASSERT_CONTAINS(err, "overflow");
}
END_TEST

START_TEST(test_types) {
  char e[64];
  ck_assert_int_eq(cuemu__ptype_split("const float *__restrict__", e, sizeof e), 1);
  ck_assert_str_eq(e, "float");
  ck_assert_int_eq(cuemu__ptype_split("unsigned  long long", e, sizeof e), 0);
  ck_assert_str_eq(e, "unsigned long long");
  ck_assert(cuemu__ptype_same(NULL, "uint32_t", "unsigned int"));
  ck_assert(cuemu__ptype_same(NULL, "const float*", "float *"));
  ck_assert(cuemu__ptype_same(NULL, "cuFloatComplex", "float2"));
  ck_assert(!cuemu__ptype_same(NULL, "float", "double"));
  ck_assert(!cuemu__ptype_same(NULL, "int", "unsigned int"));
  ck_assert(!cuemu__ptype_same(NULL, "float *", "float"));
  ck_assert(!cuemu__ptype_same(NULL, "float *", "double *"));
  ck_assert(!cuemu__ptype_same(NULL, "float **", "float *"));
  ck_assert_int_eq(cuemu__ptype_split("const int *const *", e, sizeof e), 2);
  cuemu__ptype t;
  char err[256];
  ck_assert_int_eq(cuemu__ptype_resolve(NULL, "double2", &t, err, sizeof err), 0);
  ck_assert(t.size == 16 && t.align == 16 && t.nfields == 2);
  ck_assert_int_eq(cuemu__ptype_resolve(NULL, "float3", &t, err, sizeof err), 0);
  ck_assert(t.size == 12 && t.align == 4);
  ck_assert_int_eq(cuemu__ptype_resolve(NULL, "__half", &t, err, sizeof err), 0);
  /* __half fields round to nearest even and read back exactly. */
  unsigned char h[2];
  cuemu__pfield_set(&t.fields[0], h, 1.0 + 1.0 / 2048); /* a tie: to even */
  ck_assert(cuemu__pfield_get(&t.fields[0], h) == 1.0);
  cuemu__pfield_set(&t.fields[0], h, 65504);
  ck_assert(cuemu__pfield_get(&t.fields[0], h) == 65504);
  cuemu__pfield_set(&t.fields[0], h, 1e6);
  ck_assert(isinf(cuemu__pfield_get(&t.fields[0], h)));
  cuemu__pfield_set(&t.fields[0], h, ldexp(1, -24));
  ck_assert(cuemu__pfield_get(&t.fields[0], h) == ldexp(1, -24));
  /* Rounded once from the double: 0.1 is 0x2e66, and a value a hair above
   * a tie rounds up (through float it would tie to even). */
  unsigned short bits;
  cuemu__pfield_set(&t.fields[0], &bits, 0.1);
  ck_assert_uint_eq(bits, 0x2e66);
  cuemu__pfield_set(&t.fields[0], &bits, 1.0 + ldexp(1, -11) + 1e-12);
  ck_assert_uint_eq(bits, 0x3c01);
  ck_assert_int_eq(cuemu__ptype_resolve(NULL, "__nv_bfloat16", &t, err, sizeof err), 0);
  cuemu__pfield_set(&t.fields[0], h, 3.0);
  ck_assert(cuemu__pfield_get(&t.fields[0], h) == 3.0);
}
END_TEST

/* The C API builds the same case as a file. */
START_TEST(test_api_matches_file) {
  char *path = write_case("api.parity.yaml",
                          "name: api\nsource: k.cu\nkernel: k\nhost: k.c\n"
                          "launch: {threads: n, block: 128}\nseed: 3\n"
                          "structs:\n  pr: [{a: float}, {b: int}]\n"
                          "args:\n"
                          "  - {name: n, type: int, value: 300}\n"
                          "  - {name: p, type: pr, value: {a: 0.5, b: n}}\n"
                          "  - {name: x, type: const float *, size: n, input: {normal: [0, 1]}}\n"
                          "  - {name: y, type: float *, size: n, output: {fill: 1}, compare: {ulps: 2}}\n");
  cuemu_parity_case **cases = load_ok(path, 1);
  cuemu_parity_case *c;
  ck_assert_int_eq(cuemu_parity_case_new(&c, "api"), CUEMU_SUCCESS);
  ck_assert_int_eq(cuemu_parity_case_set_kernel(c, "k.cu", "k"), CUEMU_SUCCESS);
  ck_assert_int_eq(cuemu_parity_case_set_host(c, "k.c", NULL), CUEMU_SUCCESS);
  ck_assert_int_eq(cuemu_parity_case_set_threads(c, "n", NULL, NULL), CUEMU_SUCCESS);
  ck_assert_int_eq(cuemu_parity_case_set_block(c, "128", NULL, NULL), CUEMU_SUCCESS);
  cuemu_parity_case_set_seed(c, 3);
  const char *fn[] = {"a", "b"}, *ft[] = {"float", "int"};
  ck_assert_int_eq(cuemu_parity_case_add_struct(c, "pr", 2, fn, ft), CUEMU_SUCCESS);
  ck_assert_int_eq(cuemu_parity_case_add_scalar(c, "n", "int", "300"), CUEMU_SUCCESS);
  ck_assert_int_eq(cuemu_parity_case_add_scalar(c, "p", "pr", "{a: 0.5, b: n}"), CUEMU_SUCCESS);
  cuemu_parity_generator g = {CUEMU_PARITY_NORMAL, 0, 1, NULL, 0};
  cuemu_parity_compare cmp = {CUEMU_PARITY_ULPS, 0, 0, 2, 0};
  ck_assert_int_eq(cuemu_parity_case_add_array(c, "x", "const float *", CUEMU_PARITY_INPUT, "n", &g, 0, NULL), CUEMU_SUCCESS);
  ck_assert_int_eq(cuemu_parity_case_add_array(c, "y", "float *", CUEMU_PARITY_OUTPUT, "n", NULL, 1, &cmp), CUEMU_SUCCESS);
  /* Refused in code as in files. */
  ck_assert_int_eq(cuemu_parity_case_add_array(c, "z", "float", CUEMU_PARITY_OUTPUT, "n", NULL, 0, NULL), CUEMU_INVALID_VALUE);
  TEST_ASSERT_CONTAINS(cuemu_parity_last_message(), "needs a pointer type");
  ck_assert_int_eq(cuemu_parity_case_add_scalar(c, "q", "int *", "1"), CUEMU_INVALID_VALUE);

  cuemu__psetup a, b;
  ck_assert_int_eq(cuemu__psetup_build(cases[0], &a), CUEMU_SUCCESS);
  ck_assert_int_eq(cuemu__psetup_build(c, &b), CUEMU_SUCCESS);
  ck_assert(a.grid.x == 3 && b.grid.x == 3);
  ck_assert(memcmp(a.scalars[1], b.scalars[1], 8) == 0);
  ck_assert(memcmp(a.init[2], b.init[2], a.bytes[2]) == 0);
  ck_assert(memcmp(a.init[3], b.init[3], a.bytes[3]) == 0);
  cuemu__psetup_free(&a);
  cuemu__psetup_free(&b);
  cuemu_parity_case_free(c);
  cuemu_parity_case_free(cases[0]);
  free(cases);
  free(path);
}
END_TEST

/* Guarded buffers: canaries find writes just past either end. */
START_TEST(test_buffers) {
  float init[5] = {1, 2, 3, 4, 5};
  cuemu__pbuffer b;
  ck_assert_int_eq(cuemu__pbuffer_alloc(&b, init, sizeof init), 0);
  ck_assert_uint_eq((uintptr_t)b.data % 256, 0);
  ck_assert(memcmp(b.data, init, sizeof init) == 0);
  long off;
  ck_assert_int_eq(cuemu__pbuffer_damaged(&b, &off), 0);
  b.data[sizeof init + 3] = 0;
  ck_assert_int_eq(cuemu__pbuffer_damaged(&b, &off), 1);
  ck_assert_int_eq(off, (long)sizeof init + 3);
  ck_assert(cuemu__pbuffer_near(&b, b.data + sizeof init + 3));
  ck_assert(!cuemu__pbuffer_near(&b, b.data + 2));
  cuemu__pbuffer_free(&b);
}
END_TEST

/* Hostile or careless files fail with a message, never a crash. */
START_TEST(test_limits_and_validation) {
  char text[2048];
  snprintf(text, sizeof text, "%sargs:\n  - {name: n, type: int, value: &a [*a]}\n", head);
  load_bad("alias.parity.yaml", text, "too deeply nested or too large");
  snprintf(text, sizeof text,
           "%sargs:\n  - {name: n, type: int, value: [&a [1,1,1,1,1,1,1,1,1,1], "
           "&b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a], &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b], "
           "&d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c], [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]]}\n",
           head);
  load_bad("laughs.parity.yaml", text, "too deeply nested or too large");
  snprintf(text, sizeof text, "%sargs:\n  - {name: k, type: int *, size: 4, input: {integers: [0, 0.5]}}\n", head);
  load_bad("intfrac.parity.yaml", text, "integers takes whole bounds");
  snprintf(text, sizeof text, "%sargs:\n  - {name: y, type: int *, size: 4, output: {}, compare: {ulps: 1.5e300}}\n", head);
  load_bad("ulps.parity.yaml", text, "expected a whole number");
  snprintf(text, sizeof text, "%sseed: 1e300\nargs: []\n", head);
  load_bad("seed.parity.yaml", text, "field 'seed': expected a whole number");
  snprintf(text, sizeof text, "%sargs:\n  - {name: y, type: int *, size: 4, output: {}, compare: {}}\n", head);
  load_bad("cmpempty.parity.yaml", text, "expected exact, {exact: true, nan_equal: true}, {ulps: N} or {rtol: R, atol: A}");
  snprintf(text, sizeof text, "%sargs:\n  - {name: p, type: int *, size: 4, inout: {permutation: false}}\n", head);
  load_bad("perm.parity.yaml", text, "write {permutation: true}");
  snprintf(text, sizeof text, "%skernel: other\nargs: []\n", head);
  load_bad("dup.parity.yaml", text, "field 'kernel': given twice");
  /* Through the C API as well. */
  cuemu_parity_case *c;
  ck_assert_int_eq(cuemu_parity_case_new(&c, "v"), CUEMU_SUCCESS);
  cuemu_parity_generator g = {CUEMU_PARITY_INTEGERS, 5, 5, NULL, 0};
  ck_assert_int_eq(cuemu_parity_case_add_array(c, "k", "int *", CUEMU_PARITY_INPUT, "4", &g, 0, NULL), CUEMU_INVALID_VALUE);
  TEST_ASSERT_CONTAINS(cuemu_parity_last_message(), "integers takes whole bounds");
  cuemu_parity_compare neg = {CUEMU_PARITY_TOLERANCE, -1, 0, 0, 0};
  ck_assert_int_eq(cuemu_parity_case_add_array(c, "y", "int *", CUEMU_PARITY_OUTPUT, "4", NULL, 0, &neg), CUEMU_INVALID_VALUE);
  ck_assert_int_eq(cuemu_parity_case_add_array(c, "y", "float **", CUEMU_PARITY_OUTPUT, "4", NULL, 0, NULL), CUEMU_INVALID_VALUE);
  TEST_ASSERT_CONTAINS(cuemu_parity_last_message(), "arrays of pointers are not supported");
  cuemu_parity_case_free(c);
  /* A case must compare something. */
  snprintf(text, sizeof text, "%sargs:\n  - {name: x, type: int *, size: 4, input: {constant: 1}}\n", head);
  char *path = write_case("nocompare.parity.yaml", text);
  cuemu_parity_case **cases = load_ok(path, 1);
  cuemu__psetup s;
  ck_assert_int_eq(cuemu__psetup_build(cases[0], &s), CUEMU_CASE_INVALID);
  TEST_ASSERT_CONTAINS(cuemu_parity_last_message(), "the case compares nothing");
  cuemu__psetup_free(&s);
  cuemu_parity_case_free(cases[0]);
  free(cases);
  free(path);
  /* One tolerance given: the other is NumPy's default. */
  snprintf(text, sizeof text, "%sargs:\n  - {name: y, type: float *, size: 4, output: {}, compare: {rtol: 0.5}}\n", head);
  path = write_case("onetol.parity.yaml", text);
  cases = load_ok(path, 1);
  ck_assert(cases[0]->args[0].compare.rtol == 0.5 && cases[0]->args[0].compare.atol == 1e-8);
  /* The default name drops .parity.yaml only. */
  cuemu_parity_case_free(cases[0]);
  free(cases);
  free(path);
  path = write_case("my.dotted.parity.yaml", "source: a.cu\nkernel: k\nhost: a.c\n"
                    "launch: {grid: 1, block: 1}\nargs: [{name: y, type: int *, size: 1, output: {}}]\n");
  cases = load_ok(path, 1);
  ck_assert_str_eq(cuemu_parity_case_name(cases[0]), "my.dotted");
  cuemu_parity_case_free(cases[0]);
  free(cases);
  free(path);
}
END_TEST

/* Integer scalars must fit their type; 64-bit unsigned values may be past
 * INT64_MAX. */
START_TEST(test_scalar_ranges) {
  setup_bad("r1.parity.yaml", "  - {name: c, type: char, value: 300}\n", "300 does not fit a 8-bit integer");
  setup_bad("r2.parity.yaml", "  - {name: b, type: bool, value: 2}\n", "does not fit a 8-bit bool");
  setup_bad("r3.parity.yaml", "  - {name: u, type: unsigned int, value: -1}\n", "-1 does not fit a 32-bit unsigned integer");
  setup_bad("r4.parity.yaml", "  - {name: n, type: long long, value: \"(-9223372036854775807 - 1) / -1\"}\n", "overflow");
  char text[1024];
  snprintf(text, sizeof text, "%sargs:\n  - {name: u, type: unsigned long long, value: 18446744073709551615}\n"
           "  - {name: y, type: int *, size: 1, output: {}}\n", head);
  char *path = write_case("u64.parity.yaml", text);
  cuemu_parity_case **cases = load_ok(path, 1);
  cuemu__psetup s;
  ck_assert_int_eq(cuemu__psetup_build(cases[0], &s), CUEMU_SUCCESS);
  unsigned long long u;
  memcpy(&u, s.scalars[0], 8);
  ck_assert(u == 18446744073709551615ull);
  cuemu__psetup_free(&s);
  cuemu_parity_case_free(cases[0]);
  free(cases);
  free(path);
}
END_TEST

/* The saxpy example built in code, with the host implementation `host`. */
static cuemu_parity_case *saxpy_case(const char *host) {
  cuemu_parity_case *c;
  char *src = test_src_path("examples/saxpy/saxpy.cu");
  ck_assert_int_eq(cuemu_parity_case_new(&c, "saxpy_api"), CUEMU_SUCCESS);
  ck_assert_int_eq(cuemu_parity_case_set_kernel(c, src, "saxpy"), CUEMU_SUCCESS);
  ck_assert_int_eq(cuemu_parity_case_set_host(c, host, NULL), CUEMU_SUCCESS);
  ck_assert_int_eq(cuemu_parity_case_set_threads(c, "n", NULL, NULL), CUEMU_SUCCESS);
  ck_assert_int_eq(cuemu_parity_case_set_block(c, "96", NULL, NULL), CUEMU_SUCCESS);
  ck_assert_int_eq(cuemu_parity_case_add_scalar(c, "n", "int", "1000"), CUEMU_SUCCESS);
  ck_assert_int_eq(cuemu_parity_case_add_scalar(c, "a", "float", "-1.25"), CUEMU_SUCCESS);
  cuemu_parity_generator u = {CUEMU_PARITY_UNIFORM, -2, 2, NULL, 0};
  cuemu_parity_compare exact = {CUEMU_PARITY_EXACT, 0, 0, 0, 0};
  ck_assert_int_eq(cuemu_parity_case_add_array(c, "x", "const float *", CUEMU_PARITY_INPUT, "n", &u, 0, NULL), CUEMU_SUCCESS);
  ck_assert_int_eq(cuemu_parity_case_add_array(c, "y", "float *", CUEMU_PARITY_INOUT, "n", &u, 0, &exact), CUEMU_SUCCESS);
  free(src);
  return c;
}

/* A case built in code runs every leg; a wrong host implementation is a
 * mismatch naming the output and the first indices. */
START_TEST(test_api_run) {
  char *good = test_src_path("examples/saxpy/saxpy_host.c");
  cuemu_parity_case *c = saxpy_case(good);
  cuemu_parity_options o;
  memset(&o, 0, sizeof o);
  o.schedules = "forward,reverse";
  cuemu_parity_result r;
  cuemu_status st = cuemu_parity_case_run(c, &o, &r);
  ck_assert_msg(st == CUEMU_SUCCESS, "%s: %s", cuemu_status_name(st), r.message);
  ck_assert_int_eq(r.legs[CUEMU_PARITY_LEG_HOST], CUEMU_PARITY_PASS);
  ck_assert_int_eq(r.legs[CUEMU_PARITY_LEG_EMULATED], CUEMU_PARITY_PASS);
  ck_assert_int_eq(r.legs[CUEMU_PARITY_LEG_NVRTC], CUEMU_PARITY_PASS);
  ck_assert(r.max_ulps == 0);
  cuemu_parity_result_free(&r);
  cuemu_parity_case_free(c);

  char *bad = test_tmp_path("saxpy_wrong_host.c");
  FILE *f = fopen(bad, "w");
  fputs("#include <math.h>\n"
        "void saxpy(int n, float a, const float *x, float *y) {\n"
        "  for (int i = 0; i < n; ++i) y[i] = fmaf(a, x[i], y[i]) + (i == 700);\n"
        "}\n", f);
  fclose(f);
  c = saxpy_case(bad);
  o.no_gpu = 1;
  ck_assert_int_eq(cuemu_parity_case_run(c, &o, &r), CUEMU_MISMATCH);
  ck_assert_int_eq(r.legs[CUEMU_PARITY_LEG_EMULATED], CUEMU_PARITY_FAIL);
  ck_assert_int_eq(r.legs[CUEMU_PARITY_LEG_NVRTC], CUEMU_PARITY_NOT_RUN);
  TEST_ASSERT_CONTAINS(r.message, "emulated (forward): output y differs from the host:");
  TEST_ASSERT_CONTAINS(r.message, "  y[700]: got ");
  cuemu_parity_result_free(&r);
  cuemu_parity_case_free(c);
  free(good);
  free(bad);
}
END_TEST

/* Issue 17, defect 8: the YAML forms of exact, nan_equal and their
 * validation; the C API refuses nan_equal where it means nothing. */
START_TEST(test_nan_equal) {
  char text[2048];
  snprintf(text, sizeof text,
           "%sargs:\n"
           "  - {name: a, type: float *, size: 4, output: {}, compare: exact}\n"
           "  - {name: b, type: float *, size: 4, output: {}, compare: {exact: true}}\n"
           "  - {name: c, type: float *, size: 4, output: {}, compare: {exact: true, nan_equal: true}}\n"
           "  - {name: d, type: float *, size: 4, output: {}, compare: {exact: true, nan_equal: false}}\n",
           head);
  char *path = write_case("nan_equal.parity.yaml", text);
  cuemu_parity_case **cases = load_ok(path, 1);
  for (int i = 0; i < 4; ++i)
    ck_assert_int_eq(cases[0]->args[i].compare.kind, CUEMU_PARITY_EXACT);
  ck_assert_int_eq(cases[0]->args[0].compare.nan_equal, 0);
  ck_assert_int_eq(cases[0]->args[1].compare.nan_equal, 0);
  ck_assert_int_eq(cases[0]->args[2].compare.nan_equal, 1);
  ck_assert_int_eq(cases[0]->args[3].compare.nan_equal, 0);
  cuemu_parity_case_free(cases[0]);
  free(cases);
  free(path);
  snprintf(text, sizeof text, "%sargs:\n  - {name: y, type: float *, size: 4, output: {}, compare: {ulps: 2, nan_equal: true}}\n", head);
  load_bad("nan_ulps.parity.yaml", text, "field 'args[0] (y).compare': nan_equal goes with exact");
  snprintf(text, sizeof text, "%sargs:\n  - {name: y, type: float *, size: 4, output: {}, compare: {nan_equal: true}}\n", head);
  load_bad("nan_alone.parity.yaml", text, "nan_equal goes with exact");
  snprintf(text, sizeof text, "%sargs:\n  - {name: y, type: float *, size: 4, output: {}, compare: {exact: true, nan_equal: yes please}}\n", head);
  load_bad("nan_word.parity.yaml", text, "field 'args[0] (y).compare.nan_equal': expected true or false");
  snprintf(text, sizeof text, "%sargs:\n  - {name: y, type: float *, size: 4, output: {}, compare: {exact: false}}\n", head);
  load_bad("exact_false.parity.yaml", text, "compare.exact': expected true");
  snprintf(text, sizeof text, "%sargs:\n  - {name: y, type: float *, size: 4, output: {}, compare: {exact: true, ulps: 1}}\n", head);
  load_bad("exact_ulps.parity.yaml", text, "give either exact or ulps or rtol/atol");
  cuemu_parity_case *c;
  ck_assert_int_eq(cuemu_parity_case_new(&c, "api"), CUEMU_SUCCESS);
  cuemu_parity_compare ok = {CUEMU_PARITY_EXACT, 0, 0, 0, 1};
  cuemu_parity_compare tol = {CUEMU_PARITY_TOLERANCE, 1e-3, 0, 0, 1};
  cuemu_parity_compare two = {CUEMU_PARITY_EXACT, 0, 0, 0, 2};
  ck_assert_int_eq(cuemu_parity_case_add_array(c, "y", "float *", CUEMU_PARITY_OUTPUT, "4", NULL, 0, &ok), CUEMU_SUCCESS);
  ck_assert_int_eq(cuemu_parity_case_add_array(c, "z", "float *", CUEMU_PARITY_OUTPUT, "4", NULL, 0, &tol), CUEMU_INVALID_VALUE);
  TEST_ASSERT_CONTAINS(cuemu_parity_last_message(), "argument z: nan_equal goes with exact");
  ck_assert_int_eq(cuemu_parity_case_add_array(c, "z", "float *", CUEMU_PARITY_OUTPUT, "4", NULL, 0, &two), CUEMU_INVALID_VALUE);
  TEST_ASSERT_CONTAINS(cuemu_parity_last_message(), "nan_equal is 0 or 1, not 2");
  cuemu_parity_case_free(c);
}
END_TEST

/* shape: gives an output rows and columns; it is checked against the
 * size, in files and through the C API. */
START_TEST(test_shape) {
  char text[2048];
  snprintf(text, sizeof text,
           "%sargs:\n  - {name: r, type: int, value: 3}\n"
           "  - {name: y, type: float *, size: r * 4, output: {}, shape: [r, 4]}\n",
           head);
  char *path = write_case("shape.parity.yaml", text);
  cuemu_parity_case **cases = load_ok(path, 1);
  cuemu__psetup s;
  ck_assert_int_eq(cuemu__psetup_build(cases[0], &s), CUEMU_SUCCESS);
  ck_assert_uint_eq(s.rows[1], 3);
  ck_assert_uint_eq(s.cols[1], 4);
  cuemu__psetup_free(&s);
  cuemu_parity_case_free(cases[0]);
  free(cases);
  free(path);
  setup_bad("shape_size.parity.yaml",
            "  - {name: y, type: float *, size: 12, output: {}, shape: [5, 4]}\n",
            "field 'args[0] (y).shape': 5 by 4 elements is not the array's size (12)");
  snprintf(text, sizeof text, "%sargs:\n  - {name: y, type: float *, size: 12, output: {}, shape: 12}\n", head);
  load_bad("shape_one.parity.yaml", text, "field 'args[0] (y).shape': expected [rows, columns]");
  snprintf(text, sizeof text, "%sargs:\n  - {name: x, type: const float *, size: 12, input: {constant: 1}, shape: [3, 4]}\n", head);
  load_bad("shape_input.parity.yaml", text, "an input has no shape");
  cuemu_parity_case *c;
  ck_assert_int_eq(cuemu_parity_case_new(&c, "api"), CUEMU_SUCCESS);
  cuemu_parity_generator u = {CUEMU_PARITY_UNIFORM, 0, 1, NULL, 0};
  ck_assert_int_eq(cuemu_parity_case_add_array(c, "x", "const float *", CUEMU_PARITY_INPUT, "6", &u, 0, NULL), CUEMU_SUCCESS);
  ck_assert_int_eq(cuemu_parity_case_add_array(c, "y", "float *", CUEMU_PARITY_OUTPUT, "6", NULL, 0, NULL), CUEMU_SUCCESS);
  ck_assert_int_eq(cuemu_parity_case_set_shape(c, "y", "2", "3"), CUEMU_SUCCESS);
  ck_assert_int_eq(cuemu_parity_case_set_shape(c, "x", "2", "3"), CUEMU_INVALID_VALUE);
  ck_assert_int_eq(cuemu_parity_case_set_shape(c, "w", "2", "3"), CUEMU_INVALID_VALUE);
  TEST_ASSERT_CONTAINS(cuemu_parity_last_message(), "the case has no array w");
  cuemu_parity_case_free(c);
}
END_TEST

/* Issue 17, defect 9: two cases of one name in a file are refused, naming
 * both lines. */
START_TEST(test_duplicate_names) {
  char text[2048];
  snprintf(text, sizeof text, "%sargs: []\n---\n%sargs: []\n", head, head);
  load_bad("dupnames.parity.yaml", text,
           "dupnames.parity.yaml:8: case 'bad' is declared twice: at ");
  char *path = test_tmp_path("dupnames.parity.yaml");
  char where[1200];
  snprintf(where, sizeof where, "%s:1 and at %s:8", path, path);
  cuemu_parity_case **cases;
  int n;
  ck_assert_int_eq(cuemu_parity_load(path, &cases, &n), CUEMU_CASE_INVALID);
  TEST_ASSERT_CONTAINS(cuemu_parity_last_message(), where);
  free(path);
}
END_TEST

/* Issue 17, defect 7, through the C API in this process: a host
 * implementation writing 64 elements past y faults in the guard region
 * and the case fails naming y and the offset; the process goes on. */
START_TEST(test_api_host_overrun) {
  char *bad = test_tmp_path("saxpy_overrun_host.c");
  FILE *f = fopen(bad, "w");
  fputs("void saxpy(int n, float a, const float *x, float *y) {\n"
        "  for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];\n"
        "  ((volatile float *)y)[n + 64] = 0;\n"
        "}\n", f);
  fclose(f);
  cuemu_parity_case *c = saxpy_case(bad);
  cuemu_parity_options o;
  memset(&o, 0, sizeof o);
  o.no_gpu = 1;
  cuemu_parity_result r;
  ck_assert_int_eq(cuemu_parity_case_run(c, &o, &r), CUEMU_HOST_FAULT);
  ck_assert_int_eq(r.legs[CUEMU_PARITY_LEG_HOST], CUEMU_PARITY_FAIL);
  TEST_ASSERT_CONTAINS(r.message, "the host implementation saxpy wrote out of bounds "
                                  "of array y: byte offset 4256 of an array of 4000 bytes");
  cuemu_parity_result_free(&r);
  cuemu_parity_case_free(c);
  free(bad);
}
END_TEST

Suite *make_parity_case_suite(void) {
  Suite *s = suite_create("parity_case");
  TCase *tc = test_tcase(s, "parser", 30);
  tcase_add_test(tc, test_load_every_field);
  tcase_add_test(tc, test_generators_are_seeded);
  tcase_add_test(tc, test_normal_generator);
  tcase_add_test(tc, test_several_cases);
  tcase_add_test(tc, test_errors_name_file_line_field);
  tcase_add_test(tc, test_setup_errors);
  tcase_add_test(tc, test_expressions);
  tcase_add_test(tc, test_types);
  tcase_add_test(tc, test_api_matches_file);
  tcase_add_test(tc, test_buffers);
  tcase_add_test(tc, test_limits_and_validation);
  tcase_add_test(tc, test_scalar_ranges);
  tcase_add_test(tc, test_nan_equal);
  tcase_add_test(tc, test_shape);
  tcase_add_test(tc, test_duplicate_names);
  tc = test_tcase(s, "run", 120);
  tcase_add_test(tc, test_api_run);
  tcase_add_test(tc, test_api_host_overrun);
  return s;
}
