/*
 * cuemu_ptx_matrix.c: the matrix instructions of the inline-PTX translator
 * (see cuemu_ptx_translate.h): the checks of the qualifiers and operand
 * vectors of ldmatrix and mma.sync, and the translation of the warpgroup's
 * wgmma.mma_async and setmaxnreg.
 */
#include "cuemu_ptx_translate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether a qualifier list (".a.b.c") holds name, and how often. */
static int count_mod(const char *mods, const char *name) {
  size_t len = strlen(name);
  int n = 0;
  for (const char *p = mods; (p = strchr(p, '.')) != NULL;) {
    size_t l = strcspn(++p, ".");
    n += l == len && !strncmp(p, name, len);
    p += l;
  }
  return n;
}

/* What is wrong with the qualifiers (ptxas takes them in any order, but
 * each once) and operand vectors of ldmatrix or mma.sync (mods: the
 * qualifiers after the instruction's name), or NULL: ldmatrix needs .m8n8,
 * one of .x1, .x2, .x4, .b16 and a braced destination of that many
 * registers; mma.sync one shape, the layouts .row then .col, four types
 * (D, A, B, C) with B's that of A and .bf16 only with .f32 accumulators,
 * and vectors of the sizes the shape and types give. */
const char *cuemu__ptx_matrix_form(const insn *in, const char *mods, const opnd *ops) {
  static const char *const once[] = {"m8n8", "x1", "x2", "x4", "trans", "shared",
                                     "shared::cta", "b16", "m16n8k16", "m16n8k8",
                                     "m16n8k32", "m8n8k16", "row", "col", "satfinite", NULL};
  const char *types[4], *p;
  int k, ntypes = 0, first_layout = 0;
  for (k = 0; once[k]; k++)
    if (count_mod(mods, once[k]) > 1) return "repeats a qualifier";
  if (!strcmp(in->fn, "ldmatrix") || !strcmp(in->fn, "__cuemu_stmatrix")) {
    /* stmatrix: the same qualifiers, and a braced source. */
    const int store = !strcmp(in->fn, "__cuemu_stmatrix");
    int n = count_mod(mods, "x1") + 2 * count_mod(mods, "x2") + 4 * count_mod(mods, "x4");
    if (!count_mod(mods, "m8n8")) return "needs the shape .m8n8";
    if (count_mod(mods, "shared") + count_mod(mods, "shared::cta") > 1)
      return "repeats a state space";
    if (n != 1 && n != 2 && n != 4) return "needs one of .x1, .x2, .x4";
    if (!count_mod(mods, "b16")) return "needs the type .b16";
    if (ops[store].kind != O_VEC || ops[store].count != n)
      return store ? "needs a braced source of as many registers as .x1, .x2 or .x4 says"
                   : "needs a braced destination of as many registers as .x1, .x2 or .x4 says";
    return NULL;
  }
  if (count_mod(mods, "m16n8k16") + count_mod(mods, "m16n8k8") + count_mod(mods, "m16n8k32") +
          count_mod(mods, "m8n8k16") != 1)
    return "needs one shape, .m16n8k16, .m16n8k8, .m16n8k32 or .m8n8k16";
  for (p = mods; (p = strchr(p, '.')) != NULL;) {
    size_t l = strcspn(++p, ".");
    if (!first_layout && l == 3 && (!strncmp(p, "row", 3) || !strncmp(p, "col", 3)))
      first_layout = *p;
    else if (cuemu__ptx_is_type(p, l) && ntypes < 4)
      types[ntypes++] = p;
    else if (cuemu__ptx_is_type(p, l))
      return "needs four types (D, A, B, C)";
    p += l;
  }
  if (first_layout != 'r' || !count_mod(mods, "col"))
    return "needs the layouts .row.col (the only ones of these shapes)";
  if (ntypes != 4) return "needs four types (D, A, B, C)";
  if (!strncmp(types[1], "s8", 2) || !strncmp(types[1], "u8", 2)) {
    /* The integer products: .s8/.u8 inputs (of either signedness each),
     * .s32 accumulators, shapes k16 and k32, and Turing's m8n8k16 (A, B
     * one register, C and D two). */
    const int k32 = count_mod(mods, "m16n8k32"), m8 = count_mod(mods, "m8n8k16");
    const int want[4] = {m8 ? 2 : 4, m8 ? 1 : k32 ? 4 : 2, m8 ? 1 : k32 ? 2 : 1, m8 ? 2 : 4};
    if (count_mod(mods, "m16n8k8"))
      return "takes .s8 and .u8 inputs in the shapes .m16n8k16, .m16n8k32 and .m8n8k16";
    if ((strncmp(types[2], "s8", 2) && strncmp(types[2], "u8", 2)) ||
        strncmp(types[0], "s32", 3) || strncmp(types[3], "s32", 3))
      return "needs .s8 or .u8 inputs with .s32 accumulators";
    for (k = 0; k < 4; k++)
      if (ops[k].kind != O_VEC || ops[k].count != want[k])
        return "has operand vectors of the wrong sizes for its shape and types";
    return NULL;
  }
  if (count_mod(mods, "m16n8k32")) return "takes the shape .m16n8k32 only with .s8 or .u8 inputs";
  if (count_mod(mods, "m8n8k16")) return "takes the shape .m8n8k16 only with .s8 or .u8 inputs";
  if (!strncmp(types[1], "tf32", 4) || !strncmp(types[2], "tf32", 4)) {
    /* .tf32 inputs: .m16n8k8 with .f32 accumulators (A 4 registers, B 2). */
    if (!count_mod(mods, "m16n8k8")) return "takes .tf32 inputs in the shape .m16n8k8";
    if (strncmp(types[1], "tf32", 4) || strncmp(types[2], "tf32", 4)) return "needs B of A's type";
    if (strncmp(types[0], "f32", 3) || strncmp(types[3], "f32", 3))
      return "takes .tf32 inputs only with .f32 accumulators";
    for (k = 0; k < 4; k++)
      if (ops[k].kind != O_VEC || ops[k].count != (k == 2 ? 2 : 4))
        return "has operand vectors of the wrong sizes for its shape and types";
    return NULL;
  }
  if (count_mod(mods, "satfinite")) return "takes .satfinite only with integer inputs";
  for (k = 0; k < 4; k++) types[k] = !strncmp(types[k], "f32", 3) ? "f32"
                                     : !strncmp(types[k], "bf16", 4) ? "bf16" : "f16";
  if (strcmp(types[1], types[2])) return "needs B of A's type";
  if (!strcmp(types[1], "bf16") && (strcmp(types[0], "f32") || strcmp(types[3], "f32")))
    return "takes .bf16 inputs only with .f32 accumulators";
  if (!strcmp(types[0], "bf16") || !strcmp(types[3], "bf16") || !strcmp(types[1], "f32"))
    return "needs .f16 or .bf16 inputs and .f16 or .f32 accumulators";
  {
    const int k16 = count_mod(mods, "m16n8k16");
    const int want[4] = {!strcmp(types[0], "f32") ? 4 : 2, k16 ? 4 : 2, k16 ? 2 : 1,
                         !strcmp(types[3], "f32") ? 4 : 2};
    for (k = 0; k < 4; k++)
      if (ops[k].kind != O_VEC || ops[k].count != want[k])
        return "has operand vectors of the wrong sizes for its shape and types";
  }
  return NULL;
}

