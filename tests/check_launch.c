/*
 * check_launch.c: loading modules, finding kernels (plain, extern "C", in
 * namespaces, template instantiations), parameter descriptors, arguments
 * passed by value, launches refused before anything runs, and launch shapes
 * at CUDA's limits with every thread run exactly once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_suites.h"
#include "cuemu_test_util.h"

/* ---- Modules ------------------------------------------------------------- */

START_TEST(load_missing_file) {
  cuemu_module *m = (cuemu_module *)&m; /* must be reset to NULL */
  char *path = test_tmp_path("no-such-module.so");
  unlink(path);
  ck_assert_int_eq(cuemu_module_load(&m, path), CUEMU_MODULE_LOAD);
  ck_assert_ptr_null(m);
  TEST_ASSERT_CONTAINS(cuemu_last_message(), path);
  free(path);
}
END_TEST

START_TEST(load_text_file) {
  char *path = test_tmp_path("not-a-module.so");
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs("this is not a shared object\n", f);
  fclose(f);
  cuemu_module *m = NULL;
  ck_assert_int_eq(cuemu_module_load(&m, path), CUEMU_MODULE_LOAD);
  ck_assert_ptr_null(m);
  TEST_ASSERT_CONTAINS(cuemu_last_message(), path);
  unlink(path);
  free(path);
}
END_TEST

/* A real shared object that cuemu-cc did not build: libcuemu itself. */
START_TEST(load_library_that_is_not_a_module) {
  const char *libdir = getenv("CUEMU_LIB_DIR");
  ck_assert_ptr_nonnull(libdir);
  char path[4096];
  snprintf(path, sizeof path, "%s/libcuemu.so", libdir);
  ck_assert_int_eq(access(path, R_OK), 0);
  cuemu_module *m = NULL;
  ck_assert_int_eq(cuemu_module_load(&m, path), CUEMU_MODULE_LOAD);
  ck_assert_ptr_null(m);
  TEST_ASSERT_CONTAINS(cuemu_last_message(), path);
  TEST_ASSERT_CONTAINS(cuemu_last_message(), "not a cuemu module");
}
END_TEST

START_TEST(load_null_arguments) {
  cuemu_module *m = NULL;
  ck_assert_int_eq(cuemu_module_load(NULL, "x.so"), CUEMU_INVALID_VALUE);
  ck_assert_int_eq(cuemu_module_load(&m, NULL), CUEMU_INVALID_VALUE);
  ck_assert_int_eq(cuemu_module_unload(NULL), CUEMU_SUCCESS);
}
END_TEST

/* ---- Kernel lookup ------------------------------------------------------- */

/* tests/kernels/launch_shapes.cu built with g++ (test_compiler(0)), as
 * param_ctype_spelling_is_compiler_independent builds it too: one build of
 * the file with g++ in the suite, not another with the default compiler
 * (c++, which is g++ too, under another key of the compile cache). */
static cuemu_module *shapes_module(void) {
  return test_module_cxx("launch_shapes.cu", test_compiler(0), NULL, 0);
}

START_TEST(lookup_plain_namespaced_and_extern_c) {
  cuemu_module *m = shapes_module();
  ck_assert_int_eq(cuemu_module_kernel_count(m), 10);
  static const char *names[] = {
      "record_coords", "count_threads",  "set_flag",         "touch_shared",
      "params_scalars", "params_struct", "params_vector",    "params_half",
      "ns::in_namespace", "cxx_linkage"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
    cuemu_kernel *k = NULL;
    ck_assert_int_eq(cuemu_module_get_kernel(m, names[i], &k), CUEMU_SUCCESS);
    ck_assert_ptr_nonnull(k);
    ck_assert_str_eq(cuemu_kernel_name(k), names[i]);
  }
  /* Every kernel is listed once, by index. */
  for (int i = 0; i < cuemu_module_kernel_count(m); ++i) {
    cuemu_kernel *k = cuemu_module_kernel_at(m, i);
    ck_assert_ptr_nonnull(k);
    cuemu_kernel *again = NULL;
    ck_assert_int_eq(cuemu_module_get_kernel(m, cuemu_kernel_name(k), &again),
                     CUEMU_SUCCESS);
    ck_assert_ptr_eq(again, k);
  }
  ck_assert_ptr_null(cuemu_module_kernel_at(m, -1));
  ck_assert_ptr_null(cuemu_module_kernel_at(m, 10));

  /* The namespaced and C++-linkage kernels run. */
  int out = 0, *op = &out;
  void *args[] = {&op};
  ck_assert_int_eq(
      test_launch1(test_kernel(m, "ns::in_namespace"), 1, 1, args, 1),
      CUEMU_SUCCESS);
  ck_assert_int_eq(out, 42);
  ck_assert_int_eq(test_launch1(test_kernel(m, "cxx_linkage"), 1, 1, args, 1),
                   CUEMU_SUCCESS);
  ck_assert_int_eq(out, 7);
  cuemu_module_unload(m);
}
END_TEST

START_TEST(lookup_unknown_kernel) {
  cuemu_module *m = shapes_module();
  cuemu_kernel *k = (cuemu_kernel *)&k;
  ck_assert_int_eq(cuemu_module_get_kernel(m, "no_such_kernel", &k),
                   CUEMU_KERNEL_NOT_FOUND);
  ck_assert_ptr_null(k);
  TEST_ASSERT_CONTAINS(cuemu_last_message(), "no_such_kernel");
  /* Names are case-sensitive and complete. */
  ck_assert_int_eq(cuemu_module_get_kernel(m, "Set_Flag", &k),
                   CUEMU_KERNEL_NOT_FOUND);
  ck_assert_int_eq(cuemu_module_get_kernel(m, "set_fla", &k),
                   CUEMU_KERNEL_NOT_FOUND);
  ck_assert_int_eq(cuemu_module_get_kernel(m, "set_flag2", &k),
                   CUEMU_KERNEL_NOT_FOUND);
  ck_assert_int_eq(cuemu_module_get_kernel(m, "", &k), CUEMU_KERNEL_NOT_FOUND);
  ck_assert_int_eq(cuemu_module_get_kernel(m, NULL, &k), CUEMU_INVALID_VALUE);
  ck_assert_int_eq(cuemu_module_get_kernel(m, "set_flag", NULL),
                   CUEMU_INVALID_VALUE);
  ck_assert_int_eq(cuemu_module_get_kernel(NULL, "set_flag", &k),
                   CUEMU_INVALID_VALUE);
  cuemu_module_unload(m);
}
END_TEST

