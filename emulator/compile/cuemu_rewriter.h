/*
 * cuemu_rewriter.h: the state shared by the passes of the source rewriter
 * (cuemu_rewrite.c walks the tokens; cuemu_launch_rewrite.c, cuemu_shared_decl.c and
 * cuemu_kernel_decl.c handle one construct each) and the token helpers they
 * use. Internal to cuemu-cc.
 */
#ifndef CUEMU_REWRITER_H
#define CUEMU_REWRITER_H

#include <stddef.h>

#include <cuemu/cuemu_status.h>

#include "cuemu_lexer.h"
#include "cuemu_rewrite.h"

/* Replace text[offset, offset + removed) by `text`. */
typedef struct cuemu_edit {
  size_t offset;
  size_t removed;
  char *text;
  size_t length;
  size_t seq;          /* order of creation, to keep sorting stable */
} cuemu_edit;

/* A growable string; `oom` is set (and appends stop) when memory runs out. */
typedef struct cuemu_strbuf {
  char *data;
  size_t length;
  size_t capacity;
  int oom;
} cuemu_strbuf;

/* Set by the rewriter on tokens inside an #elif or #else branch: their
 * braces are not counted, so that branches which each open a scope (and
 * share one closing brace) do not unbalance the namespace tracking. */
#define CUEMU_TOKEN_ALT_BRANCH 0x100u
/* Set, in a preprocessed translation unit, on tokens of a system header or a
 * shim (see cuemu__kernel_type_alias()). */
#define CUEMU_TOKEN_FOREIGN 0x200u
/* Set, in a preprocessed translation unit, on tokens of a shim (a file
 * under one of the skip folders): they are walked (for braces and kernels)
 * but never rewritten. The CUDA code of other system headers (CUB, Thrust,
 * a library under -isystem) is translated as the user's is. */
#define CUEMU_TOKEN_SHIM 0x400u
/* Set, in a preprocessed translation unit, on tokens of a header that the
 * unit includes (any file but the unit's own source): inline PTX there
 * that cuemu cannot emulate ends the launch that runs it, as in a system
 * header (cuemu_ptx_rewrite.c), since libraries such as CUTLASS hold PTX
 * for every architecture in code a program never calls. */
#define CUEMU_TOKEN_INCLUDED 0x800u
/* Set, in a preprocessed translation unit, on tokens of CCCL's headers
 * (CUB, Thrust, libcu++: a system header whose path has a folder named
 * cccl, cub, thrust or libcudacxx), whose forced inlining the translation
 * drops (cuemu_cccl_inlining.c). */
#define CUEMU_TOKEN_CCCL 0x1000u

/* A line marker of a preprocessed translation unit: physical line `phys`
 * of the text is followed by line `line` of `file`. */
typedef struct cuemu_line_marker {
  int phys;
  int line;
  char *file;
} cuemu_line_marker;

typedef struct cuemu_launch_calls cuemu_launch_calls;

typedef struct cuemu_rewriter {
  const char *text;
  size_t length;
  const char *filename;
  cuemu_token *toks;   /* significant tokens: no comments, no directives */
  size_t n;
  cuemu_edit *edits;
  size_t edit_count;
  size_t edit_capacity;
  cuemu_kernel_decl *kernels;
  int kernel_count;
  int kernel_capacity;
  int *by_name;        /* hash of full names: kernel index + 1, 0 if free */
  int *by_last;        /* hash of unqualified names, the same way */
  size_t hash_size;    /* slots in each table, a power of two */
  char *message;       /* the result's message buffer */
  size_t message_size;
  int preprocessed;    /* a whole translation unit (cuemu__rewrite_preprocessed) */
  const char *const *skip_dirs;
  int pass;            /* enum cuemu_pass */
  int rdc;
  int variant;         /* a further device pass (cuemu_translate_options) */
  int extended_lambda; /* --extended-lambda (cuemu_translate_options) */
  int warn_default_stream, warn_launch_bounds; /* (cuemu_translate_options) */
  int warn_redeclared, warn_redeclared_device, warn_redeclared_host_device,
      warn_device_redeclared_host_device,
      warn_main_bare_return, warn_host_read, warn_host_write,
      warn_defaulted_space; /* (cuemu_translate_options) */
  int host_full;       /* (cuemu_translate_options) */
  cuemu_strbuf diagnostics; /* what they found (cuemu__rw_diagnose()) */
  int diagnostic_errors;    /* how many of them are errors */
  const char *unit_key; /* the unit's cache key (two passes), or NULL */
  int last_is_definition; /* the declaration recorded last has a body */
  cuemu_line_marker *markers;
  size_t marker_count;
  size_t marker_capacity;
  size_t scope_depth;  /* braces around the token being walked (0: namespace scope) */
  int last_kernel;     /* index of the kernel recorded last, or -1 */
  size_t last_params;  /* the `(` of its parameter list */
  int last_is_template;/* its declaration has a template head */
  size_t last_template;/* the `<` of that template head, or (size_t)-1 */
  size_t last_bounds;  /* its `__launch_bounds__` token, or (size_t)-1 */
  size_t named_head;   /* the `<` of the template head whose unnamed
                          parameters were given names, plus one; 0: none */
  cuemu_lambda_note *lambdas; /* the user's lambdas (translation units) */
  int lambda_count, lambda_capacity;
  const cuemu_lambda_pad *pads; /* lambdas to make up (translate options) */
  int pad_count;
  int host_device_code; /* the host pass keeps device code that the host
                         * compile emits (cuemu_rewrite.h) */
  int launch_in_device_code; /* the launch being rewritten is in a kernel's
                              * or __device__ function's body of the device
                              * pass (cuemu_launch_rewrite.c) */
  int launch_in_device_body; /* ... in such a body, in any pass */
  struct cuemu_launch_calls *launch_calls; /* the device pass's bodies:
                              * who launches, who calls whom
                              * (cuemu_launch_calls.c) */
  char **device_vars;  /* the namespace-scope device variables declared so
                        * far without -rdc, "ns::name" (cuemu_device_code.c) */
  size_t device_var_count, device_var_capacity;
  struct cuemu_host_variable *host_vars; /* the namespace-scope __device__
                        * and __constant__ variables declared so far, for
                        * host code's reads and writes
                        * (cuemu_host_variable_access.c) */
  size_t host_var_count, host_var_capacity;
  char *host_scope;    /* the namespace of the host body being judged */
  size_t *host_dependent; /* in a template's body, the tokens that name
                        * what depends on its parameters: the parameters,
                        * and what is declared with them */
  size_t host_dependent_count, host_dependent_capacity;
  int host_template;   /* the body judged is a template's */
  const struct cuemu_host_variable *host_write_var; /* a write whose warning
                        * waits for the end of its expression, at token
                        * host_write_end; its name at host_write_token,
                        * as nvcc shows it in host_write_shown */
  size_t host_write_token, host_write_end;
  char host_write_shown[256];
  char **device_protos; /* the functions declared __device__ without a body
                         * so far, "Class::name" or "::name"
                         * (cuemu__device_prototype_note) */
  size_t device_proto_count, device_proto_capacity;
  char **host_protos;  /* the functions declared or defined without an
                        * execution space so far, "ns::Class::name(types)"
                        * (cuemu__host_redeclared_note) */
  size_t host_proto_count, host_proto_capacity;
  char **ptx_regs;     /* the registers that declaration-only asm statements
                        * declared for their C++ block so far, innermost
                        * last (cuemu_ptx_rewrite.c) */
  size_t *ptx_reg_ends; /* the token closing each one's block */
  size_t ptx_reg_count, ptx_reg_capacity;
  char caller[128];    /* the device body being walked, as nvcc names it in
                        * its messages: `__global__ function("k")`; empty
                        * for a __host__ __device__ function
                        * (cuemu__device_caller_note) */
} cuemu_rewriter;

