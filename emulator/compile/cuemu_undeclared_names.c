/*
 * cuemu_undeclared_names.c: whether a device pass failed only on names
 * that are declared nowhere. nvcc's device front end does not parse the
 * body of a template that nothing instantiates, so an undeclared name
 * there (CGBN's `topctz` in core_counting.cu, in headers that only its
 * device pass includes) builds with nvcc, while its host pass, g++ and
 * clang++ refuse such a name at the template's definition (two-phase
 * lookup). Measured with nvcc 13.0 (docs/nvcc-checks.md): a class
 * template's member or a function template under `#ifdef __CUDA_ARCH__`
 * that names an undeclared variable or function, or has a syntax error,
 * builds while nothing instantiates it; instantiated, or seen by the host
 * pass too, it is refused, as is a plain function's. Where the device
 * pass's messages are all of this kind, cuemu_compile.c compiles the unit
 * again with clang++, its device pass with -fdelayed-template-parsing
 * (clang++ then parses a template's body where it is instantiated), and
 * its host pass as before. Each error must name a line that the host
 * pass's preprocessed unit does not have: cuemu's host pass does not
 * compile a __device__ function's body, while nvcc's parses every body it
 * sees and refuses the name there (tests/driver_device_undeclared.sh).
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cuemu_driver.h"
#include "cuemu_line_markers.h"

/* The messages of g++ and clang++ about a name that lookup does not find. */
static const char *const undeclared[] = {
    "was not declared in this scope",
    "that depend on a template parameter, so a declaration of",
    "use of undeclared identifier",
};

int cuemu__undeclared_device_only(const char *log, size_t size,
                                  const char *host_ii, size_t host_size) {
  int errors = 0;
  const char *end = log + size;
  for (const char *line = log; line < end;) {
    const char *nl = memchr(line, '\n', (size_t)(end - line));
    size_t len = nl ? (size_t)(nl - line) : (size_t)(end - line);
    if (memmem(line, len, "error: ", 7)) {
      int known = 0;
      for (size_t i = 0; i < sizeof undeclared / sizeof *undeclared; ++i)
        if (memmem(line, len, undeclared[i], strlen(undeclared[i])))
          known = 1;
      const char *file;
      size_t file_len;
      long at, column;
      if (!known ||
          !cuemu__error_place(line, len, &file, &file_len, &at, &column) ||
          cuemu__unit_line(host_ii, host_size, file, file_len, at) >= 0)
        return 0;
      errors++;
    }
    line += len + 1;
  }
  return errors > 0;
}
