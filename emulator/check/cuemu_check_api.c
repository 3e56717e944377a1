/*
 * cuemu_check_api.c: memcheck's report of runtime API calls that fail, as
 * compute-sanitizer's memcheck reports them ("CUDA API error checking",
 * --report-api-errors): in a checked process, a call of the runtime API
 * from the program's code that returns an error prints
 *
 *   cuemu: API error: program hit cudaErrorInvalidValue (error 1) due to
 *   "invalid argument" on CUDA API call to cudaMemcpy at p.cu:17
 *
 * once for each error, call and line. As in compute-sanitizer, the report
 * changes nothing: the call returns its error and the program goes on;
 * unlike it, these reports do not count for the exit status of checked
 * programs (docs/checkers.md), since tests of a program's own error paths
 * make them on purpose. cudaErrorNotReady is not an error here, as there
 * (a query of work still running).
 */
#define _GNU_SOURCE
#include "check/cuemu_check.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "base/cuemu_config.h"
#include "base/cuemu_report.h"
#include "core/cuemu_ptr_map.h"

/* The most API error reports printed in a process. */
#define CUEMU_CHECK_API_PRINT_LIMIT 100
/* The deepest call of the runtime API from the program's code looked for. */
#define CUEMU_CHECK_API_FRAMES 64

extern atomic_int cuemu__check_present;

static pthread_mutex_t api_lock = PTHREAD_MUTEX_INITIALIZER;
/* The calls reported: (error code, return address) hashed. */
static cuemu__ptr_map api_seen;
static unsigned api_printed;

/* The load address of the object that holds `pc`, or NULL. */
static const void *object_of(const void *pc) {
  Dl_info info;
  return dladdr(pc, &info) ? info.dli_fbase : NULL;
}

/* The runtime API's name in `function`, the demangled name of a function
 * of the shims ("cudaMemcpy(void*, ...)", "cudaError cudaMemcpyToSymbol<int>
 * (...)"), written over it; "" when it is no function of the runtime API.
 * A launch's status is recorded by cuemu_rt_record_launch, the launch's
 * call of cudaLaunchKernel. */
static const char *api_name(char *function) {
  function[strcspn(function, "(<")] = '\0';
  char *last = strrchr(function, ' ');
  char *name = last ? last + 1 : function;
  if (strcmp(name, "cuemu_rt_record_launch") == 0)
    return "cudaLaunchKernel";
  return strncmp(name, "cuda", 4) == 0 ? name : "";
}

const void *cuemu__check_api_caller(void) {
  /* The call of libcuemu that the program's code made: the outermost frame
   * of libcuemu's code, and the return address into the caller's. */
  void *frames[CUEMU_CHECK_API_FRAMES];
  int n = backtrace(frames, CUEMU_CHECK_API_FRAMES);
  const void *self = object_of((const void *)cuemu__check_api_caller);
  int at = 1;
  while (at < n && object_of(frames[at]) == self)
    ++at;
  return at >= n || at < 2 ? NULL : frames[at];
}

void cuemu__check_api_name(const void *caller, char *name, size_t size) {
  /* The caller is the shims' function of the runtime API ("cudaMemcpy(void*,
   * ...)", inlined into the program's code or not). A call that another
   * library makes on its own (the emulated cuBLAS's), or libcuemu's own,
   * is not the program's explicit call. */
  char function[512];
  name[0] = '\0';
  if (cuemu__check_function_at(caller, function, sizeof function))
    snprintf(name, size, "%s", api_name(function));
}

void cuemu__check_api_error(int code) {
  int which;
  if (!atomic_load_explicit(&cuemu__check_present, memory_order_relaxed) ||
      !(which = cuemu__config_check_api_errors()))
    return;
  const void *caller = cuemu__check_api_caller();
  if (!caller)
    return;
  uintptr_t key = ((uintptr_t)caller * 31u) ^ (uintptr_t)(unsigned)code;
  pthread_mutex_lock(&api_lock);
  int fresh = !cuemu__ptr_map_get(&api_seen, key ? key : 1);
  if (fresh)
    (void)cuemu__ptr_map_put(&api_seen, key ? key : 1, (void *)1);
  pthread_mutex_unlock(&api_lock);
  if (!fresh)
    return;
  /* compute-sanitizer reports the calls that libraries make on their own
   * only with --report-api-errors all, without the API's name here. */
  char name[512], where[512], line[1280];
  cuemu__check_api_name(caller, name, sizeof name);
  if (!name[0] && which != CUEMU_API_ERRORS_ALL)
    return;
  pthread_mutex_lock(&api_lock);
  int print = api_printed < CUEMU_CHECK_API_PRINT_LIMIT;
  api_printed += print;
  pthread_mutex_unlock(&api_lock);
  if (!print)
    return;
  cuemu__check_line_here(caller, where, sizeof where);
  snprintf(line, sizeof line,
           "API error: program hit %s (error %d) due to \"%s\" on CUDA API "
           "call%s%s at %s",
           cuemu_rt_error_name(code), code, cuemu_rt_error_string(code),
           name[0] ? " to " : "", name, where);
  cuemu__report_print(line);
}