static const char *const template_exprs[] = {"scale<double, 3>",
                                             "ns::shift<int>"};

START_TEST(lookup_templates) {
  cuemu_module *m = test_module_cxx("templates.cu", NULL, template_exprs, 2);
  ck_assert_int_eq(cuemu_module_kernel_count(m), 3);
  static const struct {
    const char *query, *name;
  } found[] = {
      {"scale<double, 3>", "scale<double, 3>"},
      {"scale<double,3>", "scale<double, 3>"},
      {" scale < double ,  3 > ", "scale<double, 3>"},
      {"ns::shift<int>", "ns::shift<int>"},
      {"ns::shift< int >", "ns::shift<int>"},
      {"plain", "plain"},
  };
  for (size_t i = 0; i < sizeof found / sizeof found[0]; ++i) {
    cuemu_kernel *k = NULL;
    ck_assert_msg(cuemu_module_get_kernel(m, found[i].query, &k) ==
                      CUEMU_SUCCESS,
                  "'%s' not found: %s", found[i].query, cuemu_last_message());
    ck_assert_str_eq(cuemu_kernel_name(k), found[i].name);
  }
  static const char *missing[] = {"scale",           "scale<float, 3>",
                                  "scale<double, 4>", "shift<int>",
                                  "ns::shift<long>",  "scale<doub le, 3>"};
  for (size_t i = 0; i < sizeof missing / sizeof missing[0]; ++i) {
    cuemu_kernel *k = NULL;
    ck_assert_msg(cuemu_module_get_kernel(m, missing[i], &k) ==
                      CUEMU_KERNEL_NOT_FOUND,
                  "'%s' was found", missing[i]);
    TEST_ASSERT_CONTAINS(cuemu_last_message(), missing[i]);
  }

  /* The instantiations run with their template arguments. */
  double d[5] = {1, 2, 3, 4, 5};
  double *dp = d;
  int n = 4;
  void *sargs[] = {&dp, &n};
  ck_assert_int_eq(
      test_launch1(test_kernel(m, "scale<double,3>"), 2, 3, sargs, 2),
      CUEMU_SUCCESS);
  for (int i = 0; i < 4; ++i)
    ck_assert_double_eq(d[i], 3.0 * (i + 1));
  ck_assert_double_eq(d[4], 5.0);
  int v[3] = {10, 20, 30};
  int *vp = v, by = -7;
  n = 3;
  void *hargs[] = {&vp, &by, &n};
  ck_assert_int_eq(
      test_launch1(test_kernel(m, "ns::shift<int>"), 1, 32, hargs, 3),
      CUEMU_SUCCESS);
  ck_assert_int_eq(v[0], 3);
  ck_assert_int_eq(v[1], 13);
  ck_assert_int_eq(v[2], 23);
  cuemu_module_unload(m);
}
END_TEST

/* Without name expressions, only the plain kernel is exported. */
START_TEST(templates_need_name_expressions) {
  cuemu_module *m = test_module("templates.cu");
  ck_assert_int_eq(cuemu_module_kernel_count(m), 1);
  ck_assert_str_eq(cuemu_kernel_name(cuemu_module_kernel_at(m, 0)), "plain");
  cuemu_kernel *k = NULL;
  ck_assert_int_eq(cuemu_module_get_kernel(m, "scale<double, 3>", &k),
                   CUEMU_KERNEL_NOT_FOUND);
  TEST_ASSERT_CONTAINS(cuemu_last_message(), "scale<double, 3>");
  cuemu_module_unload(m);
}
END_TEST

/* ---- Parameter descriptors ------------------------------------------------ */

/* The C type without white space, so that "const float *" (clang++) and
 * "const float*" (g++) compare equal here. */
static void squeeze(const char *in, char *out, size_t size) {
  size_t k = 0;
  for (; *in && k + 1 < size; ++in)
    if (*in != ' ')
      out[k++] = *in;
  out[k] = '\0';
}

static void check_param(const cuemu_kernel *k, int i, const char *ctype,
                        size_t size, size_t align) {
  const cuemu_param *p = cuemu_kernel_param(k, i);
  ck_assert_msg(p != NULL, "%s: no parameter %d", cuemu_kernel_name(k), i);
  char got[256], want[256];
  squeeze(p->ctype, got, sizeof got);
  squeeze(ctype, want, sizeof want);
  ck_assert_msg(strcmp(got, want) == 0, "%s: parameter %d is '%s', not '%s'",
                cuemu_kernel_name(k), i, p->ctype, ctype);
  ck_assert_msg(p->size == size, "%s: parameter %d has size %zu, not %zu",
                cuemu_kernel_name(k), i, p->size, size);
  ck_assert_msg(p->align == align,
                "%s: parameter %d has alignment %zu, not %zu",
                cuemu_kernel_name(k), i, p->align, align);
}

struct mixed {
  float x;
  double y;
  char c;
};

