/*
 * cuemu_parity_run.c: runs one case: the host leg, the emulated leg under
 * every schedule, the NVRTC compile leg and the GPU leg, and compares each
 * output of the emulated and GPU legs with the host's.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cuemu_parity_gpu.h"
#include "cuemu_parity_internal.h"

typedef struct run {
  const cuemu__psetup *s;
  const cuemu_parity_options *o;
  cuemu_parity_result *r;
  cuemu__ptext msg;
  unsigned char **host;        /* per array: the host leg's results */
  cuemu__pbuffer *hbufs;       /* per array: where they live */
  unsigned char **first;       /* per array: the first schedule's results */
  const char *first_schedule;
} run;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Records a failure of `leg` (the first failure sets the status). */
static void leg_fail(run *R, cuemu_parity_leg leg, cuemu_status st,
                     const char *what, const char *detail) {
  R->r->legs[leg] = CUEMU_PARITY_FAIL;
  if (R->r->status == CUEMU_SUCCESS)
    R->r->status = st;
  size_t n = strlen(detail);
  cuemu__ptext_add(&R->msg, "%s: %s%s", what, detail,
                   n && detail[n - 1] == '\n' ? "" : "\n");
}

/* The most outputs a result describes in numbers (each one's text is in
 * the message anyway), and the most cells of an error map per side. */
#define MAX_DIFFS 16
#define MAP_SIDE 48
#define MAP_LINE 400

/* Keeps, for reports, how output `i` of `leg` differs from `ref`. */
static void keep_diff(run *R, const char *leg, int i, const char *ref,
                      const void *got, const void *want, const cuemu__pdiff *d) {
  const cuemu__psetup *s = R->s;
  cuemu_parity_result *r = R->r;
  if (r->ndiffs >= MAX_DIFFS)
    return;
  cuemu_parity_diff *more = realloc(r->diffs, (size_t)(r->ndiffs + 1) * sizeof *more);
  if (!more)
    return;
  r->diffs = more;
  cuemu_parity_diff *x = &more[r->ndiffs];
  memset(x, 0, sizeof *x);
  snprintf(x->leg, sizeof x->leg, "%s", leg);
  snprintf(x->output, sizeof x->output, "%s", s->c->args[i].name);
  snprintf(x->reference, sizeof x->reference, "%s", ref);
  x->rows = s->rows[i];
  x->cols = s->cols[i];
  x->differing = d->differing;
  x->max_ulps = d->max_ulps;
  x->nshown = d->nshown;
  memcpy(x->shown, d->shown, sizeof d->shown);
  int two_d = x->rows > 1;
  x->map_rows = two_d ? (int)(x->rows < MAP_SIDE ? x->rows : MAP_SIDE) : 1;
  x->map_cols = (int)(x->cols < (two_d ? MAP_SIDE : MAP_LINE)
                          ? x->cols
                          : (two_d ? MAP_SIDE : MAP_LINE));
  if (x->map_cols < 1)
    x->map_cols = 1;
  size_t cells = (size_t)x->map_rows * (size_t)x->map_cols;
  x->map = calloc(cells, sizeof *x->map);
  x->fails = calloc(cells, sizeof *x->fails);
  if (!x->map || !x->fails) {
    free(x->map);
    free(x->fails);
    return;
  }
  cuemu__parity_error_map(&s->types[i], &s->c->args[i].compare, got, want,
                          x->rows, x->cols, x->map_rows, x->map_cols, x->map,
                          x->fails);
  r->ndiffs++;
}

