/*
 * cuemu_check_report.c: the reports after which a launch goes on
 * (racecheck, initcheck), as compute-sanitizer's racecheck and initcheck
 * report a hazard and let the kernel run to its end.
 *
 * The first report of each kernel, class and set of source lines in the
 * process is printed (at most CUEMU_CHECK_PRINT_LIMIT of them), the others
 * are only counted, so that a racy kernel in a loop prints its race once. A launch of the C API
 * (cuemu_kernel_launch: the parity runner, the Python package) still ends
 * with CHECK_REPORT and the first report's text once all its blocks ran
 * (core/cuemu_launch_run.c); a whole program's launch succeeds, as on a
 * GPU under compute-sanitizer, and the process's exit status says that
 * reports were made: a program that would exit with 0 exits with
 * CUEMU_CHECK_EXIT_STATUS (1 when unset; 0 keeps the program's status),
 * after a summary line on stderr. memcheck's reports and synccheck's still
 * end the launch (a GPU's kernel stops at a bad access), and a whole
 * program's counts too (cuemu__check_report_counted).
 */
#include "check/cuemu_check.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cuemu/cuemu.h>

#include "base/cuemu_config.h"
#include "base/cuemu_report.h"
#include "core/cuemu_ptr_map.h"

/* The most reports printed in a process; the rest are counted. */
#define CUEMU_CHECK_PRINT_LIMIT 100

static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long printed;
/* Reports of whole programs' launches: all, and those of distinct source
 * lines. */
static atomic_ullong program_reports;
static unsigned long long program_distinct;
static char last_report[2048 + 256];

/* FNV-1a over `n` bytes, going on from `h`. */
static uint64_t fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *c = p;
  for (size_t i = 0; i < n; ++i) {
    h ^= c[i];
    h *= 1099511628211ull;
  }
  return h;
}

/* A key of the map (0 is its empty key). */
static uintptr_t key_of(uint64_t h) { return (uintptr_t)(h ? h : 1); }

/* Whether `key` is new to `map` (added then). Without memory for it, it
 * stays new. Under report_lock. */
static int first_time(cuemu__ptr_map *map, uintptr_t key) {
  if (cuemu__ptr_map_get(map, key))
    return 0;
  (void)cuemu__ptr_map_put(map, key, (void *)1);
  return 1;
}

/* The code addresses already reported, and the source lines: one line of
 * code may have several copies (a loop the compiler unrolled). */
static cuemu__ptr_map seen_code, seen_lines;

/* Prints `line`, the first report of its source lines (hashed: h), unless
 * CUEMU_CHECK_PRINT_LIMIT reports were printed; `counted`: a report of
 * the program's, counted among the distinct ones. */
static void print_first(uint64_t h, const char *line, int counted) {
  int print = 0, limit = 0;
  pthread_mutex_lock(&report_lock);
  if (first_time(&seen_lines, key_of(h))) {
    if (counted)
      program_distinct++;
    if (printed < CUEMU_CHECK_PRINT_LIMIT) {
      print = 1;
      limit = ++printed == CUEMU_CHECK_PRINT_LIMIT;
      snprintf(last_report, sizeof last_report, "%s", line);
    }
  }
  pthread_mutex_unlock(&report_lock);
  if (!print)
    return;
  cuemu__report_print(line);
  if (limit && !cuemu__config_quiet())
    fprintf(stderr, "cuemu: %d reports printed; the others are counted "
                    "(the summary at exit)\n",
            CUEMU_CHECK_PRINT_LIMIT);
}

int cuemu__check_report_begin(cuemu_launch *L, int kind, uintptr_t a,
                              uintptr_t b) {
  uintptr_t words[4] = {(uintptr_t)kind, (uintptr_t)(const void *)L->kernel,
                        a, b};
  uintptr_t key = key_of(fnv(1469598103934665603ull, words, sizeof words));
  pthread_mutex_lock(&report_lock);
  int fresh = first_time(&seen_code, key);
  pthread_mutex_unlock(&report_lock);
  if (!L->reports_fail)
    atomic_fetch_add(&program_reports, 1);
  /* The launch's first report is its message, even when printed before. */
  int first = !atomic_exchange(&L->reported, 1);
  return fresh ? CUEMU_REPORT_PRINT : first ? CUEMU_REPORT_KEEP
                                            : CUEMU_REPORT_NONE;
}

