/*
 * check_compile.c: cuemu_compile(), the compile driver. Compiler messages
 * point at the user's .cu file; the cache hits on an unchanged source and
 * misses when an included header or an option changes, and parallel
 * compiles leave it complete; -I, -D and -std pass through; debug builds
 * carry line information for the .cu; g++ and clang++ both work; whole
 * programs build and run; a module's global variables are found
 * (cuemu_module_get_global) and cuemu_compile_command() reads cuemu-cc's
 * words. Each test uses a cache folder of its own.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <time.h>
#include <dirent.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cuemu/cuemu.h>

#include "check_suites.h"
#include "cuemu_test_util.h"

/* ---- Helpers ------------------------------------------------------------- */

/* Non-zero when the cache entry at `path` is a precompiled prelude's: a
 * mark of its compiles (no payload), its preprocessed form
 * (emulator/compile/cuemu_pp_prelude.c) or its precompiled header, g++'s
 * or clang++'s (cuemu_pch.c), never a module or a program. */
static int prelude_entry(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return 0;
  char line[4200], payload[24] = "";
  unsigned nlines = 0;
  unsigned long long size = 1, notes = 0;
  int ok = fgets(line, sizeof line, f) &&
           sscanf(line, "cuemu-cache-entry 3 %u %llu %*s %llu", &nlines, &size,
                  &notes) == 3;
  for (unsigned i = 0; ok && i < nlines; ++i)
    ok = fgets(line, sizeof line, f) != NULL;
  /* The build's messages come before the payload. */
  if (ok)
    ok = fseek(f, (long)notes, SEEK_CUR) == 0;
  if (ok && size > 0)
    ok = fread(payload, 1, sizeof payload - 1, f) > 0;
  fclose(f);
  return ok && (size == 0 || strncmp(payload, "gpch", 4) == 0 ||
                strncmp(payload, "CPCH", 4) == 0 ||
                strncmp(payload, "cuemu-cc prelude 1", 18) == 0);
}

/* Gives the test a cache folder of its own; returns its path. Unless
 * `bare`, the folder starts with the precompiled preludes of the suite's
 * cache (hard links: the compiles that the test makes are its own, the
 * shims' prelude is not parsed again by each of them); the entries of its
 * own compiles are all the test looks at. */
static char *own_cache_from(const char *name, int bare) {
  const char *suite = getenv("CUEMU_CACHE_DIR");
  char *dir = test_fresh_dir(name);
  DIR *d = !bare && suite && *suite ? opendir(suite) : NULL;
  for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
    size_t len = strlen(e->d_name);
    if (len < 6 || strcmp(e->d_name + len - 6, ".entry") != 0)
      continue;
    char *from = test_join(suite, e->d_name), *to = test_join(dir, e->d_name);
    /* A link that fails (another file system) leaves the entry out. */
    if (prelude_entry(from))
      (void)link(from, to);
    free(from);
    free(to);
  }
  if (d)
    closedir(d);
  test_setenv("CUEMU_CACHE_DIR", dir);
  test_setenv("CUEMU_NO_CACHE", NULL);
  return dir;
}

static char *own_cache(const char *name) { return own_cache_from(name, 0); }

/* Sets a file's times `seconds` from now (negative: in the past). */
static void set_file_age(const char *path, int seconds) {
  struct timespec now, times[2];
  clock_gettime(CLOCK_REALTIME, &now);
  times[0] = times[1] = now;
  times[0].tv_sec += seconds;
  times[1].tv_sec += seconds;
  ck_assert_int_eq(utimensat(AT_FDCWD, path, times, 0), 0);
}

/* Writes a file and dates it 10 s back: the cache does not store a result
 * when a header may have changed while it was being compiled (its time is
 * not older than the compile), and these tests edit headers just before
 * compiling. */
static void write_text(const char *path, const char *text) {
  test_write_text(path, text);
  set_file_age(path, -10);
}

static void copy_file(const char *from, const char *to) {
  char *text = test_read_text(from, NULL);
  write_text(to, text);
  free(text);
}

