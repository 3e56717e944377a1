/*
 * cuemu_rt_pkey_frame.h: a protection key's access, and single stepping,
 * of a thread interrupted by a signal, changed in the signal's frame, so
 * that they hold when the handler returns (a thread's access to a key is
 * its own register, PKRU, which the kernel saves in the frame and loads
 * from it again). x86-64 Linux only; elsewhere each call fails.
 */
#ifndef CUEMU_RT_PKEY_FRAME_H
#define CUEMU_RT_PKEY_FRAME_H

#include <stdint.h>

/* The PKRU the frame of `ucontext` restores, and whether it has one
 * (0: this CPU or kernel saves none there). */
int cuemu__pkey_frame_get(void *ucontext, uint32_t *pkru);
/* Makes the frame restore `pkru`; 0 when it cannot. */
int cuemu__pkey_frame_set(void *ucontext, uint32_t pkru);
/* PKRU with access to `key` denied (deny non-zero) or given. */
uint32_t cuemu__pkey_access(uint32_t pkru, int key, int deny);
/* Turns the trap flag of the frame on or off: with it on, the thread
 * traps (SIGTRAP) after its next instruction. 0 when it cannot. */
int cuemu__pkey_frame_step(void *ucontext, int on);

#endif