/* The user's file and line of physical line `phys` (through the line
 * markers of a translation unit; else rw->filename and `phys`). */
void cuemu__rw_where(const cuemu_rewriter *rw, int phys, const char **file,
                     int *line);

/* ---- Tokens (index i may be out of range: the tests are then false) ---- */

/* Token i is spelled `word` (identifiers, punctuators, literals). */
int cuemu__rw_is(const cuemu_rewriter *rw, size_t i, const char *word);
/* Token i is an identifier. */
int cuemu__rw_ident(const cuemu_rewriter *rw, size_t i);
/* Token i + 1 starts right where token i ends. */
int cuemu__rw_adjacent(const cuemu_rewriter *rw, size_t i);
/* Whether tokens a and b have the same text. */
int cuemu__rw_same(const cuemu_rewriter *rw, size_t a, size_t b);
/* Whether the tokens from k spell the operator `op`: the lexer makes a
 * token of each character of an operator but `::` and `->`, so its
 * characters must be adjacent tokens (`+=`, `...`). */
int cuemu__rw_spells(const cuemu_rewriter *rw, size_t k, const char *op);
/* Tokens i to i + 2 are the `<<<` or `>>>` (c is "<" or ">") of a launch
 * as nvcc reads them: the first two adjacent, the third after blanks or
 * comments too (a `<` on the same line only), and not after `operator`. */
int cuemu__rw_chevrons(const cuemu_rewriter *rw, size_t i, const char *c);
/* Index of the bracket matching the ( [ or { at i, or rw->n if none. */
size_t cuemu__rw_close(const cuemu_rewriter *rw, size_t i);
/* Index of the bracket matching the ) ] or } at i, or (size_t)-1. */
size_t cuemu__rw_open(const cuemu_rewriter *rw, size_t i);
/* The `{` at i opens a requires-expression's body (`requires { ... }`,
 * `requires (T x) { ... }`), as a C++20 requires-clause between a
 * function's parameters and its body may hold. */
int cuemu__rw_requires_body(const cuemu_rewriter *rw, size_t i);

/* Gives each abbreviated kernel template (`__global__ void k(auto *p)`) a
 * template head, as edits of rw; *found is set when there was one, and the
 * unit is then translated again from the edited text
 * (cuemu_abbreviated_kernel.c). */
cuemu_status cuemu__abbreviated_kernels(cuemu_rewriter *rw, int *found);
/* Edits each `return;` of the user's `int main()` into `return 0;`, as
 * nvcc takes it, with its warning #117-D (cuemu_main_bare_return.c). */
cuemu_status cuemu__main_bare_returns(cuemu_rewriter *rw);
/* Edits CCCL's `__attribute__((__always_inline__))` into `__unused__`, so
 * that the compiler inlines CUB's and Thrust's functions as it chooses, and
 * makes libcu++'s atomic functions always inline, so that an atomic's
 * report names the user's line (cuemu_cccl_inlining.c). */
cuemu_status cuemu__cccl_inlining(cuemu_rewriter *rw);
/* The `return;` statements of the function body whose braces are tokens
 * open and close, not those of a lambda's body or of a local class's member
 * function in it: each becomes `return<value>;` when `edit`, and gets
 * nvcc's warning #117-D (`non-void function "<function>" should return a
 * value`) when `warn`; where `after_value` (a function whose return type
 * is deduced), only those after a `return` with a value, the others being
 * a void function's or nvcc's error (cuemu_main_bare_return.c). */
cuemu_status cuemu__rw_bare_returns(cuemu_rewriter *rw, size_t open,
                                    size_t close, const char *value, int edit,
                                    int warn, const char *function,
                                    int after_value);
/* The `return;` statements of the body at `brace` of the device-only
 * function whose declaration starts at token `start`, in namespace `ns`
 * ("a::b" or ""), when its return type is not void: nvcc takes each with
 * its warning #117-D, which the host pass gives (not for a template's), and
 * the device pass makes it `return __typeof__(T)();`, T the return type
 * (cuemu_device_bare_return.c). */
