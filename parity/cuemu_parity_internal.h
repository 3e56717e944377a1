/*
 * cuemu_parity_internal.h: what the parts of the parity runner share.
 *
 * A case (struct cuemu_parity_case) holds what its file or the C API said,
 * as text. Running it resolves types, evaluates expressions and builds the
 * arguments (a cuemu__parity_setup), then runs the legs on copies of them.
 */
#ifndef CUEMU_PARITY_INTERNAL_H
#define CUEMU_PARITY_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <ffi.h>

#include <cuemu/cuemu.h>
#include <cuemu/parity.h>

#include "cuemu_parity_text.h"

/* ---- Values as written in a case ----------------------------------------- */

typedef enum cuemu__pvalue_kind {
  CUEMU__PV_TEXT, /* a number, a boolean or an expression */
  CUEMU__PV_SEQ,  /* [a, b, ...] */
  CUEMU__PV_MAP   /* {key: value, ...} */
} cuemu__pvalue_kind;

typedef struct cuemu__pvalue {
  cuemu__pvalue_kind kind;
  char *text;                  /* CUEMU__PV_TEXT */
  int n;                       /* items of a sequence or a mapping */
  char **keys;                 /* CUEMU__PV_MAP */
  struct cuemu__pvalue *items;
  int line;                    /* in the case file; 0 when unknown */
} cuemu__pvalue;

void cuemu__pvalue_free(cuemu__pvalue *v);
/* Parses YAML flow text ("2.5", "[1, 2]", "{a: 1}") into *out. */
int cuemu__pvalue_parse(const char *text, cuemu__pvalue *out, char *err,
                        size_t errsize);

/* ---- Element types ----------------------------------------------------------- */

typedef enum cuemu__pscalar_kind {
  CUEMU__PS_BOOL,
  CUEMU__PS_INT,   /* signed integers */
  CUEMU__PS_UINT,  /* unsigned integers */
  CUEMU__PS_FLOAT, /* float and double */
  CUEMU__PS_HALF,  /* __half, as its 16 bits */
  CUEMU__PS_BF16   /* __nv_bfloat16, as its 16 bits */
} cuemu__pscalar_kind;

typedef struct cuemu__pfield {
  const char *name;            /* "" for a plain scalar */
  cuemu__pscalar_kind kind;
  size_t size;
  size_t offset;
} cuemu__pfield;

/* A scalar, vector, complex or declared struct type. */
typedef struct cuemu__ptype {
  char name[64];
  size_t size, align;
  int nfields;
  cuemu__pfield fields[16];
  int is_struct;               /* declared in the case */
  ffi_type *ffi;               /* how the host function takes it */
  ffi_type ffi_struct;
  ffi_type *ffi_elements[17];
} cuemu__ptype;

/* Resolves a type name (no pointer) among the built-in types and the
 * case's declared structs. Returns 0, or -1 with a message in err. */
int cuemu__ptype_resolve(const cuemu_parity_case *c, const char *name,
                         cuemu__ptype *out, char *err, size_t errsize);
/* Splits "const float *" into the element type "float" and returns how
 * many pointers deep the type is: 0 for a scalar type, 1 for a pointer. */
int cuemu__ptype_split(const char *text, char *elem, size_t size);
/* Whether two spellings of a type mean the same type (spaces, "struct",
 * top-level const, __restrict__ and typedef names such as uint32_t ignored). */
int cuemu__ptype_same(const cuemu_parity_case *c, const char *a, const char *b);

/* Reads and writes one scalar field of an element as a double. */
double cuemu__pfield_get(const cuemu__pfield *f, const void *elem);
void cuemu__pfield_set(const cuemu__pfield *f, void *elem, double v);

/* ---- Cases ---------------------------------------------------------------- */

typedef struct cuemu__pstruct {
  char *name;
  int n;
  char **field_names;
  char **field_types;
} cuemu__pstruct;

typedef struct cuemu__parg {
  char *name;
  char *type;                  /* as written: "const float *" */
  int is_array;
  cuemu_parity_array_kind kind;
  cuemu__pvalue value;         /* scalars */
  char *size;                  /* arrays: an expression */
  cuemu_parity_generator gen;  /* inputs and in-out arrays */
  double fill;                 /* outputs */
  cuemu_parity_compare compare;
  char *shape[2];              /* outputs: rows and columns, or NULL */
  int line;
} cuemu__parg;

