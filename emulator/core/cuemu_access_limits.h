/*
 * cuemu_access_limits.h: device memory whose access is set per device
 * (the driver's virtual memory management: cuMemSetAccess gives each
 * device no access, read access or read and write access, per granule of
 * a mapping). The emulated devices share one address space, whose page
 * protection can only be the widest access of any device; this table
 * keeps each device's own, so that memcheck reports a kernel touching
 * such memory without its device's access (emulator/check/). The runtime
 * fills it; the checkers read it. Internal to libcuemu; host code, any
 * thread.
 */
#ifndef CUEMU_ACCESS_LIMITS_H
#define CUEMU_ACCESS_LIMITS_H

#include <stddef.h>

/* Devices whose access is kept (CUEMU_DEVICE allows fewer). */
#define CUEMU_MEM_ACCESS_DEVICES 64

/* CUmemAccess_flags values. */
enum {
  CUEMU_MEM_ACCESS_NONE = 0,
  CUEMU_MEM_ACCESS_READ = 1,
  CUEMU_MEM_ACCESS_READWRITE = 3
};

/* Records the access of [base, base + size): `flags` holds, for each of
 * the size / granule granules in turn, CUEMU_MEM_ACCESS_DEVICES bytes (one
 * CUmemAccess_flags per device); it is copied. Replaces the range
 * recorded at `base`. Returns 0, or -1 when out of memory. */
int cuemu__access_limits_set(const void *base, size_t size, size_t granule,
                             const unsigned char *flags);

/* Forgets the range recorded at `base`. */
void cuemu__access_limits_clear(const void *base);

/* The access of `device` at `p`, or -1 when no recorded range holds `p`. */
int cuemu__access_limits_of(const void *p, int device);

/* Whether [base, base + size) meets a recorded range; then *full is set
 * when `device` may read and write every recorded byte of it. */
int cuemu__access_limits_meet(const void *base, size_t size, int device,
                              int *full);

#endif /* CUEMU_ACCESS_LIMITS_H */
