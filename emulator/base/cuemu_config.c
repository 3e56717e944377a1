/*
 * cuemu_config.c: every run-time setting of libcuemu, read from the
 * environment (see cuemu_config.h).
 */
#include "base/cuemu_config.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The environment, as getenv() reads it. */
extern char **environ;

#include <cuemu/cuemu.h>

#include "base/cuemu_report.h"
#include "base/cuemu_visible_devices.h"

#define CUEMU_DEFAULT_STACK_SIZE (64u * 1024u)
/* The default for code compiled at -O0, whose frames are many times
 * larger: a Thrust reduce_by_key over a zip of six columns needs about
 * 96 KiB (trialdb). */
#define CUEMU_DEFAULT_UNOPTIMIZED_STACK_SIZE (256u * 1024u)
#define CUEMU_MIN_STACK_SIZE (16u * 1024u)
#define CUEMU_MAX_STACK_SIZE (1024ull * 1024u * 1024u)
#define CUEMU_DEFAULT_SPIN_TIMEOUT 10.0
#define CUEMU_MAX_WORKERS 256u
/* The emulated device by default: an sm_90 device with 8 SMs. */
#define CUEMU_DEFAULT_SM 90
#define CUEMU_DEFAULT_SMS 8u
#define CUEMU_MAX_SMS 1024u

int cuemu__check_parse(const char *list, unsigned *mask, char *bad,
                       size_t bad_size) {
  static const struct {
    const char *name;
    unsigned bits;
  } words[] = {{"sync", CUEMU_CHECK_SYNC}, {"race", CUEMU_CHECK_RACE},
               {"mem", CUEMU_CHECK_MEM},   {"init", CUEMU_CHECK_INIT},
               {"all", CUEMU_CHECK_ALL},   {"none", 0}};
  unsigned m = 0;
  const char *p = list ? list : "";
  while (*p) {
    size_t len = strcspn(p, ",");
    size_t i, n = sizeof words / sizeof words[0];
    for (i = 0; i < n; ++i)
      if (strlen(words[i].name) == len && strncmp(words[i].name, p, len) == 0)
        break;
    if (i == n) {
      snprintf(bad, bad_size, "%.*s", (int)len, p);
      return -1;
    }
    m |= words[i].bits;
    p += len;
    if (*p == ',')
      p++;
  }
  /* Synccheck is always on with any other checker. */
  if (m)
    m |= CUEMU_CHECK_SYNC;
  *mask = m;
  return 0;
}

/* A flag variable's value (NULL when unset): non-zero when it is exactly
 * "1". */
static int flag_value(const char *v) { return v && strcmp(v, "1") == 0; }

/* The flag variable `name`. */
static int flag(const char *name) { return flag_value(getenv(name)); }

int cuemu__config_quiet(void) { return flag("CUEMU_QUIET"); }

int cuemu__config_check_schedules(void) {
  return flag("CUEMU_CHECK_SCHEDULES");
}

int cuemu__config_graph_order(unsigned long long *seed) {
  static int warned;
  const char *v = getenv("CUEMU_GRAPH_ORDER");
  *seed = 0;
  if (!v || !*v || strcmp(v, "forward") == 0)
    return CUEMU_SCHEDULE_FORWARD;
  if (strcmp(v, "reverse") == 0)
    return CUEMU_SCHEDULE_REVERSE;
  if (strncmp(v, "random:", 7) == 0 && v[7]) {
    char *end;
    *seed = strtoull(v + 7, &end, 0);
    if (!*end)
      return CUEMU_SCHEDULE_RANDOM;
  }
  if (!warned++)
    fprintf(stderr,
            "cuemu: CUEMU_GRAPH_ORDER=%s: expected forward, reverse or "
            "random:SEED\n",
            v);
  return -1;
}