/* ---- Warpgroup matrix products ----------------------------------------------
 *
 * wgmma.mma_async.sync.aligned.m64nNkK{.satfinite}.dtype.atype.btype
 * (cuemu_ptx_wgmma.h): D's braced registers (up to 128, more than the
 * operand vectors of the other instructions hold), A's descriptor or its
 * four registers, B's descriptor, scale-d, and by type the immediates
 * imm-scale-a, imm-scale-b (not of the integer types) and imm-trans-a,
 * imm-trans-b (of .f16 and .bf16 only; imm-trans-a not with A in
 * registers). Forms that ptxas refuses are refused here with the reason.
 * setmaxnreg, a hint of the registers a warpgroup needs, emits nothing. */

typedef struct wgmma_form {
  int n, k, sat;
  const char *d, *a, *b; /* the types' names, as cuemu_ptx_wgmma.h spells them */
  const char *unknown;   /* a qualifier that wgmma.mma_async does not have */
  size_t unknown_len;
} wgmma_form;

/* What is wrong with the qualifiers of wgmma.mma_async (mods: those after
 * the name), or NULL with the form filled in. */
static const char *wgmma_qualifiers(const char *mods, wgmma_form *f) {
  static const char *const types[] = {"f16", "bf16", "tf32", "e4m3", "e5m2", "s8", "u8", "f32",
                                      "s32", NULL};
  const char *named[3] = {NULL, NULL, NULL};
  int ntypes = 0, sync = 0, aligned = 0, shape = 0;
  memset(f, 0, sizeof *f);
  for (const char *p = mods; *p == '.';) {
    size_t l = strcspn(++p, ".");
    int k, known = 0;
    if (l == 4 && !strncmp(p, "sync", 4)) known = ++sync;
    else if (l == 7 && !strncmp(p, "aligned", 7)) known = ++aligned;
    else if (l == 9 && !strncmp(p, "satfinite", 9)) known = ++f->sat;
    else if (l > 3 && p[0] == 'm' && !strncmp(p, "m64n", 4)) {
      char *end;
      f->n = (int)strtol(p + 4, &end, 10);
      if (*end != 'k') return "needs a shape .m64nNkK";
      f->k = (int)strtol(end + 1, &end, 10);
      if (end != p + l) return "needs a shape .m64nNkK";
      known = ++shape;
    } else {
      for (k = 0; types[k]; k++)
        if (strlen(types[k]) == l && !strncmp(p, types[k], l)) {
          if (ntypes == 3) return "needs three types (D, A, B)";
          named[ntypes++] = types[k];
          known = 1;
        }
    }
    if (!known && l == 2 && !strncmp(p, "sp", 2)) return "(sparse) is not emulated";
    if (!known) {
      f->unknown = p;
      f->unknown_len = l;
      return "";
    }
    p += l;
  }
  if (sync != 1 || aligned != 1) return "needs .sync.aligned, once each";
  if (shape != 1) return "needs one shape .m64nNkK";
  if (ntypes != 3) return "needs three types (D, A, B)";
  if (f->sat > 1) return "repeats .satfinite";
  f->d = named[0];
  f->a = named[1];
  f->b = named[2];
  if (f->n < 8 || f->n > 256 || f->n % 8) return "has N outside 8 to 256 in steps of 8";
  if (!strcmp(f->a, "s8") || !strcmp(f->a, "u8")) {
    if ((strcmp(f->b, "s8") && strcmp(f->b, "u8")) || strcmp(f->d, "s32"))
      return "needs .s8 or .u8 inputs with an .s32 accumulator";
    if (f->k != 32) return "takes .s8 and .u8 inputs with K 32";
    if (f->n > 32 && f->n % 16) return "takes .s8 and .u8 inputs with N 8, 16, 24, 32 or a multiple of 16";
    return NULL;
  }
  if (f->sat) return "takes .satfinite only with .s8 or .u8 inputs";
  if (!strcmp(f->d, "s32") || !strcmp(f->d, "bf16") || !strcmp(f->d, "tf32") ||
      !strcmp(f->a, "f32") || !strcmp(f->a, "s32") || !strcmp(f->d, "e4m3") || !strcmp(f->d, "e5m2"))
    return "needs an .f16 or .f32 accumulator for floating-point inputs";
  if (!strcmp(f->a, "e4m3") || !strcmp(f->a, "e5m2")) {
    if (strcmp(f->b, "e4m3") && strcmp(f->b, "e5m2")) return "needs B of an FP8 type with A's";
    return f->k == 32 ? NULL : "takes .e4m3 and .e5m2 inputs with K 32";
  }
  if (strcmp(f->a, f->b)) return "needs B of A's type";
  if (!strcmp(f->a, "tf32")) {
    if (strcmp(f->d, "f32")) return "takes .tf32 inputs only with an .f32 accumulator";
    return f->k == 8 ? NULL : "takes .tf32 inputs with K 8";
  }
  if (!strcmp(f->a, "bf16") && strcmp(f->d, "f32")) return "takes .bf16 inputs only with an .f32 accumulator";
  return f->k == 16 ? NULL : "takes .f16 and .bf16 inputs with K 16";
}