START_TEST(param_descriptors) {
  cuemu_module *m = shapes_module();
  cuemu_kernel *k = test_kernel(m, "params_scalars");
  ck_assert_int_eq(cuemu_kernel_param_count(k), 6);
  check_param(k, 0, "int", sizeof(int), _Alignof(int));
  check_param(k, 1, "float", sizeof(float), _Alignof(float));
  check_param(k, 2, "double", sizeof(double), _Alignof(double));
  check_param(k, 3, "int *", sizeof(void *), _Alignof(void *));
  check_param(k, 4, "const float *", sizeof(void *), _Alignof(void *));
  check_param(k, 5, "double *", sizeof(void *), _Alignof(void *));
  ck_assert_ptr_null(cuemu_kernel_param(k, 6));
  ck_assert_ptr_null(cuemu_kernel_param(k, -1));

  k = test_kernel(m, "params_struct");
  ck_assert_int_eq(cuemu_kernel_param_count(k), 5);
  check_param(k, 0, "mixed", sizeof(struct mixed), _Alignof(struct mixed));
  ck_assert_int_eq(cuemu_kernel_param(k, 0)->size, 24);
  ck_assert_int_eq(cuemu_kernel_param(k, 0)->align, 8);
  check_param(k, 1, "mixed *", sizeof(void *), _Alignof(void *));

  k = test_kernel(m, "params_vector");
  ck_assert_int_eq(cuemu_kernel_param_count(k), 3);
  check_param(k, 0, "char", 1, 1);
  check_param(k, 1, "float4", 16, 16);
  check_param(k, 2, "float4 *", sizeof(void *), _Alignof(void *));

  k = test_kernel(m, "params_half");
  ck_assert_int_eq(cuemu_kernel_param_count(k), 2);
  check_param(k, 0, "__half", 2, 2);
  check_param(k, 1, "float *", sizeof(void *), _Alignof(void *));

  k = test_kernel(m, "set_flag");
  ck_assert_int_eq(cuemu_kernel_param_count(k), 1);
  check_param(k, 0, "int *", sizeof(void *), _Alignof(void *));
  cuemu_module_unload(m);
}
END_TEST

/* The C type names do not depend on the compiler that built the module:
 * cuemu.h documents the spelling "const float *", and bindings (Python)
 * match on it. */
START_TEST(param_ctype_spelling_is_compiler_independent) {
  const char *gxx = test_tool("GXX"), *clangxx = test_tool("CLANGXX");
  if (!gxx || !clangxx)
    return; /* only one compiler configured: nothing to compare */
  static const struct {
    const char *kernel;
    int param;
    const char *ctype;
  } expect[] = {
      {"params_scalars", 3, "int *"},
      {"params_scalars", 4, "const float *"},
      {"params_struct", 1, "mixed *"},
      {"count_threads", 0, "unsigned long long *"},
      {"record_coords", 0, "unsigned int *"},
  };
  const char *compilers[] = {gxx, clangxx};
  for (int c = 0; c < 2; ++c) {
    cuemu_module *m = test_module_cxx("launch_shapes.cu", compilers[c], NULL, 0);
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; ++i) {
      const cuemu_param *p =
          cuemu_kernel_param(test_kernel(m, expect[i].kernel), expect[i].param);
      ck_assert_ptr_nonnull(p);
      ck_assert_msg(strcmp(p->ctype, expect[i].ctype) == 0,
                    "with %s, %s parameter %d is spelt '%s', not '%s'",
                    compilers[c], expect[i].kernel, expect[i].param, p->ctype,
                    expect[i].ctype);
    }
    cuemu_module_unload(m);
  }
}
END_TEST

START_TEST(scalars_arrive) {
  cuemu_module *m = shapes_module();
  int a = -123456, pv = 99;
  float b = 1.5f, qv = -0.25f;
  double c = 1e300, out[5] = {0};
  int *p = &pv;
  const float *q = &qv;
  double *o = out;
  void *args[] = {&a, &b, &c, &p, &q, &o};
  ck_assert_int_eq(
      test_launch1(test_kernel(m, "params_scalars"), 1, 1, args, 6),
      CUEMU_SUCCESS);
  ck_assert_double_eq(out[0], -123456.0);
  ck_assert_double_eq(out[1], 1.5);
  ck_assert_double_eq(out[2], 1e300);
  ck_assert_double_eq(out[3], 99.0);
  ck_assert_double_eq(out[4], -0.25);
  cuemu_module_unload(m);
}
END_TEST

START_TEST(struct_by_value_arrives_intact) {
  cuemu_module *m = shapes_module();
  struct mixed s;
  memset(&s, 0, sizeof s);
  s.x = 3.25f;
  s.y = -2.0e-300;
  s.c = 'Q';
  struct mixed out;
  memset(&out, 0xAB, sizeof out);
  float x = 0;
  double y = 0;
  char c = 0;
  struct mixed *op = &out;
  float *xp = &x;
  double *yp = &y;
  char *cp = &c;
  void *args[] = {&s, &op, &xp, &yp, &cp};
  ck_assert_int_eq(test_launch1(test_kernel(m, "params_struct"), 1, 1, args, 5),
                   CUEMU_SUCCESS);
  ck_assert_float_eq(x, 3.25f);
  ck_assert_double_eq(y, -2.0e-300);
  ck_assert_int_eq(c, 'Q');
  ck_assert_float_eq(out.x, 3.25f);
  ck_assert_double_eq(out.y, -2.0e-300);
  ck_assert_int_eq(out.c, 'Q');
  cuemu_module_unload(m);
}
END_TEST

START_TEST(vector_and_half_arrive) {
  cuemu_module *m = shapes_module();
  /* float4 is 16-byte aligned; pass it from an aligned location. */
  _Alignas(16) float v[4] = {1.0f, -2.0f, 3.5f, 1e30f};
  _Alignas(16) float out[4] = {0};
  char pad = 2;
  float *op = out;
  void *args[] = {&pad, v, &op};
  ck_assert_int_eq(test_launch1(test_kernel(m, "params_vector"), 1, 1, args, 3),
                   CUEMU_SUCCESS);
  ck_assert_float_eq(out[0], 3.0f);
  ck_assert_float_eq(out[1], -2.0f);
  ck_assert_float_eq(out[2], 3.5f);
  ck_assert_float_eq(out[3], 1e30f);

  /* 0x3E00 is 1.5 in binary16, 0xC500 is -5.0. */
  unsigned short h = 0x3E00;
  float f = 0;
  float *fp = &f;
  void *hargs[] = {&h, &fp};
  cuemu_kernel *k = test_kernel(m, "params_half");
  ck_assert_int_eq(test_launch1(k, 1, 1, hargs, 2), CUEMU_SUCCESS);
  ck_assert_float_eq(f, 1.5f);
  h = 0xC500;
  ck_assert_int_eq(test_launch1(k, 1, 1, hargs, 2), CUEMU_SUCCESS);
  ck_assert_float_eq(f, -5.0f);
  cuemu_module_unload(m);
}
END_TEST

