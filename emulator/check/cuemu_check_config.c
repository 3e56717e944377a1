/*
 * cuemu_check_config.c: the lists of checkers that cuemu-cc --check=LIST
 * and CUEMU_CHECK=LIST take.
 */
#include <stdio.h>
#include <string.h>

#include "check/cuemu_check.h"

int cuemu__check_parse(const char *list, unsigned *mask, char *bad,
                       size_t bad_size) {
  static const struct {
    const char *name;
    unsigned bits;
  } words[] = {{"sync", CUEMU_CHECK_SYNC}, {"race", CUEMU_CHECK_RACE},
               {"mem", CUEMU_CHECK_MEM},   {"init", CUEMU_CHECK_INIT},
               {"all", CUEMU_CHECK_ALL},   {"none", 0}};
  unsigned m = 0;
  const char *p = list ? list : "";
  while (*p) {
    size_t len = strcspn(p, ",");
    size_t i, n = sizeof words / sizeof words[0];
    for (i = 0; i < n; ++i)
      if (strlen(words[i].name) == len && strncmp(words[i].name, p, len) == 0)
        break;
    if (i == n) {
      snprintf(bad, bad_size, "%.*s", (int)len, p);
      return -1;
    }
    m |= words[i].bits;
    p += len;
    if (*p == ',')
      p++;
  }
  /* Synccheck is always on with any other checker. */
  if (m)
    m |= CUEMU_CHECK_SYNC;
  *mask = m;
  return 0;
}