static cuemu_compile_options module_options(void) {
  cuemu_compile_options o;
  memset(&o, 0, sizeof o);
  o.module = 1;
  return o;
}

static void compile_ok(const char *source, const char *output,
                       const cuemu_compile_options *o, int *hit) {
  cuemu_status st = cuemu_compile(source, output, o, hit);
  if (st != CUEMU_SUCCESS)
    ck_abort_msg("compiling %s: %s: %s", source, cuemu_status_name(st),
                 cuemu_last_message());
}

/* Compiles like compile_ok() and checks that the cache was hit (`want` 1)
 * or missed (0). */
static void compile_hit(const char *source, const char *output,
                        const cuemu_compile_options *o, int want) {
  int hit = -1;
  compile_ok(source, output, o, &hit);
  ck_assert_msg(hit == want, "compiling %s: hit %d, expected %d", source, hit,
                want);
}

/* A copy of tests/kernels/cache_probe.cu and cache_probe.h in a fresh
 * folder NAME.PID, and where its module goes. */
typedef struct {
  char *dir, *cu, *h, *module;
} probe_copy;

static probe_copy copy_probe(const char *name) {
  probe_copy c;
  c.dir = test_fresh_dir(name);
  c.cu = test_join(c.dir, "cache_probe.cu");
  c.h = test_join(c.dir, "cache_probe.h");
  c.module = test_join(c.dir, "probe.so");
  char *from_cu = test_src_path("tests/kernels/cache_probe.cu");
  char *from_h = test_src_path("tests/kernels/cache_probe.h");
  copy_file(from_cu, c.cu);
  copy_file(from_h, c.h);
  free(from_cu);
  free(from_h);
  return c;
}

static void free_probe(probe_copy *c) {
  free(c->dir);
  free(c->cu);
  free(c->h);
  free(c->module);
}

/* Loads `module`, runs `kernel`(out) on one block of `threads` threads. */
static void run_module(const char *module, const char *kernel, void *out,
                       unsigned threads) {
  cuemu_module *m = NULL;
  cuemu_status st = cuemu_module_load(&m, module);
  if (st != CUEMU_SUCCESS)
    ck_abort_msg("loading %s: %s", module, cuemu_last_message());
  void *args[] = {&out};
  st = test_launch1(test_kernel(m, kernel), 1, threads, args, 1);
  if (st != CUEMU_SUCCESS)
    ck_abort_msg("launching %s: %s", kernel, cuemu_last_message());
  cuemu_module_unload(m);
}

/* Runs cache_probe from `module` and checks out[t] = base + t. */
static void expect_probe(const char *module, int base) {
  int out[16];
  memset(out, 0xff, sizeof out);
  run_module(module, "cache_probe", out, 16);
  for (int t = 0; t < 16; ++t)
    ck_assert_msg(out[t] == base + t, "%s: out[%d] = %d, expected %d",
                  module, t, out[t], base + t);
}

/* ---- Compile errors ------------------------------------------------------ */

START_TEST(compile_error_points_at_the_cu_line) {
  char *cache = own_cache("cache-error");
  char *source = test_src_path("tests/kernels/bad_syntax.cu");
  char *output = test_join(cache, "bad.so");
  char *log = test_join(cache, "stderr.txt");
  int line = test_marker_line(source, "/* SYNTAX_ERROR */");

  test_capture capture = test_capture_begin(2, log);
  cuemu_compile_options o = module_options();
  int hit = -1;
  cuemu_status st = cuemu_compile(source, output, &o, &hit);
  test_capture_end(&capture);

  ck_assert_int_eq(st, CUEMU_COMPILE);
  ck_assert_int_eq(hit, 0);
  ck_assert_ptr_nonnull(strstr(cuemu_last_message(), "bad_syntax.cu"));
  ck_assert_int_eq(access(output, F_OK), -1);
  char *text = test_read_text(log, NULL);
  char where[64];
  snprintf(where, sizeof where, "bad_syntax.cu:%d:", line);
  ck_assert_msg(strstr(text, where) != NULL,
                "the compiler's messages do not point at %s:\n%s", where,
                text);
  ck_assert_msg(strstr(text, "error") != NULL, "no error in:\n%s", text);
  ck_assert_msg(strstr(text, ".cpp:") == NULL,
                "the messages point at the generated file:\n%s", text);
  free(text);
  free(log);
  free(output);
  free(source);
  test_rm_rf(cache);
  free(cache);
}
END_TEST