/* Compares every output of a leg with the host's; 0 when all agree. */
static int compare_outputs(run *R, const char *leg, unsigned char **got) {
  const cuemu_parity_case *c = R->s->c;
  int bad = 0;
  for (int i = 0; i < c->nargs; ++i) {
    const cuemu__parg *a = &c->args[i];
    if (!a->is_array || a->kind == CUEMU_PARITY_INPUT)
      continue;
    cuemu__pdiff d;
    int differ = cuemu__parity_compare(a->name, "host", &R->s->types[i], &a->compare,
                                       got[i], R->host[i], R->s->count[i], &d);
    R->r->compared = 1;
    if (d.max_ulps > R->r->max_ulps)
      R->r->max_ulps = d.max_ulps;
    if (d.max_abs > R->r->max_abs)
      R->r->max_abs = d.max_abs;
    if (differ) {
      cuemu__ptext_add(&R->msg, "%s: output %s differs from the host:\n%s", leg,
                       a->name, d.report ? d.report : "");
      keep_diff(R, leg, i, "host", got[i], R->host[i], &d);
      bad = 1;
    }
    free(d.report);
  }
  return bad;
}

/* Names the array a faulting address belongs near, from the launch message
 * ("... at address 0x...") */
static void explain_fault(run *R, const char *message, cuemu__pbuffer *bufs) {
  const char *at = strstr(message, "at address 0x");
  if (!at)
    return;
  void *addr = (void *)(uintptr_t)strtoull(at + 11, NULL, 16);
  const cuemu_parity_case *c = R->s->c;
  for (int i = 0; i < c->nargs; ++i)
    if (c->args[i].is_array && cuemu__pbuffer_near(&bufs[i], addr)) {
      long off = (long)((unsigned char *)addr - bufs[i].data);
      cuemu__ptext_add(&R->msg,
                       "  the address is out of bounds of array %s: byte "
                       "offset %ld of an array of %zu bytes\n",
                       c->args[i].name, off, bufs[i].bytes);
    }
}

/* One launch of the emulated kernel under `schedule`. */
static void emulate_once(run *R, cuemu_kernel *k, const char *schedule) {
  const cuemu__psetup *s = R->s;
  const cuemu_parity_case *c = s->c;
  char leg[96];
  snprintf(leg, sizeof leg, "emulated (%s)", schedule);
  cuemu__pbuffer *bufs = calloc((size_t)c->nargs + 1, sizeof *bufs);
  void **args = calloc((size_t)c->nargs + 1, sizeof *args);
  unsigned char **got = calloc((size_t)c->nargs + 1, sizeof *got);
  if (!bufs || !args || !got) {
    leg_fail(R, CUEMU_PARITY_LEG_EMULATED, CUEMU_OUT_OF_MEMORY, leg, "out of memory");
    goto out;
  }
  for (int i = 0; i < c->nargs; ++i) {
    if (!c->args[i].is_array) {
      args[i] = s->scalars[i];
      continue;
    }
    if (cuemu__pbuffer_alloc(&bufs[i], s->init[i], s->bytes[i])) {
      leg_fail(R, CUEMU_PARITY_LEG_EMULATED, CUEMU_OUT_OF_MEMORY, leg,
               "cannot map an argument buffer");
      goto out;
    }
    got[i] = bufs[i].data;
    args[i] = &got[i];
    /* The checkers see each array as a device allocation with its name. */
    if (R->o && R->o->checks)
      cuemu_alloc_register(got[i], s->bytes[i], c->args[i].name);
  }
  setenv("CUEMU_SCHEDULE", schedule, 1);
  cuemu_status st =
      c->cooperative
          ? cuemu_kernel_launch_cooperative(k, s->grid, s->block, s->shared,
                                            NULL, args, c->nargs)
          : cuemu_kernel_launch(k, s->grid, s->block, s->shared, NULL, args,
                                c->nargs);
  for (int i = 0; R->o && R->o->checks && i < c->nargs; ++i)
    if (got[i])
      cuemu_alloc_unregister(got[i]);
  if (st != CUEMU_SUCCESS) {
    char detail[9000];
    snprintf(detail, sizeof detail, "the launch failed (%s): %s",
             cuemu_status_name(st), cuemu_last_message());
    leg_fail(R, CUEMU_PARITY_LEG_EMULATED, st, leg, detail);
    explain_fault(R, cuemu_last_message(), bufs);
    goto out;
  }
  cuemu__ptext damage = {0};
  if (cuemu__pbuffers_blame(s, bufs, NULL, "the kernel", &damage)) {
    leg_fail(R, CUEMU_PARITY_LEG_EMULATED, CUEMU_KERNEL_FAULT, leg, damage.s);
    free(damage.s);
    goto out;
  }
  if (R->r->legs[CUEMU_PARITY_LEG_HOST] == CUEMU_PARITY_PASS &&
      compare_outputs(R, leg, got)) {
    R->r->legs[CUEMU_PARITY_LEG_EMULATED] = CUEMU_PARITY_FAIL;
    if (R->r->status == CUEMU_SUCCESS)
      R->r->status = CUEMU_MISMATCH;
  }
  /* Outputs that differ between schedules make the kernel order-dependent,
   * which on a GPU is a race. */
  if (!R->first_schedule) {
    R->first_schedule = schedule;
    for (int i = 0; i < c->nargs; ++i)
      if (c->args[i].is_array && c->args[i].kind != CUEMU_PARITY_INPUT &&
          (R->first[i] = malloc(s->bytes[i] ? s->bytes[i] : 1)))
        memcpy(R->first[i], got[i], s->bytes[i]);
  } else {
    for (int i = 0; i < c->nargs; ++i) {
      const cuemu__parg *a = &c->args[i];
      if (!a->is_array || a->kind == CUEMU_PARITY_INPUT || !R->first[i])
        continue;
      cuemu__pdiff d;
      if (cuemu__parity_compare(a->name, R->first_schedule, &s->types[i],
                                &a->compare, got[i], R->first[i], s->count[i],
                                &d)) {
        char detail[256];
        snprintf(detail, sizeof detail,
                 "order-dependent kernel (a race on a GPU): output %s under "
                 "%s differs from %s:\n",
                 a->name, schedule, R->first_schedule);
        leg_fail(R, CUEMU_PARITY_LEG_EMULATED, CUEMU_MISMATCH, leg, detail);
        cuemu__ptext_add(&R->msg, "%s", d.report ? d.report : "");
        keep_diff(R, leg, i, R->first_schedule, got[i], R->first[i], &d);
      }
      free(d.report);
    }
  }
out:
  for (int i = 0; bufs && i < c->nargs; ++i)
    cuemu__pbuffer_free(&bufs[i]);
  free(bufs);
  free(args);
  free(got);
}

