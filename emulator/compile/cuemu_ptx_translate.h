/*
 * cuemu_ptx_translate.h: what the parts of the inline-PTX translator share
 * (cuemu_ptx_translate.c reads the statements; the files named after an
 * instruction family translate that family): the instruction table's
 * entries, the PTX tokens, the translation's state, the operands and the
 * token helpers. Internal to cuemu-cc.
 */
#ifndef CUEMU_PTX_TRANSLATE_H
#define CUEMU_PTX_TRANSLATE_H

#include <stddef.h>
#include <string.h>

#include <cuemu/cuemu_status.h>

#include "cuemu_ptx.h"
#include "cuemu_rewriter.h"

/* ---- The instructions (cuemu_ptx_insns.c) ---------------------------------- */

enum {
  F_CC = 1,     /* passes the block's carry flag */
  F_SITE = 2,   /* passes __FILE__ and __LINE__ (rendezvous, traps) */
  F_PIPE = 4,   /* the first operand may be `d|p`: two destinations */
  F_LD = 8,     /* destinations, then one address */
  F_ST = 16,    /* an address, then sources */
  F_ATOM = 32,  /* a destination, an address, sources */
  F_NONE = 64,  /* operands are read and nothing is emitted */
  F_ADDR0 = 128 /* the first source is an address */
};

typedef struct insn {
  const char *op;
  const char *fn;
  unsigned flags;
  int ndst, min_src, max_src;
  const char *mods;
} insn;

/* The entry of the table for the instruction op (length len, with its
 * modifiers): the longest name of the table that op starts with, up to a
 * '.' or its end; *used is that name's length. NULL when none. */
const insn *cuemu__ptx_insn_find(const char *op, size_t len, size_t *used);

/* Whether `name` (length len) is in the space-separated list; *drop is set
 * when it is listed with a leading '-'. */
int cuemu__ptx_listed(const char *list, const char *name, size_t len, int *drop);

/* Whether m (length len) names one of PTX's types (`b32`, `f16x2`...). */
int cuemu__ptx_is_type(const char *m, size_t len);

/* Instructions of the PTX ISA that cuemu does not emulate, and the
 * directives that start a PTX template; both end with NULL. */
extern const char *const cuemu__ptx_unsupported[];
extern const char *const cuemu__ptx_directives[];

/* ---- PTX tokens and the translation's state --------------------------------- */

enum tkind { T_WORD, T_NUM, T_PUNCT, T_END };

typedef struct ptok {
  enum tkind kind;
  const char *s;
  size_t len;
  int line;
} ptok;

typedef struct decl {
  char *name;
  int depth;
  int id;
  int pred; /* a .pred register */
  int wide; /* a .b128 register */
  int shared; /* a .shared variable (cuemu_ptx_sN): the name is its address */
} decl;

typedef struct tr {
  const cuemu__ptx_asm *a;
  ptok *toks;
  size_t n, i;
  decl *decls;
  size_t ndecls, cap_decls;
  int next_id;
  int depth;
  cuemu_strbuf head;   /* declarations and labels */
  cuemu_strbuf labels; /* `__label__ a, b;` */
  cuemu_strbuf body;
  int have_labels;
  /* The carry flag between statements (cuemu_ptx_carry): cc_load when an
   * instruction may read it before one of this statement sets it, cc_store
   * when one sets it, cc_set once one has. */
  int cc_load, cc_store, cc_set;
  cuemu_ptx_result *out;
  const cuemu_ptx_scope *scope; /* the registers of the C++ block, or NULL */
  int neg_ok; /* the operands being read may be negated registers (vmad) */
  int sel_ok; /* ... or registers with a byte or half selector (%1.b2) */
  /* CUEMU_PTX_SPREAD_LINES: the body's code goes on to the line of each
   * statement; body_line is the line of the statement's text it is at. */
  int spread, body_line;
} tr;

#define fail(t, ...) cuemu__ptx_error((t)->out, __VA_ARGS__)

static inline const ptok *cur(const tr *t) { return &t->toks[t->i]; }

static inline int punct(const tr *t, char c) {
  return cur(t)->kind == T_PUNCT && cur(t)->s[0] == c;
}