START_TEST(missing_source_and_compiler) {
  char *cache = own_cache("cache-missing");
  char *output = test_join(cache, "x.so");
  cuemu_compile_options o = module_options();
  ck_assert_int_eq(cuemu_compile("/nonexistent/k.cu", output, &o, NULL),
                   CUEMU_IO_ERROR);
  ck_assert_ptr_nonnull(strstr(cuemu_last_message(), "/nonexistent/k.cu"));
  char *source = test_src_path("tests/kernels/cache_probe.cu");
  o.cxx = "/nonexistent/c++";
  ck_assert_int_eq(cuemu_compile(source, output, &o, NULL), CUEMU_COMPILE);
  ck_assert_ptr_nonnull(strstr(cuemu_last_message(), "/nonexistent/c++"));
  ck_assert_int_eq(cuemu_compile(NULL, output, &o, NULL),
                   CUEMU_INVALID_VALUE);
  free(source);
  free(output);
  test_rm_rf(cache);
  free(cache);
}
END_TEST

/* ---- The cache ----------------------------------------------------------- */

START_TEST(second_compile_is_a_hit) {
  char *cache = own_cache("cache-hit");
  char *source = test_src_path("tests/kernels/cache_probe.cu");
  char *first = test_join(cache, "first.so");
  char *second = test_join(cache, "second.so");
  cuemu_compile_options o = module_options();
  compile_hit(source, first, &o, 0);
  compile_hit(source, second, &o, 1);
  expect_probe(first, 5);
  expect_probe(second, 5);

  /* Bypassing the cache, by option or by environment, is a miss. */
  o.no_cache = 1;
  compile_hit(source, second, &o, 0);
  o.no_cache = 0;
  test_setenv("CUEMU_NO_CACHE", "1");
  compile_hit(source, second, &o, 0);
  test_setenv("CUEMU_NO_CACHE", NULL);
  compile_hit(source, second, &o, 1);
  /* A debug build is another entry. */
  o.debug = 1;
  compile_hit(source, second, &o, 0);
  expect_probe(second, 5);
  free(first);
  free(second);
  free(source);
  test_rm_rf(cache);
  free(cache);
}
END_TEST

START_TEST(header_newer_than_compile_is_not_stored) {
  char *cache = own_cache("cache-newer");
  probe_copy p = copy_probe("newer-src");
  /* A header whose time is not older than the compile may have changed
   * while the compiler read it: the result must not be cached. */
  set_file_age(p.h, 60);
  cuemu_compile_options o = module_options();
  compile_hit(p.cu, p.module, &o, 0);
  compile_hit(p.cu, p.module, &o, 0);
  expect_probe(p.module, 5);
  /* Once it is old, the next compile is stored and then found. */
  set_file_age(p.h, -10);
  compile_hit(p.cu, p.module, &o, 0);
  compile_hit(p.cu, p.module, &o, 1);
  free(cache);
  free_probe(&p);
}
END_TEST

START_TEST(header_change_is_a_miss) {
  char *cache = own_cache("cache-header");
  probe_copy p = copy_probe("header-src");
  cuemu_compile_options o = module_options();
  compile_hit(p.cu, p.module, &o, 0);
  expect_probe(p.module, 5);
  compile_hit(p.cu, p.module, &o, 1);

  /* Edit the header: same size, other value. */
  char *text = test_read_text(p.h, NULL);
  char *at = strstr(text, "CACHE_PROBE_VALUE 5");
  ck_assert_ptr_nonnull(at);
  at[strlen("CACHE_PROBE_VALUE ")] = '8';
  write_text(p.h, text);
  free(text);
  compile_hit(p.cu, p.module, &o, 0);
  expect_probe(p.module, 8);
  compile_hit(p.cu, p.module, &o, 1);
  expect_probe(p.module, 8);
  test_rm_rf(p.dir);
  test_rm_rf(cache);
  free_probe(&p);
  free(cache);
}
END_TEST

