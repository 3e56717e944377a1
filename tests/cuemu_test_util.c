/*
 * cuemu_test_util.c: helpers shared by the Check suites.
 */
#include "cuemu_test_util.h"

#include <errno.h>
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
  const char *root = env_or("CUEMU_SRCDIR", ".");
  size_t n = strlen(root) + strlen(relative) + 2;
  char *p = malloc(n);
  ck_assert_ptr_nonnull(p);
  snprintf(p, n, "%s/%s", root, relative);
  return p;
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

cuemu_module *test_module_cxx(const char *file, const char *cxx,
                              const char *const *name_exprs, int count) {
  /* An absolute path, a path under the source tree, or a test kernel. */
  char *source;
  if (file[0] == '/') {
    source = strdup(file);
  } else if (strchr(file, '/')) {
    source = test_src_path(file);
  } else {
    char rel[1024];
    snprintf(rel, sizeof rel, "tests/kernels/%s", file);
    source = test_src_path(rel);
  }
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
