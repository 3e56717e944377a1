/*
 * cuemu_rt_foreign_runtime.h: a warning when NVIDIA's CUDA runtime is in
 * the program beside cuemu's (cuemu_rt_foreign_runtime.c).
 */
#ifndef CUEMU_RT_FOREIGN_RUNTIME_H
#define CUEMU_RT_FOREIGN_RUNTIME_H

/* Looks for NVIDIA's runtime in the process, the first time alone, and
 * warns on stderr where it finds it. */
void cuemu__rt_foreign_runtime_check(void);

#endif /* CUEMU_RT_FOREIGN_RUNTIME_H */