cuemu_status cuemu__device_bare_returns(cuemu_rewriter *rw, const char *ns,
                                        size_t start, size_t brace);
/* The `>` closing the template argument list whose `<` is at i, or rw->n
 * (a `;` first, or no match). */
size_t cuemu__rw_template_close(const cuemu_rewriter *rw, size_t i);
/* If an attribute group starts at i (`[[...]]`, `alignas(...)`,
 * `__declspec(...)` or any `__name__(...)` such as `__attribute__((...))`,
 * `__align__(16)`, `__launch_bounds__(256)`), the index after it; else i. */
size_t cuemu__rw_skip_attribute(const cuemu_rewriter *rw, size_t i);
/* If an attribute group ends at i, the index of its first token; else i. */
size_t cuemu__rw_attribute_start(const cuemu_rewriter *rw, size_t i);
/* If the `(` at token open starts a nested declarator (`(*p)(int)`,
 * `(*table[3])(int)`, `(C::*m)`, cuemu_nested_declarator.c), the index
 * after it and the parameter lists and bounds that follow it, with *name
 * the declared name's token and *is_function set where that name is a
 * function's (`(*pick(int))(int)`); else open, and nothing is set. */
size_t cuemu__rw_nested_declarator(const cuemu_rewriter *rw, size_t open,
                                   size_t *name, int *is_function);

/* Inserts the `typename` that nvcc does not ask for before a dependent
 * member type that starts the namespace-scope template declaration whose
 * `template` is token i (cuemu_implicit_typename.c). */
cuemu_status cuemu__implicit_typename(cuemu_rewriter *rw, size_t i);
/* Inserts the `template` that nvcc does not ask for before a member
 * template's name in the typename-specifier whose `typename` is token i
 * (cuemu_implicit_template.c). */
cuemu_status cuemu__implicit_template(cuemu_rewriter *rw, size_t i);
/* The host pass's mark of a namespace-scope `__device__` or `__constant__`
 * variable (not `__managed__`), after its qualifier: protected visibility,
 * which marks its definition and its references in the host pass's object,
 * whose names are then made the host object's own (NAME.cuemu_shadow:
 * cuemu__elf_variable_shadows()), as nvcc's host code has a shadow of each
 * device variable. */
/* Non-zero when the declaration that starts at token start says
 * `__managed__` before its initializer or its end. */
int cuemu__rw_managed_decl(const cuemu_rewriter *rw, size_t start);
#define CUEMU_HOST_SHADOW_MARK " __attribute__((visibility(\"protected\")))"
/* A namespace-scope `__device__` or `__constant__` variable template whose
 * declaration starts at token start (its qualifier at i): in the device
 * pass the attribute `visible` after the qualifier, in the host pass
 * CUEMU_HOST_SHADOW_MARK (cuemu_variable_template.c). *handled says
 * whether it was one. */
cuemu_status cuemu__device_variable_template(cuemu_rewriter *rw, size_t start,
                                            size_t i, const char *visible,
                                            size_t visible_length,
                                            int *handled);

/* ---- Output ---- */

/* Records an edit (text is copied). Returns CUEMU_OUT_OF_MEMORY on failure. */
cuemu_status cuemu__rw_edit(cuemu_rewriter *rw, size_t offset, size_t removed,
                            const char *text, size_t length);
/* Formats "file:line: what" into the message and returns CUEMU_COMPILE. */
cuemu_status cuemu__rw_error(cuemu_rewriter *rw, int line, const char *what);
/* nvcc's check of an __nv_atomic_* built-in's call at token i in device
 * code: its memory orders and scope must be integer literals or the
 * built-in names (cuemu_nv_atomic_args.c). */
cuemu_status cuemu__nv_atomic_args_check(cuemu_rewriter *rw, size_t i);
/* One of nvcc's optional diagnostics at physical line `line`, as `level`
 * says (a cuemu_translate_options warn_* value: 1 a warning, 2 an error, 3
 * an error without the number, as nvcc's -diag-error gives it, 0 nothing), with the option that asks for it ("default-stream-launch"),
 * or the number of nvcc's diagnostic ("20037-D", written after the kind:
 * "warning #20037-D: ..."): added to rw->diagnostics, in the user's file
 * and line. Tokens of system headers get none, as with nvcc. */
void cuemu__rw_diagnose(cuemu_rewriter *rw, size_t token, int level,
                        const char *option, const char *what);

/* The level of nvcc's numbered diagnostic `number` at `offset` of the
 * unit's text (a cuemu__rw_diagnose() level), where the command line's is
 * `level`, as the nv_diag pragmas before it set it (`#pragma
 * nv_diag_suppress 117`, nv_diag_error, nv_diagnostic push and pop;
 * cuemu_device_code.c). */
int cuemu__rw_diag_level(const cuemu_rewriter *rw, size_t offset, long number,
                         int level);

/* Appends a line marker that makes the text after it line `line` of
 * `file`, in a system header when `system`, and the blanks that put the
 * next character in the column of the one at `offset` (tabs kept, as the
 * compiler counts them): text inserted before it keeps the user's lines
 * and columns after it (cuemu_host_stubs.c). */
void cuemu__rw_line_marker(cuemu_strbuf *sb, const cuemu_rewriter *rw,
                           size_t offset, const char *file, int line,
                           int system);
void cuemu__sb_add(cuemu_strbuf *sb, const char *s, size_t length);
void cuemu__sb_str(cuemu_strbuf *sb, const char *s);
/* Appends the spelling of tokens [from, to), separated by one space where
 * the source had anything between them; attribute groups are left out when
 * skip_attributes is set. */
void cuemu__sb_tokens(cuemu_strbuf *sb, const cuemu_rewriter *rw, size_t from,
                      size_t to, int skip_attributes);