int cuemu__config_streams_async(void) {
  static int warned;
  const char *v = getenv("CUEMU_STREAMS");
  if (!v || strcmp(v, "async") == 0)
    return 1;
  if (strcmp(v, "sync") == 0)
    return 0;
  if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED) &&
      !cuemu__config_quiet())
    fprintf(stderr, "cuemu: CUEMU_STREAMS=%s: expected async or sync; "
                    "using async\n", v);
  return 1;
}

int cuemu__config_check_exit_status(void) {
  const char *v = getenv("CUEMU_CHECK_EXIT_STATUS");
  if (!v || !*v)
    return 1;
  char *end;
  errno = 0;
  long n = strtol(v, &end, 10);
  if (errno || *end || n < 0 || n > 255) {
    if (!cuemu__config_quiet())
      fprintf(stderr, "cuemu: CUEMU_CHECK_EXIT_STATUS=%s: expected 0 to "
                      "255; using 1\n", v);
    return 1;
  }
  return (int)n;
}

long cuemu__config_ext_wait_seconds(void) {
  const char *v = getenv("CUEMU_EXT_WAIT_SECONDS");
  return v && atol(v) > 0 ? atol(v) : 60;
}

/* CUEMU_CHECK: *set when it is set (else all checkers built in run), and
 * the checkers it names in *mask. Returns 0, or -1 with the unknown word in
 * `bad`. */
static int check_value(const char *v, unsigned *mask, int *set, char *bad,
                       size_t bad_size) {
  *set = v && *v;
  *mask = 0;
  return *set ? cuemu__check_parse(v, mask, bad, bad_size) : 0;
}

static int check_env(unsigned *mask, int *set, char *bad, size_t bad_size) {
  return check_value(getenv("CUEMU_CHECK"), mask, set, bad, bad_size);
}

int cuemu__config_check_selects(unsigned checker) {
  unsigned mask;
  int set;
  char bad[64];
  if (check_env(&mask, &set, bad, sizeof bad))
    return 0;
  return !set || (mask & checker) != 0;
}

int cuemu__config_check_leaks(void) {
  return flag("CUEMU_CHECK_LEAKS") &&
         cuemu__config_check_selects(CUEMU_CHECK_MEM);
}

int cuemu__config_check_selected(unsigned bit) {
  unsigned mask;
  int set;
  char bad[64];
  return !check_env(&mask, &set, bad, sizeof bad) && (!set || (mask & bit));
}

int cuemu__config_check_api_errors(void) {
  static int warned;
  unsigned mask;
  int set;
  char bad[64];
  if (check_env(&mask, &set, bad, sizeof bad) ||
      (set && !(mask & CUEMU_CHECK_MEM)))
    return 0;
  const char *v = getenv("CUEMU_CHECK_API_ERRORS");
  if (v && strcmp(v, "all") == 0)
    return CUEMU_API_ERRORS_ALL;
  if (v && strcmp(v, "no") == 0)
    return 0;
  if (!v || !*v || strcmp(v, "explicit") == 0)
    return CUEMU_API_ERRORS_EXPLICIT;
  if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED) &&
      !cuemu__config_quiet())
    fprintf(stderr, "cuemu: CUEMU_CHECK_API_ERRORS=%s: expected explicit, "
                    "all or no; using explicit\n", v);
  return CUEMU_API_ERRORS_EXPLICIT;
}

/* Parses a byte count of at most `max` with an optional K, M or G suffix
 * (and an optional "iB" or "B" after it); -1 for anything else, a sign or
 * an overflow. */
static int parse_size_to(const char *s, unsigned long long max, size_t *out) {
  if (*s < '0' || *s > '9')
    return -1;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno)
    return -1;
  unsigned long long scale = 1;
  if (*end == 'k' || *end == 'K') {
    scale = 1024;
    end++;
  } else if (*end == 'm' || *end == 'M') {
    scale = 1024 * 1024;
    end++;
  } else if (*end == 'g' || *end == 'G') {
    scale = 1024ull * 1024 * 1024;
    end++;
  }
  if (*end == 'i' || *end == 'B')
    end += strspn(end, "iB");
  if (*end || v > max / scale)
    return -1;
  *out = (size_t)(v * scale);
  return 0;
}

