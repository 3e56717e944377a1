/*
 * cuemu_core.h: running a launch (the scheduler's entry). Internal to libcuemu.
 */
#ifndef CUEMU_CORE_H
#define CUEMU_CORE_H

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_device.h>

/* Checks the launch shape and dynamic shared memory against CUDA's limits
 * and `max_dynamic_shared`, then runs every block. `args` must hold what the
 * kernel's thunk expects. A cooperative launch runs every block at once,
 * each on a worker of its own. */
cuemu_status cuemu__launch(const cuemu_kernel_desc *kernel,
                           size_t max_dynamic_shared, cuemu_dim3 grid,
                           cuemu_dim3 block, size_t dynamic_shared,
                           void **args, int cooperative);

#endif /* CUEMU_CORE_H */
