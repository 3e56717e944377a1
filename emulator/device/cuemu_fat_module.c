/*
 * cuemu_fat_module.c: module files of several device passes
 * (cuemu_fat_module.h).
 */
#include "cuemu_fat_module.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cuemu_report.h"
#include "device/cuemu_functions.h"

enum { RECORD = 256, MAX_PASSES = 16, HEAD = 16 };

int cuemu__fat_module_is(const void *data, size_t n) {
  return data && n >= HEAD && memcmp(data, CUEMU_FAT_MODULE_MAGIC, 8) == 0;
}

static void put_u64(unsigned char *at, uint64_t v) {
  for (int i = 0; i < 8; ++i)
    at[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_u64(const unsigned char *at) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i)
    v = v << 8 | at[i];
  return v;
}

cuemu_status cuemu__fat_module_write(const char *path, const char *const *parts,
                                     const char *const *lists, int n) {
  if (n < 1 || n > MAX_PASSES)
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "a fat module holds 1 to %d passes", MAX_PASSES);
  const size_t head = HEAD + (size_t)n * RECORD;
  unsigned char *table = calloc(1, head);
  char *data[MAX_PASSES] = {0};
  size_t sizes[MAX_PASSES] = {0};
  cuemu_status st =
      table ? CUEMU_SUCCESS : cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory");
  uint64_t offset = head;
  for (int i = 0; i < n && st == CUEMU_SUCCESS; ++i) {
    FILE *f = fopen(parts[i], "rbe");
    long size = -1;
    if (f && fseek(f, 0, SEEK_END) == 0)
      size = ftell(f);
    if (f && size > 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (data[i] = malloc((size_t)size)) &&
        fread(data[i], 1, (size_t)size, f) == (size_t)size)
      sizes[i] = (size_t)size;
    else
      st = cuemu__report(CUEMU_IO_ERROR, "cannot read %s: %s", parts[i],
                         strerror(errno));
    if (f)
      fclose(f);
    if (st == CUEMU_SUCCESS && strlen(lists[i]) >= RECORD - 16)
      st = cuemu__report(CUEMU_INVALID_VALUE, "too many images: %s", lists[i]);
    if (st == CUEMU_SUCCESS) {
      unsigned char *r = table + HEAD + (size_t)i * RECORD;
      put_u64(r, offset);
      put_u64(r + 8, sizes[i]);
      memcpy(r + 16, lists[i], strlen(lists[i]) + 1);
      offset += (sizes[i] + 15) & ~(uint64_t)15; /* each ELF aligned */
    }
  }
  if (st == CUEMU_SUCCESS) {
    memcpy(table, CUEMU_FAT_MODULE_MAGIC, 8);
    put_u64(table + 8, (uint64_t)n);
    FILE *out = fopen(path, "wbe");
    int bad = !out || fwrite(table, 1, head, out) != head;
    static const char zeros[16];
    for (int i = 0; i < n && !bad; ++i)
      bad = fwrite(data[i], 1, sizes[i], out) != sizes[i] ||
            fwrite(zeros, 1, (16 - sizes[i] % 16) % 16, out) !=
                (16 - sizes[i] % 16) % 16;
    if ((out && fclose(out) != 0) || bad)
      st = cuemu__report(CUEMU_IO_ERROR, "cannot write %s: %s", path,
                         strerror(errno));
  }
  for (int i = 0; i < n; ++i)
    free(data[i]);
  free(table);
  return st;
}

const void *cuemu__fat_module_pick(const void *data, size_t *size, char *images,
                                   size_t cap) {
  const unsigned char *p = data;
  const uint64_t n = get_u64(p + 8);
  const char *lists[MAX_PASSES];
  if (cap)
    images[0] = '\0';
  if (n < 1 || n > MAX_PASSES)
    return NULL;
  for (uint64_t i = 0; i < n; ++i) {
    const unsigned char *r = p + HEAD + i * RECORD;
    lists[i] = memchr(r + 16, '\0', RECORD - 16) ? (const char *)r + 16 : "";
    const size_t used = strlen(images);
    if (cap > used)
      snprintf(images + used, cap - used, "%s%s", used ? "," : "", lists[i]);
  }
  const int picked = cuemu__device_pick_list(lists, (int)n);
  if (picked < 0)
    return NULL;
  const unsigned char *r = p + HEAD + (size_t)picked * RECORD;
  *size = (size_t)get_u64(r + 8);
  return p + get_u64(r);
}
