/*
 * cuemu_parity_main.c: the cuemu-parity command. Finds every case under
 * the paths given, runs each in a process of its own (several at a time),
 * and prints a table; optionally writes JUnit XML.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cuemu_parity_gpu.h"
#include "cuemu_parity_internal.h"
#include "cuemu_parity_report.h"

static void usage(FILE *out) {
  fputs(
      "usage: cuemu-parity [options] PATH...\n"
      "Runs every parity case (*.parity.yaml) found under the PATHs: the host\n"
      "implementation, the emulated kernel, NVRTC and, with a CUDA device, the\n"
      "GPU, and compares each output with the host's.\n"
      "\n"
      "  --schedules LIST  emulate under each schedule (forward,reverse,\n"
      "                    random:SEED); outputs that differ mark a race\n"
      "  --check LIST      checkers in the emulated leg (sync,race,mem,init,all)\n"
      "  --sanitize LIST   re-run the GPU leg under compute-sanitizer tools\n"
      "                    (memcheck,racecheck,synccheck,initcheck)\n"
      "  --no-gpu          skip the NVRTC and GPU legs\n"
      "  --one-module      compile the kernels of the cases with the same\n"
      "                    options as one module, once (sources that do not\n"
      "                    compile together are compiled alone)\n"
      "  --junit FILE      also write JUnit XML\n"
      "  --html FILE       also write an HTML report (one self-contained page)\n"
      "  --shard K/N       run only the K-th of N shares of the cases\n"
      "  --jobs N          cases run at once (default: online CPUs)\n"
      "  --timeout S       seconds a case may take (default 600)\n"
      "  --list            list the cases and exit\n"
      "  --version, --help\n"
      "\n"
      "Exit status: 0 when every case passed, 1 when one failed, 2 on bad usage.\n"
      "CUEMU_REQUIRE_CUDA=1 fails (rather than skips) the GPU leg without a "
      "device.\n"
      "With GITHUB_STEP_SUMMARY set, a Markdown summary is appended to that "
      "file;\nwith GITHUB_ACTIONS=true, each failure is also an ::error "
      "annotation.\n",
      out);
}

/* A case to run: loaded, or a file that did not load. */
typedef struct entry {
  char *file;
  cuemu_parity_case *c;
  char *error;                 /* why the file did not load */
  char *stem;                  /* then the row's name */
  cuemu__prow row;
  pid_t pid;
  double started;
  char result[64];
  char log[64];
} entry;

typedef struct list {
  entry *e;
  int n, cap;
  char **files;
  int nfiles, capfiles;
} list;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int is_case_file(const char *name) {
  size_t n = strlen(name);
  return (n > 12 && strcmp(name + n - 12, ".parity.yaml") == 0) ||
         (n > 11 && strcmp(name + n - 11, ".parity.yml") == 0);
}

static int add_file(list *L, const char *path) {
  /* A file reached through two paths runs once. */
  char real[PATH_MAX];
  if (realpath(path, real))
    for (int i = 0; i < L->nfiles; ++i) {
      char other[PATH_MAX];
      if (realpath(L->files[i], other) && strcmp(real, other) == 0)
        return 0;
    }
  if (L->nfiles == L->capfiles) {
    L->capfiles = L->capfiles ? L->capfiles * 2 : 64;
    char **f = realloc(L->files, (size_t)L->capfiles * sizeof *f);
    if (!f)
      return -1;
    L->files = f;
  }
  return (L->files[L->nfiles++] = strdup(path)) ? 0 : -1;
}

