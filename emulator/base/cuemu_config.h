/*
 * cuemu_config.h: run-time settings read from the environment.
 *
 *   CUEMU_WORKERS      worker OS threads per launch (default: online CPUs)
 *   CUEMU_STACK_SIZE   stack bytes per emulated thread, with an optional
 *                      K/M suffix (default 64K)
 *   CUEMU_SCHEDULE     forward | reverse | random:SEED (default forward)
 *   CUEMU_SPIN_TIMEOUT seconds a block may spend with its threads only
 *                      yielding (__nanosleep) and waiting before the launch
 *                      ends as a deadlock (default 10)
 *   CUEMU_CHECK        checkers to run among those built in (a list of
 *                      sync, race, mem, init, all; empty or "none": none;
 *                      unset: all built in; docs/checkers.md). Any value
 *                      but none also turns on the warnings of the warp
 *                      collectives.
 */
#ifndef CUEMU_CONFIG_H
#define CUEMU_CONFIG_H

#include <stddef.h>

#include <cuemu/cuemu_status.h>

typedef struct cuemu_config {
  unsigned workers;
  size_t stack_size;
  int schedule;                 /* enum cuemu_schedule_kind */
  unsigned long long seed;
  double spin_timeout;
  int checks;                   /* non-zero when CUEMU_CHECK asks for any */
  unsigned check_mask;          /* CUEMU_CHECK's checkers (check/cuemu_check.h) */
  int check_set;                /* CUEMU_CHECK is set (else: all built in) */
} cuemu_config;

/* Reads the settings; a malformed value is INVALID_VALUE with a message. */
cuemu_status cuemu__config_read(cuemu_config *config);

#endif /* CUEMU_CONFIG_H */