/* ---- Launches refused before anything runs -------------------------------- */

/* Launches set_flag with the given shape and checks the status, that the
 * message names the kernel and contains `part`, and that nothing ran. */
static void refused(cuemu_kernel *k, cuemu_dim3 grid, cuemu_dim3 block,
                    size_t shared, cuemu_status want, const char *part) {
  int flag = 0;
  int *fp = &flag;
  void *args[] = {&fp};
  cuemu_status st = cuemu_kernel_launch(k, grid, block, shared, NULL, args, 1);
  ck_assert_msg(st == want,
                "grid (%u,%u,%u) block (%u,%u,%u) shared %zu: %s, not %s (%s)",
                grid.x, grid.y, grid.z, block.x, block.y, block.z, shared,
                cuemu_status_name(st), cuemu_status_name(want),
                cuemu_last_message());
  ck_assert_int_eq(flag, 0);
  TEST_ASSERT_CONTAINS(cuemu_last_message(), "set_flag");
  if (part)
    TEST_ASSERT_CONTAINS(cuemu_last_message(), part);
}

START_TEST(bad_grid_dims) {
  cuemu_module *m = shapes_module();
  cuemu_kernel *k = test_kernel(m, "set_flag");
  cuemu_dim3 one = test_dim(1, 1, 1);
  refused(k, test_dim(0, 1, 1), one, 0, CUEMU_INVALID_GRID_DIM, "(0,1,1)");
  refused(k, test_dim(1, 0, 1), one, 0, CUEMU_INVALID_GRID_DIM, "(1,0,1)");
  refused(k, test_dim(1, 1, 0), one, 0, CUEMU_INVALID_GRID_DIM, "(1,1,0)");
  refused(k, test_dim(1, 65536, 1), one, 0, CUEMU_INVALID_GRID_DIM,
          "(1,65536,1)");
  refused(k, test_dim(1, 1, 65536), one, 0, CUEMU_INVALID_GRID_DIM,
          "(1,1,65536)");
  refused(k, test_dim(0x80000000u, 1, 1), one, 0, CUEMU_INVALID_GRID_DIM,
          "(2147483648,1,1)");
  cuemu_module_unload(m);
}
END_TEST

START_TEST(bad_block_dims) {
  cuemu_module *m = shapes_module();
  cuemu_kernel *k = test_kernel(m, "set_flag");
  cuemu_dim3 one = test_dim(1, 1, 1);
  refused(k, one, test_dim(0, 1, 1), 0, CUEMU_INVALID_BLOCK_DIM, "(0,1,1)");
  refused(k, one, test_dim(1, 0, 1), 0, CUEMU_INVALID_BLOCK_DIM, "(1,0,1)");
  refused(k, one, test_dim(1, 1, 0), 0, CUEMU_INVALID_BLOCK_DIM, "(1,1,0)");
  refused(k, one, test_dim(1025, 1, 1), 0, CUEMU_INVALID_BLOCK_DIM,
          "(1025,1,1)");
  refused(k, one, test_dim(1, 1025, 1), 0, CUEMU_INVALID_BLOCK_DIM,
          "(1,1025,1)");
  refused(k, one, test_dim(1, 1, 65), 0, CUEMU_INVALID_BLOCK_DIM, "(1,1,65)");
  /* Each dimension within its limit, but too many threads in all. */
  refused(k, one, test_dim(32, 32, 2), 0, CUEMU_TOO_MANY_THREADS, "2048");
  refused(k, one, test_dim(1024, 2, 1), 0, CUEMU_TOO_MANY_THREADS, "2048");
  refused(k, one, test_dim(33, 32, 1), 0, CUEMU_TOO_MANY_THREADS, "1056");
  refused(k, one, test_dim(1, 1024, 64), 0, CUEMU_TOO_MANY_THREADS, "65536");
  cuemu_module_unload(m);
}
END_TEST

START_TEST(bad_argument_lists) {
  cuemu_module *m = shapes_module();
  cuemu_kernel *k = test_kernel(m, "set_flag");
  int flag = 0;
  int *fp = &flag;
  void *args[] = {&fp, &fp};
  cuemu_dim3 one = test_dim(1, 1, 1);
  ck_assert_int_eq(cuemu_kernel_launch(k, one, one, 0, NULL, args, 2),
                   CUEMU_ARGUMENT_COUNT);
  TEST_ASSERT_CONTAINS(cuemu_last_message(), "set_flag");
  TEST_ASSERT_CONTAINS(cuemu_last_message(), "takes 1 argument; 2 given");
  ck_assert_int_eq(cuemu_kernel_launch(k, one, one, 0, NULL, args, 0),
                   CUEMU_ARGUMENT_COUNT);
  TEST_ASSERT_CONTAINS(cuemu_last_message(), "takes 1 argument; 0 given");
  ck_assert_int_eq(cuemu_kernel_launch(k, one, one, 0, NULL, NULL, 1),
                   CUEMU_ARGUMENT_COUNT);
  TEST_ASSERT_CONTAINS(cuemu_last_message(), "set_flag");
  void *null_args[] = {NULL};
  ck_assert_int_eq(cuemu_kernel_launch(k, one, one, 0, NULL, null_args, 1),
                   CUEMU_INVALID_VALUE);
  TEST_ASSERT_CONTAINS(cuemu_last_message(), "set_flag");
  TEST_ASSERT_CONTAINS(cuemu_last_message(), "argument 0");
  ck_assert_int_eq(flag, 0);

  cuemu_kernel *ks = test_kernel(m, "params_scalars");
  int a = 0;
  void *six[] = {&a, &a, &a, &a, NULL, &a};
  ck_assert_int_eq(cuemu_kernel_launch(ks, one, one, 0, NULL, six, 5),
                   CUEMU_ARGUMENT_COUNT);
  TEST_ASSERT_CONTAINS(cuemu_last_message(), "takes 6 arguments; 5 given");
  ck_assert_int_eq(cuemu_kernel_launch(ks, one, one, 0, NULL, six, 6),
                   CUEMU_INVALID_VALUE);
  TEST_ASSERT_CONTAINS(cuemu_last_message(), "argument 4");

  ck_assert_int_eq(cuemu_kernel_launch(NULL, one, one, 0, NULL, args, 1),
                   CUEMU_INVALID_VALUE);
  /* And a good launch still runs. */
  ck_assert_int_eq(cuemu_kernel_launch(k, one, one, 0, NULL, args, 1),
                   CUEMU_SUCCESS);
  ck_assert_int_eq(flag, 1);
  cuemu_module_unload(m);
}
END_TEST