/* Says on stderr which leg starts, when asked (cuemu-parity's children do,
 * so that a crash of the host implementation is attributed). */
static void trace(const run *R, const char *leg) {
  if (R->o && R->o->trace)
    fprintf(stderr, "cuemu-parity: case %s: the %s leg starts\n", R->s->c->name,
            leg);
}

/* Sets `name` back to `value` (NULL: unset), and frees value. */
static void restore_env(const char *name, char *value) {
  if (value)
    setenv(name, value, 1);
  else
    unsetenv(name);
  free(value);
}

/* Runs the loaded kernel under every schedule. */
static void emulated_leg(run *R, cuemu_kernel *k) {
  trace(R, "emulated");
  R->r->legs[CUEMU_PARITY_LEG_EMULATED] = CUEMU_PARITY_PASS;
  const char *checks = R->o && R->o->checks ? R->o->checks : NULL;
  const char *list = R->o && R->o->schedules ? R->o->schedules : "forward";
  char *copy = strdup(list), *save = NULL;
  /* The user's own settings come back afterwards. */
  char *old_schedule = cuemu__parity_strdup(getenv("CUEMU_SCHEDULE"));
  char *old_check = cuemu__parity_strdup(getenv("CUEMU_CHECK"));
  if (checks)
    setenv("CUEMU_CHECK", checks, 1);
  for (char *sch = strtok_r(copy, ",", &save); sch; sch = strtok_r(NULL, ",", &save))
    emulate_once(R, k, sch);
  restore_env("CUEMU_SCHEDULE", old_schedule);
  restore_env("CUEMU_CHECK", old_check);
  /* first_schedule points into copy until here. */
  R->first_schedule = NULL;
  free(copy);
}

