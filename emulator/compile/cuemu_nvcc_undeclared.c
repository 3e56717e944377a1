/*
 * cuemu_nvcc_undeclared.c: warnings for the names that nvcc leaves
 * undeclared where cuemu's shims declare them (cuemu_nvcc_undeclared.h).
 *
 * cuemu's force-included cuda_runtime.h reads <cstdint> and <cstdio>,
 * which nvcc's does not (nvcc 13.0 with g++ 12 and glibc 2.36: `identifier
 * "uint32_t" is undefined`, `identifier "printf" is undefined`). The shims
 * need them and cannot hide them without breaking a later #include of
 * them, so cuemu-nvcc warns where nvcc would refuse, as DESIGN.md asks.
 */
#define _GNU_SOURCE
#include "cuemu_nvcc_undeclared.h"

#include <stdlib.h>
#include <string.h>

#include "cuemu_driver.h"
#include "cuemu_lexer.h"
#include "cuemu_line_markers.h"

/* A name that nvcc refuses without its header, and where it was first
 * used. The printf of the shims is a macro: the unit names
 * cuemu_printf_at where the user wrote printf. */
struct refused_name {
  const char *spelling; /* in the preprocessed unit */
  const char *name;     /* in the user's source */
  int stdio;            /* 1: <cstdio>'s, 0: <cstdint>'s */
};

static const struct refused_name refused[] = {{"uint8_t", "uint8_t", 0},
                                              {"uint16_t", "uint16_t", 0},
                                              {"uint32_t", "uint32_t", 0},
                                              {"uint64_t", "uint64_t", 0},
                                              {"uintptr_t", "uintptr_t", 0},
                                              {"intptr_t", "intptr_t", 0},
                                              {"uintmax_t", "uintmax_t", 0},
                                              {"intmax_t", "intmax_t", 0},
                                              {"int_least8_t", "int_least8_t", 0},
                                              {"int_least16_t", "int_least16_t", 0},
                                              {"int_least32_t", "int_least32_t", 0},
                                              {"int_least64_t", "int_least64_t", 0},
                                              {"uint_least8_t", "uint_least8_t", 0},
                                              {"uint_least16_t", "uint_least16_t", 0},
                                              {"uint_least32_t", "uint_least32_t", 0},
                                              {"uint_least64_t", "uint_least64_t", 0},
                                              {"int_fast8_t", "int_fast8_t", 0},
                                              {"int_fast16_t", "int_fast16_t", 0},
                                              {"int_fast32_t", "int_fast32_t", 0},
                                              {"int_fast64_t", "int_fast64_t", 0},
                                              {"uint_fast8_t", "uint_fast8_t", 0},
                                              {"uint_fast16_t", "uint_fast16_t", 0},
                                              {"uint_fast32_t", "uint_fast32_t", 0},
                                              {"uint_fast64_t", "uint_fast64_t", 0},
                                              {"cuemu_printf_at", "printf", 1},
                                              {"fprintf", "fprintf", 1},
                                              {"sprintf", "sprintf", 1},
                                              {"snprintf", "snprintf", 1},
                                              {"puts", "puts", 1},
                                              {"fputs", "fputs", 1},
                                              {"putchar", "putchar", 1},
                                              {"fflush", "fflush", 1},
                                              {"fopen", "fopen", 1},
                                              {"fclose", "fclose", 1},
                                              {"FILE", "FILE", 1},
                                              {"stderr", "stderr", 1},
                                              {"stdout", "stdout", 1},
                                              {"perror", "perror", 1},
                                              {"va_list", "va_list", 1},
                                              {"sscanf", "sscanf", 1},
                                              {"scanf", "scanf", 1},
                                              {"fscanf", "fscanf", 1},
                                              {"fgets", "fgets", 1},
                                              {"fread", "fread", 1},
                                              {"fwrite", "fwrite", 1},
                                              {"fseek", "fseek", 1},
                                              {"ftell", "ftell", 1},
                                              {"fputc", "fputc", 1},
                                              {"putc", "putc", 1},
                                              {"getchar", "getchar", 1},
                                              {"vprintf", "vprintf", 1},
                                              {"vfprintf", "vfprintf", 1},
                                              {"vsnprintf", "vsnprintf", 1}};