static cuemu_status touch(cuemu_kernel *k, size_t bytes, int *flag) {
  unsigned b = (unsigned)bytes;
  int *fp = flag;
  void *args[] = {&fp, &b};
  *flag = 0;
  return cuemu_kernel_launch(k, test_dim(2, 1, 1), test_dim(32, 1, 1), bytes,
                             NULL, args, 2);
}

START_TEST(dynamic_shared_limits) {
  cuemu_module *m = shapes_module();
  cuemu_kernel *k = test_kernel(m, "touch_shared");
  int flag = 0;
  ck_assert_int_eq(touch(k, 48 * 1024, &flag), CUEMU_SUCCESS);
  ck_assert_int_eq(flag, 3);
  ck_assert_int_eq(touch(k, 48 * 1024 + 1, &flag), CUEMU_SHARED_MEMORY_LIMIT);
  ck_assert_int_eq(flag, 0);
  TEST_ASSERT_CONTAINS(cuemu_last_message(), "touch_shared");
  TEST_ASSERT_CONTAINS(cuemu_last_message(), "49153");

  /* Raised to the opt-in maximum, 227 KiB runs and one byte more does not. */
  ck_assert_int_eq(cuemu_kernel_set_max_dynamic_shared(k, 227 * 1024),
                   CUEMU_SUCCESS);
  ck_assert_int_eq(touch(k, 227 * 1024, &flag), CUEMU_SUCCESS);
  ck_assert_int_eq(flag, 3);
  ck_assert_int_eq(touch(k, 227 * 1024 + 1, &flag),
                   CUEMU_SHARED_MEMORY_LIMIT);
  ck_assert_int_eq(flag, 0);
  TEST_ASSERT_CONTAINS(cuemu_last_message(), "touch_shared");

  /* The setter refuses more than the opt-in maximum, and keeps the limit. */
  ck_assert_int_eq(cuemu_kernel_set_max_dynamic_shared(k, 227 * 1024 + 1),
                   CUEMU_INVALID_VALUE);
  TEST_ASSERT_CONTAINS(cuemu_last_message(), "touch_shared");
  ck_assert_int_eq(touch(k, 227 * 1024, &flag), CUEMU_SUCCESS);
  ck_assert_int_eq(flag, 3);
  ck_assert_int_eq(cuemu_kernel_set_max_dynamic_shared(NULL, 1024),
                   CUEMU_INVALID_VALUE);

  /* The limit is per kernel: set_flag still has the default. */
  int f2 = 0;
  int *fp = &f2;
  void *args[] = {&fp};
  ck_assert_int_eq(cuemu_kernel_launch(test_kernel(m, "set_flag"),
                                       test_dim(1, 1, 1), test_dim(1, 1, 1),
                                       64 * 1024, NULL, args, 1),
                   CUEMU_SHARED_MEMORY_LIMIT);
  ck_assert_int_eq(f2, 0);
  cuemu_module_unload(m);
}
END_TEST

/* ---- Launch shapes --------------------------------------------------------- */

#define RECORD_WORDS 12

/* Runs record_coords with the given shape and checks that every thread ran
 * exactly once and saw its own coordinates and the launch's dimensions. */
static void run_shape(cuemu_module *m, cuemu_dim3 g, cuemu_dim3 b) {
  size_t nthreads = (size_t)b.x * b.y * b.z;
  size_t total = (size_t)g.x * g.y * g.z * nthreads;
  unsigned *records = malloc(total * RECORD_WORDS * sizeof *records);
  unsigned *counts = calloc(total, sizeof *counts);
  ck_assert_ptr_nonnull(records);
  ck_assert_ptr_nonnull(counts);
  memset(records, 0xFF, total * RECORD_WORDS * sizeof *records);
  void *args[] = {&records, &counts};
  cuemu_status st = cuemu_kernel_launch(test_kernel(m, "record_coords"), g, b,
                                        0, NULL, args, 2);
  ck_assert_msg(st == CUEMU_SUCCESS, "grid (%u,%u,%u) block (%u,%u,%u): %s",
                g.x, g.y, g.z, b.x, b.y, b.z, cuemu_last_message());
  size_t id = 0;
  for (unsigned bz = 0; bz < g.z; ++bz)
    for (unsigned by = 0; by < g.y; ++by)
      for (unsigned bx = 0; bx < g.x; ++bx)
        for (unsigned tz = 0; tz < b.z; ++tz)
          for (unsigned ty = 0; ty < b.y; ++ty)
            for (unsigned tx = 0; tx < b.x; ++tx, ++id) {
              const unsigned want[RECORD_WORDS] = {tx,  ty,  tz,  bx,
                                                   by,  bz,  b.x, b.y,
                                                   b.z, g.x, g.y, g.z};
              const unsigned *r = records + id * RECORD_WORDS;
              if (counts[id] != 1 ||
                  memcmp(r, want, sizeof want) != 0)
                ck_abort_msg("grid (%u,%u,%u) block (%u,%u,%u): thread "
                             "(%u,%u,%u) of block (%u,%u,%u) ran %u times and "
                             "saw threadIdx (%u,%u,%u) blockIdx (%u,%u,%u) "
                             "blockDim (%u,%u,%u) gridDim (%u,%u,%u)",
                             g.x, g.y, g.z, b.x, b.y, b.z, tx, ty, tz, bx, by,
                             bz, counts[id], r[0], r[1], r[2], r[3], r[4],
                             r[5], r[6], r[7], r[8], r[9], r[10], r[11]);
            }
  free(records);
  free(counts);
}

