/*
 * cuemu_constant_space.h: where __constant__ variables and the copies of
 * __grid_constant__ parameters lie (cuemu_constant_space.c), for
 * cuemu_address_space(). Internal to libcuemu.
 */
#ifndef CUEMU_CONSTANT_SPACE_H
#define CUEMU_CONSTANT_SPACE_H

#include "core/cuemu_worker.h"

/* Whether p lies in a registered __constant__ variable. Any thread. */
int cuemu__constant_space_holds(const void *p);

/* Whether p, an address in the stack of w's running kernel thread, lies in
 * that thread's copy of a __grid_constant__ parameter. */
int cuemu__grid_constant_holds(cuemu_worker *w, const void *p);

#endif /* CUEMU_CONSTANT_SPACE_H */
