/*
 * cuemu_rewrite.h: the source rewriter of cuemu-cc.
 *
 * cuemu__rewrite_source() turns the text of a user's .cu file into host C++
 * text and lists the __global__ functions it declares. Only what macros
 * cannot express is rewritten, always outside comments, literals and
 * preprocessor directives:
 *
 *   - `extern __shared__ T name[];` (any alignment attributes, cv-qualifiers,
 *     several declarators, `name[][33]`) becomes a thread-local pointer that
 *     aliases the per-block dynamic buffer:
 *     `extern __thread T *name __asm__("cuemu_dynamic_shared") CUEMU_TLS_IE;`
 *     (`T (*name)[33]` for a multi-dimensional array);
 *   - `callee<<<grid, block[, shmem[, stream]]>>>(args)` becomes
 *     `::cuemu::launch_static<callee>(grid, block...)(args)` when callee is a
 *     name (qualified, with template arguments or not) of a kernel declared
 *     earlier in the file, and `::cuemu::launch_dynamic(callee, grid,
 *     block...)(args)` otherwise (function pointers, `(*fp)`, `obj.k`);
 *   - `__noinline__` becomes `__attribute__((noinline))`.
 *
 * The output has exactly as many lines as the input; each rewritten construct
 * stays on the lines it came from, and every other byte is copied unchanged,
 * so diagnostics, #line mapping and debug information point at the user's
 * lines.
 *
 * Launches in the body of a #define are rewritten too, always as
 * launch_dynamic (the body is rewritten on its own, knowing no kernels, and
 * put on one line; see cuemu_rewrite.c).
 *
 * Known limits: `extern __shared__` declarations inside macro definitions
 * are neither rewritten nor reported; a kernel template launched in a macro
 * body without template arguments does not compile; kernels
 * declared through a macro that expands to __global__ are not found; both
 * branches of #if/#else are scanned, so braces that are unbalanced within a
 * branch can confuse the namespace tracking.
 *
 * Internal to cuemu-cc. Host code, any thread (no global state).
 */
#ifndef CUEMU_REWRITE_H
#define CUEMU_REWRITE_H

#include <stddef.h>

#include <cuemu/cuemu_status.h>

typedef struct cuemu_kernel_decl {
  char *name;          /* qualified: "saxpy", "ns::inner::scale" (no template args) */
  int is_template;     /* declared with a template<...> head */
  int is_extern_c;     /* declared inside extern "C" { } or with extern "C" */
  int is_definition;   /* has a body */
  int line;            /* 1-based line of the kernel's name */
  char *launch_bounds; /* the arguments of its __launch_bounds__(...), or NULL */
  char *cluster_dims;  /* the arguments of its __cluster_dims__(...), or NULL */
  int launches;        /* its body launches a grid (a <<<>>> in it) */
  char *file;          /* the file of `line` (a header's, in a translation unit) */
  int has_defaults;    /* a parameter has a default argument */
  int default_count;   /* how many (the most any declaration gives) */
  int template_required; /* template parameters without a default */
  int template_variadic; /* the template has a parameter pack */
  char *type_alias;    /* "::ns::cuemu_kernel_type_k" when the translation
                        * declared the kernel's function type (for a name
                        * that is also an ordinary function's, or an
                        * overload), else NULL */
  char *constant_alias; /* "::ns::cuemu_kernel_constant_k", the kernel as a
                        * ::cuemu::kernel_constant declared right after
                        * its first declaration, for a name that is also
                        * an ordinary function's, else NULL */
  /* Overloads (cuemu_kernel_overload.c), in a translation unit only. */
  char *signature;     /* its parameter types as written, without names and
                        * default arguments */
  int overloaded;      /* another kernel of the file has the same name */
  size_t params_open;  /* the `(` of its first declaration's parameters */
  size_t decl_end;     /* that declaration's end (`;` or `}`); 0: not seen */
  char *alias_scope;   /* the namespaces around that declaration ("a::b") */
  int picker;          /* its picker is declared (cuemu_kernel_picker.c) */
} cuemu_kernel_decl;

/* A lambda expression of the user's code, where each pass sees it
 * (cuemu_lambda_passes.c). */
