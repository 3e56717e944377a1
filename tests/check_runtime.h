/*
 * check_runtime.h: what the runtime API suites (check_runtime.c,
 * check_runtime_launch.c) share: the kernels of tests/kernels/runtime_api.cu
 * registered as a whole program's, and a launch as cudaLaunchKernel makes
 * it.
 */
#ifndef CUEMU_CHECK_RUNTIME_H
#define CUEMU_CHECK_RUNTIME_H

#include <stddef.h>

/* Compiles and registers runtime_api.cu once; an unchecked fixture, so that
 * the forked tests inherit the registration. */
void runtime_program_setup(void);

/* The address of the program's kernel `name` (what a .cu file passes to
 * cudaLaunchKernel). */
const void *runtime_kernel(const char *name);

/* Launches kernel `name` on a one-dimensional shape as the shims'
 * cudaLaunchKernel does (cuemu_rt_launch_kernel, then the kernel's status
 * recorded), then synchronizes the stream; returns the CUDA error the call
 * returns, or the execution error that it leaves sticky. */
int runtime_launch(const char *name, unsigned grid, unsigned block,
                   size_t dynamic_shared, void *stream, void **args);

#endif /* CUEMU_CHECK_RUNTIME_H */
