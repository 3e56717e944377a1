/*
 * cuemu_visible_devices.c: the parsing of CUDA_VISIBLE_DEVICES and the
 * UUIDs it may name (see cuemu_visible_devices.h).
 */
#include "base/cuemu_visible_devices.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

void cuemu__device_uuid_bytes(int physical, unsigned char uuid[16]) {
  /* "cuemu-device-00N": sixteen bytes, no terminator. */
  char text[32];
  snprintf(text, sizeof text, "cuemu-device-%03d", physical);
  memcpy(uuid, text, 16);
}

/* The UUID of device `physical` as nvidia-smi and CUDA_VISIBLE_DEVICES
 * write it: "GPU-" and the bytes in hex, grouped 8-4-4-4-12. */
static void uuid_text(int physical, char out[41]) {
  unsigned char b[16];
  cuemu__device_uuid_bytes(physical, b);
  char *p = out + sprintf(out, "GPU-");
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10)
      *p++ = '-';
    p += sprintf(p, "%02x", b[i]);
  }
}

/* The device an entry [s, e) names, or -1 when it names none or is not
 * valid. */
static int entry_device(const char *s, const char *e, int count) {
  while (s < e && isspace((unsigned char)*s))
    ++s;
  while (e > s && isspace((unsigned char)e[-1]))
    --e;
  size_t len = (size_t)(e - s);
  if (len == 0)
    return -1;
  if (len > 4 && !strncasecmp(s, "GPU-", 4)) {
    /* A prefix of exactly one device's UUID. */
    int found = -1;
    for (int d = 0; d < count; ++d) {
      char text[41];
      uuid_text(d, text);
      if (len <= strlen(text) && !strncasecmp(s, text, len)) {
        if (found >= 0)
          return -1;
        found = d;
      }
    }
    return found;
  }
  /* CUDA reads an index as strtoul() does: its leading digits, the rest
   * ignored ("1gpu" is 1); no digit ("-1", "x") is an invalid entry. */
  if (*s < '0' || *s > '9')
    return -1;
  long n = 0;
  for (const char *c = s; c < e && *c >= '0' && *c <= '9'; ++c) {
    if (n >= count)
      return -1;
    n = n * 10 + (*c - '0');
  }
  return n < count ? (int)n : -1;
}

int cuemu__visible_devices_parse(const char *list, int count, int *map) {
  int n = 0;
  while (list && *list && n < count) {
    const char *end = strchr(list, ',');
    if (!end)
      end = list + strlen(list);
    int d = entry_device(list, end, count);
    for (int i = 0; i < n && d >= 0; ++i)
      if (map[i] == d)
        d = -1;
    if (d < 0)
      break;
    map[n++] = d;
    list = *end ? end + 1 : end;
  }
  return n;
}
