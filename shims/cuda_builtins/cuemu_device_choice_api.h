/*
 * cuemu_device_choice_api.h: cudaChooseDevice, cudaInitDevice and
 * cudaHostGetFlags, which multi-GPU tutorials call (CUDA by Example picks
 * its device with cudaChooseDevice). Included by cuda_runtime_api.h.
 */
/* cuda_runtime_api.h first, outside the guard: included alone, this header
 * is then read at its place there, after the calls it uses. */
#include "cuda_runtime_api.h"
#ifndef CUEMU_DEVICE_CHOICE_API_H
#define CUEMU_DEVICE_CHOICE_API_H

#include <cuemu/cuemu_runtime.h>

#define cudaInitDeviceFlagsAreValid 0x01

/* The device whose properties best match *prop: CUDA does not document
 * the measure; here a device of the requested compute capability (major,
 * and minor when major matches) comes first, then one with at least the
 * requested global memory and multiprocessors, the lowest ordinal among
 * equals. Fields left zero ask nothing. */
inline cudaError_t cudaChooseDevice(int *device,
                                    const struct cudaDeviceProp *prop) {
  if (!device || !prop)
    return static_cast<cudaError_t>(cuemu_rt_error(cudaErrorInvalidValue));
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess)
    return e;
  int best = 0, best_score = -1;
  for (int d = 0; d < count; ++d) {
    struct cudaDeviceProp p;
    e = cudaGetDeviceProperties(&p, d);
    if (e != cudaSuccess)
      return e;
    int score = 0;
    if (prop->major && p.major == prop->major) {
      score += 8;
      if (p.minor == prop->minor)
        score += 4;
    }
    if (prop->totalGlobalMem && p.totalGlobalMem >= prop->totalGlobalMem)
      score += 2;
    if (prop->multiProcessorCount &&
        p.multiProcessorCount >= prop->multiProcessorCount)
      score += 1;
    if (score > best_score) {
      best = d;
      best_score = score;
    }
  }
  *device = best;
  return cudaSuccess;
}

/* The primary context of `device` is made (its runtime state, as
 * cudaFree(0) makes it) without becoming the thread's current device;
 * with cudaInitDeviceFlagsAreValid, `deviceFlags` are the device's flags
 * (cudaSetDeviceFlags). */
inline cudaError_t cudaInitDevice(int device, unsigned int deviceFlags,
                                  unsigned int flags) {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess)
    return e;
  if (device < 0 || device >= count)
    return static_cast<cudaError_t>(cuemu_rt_error(cudaErrorInvalidDevice));
  if (flags & ~static_cast<unsigned>(cudaInitDeviceFlagsAreValid))
    return static_cast<cudaError_t>(cuemu_rt_error(cudaErrorInvalidValue));
  int current = 0;
  e = cudaGetDevice(&current);
  if (e != cudaSuccess)
    return e;
  e = cudaSetDevice(device);
  if (e == cudaSuccess && (flags & cudaInitDeviceFlagsAreValid))
    e = cudaSetDeviceFlags(deviceFlags);
  if (e == cudaSuccess)
    e = cudaFree(0);
  cudaError_t back = cudaSetDevice(current);
  return e != cudaSuccess ? e : back;
}

/* The flags that cudaHostAlloc (or cudaMallocHost: cudaHostAllocDefault)
 * was given for the allocation that holds pHost; cudaErrorInvalidValue for
 * any other pointer, registered memory included, as CUDA. */
inline cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost) {
  cuemu_rt_allocation a;
  if (!pFlags || !pHost || !cuemu_rt_memory_find(pHost, &a) ||
      a.kind != CUEMU_RT_MEMORY_HOST || a.state != CUEMU_RT_MEMORY_LIVE)
    return static_cast<cudaError_t>(cuemu_rt_error(cudaErrorInvalidValue));
  *pFlags = a.flags;
  return cudaSuccess;
}

#endif