static int parse_size(const char *s, size_t *out) {
  return parse_size_to(s, CUEMU_MAX_STACK_SIZE, out);
}

size_t cuemu__config_check_race_memory(void) {
  static int warned;
  const char *v = getenv("CUEMU_CHECK_RACE_MEMORY");
  size_t bytes;
  if (v && *v && parse_size_to(v, SIZE_MAX / 2, &bytes) == 0)
    return bytes;
  if (v && *v && !__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED) &&
      !cuemu__config_quiet())
    fprintf(stderr, "cuemu: CUEMU_CHECK_RACE_MEMORY=%s: expected a size "
                    "(bytes, or with a K, M or G suffix); using half of the "
                    "machine's memory\n", v);
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0)
    return (size_t)4 << 30;
  return (size_t)pages / 2 * (size_t)page;
}

/* Parses an unsigned decimal number in [lo, hi] from [s, e); 0 on error. */
static int parse_number(const char *s, const char *e, unsigned long lo,
                        unsigned long hi, unsigned long *out) {
  if (s == e)
    return 0;
  unsigned long n = 0;
  for (; s < e; ++s) {
    if (*s < '0' || *s > '9' || n > hi)
      return 0;
    n = n * 10 + (unsigned long)(*s - '0');
  }
  if (n < lo || n > hi)
    return 0;
  *out = n;
  return 1;
}

static cuemu_device_config device;
/* Each device's settings: the common ones with its own "N:key=value"
 * items over them. */
static cuemu_device_config devices[CUEMU_MAX_DEVICES];
/* The message about a malformed device setting, or "" (set once). */
static char device_error[256];
/* The physical index (among CUEMU_DEVICE's devices) of each visible one. */
static int physical[CUEMU_MAX_DEVICES];
static pthread_once_t device_once = PTHREAD_ONCE_INIT;

/* Takes one "key=value" item of CUEMU_DEVICE from [v, end) into *d; 0 when
 * it is not understood. `count` is allowed when `common` is set. */
static int device_item(cuemu_device_config *d, const char *v,
                       const char *end, int common) {
  const char *eq = memchr(v, '=', (size_t)(end - v));
  if (!eq)
    return 0;
  size_t key = (size_t)(eq - v);
  unsigned long n;
#define KEY(word) (key == sizeof word - 1 && !strncmp(v, word, key))
  if (KEY("sm") && parse_number(eq + 1, end, 10, 199, &n)) {
    d->major = (int)(n / 10);
    d->minor = (int)(n % 10);
  } else if (KEY("sms") && parse_number(eq + 1, end, 1, CUEMU_MAX_SMS, &n)) {
    d->sms = (unsigned)n;
  } else if (KEY("mem") && parse_number(eq + 1, end, 1, 1ul << 24, &n)) {
    d->memory = (size_t)n << 20;
  } else if (KEY("threads") &&
             parse_number(eq + 1, end, 32, CUEMU_MAX_THREADS_PER_BLOCK, &n)) {
    d->max_threads = (unsigned)n;
  } else if (KEY("smem") &&
             parse_number(eq + 1, end, 1,
                          CUEMU_MAX_DYNAMIC_SHARED_OPTIN / 1024, &n)) {
    d->shared_optin = (size_t)n * 1024;
  } else if (KEY("cma") && parse_number(eq + 1, end, 0, 1, &n)) {
    d->concurrent_managed = (int)n;
  } else if (common && KEY("count") &&
             parse_number(eq + 1, end, 1, CUEMU_MAX_DEVICES, &n)) {
    d->count = (unsigned)n;
  } else {
    return 0;
  }
#undef KEY
  return 1;
}

/* The device an item "N:key=value" is for, with *item moved past "N:";
 * -1 for a common item, -2 for a malformed prefix. */
