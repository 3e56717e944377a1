/*
 * cuemu_variable_copy_records.c: the records of a further device pass's own
 * copies of __device__ and __constant__ variables (cuemu_driver.h), whose
 * initializers hold that architecture's device function addresses. The
 * host's symbol calls reach the copy of the pass that the current device
 * runs (cuemu_program_register_variable_copies()), as on a GPU each
 * device's symbol is its cubin's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/cuemu_report.h"
#include "cuemu_driver.h"

cuemu_status cuemu__variable_copies_source(const char *list,
                                           const char *suffix, int arch,
                                           const char *source) {
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
  char line[4096], name[2048];
  unsigned long long size;
  fputs("\t.section cuemu_variable_copies,\"aw\",%progbits\n", out);
  while (fgets(line, sizeof line, in))
    if (sscanf(line, "%2047s %llu", name, &size) == 2)
      /* The first pass's object is referenced weakly: a record of a name
       * that the first pass does not define (none is known) holds 0. */
      fprintf(out,
              "\t.balign 8\n\t.weak %s\n\t.quad %s\n\t.quad %s%s\n"
              "\t.quad %llu\n\t.quad %d\n",
              name, name, name, suffix, size, arch);
  fputs("\t.section .note.GNU-stack,\"\",%progbits\n", out);
  int bad = ferror(in);
  fclose(in);
  if (fclose(out) != 0 || bad)
    return cuemu__report(CUEMU_IO_ERROR, "cannot write %s", source);
  return CUEMU_SUCCESS;
}
