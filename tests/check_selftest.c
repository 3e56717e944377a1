/*
 * check_selftest.c: runs every self-checking kernel (selftest_*) of
 * tests/kernels/selftest_*.cu through the emulator, built once with g++ and
 * once with clang++, with one block of 32 threads; each kernel counts its
 * failed checks (and prints them) in *failures, which must stay 0.
 *
 * The files are built as one module per compiler (combined_source): a
 * build costs mostly what every build of a kernel file costs (the shims'
 * prelude, and with CUEMU_CC_CHECK=all the checkers'), so 16 builds cost
 * about four times what two do.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_suites.h"
#include "cuemu_test_util.h"

static int is_selftest_file(const struct dirent *e) {
  size_t len = strlen(e->d_name);
  return strncmp(e->d_name, "selftest_", 9) == 0 && len > 12 &&
         strcmp(e->d_name + len - 3, ".cu") == 0;
}

/* Appends to `out` the #include lines of `text` whose header is not in
 * `out` yet: <...> ones as they are, "..." ones with the path of `dir`. */
static void hoist_includes(char **out, const char *text, const char *dir) {
  for (const char *line = text; *line;) {
    const char *eol = strchr(line, '\n');
    size_t n = eol ? (size_t)(eol - line) : strlen(line);
    char head[512];
    const char *p = line;
    while (p < line + n && (*p == ' ' || *p == '\t'))
      ++p;
    if (n < sizeof head && *p == '#') {
      char name[400];
      char close = 0;
      if (sscanf(p, "# include <%399[^>]>", name) == 1 ||
          sscanf(p, "#include <%399[^>]>", name) == 1)
        close = '>';
      else if (sscanf(p, "# include \"%399[^\"]\"", name) == 1 ||
               sscanf(p, "#include \"%399[^\"]\"", name) == 1)
        close = '"';
      if (close == '>')
        snprintf(head, sizeof head, "#include <%s>\n", name);
      else if (close == '"')
        snprintf(head, sizeof head, "#include \"%s/%s\"\n", dir, name);
      if (close && !strstr(*out, head)) {
        size_t have = strlen(*out);
        *out = realloc(*out, have + strlen(head) + 1);
        ck_assert_ptr_nonnull(*out);
        strcpy(*out + have, head);
      }
    }
    line += n + (eol != NULL);
  }
}

/* Writes tests/tmp/selftest_all.cu: every selftest file of tests/kernels,
 * in name order, each in a namespace of its own (their static helpers
 * share names; the kernels are extern "C", named as in their file), after
 * the headers that they include, so that a header's include guard leaves
 * nothing of it inside a namespace. Returns its path; `files` gets the
 * count, `kernels` the count of their selftest kernels. Written under another name and renamed, since check_cuemu and
 * tests/checkers_suites.sh may write it at once (the same text). */
static char *combined_source(int *files, int *kernels) {
  char *dir = test_src_path("tests/kernels");
  struct dirent **list = NULL;
  int n = scandir(dir, &list, is_selftest_file, alphasort);
  ck_assert_msg(n > 0, "no selftest kernels found under %s", dir);
  char *head = calloc(1, 1);
  char *body = calloc(1, 1);
  ck_assert_ptr_nonnull(head);
  ck_assert_ptr_nonnull(body);
  for (int i = 0; i < n; ++i) {
    char *path = test_join(dir, list[i]->d_name);
    char *text = test_read_text(path, NULL);
    hoist_includes(&head, text, dir);
    for (const char *k = text; (k = strstr(k, "__global__ void selftest_"));
         ++k)
      ++*kernels;
    char part[4400];
    snprintf(part, sizeof part, "namespace selftest_file_%d {\n"
             "#include \"%s\"\n}\n", i, path);
    size_t have = strlen(body);
    body = realloc(body, have + strlen(part) + 1);
    ck_assert_ptr_nonnull(body);
    strcpy(body + have, part);
    free(text);
    free(path);
    free(list[i]);
  }
  free(list);
  size_t size = strlen(head) + strlen(body) + 200;
  char *text = malloc(size);
  ck_assert_ptr_nonnull(text);
  snprintf(text, size, "// Every tests/kernels/selftest_*.cu, made by "
           "tests/check_selftest.c.\n%s%s", head, body);
  char *out = test_tmp_path("selftest_all.cu");
  char scratch[4200];
  snprintf(scratch, sizeof scratch, "%s.%ld", out, (long)getpid());
  test_write_text(scratch, text);
  ck_assert_msg(rename(scratch, out) == 0, "cannot rename %s", scratch);
  free(text);
  free(head);
  free(body);
  free(dir);
  *files = n;
  return out;
}

/* Runs every selftest kernel of every selftest file with compiler `cxx`. */
static void run_all(const char *cxx) {
  int files = 0, kernels = 0, declared = 0;
  char *source = combined_source(&files, &declared);
  cuemu_module *m = test_module_cxx(source, cxx, NULL, 0);
  for (int i = 0; i < cuemu_module_kernel_count(m); ++i) {
    cuemu_kernel *k = cuemu_module_kernel_at(m, i);
    if (strncmp(cuemu_kernel_name(k), "selftest_", 9) != 0)
      continue;
    kernels++;
    unsigned failures = 0, *pf = &failures;
    void *args[] = {&pf};
    cuemu_status st = test_launch1(k, 1, 32, args, 1);
    ck_assert_msg(st == CUEMU_SUCCESS, "%s (tests/kernels/selftest_*.cu, %s): %s",
                  cuemu_kernel_name(k), cxx, cuemu_last_message());
    ck_assert_msg(failures == 0, "%s (tests/kernels/selftest_*.cu, %s): %u "
                  "failed checks", cuemu_kernel_name(k), cxx, failures);
  }
  cuemu_module_unload(m);
  free(source);
  ck_assert_msg(kernels > 0 && kernels == declared,
                "%d selftest kernels declared in %d files, %d run", declared,
                files, kernels);
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
