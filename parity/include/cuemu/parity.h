/*
 * parity.h: parity cases in C, for users' Check suites and for cuemu-parity.
 *
 * A parity case names a CUDA kernel, its launch shape, how to build its
 * arguments and its host implementation (a C function with the kernel's
 * parameter list), and how each output is compared. Running it runs the
 * host leg, the emulated leg (once per schedule), the NVRTC compile leg and,
 * when a CUDA device is present, the GPU leg, and compares every output of
 * the emulated and GPU legs against the host's. The file format that
 * builds the same cases is described in parity/README.md.
 *
 * Strings passed in are copied. Every function that can fail returns a
 * cuemu_status; the message of the last failure of the calling OS thread is
 * cuemu_parity_last_message(). Host code only.
 */
#ifndef CUEMU_PARITY_H
#define CUEMU_PARITY_H

#include <stddef.h>
#include <stdint.h>

#include <cuemu/cuemu_status.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cuemu_parity_case cuemu_parity_case;

/* What an array argument is for. */
typedef enum cuemu_parity_array_kind {
  CUEMU_PARITY_INPUT,  /* filled by a generator, not compared */
  CUEMU_PARITY_OUTPUT, /* filled with a constant, compared */
  CUEMU_PARITY_INOUT   /* filled by a generator, compared */
} cuemu_parity_array_kind;

/* How an array is filled. */
typedef enum cuemu_parity_generator_kind {
  CUEMU_PARITY_UNIFORM,     /* a in [lo, hi): a = lo, b = hi */
  CUEMU_PARITY_NORMAL,      /* a = mean, b = standard deviation */
  CUEMU_PARITY_INTEGERS,    /* integers in [a, b) */
  CUEMU_PARITY_CONSTANT,    /* a */
  CUEMU_PARITY_ARANGE,      /* a + i * b */
  CUEMU_PARITY_PERMUTATION, /* a random permutation of 0 .. size-1 */
  CUEMU_PARITY_VALUES       /* values[i % nvalues] */
} cuemu_parity_generator_kind;

typedef struct cuemu_parity_generator {
  cuemu_parity_generator_kind kind;
  double a, b;
  const double *values; /* CUEMU_PARITY_VALUES only; copied */
  size_t nvalues;
} cuemu_parity_generator;

/* How an output is compared with the host's. */
typedef enum cuemu_parity_compare_kind {
  CUEMU_PARITY_DEFAULT,   /* exact for integers, rtol 1e-5 / atol 1e-8 else */
  CUEMU_PARITY_EXACT,     /* bit for bit, NaNs too unless nan_equal is 1 */
  CUEMU_PARITY_ULPS,      /* at most `ulps` units in the last place */
  CUEMU_PARITY_TOLERANCE  /* |x - host| <= atol + rtol * |host| */
} cuemu_parity_compare_kind;

/* Under CUEMU_PARITY_ULPS and CUEMU_PARITY_TOLERANCE (and the default for
 * floating-point elements) any NaN matches any NaN. Under
 * CUEMU_PARITY_EXACT a NaN matches only a NaN with the same bits, unless
 * nan_equal is 1: then any NaN matches any NaN and every other value is
 * still compared bit for bit. nan_equal is 0 or 1, and 1 only with
 * CUEMU_PARITY_EXACT (cuemu_parity_case_add_array() refuses anything
 * else with INVALID_VALUE). */
typedef struct cuemu_parity_compare {
  cuemu_parity_compare_kind kind;
  double rtol, atol;
  long long ulps;
  int nan_equal;
} cuemu_parity_compare;

/* ---- Building a case ------------------------------------------------------ */

/* A new, empty case called `name`. Returns INVALID_VALUE or OUT_OF_MEMORY. */
cuemu_status cuemu_parity_case_new(cuemu_parity_case **out, const char *name);
void cuemu_parity_case_free(cuemu_parity_case *c);

/* The CUDA source and the kernel in it: a name or a template instantiation
 * such as "scale<float, 3>". */
cuemu_status cuemu_parity_case_set_kernel(cuemu_parity_case *c,
                                          const char *source,
                                          const char *kernel);