struct cuemu_parity_case {
  char *name;
  char *file;                  /* "" when built in code */
  int line;
  char *source, *kernel;
  char **options;
  int noptions;
  char *host_file, *host_function;
  char *grid[3], *threads[3], *block[3], *shared;
  int use_threads, cooperative;
  int launch_line;             /* where `launch` is in the case file */
  uint64_t seed;
  cuemu__pstruct *structs;
  int nstructs;
  cuemu__parg *args;
  int nargs;
  char *module;                /* a module built with other cases' kernels
                                  (cuemu__parity_combine), or NULL */
};

/* Writes a line to `out` for each case whose name an earlier case of
 * `cases` has, naming both places (file and line), and returns how many. */
int cuemu__parity_duplicates(cuemu_parity_case *const *cases, int n,
                             cuemu__ptext *out);

/* Sets the thread's last message (printf-style) and returns `status`. */
cuemu_status cuemu__parity_fail(cuemu_status status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
char *cuemu__parity_strdup(const char *s);

/* ---- Expressions ------------------------------------------------------------ */

/* Looks a name up; returns 0 with *value set, or -1 with a message. */
typedef int (*cuemu__plookup)(void *ctx, const char *name, int64_t *value,
                              char *err, size_t errsize);

/* Parses a whole text as a number: decimal or hexadecimal, and nan, inf,
 * -inf (also YAML's .nan, .inf, -.inf). Returns 0 or -1. */
int cuemu__parity_number(const char *text, double *out);

/* Evaluates an integer expression: integers, names, + - * / %, parentheses,
 * min(a, b), max(a, b), ceil_div(a, b). Returns 0, or -1 with a message. */
int cuemu__parity_eval(const char *expr, cuemu__plookup lookup, void *ctx,
                       int64_t *out, char *err, size_t errsize);

/* ---- A case made ready to run ---------------------------------------------- */

typedef struct cuemu__psetup {
  const cuemu_parity_case *c;
  cuemu__ptype *types;         /* per argument: the element type */
  unsigned char **scalars;     /* per scalar argument: its bytes */
  size_t *count;               /* per array: elements */
  size_t *bytes;               /* per array: bytes */
  size_t *rows, *cols;         /* per array: its shape (rows 1 in 1-D) */
  unsigned char **init;        /* per array: its initial contents */
  cuemu_dim3 grid, block;
  size_t shared;
} cuemu__psetup;

/* Resolves types, evaluates expressions and generates the arrays. Returns
 * SUCCESS or CASE_INVALID with a message naming the file and the field. */
cuemu_status cuemu__psetup_build(const cuemu_parity_case *c,
                                 cuemu__psetup *s);
void cuemu__psetup_free(cuemu__psetup *s);

/* Whether a generator can be used: finite bounds, a non-empty range
 * (integers: whole bounds at most 2^62 apart), a standard deviation that is
 * not negative, a list for VALUES. Returns 0, or -1 with the reason. */
int cuemu__parity_generator_check(const cuemu_parity_generator *g, char *why,
                                  size_t size);

/* Fills `count` elements of `type` at `out` as the generator says, from a
 * stream seeded by (seed, stream). */
void cuemu__parity_generate(const cuemu_parity_generator *gen,
                            const cuemu__ptype *type, void *out, size_t count,
                            uint64_t seed, uint64_t stream);

/* ---- Buffers the kernel writes into ------------------------------------- */

/* An array placed at a 256-byte boundary inside guard pages, with canary
 * bytes between its end and the next page, so that writes past either end
 * either fault or are found afterwards. */
typedef struct cuemu__pbuffer {
  unsigned char *data;
  size_t bytes;
  void *map;
  size_t map_size;
} cuemu__pbuffer;

int cuemu__pbuffer_alloc(cuemu__pbuffer *b, const void *init, size_t bytes);
/* Returns 1 when a canary byte around the array changed, with *offset its
 * position relative to data (negative: before the array); 0 when intact. */
int cuemu__pbuffer_damaged(const cuemu__pbuffer *b, long *offset);
/* Whether `addr` lies in the guard pages or the slack around the array. */
int cuemu__pbuffer_near(const cuemu__pbuffer *b, const void *addr);
void cuemu__pbuffer_free(cuemu__pbuffer *b);
/* Names, one line each in `out` ("WHO wrote out of bounds of array y:
 * byte offset 400 of an array of 400 bytes (100 elements)"), every array
 * of the case whose surroundings hold `addr`, or, when addr is NULL, whose
 * canary bytes changed. `bufs` has one entry per argument (scalars'
 * unused). Returns how many arrays were named. */
int cuemu__pbuffers_blame(const cuemu__psetup *s, const cuemu__pbuffer *bufs,
                          const void *addr, const char *who,
                          cuemu__ptext *out);

/* ---- Comparing ---------------------------------------------------------------- */

/* How many differing elements a comparison lists. */
#define CUEMU__PSHOWN 8

typedef struct cuemu__pdiff {
  size_t differing;            /* elements with at least one field off */
  double max_ulps, max_abs;
  char *report;                /* the first differences, one per line */
  int nshown;                  /* the first differences, as numbers */
  cuemu_parity_difference shown[CUEMU__PSHOWN];
} cuemu__pdiff;

/* Compares `got` with `want` (count elements of `type`) under `cmp`. The
 * report names `what` and each index with both values (the reference one
 * labelled `ref`, e.g. "host") and the error in ulps. Returns 0 when they
 * agree. Free the report with free(). */
int cuemu__parity_compare(const char *what, const char *ref,
                          const cuemu__ptype *type,
                          const cuemu_parity_compare *cmp, const void *got,
                          const void *want, size_t count, cuemu__pdiff *d);
/* Whether a comparison can be used (tolerances finite and not negative,
 * ulps not negative). Returns 0, or -1 with the reason. */
int cuemu__parity_compare_check(const cuemu_parity_compare *cmp, char *why,
                                size_t size);

/* Fills `map` (map_rows * map_cols cells, row by row) with the largest
 * error in ulps (cuemu__parity_ulps(), the largest over the fields) of the
 * elements of a rows x cols output that fall in each cell, and `fails`
 * with how many of them do not agree under `cmp`; a cell covers about
 * rows / map_rows by cols / map_cols elements. */
void cuemu__parity_error_map(const cuemu__ptype *type,
                             const cuemu_parity_compare *cmp, const void *got,
                             const void *want, size_t rows, size_t cols,
                             int map_rows, int map_cols, double *map,
                             int *fails);

/* Distance in units in the last place between two values of a field. */
double cuemu__parity_ulps(const cuemu__pfield *f, const void *a,
                          const void *b);

/* ---- Legs ------------------------------------------------------------------ */

/* Compiles and calls the host implementation on `args` (one pointer per
 * argument: to the scalar's bytes or to the array's pointer); the arrays
 * live in `bufs` (one per argument). A write out of bounds of an array
 * (a fault in its guard region, or a changed canary byte) fails the leg
 * with a message naming the array and the offset. Returns SUCCESS,
 * HOST_COMPILE or CASE_INVALID (a bad case or host implementation) with a
 * message. */
cuemu_status cuemu__parity_host_run(const cuemu__psetup *s, void **args,
                                    const cuemu__pbuffer *bufs);

/* Compiles the kernel (with `checks` built in, or NULL) into a temporary
 * module whose path goes to `path`, loads it, and checks its parameter
 * descriptor against the case. On success the caller unloads the module,
 * then removes the file (kept until then, so that fault reports can name
 * source lines). */
cuemu_status cuemu__parity_emu_load(const cuemu__psetup *s,
                                    const char *checks, cuemu_module **module,
                                    cuemu_kernel **kernel, char *path,
                                    size_t size);

/* Compiles `source` into the module `out` with the case options `options`
 * and -g, exporting the template instances `names`, with `checks` built in
 * (or NULL). On failure *log_tail holds the end of the compiler's messages
 * (free it), or NULL. */
cuemu_status cuemu__parity_emu_compile(const char *source,
                                       char *const *options, int noptions,
                                       const char *const *names, int nnames,
                                       const char *checks, const char *out,
                                       char **log_tail);

/* Builds the kernels of `cases` that have the same options as one module
 * a group (cuemu-parity --one-module), in the folder `tmp`, with `checks`
 * built in (or NULL), and sets each such case's `module`; a case whose
 * sources do not compile together keeps none and compiles alone, as
 * without the option, so that its report is its own. Says on stderr what it
 * built. Returns the files it made (a NULL-terminated list, each to be
 * removed and freed, then the list freed), or NULL. */
char **cuemu__parity_combine(cuemu_parity_case **cases, int n,
                             const char *checks, const char *tmp);

#endif /* CUEMU_PARITY_INTERNAL_H */
