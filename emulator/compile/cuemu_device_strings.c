/*
 * cuemu_device_strings.c: the linker script that puts the device pass's
 * string literals in a section of their own (cuemu_device_strings.h).
 */
#include "cuemu_device_strings.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/cuemu_report.h"

/* Other input sections keep their names (`ld -r` places them as orphans). */
static const char script[] =
    "SECTIONS {\n"
    "  " CUEMU_DEVICE_STRINGS_SECTION " : {\n"
    "    *(.rodata.str*) *(.rodata.*.str*)\n"
    "  }\n"
    "}\n";

cuemu_status cuemu__device_strings_script(const char *temp, char *path,
                                          size_t size) {
  if (snprintf(path, size, "%s.strings.ld", temp) >= (int)size)
    return cuemu__report(CUEMU_CACHE, "the cache folder's path is too long");
  FILE *f = fopen(path, "we");
  if (!f)
    return cuemu__report(CUEMU_IO_ERROR, "cannot write %s: %s", path,
                         strerror(errno));
  int bad = fputs(script, f) == EOF;
  if (fclose(f) != 0 || bad)
    return cuemu__report(CUEMU_IO_ERROR, "cannot write %s", path);
  return CUEMU_SUCCESS;
}
