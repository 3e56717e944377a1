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
#include <link.h>
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
/* The return addresses looked up by in_shims_function: 1 in the
 * program's code, 2 in a function of the shims'. */
static cuemu__ptr_map shims_pcs;

/* The addresses that libcuemu's loaded segments span, found once (a
 * dladdr() for every frame of every call cost 30 us a queued copy under
 * racecheck, cuemu_rt_pinned_guard.c). */
static uintptr_t self_lo, self_hi;
static pthread_once_t self_once = PTHREAD_ONCE_INIT;

static int find_self(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  uintptr_t pc = (uintptr_t)data, lo = UINTPTR_MAX, hi = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD)
      continue;
    uintptr_t from = info->dlpi_addr + ph->p_vaddr;
    lo = from < lo ? from : lo;
    hi = from + ph->p_memsz > hi ? from + ph->p_memsz : hi;
  }
  if (pc < lo || pc >= hi)
    return 0;
  self_lo = lo;
  self_hi = hi;
  return 1;
}

static void find_self_once(void) {
  dl_iterate_phdr(find_self, (void *)(uintptr_t)cuemu__check_api_caller);
}

/* Whether `pc` is libcuemu's code. */
static int in_self(const void *pc) {
  pthread_once(&self_once, find_self_once);
  return (uintptr_t)pc >= self_lo && (uintptr_t)pc < self_hi;
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

/* The program's call that queued the work that this thread (a stream's)
 * runs, while it runs it; NULL otherwise. */
static _Thread_local const cuemu_check_call *issued_by;

void cuemu__check_api_run_for(const cuemu_check_call *call) {
  issued_by = call && call->pc ? call : NULL;
}

void cuemu__check_api_issuer(cuemu_check_call *out) {
  memset(out, 0, sizeof *out);
  if (atomic_load_explicit(&cuemu__check_present, memory_order_relaxed))
    out->pc = cuemu__check_api_caller(out->callers, CUEMU_CHECK_CALL_CALLERS);
}

const void *cuemu__check_api_call(void) {
  return issued_by ? issued_by->pc : cuemu__check_api_caller(NULL, 0);
}

void cuemu__check_api_call_line(const void *call, char *buf, size_t size) {
  if (issued_by && issued_by->pc == call) {
    /* Its callers were recorded when it was queued: the frames of this
     * thread are the stream's. */
    cuemu__check_alloc_line(call, issued_by->callers, buf, size);
  } else {
    cuemu__check_line_here(call, buf, size);
  }
}

const void *cuemu__check_api_caller(const void **callers, int ncallers) {
  /* The call of libcuemu that the program's code made: the outermost frame
   * of libcuemu's code, and the return address into the caller's. */
  void *frames[CUEMU_CHECK_API_FRAMES];
  int n = backtrace(frames, CUEMU_CHECK_API_FRAMES);
  int at = 1;
  while (at < n && in_self(frames[at]))
    ++at;
  for (int k = 0; k < ncallers; ++k)
    callers[k] = at + 1 + k < n ? frames[at + 1 + k] : NULL;
  return at < n && at >= 2 ? frames[at] : NULL;
}

const char *cuemu__check_api_name(const void *caller, char *buf, size_t size) {
  if (!caller || !cuemu__check_function_at(caller, buf, size))
    return "";
  return api_name(buf);
}

/* Non-zero when `pc` lies in an out-of-line function of the shims' (its
 * symbol's name starts with cuemu_ or cuemu::, as cuemu_rt_record_launch
 * and the launchers' noinline host_launch, which every launch of a kernel
 * type calls): its return address is the same for every calling line.
 * Code of the shims that g++ inlined is in the program's function. Looked
 * up once for each address. */
static int in_shims_function(const void *pc) {
  pthread_mutex_lock(&api_lock);
  void *known = cuemu__ptr_map_get(&shims_pcs, (uintptr_t)pc);
  pthread_mutex_unlock(&api_lock);
  if (known)
    return known == (void *)2;
  char function[512];
  const char *name = function;
  int shims = 0;
  if (cuemu__check_function_at(pc, function, sizeof function)) {
    if (strncmp(name, "void ", 5) == 0)
      name += 5;
    shims = strncmp(name, "cuemu_", 6) == 0 || strncmp(name, "cuemu::", 7) == 0;
  }
  pthread_mutex_lock(&api_lock);
  (void)cuemu__ptr_map_put(&shims_pcs, (uintptr_t)pc,
                           (void *)(uintptr_t)(shims ? 2 : 1));
  pthread_mutex_unlock(&api_lock);
  return shims;
}

void cuemu__check_api_error(int code) {
  int which;
  if (!atomic_load_explicit(&cuemu__check_present, memory_order_relaxed) ||
      !(which = cuemu__config_check_api_errors()))
    return;
  const void *callers[CUEMU_CHECK_CALL_CALLERS];
  const void *caller =
      cuemu__check_api_caller(callers, CUEMU_CHECK_CALL_CALLERS);
  if (!caller)
    return;
  /* Once for each calling line: a call made from the shims' own functions
   * (every launch) counts by the first return address past them. */
  const void *site = caller;
  for (int k = 0;
       k < CUEMU_CHECK_CALL_CALLERS && callers[k] && in_shims_function(site);
       ++k)
    site = callers[k];
  uintptr_t key = ((uintptr_t)site * 31u) ^ (uintptr_t)(unsigned)code;
  pthread_mutex_lock(&api_lock);
  int fresh = !cuemu__ptr_map_get(&api_seen, key ? key : 1);
  if (fresh)
    (void)cuemu__ptr_map_put(&api_seen, key ? key : 1, (void *)1);
  pthread_mutex_unlock(&api_lock);
  if (!fresh)
    return;
  /* compute-sanitizer reports the calls that libraries make on their own
   * only with --report-api-errors all, without the API's name here. */
  char function[512], where[512], line[1280];
  const char *name = cuemu__check_api_name(caller, function, sizeof function);
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
