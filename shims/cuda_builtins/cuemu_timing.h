/*
 * cuemu_timing.h: CUDA's clock64() and __nanosleep().
 *
 * clock64() counts nanoseconds of the host's monotonic clock: it never goes
 * backwards, and differences measure elapsed time, as kernels use it (CUDA
 * counts SM cycles, which no code may take as a fixed unit). The 32-bit
 * clock() of device code has the name of the C library's clock(), which
 * stays what it is.
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

#include <time.h>

#include <cuemu/cuemu_device.h>

inline long long int clock64(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<long long int>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

inline void __nanosleep(unsigned int ns) {
  (void)ns;
  cuemu_thread_yield();
}

#endif /* CUEMU_TIMING_H */