enum { NREFUSED = sizeof refused / sizeof refused[0], PRINTF = 24 };

/* Headers whose names nvcc 13.0 leaves undeclared or declares, with g++ 12
 * and glibc 2.36 (probes with `nvcc -c` of `#include <H>`, cuda_runtime.h,
 * then a use of uint64_t, or of printf): whether each brings <cstdint>'s
 * types and <cstdio>'s names. A header that is not listed may bring both;
 * it gets no warning. */
static const struct {
  const char *name;
  int types, stdio;
} headers[] = {
    /* CUDA's: cuda.h brings <stdint.h> (its cuuint32_t). */
    {"cuda_runtime.h", 0, 0}, {"cuda_runtime_api.h", 0, 0},
    {"cuda_fp16.h", 0, 0}, {"cuda_bf16.h", 0, 0}, {"mma.h", 0, 0},
    {"device_launch_parameters.h", 0, 0}, {"cuComplex.h", 0, 0},
    {"curand.h", 0, 0}, {"curand_kernel.h", 0, 0},
    /* The headers that curand_kernel.h includes itself: each brings at
     * most what curand_kernel.h brings (probes with nvcc 13.0 of
     * curand_normal.h, curand_uniform.h, curand_philox4x32_x.h and
     * curand_globals.h after it: neither kind). */
    {"curand_discrete.h", 0, 0}, {"curand_discrete2.h", 0, 0},
    {"curand_globals.h", 0, 0}, {"curand_lognormal.h", 0, 0},
    {"curand_mrg32k3a.h", 0, 0}, {"curand_mtgp32.h", 0, 0},
    {"curand_mtgp32_kernel.h", 0, 0}, {"curand_normal.h", 0, 0},
    {"curand_normal_static.h", 0, 0}, {"curand_philox4x32_x.h", 0, 0},
    {"curand_poisson.h", 0, 0}, {"curand_precalc.h", 0, 0},
    {"curand_uniform.h", 0, 0},
    {"math_constants.h", 0, 0}, {"vector_types.h", 0, 0},
    {"cuda_profiler_api.h", 0, 0}, {"cufft.h", 0, 0},
    {"device_functions.h", 0, 0}, {"cuda.h", 1, 0},
    /* The C and C++ libraries'. */
    {"algorithm", 0, 0}, {"array", 0, 0}, {"cassert", 0, 0},
    {"assert.h", 0, 0}, {"cfloat", 0, 0}, {"climits", 0, 0},
    {"cmath", 0, 0}, {"math.h", 0, 0}, {"cstddef", 0, 0},
    {"stddef.h", 0, 0}, {"cstdlib", 0, 0}, {"stdlib.h", 0, 0},
    {"cstring", 0, 0}, {"string.h", 0, 0}, {"ctime", 0, 0},
    {"time.h", 0, 0}, {"functional", 0, 0}, {"limits", 0, 0},
    {"map", 0, 0}, {"numeric", 0, 0}, {"set", 0, 0}, {"tuple", 0, 0},
    {"type_traits", 0, 0}, {"unordered_map", 0, 0}, {"utility", 0, 0},
    {"vector", 0, 0}, {"cstdio", 0, 1}, {"stdio.h", 0, 1},
    {"atomic", 1, 0}, {"chrono", 1, 0}, {"memory", 1, 0},
    {"thread", 1, 0},
};
enum { NHEADERS = sizeof headers / sizeof headers[0] };

/* The user's files that the unit reads (their names as the line markers
 * give them), up to a bound; more make the scan give up. */
enum { MAX_FILES = 64 };
typedef struct user_files {
  char *names[MAX_FILES];
  int count, overflow;
} user_files;

/* Whether the `n` bytes of `name` are one of the `count` names of `set`. */
static int in_set(char *const *set, int count, const char *name, size_t n) {
  for (int i = 0; i < count; ++i)
    if (strlen(set[i]) == n && memcmp(set[i], name, n) == 0)
      return 1;
  return 0;
}

static void add_file(user_files *u, const char *name, size_t n) {
  if (in_set(u->names, u->count, name, n))
    return;
  if (u->count == MAX_FILES) {
    u->overflow = 1;
    return;
  }
  u->names[u->count] = strndup(name, n);
  if (u->names[u->count])
    u->count++;
  else
    u->overflow = 1;
}

