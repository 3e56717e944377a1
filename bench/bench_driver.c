/*
 * bench_driver.c: the measuring program behind bench/run_bench.sh.
 *
 * Each subcommand does one measurement in this process and prints raw
 * samples, one line per series: "NAME v1 v2 ...". The script interleaves
 * processes, gathers the series and computes the ratios, so that this file
 * holds no targets. Every subcommand first prints "lib PATH BACKEND": the
 * libcuemu that was actually loaded, so that a run against the wrong build is
 * caught. Results are checked; a wrong result is an error (exit status 1).
 *
 *   saxpy MODULE HOSTLIB LOG2N REPS   emulated saxpy vs the host loop, and
 *                                     the saxpy with a barrier that only
 *                                     the last block reaches
 *   reduce MODULE LOG2N REPS          the 256-thread tree reduction (wall
 *                                     and process CPU time per launch)
 *   memory MODULE BLOCKS THREADS      peak memory growth of one launch
 *   warp MODULE LOG2N REPS            the warp-shuffle reduction and the same
 *                                     one through shared memory, alternating
 *                                     (wall and process CPU time)
 *   kernels MODULE LOG2N REPS NAME... the warp-collective kernels of
 *                                     bench_collectives.cu, alternating (wall
 *                                     and process CPU time per launch)
 *   fiber LOG2N REPS                  (bench_fiber.c, not this file)
 *   spawn N PROGRAM ARGS...           wall and CPU time of N runs of a
 *                                     program
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

#include <cuemu/cuemu.h>

extern char **environ;

static long long clock_ns(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long now_ns(void) { return clock_ns(CLOCK_MONOTONIC); }

/* CPU time of the whole process (all its OS threads). */
static long long cpu_ns(void) { return clock_ns(CLOCK_PROCESS_CPUTIME_ID); }

static void die(const char *fmt, const char *arg) {
  fprintf(stderr, "bench_driver: ");
  fprintf(stderr, fmt, arg);
  fputc('\n', stderr);
  exit(1);
}

static void check(cuemu_status st, const char *what) {
  if (st != CUEMU_SUCCESS) {
    fprintf(stderr, "bench_driver: %s: %s: %s\n", what,
            cuemu_status_name(st), cuemu_last_message());
    exit(1);
  }
}

static void *xmalloc(size_t n) {
  void *p = malloc(n);
  if (!p)
    die("out of memory (%s)", "malloc");
  return p;
}

/* Says which libcuemu this process runs on and its context backend. */
static void print_lib(void) {
  Dl_info info;
  const char *path = "unknown";
  if (dladdr((void *)cuemu_kernel_launch, &info) && info.dli_fname)
    path = info.dli_fname;
  printf("lib %s %s\n", path, cuemu_context_backend());
}

static cuemu_kernel *load_kernel(const char *module_path, const char *name) {
  cuemu_module *m;
  cuemu_kernel *k;
  check(cuemu_module_load(&m, module_path), module_path);
  check(cuemu_module_get_kernel(m, name, &k), name);
  return k;
}

static void print_series(const char *name, const long long *v, int n) {
  printf("%s", name);
  for (int i = 0; i < n; ++i)
    printf(" %lld", v[i]);
  printf("\n");
}

static cuemu_dim3 dim(unsigned x) {
  cuemu_dim3 d = {x, 1, 1};
  return d;
}

/* ---- saxpy ----------------------------------------------------------------- */

typedef void (*saxpy_fn)(int, float, const float *, float *);

