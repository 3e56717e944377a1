/*
 * cuemu_surface_access.c: cuemu_surface_access(), the one entry point of
 * the device's surface reads and writes (surf1Dread ... surfCubemapLayered-
 * write). As in CUDA, x is a byte offset and y, z are rows and slices
 * (layers, faces, or layer * 6 + face); an access is in range when its
 * bytes lie inside one row of the array. Out of range, the boundary mode
 * decides: zero (reads give zeros, writes are dropped), clamp (the nearest
 * position in range) or trap (the launch stops with a fault that names the
 * kernel, the thread, the coordinates and the line).
 */
#include <string.h>

#include "check/cuemu_check.h"
#include "device/cuemu_texture.h"

static long clamp_long(long v, long lo, long hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

void cuemu_surface_access(cudaSurfaceObject_t surf, int op, int write, int x,
                          int y, int z, void *data, size_t size, int mode,
                          const void *pc, const char *function,
                          const char *file, int line) {
  const cuemu__texture *t = cuemu__texture_lookup(surf, 1);
  if (!t)
    cuemu__texture_fault(file, line,
                         "%s on surface object %#llx, which is not a live "
                         "surface object",
                         function, (unsigned long long)surf);
  if (cuemu__texture_shape_of_op(op, 1) != t->shape)
    cuemu__texture_fault(file, line,
                         "%s on a surface object whose array has another "
                         "shape (CUDA leaves the result undefined)",
                         function);
  const cuemu__tex_level *lv = &t->level[0];
  long row = (long)(lv->width * t->format.size);
  long rows = (long)lv->height, slices = (long)lv->depth;
  long sz = (long)size;
  int in_range = x >= 0 && x + sz <= row && y >= 0 && y < rows && z >= 0 &&
                 z < slices;
  long bx = x, by = y, bz = z;
  if (!in_range) {
    switch (mode) {
    case cudaBoundaryModeZero:
      if (!write)
        memset(data, 0, size);
      return;
    case cudaBoundaryModeClamp:
      bx = clamp_long(x, 0, row - sz);
      by = clamp_long(y, 0, rows - 1);
      bz = clamp_long(z, 0, slices - 1);
      break;
    default:
      cuemu__texture_fault(file, line,
                           "%s out of range with cudaBoundaryModeTrap: byte "
                           "x %d (%zu bytes from a row of %ld), y %d (of "
                           "%ld), z %d (of %ld)",
                           function, x, size, row, y, rows, z, slices);
    }
  }
  unsigned char *p = lv->data + (size_t)bz * lv->slice +
                     (size_t)by * lv->pitch + (size_t)bx;
  /* The checkers see the access as the kernel's own, at the caller. */
  cuemu__check_access(p, size, write ? CUEMU_ACCESS_WRITE : CUEMU_ACCESS_READ,
                      pc);
  if (write)
    memcpy(p, data, size);
  else
    memcpy(data, p, size);
}