/* Appends the parameters of the list whose parentheses are at tokens open
 * and close, without their default arguments ("T *out, int n"). */
void cuemu__sb_parameters(cuemu_strbuf *sb, const cuemu_rewriter *rw,
                          size_t open, size_t close);

/* ---- Constructs ---- */

/* The notes of cuemu_space_notes.c: after the `__constant__` (or
 * `__managed__`) declaration that starts at token start (the qualifier at
 * i), one note `macro` (CUEMU_CONSTANT_NOTE, CUEMU_MANAGED_NOTE) per
 * variable it defines (host and single passes); after the `{` at brace of
 * a kernel whose declaration starts at start, one CUEMU_GRID_CONSTANT_NOTE
 * per `__grid_constant__` parameter. */
cuemu_status cuemu__constant_note(cuemu_rewriter *rw, size_t start, size_t i,
                                  const char *macro);
cuemu_status cuemu__grid_constant_notes(cuemu_rewriter *rw, size_t start,
                                        size_t brace);
/* The note CUEMU_DEVICE_NOTE after the namespace-scope declaration that
 * starts at token start when its `__device__` (token i) defines variables
 * (cuemu_space_notes.c). */
cuemu_status cuemu__device_note(cuemu_rewriter *rw, size_t start, size_t i);

/* In the device pass, after the namespace-scope `__device__`,
 * `__constant__` or `__managed__` declaration that starts at token start
 * (the qualifier at i), `_Pragma("cuemu device_variable [constant]
 * name")` per variable it declares, by which cuemu's GCC plugin tells
 * them from host variables (cuemu_gcc_plugin_spaces.cc); nothing after a
 * function. */
cuemu_status cuemu__device_variable_mark(cuemu_rewriter *rw, size_t start,
                                         size_t i);
/* In the device pass, after the declaration of the `__shared__` variable
 * whose `__shared__` is token i, inside a function's body,
 * `_Pragma("cuemu shared")`: cuemu's GCC plugin refuses it in a host
 * function (cuemu_gcc_plugin_spaces.cc). */
cuemu_status cuemu__shared_mark(cuemu_rewriter *rw, size_t i);

/* Rewrites the launch whose `<<<` starts at token i; *resume is the token to
 * continue the walk at. CUEMU_COMPILE for an unterminated configuration. */
cuemu_status cuemu__launch_rewrite(cuemu_rewriter *rw, size_t i, size_t *resume);
/* Refuses what the body of a __global__ or __device__ function may not
 * hold, at token i (cuemu_device_code.c). */
cuemu_status cuemu__device_code_check(cuemu_rewriter *rw, size_t i);
/* Without relocatable device code, records the namespace-scope
 * __device__, __constant__ or __managed__ variable named by token `name`
 * in namespace `ns`; refuses a second declaration of it where one is
 * `extern` (nvcc makes each a definition: "redefinition of"). Frees the
 * list when `name` is (size_t)-1. */
cuemu_status cuemu__device_variable_note(cuemu_rewriter *rw, const char *ns,
                                         size_t name, int is_extern);
/* Refuses an initializer of the __shared__ variable whose `__shared__` is
 * token i, as nvcc does ("initializer not allowed for __shared__
 * variable"), in the device pass. */
cuemu_status cuemu__shared_initializer_check(cuemu_rewriter *rw, size_t i);
/* Host functions that call device-only functions (cuemu_host_calls.c):
 * the name token of the function whose declaration starts at token `start`
 * and whose `{` is token `brace`, when that body is a host function's that
 * the check searches (not a template's, a device function's or an
 * operator's), else rw->n; and the check of identifier token i of such a
 * body, whose function's name is token `caller`: a call of a device-only
 * function adds nvcc's error to rw->diagnostics. */
size_t cuemu__host_body_name(const cuemu_rewriter *rw, size_t start,
                             size_t brace);
void cuemu__host_call_check(cuemu_rewriter *rw, size_t i, size_t caller);
/* How a call's callee takes one of its arguments (cuemu_call_parameters.c):
 * unknown; by reference; by value into a scalar or pointer parameter (a
 * read of the argument); as a copy, into a parameter whose type is the
 * template's (`T x`, `Ts... xs`) or C's `...` (a read of a scalar). */
typedef enum {
  CUEMU_PASSED_UNKNOWN,
  CUEMU_PASSED_REFERENCE,
  CUEMU_PASSED_VALUE,
  CUEMU_PASSED_COPY,
  CUEMU_PASSED_OBJECT /* by value into a parameter of one other word's type
                       * (a class's), named by the token *object */
} cuemu_passing;
/* How the callee of the call whose `(` is token `open` takes its argument
 * number `index` (from 0), from the declarations of its name in the unit,
 * where all that can take the call's arguments agree. */
cuemu_passing cuemu__call_passing(const cuemu_rewriter *rw, size_t open,
                                  size_t index, size_t *object);
/* Whether the objects of the class named as token `name` are copied
 * bitwise, by the implicit copy constructor, as nvcc reads a device
 * variable copied so: its definition in the unit has no bases, scalar or
 * pointer data members and no constructor from its own objects. */
int cuemu__trivially_copied(const cuemu_rewriter *rw, size_t name);
/* Whether identifier token k is a word of a scalar type (`unsigned`,
 * `float`, `size_t`, `uint32_t`...). */
int cuemu__scalar_type_word(const cuemu_rewriter *rw, size_t k);
/* nvcc's warnings #20091-D and #20092-D (cuemu_host_variable_access.c).
 * A device variable of the unit: its name with its namespaces ("grid::cells"),
 * where its bare name starts in it, whether it is __constant__, an array,
 * and hidden in the body being judged by a declaration of its name. */