static int cmd_saxpy(int argc, char **argv) {
  if (argc != 4)
    die("usage: saxpy MODULE HOSTLIB LOG2N REPS%s", "");
  cuemu_kernel *k = load_kernel(argv[0], "bench_saxpy");
  cuemu_kernel *rare = load_kernel(argv[0], "bench_saxpy_rare_barrier");
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    die("%s", dlerror());
  saxpy_fn host = (saxpy_fn)dlsym(lib, "bench_saxpy_host");
  if (!host)
    die("%s", dlerror());
  int n = 1 << atoi(argv[2]), reps = atoi(argv[3]);
  float a = 0.5f;
  float *x = xmalloc((size_t)n * sizeof *x), *y = xmalloc((size_t)n * sizeof *y);
  for (int i = 0; i < n; ++i) { /* touches every page */
    x[i] = (float)(i % 4);
    y[i] = 0.0f;
  }
  void *args[] = {&n, &a, &x, &y};
  cuemu_dim3 grid = dim((unsigned)(n + 255) / 256), block = dim(256);
  /* t[0]: the host loop, t[1]: the emulated saxpy, t[2]: the same with a
   * barrier that only the last block reaches. */
  long long *t[3], *c[3];
  for (int j = 0; j < 3; ++j) {
    t[j] = xmalloc((size_t)reps * sizeof *t[j]);
    c[j] = xmalloc((size_t)reps * sizeof *c[j]);
  }

  /* Warm-up: one untimed run of each. */
  host(n, a, x, y);
  check(cuemu_kernel_launch(k, grid, block, 0, NULL, args, 4), "launch");
  check(cuemu_kernel_launch(rare, grid, block, 0, NULL, args, 4), "launch");
  for (int r = 0; r < reps; ++r) {
    /* Rotate the order so that none always follows the same one. */
    for (int h = 0; h < 3; ++h) {
      int j = (h + r) % 3;
      long long c0 = cpu_ns(), t0 = now_ns();
      if (j == 0)
        host(n, a, x, y);
      else
        check(cuemu_kernel_launch(j == 1 ? k : rare, grid, block, 0, NULL,
                                  args, 4),
              "launch");
      t[j][r] = now_ns() - t0;
      c[j][r] = cpu_ns() - c0;
    }
  }
  /* Each of the 3 * (reps + 1) runs added a * x[i]; the values stay exact. */
  float calls = 3.0f * (float)(reps + 1);
  for (int i = 0; i < n; ++i)
    if (y[i] != calls * a * (float)(i % 4)) {
      fprintf(stderr, "bench_driver: saxpy: y[%d] = %g, expected %g\n", i,
              (double)y[i], (double)(calls * a * (float)(i % 4)));
      return 1;
    }
  print_lib();
  print_series("host_ns", t[0], reps);
  print_series("emu_ns", t[1], reps);
  print_series("emu_rare_ns", t[2], reps);
  print_series("host_cpu_ns", c[0], reps);
  print_series("emu_cpu_ns", c[1], reps);
  print_series("emu_rare_cpu_ns", c[2], reps);
  return 0;
}

/* ---- reduction ------------------------------------------------------------- */

static int cmd_reduce(int argc, char **argv) {
  if (argc != 3)
    die("usage: reduce MODULE LOG2N REPS%s", "");
  cuemu_kernel *k = load_kernel(argv[0], "bench_reduce256");
  int n = 1 << atoi(argv[1]), reps = atoi(argv[2]);
  if (n < 256)
    die("reduce: LOG2N must be at least 8 (%s)", argv[1]);
  unsigned blocks = (unsigned)n / 256;
  float *in = xmalloc((size_t)n * sizeof *in);
  float *out = xmalloc(blocks * sizeof *out);
  unsigned *expected = xmalloc(blocks * sizeof *expected);
  for (unsigned b = 0; b < blocks; ++b) {
    expected[b] = 0;
    for (unsigned t = 0; t < 256; ++t) {
      unsigned v = (b * 256u + t) * 37u % 101u;
      in[b * 256u + t] = (float)v;
      expected[b] += v;
    }
  }
  void *args[] = {&in, &out};
  long long *tr = xmalloc((size_t)reps * sizeof *tr);
  long long *tc = xmalloc((size_t)reps * sizeof *tc);
  for (int r = -1; r < reps; ++r) { /* r == -1: the untimed warm-up */
    memset(out, 0, blocks * sizeof *out);
    long long c0 = cpu_ns(), t0 = now_ns();
    check(cuemu_kernel_launch(k, dim(blocks), dim(256), 0, NULL, args, 2),
          "launch");
    long long t = now_ns() - t0, c = cpu_ns() - c0;
    if (r >= 0) {
      tr[r] = t;
      tc[r] = c;
    }
    /* Sums of at most 256 integers below 101 are exact in float. */
    for (unsigned b = 0; b < blocks; ++b)
      if (out[b] != (float)expected[b]) {
        fprintf(stderr, "bench_driver: reduce: block %u: %g, expected %u\n",
                b, (double)out[b], expected[b]);
        return 1;
      }
  }
  print_lib();
  print_series("reduce_ns", tr, reps);
  /* CPU time beside wall time: with W workers on an idle machine the ratio
   * approaches W; far less means the workers waited for a CPU. */
  print_series("reduce_cpu_ns", tc, reps);
  return 0;
}

/* ---- warp reduction -------------------------------------------------------- */

/* Checks the 32-element slice sums of one launch of KERNEL; 0 if all exact. */
static int check_warp_sums(const char *kernel, const float *out,
                           const unsigned *expected, unsigned slices) {
  for (unsigned w = 0; w < slices; ++w)
    if (out[w] != (float)expected[w]) {
      fprintf(stderr, "bench_driver: warp: %s: slice %u: %g, expected %u\n",
              kernel, w, (double)out[w], expected[w]);
      return 1;
    }
  return 0;
}

