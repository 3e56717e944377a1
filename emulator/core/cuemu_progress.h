/*
 * cuemu_progress.h: blocks that wait for other blocks. On a GPU every
 * block of a grid that fits the device at once is resident, so a block may
 * spin on a flag that another block sets (a software grid barrier in a
 * persistent kernel, a producer and its consumer, a look-back over blocks
 * started later). A non-cooperative launch runs its blocks on a few
 * workers, one block at a time each; when a block spins (its threads only
 * yield: __nanosleep, or a volatile load polled again and again), more
 * workers are started, each taking the next block not yet started, up to
 * the blocks the emulated device holds at once for the kernel (SM count x
 * blocks per SM, as cudaOccupancyMaxActiveBlocksPerMultiprocessor counts
 * them). A block that still spins then, while no block ends and blocks are
 * left that have not started, waits for a block that cannot be resident: a
 * GPU hangs there, and the launch ends with an error that says so. Internal
 * to libcuemu; see docs/streams.md.
 */
#ifndef CUEMU_PROGRESS_H
#define CUEMU_PROGRESS_H

#include "core/cuemu_worker.h"

/* Seconds a block spins before more of the launch's blocks are started,
 * and before a block that spins beside as many blocks as the device holds
 * is reported (no block having ended meanwhile, and every block running
 * having spun as long: one that computes may be the one waited for). */
#define CUEMU_PROGRESS_WIDEN_AFTER 0.02
#define CUEMU_PROGRESS_REPORT_AFTER 1.0
/* How long every running block must be seen spinning before the report:
 * long enough for spinning blocks to see a flag that the block they waited
 * for set as it ended. */
#define CUEMU_PROGRESS_CONFIRM_AFTER 0.25

/* The block of worker `w` has done nothing but spin for `elapsed` seconds
 * (at least CUEMU_PROGRESS_WIDEN_AFTER), its thread that yields now at
 * `pc` with stack pointer `sp`: starts more workers for the launch, or
 * ends the block with the report above, or returns. Kernel code, on the
 * spinning thread. */
void cuemu__progress_spinning(cuemu_worker *w, double elapsed, void *pc,
                              void *sp);

/* After a block was abandoned by cuemu__progress_spinning as waiting on a
 * block that cannot be resident (w->stuck.pending), ends the launch with
 * the report: the kernel, the block, the thread and its source line, the
 * limit. Host code, the worker's own stack (cuemu_block.c), while the
 * thread's stack is still as it was. */
void cuemu__progress_report(cuemu_worker *w);

/* Seconds without a block of a launch starting, and seconds in which each
 * of its running blocks has run the same thread without a switch, after
 * which the watchdog starts more workers for it (cuemu__progress_idle):
 * blocks whose threads take turns (at barriers, or one after the other)
 * compute, and keep the launch's workers however long they take. */
#define CUEMU_PROGRESS_IDLE_AFTER 0.3
#define CUEMU_PROGRESS_STILL_AFTER 1.0

/* The most workers the watchdog gives a launch that way: threads that spin
 * without yielding keep their CPUs busy, and hundreds of them would starve
 * the blocks they wait for. */
#define CUEMU_PROGRESS_IDLE_MOST 16u

/* No block of `launch` has started for CUEMU_PROGRESS_IDLE_AFTER seconds,
 * and its running threads have not changed for CUEMU_PROGRESS_STILL_AFTER:
 * its blocks may spin in loops that neither yield nor poll a volatile
 * location (an atomic read in a loop): starts more workers, as
 * cuemu__progress_spinning does, up to CUEMU_PROGRESS_IDLE_MOST, for a
 * launch that has several workers (one worker takes its blocks without an
 * atomic instruction, so only it may start others), with a note on stderr
 * (unless CUEMU_QUIET=1) the first time. Called by the watchdog's
 * thread. */
void cuemu__progress_idle(cuemu_launch *launch);

/* Before the launch's blocks run (each run of a launch whose schedules are
 * perturbed): more workers may be started. Host code, the launching
 * thread. */
void cuemu__progress_begin(cuemu_launch *launch);

/* After the launch's blocks have run (or it stopped): starts no more
 * workers, and waits for those started for it and frees them. Host code,
 * the launching thread. */
void cuemu__progress_end(cuemu_launch *launch);

/* Frees the launch's state, once the watchdog has left it. Host code, the
 * launching thread. */
void cuemu__progress_free(cuemu_launch *launch);

#endif /* CUEMU_PROGRESS_H */