/* Collects case files under `path`, recursively. */
static int walk(list *L, const char *path, int top) {
  struct stat st;
  if (stat(path, &st) != 0) {
    if (top)
      fprintf(stderr, "cuemu-parity: %s: %s\n", path, strerror(errno));
    return top ? -1 : 0;
  }
  if (!S_ISDIR(st.st_mode)) {
    const char *base = strrchr(path, '/');
    if (top || is_case_file(base ? base + 1 : path))
      return add_file(L, path);
    return 0;
  }
  DIR *d = opendir(path);
  if (!d)
    return 0;
  struct dirent *de;
  while ((de = readdir(d))) {
    if (de->d_name[0] == '.')
      continue;
    char sub[PATH_MAX];
    size_t len = strlen(path);
    snprintf(sub, sizeof sub, "%s%s%s", path,
             len && path[len - 1] == '/' ? "" : "/", de->d_name);
    struct stat s2;
    if (lstat(sub, &s2) != 0)
      continue; /* symbolic links to folders are not followed */
    if (S_ISDIR(s2.st_mode) ? walk(L, sub, 0) : is_case_file(de->d_name) ? add_file(L, sub) : 0) {
      closedir(d);
      return -1;
    }
  }
  closedir(d);
  return 0;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static entry *new_entry(list *L) {
  if (L->n == L->cap) {
    L->cap = L->cap ? L->cap * 2 : 64;
    entry *e = realloc(L->e, (size_t)L->cap * sizeof *e);
    if (!e)
      return NULL;
    L->e = e;
  }
  entry *e = &L->e[L->n++];
  memset(e, 0, sizeof *e);
  return e;
}

/* Loads every file; a file that does not load becomes one failing entry. */
static int load_all(list *L) {
  qsort(L->files, (size_t)L->nfiles, sizeof *L->files, cmp_str);
  for (int i = 0; i < L->nfiles; ++i) {
    cuemu_parity_case **cases;
    int n;
    cuemu_status st = cuemu_parity_load(L->files[i], &cases, &n);
    if (st) {
      entry *e = new_entry(L);
      if (!e)
        return -1;
      e->file = L->files[i];
      e->error = strdup(cuemu_parity_last_message());
      /* The row is named after the file, without its folder and suffix. */
      const char *base = strrchr(e->file, '/');
      base = base ? base + 1 : e->file;
      e->stem = strndup(base, strcspn(base, "."));
      e->row.name = e->stem ? e->stem : e->file;
      e->row.file = e->file;
      continue;
    }
    for (int k = 0; k < n; ++k) {
      entry *e = new_entry(L);
      if (!e)
        return -1;
      e->file = L->files[i];
      e->c = cases[k];
      e->row.name = cuemu_parity_case_name(cases[k]);
      e->row.file = e->file;
      e->row.line = cases[k]->line;
    }
    free(cases);
  }
  return 0;
}

/* In the child: runs one case and writes its result to e->result. */
static void run_child(entry *e, const cuemu_parity_options *o, int workers) {
  /* A process group of its own, so that a timeout also ends what the case
   * started (a compiler, compute-sanitizer); and it dies with the runner. */
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  signal(SIGHUP, SIG_DFL);
  int log = open(e->log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (log >= 0) {
    dup2(log, 1);
    dup2(log, 2);
    close(log);
  }
  if (!getenv("CUEMU_WORKERS")) {
    char w[16];
    snprintf(w, sizeof w, "%d", workers);
    setenv("CUEMU_WORKERS", w, 1);
  }
  setenv("CUEMU_QUIET", "1", 1);
  cuemu_parity_options mine = *o;
  mine.trace = 1;
  cuemu_parity_result r;
  cuemu_parity_case_run(e->c, &mine, &r);
  FILE *f = fopen(e->result, "w");
  int ok = f && cuemu__parity_result_write(f, &r) == 0;
  if (f)
    fclose(f);
  _exit(ok ? 0 : 3);
}

/* In the runner: reads a finished child's result. */
static void collect(entry *e, int status) {
  cuemu_parity_result *r = &e->row.result;
  FILE *f = fopen(e->result, "r");
  int ok = f && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
           cuemu__parity_result_read(f, r) == 0;
  if (f)
    fclose(f);
  if (!ok) {
    cuemu__ptext t = {0};
    if (WIFSIGNALED(status))
      cuemu__ptext_add(&t,
                       "the process running this case was killed by signal %d "
                       "(%s)%s; its output:\n",
                       WTERMSIG(status), strsignal(WTERMSIG(status)),
                       WTERMSIG(status) == SIGKILL ? ", or ran past --timeout" : "");
    else
      cuemu__ptext_add(&t, "the process running this case ended with status %d; "
                           "its output:\n",
                       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    FILE *l = fopen(e->log, "r");
    char line[512];
    int lines = 0;
    while (l && fgets(line, sizeof line, l) && lines++ < 40)
      cuemu__ptext_add(&t, "  %s", line);
    if (l)
      fclose(l);
    memset(r, 0, sizeof *r);
    r->status = CUEMU_INTERNAL;
    r->message = t.s ? t.s : strdup("");
  }
  r->seconds = now() - e->started;
  unlink(e->result);
  unlink(e->log);
}

/* The children running now, for the signal handler. */
static volatile pid_t active_children[256];

/* Ends every running case (each a process group) when the runner is
 * interrupted or terminated, then dies of the same signal. */
static void on_stop(int sig) {
  for (size_t i = 0; i < sizeof active_children / sizeof *active_children; ++i)
    if (active_children[i] > 0)
      kill(-active_children[i], SIGKILL);
  signal(sig, SIG_DFL);
  raise(sig);
}

static void track(pid_t pid, pid_t replace) {
  for (size_t i = 0; i < sizeof active_children / sizeof *active_children; ++i)
    if (active_children[i] == replace) {
      active_children[i] = pid;
      return;
    }
}

static void progress(int done, int total, const char *name) {
  if (!isatty(2))
    return;
  if (done < total)
    fprintf(stderr, "\r\033[K[%d/%d] %s", done, total, name);
  else
    fprintf(stderr, "\r\033[K");
}

/* Runs the selected entries, `jobs` at a time. */
static void run_all(entry **run, int n, const cuemu_parity_options *o, int jobs,
                    double timeout, const char *tmp) {
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  int workers = (int)(cpus > 0 ? cpus : 1) / jobs;
  if (workers < 1)
    workers = 1;
  int next = 0, active = 0, done = 0;
  while (done < n) {
    while (active < jobs && next < n) {
      entry *e = run[next++];
      if (e->error) {
        e->row.result.status = CUEMU_CASE_INVALID;
        e->row.result.message = strdup(e->error);
        done++;
        continue;
      }
      snprintf(e->result, sizeof e->result, "%s/%d.result", tmp, next);
      snprintf(e->log, sizeof e->log, "%s/%d.log", tmp, next);
      e->started = now();
      fflush(NULL);
      pid_t pid = fork();
      if (pid == 0)
        run_child(e, o, workers);
      if (pid < 0) {
        e->row.result.status = CUEMU_INTERNAL;
        e->row.result.message = strdup("fork failed");
        done++;
        continue;
      }
      setpgid(pid, pid);
      track(pid, 0);
      e->pid = pid;
      active++;
      progress(done, n, e->row.name);
    }
    if (!active)
      continue;
    int status;
    pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid <= 0) {
      double t = now();
      for (int i = 0; i < next; ++i)
        if (run[i]->pid > 0 && t - run[i]->started > timeout)
          kill(-run[i]->pid, SIGKILL);
      struct timespec nap = {0, 20 * 1000 * 1000};
      nanosleep(&nap, NULL);
      continue;
    }
    for (int i = 0; i < next; ++i)
      if (run[i]->pid == pid) {
        track(0, pid);
        run[i]->pid = 0;
        collect(run[i], status);
        active--;
        done++;
        progress(done, n, run[i]->row.name);
      }
  }
}

static int schedule_ok(const char *s) {
  if (strcmp(s, "forward") == 0 || strcmp(s, "reverse") == 0)
    return 1;
  if (strncmp(s, "random:", 7) != 0 || !s[7])
    return 0;
  char *end;
  strtoull(s + 7, &end, 10);
  return !*end;
}

static int check_ok(const char *s) {
  static const char *const names[] = {"sync", "race", "mem", "init", "all"};
  for (size_t i = 0; i < sizeof names / sizeof *names; ++i)
    if (strcmp(s, names[i]) == 0)
      return 1;
  return 0;
}

/* Whether a comma-separated list has at least one item, each accepted by
 * `ok`. */
static int valid_list(const char *list, int (*ok)(const char *)) {
  char *copy = strdup(list), *save = NULL;
  int n = 0, good = copy != NULL;
  for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; t;
       t = strtok_r(NULL, ",", &save), ++n)
    good &= ok(t);
  free(copy);
  return good && n > 0;
}

/* --gpu-leg-only --case NAME FILE: what compute-sanitizer runs. */
static int gpu_leg_only(const char *file, const char *name,
                        const cuemu_parity_options *base) {
  cuemu_parity_case **cases;
  int n;
  if (cuemu_parity_load(file, &cases, &n)) {
    fprintf(stderr, "cuemu-parity: %s\n", cuemu_parity_last_message());
    return 2;
  }
  int rc = 2;
  for (int i = 0; i < n; ++i) {
    if (rc == 2 && strcmp(cuemu_parity_case_name(cases[i]), name) == 0) {
      cuemu_parity_options o = *base;
      o.gpu_only = 1;
      o.sanitize = NULL;
      o.require_cuda = 1;
      cuemu_parity_result r;
      rc = cuemu_parity_case_run(cases[i], &o, &r) == CUEMU_SUCCESS ? 0 : 1;
      fputs(r.message, stderr);
      cuemu_parity_result_free(&r);
    }
    cuemu_parity_case_free(cases[i]);
  }
  free(cases);
  if (rc == 2)
    fprintf(stderr, "cuemu-parity: %s has no case %s\n", file, name);
  return rc;
}

int main(int argc, char **argv) {
  cuemu_parity_options o;
  memset(&o, 0, sizeof o);
  const char *junit = NULL, *html = NULL, *only_case = NULL;
  double started = now();
  int shard_k = 1, shard_n = 1, list_only = 0, leg_only = 0, one_module = 0;
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  int jobs = cpus > 0 ? (int)cpus : 1;
  double timeout = 600;
  list L;
  memset(&L, 0, sizeof L);
  char self[PATH_MAX];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len > 0) {
    self[len] = 0;
    o.self = self;
  }
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define VALUE()                                                              \
  do {                                                                       \
    if (!v) {                                                                \
      fprintf(stderr, "cuemu-parity: %s needs a value\n", a);                \
      return 2;                                                              \
    }                                                                        \
    ++i;                                                                     \
  } while (0)
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      usage(stdout);
      return 0;
    } else if (strcmp(a, "--version") == 0) {
      printf("cuemu-parity " CUEMU_VERSION "\n");
      return 0;
    } else if (strcmp(a, "--schedules") == 0) {
      VALUE();
      o.schedules = v;
      if (!valid_list(v, schedule_ok)) {
        fprintf(stderr, "cuemu-parity: --schedules %s: expected a list of "
                        "forward, reverse and random:SEED\n", v);
        return 2;
      }
    } else if (strcmp(a, "--check") == 0 || strncmp(a, "--check=", 8) == 0) {
      if (a[7] == '=') {
        v = a + 8;
      } else {
        VALUE();
      }
      o.checks = v;
      if (!valid_list(v, check_ok)) {
        fprintf(stderr, "cuemu-parity: --check %s: expected a list of sync, "
                        "race, mem, init and all\n", v);
        return 2;
      }
    } else if (strcmp(a, "--sanitize") == 0 || strncmp(a, "--sanitize=", 11) == 0) {
      if (a[10] == '=') {
        v = a + 11;
      } else {
        VALUE();
      }
      o.sanitize = v;
      char *copy = strdup(v), *save = NULL;
      for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
        if (!cuemu__parity_sanitizer_tool_valid(t)) {
          fprintf(stderr, "cuemu-parity: --sanitize: unknown tool %s (memcheck, "
                          "racecheck, synccheck, initcheck)\n", t);
          return 2;
        }
      free(copy);
    } else if (strcmp(a, "--one-module") == 0) {
      one_module = 1;
    } else if (strcmp(a, "--no-gpu") == 0) {
      o.no_gpu = 1;
    } else if (strcmp(a, "--junit") == 0) {
      VALUE();
      junit = v;
    } else if (strcmp(a, "--html") == 0) {
      VALUE();
      html = v;
    } else if (strcmp(a, "--shard") == 0) {
      VALUE();
      if (cuemu__parity_shard_parse(v, &shard_k, &shard_n)) {
        fprintf(stderr, "cuemu-parity: --shard %s: expected K/N with 1 <= K <= N\n", v);
        return 2;
      }
    } else if (strcmp(a, "--jobs") == 0 || strcmp(a, "-j") == 0) {
      VALUE();
      char *end;
      long j = strtol(v, &end, 10);
      jobs = *end || j < 1 || j > 4096 ? 0 : (int)j;
      if (jobs < 1) {
        fprintf(stderr, "cuemu-parity: --jobs %s: expected a positive number\n", v);
        return 2;
      }
    } else if (strcmp(a, "--timeout") == 0) {
      VALUE();
      char *end;
      timeout = strtod(v, &end);
      if (*end || !(timeout > 0)) {
        fprintf(stderr, "cuemu-parity: --timeout %s: expected seconds\n", v);
        return 2;
      }
    } else if (strcmp(a, "--list") == 0) {
      list_only = 1;
    } else if (strcmp(a, "--gpu-leg-only") == 0) {
      leg_only = 1;
    } else if (strcmp(a, "--case") == 0) {
      VALUE();
      only_case = v;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "cuemu-parity: unknown option %s\n", a);
      usage(stderr);
      return 2;
    } else if (leg_only) {
      if (!only_case) {
        fprintf(stderr, "cuemu-parity: --gpu-leg-only needs --case NAME\n");
        return 2;
      }
      return gpu_leg_only(a, only_case, &o);
    } else if (walk(&L, a, 1)) {
      return 2;
    }
