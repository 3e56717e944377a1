/*
 * check_selftest.c: runs every self-checking kernel (selftest_*) of
 * tests/kernels/selftest_*.cu through the emulator, built once with g++ and
 * once with clang++, with one block of 32 threads; each kernel counts its
 * failed checks (and prints them, with their file and line) in *failures,
 * which must stay 0.
 *
 * The files are compiled as one module per compiler, a source written to
 * tests/tmp that includes each file in a namespace of its own (as
 * combine_programs in tests/test_tools.sh does for whole programs): the
 * headers that the files include with <...> and selftest.cuh come first, at
 * file scope, and the macros a file defines are undefined after it. The
 * kernels are extern "C", so their names stay selftest_NAME. One compile of
 * the eight files costs far less than eight compiles, whose time is mostly
 * the prelude's.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "cuemu_test_util.h"

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The selftest_*.cu files of `dir`, sorted (so that the combined source,
 * and its compile cache key, are the same in every run); *count set. */
static char **selftest_files(const char *dir, int *count) {
  DIR *d = opendir(dir);
  ck_assert_msg(d != NULL, "cannot open %s", dir);
  char **names = NULL;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (strncmp(e->d_name, "selftest_", 9) != 0 || len < 4 ||
        strcmp(e->d_name + len - 3, ".cu") != 0)
      continue;
    names = realloc(names, (size_t)(n + 1) * sizeof *names);
    ck_assert_ptr_nonnull(names);
    names[n] = strdup(e->d_name);
    ck_assert_ptr_nonnull(names[n]);
    n++;
  }
  closedir(d);
  qsort(names, (size_t)n, sizeof *names, by_name);
  *count = n;
  return names;
}

/* Copies to `out` the lines of `path` that start (after blanks) with
 * `#include <` when `includes`, else `#undef NAME` for each `#define NAME`. */
static void copy_directives(FILE *out, const char *path, int includes) {
  FILE *in = fopen(path, "r");
  ck_assert_msg(in != NULL, "cannot read %s", path);
  char line[4096];
  while (fgets(line, sizeof line, in)) {
    const char *p = line + strspn(line, " \t");
    if (*p != '#')
      continue;
    p += 1 + strspn(p + 1, " \t");
    if (includes && strncmp(p, "include", 7) == 0 &&
        p[7 + strspn(p + 7, " \t")] == '<') {
      fputs(line, out);
    } else if (!includes && strncmp(p, "define", 6) == 0 &&
               (p[6] == ' ' || p[6] == '\t')) {
      p += 6 + strspn(p + 6, " \t");
      size_t len = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvw"
                             "xyz0123456789_");
      fprintf(out, "#undef %.*s\n", (int)len, p);
    }
  }
  fclose(in);
}

/* Writes tests/tmp/selftest_all.cu from the files; returns its path. */
static char *combine_selftests(const char *dir, char **files, int n) {
  char *path = test_tmp_path("selftest_all.cu");
  FILE *out = fopen(path, "w");
  ck_assert_msg(out != NULL, "cannot write %s", path);
  fprintf(out, "// Written by tests/check_selftest.c: tests/kernels/"
               "selftest_*.cu as one module.\n");
  for (int i = 0; i < n; ++i) {
    char *file = test_join(dir, files[i]);
    copy_directives(out, file, 1);
    free(file);
  }
  fprintf(out, "#include \"%s/selftest.cuh\"\n", dir);
  for (int i = 0; i < n; ++i) {
    char *file = test_join(dir, files[i]);
    fprintf(out, "namespace selftest_file_%d {\n#include \"%s\"\n}\n", i,
            file);
    copy_directives(out, file, 0);
    free(file);
  }
  ck_assert_msg(fclose(out) == 0, "cannot write %s", path);
  return path;
}

/* Runs every selftest kernel of every selftest file with compiler `cxx`. */
static void run_all(const char *cxx) {
  char *dir = test_src_path("tests/kernels");
  int files = 0, kernels = 0;
  char **names = selftest_files(dir, &files);
  ck_assert_msg(files > 0, "no selftest files under %s", dir);
  char *combined = combine_selftests(dir, names, files);
  cuemu_module *m = test_module_cxx(combined, cxx, NULL, 0);
  for (int i = 0; i < cuemu_module_kernel_count(m); ++i) {
    cuemu_kernel *k = cuemu_module_kernel_at(m, i);
    if (strncmp(cuemu_kernel_name(k), "selftest_", 9) != 0)
      continue;
    kernels++;
    unsigned failures = 0, *pf = &failures;
    void *args[] = {&pf};
    cuemu_status st = test_launch1(k, 1, 32, args, 1);
    ck_assert_msg(st == CUEMU_SUCCESS, "%s (%s): %s", cuemu_kernel_name(k),
                  cxx, cuemu_last_message());
    ck_assert_msg(failures == 0, "%s (%s): %u failed checks",
                  cuemu_kernel_name(k), cxx, failures);
  }
  cuemu_module_unload(m);
  ck_assert_msg(kernels > 0, "no selftest kernels found under tests/kernels");
  for (int i = 0; i < files; ++i)
    free(names[i]);
  free(names);
  free(combined);
  free(dir);
}

/* With g++, then clang++ (see test_compiler). */
START_TEST(selftests_each_compiler) {
  const char *cxx = test_compiler(_i);
  if (cxx)
    run_all(cxx);
}
END_TEST

Suite *make_selftest_suite(void) {
  Suite *s = suite_create("selftest");
  TCase *tc = test_tcase(s, "kernels", 300);
  tcase_add_loop_test(tc, selftests_each_compiler, 0, 2);
  return s;
}