static int cmd_warp(int argc, char **argv) {
  if (argc != 3)
    die("usage: warp MODULE LOG2N REPS%s", "");
  static const char *const names[2] = {"bench_warp_shfl", "bench_warp_shared"};
  cuemu_module *m;
  cuemu_kernel *k[2];
  check(cuemu_module_load(&m, argv[0]), argv[0]);
  for (int j = 0; j < 2; ++j)
    check(cuemu_module_get_kernel(m, names[j], &k[j]), names[j]);
  int n = 1 << atoi(argv[1]), reps = atoi(argv[2]);
  if (n < 256)
    die("warp: LOG2N must be at least 8 (%s)", argv[1]);
  unsigned blocks = (unsigned)n / 256, slices = (unsigned)n / 32;
  float *in = xmalloc((size_t)n * sizeof *in);
  float *out = xmalloc(slices * sizeof *out);
  unsigned *expected = xmalloc(slices * sizeof *expected);
  for (unsigned w = 0; w < slices; ++w) {
    expected[w] = 0;
    for (unsigned l = 0; l < 32; ++l) {
      unsigned v = (w * 32u + l) * 37u % 101u;
      in[w * 32u + l] = (float)v;
      expected[w] += v;
    }
  }
  void *args[] = {&in, &out};
  long long *t[2], *c[2];
  for (int j = 0; j < 2; ++j) {
    t[j] = xmalloc((size_t)(reps > 0 ? reps : 1) * sizeof *t[j]);
    c[j] = xmalloc((size_t)(reps > 0 ? reps : 1) * sizeof *c[j]);
  }
  for (int r = -1; r < reps; ++r) { /* r == -1: the untimed warm-up */
    /* Alternate which goes first so that neither always follows the other. */
    for (int half = 0; half < 2; ++half) {
      int j = half ^ (r & 1);
      /* All bits set is a NaN, which equals no sum: a slice that a kernel
       * did not write cannot pass with the other kernel's result. */
      memset(out, 0xff, slices * sizeof *out);
      long long c0 = cpu_ns(), t0 = now_ns();
      check(cuemu_kernel_launch(k[j], dim(blocks), dim(256), 0, NULL, args, 2),
            names[j]);
      long long dt = now_ns() - t0, dc = cpu_ns() - c0;
      if (r >= 0) {
        t[j][r] = dt;
        c[j][r] = dc;
      }
      /* Sums of 32 integers below 101 are exact in float, in any order. */
      if (check_warp_sums(names[j], out, expected, slices))
        return 1;
    }
  }
  print_lib();
  print_series("warp_shfl_ns", t[0], reps);
  print_series("warp_shared_ns", t[1], reps);
  print_series("warp_shfl_cpu_ns", c[0], reps);
  print_series("warp_shared_cpu_ns", c[1], reps);
  return 0;
}

/* ---- warp collectives ----------------------------------------------------- */

/* The shuffle-down tree of bench_coll_shfl and bench_coll_tile_shfl over
 * one warp's values v[32], as shfl.sync.down defines it: a lane whose
 * source is past the end of the warp gets its own value. */
static void host_shfl_tree(const unsigned *v, unsigned *out) {
  unsigned x[32], y[32];
  memcpy(x, v, sizeof x);
  for (unsigned off = 16; off > 0; off >>= 1) {
    for (unsigned l = 0; l < 32; ++l)
      y[l] = x[l] + (l + off < 32 ? x[l + off] : x[l]);
    memcpy(x, y, sizeof x);
  }
  memcpy(out, x, sizeof x);
}

/* The expected out[] of kernel NAME over one warp's values v[32] (all but
 * bench_coll_aggregated, which is checked as a whole). */
static int host_warp(const char *name, const unsigned *v, unsigned *out) {
  unsigned sum = 0;
  for (unsigned l = 0; l < 32; ++l)
    sum += v[l];
  if (!strcmp(name, "bench_coll_shfl") || !strcmp(name, "bench_coll_tile_shfl")) {
    host_shfl_tree(v, out);
    return 0;
  }
  for (unsigned l = 0; l < 32; ++l) {
    unsigned r = 0;
    for (unsigned k = 0; k < 5; ++k) {
      if (!strcmp(name, "bench_coll_ballot")) {
        for (unsigned j = 0; j < 32; ++j)
          r += (v[j] >> k) & 1u;
      } else if (!strcmp(name, "bench_coll_match")) {
        for (unsigned j = 0; j < 32; ++j)
          r += v[j] % (k + 2u) == v[l] % (k + 2u);
      } else if (!strcmp(name, "bench_coll_reduce") ||
                 !strcmp(name, "bench_coll_tile_reduce")) {
        r += sum + 32u * k;
      } else {
        return -1;
      }
    }
    out[l] = r;
  }
  return 0;
}

