/*
 * cuemu_ptr_map.c: the map from non-zero keys to pointers (see
 * cuemu_ptr_map.h). At most half full; removal moves back the entries
 * after the hole that belong before it, so no tombstones pile up.
 */
#include "core/cuemu_ptr_map.h"

#include <stdlib.h>

/* The home slot of `key` in a map of `cap` slots (Fibonacci hashing on the
 * key's high product bits, so that aligned addresses spread). */
static size_t slot_of(uintptr_t key, size_t cap) {
  uint64_t h = (uint64_t)key * 0x9E3779B97F4A7C15ull;
  return (size_t)(h ^ (h >> 29)) & (cap - 1);
}

/* The slot holding `key`, or the free slot where it would go. */
static size_t probe(const cuemu__ptr_map *map, uintptr_t key) {
  size_t i = slot_of(key, map->cap);
  while (map->keys[i] && map->keys[i] != key)
    i = (i + 1) & (map->cap - 1);
  return i;
}

void *cuemu__ptr_map_get(const cuemu__ptr_map *map, uintptr_t key) {
  if (!map->cap || !key)
    return NULL;
  size_t i = probe(map, key);
  return map->keys[i] ? map->values[i] : NULL;
}

/* Doubles the map (or makes its first slots); -1 without memory. */
static int grow(cuemu__ptr_map *map) {
  size_t cap = map->cap ? 2 * map->cap : 64;
  uintptr_t *keys = calloc(cap, sizeof *keys);
  void **values = malloc(cap * sizeof *values);
  if (!keys || !values) {
    free(keys);
    free(values);
    return -1;
  }
  cuemu__ptr_map grown = {keys, values, cap, map->len};
  for (size_t i = 0; i < map->cap; ++i)
    if (map->keys[i]) {
      size_t j = probe(&grown, map->keys[i]);
      keys[j] = map->keys[i];
      values[j] = map->values[i];
    }
  free(map->keys);
  free(map->values);
  *map = grown;
  return 0;
}

int cuemu__ptr_map_put(cuemu__ptr_map *map, uintptr_t key, void *value) {
  if (!key)
    return -1;
  if (2 * (map->len + 1) > map->cap && grow(map) != 0)
    return -1;
  size_t i = probe(map, key);
  if (!map->keys[i])
    map->len++;
  map->keys[i] = key;
  map->values[i] = value;
  return 0;
}

void *cuemu__ptr_map_remove(cuemu__ptr_map *map, uintptr_t key) {
  if (!map->cap || !key)
    return NULL;
  size_t mask = map->cap - 1, i = probe(map, key);
  if (!map->keys[i])
    return NULL;
  void *value = map->values[i];
  map->keys[i] = 0;
  map->len--;
  /* Moves back each entry of the run after the hole whose home is not
   * between the hole and it, so that every lookup still finds its key. */
  for (size_t j = (i + 1) & mask; map->keys[j]; j = (j + 1) & mask) {
    size_t home = slot_of(map->keys[j], map->cap);
    if (((j - home) & mask) >= ((j - i) & mask)) {
      map->keys[i] = map->keys[j];
      map->values[i] = map->values[j];
      map->keys[j] = 0;
      i = j;
    }
  }
  return value;
}

void cuemu__ptr_map_clear(cuemu__ptr_map *map) {
  free(map->keys);
  free(map->values);
  *map = (cuemu__ptr_map){NULL, NULL, 0, 0};
}