static inline int tok_is(const ptok *k, const char *w) {
  return k->len == strlen(w) && !strncmp(k->s, w, k->len);
}

/* ---- Operands ------------------------------------------------------------- */

/* O_TADDR is a tensor's address, `[map, {c0, ...}]`: part 0 is the map's
 * address, parts 1 to 5 the coordinates. */
enum okind { O_VALUE, O_ADDR, O_VEC, O_PIPE, O_LABEL, O_TADDR };

typedef struct opnd {
  enum okind kind;
  int count;          /* parts of a vector, pipe or tensor address */
  char part[6][192];  /* C++ expressions */
  int lvalue[6];      /* the part is a register (or the sink) */
  int fdec[6];        /* the part is a decimal floating-point literal */
  int neg[6];         /* the part is a register written negated (-%1) */
  const char *sel[6]; /* a scalar video operand's selector (b0 ... h1), or NULL */
} opnd;

/* ---- Operands (cuemu_ptx_translate.c) -------------------------------------- */

/* A numeric literal as a C++ expression of its bits. */
cuemu_status cuemu__ptx_number(tr *t, const ptok *k, int negative, char *buf,
                               size_t cap, int *fdec);

/* One simple operand: [!|-] register, special register, number, or a label
 * name when labels are allowed. */
cuemu_status cuemu__ptx_read_simple(tr *t, opnd *o, int idx, int allow_label);

/* An operand: simple, `a|b`, `{a, b, ...}` or `[a]`, `[a+imm]`. */
cuemu_status cuemu__ptx_read_operand(tr *t, opnd *o, int allow_label);

/* A register or special register named by the word w (length len). */
int cuemu__ptx_resolve(const tr *t, const char *w, size_t len, char *buf,
                       size_t cap, int *lvalue);

/* The C++ label of the PTX label s (length len). */
void cuemu__ptx_label_name(cuemu_strbuf *sb, const char *s, size_t len);

/* ---- Matrix instructions (cuemu_ptx_matrix.c) ------------------------------ */

/* What is wrong with the qualifiers (mods) and operand vectors (ops) of
 * ldmatrix or mma.sync (in), or NULL. */
const char *cuemu__ptx_matrix_form(const insn *in, const char *mods, const opnd *ops);

/* wgmma.mma_async (op, of the statement's line) and setmaxnreg, their
 * operands up to the `;` read from t. */
cuemu_status cuemu__ptx_wgmma_instruction(tr *t, const char *op, int line);
cuemu_status cuemu__ptx_setmaxnreg_instruction(tr *t, const char *op, int line);

/* ---- Tensor copies (cuemu_ptx_tensor.c) ------------------------------------ */

/* A tensor copy, reduction or bulk prefetch (op, of the statement's line),
 * its operands up to the `;` read from t. */
cuemu_status cuemu__ptx_tensor_instruction(tr *t, const char *op, int line);

/* ---- Instructions (cuemu_ptx_instruction.c) -------------------------------- */

/* One instruction, its guard already emitted: its code appended to t->body. */
cuemu_status cuemu__ptx_instruction(tr *t);

/* The parts of the operands ops[0, nops) as arguments, separated by
 * commas; a decimal floating-point literal as a value of ftype. */
void cuemu__ptx_emit_args(cuemu_strbuf *sb, const opnd *ops, int nops, const char *ftype);

/* ---- Video instructions (cuemu_ptx_video.c) -------------------------------- */

/* Whether fn is a scalar video instruction's, whose a and b may select a
 * byte or half of their registers. */
int cuemu__ptx_is_scalar_video(const char *fn);

/* The template arguments of the negated registers (vmad's a, b and c) and
 * the byte or half selectors among the operands ops[0, nops) of in (spelled
 * op, of the statement's line), appended to targs; *nmods counts them with
 * the modifiers before. CUEMU_COMPILE for one that the operand cannot take. */
cuemu_status cuemu__ptx_video_modifiers(tr *t, const insn *in, const char *op, const opnd *ops,
                                        int nops, cuemu_strbuf *targs, size_t *nmods, int line);

#endif /* CUEMU_PTX_TRANSLATE_H */
