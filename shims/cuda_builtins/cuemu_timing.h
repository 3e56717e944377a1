/*
 * cuemu_timing.h: CUDA's clock(), clock64() and __nanosleep().
 *
 * clock64() counts cycles of the emulated device, at the clock rate that
 * cudaGetDeviceProperties reports (libcuemu's cuemu_clock64()), so a kernel
 * that waits for N cycles waits about N / clockRate seconds, as on a GPU.
 * Device code's clock() has the name of the C library's clock(): the name
 * is taken over by a macro for cuemu_clock(), which gives the 32-bit cycle
 * counter in kernel code and the C library's clock() in host code.
 *
 * __nanosleep() lets the other threads of the block run, so that a spin-wait
 * with a back-off makes progress in the emulator; it does not sleep further,
 * which CUDA permits (the duration is only an upper bound of about the
 * requested time).
 */
#ifndef CUEMU_TIMING_H
#define CUEMU_TIMING_H

#ifndef __cplusplus
#error "the CUDA shims are C++ headers; compile .cu files with cuemu-cc"
#endif

/* <ctime> first: it #undefs clock, and its include guard keeps a later
 * #include <ctime> of the user's from undoing the macro below. */
#include <ctime>
#include <time.h>

#include <cuemu/cuemu_device.h>

/* <time.h> has declared the C library's clock(); from here on, calls of
 * clock() (and std::clock()) go to cuemu_clock(). */
namespace std {
using ::cuemu_clock;
}
#define clock() cuemu_clock()

#ifdef CUEMU_HOST_DECLS
/* The host pass's lean prelude: declarations only (cuemu_host_decls.h), so
 * that a host function's call of clock64() or __nanosleep() is refused at
 * the user's line, as nvcc refuses it. */
#include "cuemu_timing_decls.h"
#else

inline long long int clock64(void) { return cuemu_clock64(); }

inline void __nanosleep(unsigned int ns) {
  (void)ns;
  cuemu_thread_yield();
}

#endif /* CUEMU_HOST_DECLS */

#endif /* CUEMU_TIMING_H */
