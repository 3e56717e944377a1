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
 * pass's preprocessed unit does not have, or has in other words than the
 * device pass's: cuemu's host pass does not compile a __device__
 * function's body, while nvcc's parses every body it sees and refuses the
 * name there, so a line that both passes read alike stays refused. A line
 * that a macro spells differently per pass is the device pass's alone: a
 * linear-algebra library's `USING_STD(arg)` is `using ::arg;` in the
 * device pass (no global `arg` exists) and `using std::arg;` in the host
 * pass, inside a __host__ __device__ class template that nothing
 * instantiates (tests/driver_device_undeclared.sh).
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cuemu_driver.h"
#include "cuemu_line_markers.h"

/* The messages of g++ and clang++ about a name that lookup does not find,
 * unqualified, then qualified by a namespace (`using ::arg;`, `::f(x)`,
 * `N::f(x)`). */
static const char *const undeclared[] = {
    "was not declared in this scope",
    "that depend on a template parameter, so a declaration of",
    "use of undeclared identifier",
    "has not been declared in '",
    "has not been declared in \xe2\x80\x98",
    "in the global namespace",
    "in namespace '",
};

/* The line of the preprocessed unit `ii` (`size` bytes) at `offset`, its
 * length in *len. */
static const char *unit_text(const char *ii, size_t size, long offset,
                             size_t *len) {
  const char *at = ii + offset;
  const char *nl = memchr(at, '\n', size - (size_t)offset);
  *len = nl ? (size_t)(nl - at) : size - (size_t)offset;
  return at;
}

int cuemu__undeclared_device_only(const char *log, size_t size,
                                  const char *device_ii, size_t device_size,
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
          !cuemu__error_place(line, len, &file, &file_len, &at, &column))
        return 0;
      /* A module of nvcc's (-cubin, -ptx) has no host pass. */
      long host_at =
          host_ii ? cuemu__unit_line(host_ii, host_size, file, file_len, at)
                  : -1;
      if (host_at >= 0) {
        long device_at =
            cuemu__unit_line(device_ii, device_size, file, file_len, at);
        size_t host_len, device_len;
        const char *host_text = unit_text(host_ii, host_size, host_at, &host_len);
        const char *device_text =
            device_at >= 0
                ? unit_text(device_ii, device_size, device_at, &device_len)
                : NULL;
        if (!device_text || (host_len == device_len &&
                             memcmp(host_text, device_text, host_len) == 0))
          return 0;
      }
      errors++;
    }
    line += len + 1;
  }
  return errors > 0;
}
