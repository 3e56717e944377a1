/*
 * cuemu_ptx.h: the inline-PTX translator of cuemu-cc.
 *
 * cuemu__ptx_translate() takes the text of one GNU extended asm statement
 * (`asm`, `__asm` or `__asm__`, optionally `volatile`/`__volatile__`/
 * `inline`, its template string literals, output operands, input operands
 * and clobbers) and, when the template is PTX, returns C++ code that does
 * what the PTX does: the operands are bound as PTX binds them (`%0..%n`,
 * outputs first, then inputs; `%[name]`; `%%` for `%`), every PTX register
 * is a 64-bit variable of the code, and every instruction becomes a call
 * of an emulation function of the shims (shims/cuda_builtins/cuemu_ptx.h,
 * namespace ::cuemu::ptx). The code is one line without newlines (but with
 * CUEMU_PTX_SPREAD_LINES, below); a caller that must keep the line count
 * emits the newlines of the statement it replaces after it (as
 * cuemu_rewrite.c's edits do).
 *
 * A template is PTX when its first instruction is a PTX instruction (its
 * opcode has a `.modifier` and a PTX base, or it is trap, exit, ret,
 * brkpt or bra; PTX comments before it are skipped), or it starts with
 * `{`, a guard `@p`, a PTX directive (.reg, .shared, .param, .pragma) or
 * a label (`$loop:`, not a host assembler's numeric `1:`). Other
 * templates (x86 `rdtsc` in host code, for example) are left alone:
 * is_ptx is 0 and no code is made.
 *
 * docs/ptx.md lists the instructions and modifiers supported. Any other
 * instruction or modifier is an error naming it.
 *
 * Internal to cuemu-cc. Host code, any thread (no global state).
 */
#ifndef CUEMU_PTX_H
#define CUEMU_PTX_H

#include <stddef.h>

#include <cuemu/cuemu_status.h>

typedef struct cuemu_ptx_result {
  int is_ptx;          /* the template is PTX (else nothing else is set) */
  char *code;          /* the C++ block, NUL-terminated; free() it */
  size_t length;
  int error_line;      /* on CUEMU_COMPILE: the line of the error, 1 being
                          the statement's first line */
  char message[256];   /* on CUEMU_COMPILE: what is wrong, without a place */
  char **declared;     /* with CUEMU_PTX_BLOCK_STATEMENT: the registers that
                          the statement declares for the rest of its C++
                          block (see cuemu__ptx_translate_in); free() each
                          and the array */
  size_t declared_count;
} cuemu_ptx_result;

/* With this flag, a PTX statement that cannot be translated (an
 * unsupported instruction, say) becomes code that ends the launch running
 * it with the message (ASSERT status) instead of a compile error: for
 * headers such as CCCL's, whose every asm is seen but few run. */
#define CUEMU_PTX_DEFER_UNSUPPORTED 1u

/* With this flag, the statement stands alone in a C++ block (after `;`,
 * `{` or `}`, and ends with `;`). nvcc pastes every asm statement into the
 * function's PTX, so a register that a statement declares outside braces is
 * the function's, and the statements after it may use it (the inline-PTX
 * guide's "namespace conflicts"), and so is a label, which the branches of
 * other statements may reach. A statement made of such `.reg` declarations
 * only becomes C++ declarations of the block (variables cuemu_ptx_f_NAME),
 * and out->declared names them; one made of labels only becomes C++ labels
 * of the function. */
#define CUEMU_PTX_BLOCK_STATEMENT 2u

/* With this flag, each instruction's code starts on the line of the
 * statement's text that holds the instruction: the code has a newline where
 * the text has the newline before an instruction's line (and no more
 * newlines than the text), so that a caller that puts the code's lines in
 * place of the text's lines (cuemu_ptx_rewrite.c) keeps every instruction at
 * its own line, and a report or a trap in it names that line: a PTX module's
 * body is one statement whose lines are the PTX text's (cuemu_ptx_module.c).
 * For a statement whose text has no backslash-newline, which a macro's
 * definition would need. */