void cuemu__check_report(cuemu_launch *L, int how, const char *where,
                         const char *fmt, ...) {
  char msg[2048], line[sizeof msg + 256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  /* A kernel's name may be longer than the line (a Thrust or CUB agent
   * instantiated on lambdas and iterators runs to thousands of
   * characters): its end is cut, not the report. */
  const char *kernel = L->kernel->name;
  const size_t msg_len = strlen(msg), name_len = strlen(kernel);
  /* "kernel NAME...: MSG" fills the line at most (msg is shorter). */
  const size_t room = sizeof line - sizeof "kernel ...: " - msg_len;
  const int cut = name_len > room;
  char *at = line;
  memcpy(at, "kernel ", 7);
  at += 7;
  memcpy(at, kernel, cut ? room : name_len);
  at += cut ? room : name_len;
  if (cut) {
    memcpy(at, "...", 3);
    at += 3;
  }
  memcpy(at, ": ", 2);
  memcpy(at + 2, msg, msg_len + 1);
  cuemu__report_display_names(line);
  /* Still in the context that found the report: a debugger stops here. */
  cuemu__error_stop(CUEMU_CHECK_REPORT, line);
  pthread_mutex_lock(&L->error_lock);
  if (L->status == CUEMU_SUCCESS && !L->report_kept) {
    snprintf(L->message, sizeof L->message, "%s", line);
    L->report_kept = 1;
  }
  pthread_mutex_unlock(&L->error_lock);
  if (how != CUEMU_REPORT_PRINT)
    return;
  const char *name = L->kernel->name;
  uint64_t h = fnv(1469598103934665603ull, name, strlen(name) + 1);
  print_first(fnv(h, where, strlen(where)), line, !L->reports_fail);
}

void cuemu__check_report_host(const char *where, const char *text) {
  atomic_fetch_add(&program_reports, 1);
  uint64_t h = fnv(1469598103934665603ull, "host", 5);
  print_first(fnv(h, where, strlen(where)), text, 1);
}

void cuemu_check_report_host(const char *where, const char *text) {
  if (!where || !text)
    return;
  cuemu__check_report_host(where, text);
}

void cuemu__check_report_counted(void) {
  atomic_fetch_add(&program_reports, 1);
  pthread_mutex_lock(&report_lock);
  program_distinct++;
  pthread_mutex_unlock(&report_lock);
}

unsigned long long cuemu_check_reports(const char **last) {
  pthread_mutex_lock(&report_lock);
  if (last)
    *last = last_report;
  pthread_mutex_unlock(&report_lock);
  return atomic_load(&program_reports);
}

void cuemu_check_reports_clear(void) {
  pthread_mutex_lock(&report_lock);
  atomic_store(&program_reports, 0);
  program_distinct = 0;
  last_report[0] = '\0';
  pthread_mutex_unlock(&report_lock);
}

/* Registered first of all exit handlers (below), so run last: after the
 * program's own and after the shared libraries' destructors. */
static void at_exit(int status, void *unused) {
  (void)unused;
  unsigned long long n = atomic_load(&program_reports);
  if (!n)
    return;
  int code = status == 0 ? cuemu__config_check_exit_status() : status;
  if (code != status || !cuemu__config_quiet())
    fprintf(stderr,
            "cuemu: checkers: %llu report%s (%llu distinct) in this "
            "program%s",
            n, n == 1 ? "" : "s", program_distinct,
            code != status ? "; exit status " : "\n");
  if (code != status)
    fprintf(stderr, "%d instead of 0 (CUEMU_CHECK_EXIT_STATUS sets it)\n",
            code);
  if (code == status)
    return;
  fflush(NULL);
  _exit(code);
}

__attribute__((constructor)) static void register_exit(void) {
  on_exit(at_exit, NULL);
}
