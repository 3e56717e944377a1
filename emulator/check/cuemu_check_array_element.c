/*
 * cuemu_check_array_element.c: a CUDA array's element in the checkers'
 * reports. On a GPU an array has no addresses a program can see, so a
 * report of a texture fetch or surface read names the element by the
 * coordinates the program used (x, y, z; the layer or cubemap face; the
 * mipmap level) rather than by a byte offset into cuemu's packed copy.
 */
#include <stdio.h>

#include "check/cuemu_check.h"

void cuemu__check_array_element(const cuemu__array_shape *s, size_t offset,
                                char *element, size_t element_size, char *array,
                                size_t array_size) {
  size_t e = offset / s->element;
  size_t x = e % s->width, y = e / s->width % s->height,
         z = e / s->width / s->height;
  char level[64] = "", slice[96] = "";
  if (s->level >= 0)
    snprintf(level, sizeof level, " of level %d", s->level);
  /* The packed layout's slices: layers, faces, or six faces a layer. */
  if (s->cubemap && s->layered)
    snprintf(slice, sizeof slice, " of face %zu of layer %zu", z % 6, z / 6);
  else if (s->cubemap)
    snprintf(slice, sizeof slice, " of face %zu", z);
  else if (s->layered)
    snprintf(slice, sizeof slice, " of layer %zu", z);
  if (s->dims == 1)
    snprintf(element, element_size, "element (%zu)%s%s", x, slice, level);
  else if (s->dims == 2)
    snprintf(element, element_size, "element (%zu,%zu)%s%s", x, y, slice,
             level);
  else
    snprintf(element, element_size, "element (%zu,%zu,%zu)%s", x, y, z, level);

  char sides[96], slices[64] = "";
  if (s->dims == 1)
    snprintf(sides, sizeof sides, "%zu", s->width);
  else if (s->dims == 2)
    snprintf(sides, sizeof sides, "%zux%zu", s->width, s->height);
  else
    snprintf(sides, sizeof sides, "%zux%zux%zu", s->width, s->height, s->depth);
  if (s->cubemap && s->layered)
    snprintf(slices, sizeof slices, ", %zu layers of 6 faces", s->depth / 6);
  else if (s->cubemap)
    snprintf(slices, sizeof slices, ", 6 faces");
  else if (s->layered)
    snprintf(slices, sizeof slices, ", %zu layers", s->depth);
  snprintf(array, array_size, "%s elements of %zu bytes%s%s", sides, s->element,
           slices, s->level >= 0 ? " in a mipmapped array" : "");
}