START_TEST(define_change_is_a_miss) {
  char *cache = own_cache("cache-define");
  char *source = test_src_path("tests/kernels/cache_probe.cu");
  char *module = test_join(cache, "probe.so");
  cuemu_compile_options o = module_options();
  compile_hit(source, module, &o, 0);
  expect_probe(module, 5);
  const char *ten[] = {"-DPROBE_EXTRA=10"};
  o.argv = ten;
  o.argc = 1;
  compile_hit(source, module, &o, 0);
  expect_probe(module, 15);
  compile_hit(source, module, &o, 1);
  expect_probe(module, 15);
  const char *twenty[] = {"-DPROBE_EXTRA=20"};
  o.argv = twenty;
  compile_hit(source, module, &o, 0);
  expect_probe(module, 25);
  /* Back to no option: the first entry is still there. */
  o.argv = NULL;
  o.argc = 0;
  compile_hit(source, module, &o, 1);
  expect_probe(module, 5);
  free(module);
  free(source);
  test_rm_rf(cache);
  free(cache);
}
END_TEST

START_TEST(parallel_compiles_share_the_cache) {
  enum { JOBS = 4 };
  /* Bare: the test counts the entries. */
  char *cache = own_cache_from("cache-parallel", 1);
  char *source = test_src_path("tests/kernels/cache_probe.cu");
  char *outputs[JOBS];
  int go[2];
  ck_assert_int_eq(pipe(go), 0);
  /* The compile's own entry alone: no mark of its prelude's first sighting
   * (a module's prelude is precompiled after a few compiles, cuemu_pch.c). */
  setenv("CUEMU_NO_PCH", "1", 1);
  pid_t pids[JOBS];
  for (int i = 0; i < JOBS; ++i) {
    char name[32];
    snprintf(name, sizeof name, "out%d.so", i);
    outputs[i] = test_join(cache, name);
    pids[i] = fork();
    ck_assert_int_ge(pids[i], 0);
    if (pids[i] == 0) {
      /* Start together: wait until the parent closes the pipe. */
      char c;
      close(go[1]);
      while (read(go[0], &c, 1) > 0) {
      }
      cuemu_compile_options o = module_options();
      cuemu_status st = cuemu_compile(source, outputs[i], &o, NULL);
      if (st != CUEMU_SUCCESS)
        fprintf(stderr, "job %d: %s\n", i, cuemu_last_message());
      _exit(st == CUEMU_SUCCESS ? 0 : 1);
    }
  }
  close(go[0]);
  close(go[1]);
  for (int i = 0; i < JOBS; ++i) {
    int status = 0;
    ck_assert_int_eq(waitpid(pids[i], &status, 0), pids[i]);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                  "parallel compile %d failed (status %#x)", i, status);
  }
  for (int i = 0; i < JOBS; ++i)
    expect_probe(outputs[i], 5);

  /* The cache holds one complete entry and no temporary file. */
  DIR *d = opendir(cache);
  ck_assert_ptr_nonnull(d);
  int entries = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    const char *n = e->d_name;
    size_t len = strlen(n);
    if (strcmp(n, ".") == 0 || strcmp(n, "..") == 0 ||
        strncmp(n, "out", 3) == 0)
      continue;
    if (len > 6 && strcmp(n + len - 6, ".entry") == 0)
      entries++;
    else
      ck_abort_msg("unexpected file %s in the cache", n);
  }
  closedir(d);
  ck_assert_int_eq(entries, 1);

  /* And it is used. */
  char *again = test_join(cache, "again.so");
  cuemu_compile_options o = module_options();
  compile_hit(source, again, &o, 1);
  expect_probe(again, 5);
  free(again);
  for (int i = 0; i < JOBS; ++i)
    free(outputs[i]);
  free(source);
  test_rm_rf(cache);
  free(cache);
  unsetenv("CUEMU_NO_PCH");
}
END_TEST