typedef struct cuemu_lambda_note {
  char *where;         /* "file:line:column" of its `[` */
  char *decl;          /* "file:line" of the namespace-scope declaration
                        * around it (its enclosing function) */
  char *signature;     /* its parameter types (cuemu__kernel_signature()) */
  int extended;        /* written with __device__ or __host__ */
  char *scope;         /* `where` of the lambda whose body holds it, or
                        * NULL (the function's body) */
  size_t body_open, body_close; /* tokens of its body's braces */
  int device_body;     /* its body is device code only: a __device__
                        * lambda, or one defined in device code */
  int host_device;     /* an extended __host__ __device__ lambda */
} cuemu_lambda_note;

/* Lambdas that one pass lacks, made up in that pass right before the
 * lambda at `where` (cuemu_lambda_passes.c). */
typedef struct cuemu_lambda_pad {
  char *where;         /* "file:line:column" of the lambda they precede */
  char *signature;     /* their parameter types (that lambda's) */
  int count;
} cuemu_lambda_pad;

/* Where an edit of the translation stands: it replaced in[in, in_end) of
 * the text it was given by out[out, out_end) of its result. Read by
 * cuemu__diag_columns(), which maps a compiler message's column back to
 * the user's. */
typedef struct cuemu_column_edit {
  size_t in, in_end, out, out_end;
} cuemu_column_edit;

typedef struct cuemu_rewrite {
  char *text; size_t length;          /* the rewritten source, NUL-terminated */
  cuemu_column_edit *columns;         /* its edits, in text order */
  size_t column_count;
  cuemu_kernel_decl *kernels; int kernel_count;  /* in order of appearance; one entry per name
                                                   (first definition wins over declarations) */
  char message[512];                  /* on failure: "file.cu:LINE: what is wrong" */
  cuemu_lambda_note *lambdas; int lambda_count; /* a translation unit's, in order */
  char *diagnostics;                  /* nvcc's warnings and errors of the
                                       * options' warn_* ("file:line:
                                       * warning: ...", one a line), or NULL;
                                       * given also on failure */
  int host_device_code;               /* the host pass keeps code that calls
                                       * device-only shims and that its
                                       * compile may emit (a kernel's body,
                                       * inline PTX, a __device__ function
                                       * whose body cannot be a stub): its
                                       * prelude must define them
                                       * (cuemu_host_prelude.c) */
} cuemu_rewrite;

/* Rewrites text[0, length) (not necessarily NUL-terminated); `filename`
 * (NULL means "<input>") only names the file in messages. On success *out
 * owns the text and the kernels until cuemu__rewrite_free(); on failure they
 * are NULL and out->message says what is wrong and where. Returns
 * CUEMU_SUCCESS, CUEMU_COMPILE (malformed construct: unterminated <<<,
 * comment, string or raw string), CUEMU_OUT_OF_MEMORY or
 * CUEMU_INVALID_VALUE (NULL out, or NULL text with a non-zero length). */
cuemu_status cuemu__rewrite_source(const char *text, size_t length, const char *filename,
                                   cuemu_rewrite *out);

/* Translates a whole preprocessed translation unit (the output of `c++ -E`
 * with line markers, made with the shims' qualifiers kept as tokens: see
 * shims/cuda_builtins/cuemu_qualifiers.h) as cuemu__rewrite_source() does a
 * file, and more:
 *
 *   - only code of the user's files is rewritten: the regions of system
 *     headers (line-marker flag 3) and of files under one of the options'
 *     `skip_dirs` (the shims) are copied unchanged;
 *   - messages and the kernels' `file` and `line` name the user's file and
 *     line, through the line markers;
 *   - `extern __shared__` in a function body becomes a local pointer to the
 *     dynamic buffer (an asm label there is dropped by g++ in templates),
 *     with the specifiers in any order (`extern double __shared__ s[]`);
 *     `static __shared__` keeps one `static`;
 *   - launches of kernel templates with some template arguments left to
 *     deduction, and of kernels with default arguments, call the kernel in a
 *     lambda (::cuemu::launch_deduced); a kernel whose name is also an
 *     ordinary function's (rand, max, norm) is launched and listed through
 *     a declaration of its function type, written after its first
 *     declaration.
 *
 * The output has exactly as many lines as the input, so its line markers
 * stay right. Returns as cuemu__rewrite_source(). */