/* Whether a missing device or NVRTC fails the case rather than skips. */
static int require_cuda(const cuemu_parity_options *o) {
  const char *v = getenv("CUEMU_REQUIRE_CUDA");
  return (o && o->require_cuda) || (v && strcmp(v, "1") == 0);
}

static void skip_or_fail(run *R, cuemu_parity_leg leg, cuemu_status st,
                         const char *why) {
  if (require_cuda(R->o)) {
    char detail[512];
    snprintf(detail, sizeof detail, "%s, and CUEMU_REQUIRE_CUDA=1", why);
    leg_fail(R, leg, st, cuemu_parity_leg_name(leg), detail);
    return;
  }
  R->r->legs[leg] = CUEMU_PARITY_SKIP;
  cuemu__ptext_add(&R->msg, "%s: skipped: %s\n", cuemu_parity_leg_name(leg), why);
}

static void gpu_leg(run *R, const cuemu__parity_ptx *ptx) {
  const cuemu__psetup *s = R->s;
  const cuemu_parity_case *c = s->c;
  const char *why = NULL;
  if (!cuemu__parity_gpu_available(&why)) {
    skip_or_fail(R, CUEMU_PARITY_LEG_GPU, CUEMU_NO_DEVICE,
                 why ? why : "no CUDA device");
    return;
  }
  cuemu__parity_gpu_arg *args = calloc((size_t)c->nargs + 1, sizeof *args);
  unsigned char **got = calloc((size_t)c->nargs + 1, sizeof *got);
  for (int i = 0; args && got && i < c->nargs; ++i) {
    if (!c->args[i].is_array) {
      args[i] = (cuemu__parity_gpu_arg){s->scalars[i], s->types[i].size, 0, 0};
      continue;
    }
    got[i] = malloc(s->bytes[i] ? s->bytes[i] : 1);
    if (!got[i])
      break;
    memcpy(got[i], s->init[i], s->bytes[i]);
    args[i] = (cuemu__parity_gpu_arg){got[i], s->bytes[i], 1,
                                      c->args[i].kind != CUEMU_PARITY_INPUT};
  }
  char *message = NULL;
  cuemu_status st = args && got ? cuemu__parity_gpu_run(ptx, s->grid, s->block,
                                                         s->shared, c->cooperative,
                                                         args, c->nargs, &message)
                                : CUEMU_OUT_OF_MEMORY;
  if (st) {
    leg_fail(R, CUEMU_PARITY_LEG_GPU, st, "gpu",
             message ? message : cuemu_status_name(st));
  } else {
    R->r->legs[CUEMU_PARITY_LEG_GPU] = CUEMU_PARITY_PASS;
    if (R->r->legs[CUEMU_PARITY_LEG_HOST] == CUEMU_PARITY_PASS &&
        compare_outputs(R, "gpu", got)) {
      R->r->legs[CUEMU_PARITY_LEG_GPU] = CUEMU_PARITY_FAIL;
      if (R->r->status == CUEMU_SUCCESS)
        R->r->status = CUEMU_MISMATCH;
    }
  }
  free(message);
  for (int i = 0; got && i < c->nargs; ++i)
    free(got[i]);
  free(got);
  free(args);
}

extern char **environ;

/* Re-runs the case's GPU leg under each compute-sanitizer tool that the
 * options name; any error the tool reports fails the case. */
