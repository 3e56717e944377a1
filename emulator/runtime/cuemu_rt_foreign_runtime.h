/*
 * cuemu_rt_foreign_runtime.h: a warning when NVIDIA's CUDA runtime is in
 * the program beside cuemu's (cuemu_rt_foreign_runtime.c).
 */
#ifndef CUEMU_RT_FOREIGN_RUNTIME_H
#define CUEMU_RT_FOREIGN_RUNTIME_H

/* Looks for NVIDIA's runtime in the process, the first time that a unit
 * of the program itself registers (`unit`: an address in the unit; units
 * of shared objects are not looked at), and warns on stderr where it finds
 * it. */
void cuemu__rt_foreign_runtime_check(const void *unit);

#endif /* CUEMU_RT_FOREIGN_RUNTIME_H */
