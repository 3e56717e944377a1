/*
 * cuemu_clock.c: the device's clocks (cuemu_device.h): clock(), clock64()
 * and %globaltimer of kernel code. The cycle counter runs at the device's
 * reported clock rate (cudaDevAttrClockRate), counted from the host's
 * monotonic clock, so that a kernel that waits for N cycles waits about
 * N / clockRate seconds, as on a GPU.
 */
#include <time.h>

#include <cuemu/cuemu_device.h>

#include "device/cuemu_device_model.h"

static long long monotonic_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

long long cuemu_clock64(void) {
  /* cycles = ns * kHz / 1e6, split so that it cannot overflow for the
   * lifetime of a process. */
  long long ns = monotonic_ns();
  long long khz = (long long)cuemu__device_model()->clock_khz;
  return ns / 1000000 * khz + ns % 1000000 * khz / 1000000;
}

long cuemu_clock(void) {
  if (!cuemu_thread_in_kernel())
    return (long)clock(); /* host code: the C library's clock() */
  /* %clock is a 32-bit counter. */
  return (long)(unsigned)cuemu_clock64();
}

unsigned long long cuemu_globaltimer(void) {
  return (unsigned long long)monotonic_ns();
}
