/*
 * cuemu_frame_size.h: the static stack frame of a compiled function (its
 * pushes and stack adjustments, as g++ -fstack-usage counts them), read
 * from the unwind information of the loaded object that holds it. A
 * kernel's is its cudaFuncAttributes::localSizeBytes (docs/runtime.md).
 * Internal to libcuemu; host code, any thread.
 */
#ifndef CUEMU_FRAME_SIZE_H
#define CUEMU_FRAME_SIZE_H

#include <stddef.h>

/* The frame of the function that begins at (or holds) `function`, in bytes;
 * 0 when the object has no unwind table for it (or the address is no
 * code). */
size_t cuemu__frame_size(const void *function);

/* The stack that a call of `function` may take: its frame plus, through
 * its direct calls of functions in the loaded objects (x86-64: `call
 * rel32` landing on a function's first instruction; not through the PLT
 * or a pointer), the deepest of theirs, each call's return address
 * counted; a recursion counts once. 0 as cuemu__frame_size. */
size_t cuemu__frame_size_deep(const void *function);

#endif /* CUEMU_FRAME_SIZE_H */
