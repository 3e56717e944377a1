/*
 * cuemu_config.h: every run-time setting of libcuemu, read from the
 * environment in one place (cuemu_config.c) and nowhere else.
 *
 *   CUEMU_WORKERS         worker OS threads per launch (default: online CPUs)
 *   CUEMU_STACK_SIZE      stack bytes per emulated thread, with an optional
 *                         K/M suffix (default 64K; 256K for a kernel
 *                         compiled without optimization: -g, -G; unset, a
 *                         kernel whose frames are large gets more:
 *                         cuemu__device_thread_stack)
 *   CUEMU_SCHEDULE        forward | reverse | random:SEED (default forward)
 *   CUEMU_SPIN_TIMEOUT    seconds a block may spend with its threads only
 *                         yielding (__nanosleep) and waiting, while its
 *                         launch makes no progress, before the launch ends
 *                         as a deadlock (default 10)
 *   CUEMU_CHECK           checkers to run among those built in (a list of
 *                         sync, race, mem, init, all; empty or "none": none;
 *                         unset: all built in; docs/checkers.md). Any value
 *                         but none also turns on the warnings of the warp
 *                         collectives.
 *   CUEMU_CHECK_SCHEDULES 1: run every launch twice, in two orders, and
 *                         report results that differ
 *   CUEMU_CHECK_LEAKS     1: memcheck reports device memory never freed
 *   CUEMU_CHECK_SHARED_INIT  1: initcheck checks shared memory too,
 *                         reporting any read of an unwritten shared byte
 *                         whether or not the value is used (default: global
 *                         memory only, as compute-sanitizer's initcheck)
 *   CUEMU_QUIET           1: launch failures are not printed on stderr
 *   CUEMU_SM_COUNT        SMs of the emulated device (1 to 1024)
 *   CUEMU_STREAMS         async (default): streams run their work on
 *                         execution threads; sync: work runs when issued
 *                         (docs/streams.md)
 *   CUEMU_EXT_WAIT_SECONDS  seconds a wait on an external semaphore or on
 *                         memory (cuStreamWaitValue) may take, and a kernel
 *                         may spin, before it is reported (default 60)
 *   CUEMU_DEVICE          the emulated device: a comma-separated list of
 *                         sm=90, sms=8, mem=MiB, threads=1024, smem=KiB,
 *                         count=N (N devices, 1 to 16); an item
 *                         N:key=value (e.g. 1:sm=80,1:sms=4) sets a key
 *                         for device N alone (docs/devices.md)
 *   CUDA_VISIBLE_DEVICES  the devices a program sees, renumbered from 0
 *                         (indices or GPU-UUID prefixes; empty: none;
 *                         base/cuemu_visible_devices.h)
 *
 * The launch settings are read at every launch (tests change them between
 * launches); the device's are read once, since a device does not change
 * while a program runs. A malformed value is an INVALID_VALUE status whose
 * message names the variable; cuemu__config_launch() prints each distinct
 * message once on stderr, so that a whole program, which never looks at
 * statuses, shows why its launches fail.
 */
#ifndef CUEMU_CONFIG_H
#define CUEMU_CONFIG_H

#include <stddef.h>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_status.h>

/* Thread orders between rendezvous points. */
enum cuemu_schedule_kind {
  CUEMU_SCHEDULE_FORWARD = 0,
  CUEMU_SCHEDULE_REVERSE,
  CUEMU_SCHEDULE_RANDOM
};

/* The checkers, as bits of a mask. */
enum cuemu_check_bits {
  CUEMU_CHECK_SYNC = 1u,
  CUEMU_CHECK_RACE = 2u,
  CUEMU_CHECK_MEM = 4u,
  CUEMU_CHECK_INIT = 8u,
  CUEMU_CHECK_ALL = 15u
};

/* Parses a list of checkers (cuemu-cc --check=LIST, CUEMU_CC_CHECK and
 * CUEMU_CHECK take the same lists) such as "race,mem" ("all", "none" and "" too) into a mask
 * (sync is always added unless the list is empty or "none"). Returns 0, or
 * -1 with the unknown word copied into `bad`. */
int cuemu__check_parse(const char *list, unsigned *mask, char *bad,
                       size_t bad_size);

/* Settings read at each launch. */
typedef struct cuemu_config {
  unsigned workers;
  size_t stack_size;
  size_t unoptimized_stack_size; /* a kernel's compiled at -O0 */
  int stack_size_set;           /* CUEMU_STACK_SIZE is set: every kernel's */
  size_t thread_stack;          /* the stack of this launch's threads, sized
                                   for its kernel by the device layer
                                   (cuemu__device_thread_stack); 0:
                                   stack_size */
  int schedule;                 /* enum cuemu_schedule_kind */
  unsigned long long seed;
  double spin_timeout;
  int checks;                   /* non-zero when CUEMU_CHECK asks for any */
  unsigned check_mask;          /* CUEMU_CHECK's checkers (check/cuemu_check.h) */
  int check_set;                /* CUEMU_CHECK is set (else: all built in) */
  int check_schedules;          /* CUEMU_CHECK_SCHEDULES=1 */
  int check_shared_init;        /* CUEMU_CHECK_SHARED_INIT=1 */
  size_t printf_fifo;           /* bytes of printf() records per launch (the
                                   device's cudaLimitPrintfFifoSize) */
  cuemu_dim3 cluster;           /* blocks per cluster (checked by the
                                   device layer); zero: none */
  void *grid_context;           /* the device layer's record of the grid
                                   (the grids it launches from kernel code,
                                   device/cuemu_child_grids.h); NULL: none */
  unsigned sms;                 /* the SMs the launch may use (a green
                                   context's stream); 0: the device's */
  int reports_fail;             /* racecheck's and initcheck's reports end
                                   the launch with CHECK_REPORT once its
                                   blocks ran (the C API's launches); 0:
                                   it succeeds (a whole program's) */
  int whole_program;            /* a launch of the runtime API: a checker's
                                   report that ends it (memcheck's,
                                   synccheck's) counts for the process's
                                   exit status */
} cuemu_config;