START_TEST(block_shapes_at_the_limits) {
  cuemu_module *m = shapes_module();
  run_shape(m, test_dim(2, 1, 1), test_dim(1024, 1, 1));
  run_shape(m, test_dim(1, 2, 1), test_dim(1, 1024, 1));
  run_shape(m, test_dim(1, 1, 2), test_dim(1, 1, 64));
  run_shape(m, test_dim(2, 1, 1), test_dim(8, 8, 16));
  run_shape(m, test_dim(1, 1, 1), test_dim(32, 32, 1));
  run_shape(m, test_dim(3, 2, 2), test_dim(5, 3, 7));
  run_shape(m, test_dim(1, 1, 1), test_dim(1, 1, 1));
  cuemu_module_unload(m);
}
END_TEST

START_TEST(large_grids) {
  cuemu_module *m = shapes_module();
  run_shape(m, test_dim(70000, 1, 1), test_dim(1, 1, 1));
  run_shape(m, test_dim(1, 65535, 1), test_dim(1, 1, 1));
  run_shape(m, test_dim(1, 1, 65535), test_dim(1, 1, 1));
  run_shape(m, test_dim(2, 3, 5), test_dim(2, 2, 2));
  cuemu_module_unload(m);
}
END_TEST

/* Grid y and z both at their maximum: counted, not recorded. */
START_TEST(grid_y_and_z_at_their_maximum) {
  cuemu_module *m = shapes_module();
  unsigned long long total = 0, *tp = &total;
  void *args[] = {&tp};
  ck_assert_int_eq(cuemu_kernel_launch(test_kernel(m, "count_threads"),
                                       test_dim(1, 65535, 3),
                                       test_dim(2, 1, 1), 0, NULL, args, 1),
                   CUEMU_SUCCESS);
  ck_assert_uint_eq(total, 65535ull * 3 * 2);
  cuemu_module_unload(m);
}
END_TEST

START_TEST(device_limits_are_configurable) {
  /* CUEMU_DEVICE sets the emulated device's per-block limits, read once per
   * process (this test runs in a child of its own). */
  test_setenv("CUEMU_DEVICE", "threads=256,smem=100");
  cuemu_module *m = shapes_module();
  cuemu_kernel *k = test_kernel(m, "set_flag");
  int flag = 0, *pf = &flag;
  void *args[] = {&pf};
  ck_assert_int_eq(test_launch1(k, 1, 512, args, 1), CUEMU_TOO_MANY_THREADS);
  TEST_ASSERT_CONTAINS(cuemu_last_message(), "at most 256");
  ck_assert_int_eq(flag, 0);
  TEST_ASSERT_LAUNCH_OK(test_launch1(k, 1, 256, args, 1));
  ck_assert_int_eq(flag, 1);
  ck_assert_int_eq(cuemu_kernel_set_max_dynamic_shared(k, 101 * 1024),
                   CUEMU_INVALID_VALUE);
  ck_assert_int_eq(cuemu_kernel_set_max_dynamic_shared(k, 100 * 1024),
                   CUEMU_SUCCESS);
  /* The device's properties and the kernel's attributes say the same. */
  long long v = 0;
  ck_assert_int_eq(cuemu_device_get_property("maxThreadsPerBlock", &v),
                   CUEMU_SUCCESS);
  ck_assert_int_eq(v, 256);
  ck_assert_int_eq(cuemu_device_get_property("sharedMemPerBlockOptin", &v),
                   CUEMU_SUCCESS);
  ck_assert_int_eq(v, 100 * 1024);
  cuemu_kernel_attributes a;
  ck_assert_int_eq(cuemu_kernel_get_attributes(k, &a), CUEMU_SUCCESS);
  ck_assert_uint_eq(a.max_threads_per_block, 256);
  ck_assert_uint_eq(a.max_dynamic_shared_bytes, 100 * 1024);
  unsigned blocks = 0;
  ck_assert_int_eq(cuemu_kernel_max_cooperative_blocks(k, test_dim(512, 1, 1),
                                                       0, &blocks),
                   CUEMU_INVALID_VALUE);
  ck_assert_int_eq(cuemu_device_get_property("noSuchProperty", &v),
                   CUEMU_INVALID_VALUE);
  cuemu_module_unload(m);
}
END_TEST

START_TEST(a_stream_that_is_not_one_is_refused) {
  /* The C API takes NULL or a stream of the runtime API; anything else is
   * INVALID_HANDLE with a message, and nothing runs. */
  cuemu_module *m = shapes_module();
  cuemu_kernel *k = test_kernel(m, "set_flag");
  int flag = 0, *pf = &flag;
  void *args[] = {&pf};
  int not_a_stream = 0;
  ck_assert_int_eq(cuemu_kernel_launch(k, test_dim(1, 1, 1),
                                       test_dim(1, 1, 1), 0,
                                       (cuemu_stream *)&not_a_stream, args, 1),
                   CUEMU_INVALID_HANDLE);
  TEST_ASSERT_CONTAINS(cuemu_last_message(), "not a valid stream");
  ck_assert_int_eq(flag, 0);
  ck_assert_int_eq(cuemu_kernel_launch(k, test_dim(1, 1, 1),
                                       test_dim(1, 1, 1), 0, NULL, NULL, 1),
                   CUEMU_ARGUMENT_COUNT);
  TEST_ASSERT_CONTAINS(cuemu_last_message(), "but args is NULL");
  cuemu_module_unload(m);
}
END_TEST