#undef VALUE
  }
  if (!L.nfiles) {
    fprintf(stderr, "cuemu-parity: no case files (*.parity.yaml) found\n");
    usage(stderr);
    return 2;
  }
  if (load_all(&L)) {
    fprintf(stderr, "cuemu-parity: out of memory\n");
    return 2;
  }
  /* Case names are unique across every file: a report, JUnit and --case
   * tell cases apart by name. */
  cuemu_parity_case **all = calloc((size_t)L.n + 1, sizeof *all);
  int nall = 0;
  for (int i = 0; all && i < L.n; ++i)
    if (L.e[i].c)
      all[nall++] = L.e[i].c;
  cuemu__ptext dup = {0};
  int dups = all ? cuemu__parity_duplicates(all, nall, &dup) : 0;
  free(all);
  if (dups) {
    fprintf(stderr, "cuemu-parity: %s", dup.s);
    free(dup.s);
    return 2;
  }
  entry **run = calloc((size_t)L.n + 1, sizeof *run);
  int n = 0;
  for (int i = 0; i < L.n; ++i)
    if (cuemu__parity_in_shard(i, shard_k, shard_n) &&
        (!only_case || strcmp(L.e[i].row.name, only_case) == 0))
      run[n++] = &L.e[i];
  if (list_only) {
    for (int i = 0; i < n; ++i)
      printf("%s\t%s\n", run[i]->row.name, run[i]->file);
    return 0;
  }
  /* The reports' files are opened before any case runs, so that a path
   * that cannot be written is found at once, not after every case ran. */
  FILE *junit_file = NULL, *html_file = NULL, *summary_file = NULL;
  const char *summary = getenv("GITHUB_STEP_SUMMARY");
  if (junit && !(junit_file = fopen(junit, "w"))) {
    fprintf(stderr, "cuemu-parity: --junit %s: cannot write it: %s\n", junit,
            strerror(errno));
    return 2;
  }
  if (html && !(html_file = fopen(html, "w"))) {
    fprintf(stderr, "cuemu-parity: --html %s: cannot write it: %s\n", html,
            strerror(errno));
    return 2;
  }
  /* GitHub's step summary is appended to; a missing one costs only it. */
  if (summary && *summary && !(summary_file = fopen(summary, "a")))
    fprintf(stderr, "cuemu-parity: GITHUB_STEP_SUMMARY %s: %s\n", summary,
            strerror(errno));
  char tmp[] = "/tmp/cuemu-parity-XXXXXX";
  if (!mkdtemp(tmp)) {
    fprintf(stderr, "cuemu-parity: a temporary folder: %s\n", strerror(errno));
    return 2;
  }
  if (jobs > n && n > 0)
    jobs = n;
  if (jobs > (int)(sizeof active_children / sizeof *active_children))
    jobs = (int)(sizeof active_children / sizeof *active_children);
  signal(SIGINT, on_stop);
  signal(SIGTERM, on_stop);
  signal(SIGHUP, on_stop);
  char **made = NULL;
  if (one_module && !o.gpu_only) {
    cuemu_parity_case **cases = calloc((size_t)n + 1, sizeof *cases);
    int ncases = 0;
    for (int i = 0; cases && i < n; ++i)
      if (run[i]->c && !run[i]->error)
        cases[ncases++] = run[i]->c;
    if (cases)
      made = cuemu__parity_combine(cases, ncases, o.checks, tmp);
    free(cases);
  }
  run_all(run, n, &o, jobs, timeout, tmp);
  for (int i = 0; made && made[i]; ++i) {
    unlink(made[i]);
    free(made[i]);
  }
  free(made);
  rmdir(tmp);
  cuemu__prow *rows = calloc((size_t)n + 1, sizeof *rows);
  int failed = 0;
  for (int i = 0; i < n; ++i) {
    rows[i] = run[i]->row;
    failed += rows[i].result.status != CUEMU_SUCCESS;
  }
  if (shard_n > 1)
    printf("shard %d of %d: %d of %d cases\n", shard_k, shard_n, n, L.n);
  cuemu__parity_table_write(stdout, rows, n);
  cuemu__prun info = {o.schedules, o.checks, o.sanitize, now() - started};
  cuemu__parity_summary_line(stdout, rows, n, &info);
  const char *actions = getenv("GITHUB_ACTIONS");
  if (actions && strcmp(actions, "true") == 0)
    cuemu__parity_annotations_write(stdout, rows, n);
  if (html_file) {
    int bad = cuemu__parity_html_write(html_file, rows, n, &info) != 0;
    bad |= fclose(html_file) != 0;
    if (bad) {
      fprintf(stderr, "cuemu-parity: cannot write %s: %s\n", html,
              strerror(errno));
      failed++;
    }
  }
  if (summary_file) {
    int bad = cuemu__parity_markdown_write(summary_file, rows, n, &info) != 0;
    bad |= fclose(summary_file) != 0;
    if (bad)
      fprintf(stderr, "cuemu-parity: cannot write GITHUB_STEP_SUMMARY %s\n",
              summary);
  }
  if (junit_file) {
    int bad = cuemu__parity_junit_write(junit_file, rows, n) != 0;
    bad |= fclose(junit_file) != 0;
    if (bad) {
      fprintf(stderr, "cuemu-parity: cannot write %s: %s\n", junit,
              strerror(errno));
      failed++;
    }
  }
  for (int i = 0; i < L.n; ++i) {
    cuemu_parity_case_free(L.e[i].c);
    free(L.e[i].error);
    free(L.e[i].stem);
    cuemu_parity_result_free(&L.e[i].row.result);
  }
  for (int i = 0; i < L.nfiles; ++i)
    free(L.files[i]);
  free(L.files);
  free(L.e);
  free(run);
  free(rows);
  return failed ? 1 : 0;
}