/* The pass a translation unit is translated for (nvcc's two passes, or the
 * one pass of a module). In the device pass, kernels and namespace-scope
 * __device__/__constant__/__managed__ variables (and, with rdc, __device__
 * functions) get default visibility, so that they stay global when the
 * rest of the pass is made local; in the host pass their definitions are
 * weak, so that the device pass's definitions are the ones linked. */
enum cuemu_pass { CUEMU_PASS_SINGLE, CUEMU_PASS_DEVICE, CUEMU_PASS_HOST };

typedef struct cuemu_translate_options {
  const char *const *skip_dirs; /* NULL-terminated folders never rewritten */
  enum cuemu_pass pass;
  int rdc;                      /* relocatable device code (-rdc, -dc) */
  const char *unit_key;         /* the unit's cache key (names that stay
                                 * private to it), or NULL */
  const cuemu_lambda_pad *pads; /* lambdas to make up (see
                                 * cuemu__lambda_pads()), or NULL */
  int pad_count;
  int extended_lambda;          /* --extended-lambda was given: lambdas may
                                 * be annotated __device__ or __host__ */
  int variant;                  /* a further device pass of a build for
                                 * several virtual architectures: with rdc,
                                 * its visible __device__ functions are
                                 * protected (cuemu__elf_variant_renames()) */
  int warn_default_stream;      /* nvcc's -Wdefault-stream-launch: a launch
                                 * of the user's code without a stream
                                 * argument is a warning (1) or an error (2:
                                 * -Werror=default-stream-launch); 0: none */
  int warn_launch_bounds;       /* -Wmissing-launch-bounds: a kernel that the
                                 * user's code defines without
                                 * __launch_bounds__, the same way */
  int warn_redeclared;          /* nvcc's warning #20037-D: a function
                                 * declared __device__ and defined without
                                 * an execution space, the same way */
  int warn_redeclared_device;   /* #20039-D and #20040-D: a function */
  int warn_redeclared_host_device; /* declared without an execution space
                                 * and redeclared __device__, or __host__
                                 * __device__, the same way */
  int warn_device_redeclared_host_device; /* #20036-D: a function declared
                                 * __device__ and redeclared __host__
                                 * __device__, the same way */
  int warn_main_bare_return;    /* #117-D: a `return;` in main, the same
                                 * way (cuemu_main_bare_return.c) */
  int warn_host_read;           /* #20091-D and #20092-D: host code that */
  int warn_host_write;          /* reads or writes a __device__ or
                                 * __constant__ variable, the same way
                                 * (cuemu_host_variable_access.c) */
  int warn_defaulted_space;     /* #20012-D: __host__ or __device__ on a
                                 * function defaulted on its first
                                 * declaration, the same way
                                 * (cuemu_defaulted_space.c) */
  int host_full;                /* the host pass reads the whole prelude:
                                 * host functions' calls of device-only
                                 * functions are refused by the translation
                                 * (cuemu_host_calls.c) */
} cuemu_translate_options;

cuemu_status cuemu__rewrite_preprocessed(const char *text, size_t length,
                                         const char *filename,
                                         const cuemu_translate_options *opt,
                                         cuemu_rewrite *out);

/* Frees what cuemu__rewrite_source() stored in *r and zeroes it; NULL and an
 * already freed result are accepted. */
void cuemu__rewrite_free(cuemu_rewrite *r);

/* Two passes of one unit, compiled by g++: the lambdas that each pass must
 * make up so that g++ numbers the lambdas that both passes compile alike
 * (a lambda that only one pass sees, under __CUDA_ARCH__, comes before an
 * extended lambda of the same function and parameter types). Stores
 * arrays in *device_pads and *host_pads (NULL when none) with their
 * counts; free them with cuemu__lambda_pads_free(). Returns CUEMU_SUCCESS
 * or CUEMU_OUT_OF_MEMORY. (cuemu_lambda_passes.c) */
cuemu_status cuemu__lambda_pads(const cuemu_rewrite *device,
                                const cuemu_rewrite *host,
                                cuemu_lambda_pad **device_pads,
                                int *device_count,
                                cuemu_lambda_pad **host_pads,
                                int *host_count);
void cuemu__lambda_pads_free(cuemu_lambda_pad *pads, int count);

#endif /* CUEMU_REWRITE_H */