/* The index in `u` of the user's file that `#include` names with the `n`
 * bytes of `name` (the whole name or its last components), or -1. */
static int user_file(const user_files *u, const char *name, size_t n) {
  for (int i = 0; i < u->count; ++i) {
    const size_t len = strlen(u->names[i]);
    if (len >= n && memcmp(u->names[i] + len - n, name, n) == 0 &&
        (len == n || u->names[i][len - n - 1] == '/'))
      return i;
  }
  return -1;
}

/* Whether the header `name` (between <> or ""), not a user's file, is
 * one of the table's that leaves nvcc's names of `stdio`'s kind
 * undeclared. */
static int header_brings_nothing(const char *name, size_t n, int stdio) {
  for (int i = 0; i < NHEADERS; ++i)
    if (strlen(headers[i].name) == n && memcmp(name, headers[i].name, n) == 0)
      return !(stdio ? headers[i].stdio : headers[i].types);
  return 0;
}

/* A walk of the user's files in the order nvcc reads them, each once (as
 * include guards make it), looking for the first use of a name of
 * `stdio`'s kind at line `line` of the user's file `use`. */
typedef struct include_walk {
  const user_files *u;
  int stdio, use, line;
  char visited[MAX_FILES];
} include_walk;

enum { WALK_ON, WALK_USE_FIRST, WALK_DECLARED };

/* Reads the user's file `f` from its start: WALK_USE_FIRST when the use
 * comes before any #include that may declare the names (nvcc refuses the
 * unit then, whatever it includes later: a public queue's header called
 * printf in a template before kernel.cu included <stdio.h>),
 * WALK_DECLARED when such an #include comes first (or one that is not
 * known: a macro's, a file that cannot be read), WALK_ON when the file
 * ends with neither. */
static int walk_file(include_walk *w, int f) {
  if (w->visited[f])
    return WALK_ON;
  w->visited[f] = 1;
  size_t size = 0;
  char *text = cuemu__read_file(w->u->names[f], &size);
  if (!text)
    return WALK_DECLARED;
  int result = WALK_ON, line = 1;
  /* The first line starts after a byte-order mark, as nvcc reads it. */
  for (size_t k = cuemu__byte_order_mark_length(text, size);
       k < size && result == WALK_ON; ++k, ++line) {
    const char *eol = memchr(text + k, '\n', size - k);
    const size_t end = eol ? (size_t)(eol - text) : size;
    if (f == w->use && line >= w->line) {
      result = WALK_USE_FIRST;
      break;
    }
    size_t p = k;
    while (p < end && (text[p] == ' ' || text[p] == '\t'))
      p++;
    if (p < end && text[p] == '#') {
      p++;
      while (p < end && (text[p] == ' ' || text[p] == '\t'))
        p++;
      if (end - p >= 7 && memcmp(text + p, "include", 7) == 0) {
        p += 7;
        while (p < end && (text[p] == ' ' || text[p] == '\t'))
          p++;
        const char close = p < end && text[p] == '<' ? '>' : '"';
        const char *start = text + p + 1;
        const char *stop =
            p < end && (text[p] == '<' || text[p] == '"')
                ? memchr(start, close, end - p - 1)
                : NULL;
        if (!stop) {
          result = WALK_DECLARED; /* a macro's include: not known */
        } else {
          const size_t n = (size_t)(stop - start);
          const int g = user_file(w->u, start, n);
          if (g >= 0)
            result = walk_file(w, g);
          else if (!header_brings_nothing(start, n, w->stdio))
            result = WALK_DECLARED;
        }
      }
    }
    k = end;
  }
  free(text);
  return result;
}

/* Whether nvcc meets the first use of a name of `stdio`'s kind, at line
 * `line` of the user's file `file`, before any #include that may declare
 * it: the main file (the first of the user's files) and the user's
 * headers read in order from their #include lines. */
static int used_before_declared(const user_files *u, const char *file,
                                int line, int stdio) {
  if (u->count == 0 || u->overflow)
    return 0;
  include_walk w;
  memset(&w, 0, sizeof w);
  w.u = u;
  w.stdio = stdio;
  w.line = line;
  w.use = user_file(u, file, strlen(file));
  if (w.use < 0)
    return 0;
  return walk_file(&w, 0) == WALK_USE_FIRST;
}