/* Whether an operand is the literal `want` (a number as cuemu__ptx_number() writes it). */
static int literal_is(const opnd *o, long long want) {
  char buf[32];
  snprintf(buf, sizeof buf, "0x%llxULL", (unsigned long long)want);
  return !strcmp(o->part[0], buf);
}

cuemu_status cuemu__ptx_wgmma_instruction(tr *t, const char *op, int line) {
  const size_t used = strlen("wgmma.mma_async");
  wgmma_form f;
  cuemu_strbuf dregs = {0};
  opnd one, ops[8];
  int nd = 0, nops = 0, k, regs_a, want;
  cuemu_status st = CUEMU_SUCCESS;
  const char *wrong = wgmma_qualifiers(op + used, &f);
  if (wrong && f.unknown)
    return fail(t, line, "inline PTX: unsupported modifier .%.*s of wgmma.mma_async",
                (int)f.unknown_len, f.unknown);
  if (wrong) return fail(t, line, "inline PTX: %s %s", op, wrong);
  /* D: a braced list of registers. */
  if (!punct(t, '{')) return fail(t, line, "inline PTX: %s needs D's registers in braces", op);
  t->i++;
  cuemu__sb_add(&dregs, "", 0);
  for (;;) {
    memset(&one, 0, sizeof one);
    st = cuemu__ptx_read_simple(t, &one, 0, 0);
    if (st != CUEMU_SUCCESS) break;
    if (!one.lvalue[0]) {
      st = fail(t, line, "inline PTX: %s has a D that is not a register", op);
      break;
    }
    cuemu__sb_str(&dregs, nd++ ? ", &" : "&");
    cuemu__sb_str(&dregs, one.part[0]);
    if (punct(t, '}')) break;
    if (!punct(t, ',')) {
      st = fail(t, cur(t)->line, "inline PTX: expected , or } in a vector");
      break;
    }
    t->i++;
  }
  if (st == CUEMU_SUCCESS) {
    t->i++;
    while (!punct(t, ';') && st == CUEMU_SUCCESS) {
      if (!punct(t, ',') || nops == 8) {
        st = fail(t, line, "inline PTX: wrong operands for %s", op);
        break;
      }
      t->i++;
      st = cuemu__ptx_read_operand(t, &ops[nops++], 0);
    }
  }
  if (st != CUEMU_SUCCESS) {
    free(dregs.data);
    return st;
  }
  t->i++;
  /* The operands the types and the form of A give. */
  regs_a = nops > 0 && ops[0].kind == O_VEC;
  want = 3 + (strcmp(f.d, "s32") ? 2 : 0) +
         (!strcmp(f.a, "f16") || !strcmp(f.a, "bf16") ? (regs_a ? 1 : 2) : 0);
  wrong = NULL;
  if (nd != (!strcmp(f.d, "f16") ? f.n / 4 : f.n / 2))
    wrong = "has a D of the wrong size for its shape and types";
  else if (nops != want)
    wrong = "has the wrong number of operands for its types and form";
  else if (regs_a && ops[0].count != 4)
    wrong = "needs A's four registers in braces";
  for (k = regs_a; k < nops && !wrong; k++)
    if (ops[k].kind != O_VALUE) wrong = "needs a descriptor, scale-d and immediates after A";
  for (k = 3; k < nops && !wrong; k++) {
    const int trans = k >= 5;
    if (ops[k].lvalue[0]) wrong = "takes imm-scale and imm-trans as immediates";
    else if (!strncmp(ops[k].part[0], "0x", 2) &&
             !(trans ? literal_is(&ops[k], 0) || literal_is(&ops[k], 1)
                     : literal_is(&ops[k], 1) || literal_is(&ops[k], -1)))
      wrong = trans ? "takes imm-trans 0 or 1" : "takes imm-scale 1 or -1";
  }
  if (wrong) {
    free(dregs.data);
    return fail(t, line, "inline PTX: %s %s", op, wrong);
  }
  cuemu__sb_str(&t->body, "{ cuemu_p::reg *const cuemu_ptx_wd[] = {");
  cuemu__sb_add(&t->body, dregs.data, dregs.length);
  free(dregs.data);
  cuemu__sb_str(&t->body, "}; ");
  if (regs_a) {
    cuemu__sb_str(&t->body, "const cuemu_p::reg cuemu_ptx_wa[4] = {");
    cuemu__ptx_emit_args(&t->body, &ops[0], 1, "cuemu_p::u32");
    cuemu__sb_str(&t->body, "}; ");
  }
  {
    char head[160];
    snprintf(head, sizeof head,
             "cuemu_p::__cuemu_wgmma<%d, cuemu_p::__cuemu_wg_%s, cuemu_p::__cuemu_wg_%s, "
             "cuemu_p::__cuemu_wg_%s, %s>(cuemu_ptx_wd, ",
             f.n, f.d, f.a, f.b, f.sat ? "true" : "false");
    cuemu__sb_str(&t->body, head);
  }
  cuemu__sb_str(&t->body, regs_a ? "0ULL, cuemu_ptx_wa, " : "");
  if (!regs_a) {
    cuemu__sb_str(&t->body, ops[0].part[0]);
    cuemu__sb_str(&t->body, ", nullptr, ");
  }
  cuemu__sb_str(&t->body, ops[1].part[0]);
  cuemu__sb_str(&t->body, ", (");
  cuemu__sb_str(&t->body, ops[2].part[0]);
  cuemu__sb_str(&t->body, ") != 0");
  /* imm-scale-a, imm-scale-b, imm-trans-a, imm-trans-b (1, 1, 0, 0 when
   * the form has none). */
  for (k = 0; k < 4; k++) {
    int index = 3 + k;
    cuemu__sb_str(&t->body, ", ");
    if (regs_a && k == 2) {
      cuemu__sb_str(&t->body, "0ULL");
      continue;
    }
    if (regs_a && k == 3) index = 5;
    cuemu__sb_str(&t->body, index < nops ? ops[index].part[0] : k < 2 ? "1ULL" : "0ULL");
  }
  cuemu__sb_str(&t->body, ", __FILE__, __LINE__); } ");
  return CUEMU_SUCCESS;
}

