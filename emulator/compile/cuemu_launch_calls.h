/*
 * cuemu_launch_calls.h: which kernels launch grids, through the device
 * functions they call too (cuemu_launch_calls.c says how).
 */
#ifndef CUEMU_LAUNCH_CALLS_H
#define CUEMU_LAUNCH_CALLS_H

#include "cuemu_rewriter.h"

/* The walk enters the body (its `{` at `brace`) of the device function or
 * kernel (`kernel`: its index in rw->kernels, else -1) declared from
 * `decl_start`. */
cuemu_status cuemu__launch_calls_begin(cuemu_rewriter *rw, size_t decl_start,
                                       size_t brace, int kernel);
/* The walk leaves that body. */
void cuemu__launch_calls_end(cuemu_rewriter *rw);
/* A launch (`<<<`) in that body. */
void cuemu__launch_calls_launch(cuemu_rewriter *rw);
/* Identifier token i in that body: a call when `(` or `<` follows. */
cuemu_status cuemu__launch_calls_token(cuemu_rewriter *rw, size_t i);
/* Whether identifier token i names a __device__ (or __host__ __device__)
 * function whose body the walk has seen, in the device pass. */
int cuemu__launch_calls_device_function(const cuemu_rewriter *rw, size_t i);
/* After the walk: marks the kernels that launch, themselves or through
 * the unit's device functions they call (rw->kernels[k].launches). */
void cuemu__launch_calls_resolve(cuemu_rewriter *rw);
void cuemu__launch_calls_free(cuemu_rewriter *rw);

#endif /* CUEMU_LAUNCH_CALLS_H */
