/*
 * cuemu_warp_step.h: the lockstep points that device code compiled by g++
 * calls before each volatile access to memory (cuemu's GCC plugin inserts
 * the calls: emulator/compile/cuemu_gcc_plugin_lockstep.cc).
 *
 * On a GPU the lanes of a warp execute each instruction together, so that
 * warp-synchronous code written before Volta (a reduction's last warp
 * unrolled through a volatile pointer, a warp scan) sees the other lanes'
 * stores of the statement before. cuemu runs a block's threads one after
 * another between synchronisation points; at these steps the lanes of a
 * warp hand over to each other, so that they make their volatile accesses
 * in rounds: every lane of the warp that can run makes its k-th access
 * before any makes its (k+1)-th.
 */
#ifndef CUEMU_WARP_STEP_H
#define CUEMU_WARP_STEP_H

#ifdef __cplusplus
extern "C" {
#endif

/* The calling lane is about to make a volatile access to `address`, at
 * `file`:`line` (for messages and the debugger). An access outside the
 * block's shared memory, or any call outside a kernel, returns at once
 * (but for a flag polled there: see below); otherwise the
 * lane waits here until every other lane of its warp that can still run
 * has reached such a step too (lanes that wait at a barrier or a warp
 * collective, that yielded, or that have exited do not hold the others
 * back), then the waiting lanes all go on by one access. The step is no
 * synchronisation for the checkers: racecheck still reports the accesses
 * that no barrier or __syncwarp() orders. Kernel code. */
void cuemu_warp_step(const volatile void *address, const char *file,
                     int line);

/* The same for an access through a volatile lvalue: such an access to
 * global memory (a reduction that finishes in place in its input array
 * through a volatile pointer) is stepped too, where cuemu_warp_step, which
 * the plain accesses of an unsynchronised loop get, steps shared memory
 * only. Kernel code. */
void cuemu_warp_step_volatile(const volatile void *address, const char *file,
                              int line);

/* The calling lane skips, at a branch of warp-synchronous code, an arm in
 * which the lanes that take it make more stepped accesses than on the
 * lane's own path, as many as the first argument (cuemu's GCC and LLVM
 * plugins pad the shorter paths with this call): it waits out that many
 * rounds of its warp's steps, as the lanes of a GPU warp that a branch
 * masks off wait for the others to execute the arm, so that its next
 * access comes after theirs. Kernel code. */
void cuemu_warp_step_skip(unsigned, const char *file, int line);

/* The calling thread made an atomic access to `address` that left it as it
 * was: an atomic load (PTX ld.acquire or ld.relaxed, __nv_atomic_load), or
 * a read-modify-write that changed nothing (atomicAdd(p, 0),
 * atomicOr(p, 0), a compare-and-swap that failed or swapped a value for
 * itself, an exchange for the value already there). A thread that does
 * that again and again at one address, finding the same value there, polls
 * it, as with a volatile load polled in a loop: it yields now and then, so
 * that the other threads of its block run, and a flag set by a block that
 * has not started yet is seen as a spin (docs/streams.md, "Blocks that
 * wait for other blocks"). The shims' atomic functions call it only on
 * that path, so an atomic that changes memory costs nothing more. Kernel
 * code; outside a kernel it returns at once. */
void cuemu_atomic_poll(const volatile void *address);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_WARP_STEP_H */