typedef struct cuemu_host_variable {
  char *name;
  char *display; /* as nvcc names it: "<unnamed>::v" */
  size_t bare;
  /* scalar: its type is a scalar type's words or a pointer; templated: a
   * variable template, named with its arguments (`scale<int>`). */
  int constant, array, hidden, scalar, templated;
  size_t type; /* the token of its type where that is one class's name (or
                * a typedef's), else (size_t)-1 */
} cuemu_host_variable;
/* Records the variable named by token `name`, declared __constant__ where
 * ns[0] is 'c' ('d' else), in the namespace ns + 1 (names looked up from
 * it; the namespace as nvcc writes it after its NUL). */
cuemu_status cuemu__host_variable_record(cuemu_rewriter *rw, size_t name,
                                         const char *ns);
/* Records the variables that the namespace-scope declaration starting at
 * token start, its __device__ or __constant__ at i, declares in namespace
 * ns, in the host and single passes (cuemu_space_notes.c). */
cuemu_status cuemu__host_variable_names(cuemu_rewriter *rw, size_t start,
                                        size_t i, const char *ns);
/* Starts the judgement of the body at `brace` of the host function declared
 * from token start, in namespace ns (a template's, whose template heads
 * start at token `templated`, else rw->n); then each identifier token i of the
 * body is judged: a read or write of a device variable adds nvcc's
 * warnings to rw->diagnostics. */
cuemu_status cuemu__host_variable_body(cuemu_rewriter *rw, const char *ns,
                                       size_t start, size_t brace,
                                       size_t templated);
void cuemu__host_variable_access(cuemu_rewriter *rw, size_t i);
/* Gives the warning of a write that waits for the end of its expression
 * (at the body's end). */
void cuemu__host_variable_flush(cuemu_rewriter *rw);
void cuemu__host_variables_free(cuemu_rewriter *rw);
/* nvcc's warning #20012-D at each __host__ and __device__ of the member
 * declaration whose `default` of `= default;` is token i
 * (cuemu_defaulted_space.c). */
void cuemu__defaulted_space_check(cuemu_rewriter *rw, size_t i);
/* Records in rw->caller the kind and name of the function whose
 * declaration starts at token `start` and whose body opens at `brace`
 * (a kernel's when `kernel`), for cuemu__device_code_check's messages. */
void cuemu__device_caller_note(cuemu_rewriter *rw, size_t start, size_t brace,
                               int kernel);
/* In the device pass of a translation unit: marks the body whose `{` is
 * token `brace`, of a namespace-scope __global__ or __device__ function,
 * so that cuemu's GCC plugin refuses variable-length arrays in it
 * (cuemu_device_code.c) and knows its execution space, `space`: "global"
 * (a kernel), "host" (a __host__ __device__ function) or "" (__device__),
 * for the refusals of cuemu_gcc_plugin_spaces.cc. */
cuemu_status cuemu__device_body_mark(cuemu_rewriter *rw, size_t brace,
                                     const char *space);
/* When the `{` at `brace` opens a constructor's member initializer
 * (`: v{n}`, `, w{m}`), the `{` of the body after the initializers, else
 * `brace`; rw->n when none is found (cuemu_device_code.c). */
size_t cuemu__rw_past_member_initializers(const cuemu_rewriter *rw,
                                          size_t brace);
/* The same for the body of the member function (cuemu__rw_member_body) or
 * the extended lambda (`[...] __device__ (...) {`) whose `__device__` is
 * token `device`, inside a class or a function; nothing for another
 * `__device__`. */
cuemu_status cuemu__device_inner_mark(cuemu_rewriter *rw, size_t device);
/* Records the function declared __device__ (or
 * __host__ __device__) without a body by the declaration whose `__device__`
 * is token `device`: a member function's, in a class body (`start` is then
 * (size_t)-1), or one of namespace scope from token `start` to its `;` at
 * `end`. `device` (size_t)-1 frees the records. nvcc takes a later
 * definition of such a function without an execution space for a
 * __host__ __device__ function (its warning #20037-D). */
cuemu_status cuemu__device_prototype_note(cuemu_rewriter *rw, size_t device,
                                          size_t start, size_t end);
/* The body at `brace` of the namespace-scope definition from token `start`
 * without an execution space (`float Mover::at(float t) const {`) of a
 * function recorded by cuemu__device_prototype_note: in the device pass,
 * marked as a __host__ __device__ function's (cuemu__device_body_mark), so
 * that device code may call it, as nvcc lets it; in the host pass, a
 * __device__ function's stub (cuemu__host_redeclared_stub), as nvcc's host
 * compile keeps no body of it (a host call is refused, and its calls of
 * device functions are not compiled for the host). */
cuemu_status cuemu__device_redeclared_mark(cuemu_rewriter *rw, size_t start,
                                           size_t brace);
/* nvcc's warnings #20039-D and #20040-D, in the host pass: the
 * namespace-scope declaration or definition from token `start` before
 * token `end` (its `;` or `{`), in namespace `ns` ("a::b"), of a function
 * without __device__ (a host function, with __host__ too) is recorded; one
 * with __device__ (or __host__ __device__) of a host function recorded
 * before, or of a member function that its class declares without
 * __device__, gets the warning at its name, the first time alone, as nvcc
 * gives it (cuemu_device_code.c). */
cuemu_status cuemu__host_redeclared_note(cuemu_rewriter *rw, const char *ns,
                                         size_t start, size_t end);
/* Whether the function declared `__device__` before token `semicolon`,
 * whose parameters open at token `open`, is redeclared `__host__
 * __device__` later in the unit (the same name and parameter types, in the
 * user's code): nvcc then treats it as a __host__ __device__ function,
 * which host code may call, and gives warning #20036-D at the first such
 * redeclaration's name (here, in the host pass). */
int cuemu__device_redeclared_host_device(cuemu_rewriter *rw, size_t open,
                                         size_t semicolon);

/* If token i (`__shared__`) belongs to an `extern __shared__` unsized array
 * declaration, rewrites it and sets *resume past its `;`; else *resume = i. */