static int item_device(const char **item, const char *end) {
  const char *colon = memchr(*item, ':', (size_t)(end - *item));
  if (!colon)
    return -1;
  unsigned long n;
  if (!parse_number(*item, colon, 0, CUEMU_MAX_DEVICES - 1, &n))
    return -2;
  *item = colon + 1;
  return (int)n;
}

/* Reads the items of CUEMU_DEVICE: the common ones when `pass` is 0, each
 * device's own when it is 1. */
static void device_items(const char *v, int pass) {
  while (v && *v) {
    const char *end = strchr(v, ',');
    if (!end)
      end = v + strlen(v);
    const char *item = v;
    int d = item_device(&item, end);
    int ok;
    if (d == -1) /* a common item */
      ok = pass == 1 || device_item(&device, item, end, 1);
    else if (d < 0) /* a bad prefix */
      ok = 0;
    else /* a device's own, once the count is known */
      ok = pass == 0 || ((unsigned)d < device.count &&
                         device_item(&devices[d], item, end, 0));
    if (!ok && !device_error[0])
      snprintf(device_error, sizeof device_error,
               "CUEMU_DEVICE: \"%.*s\" is not understood (keys: sm=90, "
               "sms=8, mem=MiB, threads=32 to 1024, smem=KiB up to 227, "
               "cma=0 or 1, count=1 to 16; N:key=value sets one for device "
               "N only)",
               (int)(end - v), v);
    v = *end ? end + 1 : end;
  }
}

static void read_device(void) {
  device.major = CUEMU_DEFAULT_SM / 10;
  device.minor = CUEMU_DEFAULT_SM % 10;
  device.sms = CUEMU_DEFAULT_SMS;
  device.max_threads = CUEMU_MAX_THREADS_PER_BLOCK;
  device.shared_optin = CUEMU_MAX_DYNAMIC_SHARED_OPTIN;
  device.count = 1;
  device.concurrent_managed = 1;
  unsigned long n;
  const char *v = getenv("CUEMU_SM_COUNT");
  if (v && *v) {
    if (parse_number(v, v + strlen(v), 1, CUEMU_MAX_SMS, &n))
      device.sms = (unsigned)n;
    else
      snprintf(device_error, sizeof device_error,
               "CUEMU_SM_COUNT=%s: expected a number from 1 to %u", v,
               CUEMU_MAX_SMS);
  }
  v = getenv("CUEMU_DEVICE");
  device_items(v, 0);
  for (unsigned d = 0; d < CUEMU_MAX_DEVICES; ++d)
    devices[d] = device;
  device_items(v, 1);
  /* CUDA_VISIBLE_DEVICES picks and renumbers them (CUDA_DEVICE_ORDER,
   * FASTEST_FIRST or PCI_BUS_ID, orders alike devices alike: by index). */
  int visible = (int)device.count;
  for (int d = 0; d < visible; ++d)
    physical[d] = d;
  v = getenv("CUDA_VISIBLE_DEVICES");
  if (v) {
    cuemu_device_config all[CUEMU_MAX_DEVICES];
    memcpy(all, devices, sizeof all);
    visible = cuemu__visible_devices_parse(v, (int)device.count, physical);
    for (int d = 0; d < visible; ++d)
      devices[d] = all[physical[d]];
  }
  device.count = (unsigned)visible;
  for (int d = 0; d < CUEMU_MAX_DEVICES; ++d)
    devices[d].count = (unsigned)visible;
}

const cuemu_device_config *cuemu__config_device(void) {
  pthread_once(&device_once, read_device);
  return &device;
}

const cuemu_device_config *cuemu__config_device_of(int d) {
  pthread_once(&device_once, read_device);
  return d >= 0 && d < CUEMU_MAX_DEVICES ? &devices[d] : &device;
}

int cuemu__config_device_physical(int d) {
  pthread_once(&device_once, read_device);
  return d >= 0 && d < (int)device.count ? physical[d] : d;
}