/* setmaxnreg.{inc,dec}.sync.aligned.u32 imm: the count is checked as ptxas
 * checks it (a multiple of 8 from 24 to 256); nothing is emitted. */
cuemu_status cuemu__ptx_setmaxnreg_instruction(tr *t, const char *op, int line) {
  opnd o;
  cuemu_status st;
  unsigned long long v;
  if (strcmp(op, "setmaxnreg.inc.sync.aligned.u32") && strcmp(op, "setmaxnreg.dec.sync.aligned.u32"))
    return fail(t, line, "inline PTX: unsupported instruction %s (setmaxnreg.inc or .dec, "
                ".sync.aligned.u32)", op);
  st = cuemu__ptx_read_operand(t, &o, 0);
  if (st != CUEMU_SUCCESS) return st;
  if (!punct(t, ';')) return fail(t, line, "inline PTX: expected ; after %s", op);
  t->i++;
  if (o.kind != O_VALUE || o.lvalue[0])
    return fail(t, line, "inline PTX: %s takes an immediate register count", op);
  if (!strncmp(o.part[0], "0x", 2)) {
    v = strtoull(o.part[0], NULL, 16);
    if (v < 24 || v > 256 || v % 8)
      return fail(t, line, "inline PTX: %s takes a register count that is a multiple of 8 from 24 "
                  "to 256, not %llu", op, v);
  }
  return CUEMU_SUCCESS;
}