#define CUEMU_PTX_SPREAD_LINES 4u

/* The registers that earlier statements declared for the C++ block of the
 * statement being translated (their out->declared), innermost last. */
typedef struct cuemu_ptx_scope {
  const char *const *names;
  size_t count;
} cuemu_ptx_scope;

/* Translates the asm statement text[0, length) (from the `asm` keyword to
 * its closing `)`, or to its `;`, in which case the code ends with `;`
 * too). The code is a statement expression `({ ... })`, so that it may
 * stand in a macro's argument where the asm statement stood. On success
 * *out owns the code (NULL when the template is not PTX). Returns
 * CUEMU_SUCCESS, CUEMU_COMPILE (malformed statement, unsupported
 * instruction, modifier, operand or constraint: out->message and
 * out->error_line say what and where; never with
 * CUEMU_PTX_DEFER_UNSUPPORTED) or CUEMU_OUT_OF_MEMORY. */
cuemu_status cuemu__ptx_translate(const char *text, size_t length,
                                  unsigned flags, cuemu_ptx_result *out);

/* The same, where the template may also name the registers of scope (or
 * NULL): a register the statement does not declare itself is looked up
 * there before the special registers. */
cuemu_status cuemu__ptx_translate_in(const char *text, size_t length,
                                     unsigned flags, const cuemu_ptx_scope *scope,
                                     cuemu_ptx_result *out);

/* ---- Between the two halves of the translator ---------------------------- */

/* One operand of the asm statement. */
typedef struct cuemu__ptx_operand {
  char *name;          /* the symbolic [name], or NULL */
  char constraint;     /* r l h f d n q (= + & removed; nvcc has no
                          matching constraints such as "0") */
  int output;          /* in the output list */
  int read_write;      /* "+": an output that is read too */
  char *expr;          /* the C++ expression, as written */
} cuemu__ptx_operand;

/* The parsed statement: the template with operands substituted and each
 * character's line. */
typedef struct cuemu__ptx_asm {
  int is_ptx;          /* the template is PTX; nothing else is set if not */
  char *ptx;           /* the template, `%N`/`%[x]` as `$N`, `%%` as `%` */
  int *lines;          /* the line (1-based in the statement) of each char */
  size_t length;
  cuemu__ptx_operand *operands;
  int count;           /* outputs first, then inputs */
  int outputs;
  int memory_clobber;  /* "memory" is among the clobbers */
} cuemu__ptx_asm;

/* Parses an asm statement (cuemu_ptx_parse.c); its operands only when the
 * template is PTX. CUEMU_COMPILE with out->message and out->error_line set
 * on a malformed statement. */
cuemu_status cuemu__ptx_parse(const char *text, size_t length,
                              cuemu__ptx_asm *a, cuemu_ptx_result *out);
void cuemu__ptx_asm_free(cuemu__ptx_asm *a);

/* Formats the message of out, sets its line and returns CUEMU_COMPILE. */
cuemu_status cuemu__ptx_error(cuemu_ptx_result *out, int line, const char *fmt,
                              ...) __attribute__((format(printf, 3, 4)));

/* Non-zero when the template text[0, length) is PTX (see above). */
int cuemu__ptx_template_is_ptx(const char *text, size_t length);

/* ---- Modules of NVIDIA PTX (cuemu_ptx_module.c) --------------------------- */

/* Non-zero when text[0, length) is NVIDIA PTX text: its first directive,
 * after comments, is `.version`. */
int cuemu__ptx_module_is(const char *text, size_t length);

/* Translates the PTX module text[0, length) into CUDA C++ that cuemu
 * compiles as a module (NVRTC's device pass): out->code, whose `#line`
 * directives give the PTX's line numbers. CUEMU_COMPILE with out->message
 * and out->error_line (the PTX's line) for what it does not translate. */
cuemu_status cuemu__ptx_module_source(const char *text, size_t length,
                                      cuemu_ptx_result *out);

#endif /* CUEMU_PTX_H */