/* bench_coll_aggregated: every bin counts its elements, and the slots
 * handed out within a bin are 0, 1, ... each once. */
static int check_aggregated(const unsigned *in, const unsigned *out,
                            const unsigned *bins, unsigned n) {
  unsigned count[8] = {0};
  for (unsigned i = 0; i < n; ++i)
    count[in[i] % 8u]++;
  unsigned char *seen = calloc(n, 1);
  if (!seen)
    die("out of memory (%s)", "calloc");
  int bad = 0;
  for (unsigned b = 0; b < 8; ++b)
    if (bins[b] != count[b]) {
      fprintf(stderr, "bench_driver: aggregated: bin %u: %u, expected %u\n",
              b, bins[b], count[b]);
      bad = 1;
    }
  for (unsigned i = 0; i < n && !bad; ++i) {
    unsigned b = in[i] % 8u, slot = out[i];
    /* The slots of bin b are numbered from 0; seen[] is indexed by
     * bin-major position, so slot s of bin b is at start(b) + s. */
    unsigned start = 0;
    for (unsigned c = 0; c < b; ++c)
      start += count[c];
    if (slot >= count[b] || seen[start + slot]++) {
      fprintf(stderr, "bench_driver: aggregated: element %u (bin %u) got "
              "slot %u twice or out of range\n", i, b, slot);
      bad = 1;
    }
  }
  free(seen);
  return bad;
}

static int check_kernel(const char *name, const unsigned *in,
                        const unsigned *out, const unsigned *bins,
                        unsigned n) {
  if (!strcmp(name, "bench_coll_aggregated"))
    return check_aggregated(in, out, bins, n);
  unsigned want[32];
  for (unsigned w = 0; w < n / 32; ++w) {
    if (host_warp(name, in + w * 32u, want))
      die("kernels: no host reference for %s", name);
    for (unsigned l = 0; l < 32; ++l)
      if (out[w * 32u + l] != want[l]) {
        fprintf(stderr, "bench_driver: %s: thread %u: %u, expected %u\n",
                name, w * 32u + l, out[w * 32u + l], want[l]);
        return 1;
      }
  }
  return 0;
}

static int cmd_kernels(int argc, char **argv) {
  if (argc < 4)
    die("usage: kernels MODULE LOG2N REPS NAME...%s", "");
  int nk = argc - 3;
  cuemu_module *m;
  cuemu_kernel **k = xmalloc((size_t)nk * sizeof *k);
  check(cuemu_module_load(&m, argv[0]), argv[0]);
  for (int j = 0; j < nk; ++j)
    check(cuemu_module_get_kernel(m, argv[3 + j], &k[j]), argv[3 + j]);
  unsigned n = 1u << atoi(argv[1]);
  int reps = atoi(argv[2]);
  if (n < 256 || reps < 1)
    die("kernels: LOG2N must be at least 8 and REPS at least 1 (%s)", argv[1]);
  unsigned *in = xmalloc(n * sizeof *in), *out = xmalloc(n * sizeof *out);
  unsigned *bins = xmalloc(8 * sizeof *bins);
  for (unsigned i = 0; i < n; ++i)
    in[i] = i * 37u % 101u;
  void *args[] = {&in, &out, &bins};
  long long *t = xmalloc((size_t)nk * (size_t)reps * sizeof *t);
  long long *c = xmalloc((size_t)nk * (size_t)reps * sizeof *c);
  for (int r = -1; r < reps; ++r) { /* r == -1: the untimed warm-up */
    for (int h = 0; h < nk; ++h) {
      /* Rotate the order so that no kernel always follows the same one. */
      int j = (h + (r < 0 ? 0 : r)) % nk;
      memset(out, 0xff, n * sizeof *out);
      memset(bins, 0, 8 * sizeof *bins);
      long long c0 = cpu_ns(), t0 = now_ns();
      check(cuemu_kernel_launch(k[j], dim(n / 256), dim(256), 0, NULL, args, 3),
            argv[3 + j]);
      long long dt = now_ns() - t0, dc = cpu_ns() - c0;
      if (r >= 0) {
        t[j * reps + r] = dt;
        c[j * reps + r] = dc;
      }
      /* Checking is slower than the launch: the warm-up and the last. */
      if ((r == -1 || r == reps - 1) &&
          check_kernel(argv[3 + j], in, out, bins, n))
        return 1;
    }
  }
  print_lib();
  for (int j = 0; j < nk; ++j) {
    char name[256];
    snprintf(name, sizeof name, "%s_ns", argv[3 + j]);
    print_series(name, t + j * reps, reps);
    snprintf(name, sizeof name, "%s_cpu_ns", argv[3 + j]);
    print_series(name, c + j * reps, reps);
  }
  return 0;
}

