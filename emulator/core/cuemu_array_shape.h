/*
 * cuemu_array_shape.h: the layout of a CUDA array's elements as the
 * checkers' reports describe it (cuemu_rt_array.c gives it with each
 * array's allocation, cuemu_check_array_element.c turns a byte offset into
 * the element's coordinates). Internal to libcuemu.
 */
#ifndef CUEMU_ARRAY_SHAPE_H
#define CUEMU_ARRAY_SHAPE_H

#include <stddef.h>

typedef struct cuemu__array_shape {
  size_t element; /* bytes per element; 0: not an array */
  /* The packed layout: width x height x depth elements, each at least 1;
   * depth counts the layers and cubemap faces. */
  size_t width, height, depth;
  int dims;    /* an element's coordinates: 1 (x), 2 (x, y) or 3 */
  int layered; /* depth counts layers (of 6 faces for a cubemap) */
  int cubemap; /* depth counts faces */
  int level;   /* the level of a mipmapped array, or -1 */
} cuemu__array_shape;

#endif /* CUEMU_ARRAY_SHAPE_H */
