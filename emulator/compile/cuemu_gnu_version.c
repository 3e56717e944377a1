/*
 * cuemu_gnu_version.c: the version of the GCC that clang++ stands in for.
 * A unit that includes CUB or Thrust is compiled by clang++ where g++ was
 * asked for (use_clang_for_cccl(), cuemu_compile.c). nvcc's front end
 * defines its host compiler's __GNUC__, __GNUC_MINOR__ and
 * __GNUC_PATCHLEVEL__ in both passes; clang++'s own say 4.2.1, so a
 * header's `#if GCC_VERSION < 60300 #error g++ version >= 6.3.0 required`
 * (warpcore's base.cuh) refused a unit that nvcc builds. clang++ takes
 * the g++'s version with -fgnuc-version=
 * (tests/programs/cli/cccl_gnuc_version.cu), but for one newer than GCC 10:
 * glibc's headers then declare GCC 11's malloc(deallocator) attribute
 * (sys/cdefs.h, __attr_dealloc), which clang++ 14 refuses ("'__malloc__'
 * attribute takes no arguments" in <stdio.h>), so clang++ claims
 * NEWEST_CLAIMED, the newest GCC whose declarations it reads there.
 */
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuemu_driver.h"

enum { MAX_WORDS = 16 };

#define NEWEST_CLAIMED "10.0.0"

int cuemu__gnu_version(char *const *words, int count, char *version,
                       size_t size) {
  const char *argv[MAX_WORDS + 2];
  if (size == 0)
    return -1;
  version[0] = '\0';
  if (count < 1 || count > MAX_WORDS)
    return -1;
  for (int i = 0; i < count; ++i)
    argv[i] = words[i];
  argv[count] = "-dumpfullversion";
  argv[count + 1] = NULL;
  char line[64];
  if (cuemu__command_first_line(argv, line, sizeof line) != 0)
    return -1;
  /* Digits and dots only ("12.2.0"): anything else (a wrapper's message)
   * is not a version for clang++. */
  if (!isdigit((unsigned char)line[0]))
    return -1;
  for (const char *c = line; *c; ++c)
    if (!isdigit((unsigned char)*c) && *c != '.')
      return -1;
  int major = atoi(line);
  if (snprintf(version, size, "%s", major > 10 ? NEWEST_CLAIMED : line) >=
      (int)size) {
    version[0] = '\0';
    return -1;
  }
  return 0;
}