static void sanitize_leg(run *R) {
  const cuemu_parity_case *c = R->s->c;
  const char *list = R->o ? R->o->sanitize : NULL;
  if (!list || !*list)
    return;
  if (!R->o->self || !c->file[0]) {
    skip_or_fail(R, CUEMU_PARITY_LEG_SANITIZE, CUEMU_NOT_SUPPORTED,
                 "compute-sanitizer re-runs need a case file and the runner");
    return;
  }
  char *sanitizer = cuemu__parity_sanitizer_find();
  if (!sanitizer) {
    skip_or_fail(R, CUEMU_PARITY_LEG_SANITIZE, CUEMU_NOT_SUPPORTED,
                 "compute-sanitizer was not found");
    return;
  }
  R->r->legs[CUEMU_PARITY_LEG_SANITIZE] = CUEMU_PARITY_PASS;
  char *copy = strdup(list), *save = NULL;
  for (char *tool = strtok_r(copy, ",", &save); tool;
       tool = strtok_r(NULL, ",", &save)) {
    char **argv = NULL, log[] = "/tmp/cuemu-sanitizer-XXXXXX";
    char leg[64];
    snprintf(leg, sizeof leg, "sanitize (%s)", tool);
    if (cuemu__parity_sanitizer_argv(sanitizer, tool, R->o->self, c->name,
                                     c->file, &argv)) {
      leg_fail(R, CUEMU_PARITY_LEG_SANITIZE, CUEMU_INVALID_VALUE, leg,
               "unknown compute-sanitizer tool");
      continue;
    }
    int fd = mkstemp(log);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (fd >= 0) {
      posix_spawn_file_actions_adddup2(&fa, fd, 1);
      posix_spawn_file_actions_adddup2(&fa, fd, 2);
    }
    pid_t pid;
    int status = -1;
    if (posix_spawn(&pid, argv[0], &fa, NULL, argv, environ) == 0)
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    posix_spawn_file_actions_destroy(&fa);
    free(argv);
    char *out = NULL;
    if (fd >= 0) {
      out = cuemu__parity_read_tail(fd, 1 << 20);
      close(fd);
      unlink(log);
    }
    long errors = out ? cuemu__parity_sanitizer_errors(out) : -1;
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (errors != 0 || code != 0) {
      size_t n = out ? strlen(out) : 0;
      char detail[512];
      snprintf(detail, sizeof detail,
               "compute-sanitizer --tool %s reported %ld error%s (exit %d):\n",
               tool, errors, errors == 1 ? "" : "s", code);
      leg_fail(R, CUEMU_PARITY_LEG_SANITIZE, CUEMU_CUDA_DRIVER, leg, detail);
      cuemu__ptext_add(&R->msg, "%s\n", out ? out + (n > 4000 ? n - 4000 : 0) : "");
    }
    free(out);
  }
  free(copy);
  free(sanitizer);
}

static void cuda_legs(run *R) {
  const cuemu_parity_case *c = R->s->c;
  cuemu__parity_ptx ptx;
  memset(&ptx, 0, sizeof ptx);
  char *log = NULL;
  const char *why = NULL;
  if (cuemu__parity_nvrtc_version(&why) <= 0) {
    skip_or_fail(R, CUEMU_PARITY_LEG_NVRTC, CUEMU_NVRTC,
                 why ? why : "NVRTC could not be loaded");
    skip_or_fail(R, CUEMU_PARITY_LEG_GPU, CUEMU_NVRTC, "NVRTC is missing");
    return;
  }
  cuemu_status st = cuemu__parity_nvrtc_compile(
      c->source, c->kernel, (const char *const *)c->options, c->noptions, 0,
      &ptx, &log);
  if (st) {
    char detail[8192];
    snprintf(detail, sizeof detail,
             "%s does not compile with NVRTC (so not with CUDA either):\n%s",
             c->source, log ? log : cuemu_status_name(st));
    leg_fail(R, CUEMU_PARITY_LEG_NVRTC, st, "nvrtc", detail);
  } else {
    R->r->legs[CUEMU_PARITY_LEG_NVRTC] = CUEMU_PARITY_PASS;
    gpu_leg(R, &ptx);
    /* A mismatch on the GPU is when the sanitizers help most. */
    if (R->r->legs[CUEMU_PARITY_LEG_GPU] == CUEMU_PARITY_PASS ||
        R->r->status == CUEMU_MISMATCH)
      sanitize_leg(R);
  }
  free(log);
  cuemu__parity_nvrtc_free(&ptx);
}

