/*
 * cuemu_core.h: the scheduler's entry: running a launch that the device has
 * validated (device/cuemu_device_launch.h). Internal to libcuemu.
 */
#ifndef CUEMU_CORE_H
#define CUEMU_CORE_H

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_device.h>

#include "base/cuemu_config.h"

/* Runs every block of a validated launch with the run-time settings
 * `config`, calling the checkers' hooks around it when any are built in.
 * `args` must hold what the kernel's thunk expects. A cooperative launch
 * runs every block at once, each on a worker of its own
 * (COOPERATIVE_TOO_LARGE when the process cannot map that many stacks).
 * Returns the launch's status; a failure's message is also printed on
 * stderr (unless CUEMU_QUIET=1). */
cuemu_status cuemu__core_run(const cuemu_kernel_desc *kernel, cuemu_dim3 grid,
                             cuemu_dim3 block, size_t dynamic_shared,
                             void **args, int cooperative,
                             const cuemu_config *config);

/* The grid_context of the launch that the calling kernel thread belongs to
 * (cuemu_config's), or NULL outside kernel code (cuemu_grid_context.c). */
void *cuemu__core_grid_context(void);

/* Non-zero when the calling kernel thread's launch is being run again by
 * schedule perturbation (its launches from kernel code were made by the
 * first run). */
int cuemu__core_replaying(void);

#endif /* CUEMU_CORE_H */
