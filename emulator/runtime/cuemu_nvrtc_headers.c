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

int cuemu__nvrtc_missing_header(const char *message, size_t len,
                                const char **name, size_t *name_len) {
  static const char gcc_tail[] = ": No such file or directory";
  static const char clang_tail[] = "' file not found";
  size_t gt = sizeof gcc_tail - 1, ct = sizeof clang_tail - 1;
  if (len > gt && strncmp(message + len - gt, gcc_tail, gt) == 0) {
    *name = message;
    *name_len = len - gt;
    return 1;
  }
  if (len > ct + 1 && message[0] == '\'' &&
      strncmp(message + len - ct, clang_tail, ct) == 0) {
    *name = message + 1;
    *name_len = len - ct - 1;
    return 1;
  }
  return 0;
}