cuemu_status cuemu__shared_decl_rewrite(cuemu_rewriter *rw, size_t i,
                                        size_t *resume);

/* The names (tokens) of the static shared variables declared so far in the
 * kernel body being walked that are still in scope, and the brace depth of
 * each declaration: a kernel's variables together may not pass nvcc's
 * 48 KiB of static shared memory either. */
#define CUEMU_SHARED_SCOPE_MAX 32
typedef struct cuemu_shared_scope {
  size_t name[CUEMU_SHARED_SCOPE_MAX], depth[CUEMU_SHARED_SCOPE_MAX];
  size_t count;
} cuemu_shared_scope;

/* Token i (`__shared__`, not extern) declares a static shared variable in
 * the body of the kernel recorded last: appends
 * ` CUEMU_STATIC_SHARED_NOTE(name, kernel, id);` after the declaration's `;`
 * on the same line, where `kernel` names the body's own kernel (instance)
 * and `id` the declaration (the shims' macro checks nvcc's 48 KiB limit at
 * compile time, and tells libcuemu the size when the program or module is
 * loaded, before any launch); in the host pass, whose kernel bodies never
 * run, ` CUEMU_STATIC_SHARED_CHECK(name);` (the limit only). Without
 * `kernel` (the body of another function, in the device pass), appends
 * ` CUEMU_DEVICE_SHARED_NOTE(name, id);`, a note that
 * cuemu__elf_shared_calls() gives to the kernels that reach it. A
 * declaration it does not understand is left alone. With `scope` (a kernel's
 * body), the variables of scope that are still visible and this one must
 * also fit in 48 KiB together (a static_assert after the declaration, naming
 * them, as ptxas refuses "too much shared data"); this one's name is added
 * to scope. */
cuemu_status cuemu__static_shared_note(cuemu_rewriter *rw, size_t i,
                                       int kernel, cuemu_shared_scope *scope);

/* Records the kernel declared by the namespace-scope declaration that starts
 * at token decl_start and contains `__global__` at token global. `scope` is
 * the enclosing namespace ("" or "a::b"); in_extern_c is set inside an
 * extern "C" block. A declaration that names nothing is ignored. */
cuemu_status cuemu__kernel_decl_scan(cuemu_rewriter *rw, size_t decl_start,
                                     size_t global, const char *scope,
                                     int in_extern_c);

/* If token i (asm, __asm or __asm__) starts an asm statement whose template
 * is PTX, replaces the statement by its emulation (cuemu_ptx.h) and sets
 * *resume to its last token; else *resume = i. CUEMU_COMPILE (with the
 * message) for PTX that cannot be translated. */
cuemu_status cuemu__ptx_rewrite(cuemu_rewriter *rw, size_t i, size_t *resume);
/* Frees the registers cuemu__ptx_rewrite() keeps between statements. */
void cuemu__ptx_rewrite_free(cuemu_rewriter *rw);
/* If token i is a decimal integer literal that no signed type holds (above
 * LLONG_MAX, no `u` suffix), writes it with the suffix ULL: nvcc gives it
 * unsigned long long, g++ __int128 (cuemu_decimal_literals.c). */
cuemu_status cuemu__decimal_literal_rewrite(cuemu_rewriter *rw, size_t i);

/* The `<` matching the `>` at token k, going backwards over balanced
 * brackets and stopping at statement boundaries; (size_t)-1 if none. */
size_t cuemu__rw_template_open(const cuemu_rewriter *rw, size_t k);

/* 0 when no kernel whose unqualified name is `name` was recorded, 1 for a
 * kernel, 2 for a kernel template. */
int cuemu__kernel_known(const cuemu_rewriter *rw, const char *name,
                        size_t length);

/* The recorded kernel whose unqualified name is `name`, or NULL. */
cuemu_kernel_decl *cuemu__kernel_find(const cuemu_rewriter *rw,
                                      const char *name, size_t length);

/* In a translation unit: the kernel declared by the declaration that ends
 * at token `end` (its `;` or the `}` of its body) gets a declaration of its
 * function type after `end` when its name is also an ordinary function's
 * (in a system header or a shim), so that it can be named without
 * ambiguity. */
cuemu_status cuemu__kernel_type_alias(cuemu_rewriter *rw, size_t decl_start,
                                      size_t end, const char *scope);

/* nvcc's restrictions on the function around the extended lambda of host
 * code whose `[` is token i, when the namespace-scope declaration around it
 * starts at token `from` (host: a __host__ __device__ lambda), refused with
 * nvcc's messages (cuemu_lambda_parent.c). */
cuemu_status cuemu__lambda_parent_check(cuemu_rewriter *rw, size_t i,
                                        size_t from, int host);

/* In a translation unit: notes the lambda expression whose `[` is token i
 * (if it is one) of the user's code, inside the namespace-scope
 * declaration that starts at token decl, and gives an extended lambda of
 * host code (device_code zero) a context of its own (cuemu_lambda_passes.c). */
cuemu_status cuemu__lambda_note(cuemu_rewriter *rw, size_t i, size_t decl,
                                int device_code);
/* Frees the notes. */
void cuemu__lambda_notes_free(cuemu_lambda_note *notes, int count);

/* Overloaded kernels (cuemu_kernel_overload.c). */

/* The parameter types of the list whose `(` is token open, without names
 * and default arguments, one space after each token (malloc'd; NULL when
 * out of memory). */
char *cuemu__kernel_signature(const cuemu_rewriter *rw, size_t open);
/* The index of the kernel (not a template) with d's name and signature, or
 * -1. */
int cuemu__kernel_same_signature(const cuemu_rewriter *rw,
                                 const cuemu_kernel_decl *d);
/* The kernels named `name` are overloads: each gets its function type's
 * declaration after its first declaration (when that was seen). */