/* Whether the identifier at [at, end) of the line [line, line + n) is the
 * name that the user's own declaration declares: `typedef unsigned char
 * uint8_t;` or `using uint8_t = unsigned char;` (a colour-conversion
 * library's, which includes neither <cstdint> nor <stdint.h>). nvcc
 * accepts every later use, so the name gets no warning. */
static int own_declaration(const char *line, size_t n, size_t at,
                           size_t end) {
  size_t after = end;
  while (after < n && (line[after] == ' ' || line[after] == '\t'))
    after++;
  size_t start = 0;
  while (start < at && (line[start] == ' ' || line[start] == '\t'))
    start++;
  if (after < n && line[after] == ';' && at - start > 8 &&
      memcmp(line + start, "typedef", 7) == 0 &&
      !cuemu__ident_char(line[start + 7]))
    return 1;
  size_t before = at;
  while (before > 0 && (line[before - 1] == ' ' || line[before - 1] == '\t'))
    before--;
  return after < n && line[after] == '=' && before >= 5 &&
         memcmp(line + before - 5, "using", 5) == 0 &&
         (before == 5 || !cuemu__ident_char(line[before - 6]));
}

int cuemu__warn_nvcc_undeclared(const char *text, size_t size,
                                const char *const *skip, int nskip) {
  user_files u;
  memset(&u, 0, sizeof u);
  int first_line[NREFUSED];
  char *first_file[NREFUSED];
  memset(first_line, 0, sizeof first_line);
  memset(first_file, 0, sizeof first_file);
  const char *file = NULL;
  size_t file_len = 0;
  /* A user's file in a system header's part: the expansion of a macro of
   * a system header (the shims' printf), where only that name counts. */
  int user = 1, system = 0, line = 1, found = 0;
  cuemu_marker_reader reader = {.skip = skip, .nskip = nskip};
  for (size_t i = 0; i < size;) {
    const char *eol = memchr(text + i, '\n', size - i);
    const size_t n = eol ? (size_t)(eol - (text + i)) : size - i;
    cuemu_user_marker m;
    if (cuemu__read_user_marker(&reader, text + i, n, &m)) {
      line = m.line;
      file = m.file;
      file_len = m.file_len;
      user = m.user;
      system = m.system;
      if (user && !system)
        add_file(&u, file, file_len);
    } else {
      if (user && file) {
        for (size_t k = i; k < i + n; ++k) {
          if (!cuemu__ident_char(text[k]) ||
              (k > 0 && cuemu__ident_char(text[k - 1])))
            continue;
          size_t end = k;
          while (end < i + n && cuemu__ident_char(text[end]))
            end++;
          for (int r = 0; r < NREFUSED; ++r)
            if (!first_line[r] && (!system || r == PRINTF) &&
                strlen(refused[r].spelling) == end - k &&
                memcmp(text + k, refused[r].spelling, end - k) == 0) {
              if (own_declaration(text + i, n, k - i, end - i)) {
                first_line[r] = -1; /* the user's own: never warned */
                continue;
              }
              first_line[r] = line;
              first_file[r] = strndup(file, file_len);
              found = 1;
            }
          k = end - 1;
        }
      }
      line++;
    }
    i += n + 1;
  }
  int warnings = 0;
  for (int r = 0; r < NREFUSED; ++r) {
    if (found && first_line[r] > 0 && first_file[r] &&
        used_before_declared(&u, first_file[r], first_line[r],
                             refused[r].stdio)) {
      cuemu__driver_say("warning",
                        "%s:%d: \"%s\" is used without %s, which nvcc "
                        "refuses (identifier \"%s\" is undefined): include "
                        "it",
                        first_file[r], first_line[r], refused[r].name,
                        refused[r].stdio ? "<cstdio>" : "<cstdint>",
                        refused[r].name);
      warnings++;
    }
    free(first_file[r]);
  }
  for (int k = 0; k < u.count; ++k)
    free(u.names[k]);
  cuemu__marker_reader_free(&reader);
  return warnings;
}