/* A -D, -I or -U option for both cuemu-cc and NVRTC (repeatable). */
cuemu_status cuemu_parity_case_add_option(cuemu_parity_case *c,
                                          const char *option);
/* The host implementation: a C file and the function in it (NULL: the
 * kernel's name before any '<'). */
cuemu_status cuemu_parity_case_set_host(cuemu_parity_case *c, const char *file,
                                        const char *function);

/* The launch shape. Each of x, y, z is an expression (NULL: "1"). Either
 * the grid or the thread count is given; with threads, the grid is
 * ceil(threads / block) per dimension. `shared` is the dynamic shared
 * memory (NULL: "0"). */
cuemu_status cuemu_parity_case_set_grid(cuemu_parity_case *c, const char *x,
                                        const char *y, const char *z);
cuemu_status cuemu_parity_case_set_threads(cuemu_parity_case *c,
                                           const char *x, const char *y,
                                           const char *z);
cuemu_status cuemu_parity_case_set_block(cuemu_parity_case *c, const char *x,
                                         const char *y, const char *z);
cuemu_status cuemu_parity_case_set_shared(cuemu_parity_case *c,
                                          const char *bytes);
void cuemu_parity_case_set_cooperative(cuemu_parity_case *c, int cooperative);
void cuemu_parity_case_set_seed(cuemu_parity_case *c, uint64_t seed);

/* Declares a struct type, field by field (each field a scalar type name),
 * so that struct arguments and arrays of structs can be built and passed. */
cuemu_status cuemu_parity_case_add_struct(cuemu_parity_case *c,
                                          const char *name, int nfields,
                                          const char *const *field_names,
                                          const char *const *field_types);

/* Appends a scalar argument of C type `type`. `value` is written as in a
 * case file (YAML flow syntax): a number, true/false, an integer expression
 * of other scalar arguments ("n / 2"), "[re, im]" for complex and vector
 * types, "{field: value, ...}" for structs. */
cuemu_status cuemu_parity_case_add_scalar(cuemu_parity_case *c,
                                          const char *name, const char *type,
                                          const char *value);

/* Appends an array argument of pointer type `type` ("const float *") with
 * `size` elements (an expression). Inputs and in-out arrays need a
 * generator; outputs are filled with `fill`. Outputs and in-out arrays are
 * compared as `compare` says (NULL: CUEMU_PARITY_DEFAULT). */
cuemu_status cuemu_parity_case_add_array(cuemu_parity_case *c,
                                         const char *name, const char *type,
                                         cuemu_parity_array_kind kind,
                                         const char *size,
                                         const cuemu_parity_generator *gen,
                                         double fill,
                                         const cuemu_parity_compare *compare);

/* Gives output or in-out array `array` (added before) a 2-D shape: `rows`
 * by `cols` elements, row by row (each an expression; their product must
 * be the array's size). Reports draw such an output's errors as a heat
 * map. Returns INVALID_VALUE (no such array, an input) or OUT_OF_MEMORY. */
cuemu_status cuemu_parity_case_set_shape(cuemu_parity_case *c,
                                         const char *array, const char *rows,
                                         const char *cols);

/* The case's name, and where it was declared ("file.parity.yaml" or ""). */
const char *cuemu_parity_case_name(const cuemu_parity_case *c);
const char *cuemu_parity_case_file(const cuemu_parity_case *c);

/* ---- Case files -------------------------------------------------------------- */

/* Loads every case of a case file (one per YAML document). On success
 * *cases is an array of *ncases cases owned by the caller (free each with
 * cuemu_parity_case_free() and the array with free()). A file that does not
 * parse or a malformed case is CASE_INVALID, with a message naming the file,
 * the line and the field; IO_ERROR when it cannot be read. */
cuemu_status cuemu_parity_load(const char *path, cuemu_parity_case ***cases,
                               int *ncases);

/* ---- Running a case ------------------------------------------------------ */

