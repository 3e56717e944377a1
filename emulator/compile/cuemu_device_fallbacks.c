/*
 * The fallbacks of the device pass's references of __host__ __device__
 * functions of relocatable device code (cuemu_driver.h): a weak hidden
 * function of the device name that jumps to the host's. A unit's device
 * pass that defines the device name wins the link; a reference that none
 * defines (from the host code that a device pass also compiles, of a
 * function that a host-only file defines) still links, as with nvcc,
 * whose device pass compiles no host code.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/cuemu_report.h"
#include "cuemu_driver.h"

/* The jump to a function, by the machine cuemu runs on (the objects are
 * this machine's). */
#if defined(__x86_64__)
#define FALLBACK_JUMP "jmp %s@PLT"
#define FALLBACK_TYPE "@function"
#define FALLBACK_BITS "@progbits"
#elif defined(__aarch64__)
#define FALLBACK_JUMP "b %s"
#define FALLBACK_TYPE "%%function"
#define FALLBACK_BITS "%%progbits"
#endif

cuemu_status cuemu__device_fallbacks_source(const char *list,
                                            const char *source) {
#ifndef FALLBACK_JUMP
  (void)list;
  (void)source;
  return CUEMU_NOT_SUPPORTED;
#else
  FILE *in = fopen(list, "re");
  if (!in)
    return cuemu__report(CUEMU_IO_ERROR, "cannot read %s: %s", list,
                         strerror(errno));
  FILE *out = fopen(source, "we");
  if (!out) {
    fclose(in);
    return cuemu__report(CUEMU_IO_ERROR, "cannot write %s: %s", source,
                         strerror(errno));
  }
  char line[4096], name[2048], target[2048];
  while (fgets(line, sizeof line, in))
    if (sscanf(line, "%2047s %2047s", name, target) == 2) {
      /* Each in a section of its own, as -ffunction-sections places the
       * device pass's functions (a link with --gc-sections drops it). */
      fprintf(out, "\t.section .text.%s,\"ax\"," FALLBACK_BITS "\n", name);
      fprintf(out, "\t.weak %s\n\t.hidden %s\n", name, name);
      fprintf(out, "\t.type %s, " FALLBACK_TYPE "\n", name);
      fprintf(out, "%s:\n\t" FALLBACK_JUMP "\n", name, target);
      fprintf(out, "\t.size %s, .-%s\n", name, name);
    }
  fprintf(out, "\t.section .note.GNU-stack,\"\"," FALLBACK_BITS "\n");
  int bad = ferror(in);
  fclose(in);
  if (fclose(out) != 0 || bad)
    return cuemu__report(CUEMU_IO_ERROR, "cannot write %s", source);
  return CUEMU_SUCCESS;
#endif
}