START_TEST(bad_device_setting_fails_every_launch) {
  /* A malformed CUEMU_DEVICE fails every launch with one message naming the
   * variable, instead of being ignored. */
  test_setenv("CUEMU_DEVICE", "threads=lots");
  cuemu_module *m = shapes_module();
  cuemu_kernel *k = test_kernel(m, "set_flag");
  int flag = 0, *pf = &flag;
  void *args[] = {&pf};
  ck_assert_int_eq(test_launch1(k, 1, 32, args, 1), CUEMU_INVALID_VALUE);
  TEST_ASSERT_CONTAINS(cuemu_last_message(), "CUEMU_DEVICE");
  TEST_ASSERT_CONTAINS(cuemu_last_message(), "threads=lots");
  ck_assert_int_eq(test_launch1(k, 1, 32, args, 1), CUEMU_INVALID_VALUE);
  ck_assert_int_eq(flag, 0);
  cuemu_module_unload(m);
}
END_TEST

START_TEST(static_shared_memory_is_known) {
  /* A kernel's static __shared__ variables are known from the module's
   * load, before any launch: cudaFuncGetAttributes' sharedSizeBytes, and
   * static plus dynamic shared memory against the device's limit. */
  const char *exprs[] = {"buffered<float, 32>"};
  cuemu_module *m = test_module_cxx("static_shared.cu", NULL, exprs, 1);
  cuemu_kernel *tiled = test_kernel(m, "tiled");
  cuemu_kernel *buffered = test_kernel(m, "buffered<float, 32>");
  cuemu_kernel_attributes a;
  ck_assert_int_eq(cuemu_kernel_get_attributes(tiled, &a), CUEMU_SUCCESS);
  ck_assert_uint_eq(a.static_shared_bytes, 16 * 17 * sizeof(double));
  ck_assert_int_eq(cuemu_kernel_get_attributes(buffered, &a), CUEMU_SUCCESS);
  ck_assert_uint_eq(a.static_shared_bytes, 32 * sizeof(float) + sizeof(int));
  float out[32], *po = out;
  void *args[] = {&po};
  TEST_ASSERT_LAUNCH_OK(test_launch1(tiled, 1, 16, args, 1));
  TEST_ASSERT_LAUNCH_OK(test_launch1(buffered, 1, 32, args, 1));
  ck_assert(out[0] == 32.0f && out[31] == 1.0f);
  /* Launches add nothing. */
  TEST_ASSERT_LAUNCH_OK(test_launch1(tiled, 1, 16, args, 1));
  ck_assert_int_eq(cuemu_kernel_get_attributes(tiled, &a), CUEMU_SUCCESS);
  ck_assert_uint_eq(a.static_shared_bytes, 16 * 17 * sizeof(double));
  ck_assert_int_eq(cuemu_kernel_get_attributes(buffered, &a), CUEMU_SUCCESS);
  ck_assert_uint_eq(a.static_shared_bytes, 32 * sizeof(float) + sizeof(int));
  /* Static plus dynamic past the device's 227 KiB is refused. */
  ck_assert_int_eq(cuemu_kernel_set_max_dynamic_shared(tiled, 227 * 1024),
                   CUEMU_SUCCESS);
  ck_assert_int_eq(cuemu_kernel_launch(tiled, test_dim(1, 1, 1),
                                       test_dim(16, 1, 1), 227 * 1024, NULL,
                                       args, 1),
                   CUEMU_SHARED_MEMORY_LIMIT);
  TEST_ASSERT_CONTAINS(cuemu_last_message(), "2176 bytes of static");
  cuemu_module_unload(m);
}
END_TEST

/* Compiles tests/kernels/FILE as a module, which must fail naming the line
 * of its marker and `message`. */
static void check_static_shared_refused(const char *file, const char *marker,
                                        const char *message) {
  char *dir = test_fresh_dir("static-shared");
  char *source = test_join("tests/kernels", file);
  char *path = test_src_path(source);
  char *output = test_join(dir, "bad.so");
  char *log = test_join(dir, "stderr.txt");
  cuemu_compile_options o;
  memset(&o, 0, sizeof o);
  o.module = 1;
  test_capture capture = test_capture_begin(2, log);
  cuemu_status st = cuemu_compile(path, output, &o, NULL);
  test_capture_end(&capture);
  ck_assert_int_eq(st, CUEMU_COMPILE);
  char *text = test_read_text(log, NULL);
  char where[96];
  snprintf(where, sizeof where, "%s:%d:", file, test_marker_line(path, marker));
  TEST_ASSERT_CONTAINS(text, where);
  TEST_ASSERT_CONTAINS(text, message);
  free(text);
  free(log);
  free(output);
  free(path);
  free(source);
  test_rm_rf(dir);
  free(dir);
}

START_TEST(too_much_static_shared_memory_does_not_compile) {
  /* As ptxas: more than 48 KiB of static shared memory is a compile error,
   * naming the variable and the user's line. */
  check_static_shared_refused("bad_static_shared.cu", "TOO_BIG",
                              "'big' is larger than 48 KiB");
}
END_TEST

START_TEST(static_shared_memory_of_a_kernel_body_past_48k_does_not_compile) {
  /* Two rows of a Smith-Waterman kernel, 32 KiB each, 64 KiB together in
   * one instance of the kernel template: as ptxas, a compile error naming
   * both variables and the line of the second (trialbio); it compiled, and
   * its launch failed with "invalid argument". */
  check_static_shared_refused("bad_static_shared_total.cu", "TOO_MUCH",
                              "variables 'h', 'e' of this kernel take more than 48 KiB");
}
END_TEST

