/*
 * cuemu_test_util.h: helpers shared by the Check suites: building a test
 * kernel into a module, small launch wrappers, assertions on messages,
 * files and folders of the build tree, and capturing stdout or stderr. Each
 * helper fails the running test (ck_abort_msg) with libcuemu's message instead
 * of returning an error.
 */
#ifndef CUEMU_TEST_UTIL_H
#define CUEMU_TEST_UTIL_H

#include <check.h>
#include <cuemu/cuemu.h>
#include <cuemu/cuemu_device.h>
#include <stddef.h>
#include <string.h>

/* Check's ck_assert_msg() (and every ck_assert_* built on it) reports each
 * assertion that passes to the parent process, so that a test that crashes
 * is reported with the last place it passed: one write() to a pipe, a
 * system call, per assertion. The suites check millions of values in loops
 * (check_groups.c's wide tiles alone passed 5 million assertions, most of
 * the groups suite's processor time). Here an assertion reports its place
 * the first time it passes only: a crash still names a place that the test
 * passed, and a failure is reported as before. */
#undef ck_assert_msg
#define ck_assert_msg(expr, ...)                                               \
  ({                                                                           \
    static int test_passed_here_;                                              \
    if (expr) {                                                                \
      if (!test_passed_here_) {                                                \
        test_passed_here_ = 1;                                                 \
        _mark_point(__FILE__, __LINE__);                                       \
      }                                                                        \
    } else {                                                                   \
      _ck_assert_failed(__FILE__, __LINE__, "Assertion '" #expr "' failed",    \
                        ##__VA_ARGS__);                                        \
    }                                                                          \
  })

/* Compiles tests/kernels/FILE (or any path under the source tree) with the
 * compiler `cxx` (NULL: $CXX or c++) and loads it. `name_exprs` (may be
 * NULL) lists template instantiations to export. */
cuemu_module *test_module_cxx(const char *file, const char *cxx,
                              const char *const *name_exprs, int count);
cuemu_module *test_module(const char *file);

/* Compiles the kernel files `files` (NULL-ended, names as test_module()
 * takes them) as one module with the compiler `cxx` (NULL: $CXX or c++)
 * and loads it: tests/tmp/NAME #includes each file as it is, so that
 * messages still name each file and line. A build costs mostly what every
 * build of a kernel file costs (the shims' prelude, and with
 * CUEMU_CC_CHECK=all the checkers'), so that one build of several files
 * costs far less than one build each. The files' kernels must be
 * extern "C" and their file-scope names their own. NAME is written under
 * another name and renamed, since check_cuemu and tests/checkers_suites.sh
 * may write it at once (the same text). */
cuemu_module *test_module_combined(const char *name,
                                   const char *const *files, const char *cxx);

/* Compiles tests/kernels/FILE as test_module() does, loads it and
 * registers its kernels as a whole program's (cuemu_program_register), so
 * that the runtime API's launches find them by address. Returns the
 * module's table; the module stays loaded for the life of the process. */
const cuemu_module_desc *test_program(const char *file);

/* test_program() with the compiler `cxx` (NULL: $CXX, then c++). */
const cuemu_module_desc *test_program_cxx(const char *file, const char *cxx);

/* The kernel `name` of a table from test_program(). */
const cuemu_kernel_desc *test_program_kernel(const cuemu_module_desc *program,
                                             const char *name);

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

/* Fails the running test unless `text` contains `part`, quoting both. */
#define TEST_ASSERT_CONTAINS(text, part)                                       \
  ck_assert_msg(strstr((text), (part)) != NULL, "message \"%s\" lacks \"%s\"", \
                (text), (part))

/* Fails the running test unless `call` returns CUEMU_SUCCESS, quoting the
 * status and libcuemu's message. */
#define TEST_ASSERT_LAUNCH_OK(call)                                            \
  do {                                                                         \
    cuemu_status test_st_ = (call);                                            \
    ck_assert_msg(test_st_ == CUEMU_SUCCESS, "%s: %s",                         \
                  cuemu_status_name(test_st_), cuemu_last_message());          \
  } while (0)

/* One entry of a test binary's list of suites. */
typedef struct test_suite {
  const char *name;
  Suite *(*make)(void);
} test_suite;

/* Runs the suites (only the one named by CUEMU_TEST_SUITE when it is set),
 * each test in a child process; returns main()'s exit status: 0, 1 on a
 * failure, 77 (skipped) when no suite has that name. */
int test_run_suites(const test_suite *suites, size_t n);

/* Creates a test case named `name` with a timeout of `seconds`, adds it to
 * `suite` and returns it; the caller adds the tests. */
TCase *test_tcase(Suite *suite, const char *name, int seconds);

/* Launches `k` on a one-dimensional grid of `grid` blocks of `block`
 * threads, without dynamic shared memory; returns libcuemu's status. */
cuemu_status test_launch1(cuemu_kernel *k, unsigned grid, unsigned block,
                          void **args, int nargs);

/* ---- Files --------------------------------------------------------------- */

/* The whole content of the file at `path`, NUL-terminated and malloc()ed;
 * its length goes to *length unless `length` is NULL. Fails the test when
 * the file cannot be read. */
char *test_read_text(const char *path, size_t *length);

/* Writes `text` to the file at `path` (replacing it); fails the test on an
 * error. */
void test_write_text(const char *path, const char *text);

/* The number (from 1) of the first line of `file` that contains `marker`;
 * fails the test when there is none. `file` is an absolute path, a path
 * under the source tree (when it holds a '/') or the name of a file of
 * tests/kernels, as for test_module(). */
int test_marker_line(const char *file, const char *marker);

/* The tool (a compiler) that environment variable `var` names, such as
 * GXX or CLANGXX (AM_TESTS_ENVIRONMENT passes what configure found), or
 * NULL when `var` is unset or empty: the caller then skips its check, with
 * a line on stderr. Set-up installs every such tool, so where CI=true a
 * missing one fails the test instead of letting it pass untested. */
const char *test_tool(const char *var);

/* The compiler of run `i` of a loop test over both compilers
 * (tcase_add_loop_test(tc, test, 0, 2)): GXX (g++ when unset) for 0,
 * CLANGXX for 1, or NULL when that one is missing (see test_tool). */
const char *test_compiler(int i);

/* DIR/NAME, malloc()ed. */
char *test_join(const char *dir, const char *name);

/* Removes `path` and everything below it; a missing path is not an error. */
void test_rm_rf(const char *path);

/* A fresh, empty folder tests/tmp/NAME.PID of the build tree (any older one
 * is removed first); the caller frees the path. */
char *test_fresh_dir(const char *name);

/* Sends what the process writes to file descriptor `fd` (1 or 2) into the
 * file at `path` (truncated) until test_capture_end(); the C stream of the
 * descriptor is flushed at both ends. */
typedef struct {
  int fd;    /* the descriptor captured */
  int saved; /* a duplicate of what it was before */
} test_capture;
test_capture test_capture_begin(int fd, const char *path);
void test_capture_end(test_capture *capture);

#endif
