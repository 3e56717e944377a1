/*
 * cuemu_libs_memory.c: the check that cuemu's libraries (cuBLAS, cuRAND)
 * make of the device memory that their GPU kernels would touch.
 */
#include <stdint.h>
#include <stdio.h>

#include <cuemu/cuemu_driver_api.h>
#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_status.h>

#include "cuemu_libs.h"

/* CUDA's pointer attributes (cuPointerGetAttribute) used to find the
 * allocation a pointer lies in. */
enum { PTR_RANGE_START_ADDR = 11, PTR_RANGE_SIZE = 12 };

static __thread int host_operands;

void cuemu__libs_host_operands(int on) { host_operands = on; }

int cuemu__libs_device_range(const char *name, const char *arg, const void *p,
                             size_t bytes) {
  if (bytes == 0 || (host_operands && p))
    return 1;
  unsigned long long base = 0;
  size_t size = 0;
  unsigned long long at = (unsigned long long)(uintptr_t)p;
  int known =
      p &&
      cuemu_drv_pointer_get_attribute(&base, PTR_RANGE_START_ADDR, at) == 0 &&
      cuemu_drv_pointer_get_attribute(&size, PTR_RANGE_SIZE, at) == 0;
  if (known && at - base + bytes <= size)
    return 1;
  char message[512];
  if (known)
    snprintf(message, sizeof message,
             "%s: %s (%p) spans %zu bytes, past the end of its allocation "
             "(%zu bytes at %#llx): an illegal memory access on a GPU",
             name, arg, p, bytes, size, base);
  else
    snprintf(message, sizeof message,
             "%s: %s (%p) is not device memory (not from cudaMalloc, "
             "cudaMallocManaged or mapped host memory): an illegal memory "
             "access on a GPU",
             name, arg, p);
  cuemu_rt_library_fault(CUEMU_KERNEL_FAULT, message);
  return 0;
}

int cuemu__libs_aligned(const char *name, const char *arg, const void *p,
                        size_t align) {
  if (align <= 1 || (uintptr_t)p % align == 0)
    return 1;
  char message[512];
  snprintf(message, sizeof message,
           "%s: %s (%p) is not aligned to the %zu bytes of its element type: "
           "a misaligned address on a GPU",
           name, arg, p, align);
  cuemu_rt_library_fault(CUEMU_MISALIGNED_ADDRESS, message);
  return 0;
}
