/*
 * cuemu_test_util.c: helpers shared by the Check suites.
 */
#define _GNU_SOURCE /* for nftw() */
#include "cuemu_test_util.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *env_or(const char *name, const char *fallback) {
  const char *v = getenv(name);
  return v && *v ? v : fallback;
}

char *test_src_path(const char *relative) {
  return test_join(env_or("CUEMU_SRCDIR", "."), relative);
}

char *test_tmp_path(const char *name) {
  const char *root = env_or("CUEMU_BUILDDIR", ".");
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/tests", root);
  mkdir(dir, 0755);
  snprintf(dir, sizeof dir, "%s/tests/tmp", root);
  if (mkdir(dir, 0755) != 0 && errno != EEXIST)
    ck_abort_msg("cannot create %s", dir);
  size_t n = strlen(dir) + strlen(name) + 2;
  char *p = malloc(n);
  ck_assert_ptr_nonnull(p);
  snprintf(p, n, "%s/%s", dir, name);
  return p;
}

/* An absolute path, a path under the source tree, or a test kernel; the
 * result is malloc()ed. */
static char *source_path(const char *file) {
  if (file[0] == '/') {
    char *p = strdup(file);
    ck_assert_ptr_nonnull(p);
    return p;
  }
  if (strchr(file, '/'))
    return test_src_path(file);
  char rel[1024];
  snprintf(rel, sizeof rel, "tests/kernels/%s", file);
  return test_src_path(rel);
}

cuemu_module *test_module_cxx(const char *file, const char *cxx,
                              const char *const *name_exprs, int count) {
  char *source = source_path(file);
  const char *base = strrchr(source, '/');
  base = base ? base + 1 : source;
  char name[1024];
  const char *cxx_base = cxx ? strrchr(cxx, '/') : NULL;
  cxx_base = cxx_base ? cxx_base + 1 : (cxx ? cxx : "default");
  snprintf(name, sizeof name, "%s.%s.%ld.so", base, cxx_base,
           (long)getpid());
  char *output = test_tmp_path(name);
  cuemu_compile_options opt;
  memset(&opt, 0, sizeof opt);
  opt.module = 1;
  opt.cxx = cxx;
  opt.name_expressions = name_exprs;
  opt.name_expression_count = count;
  cuemu_status st = cuemu_compile(source, output, &opt, NULL);
  if (st != CUEMU_SUCCESS)
    ck_abort_msg("compiling %s failed: %s: %s", source, cuemu_status_name(st),
                 cuemu_last_message());
  cuemu_module *m = NULL;
  st = cuemu_module_load(&m, output);
  if (st != CUEMU_SUCCESS)
    ck_abort_msg("loading %s failed: %s", output, cuemu_last_message());
  unlink(output); /* the loaded module stays mapped */
  free(source);
  free(output);
  return m;
}

cuemu_module *test_module(const char *file) {
  return test_module_cxx(file, NULL, NULL, 0);
}

cuemu_module *test_module_combined(const char *name,
                                   const char *const *files, const char *cxx) {
  char *text = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&text, &size);
  ck_assert_ptr_nonnull(f);
  fprintf(f, "// Made by tests/cuemu_test_util.c (test_module_combined).\n");
  for (int i = 0; files[i]; ++i) {
    char *path = source_path(files[i]);
    fprintf(f, "#include \"%s\"\n", path);
    free(path);
  }
  ck_assert_int_eq(fclose(f), 0);
  char *out = test_tmp_path(name);
  size_t n = strlen(out) + 32;
  char *scratch = malloc(n);
  ck_assert_ptr_nonnull(scratch);
  snprintf(scratch, n, "%s.%ld", out, (long)getpid());
  test_write_text(scratch, text);
  ck_assert_msg(rename(scratch, out) == 0, "cannot rename %s", scratch);
  cuemu_module *m = test_module_cxx(out, cxx, NULL, 0);
  free(scratch);
  free(out);
  free(text);
  return m;
}

const cuemu_module_desc *test_program(const char *file) {
  return test_program_cxx(file, NULL);
}

