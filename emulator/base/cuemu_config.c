/*
 * cuemu_config.c: run-time settings read from the environment.
 */
#include "base/cuemu_config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/cuemu_check.h"
#include "base/cuemu_report.h"
#include "core/cuemu_worker.h"

#define CUEMU_DEFAULT_STACK_SIZE (64u * 1024u)
#define CUEMU_MIN_STACK_SIZE (16u * 1024u)
#define CUEMU_MAX_STACK_SIZE (1024ull * 1024u * 1024u)
#define CUEMU_DEFAULT_SPIN_TIMEOUT 10.0
#define CUEMU_MAX_WORKERS 256u

/* Parses a byte count with an optional K or M suffix (and an optional
 * "iB" or "B" after it); -1 for anything else, a sign or an overflow. */
static int parse_size(const char *s, size_t *out) {
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
  }
  if (*end == 'i' || *end == 'B')
    end += strspn(end, "iB");
  if (*end || v > CUEMU_MAX_STACK_SIZE / scale)
    return -1;
  *out = (size_t)(v * scale);
  return 0;
}

cuemu_status cuemu__config_read(cuemu_config *c) {
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  c->workers = cpus > 0 ? (unsigned)cpus : 1;
  c->stack_size = CUEMU_DEFAULT_STACK_SIZE;
  c->schedule = CUEMU_SCHEDULE_FORWARD;
  const char *v;
  c->seed = 0;
  c->spin_timeout = CUEMU_DEFAULT_SPIN_TIMEOUT;
  v = getenv("CUEMU_CHECK");
  c->checks = v && *v && strcmp(v, "none") != 0;
  c->check_set = v && *v;
  c->check_mask = 0;
  if (c->check_set) {
    char bad[64];
    if (cuemu__check_parse(v, &c->check_mask, bad, sizeof bad) != 0)
      return cuemu__report(CUEMU_INVALID_VALUE,
                           "CUEMU_CHECK=%s: unknown checker '%s' (expected a "
                           "list of sync, race, mem, init, all or none)",
                           v, bad);
  }

  v = getenv("CUEMU_WORKERS");
  if (v && *v) {
    char *end;
    unsigned long n = strtoul(v, &end, 10);
    if (*end || n == 0 || n > CUEMU_MAX_WORKERS)
      return cuemu__report(CUEMU_INVALID_VALUE,
                           "CUEMU_WORKERS=%s: expected a number from 1 to %u",
                           v, CUEMU_MAX_WORKERS);
    c->workers = (unsigned)n;
  }
  v = getenv("CUEMU_STACK_SIZE");
  if (v && *v) {
    if (parse_size(v, &c->stack_size) != 0 ||
        c->stack_size < CUEMU_MIN_STACK_SIZE)
      return cuemu__report(CUEMU_INVALID_VALUE,
                           "CUEMU_STACK_SIZE=%s: expected a size from 16K to "
                           "1024M (bytes, or with a K or M suffix)",
                           v);
    /* Stacks are whole pages. */
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    c->stack_size = (c->stack_size + page - 1) / page * page;
  }
  v = getenv("CUEMU_SPIN_TIMEOUT");
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
  v = getenv("CUEMU_SCHEDULE");
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
