/*
 * cuemu_nvrtc_headers.c: how a program's headers and its missing includes
 * meet the host compiler that cuemu's NVRTC runs.
 *
 * NVRTC has no C or C++ library of its own, and so libraries that JIT
 * kernels give it theirs: jitify passes its own stdint.h, limits.h, math.h,
 * stdio.h, time.h, ... with every program, and loads a header the compile
 * cannot find when NVRTC's log names it ("cannot open source file").
 * cuemu compiles the program as host C++, with the host's library under
 * cuemu's CUDA headers, so a program's header named as one of the host's
 * that those include is found by #include "name" only (the log says so),
 * and any other header of the program by both forms, as in NVRTC; and a
 * missing include is logged in NVRTC's words.
 */
#include <stdio.h>
#include <string.h>

#include "runtime/cuemu_nvrtc_internal.h"

/* The headers that cuemu's CUDA headers include from the host's library,
 * directly or through it, before the program's text: the C library (and
 * its C++ forms, and the C library's memory.h, which jitify passes too)
 * and the C++ headers of the language's support. A program's header of
 * such a name cannot replace the host's: the host's is in already, and a
 * JIT library's stand-in for it (jitify's stdint.h declares int32_t in a
 * namespace of its own and brings it in with a using-directive) would
 * clash with it. Other standard names (vector, complex, map, ...) are the
 * program's, as in NVRTC, which has no library of its own. */
static const char *const host_headers[] = {
    "assert.h", "complex.h", "ctype.h", "errno.h", "fenv.h", "float.h",
    "inttypes.h", "iso646.h", "limits.h", "locale.h", "math.h", "memory.h",
    "setjmp.h", "signal.h", "stdalign.h", "stdarg.h", "stdatomic.h",
    "stdbool.h", "stddef.h", "stdint.h", "stdio.h", "stdlib.h",
    "stdnoreturn.h", "string.h", "tgmath.h", "threads.h", "time.h",
    "uchar.h", "wchar.h", "wctype.h", "cassert", "cctype", "cerrno", "cfenv",
    "cfloat", "cinttypes", "climits", "clocale", "cmath", "csetjmp",
    "csignal", "cstdarg", "cstddef", "cstdint", "cstdio", "cstdlib",
    "cstring", "ctime", "cuchar", "cwchar", "cwctype", "bit", "compare",
    "concepts", "exception", "initializer_list", "iosfwd", "limits", "new",
    "string", "string_view", "tuple", "type_traits", "typeinfo", "utility",
    "version"};

int cuemu__nvrtc_host_header(const char *name) {
  for (size_t i = 0; i < sizeof host_headers / sizeof *host_headers; ++i)
    if (strcmp(name, host_headers[i]) == 0)
      return 1;
  return 0;
}

/* Finds in `line` (len characters, no newline) the host compiler's message
 * for an include it cannot find: GCC's "FILE:LINE:COL: fatal error: NAME:
 * No such file or directory" or Clang's "FILE:LINE:COL: fatal error: 'NAME'
 * file not found". Sets the file's length, its line and the name's start
 * and length; returns 1, or 0 for any other line. */
static int missing_include(const char *line, size_t len, size_t *file_len,
                           long *line_no, const char **name,
                           size_t *name_len) {
  static const char fatal[] = ": fatal error: ";
  static const char gcc_tail[] = ": No such file or directory";
  static const char clang_tail[] = "' file not found";
  char text[4096];
  if (len >= sizeof text)
    return 0;
  memcpy(text, line, len);
  text[len] = '\0';
  char *f = strstr(text, fatal);
  if (!f)
    return 0;
  /* FILE:LINE:COL before it. */
  char *colon = f, *p = f;
  int colons = 0;
  while (p > text && colons < 2) {
    --p;
    if (*p == ':') {
      colons++;
      colon = p;
    } else if (*p < '0' || *p > '9') {
      return 0;
    }
  }
  if (colons < 2 || colon == text)
    return 0;
  long n = 0;
  if (sscanf(colon + 1, "%ld", &n) != 1)
    return 0;
  const char *start = f + sizeof fatal - 1;
  size_t rest = len - (size_t)(start - text);
  size_t gt = sizeof gcc_tail - 1, ct = sizeof clang_tail - 1;
  if (rest > gt && strcmp(text + len - gt, gcc_tail) == 0) {
    *name = line + (start - text);
    *name_len = rest - gt;
  } else if (rest > ct + 1 && *start == '\'' &&
             strcmp(text + len - ct, clang_tail) == 0) {
    *name = line + (start - text) + 1;
    *name_len = rest - ct - 1;
  } else {
    return 0;
  }
  *file_len = (size_t)(colon - text);
  *line_no = n;
  return 1;
}

int cuemu__nvrtc_log_line(cuemu_nvrtc_text *log, const char *line,
                          size_t len) {
  size_t file_len = 0, name_len = 0;
  long line_no = 0;
  const char *name = NULL;
  if (missing_include(line, len, &file_len, &line_no, &name, &name_len))
    /* NVRTC's words, which programs read the header's name from. */
    return cuemu__nvrtc_text_add(
        log, "%.*s(%ld): catastrophic error: cannot open source file \"%.*s\"\n",
        (int)file_len, line, line_no, (int)name_len, name);
  return cuemu__nvrtc_text_add(log, "%.*s\n", (int)len, line);
}