START_TEST(static_shared_memory_past_48k_in_all_is_refused) {
  /* Two static tiles, each under 48 KiB, 60 KiB together, one in a
   * __device__ function the kernel calls: ptxas refuses the kernel; its
   * launch fails with a message naming the sizes (it ran before, with 60
   * KiB of static shared memory that no GPU gives). */
  cuemu_module *m = test_module("bad_static_shared_sum.cu");
  cuemu_kernel *k = test_kernel(m, "two_tiles");
  cuemu_kernel_attributes a;
  ck_assert_int_eq(cuemu_kernel_get_attributes(k, &a), CUEMU_SUCCESS);
  ck_assert_uint_eq(a.static_shared_bytes, 2 * 64 * 120 * sizeof(float));
  float out[256], *po = out;
  void *args[] = {&po};
  ck_assert_int_eq(cuemu_kernel_launch(k, test_dim(1, 1, 1),
                                       test_dim(16, 16, 1), 0, NULL, args, 1),
                   CUEMU_SHARED_MEMORY_LIMIT);
  TEST_ASSERT_CONTAINS(cuemu_last_message(),
                       "61440 bytes of static shared memory");
  TEST_ASSERT_CONTAINS(cuemu_last_message(), "at most 49152");
  cuemu_module_unload(m);
}
END_TEST

/* A 1-D block runs as a loop over the global index blockIdx.x * blockDim.x
 * + threadIdx.x, a signed int, while every index of the block's range fits
 * in one (cuemu_kernel_thunks.h, run_threads); else in the general loop.
 * Launches cannot reach 2^31 threads in a test's time, so the module's
 * thunk is called directly, on this thread, with the built-in variables
 * set as a worker sets them: on either side of the limit, where the
 * kernel's 32-bit product wraps past 2^32 (as on a GPU), and for a part of
 * a block of 99 threads. Each thread of the range runs once and computes
 * the index a GPU would; the others do not run. It checks this behaviour
 * only, not which of the two loops ran (both give the same results): the
 * machine-code check of tests/programs_saxpy.sh shows that the loop over
 * global indices is the one compiled without per-thread sign extensions. */
static void check_index_loop(const char *cxx) {
  const cuemu_module_desc *program = test_program_cxx("index_loop.cu", cxx);
  const cuemu_kernel_desc *k = test_program_kernel(program, "record_index");
  static const struct {
    unsigned block, threads, start, count;
  } cases[] = {
      {(1u << 21) - 1, 1024, 0, 1024}, /* the last index is 2^31 - 1 */
      {(1u << 21) - 1, 1024, 0, 1023}, /* one short of it */
      {(1u << 21) - 1, 1024, 1000, 24},
      {(1u << 22) + 5, 1024, 0, 1024}, /* the product wraps to 5120 */
      {3u << 20, 1024, 0, 1024},       /* indices from -2^30 */
      {7, 99, 13, 37},
  };
  static int index[1024];
  static unsigned runs[1024];
  int *pi = index;
  unsigned *pr = runs;
  void *args[] = {&pi, &pr};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    memset(index, 0, sizeof index);
    memset(runs, 0, sizeof runs);
    cuemu_uint3 block = {cases[c].block, 0, 0};
    cuemu_uint3 dim = {cases[c].threads, 1, 1};
    cuemu_uint3 grid = {cases[c].block + 1, 1, 1};
    blockIdx = block;
    blockDim = dim;
    gridDim = grid;
    k->thunk(args, cases[c].start, cases[c].count);
    for (unsigned t = 0; t < cases[c].threads; ++t) {
      int ran = t >= cases[c].start && t < cases[c].start + cases[c].count;
      unsigned global = cases[c].block * cases[c].threads + t;
      ck_assert_msg(runs[t] == (unsigned)ran,
                    "%s, case %zu: thread %u ran %u times", cxx, c, t,
                    runs[t]);
      if (ran)
        ck_assert_msg(index[t] == (int)global,
                      "%s, case %zu: thread %u computed %d, a GPU %d", cxx, c,
                      t, index[t], (int)global);
    }
  }
  cuemu_uint3 zero = {0, 0, 0};
  blockIdx = blockDim = gridDim = threadIdx = zero;
}

/* With g++ (whose plugin passes reshape the loop) and clang++, when
 * configured. */
START_TEST(thunk_index_loop_at_2_31) {
  for (int c = 0; c < 2; ++c)
    if (test_compiler(c))
      check_index_loop(test_compiler(c));
}
END_TEST

Suite *make_launch_suite(void) {
  Suite *s = suite_create("launch");

  TCase *tc = test_tcase(s, "modules", 60);
  tcase_add_test(tc, load_missing_file);
  tcase_add_test(tc, device_limits_are_configurable);
  tcase_add_test(tc, bad_device_setting_fails_every_launch);
  tcase_add_test(tc, a_stream_that_is_not_one_is_refused);
  tcase_add_test(tc, static_shared_memory_is_known);
  tcase_add_test(tc, too_much_static_shared_memory_does_not_compile);
  tcase_add_test(tc, static_shared_memory_of_a_kernel_body_past_48k_does_not_compile);
  tcase_add_test(tc, static_shared_memory_past_48k_in_all_is_refused);
  tcase_add_test(tc, load_text_file);
  tcase_add_test(tc, load_library_that_is_not_a_module);
  tcase_add_test(tc, load_null_arguments);
  tcase_add_test(tc, lookup_plain_namespaced_and_extern_c);
  tcase_add_test(tc, lookup_unknown_kernel);
  tcase_add_test(tc, lookup_templates);
  tcase_add_test(tc, templates_need_name_expressions);

  tc = test_tcase(s, "params", 60);
  tcase_add_test(tc, param_descriptors);
  tcase_add_test(tc, param_ctype_spelling_is_compiler_independent);
  tcase_add_test(tc, scalars_arrive);
  tcase_add_test(tc, struct_by_value_arrives_intact);
  tcase_add_test(tc, vector_and_half_arrive);

  tc = test_tcase(s, "refused", 60);
  tcase_add_test(tc, bad_grid_dims);
  tcase_add_test(tc, bad_block_dims);
  tcase_add_test(tc, bad_argument_lists);
  tcase_add_test(tc, dynamic_shared_limits);

  tc = test_tcase(s, "shapes", 60);
  tcase_add_test(tc, block_shapes_at_the_limits);
  tcase_add_test(tc, large_grids);
  tcase_add_test(tc, grid_y_and_z_at_their_maximum);
  tcase_add_test(tc, thunk_index_loop_at_2_31);
  return s;
}
