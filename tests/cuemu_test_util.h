/*
 * cuemu_test_util.h: helpers shared by the Check suites: building a test
 * kernel into a module, and small launch wrappers. Each helper fails the
 * running test (ck_abort_msg) with libcuemu's message instead of returning
 * an error.
 */
#ifndef CUEMU_TEST_UTIL_H
#define CUEMU_TEST_UTIL_H

#include <check.h>
#include <cuemu/cuemu.h>

/* Compiles tests/kernels/FILE (or any path under the source tree) with the
 * compiler `cxx` (NULL: $CXX or c++) and loads it. `name_exprs` (may be
 * NULL) lists template instantiations to export. */
cuemu_module *test_module_cxx(const char *file, const char *cxx,
                              const char *const *name_exprs, int count);
cuemu_module *test_module(const char *file);

/* The kernel `name` of the module. */
cuemu_kernel *test_kernel(cuemu_module *m, const char *name);

/* Short-hand for a cuemu_dim3. */
cuemu_dim3 test_dim(unsigned x, unsigned y, unsigned z);

/* An absolute path under the source tree ($CUEMU_SRCDIR) or the build tree
 * ($CUEMU_BUILDDIR/tests/tmp, created on demand); static buffer per call
 * site is the caller's: the result is malloc()ed. */
char *test_src_path(const char *relative);
char *test_tmp_path(const char *name);

/* Sets an environment variable for the rest of the (forked) test. */
void test_setenv(const char *name, const char *value);

#endif