/* ---- Options ------------------------------------------------------------- */

START_TEST(include_define_and_std_pass_through) {
  char *cache = own_cache("cache-options");
  char *source = test_src_path("tests/kernels/options_probe.cu");
  char *incdir = test_src_path("tests/kernels/include");
  char *module = test_join(cache, "options.so");
  long out[3];

  /* Without the options the kernel does not compile. */
  cuemu_compile_options o = module_options();
  char *log = test_join(cache, "stderr.txt");
  test_capture capture = test_capture_begin(2, log);
  cuemu_status st = cuemu_compile(source, module, &o, NULL);
  test_capture_end(&capture);
  ck_assert_int_eq(st, CUEMU_COMPILE);
  char *text = test_read_text(log, NULL);
  ck_assert_msg(strstr(text, "options_probe.cu:") != NULL, "%s", text);
  free(text);

  const char *argv[] = {"-DVALUE=7", "-I", incdir};
  o.argv = argv;
  o.argc = 3;
  compile_ok(source, module, &o, NULL);
  memset(out, 0, sizeof out);
  run_module(module, "options_probe", out, 1);
  ck_assert_int_eq(out[0], 7);
  ck_assert_int_eq(out[1], 11);
  ck_assert_int_eq(out[2], 201703L);

  char joined[4096];
  snprintf(joined, sizeof joined, "-I%s", incdir);
  const char *argv20[] = {"-std=c++20", joined, "-DVALUE=7"};
  o.argv = argv20;
  compile_ok(source, module, &o, NULL);
  memset(out, 0, sizeof out);
  run_module(module, "options_probe", out, 1);
  ck_assert_int_eq(out[0], 7);
  ck_assert_int_eq(out[1], 11);
  ck_assert_int_eq(out[2], 202002L);
  free(log);
  free(module);
  free(incdir);
  free(source);
  test_rm_rf(cache);
  free(cache);
}
END_TEST

/* ---- Debug builds -------------------------------------------------------- */

START_TEST(debug_build_has_line_information) {
  char *cache = own_cache("cache-debug");
  char *source = test_src_path("tests/kernels/cache_probe.cu");
  char *module = test_join(cache, "debug.so");
  int line = test_marker_line(source, "/* PROBE_LINE */");
  cuemu_compile_options o = module_options();
  o.debug = 1;
  compile_ok(source, module, &o, NULL);
  expect_probe(module, 5);

  char *listing = test_join(cache, "lines.txt");
  char cmd[8192];
  snprintf(cmd, sizeof cmd,
           "objdump --dwarf=decodedline '%s' > '%s' 2>/dev/null || "
           "readelf --debug-dump=decodedline '%s' > '%s' 2>/dev/null",
           module, listing, module, listing);
  ck_assert_msg(system(cmd) == 0, "neither objdump nor readelf could read %s",
                module);
  char *text = test_read_text(listing, NULL);
  /* A row of the table: the file name, then the line number. */
  int found = 0;
  for (char *row = strtok(text, "\n"); row && !found;
       row = strtok(NULL, "\n")) {
    char file[4096];
    int n;
    if (sscanf(row, "%4095s %d", file, &n) == 2 &&
        strstr(file, "cache_probe.cu") != NULL && n == line)
      found = 1;
  }
  ck_assert_msg(found, "no line cache_probe.cu:%d in the debug line table",
                line);
  free(text);
  free(listing);
  free(module);
  free(source);
  test_rm_rf(cache);
  free(cache);
}
END_TEST

/* ---- Compilers and programs ---------------------------------------------- */