/* Prints a configuration error on stderr, once per distinct message. */
static void print_once(const char *message) {
  static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  static char last[512];
  pthread_mutex_lock(&lock);
  int fresh = strncmp(last, message, sizeof last - 1) != 0;
  if (fresh)
    snprintf(last, sizeof last, "%s", message);
  pthread_mutex_unlock(&lock);
  if (fresh)
    cuemu__report_print(message);
}

/* Reads the launch settings; a malformed value is INVALID_VALUE. */
static cuemu_status read_launch(cuemu_config *c);

cuemu_status cuemu__config_launch(cuemu_config *c) {
  cuemu__config_device();
  cuemu_status st = device_error[0]
                        ? cuemu__report(CUEMU_INVALID_VALUE, "%s",
                                        device_error)
                        : read_launch(c);
  if (st != CUEMU_SUCCESS)
    print_once(cuemu_last_message());
  return st;
}

/* The CPUs online, read once: sysconf() reads a sysfs file each time,
 * three system calls, and every launch asks. */
static long online_cpus(void) {
  static _Atomic long cpus;
  long n = atomic_load_explicit(&cpus, memory_order_relaxed);
  if (n == 0) {
    n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
      n = 1;
    atomic_store_explicit(&cpus, n, memory_order_relaxed);
  }
  return n;
}

/* The variables that each launch reads, in the order of launch_names. */
enum {
  LAUNCH_CHECK,
  LAUNCH_CHECK_SCHEDULES,
  LAUNCH_CHECK_SHARED_INIT,
  LAUNCH_WORKERS,
  LAUNCH_STACK_SIZE,
  LAUNCH_SPIN_TIMEOUT,
  LAUNCH_SCHEDULE,
  LAUNCH_NAMES
};
#define LAUNCH_NAME(word) {word, sizeof word - 1}
static const struct {
  const char *name;
  size_t length;
} launch_names[LAUNCH_NAMES] = {
    LAUNCH_NAME("CUEMU_CHECK"),        LAUNCH_NAME("CUEMU_CHECK_SCHEDULES"),
    LAUNCH_NAME("CUEMU_CHECK_SHARED_INIT"),
    LAUNCH_NAME("CUEMU_WORKERS"),      LAUNCH_NAME("CUEMU_STACK_SIZE"),
    LAUNCH_NAME("CUEMU_SPIN_TIMEOUT"), LAUNCH_NAME("CUEMU_SCHEDULE")};
#undef LAUNCH_NAME

/* Finds the values of the launch's variables (NULL when unset) in one walk
 * of the environment, as getenv() would find each: getenv() walks the
 * whole environment for each name, and a launch of a small kernel spent a
 * third of its time there (issue 19). Nothing is kept between launches, so
 * a variable set, changed or removed in between takes effect. Like getenv()
 * it takes no lock: another thread's setenv() or unsetenv() during a launch
 * is as unsafe as with getenv() up to glibc 2.40. glibc 2.41's getenv()
 * also retries when a concurrent unsetenv() moves the entries, which this
 * walk does not: there, such a launch may miss a setting that was never
 * unset (it then runs with that setting's default). */
static void launch_environment(const char *values[LAUNCH_NAMES]) {
  static const char prefix[] = "CUEMU_";
  const size_t prefix_len = sizeof prefix - 1;
  for (int i = 0; i < LAUNCH_NAMES; ++i)
    values[i] = NULL;
  for (char **e = environ; e && *e; ++e) {
    const char *s = *e;
    /* Most variables differ in the first byte; strncmp() runs only on the
     * rest. It stops at the end of a shorter entry ("C=1"), which memcmp()
     * may read past. */
    if (s[0] != 'C' || strncmp(s, prefix, prefix_len) != 0)
      continue;
    const char *eq = strchr(s + prefix_len, '=');
    if (!eq)
      continue;
    size_t n = (size_t)(eq - s);
    for (int i = 0; i < LAUNCH_NAMES; ++i)
      /* The first one wins, as with getenv(). */
      if (!values[i] && launch_names[i].length == n &&
          memcmp(s, launch_names[i].name, n) == 0) {
        values[i] = eq + 1;
        break;
      }
  }
}