const cuemu_module_desc *test_program_cxx(const char *file, const char *cxx) {
  char *source = source_path(file);
  char name[1024];
  const char *cxx_base = cxx ? strrchr(cxx, '/') : NULL;
  cxx_base = cxx_base ? cxx_base + 1 : (cxx ? cxx : "default");
  snprintf(name, sizeof name, "program.%s.%s.%ld.so",
           strrchr(source, '/') + 1, cxx_base, (long)getpid());
  char *output = test_tmp_path(name);
  cuemu_compile_options opt;
  memset(&opt, 0, sizeof opt);
  opt.module = 1;
  opt.cxx = cxx;
  cuemu_status st = cuemu_compile(source, output, &opt, NULL);
  if (st != CUEMU_SUCCESS)
    ck_abort_msg("compiling %s failed: %s: %s", source, cuemu_status_name(st),
                 cuemu_last_message());
  void *handle = dlopen(output, RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    ck_abort_msg("loading %s failed: %s", output, dlerror());
  unlink(output); /* the loaded module stays mapped */
  cuemu_module_describe_fn describe =
      (cuemu_module_describe_fn)dlsym(handle, "cuemu_module_describe");
  ck_assert_msg(describe != NULL, "%s has no cuemu_module_describe", source);
  const cuemu_module_desc *program = describe();
  cuemu_program_register(program);
  free(source);
  free(output);
  return program;
}

const cuemu_kernel_desc *test_program_kernel(const cuemu_module_desc *program,
                                             const char *name) {
  for (int i = 0; i < program->kernel_count; ++i)
    if (strcmp(program->kernels[i].name, name) == 0)
      return &program->kernels[i];
  ck_abort_msg("no kernel %s in the program", name);
  return NULL;
}

cuemu_kernel *test_kernel(cuemu_module *m, const char *name) {
  cuemu_kernel *k = NULL;
  if (cuemu_module_get_kernel(m, name, &k) != CUEMU_SUCCESS)
    ck_abort_msg("kernel %s: %s", name, cuemu_last_message());
  return k;
}

cuemu_dim3 test_dim(unsigned x, unsigned y, unsigned z) {
  cuemu_dim3 d = {x, y, z};
  return d;
}

void test_setenv(const char *name, const char *value) {
  if (value)
    setenv(name, value, 1);
  else
    unsetenv(name);
}

TCase *test_tcase(Suite *suite, const char *name, int seconds) {
  TCase *tc = tcase_create(name);
  tcase_set_timeout(tc, seconds);
  suite_add_tcase(suite, tc);
  return tc;
}

cuemu_status test_launch1(cuemu_kernel *k, unsigned grid, unsigned block,
                          void **args, int nargs) {
  return cuemu_kernel_launch(k, test_dim(grid, 1, 1), test_dim(block, 1, 1), 0,
                             NULL, args, nargs);
}

char *test_read_text(const char *path, size_t *length) {
  FILE *f = fopen(path, "rb");
  ck_assert_msg(f != NULL, "cannot open %s", path);
  size_t cap = 4096, len = 0, n;
  char *buf = malloc(cap);
  ck_assert_ptr_nonnull(buf);
  while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
    len += n;
    if (len + 1 == cap) {
      buf = realloc(buf, cap *= 2);
      ck_assert_ptr_nonnull(buf);
    }
  }
  ck_assert_msg(!ferror(f), "cannot read %s", path);
  buf[len] = '\0';
  fclose(f);
  if (length)
    *length = len;
  return buf;
}

void test_write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  ck_assert_msg(f != NULL, "cannot write %s", path);
  fputs(text, f);
  ck_assert_int_eq(fclose(f), 0);
}

int test_marker_line(const char *file, const char *marker) {
  char *path = source_path(file);
  char *text = test_read_text(path, NULL);
  char *at = strstr(text, marker);
  ck_assert_msg(at != NULL, "no %s in %s", marker, path);
  int line = 1;
  for (char *p = text; p < at; ++p)
    line += *p == '\n';
  free(text);
  free(path);
  return line;
}

const char *test_tool(const char *var) {
  const char *tool = getenv(var);
  if (tool && *tool)
    return tool;
  const char *ci = getenv("CI");
  ck_assert_msg(!ci || strcmp(ci, "true") != 0,
                "%s is empty: set-up installs it, and with CI=true a missing "
                "tool is a failure",
                var);
  fprintf(stderr, "%s is empty: the checks that need it are skipped\n", var);
  return NULL;
}

const char *test_compiler(int i) {
  if (i == 0) {
    const char *gxx = getenv("GXX");
    return gxx && *gxx ? gxx : "g++";
  }
  return test_tool("CLANGXX");
}

char *test_join(const char *dir, const char *name) {
  size_t n = strlen(dir) + strlen(name) + 2;
  char *p = malloc(n);
  ck_assert_ptr_nonnull(p);
  snprintf(p, n, "%s/%s", dir, name);
  return p;
}

static int remove_entry(const char *path, const struct stat *st, int flag,
                        struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  return remove(path);
}

void test_rm_rf(const char *path) {
  nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

char *test_fresh_dir(const char *name) {
  char leaf[256];
  snprintf(leaf, sizeof leaf, "%s.%ld", name, (long)getpid());
  char *dir = test_tmp_path(leaf);
  test_rm_rf(dir);
  ck_assert_msg(mkdir(dir, 0755) == 0, "cannot create %s", dir);
  return dir;
}

/* The C stream that writes to `fd`. */
static FILE *stream_of(int fd) { return fd == 1 ? stdout : stderr; }

test_capture test_capture_begin(int fd, const char *path) {
  test_capture c = {fd, -1};
  fflush(stream_of(fd));
  c.saved = dup(fd);
  ck_assert_msg(c.saved >= 0, "cannot duplicate descriptor %d", fd);
  int out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ck_assert_msg(out >= 0, "cannot write %s", path);
  ck_assert_int_ge(dup2(out, fd), 0);
  close(out);
  return c;
}

void test_capture_end(test_capture *capture) {
  fflush(stream_of(capture->fd));
  dup2(capture->saved, capture->fd);
  close(capture->saved);
  capture->saved = -1;
}

int test_run_suites(const test_suite *suites, size_t n) {
  /* CUDA_VISIBLE_DEVICES of the caller would hide or renumber the
   * emulated devices the suites count on (libcuemu reads it at its first
   * device call, after this). */
  unsetenv("CUDA_VISIBLE_DEVICES");
  const char *only = getenv("CUEMU_TEST_SUITE");
  SRunner *runner = NULL;
  for (size_t i = 0; i < n; ++i) {
    if (only && *only && strcmp(only, suites[i].name) != 0)
      continue;
    if (!runner)
      runner = srunner_create(suites[i].make());
    else
      srunner_add_suite(runner, suites[i].make());
  }
  if (!runner)
    return 77; /* no such suite: skipped */
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
