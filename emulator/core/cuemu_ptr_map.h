/*
 * cuemu_ptr_map.h: a map from non-zero addresses (or other non-zero
 * integers) to pointers, by hashing (open addressing, linear probing):
 * constant time to find, add and remove, for the books that look
 * allocations up by their exact base (the made mappings, the pools'
 * allocations, the checkers' records). Not thread-safe: its owner's lock
 * guards it. Internal to libcuemu.
 */
#ifndef CUEMU_PTR_MAP_H
#define CUEMU_PTR_MAP_H

#include <stddef.h>
#include <stdint.h>

/* Zero-initialised, it is empty. keys[i] == 0 marks a free slot. */
typedef struct cuemu__ptr_map {
  uintptr_t *keys;
  void **values;
  size_t cap; /* a power of two, or 0 */
  size_t len;
} cuemu__ptr_map;

/* The value of `key` (non-zero), or NULL. */
void *cuemu__ptr_map_get(const cuemu__ptr_map *map, uintptr_t key);

/* Sets the value of `key` (non-zero); returns 0, or -1 without memory (the
 * map then is as it was). */
int cuemu__ptr_map_put(cuemu__ptr_map *map, uintptr_t key, void *value);

/* Removes `key` and returns its value, or NULL when it was not there. */
void *cuemu__ptr_map_remove(cuemu__ptr_map *map, uintptr_t key);

/* Frees the map's storage; it is empty again. */
void cuemu__ptr_map_clear(cuemu__ptr_map *map);

/* Visits every entry: `for (size_t i = 0; i < map.cap; ++i) if
 * (map.keys[i]) ...`, changing values only (never keys) on the way. */

#endif /* CUEMU_PTR_MAP_H */