static void check_compiler(const char *cxx) {
  cuemu_module *m = test_module_cxx("cache_probe.cu", cxx, NULL, 0);
  int out[16];
  memset(out, 0, sizeof out);
  int *po = out;
  void *args[] = {&po};
  cuemu_status st = test_launch1(test_kernel(m, "cache_probe"), 1, 16, args, 1);
  ck_assert_msg(st == CUEMU_SUCCESS, "%s: %s", cxx, cuemu_last_message());
  for (int t = 0; t < 16; ++t)
    ck_assert_int_eq(out[t], 5 + t);
  cuemu_module_unload(m);
}

START_TEST(gxx_and_clangxx) {
  char *cache = own_cache("cache-compilers");
  const char *gxx = getenv("GXX");
  check_compiler(gxx && *gxx ? gxx : "g++");
  const char *clangxx = test_tool("CLANGXX");
  if (clangxx)
    check_compiler(clangxx);
  test_rm_rf(cache);
  free(cache);
}
END_TEST

START_TEST(whole_program_runs) {
  char *cache = own_cache("cache-program");
  char *source = test_src_path("tests/programs/runtime_memory.cu");
  char *program = test_join(cache, "runtime_memory");
  cuemu_compile_options o;
  memset(&o, 0, sizeof o);
  o.module = 0;
  compile_ok(source, program, &o, NULL);
  ck_assert_int_eq(access(program, X_OK), 0);
  char cmd[8192];
  snprintf(cmd, sizeof cmd, "'%s' 2>&1", program);
  FILE *p = popen(cmd, "r");
  ck_assert_ptr_nonnull(p);
  char line[512], all[4096] = "";
  while (fgets(line, sizeof line, p))
    strncat(all, line, sizeof all - strlen(all) - 1);
  int status = pclose(p);
  ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                "the program failed (status %#x):\n%s", status, all);
  ck_assert_str_eq(all, "PASS\n");
  /* A program is not a module. */
  cuemu_module *m = NULL;
  ck_assert_int_eq(cuemu_module_load(&m, program), CUEMU_MODULE_LOAD);
  free(program);
  free(source);
  test_rm_rf(cache);
  free(cache);
}
END_TEST

/* ---- Modules: globals and the command-line API --------------------------- */

START_TEST(module_globals_are_found) {
  /* The module's file must stay: its symbol table names the globals. */
  char *cache = own_cache("cache-globals");
  char *source = test_src_path("tests/kernels/module_globals.cu");
  char *output = test_join(cache, "globals.so");
  cuemu_compile_options o = module_options();
  compile_ok(source, output, &o, NULL);
  cuemu_module *m = NULL;
  ck_assert_int_eq(cuemu_module_load(&m, output), CUEMU_SUCCESS);
  void *ptr = NULL;
  size_t size = 0;
  ck_assert_int_eq(cuemu_module_get_global(m, "counter", &ptr, &size),
                   CUEMU_SUCCESS);
  ck_assert_uint_eq(size, sizeof(int));
  int *counter = ptr;
  ck_assert_int_eq(*counter, 41);
  /* The address is the one the kernels use. */
  int out[5] = {0};
  void *buf = out;
  void *args[] = {&buf};
  ck_assert_int_eq(test_launch1(test_kernel(m, "bump"), 1, 5, args, 1),
                   CUEMU_SUCCESS);
  ck_assert_int_eq(*counter, 46);
  ck_assert_int_eq(cuemu_module_get_global(m, "factors", &ptr, &size),
                   CUEMU_SUCCESS);
  ck_assert_uint_eq(size, 4 * sizeof(float));
  ck_assert(((float *)ptr)[3] == 4.0f);
  /* A variable in a namespace has its mangled name; either output may be
   * left out. */
  ck_assert_int_eq(cuemu_module_get_global(m, "_ZN2ns5valueE", &ptr, NULL),
                   CUEMU_SUCCESS);
  ck_assert(*(double *)ptr == 2.5);
  ck_assert_int_eq(cuemu_module_get_global(m, "_ZN2ns5valueE", NULL, &size),
                   CUEMU_SUCCESS);
  ck_assert_uint_eq(size, sizeof(double));
  /* Kernels are not variables; neither are unknown names. */
  ck_assert_int_eq(cuemu_module_get_global(m, "bump", &ptr, &size),
                   CUEMU_INVALID_VALUE);
  ck_assert_int_eq(cuemu_module_get_global(m, "missing", &ptr, &size),
                   CUEMU_INVALID_VALUE);
  TEST_ASSERT_CONTAINS(cuemu_last_message(), "missing");
  ck_assert_int_eq(cuemu_module_get_global(NULL, "counter", &ptr, &size),
                   CUEMU_INVALID_VALUE);
  ck_assert_int_eq(cuemu_module_get_global(m, NULL, &ptr, &size),
                   CUEMU_INVALID_VALUE);
  /* A file replaced since the load (a rebuild) is not read. */
  o.debug = 1;
  compile_ok(source, output, &o, NULL);
  ck_assert_int_eq(cuemu_module_get_global(m, "counter", &ptr, &size),
                   CUEMU_IO_ERROR);
  TEST_ASSERT_CONTAINS(cuemu_last_message(), "no longer the module");
  cuemu_module_unload(m);
  free(output);
  free(source);
  test_rm_rf(cache);
  free(cache);
}
END_TEST

