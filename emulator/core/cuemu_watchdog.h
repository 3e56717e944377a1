/*
 * cuemu_watchdog.h: the kernel watchdog (cuemu_watchdog.c). A kernel that
 * never ends (blocks that spin on a flag that a block which cannot run
 * would set, grids of several devices that wait for a launch not issued
 * yet under CUEMU_STREAMS=sync) cannot be stopped: its threads are the
 * process's. The watchdog watches every launch; one that has run for
 * CUEMU_TIMEOUT seconds without a block or a thread ending is reported (kernel, grid,
 * the blocks still running, each with the thread running on it and its
 * source line) and
 * the process exits with status 124, without running atexit handlers
 * (the kernel's threads still run). Without CUEMU_TIMEOUT, a launch that
 * has run for 60 s so is reported once, as a warning, and goes on.
 * Internal to libcuemu.
 */
#ifndef CUEMU_WATCHDOG_H
#define CUEMU_WATCHDOG_H

#include "core/cuemu_worker.h"

/* The exit status of a process whose kernel the watchdog ended. */
#define CUEMU_WATCHDOG_EXIT 124

/* A launch starts or ends being watched (cuemu__core_run). */
void cuemu__watchdog_begin(cuemu_launch *L);
void cuemu__watchdog_end(cuemu_launch *L);

/* OS thread of worker `w` runs blocks of w->launch, or has stopped
 * (cuemu__worker_run). */
void cuemu__watchdog_enter(cuemu_worker *w);
void cuemu__watchdog_leave(cuemu_worker *w);

/* How many words above a stack pointer are searched for a return address
 * into the user's code. */
#define CUEMU_FAULT_SCAN_WORDS 512u

/* Where a kernel thread is, as data that stays valid after the thread has
 * moved on: the kernel's code (to find its module), the host function it
 * called (cuemu_host_calls.c), the instruction, and a copy of the words
 * of its stack from its stack pointer up (at most CUEMU_FAULT_SCAN_WORDS;
 * none where the stack is not one of the worker's). */
typedef struct cuemu_fault_where {
  const void *kernel_code;
  const char *call_file;
  int call_line;
  void *pc;
  void *const *words;
  size_t nwords;
} cuemu_fault_where;

/* The source place of a sampled kernel thread, as a fault report names it
 * (cuemu_fault.c). It reads no worker: the watchdog calls it without its
 * lock, on a thread of its own. */
void cuemu__fault_place_at(const cuemu_fault_where *at, char *place,
                           size_t size);

/* The same for a thread of worker `w` suspended at `pc` with its stack at
 * `sp` (its stack intact: called on the worker's own stack). */
void cuemu__fault_place_of(cuemu_worker *w, void *pc, void *sp, char *place,
                           size_t size);

/* The seconds since a block of a launch now running last ended (a worker
 * took its next block), a thread of one did, or a thread of one arrived at
 * a block barrier, for the launch that did so last; when none
 * runs, since a launch last ended (a launch whose last block has just
 * ended, its stream's item not yet done, is not still), or -1 when none
 * has. The stream queues ask it before they report a kernel that
 * the host has waited for too long as spinning (cuemu_rt_stream_queue.c):
 * a kernel whose blocks or threads keep ending, or whose threads keep
 * arriving at barriers after computing, is long, not stuck. */
double cuemu__watchdog_still_seconds(void);

/* Whether every worker that runs a block of launch `L` now has done
 * nothing but spin (its threads only yield) for at least `seconds` at time
 * `now` (CLOCK_MONOTONIC seconds): none runs a block that computes, which
 * the others might wait for. */
int cuemu__watchdog_all_spin(const cuemu_launch *L, double seconds,
                             double now);

/* Whether a debugger traces the process (TracerPid in /proc/self/status). */
int cuemu__watchdog_traced(void);

#endif /* CUEMU_WATCHDOG_H */