/* ---- memory ---------------------------------------------------------------- */

/* VmHWM (peak resident set) of this process, in KiB, or -1. */
static long vm_hwm_kib(void) {
  FILE *f = fopen("/proc/self/status", "re");
  char line[256];
  long kib = -1;
  if (!f)
    return -1;
  while (fgets(line, sizeof line, f))
    if (strncmp(line, "VmHWM:", 6) == 0)
      kib = strtol(line + 6, NULL, 10);
  fclose(f);
  return kib;
}

static long max_rss_kib(void) {
  struct rusage ru;
  return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : -1;
}

static int cmd_memory(int argc, char **argv) {
  if (argc != 3)
    die("usage: memory MODULE BLOCKS THREADS%s", "");
  cuemu_kernel *k = load_kernel(argv[0], "bench_barrier");
  unsigned blocks = (unsigned)atoi(argv[1]), threads = (unsigned)atoi(argv[2]);
  size_t n = (size_t)blocks * threads;
  float *data = xmalloc(n * sizeof *data);
  for (size_t i = 0; i < n; ++i)
    data[i] = (float)(i % 1000);
  void *args[] = {&data};
  long hwm0 = vm_hwm_kib(), rss0 = max_rss_kib();
  check(cuemu_kernel_launch(k, dim(blocks), dim(threads), 0, NULL, args, 1),
        "launch");
  long hwm1 = vm_hwm_kib(), rss1 = max_rss_kib();
  for (size_t i = 0; i < n; ++i)
    if (data[i] != 2.0f * (float)(i % 1000) + 1.0f) {
      fprintf(stderr, "bench_driver: memory: data[%zu] = %g\n", i,
              (double)data[i]);
      return 1;
    }
  print_lib();
  printf("user_kib %zu\n", (n * sizeof *data + 1023) / 1024);
  printf("hwm_kib %ld %ld\n", hwm0, hwm1);
  printf("maxrss_kib %ld %ld\n", rss0, rss1);
  return 0;
}

/* ---- spawn ----------------------------------------------------------------- */

static int cmd_spawn(int argc, char **argv) {
  if (argc < 2)
    die("usage: spawn N PROGRAM ARGS...%s", "");
  int reps = atoi(argv[0]);
  long long *t = xmalloc((size_t)(reps > 0 ? reps : 1) * sizeof *t);
  long long *c = xmalloc((size_t)(reps > 0 ? reps : 1) * sizeof *c);
  for (int r = 0; r < reps; ++r) {
    pid_t pid;
    int status;
    struct rusage ru;
    long long t0 = now_ns();
    int rc = posix_spawn(&pid, argv[1], NULL, NULL, argv + 1, environ);
    if (rc != 0)
      die("cannot run %s", argv[1]);
    while (wait4(pid, &status, 0, &ru) < 0)
      if (errno != EINTR)
        die("wait4 failed for %s", argv[1]);
    t[r] = now_ns() - t0;
    /* The child's own CPU time, user and system: what the run cost,
     * however long it waited for a CPU on a loaded machine. */
    c[r] = (long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL +
           (long long)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
      die("%s failed", argv[1]);
  }
  print_lib();
  print_series("spawn_ns", t, reps);
  print_series("spawn_cpu_ns", c, reps);
  return 0;
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc < 2)
    die("usage: bench_driver saxpy|reduce|warp|kernels|memory|spawn ...%s", "");
  if (strcmp(argv[1], "saxpy") == 0)
    return cmd_saxpy(argc - 2, argv + 2);
  if (strcmp(argv[1], "reduce") == 0)
    return cmd_reduce(argc - 2, argv + 2);
  if (strcmp(argv[1], "warp") == 0)
    return cmd_warp(argc - 2, argv + 2);
  if (strcmp(argv[1], "kernels") == 0)
    return cmd_kernels(argc - 2, argv + 2);
  if (strcmp(argv[1], "memory") == 0)
    return cmd_memory(argc - 2, argv + 2);
  if (strcmp(argv[1], "spawn") == 0)
    return cmd_spawn(argc - 2, argv + 2);
  die("unknown subcommand %s", argv[1]);
  return 2;
}