cuemu_status cuemu__kernel_overloads_mark(cuemu_rewriter *rw,
                                          const char *name);
/* Declares the function type of kernel `index` after its first
 * declaration, and sets its type_alias. */
cuemu_status cuemu__kernel_alias_emit(cuemu_rewriter *rw, int index);
/* Non-zero when every overload named like decl has its type declared,
 * none has default arguments and no kernel of another namespace or
 * template has its name (a launch can then name the overload set). */
int cuemu__kernel_overloads_ready(const cuemu_rewriter *rw,
                                  const cuemu_kernel_decl *decl);
/* The overload set of a launch that the call must complete (default
 * arguments, or kernels of one name in several namespaces) whose callee is
 * tokens [start, name]: "::cuemu::overloads::candidates<...>" naming each
 * kernel it can mean with its number of default arguments (the launch
 * takes the attributes of the one its call picks), or NULL where that is
 * not known (a template, a name that several namespaces' kernels answer).
 * The caller frees it. */
char *cuemu__kernel_pick_set(cuemu_rewriter *rw, size_t start, size_t name);
/* Rewrites the launch whose `<<<` is token `launch` and whose callee starts
 * at token `start` into ::cuemu::launch_overloaded<the overloads>(config
 * (the caller closes it at `>>>`). */
cuemu_status cuemu__launch_overloaded(cuemu_rewriter *rw,
                                      const cuemu_kernel_decl *decl,
                                      size_t start, size_t launch);

/* Internal linkage in the two passes (cuemu_internal_linkage.c). */

/* The unnamed namespace whose `namespace` is token ns and `{` token brace
 * gets the unit's unique name. */
cuemu_status cuemu__unnamed_namespace(cuemu_rewriter *rw, size_t ns,
                                      size_t brace);
/* The namespace-scope declaration that starts at token start, with
 * `__device__`, `__constant__` or `__managed__` at token qualifier, in
 * namespace scope ("a::b"): a variable (`static` or, without -rdc, any)
 * loses `static` and gets the unit's assembler name; *done tells whether it
 * did. */
cuemu_status cuemu__private_device_variable(cuemu_rewriter *rw, size_t start,
                                           size_t qualifier, const char *scope,
                                           int *done);
/* Non-zero when the namespace-scope const variable whose name is token name,
 * in the declaration that starts at token start (which does not say
 * `extern`), has internal linkage: no earlier declaration of the unit
 * declares that name `extern`. */
int cuemu__const_variable_internal(const cuemu_rewriter *rw, size_t start,
                                   size_t name);
/* A `static` variable template declared at token start, with its
 * `__device__` or `__constant__` at token qualifier, loses `static` and
 * goes into the unit's namespace (brought back by a using-declaration);
 * in the device pass `visible` follows the qualifier, in the host pass
 * CUEMU_HOST_SHADOW_MARK. *done: it was one. */
cuemu_status cuemu__static_variable_template(cuemu_rewriter *rw, size_t start,
                                            size_t qualifier,
                                            const char *visible,
                                            size_t visible_length,
                                            int *done);
/* The kernel declaration that starts at token start, with `__global__` at
 * token global, recorded last: a `static` kernel loses `static` and goes
 * into the unit's namespace, which opens here; *name is its name's token
 * then, else (size_t)-1. */
cuemu_status cuemu__static_kernel_open(cuemu_rewriter *rw, size_t start,
                                       size_t global, size_t *name);
/* Closes the namespace after the declaration's end (token end, its `;` or
 * its body's `}`) and brings the kernel named by token name back. */
cuemu_status cuemu__static_kernel_close(cuemu_rewriter *rw, size_t end,
                                        size_t name);

/* In the device pass of a translation unit: the definition of a kernel
 * template (recorded last, `__global__` at token `global`) gets, first in
 * its body, a record of its instance in the program's section of kernel
 * instances (see shims/cuda_builtins/cuemu_kernel_instances.h), so that
 * every instance the program holds is registered when it starts (for
 * launches through a pointer and cudaFuncGetAttributes, with the
 * instance's __launch_bounds__). Unnamed template parameters are given
 * names so that the body can name its own instance. `macro` is the
 * record's: CUEMU_KERNEL_INSTANCE, or in a module's one pass
 * CUEMU_MODULE_INSTANCE. */
cuemu_status cuemu__kernel_instance_record(cuemu_rewriter *rw, size_t global,
                                           const char *macro);

/* In the host pass: replaces the body of the kernel definition recorded
 * last by `;`, so that it is a declaration of the device pass's kernel. */
cuemu_status cuemu__kernel_body_drop(cuemu_rewriter *rw);

/* In a translation unit: declares the picker of the kernel recorded last
 * after the token `end` of its declaration (cuemu_kernel_picker.c). */
cuemu_status cuemu__kernel_picker(cuemu_rewriter *rw, size_t end);
/* A `__global__` at token i inside braces: refused in a class, unless the
 * member is a friend declaration (cuemu_member_kernel.c). */
cuemu_status cuemu__member_kernel_check(cuemu_rewriter *rw, size_t i);
/* The `__global__` at token global, of a declaration that starts at token
 * decl_start: refused where nvcc refuses its form (constexpr, an exception
 * specification, a deduced return type, an rvalue reference or
 * std::initializer_list parameter; cuemu_kernel_form.c). */
cuemu_status cuemu__kernel_form_check(cuemu_rewriter *rw, size_t decl_start,
                                      size_t global);
/* In a translation unit: after the using-declaration whose `using` is
 * token k, when it names a kernel with a picker (`using ns::k;`), the
 * using-declaration of that picker (cuemu_kernel_picker.c). */
cuemu_status cuemu__picker_using(cuemu_rewriter *rw, size_t k);

/* The template parameter that starts at token `from` of the head whose
 * `>` is token close: returns the `,` after it (or close), and sets
 * *decl_end to the end of its declaration (before a default argument) and
 * *pack when it is a pack. (cuemu_kernel_instance.c) */