cuemu_status cuemu_parity_case_run(cuemu_parity_case *c,
                                   const cuemu_parity_options *options,
                                   cuemu_parity_result *result) {
  double t0 = now();
  memset(result, 0, sizeof *result);
  cuemu__psetup s;
  run R;
  memset(&R, 0, sizeof R);
  R.s = &s;
  R.o = options;
  R.r = result;
  cuemu_status st = cuemu__psetup_build(c, &s);
  if (st) {
    result->status = st;
    cuemu__ptext_add(&R.msg, "%s\n", cuemu_parity_last_message());
    goto out;
  }
  R.host = calloc((size_t)c->nargs + 1, sizeof *R.host);
  R.hbufs = calloc((size_t)c->nargs + 1, sizeof *R.hbufs);
  R.first = calloc((size_t)c->nargs + 1, sizeof *R.first);
  void **hargs = calloc((size_t)c->nargs + 1, sizeof *hargs);
  if (!R.host || !R.hbufs || !R.first || !hargs) {
    free(hargs);
    result->status = CUEMU_OUT_OF_MEMORY;
    goto out;
  }
  /* The host leg works on copies of the arrays, guarded as the emulated
   * leg's are. */
  for (int i = 0; i < c->nargs; ++i) {
    if (!c->args[i].is_array) {
      hargs[i] = s.scalars[i];
      continue;
    }
    if (cuemu__pbuffer_alloc(&R.hbufs[i], s.init[i], s.bytes[i])) {
      free(hargs);
      result->status = CUEMU_OUT_OF_MEMORY;
      goto out;
    }
    R.host[i] = R.hbufs[i].data;
    hargs[i] = &R.host[i];
  }
  /* The kernel is compiled and its parameters checked first: a case whose
   * arguments do not match them would call the host function with the
   * wrong calling convention too. */
  cuemu_module *module = NULL;
  cuemu_kernel *kernel = NULL;
  char module_path[64] = "";
  if (!(options && options->gpu_only)) {
    trace(&R, "compile");
    st = cuemu__parity_emu_load(&s, options ? options->checks : NULL, &module,
                                &kernel, module_path, sizeof module_path);
    if (st) {
      leg_fail(&R, CUEMU_PARITY_LEG_EMULATED, st, "emulated",
               cuemu_parity_last_message());
      if (st == CUEMU_CASE_INVALID) {
        free(hargs);
        goto out;
      }
    }
  }
  trace(&R, "host");
  st = cuemu__parity_host_run(&s, hargs, R.hbufs);
  free(hargs);
  if (st)
    leg_fail(&R, CUEMU_PARITY_LEG_HOST, st, "host", cuemu_parity_last_message());
  else
    result->legs[CUEMU_PARITY_LEG_HOST] = CUEMU_PARITY_PASS;
  if (kernel)
    emulated_leg(&R, kernel);
  if (module) {
    cuemu_module_unload(module);
    if (module_path[0])
      unlink(module_path);
  }
  if (!(options && options->no_gpu)) {
    trace(&R, "nvrtc");
    cuda_legs(&R);
  }
out:
  for (int i = 0; i < c->nargs; ++i) {
    if (R.hbufs)
      cuemu__pbuffer_free(&R.hbufs[i]);
    if (R.first)
      free(R.first[i]);
  }
  free(R.hbufs);
  free(R.host);
  free(R.first);
  cuemu__psetup_free(&s);
  result->message = R.msg.s ? R.msg.s : strdup("");
  result->seconds = now() - t0;
  return result->status;
}

void cuemu_parity_result_free(cuemu_parity_result *result) {
  free(result->message);
  result->message = NULL;
  for (int i = 0; i < result->ndiffs; ++i) {
    free(result->diffs[i].map);
    free(result->diffs[i].fails);
  }
  free(result->diffs);
  result->diffs = NULL;
  result->ndiffs = 0;
}