/* Settings of the emulated device, read once per process. */
typedef struct cuemu_device_config {
  int major, minor;             /* compute capability */
  unsigned sms;                 /* streaming multiprocessors */
  size_t memory;                /* bytes of global memory; 0: the host's */
  unsigned max_threads;         /* most threads per block */
  size_t shared_optin;          /* most dynamic shared memory, opted in */
  unsigned count;               /* devices (CUEMU_DEVICE count=N, less
                                   those CUDA_VISIBLE_DEVICES hides) */
  int concurrent_managed;       /* concurrentManagedAccess (cma=0 or 1) */
} cuemu_device_config;

/* The most devices CUEMU_DEVICE's count may ask for. */
#define CUEMU_MAX_DEVICES 16

/* Reads the launch settings into *config. A malformed value is
 * INVALID_VALUE with a message (cuemu_last_message()), printed once on
 * stderr; the device's settings are checked too, so that a bad
 * CUEMU_DEVICE fails every launch. Host code, any thread. */
cuemu_status cuemu__config_launch(cuemu_config *config);

/* The devices' common settings and their count (read on first use; a
 * malformed item leaves the default in place and is reported by
 * cuemu__config_launch()). */
const cuemu_device_config *cuemu__config_device(void);

/* The settings of device `device` (0 to count - 1): the common ones with
 * its own N:key=value items over them. */
const cuemu_device_config *cuemu__config_device_of(int device);

/* The index among CUEMU_DEVICE's devices of visible device `device`
 * (CUDA_VISIBLE_DEVICES): its name, UUID and PCI bus follow it. */
int cuemu__config_device_physical(int device);

/* Non-zero when CUEMU_QUIET=1. */
int cuemu__config_quiet(void);

/* Non-zero when CUEMU_CHECK_SCHEDULES=1 (read at each call). */
int cuemu__config_check_schedules(void);

/* Non-zero when CUEMU_CHECK selects `checker` (a bit of cuemu_check_bits):
 * when it is unset (every checker built in runs) or names it. */
int cuemu__config_check_selects(unsigned checker);

/* Non-zero when memcheck should report leaks at exit: CUEMU_CHECK_LEAKS=1
 * and CUEMU_CHECK (when set) names mem. */
int cuemu__config_check_leaks(void);

/* Whether CUEMU_CHECK (read at each call) selects the checker `bit`
 * (enum cuemu_check_bits): unset, it selects every checker built in. */
int cuemu__config_check_selected(unsigned bit);

/* Which failing calls of the runtime API memcheck reports
 * (check/cuemu_check_api.c), as compute-sanitizer's --report-api-errors:
 * CUEMU_CHECK_API_ERRORS=explicit (the default: the program's own calls),
 * all (those that cuemu's libraries make too) or no (0). 0 as well when
 * CUEMU_CHECK is set and does not name mem. */
enum cuemu_api_errors {
  CUEMU_API_ERRORS_EXPLICIT = 1,
  CUEMU_API_ERRORS_ALL = 2
};
int cuemu__config_check_api_errors(void);

/* How much memory racecheck's shadow of global memory may take
 * (check/cuemu_check_race_budget.c): CUEMU_CHECK_RACE_MEMORY, a size in
 * bytes or with a K, M or G suffix; by default half of the machine's
 * physical memory. */
size_t cuemu__config_check_race_memory(void);

/* The exit status that racecheck's and initcheck's reports give a program
 * that exits with 0 (check/cuemu_check_report.c): CUEMU_CHECK_EXIT_STATUS,
 * 0 to 255; 1 when unset (a malformed value is reported on stderr). */
int cuemu__config_check_exit_status(void);

/* CUEMU_GRAPH_ORDER (read at each call): the order in which a graph launch
 * runs nodes that are ready together, an enum cuemu_schedule_kind (forward:
 * the order they were added, reverse, random with *seed). A malformed value
 * is -1, reported once on stderr (graph launches then fail). */
int cuemu__config_graph_order(unsigned long long *seed);

/* Non-zero unless CUEMU_STREAMS=sync (read at each call; change it only
 * while no work is pending). Any value but async and sync is reported once
 * on stderr and taken as async. */
int cuemu__config_streams_async(void);

/* CUEMU_EXT_WAIT_SECONDS (read at each call): a positive number of
 * seconds, else 60. */
long cuemu__config_ext_wait_seconds(void);

#endif /* CUEMU_CONFIG_H */