START_TEST(compile_command_words) {
  char *cache = own_cache("cache-command");
  char *source = test_src_path("tests/kernels/module_globals.cu");
  char *output = test_join(cache, "globals.so");
  const char *argv[] = {"--module", "-o", output, "--name-expr",
                        "scale<3>", "-D", "UNUSED=1", "-std=c++17", source};
  int argc = (int)(sizeof argv / sizeof *argv), hit = -1;
  cuemu_status st = cuemu_compile_command(argc, argv, &hit);
  ck_assert_msg(st == CUEMU_SUCCESS, "%s", cuemu_last_message());
  ck_assert_int_eq(hit, 0);
  ck_assert_int_eq(cuemu_compile_command(argc, argv, &hit), CUEMU_SUCCESS);
  ck_assert_int_eq(hit, 1);
  cuemu_module *m = NULL;
  ck_assert_int_eq(cuemu_module_load(&m, output), CUEMU_SUCCESS);
  test_kernel(m, "scale<3>");
  cuemu_module_unload(m);
  /* Malformed commands. */
  const char *no_source[] = {"--module", "-o", output};
  ck_assert_int_eq(cuemu_compile_command(3, no_source, NULL),
                   CUEMU_INVALID_VALUE);
  TEST_ASSERT_CONTAINS(cuemu_last_message(), "No input files");
  const char *two[] = {"--module", source, source};
  ck_assert_int_eq(cuemu_compile_command(3, two, NULL), CUEMU_INVALID_VALUE);
  const char *dangling[] = {source, "--name-expr"};
  ck_assert_int_eq(cuemu_compile_command(2, dangling, NULL),
                   CUEMU_INVALID_VALUE);
  TEST_ASSERT_CONTAINS(cuemu_last_message(), "--name-expr");
  free(output);
  free(source);
  test_rm_rf(cache);
  free(cache);
}
END_TEST

Suite *make_compile_suite(void) {
  Suite *s = suite_create("compile");
  TCase *tc = test_tcase(s, "errors", 60);
  tcase_add_test(tc, compile_error_points_at_the_cu_line);
  tcase_add_test(tc, missing_source_and_compiler);

  tc = test_tcase(s, "cache", 180);
  tcase_add_test(tc, second_compile_is_a_hit);
  tcase_add_test(tc, header_change_is_a_miss);
  tcase_add_test(tc, header_newer_than_compile_is_not_stored);
  tcase_add_test(tc, define_change_is_a_miss);
  tcase_add_test(tc, parallel_compiles_share_the_cache);

  tc = test_tcase(s, "options", 120);
  tcase_add_test(tc, include_define_and_std_pass_through);
  tcase_add_test(tc, debug_build_has_line_information);
  tcase_add_test(tc, gxx_and_clangxx);
  tcase_add_test(tc, whole_program_runs);

  tc = test_tcase(s, "modules", 120);
  tcase_add_test(tc, module_globals_are_found);
  tcase_add_test(tc, compile_command_words);
  return s;
}