size_t cuemu__template_param_end(const cuemu_rewriter *rw, size_t from,
                                 size_t close, size_t *decl_end, int *pack);
/* Identifiers that end a parameter's type, never its name
 * (cuemu_kernel_overload.c). */
int cuemu__type_word(const cuemu_rewriter *rw, size_t k);

/* The unqualified part of a kernel name ("k" of "a::b::k"). */
const char *cuemu__last_part(const char *name);
/* How many namespaces have kernels named `last` (unqualified). */
int cuemu__kernel_namespaces(const cuemu_rewriter *rw, const char *last);
/* The function that a launch whose callee is tokens [start, launch), its
 * last name at token `name`, calls to name its kernel: "::ns::cuemu_pick_k"
 * ("<48>" after it for a template-id), or NULL when there is none. */
char *cuemu__launch_pick(const cuemu_rewriter *rw, size_t start, size_t name,
                         size_t launch);

/* The `}` of the body of the kernel definition recorded last, or rw->n. */
size_t cuemu__kernel_body_end(const cuemu_rewriter *rw);

/* In the host pass (cuemu_host_stubs.c): wraps tokens [first, last] in
 * pragmas that silence -Wunused-parameter (a stub's); and replaces the
 * body (its `{` at token `brace`) of the namespace-scope function declared
 * from token decl_start, when it is __device__ only, by a stub that host
 * code cannot call. */
cuemu_status cuemu__host_quiet(cuemu_rewriter *rw, size_t first, size_t last);
cuemu_status cuemu__host_device_stub(cuemu_rewriter *rw, size_t decl_start,
                                     size_t brace);
/* The same for the body at `brace` of a definition without an execution
 * space (from token decl_start) of a function declared __device__ before:
 * nvcc's host compile takes it for a __device__ function (its declaration
 * already refuses host calls). */
cuemu_status cuemu__host_redeclared_stub(cuemu_rewriter *rw,
                                         size_t decl_start, size_t brace);
/* In the host pass: gives a namespace-scope declaration without a body of
 * a __device__-only function, tokens [decl_start, semicolon), the
 * attribute that cuemu__host_device_stub() gives its definition, which
 * clang++ requires on the first declaration. */
cuemu_status cuemu__host_device_decl(cuemu_rewriter *rw, size_t decl_start,
                                     size_t semicolon);
/* In the host pass: makes the body whose braces are tokens open and close
 * a system header's code for the host compiler (line markers with flag 3
 * around it, the lines and columns kept), so that it gives no warning. */
cuemu_status cuemu__host_unwarned(cuemu_rewriter *rw, size_t open,
                                  size_t close);
/* The same for a member function (or a friend) defined in a class body,
 * whose `__device__` is token `device`. */
cuemu_status cuemu__host_member_stub(cuemu_rewriter *rw, size_t device);
/* The `{` of the body of the member function (or friend) defined in a
 * class body whose `__device__` is token `device`, with its declaration's
 * first token in *decl_start; rw->n when `device` is not in such a
 * definition (a lambda's, a declaration without a body). */
size_t cuemu__rw_member_body(const cuemu_rewriter *rw, size_t device,
                             size_t *decl_start);

/* Two passes: the host pass's record (CUEMU_KERNEL_HOST_RECORD) first in
 * the body of the user's kernel template whose `__global__` is token
 * `global` (see cuemu_kernel_instances.h). */
cuemu_status cuemu__kernel_host_record(cuemu_rewriter *rw, size_t global);
/* In the host pass: replaces the body of the kernel template definition
 * recorded last (`__global__` at token `global`) by a record of its
 * instance (CUEMU_KERNEL_HOST_INSTANCE), so that the device code of the
 * host's view is never compiled, and an instance that cannot be the
 * device pass's (a lambda among its template arguments) stands for it. */
cuemu_status cuemu__kernel_host_instance(cuemu_rewriter *rw, size_t global,
                                         const char *forward);
/* The arguments of a call that forwards the parameters whose `(` is at
 * token open ("x, n, rest..."), naming in the declaration those that have
 * no name (cuemu_kernel_forward.c); NULL when out of memory or when one
 * cannot be forwarded (a C-style `...`). */
char *cuemu__forward_arguments(cuemu_rewriter *rw, size_t open);
/* Whether the last of tokens [from, to) of a parameter's declaration
 * (before any `[` or default argument) is its name. */
int cuemu__parameter_named(const cuemu_rewriter *rw, size_t from, size_t to);
/* The `>` of the template arguments at token k (a `<`) of a declaration
 * when they are its type's (`Foo<int> name`), rw->n when k starts none or
 * they end the declarator (a variable template's specialization). */
size_t cuemu__type_arguments(const cuemu_rewriter *rw, size_t k);
/* The `)` of `decltype(...)` (or `__typeof__`, `typeof`) at token k of a
 * declaration's type; rw->n when k starts none. */
size_t cuemu__type_operator(const cuemu_rewriter *rw, size_t k);

/* Appends the expression that names the kernel recorded last from inside
 * its body (its own instance, for a template: see cuemu_kernel_instance.c);
 * CUEMU_INVALID_VALUE when its declarator is not understood. */
cuemu_status cuemu__kernel_self_reference(cuemu_rewriter *rw,
                                          cuemu_strbuf *text);

/* Sets the visibility attributes of the declaration [decl_start, end)
 * (`__attribute__((__visibility__("hidden")))`, as CCCL puts on its
 * kernels) to `value` (a string literal: "\"default\""); returns 1 when
 * there was one (the declaration then needs no visibility of the
 * translation's own, which would conflict), 0 when there was none, -1
 * when out of memory. */
int cuemu__kernel_visibility(cuemu_rewriter *rw, size_t decl_start,
                             size_t end, const char *value);

#endif /* CUEMU_REWRITER_H */