/* The legs of a case, in the order they run. */
typedef enum cuemu_parity_leg {
  CUEMU_PARITY_LEG_HOST,
  CUEMU_PARITY_LEG_EMULATED,
  CUEMU_PARITY_LEG_NVRTC,
  CUEMU_PARITY_LEG_GPU,
  CUEMU_PARITY_LEG_SANITIZE,
  CUEMU_PARITY_LEGS
} cuemu_parity_leg;

typedef enum cuemu_parity_leg_state {
  CUEMU_PARITY_NOT_RUN,
  CUEMU_PARITY_PASS,
  CUEMU_PARITY_FAIL,
  CUEMU_PARITY_SKIP
} cuemu_parity_leg_state;

typedef struct cuemu_parity_options {
  const char *schedules; /* "forward,reverse,random:1"; NULL: "forward" */
  const char *checks;    /* checkers for the emulated leg; NULL: none */
  const char *sanitize;  /* compute-sanitizer tools for the GPU leg */
  int no_gpu;            /* 1: skip the NVRTC and GPU legs */
  int gpu_only;          /* 1: skip the emulated leg */
  int require_cuda;      /* 1: a missing device fails the GPU leg; also
                            when CUEMU_REQUIRE_CUDA=1 */
  const char *self;      /* the cuemu-parity executable, for sanitizer
                            re-runs; NULL: no re-runs */
  int trace;             /* 1: say on stderr when each leg starts */
} cuemu_parity_options;

/* One element (one field of it) that differs. */
typedef struct cuemu_parity_difference {
  size_t index;        /* the element, from 0, row by row in 2-D */
  char field[16];      /* the field of a vector or struct; "" for scalars */
  double got, want;    /* the leg's value and the reference's */
  double ulps;         /* their distance in ulps (integers: the difference) */
} cuemu_parity_difference;

/* How one output of one leg differs from its reference (the host's, or the
 * first schedule's for an order-dependent kernel), for reports. */
typedef struct cuemu_parity_diff {
  char leg[64];        /* "emulated (forward)", "gpu" */
  char output[64];     /* the array */
  char reference[64];  /* "host", or the schedule compared with */
  size_t rows, cols;   /* the shape (rows 1 for a 1-D output) */
  size_t differing;    /* elements that differ */
  double max_ulps;
  int nshown;          /* the first differences */
  cuemu_parity_difference shown[8];
  int map_rows, map_cols; /* the error map: the largest error in ulps of */
  double *map;         /* the elements in each cell, map_rows * map_cols
                          cells row by row (inf: NaN or inf against a
                          number); a cell covers about rows / map_rows by
                          cols / map_cols elements */
  int *fails;          /* per cell: its elements that fail the comparison
                          (an error within tolerance is drawn, but does
                          not fail) */
} cuemu_parity_diff;

typedef struct cuemu_parity_result {
  cuemu_status status; /* SUCCESS when every leg that ran passed */
  cuemu_parity_leg_state legs[CUEMU_PARITY_LEGS];
  double max_ulps;     /* the largest difference from the host, in ulps, */
  double max_abs;      /* and in absolute value, over every compared leg */
  double seconds;      /* wall time of the whole case */
  int compared;        /* 1 when some leg's outputs were compared */
  char *message;       /* what failed or was skipped, and why; "" if none */
  cuemu_parity_diff *diffs; /* each output that differed, in order */
  int ndiffs;
} cuemu_parity_result;

/* Runs every leg of the case. The result is filled even when the case
 * fails (its status is then CASE_INVALID, HOST_COMPILE, COMPILE, MISMATCH,
 * NVRTC, NO_DEVICE, CUDA_DRIVER or a launch status); the return value is
 * that status. Free the result with cuemu_parity_result_free(). The
 * emulated leg sets CUEMU_SCHEDULE and CUEMU_CHECK in the environment while
 * it runs, so do not run cases from several threads at once. */
cuemu_status cuemu_parity_case_run(cuemu_parity_case *c,
                                   const cuemu_parity_options *options,
                                   cuemu_parity_result *result);
void cuemu_parity_result_free(cuemu_parity_result *result);

const char *cuemu_parity_leg_name(cuemu_parity_leg leg);
const char *cuemu_parity_last_message(void);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_PARITY_H */