static cuemu_status read_launch(cuemu_config *c) {
  const char *env[LAUNCH_NAMES];
  launch_environment(env);
  long cpus = online_cpus();
  c->workers = cpus > 0 ? (unsigned)cpus : 1;
  c->stack_size = CUEMU_DEFAULT_STACK_SIZE;
  c->unoptimized_stack_size = CUEMU_DEFAULT_UNOPTIMIZED_STACK_SIZE;
  c->stack_size_set = 0;
  c->thread_stack = 0;
  c->schedule = CUEMU_SCHEDULE_FORWARD;
  const char *v;
  c->seed = 0;
  c->spin_timeout = CUEMU_DEFAULT_SPIN_TIMEOUT;
  c->check_schedules = flag_value(env[LAUNCH_CHECK_SCHEDULES]);
  c->check_shared_init = flag_value(env[LAUNCH_CHECK_SHARED_INIT]);
  char bad[64];
  if (check_value(env[LAUNCH_CHECK], &c->check_mask, &c->check_set, bad,
                  sizeof bad) != 0)
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "CUEMU_CHECK=%s: unknown checker '%s' (expected a "
                         "list of sync, race, mem, init, all or none)",
                         env[LAUNCH_CHECK], bad);
  c->checks = c->check_mask != 0;

  v = env[LAUNCH_WORKERS];
  if (v && *v) {
    char *end;
    unsigned long n = strtoul(v, &end, 10);
    if (*end || n == 0 || n > CUEMU_MAX_WORKERS)
      return cuemu__report(CUEMU_INVALID_VALUE,
                           "CUEMU_WORKERS=%s: expected a number from 1 to %u",
                           v, CUEMU_MAX_WORKERS);
    c->workers = (unsigned)n;
  }
  v = env[LAUNCH_STACK_SIZE];
  if (v && *v) {
    if (parse_size(v, &c->stack_size) != 0 ||
        c->stack_size < CUEMU_MIN_STACK_SIZE)
      return cuemu__report(CUEMU_INVALID_VALUE,
                           "CUEMU_STACK_SIZE=%s: expected a size from 16K to "
                           "1024M (bytes, or with a K or M suffix)",
                           v);
    /* Stacks are whole pages; the size set is every kernel's. */
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    c->stack_size = (c->stack_size + page - 1) / page * page;
    c->unoptimized_stack_size = c->stack_size;
    c->stack_size_set = 1;
  }
  v = env[LAUNCH_SPIN_TIMEOUT];
  if (v && *v) {
    char *end;
    errno = 0;
    double t = strtod(v, &end);
    if (errno || *end || !(t > 0))
      return cuemu__report(CUEMU_INVALID_VALUE,
                           "CUEMU_SPIN_TIMEOUT=%s: expected a number of "
                           "seconds greater than 0",
                           v);
    c->spin_timeout = t;
  }
  v = env[LAUNCH_SCHEDULE];
  if (v && *v) {
    if (strcmp(v, "forward") == 0) {
      c->schedule = CUEMU_SCHEDULE_FORWARD;
    } else if (strcmp(v, "reverse") == 0) {
      c->schedule = CUEMU_SCHEDULE_REVERSE;
    } else if (strncmp(v, "random:", 7) == 0 && v[7]) {
      char *end;
      c->seed = strtoull(v + 7, &end, 0);
      if (*end)
        return cuemu__report(CUEMU_INVALID_VALUE,
                             "CUEMU_SCHEDULE=%s: the seed must be a number", v);
      c->schedule = CUEMU_SCHEDULE_RANDOM;
    } else {
      return cuemu__report(CUEMU_INVALID_VALUE,
                           "CUEMU_SCHEDULE=%s: expected forward, reverse or "
                           "random:SEED",
                           v);
    }
  }
  return CUEMU_SUCCESS;
}
