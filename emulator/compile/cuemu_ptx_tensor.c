/*
 * cuemu_ptx_tensor.c: the tensor copies of the inline-PTX translator (see
 * cuemu_ptx_translate.h): cp.async.bulk.tensor, the bulk reductions and
 * the bulk prefetches, whose modifiers are read here rather than from the
 * instruction table.
 */
#include "cuemu_ptx_translate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Tensor copies ----------------------------------------------------------
 *
 * cp.async.bulk.tensor, cp.reduce.async.bulk.tensor, cp.reduce.async.bulk
 * and the bulk prefetches (cuemu_ptx_tensor.h): their modifiers say the
 * direction, the dimension, the load mode, the completion and the options
 * that add operands (multicast's CTA mask, a cache policy), so they are
 * read here rather than from the table. */

typedef struct tensor_form {
  int dims;                      /* 1..5, or 0 for the non-tensor forms */
  int to_global, to_shared;      /* the direction, from the state spaces */
  int mbar, group, multicast, hint, prefetch;
  char redop[8], redtype[8];     /* a reduction's operation and type */
} tensor_form;

static cuemu_status tensor_modifiers(tr *t, const char *op, size_t used, tensor_form *f, int line) {
  const char *m = op + used;
  static const char *const reds[] = {"add", "min", "max", "inc", "dec", "and", "or", "xor"};
  static const char *const types[] = {"u32", "s32", "u64", "s64", "b32",
                                      "b64", "f32", "f64", "f16", "bf16"};
  while (*m == '.') {
    size_t l = strcspn(++m, ".");
    char seg[48];
    size_t k;
    int known = 0;
    snprintf(seg, sizeof seg, "%.*s", (int)(l < 47 ? l : 47), m);
    m += l;
    if (l == 2 && seg[0] >= '1' && seg[0] <= '5' && seg[1] == 'd') {
      f->dims = seg[0] - '0';
      continue;
    }
    if (!strcmp(seg, "global")) {
      if (!f->to_shared) f->to_global = 1;
      continue;
    }
    if (!strcmp(seg, "shared::cluster") || !strcmp(seg, "shared::cta")) {
      if (!f->to_global) f->to_shared = 1;
      continue;
    }
    if (!strcmp(seg, "tile") || !strcmp(seg, "L2")) continue;
    if (!strcmp(seg, "mbarrier::complete_tx::bytes")) { f->mbar = 1; continue; }
    if (!strcmp(seg, "bulk_group")) { f->group = 1; continue; }
    if (!strcmp(seg, "multicast::cluster")) { f->multicast = 1; continue; }
    if (!strcmp(seg, "L2::cache_hint")) { f->hint = 1; continue; }
    /* .add.noftz of .f16 and .bf16: no flush to zero, as emulated. */
    if (!strcmp(seg, "noftz")) continue;
    for (k = 0; k < sizeof reds / sizeof reds[0]; k++)
      if (!strcmp(seg, reds[k]) && !f->redop[0]) {
        snprintf(f->redop, sizeof f->redop, "%.7s", seg);
        known = 1;
      }
    for (k = 0; k < sizeof types / sizeof types[0]; k++)
      if (!strcmp(seg, types[k]) && !f->redtype[0]) {
        snprintf(f->redtype, sizeof f->redtype, "%.7s", seg);
        known = 1;
      }
    if (known) continue;
    if (!strncmp(seg, "im2col", 6) || !strncmp(seg, "tile::", 6) || !strncmp(seg, "cta_group", 9))
      return fail(t, line,
                  "inline PTX: unsupported instruction %s (of the tensor copies, the tile mode "
                  "of sm_90 is emulated: the im2col, gather and scatter modes and CTA groups "
                  "are not)", op);
    return fail(t, line, "inline PTX: unsupported modifier .%s of %.*s", seg, (int)used, op);
  }
  return CUEMU_SUCCESS;
}

/* Reads the operands of a tensor form up to its `;` into ops (at most 8). */
static cuemu_status tensor_operands(tr *t, opnd *ops, int *nops, const char *op) {
  *nops = 0;
  while (!punct(t, ';')) {
    cuemu_status st;
    if (cur(t)->kind == T_END) return fail(t, cur(t)->line, "inline PTX: expected ; after %s", op);
    if (*nops == 8) return fail(t, cur(t)->line, "inline PTX: too many operands for %s", op);
    st = cuemu__ptx_read_operand(t, &ops[(*nops)++], 0);
    if (st != CUEMU_SUCCESS) return st;
    if (!punct(t, ',') && !punct(t, ';'))
      return fail(t, cur(t)->line, "inline PTX: expected , or ; after an operand of %s", op);
    if (punct(t, ',')) t->i++;
  }
  t->i++;
  return CUEMU_SUCCESS;
}

/* The coordinates of a tensor address, as trailing arguments. */
static void tensor_coords(cuemu_strbuf *sb, const opnd *o) {
  int j;
  for (j = 1; j < o->count; j++) {
    cuemu__sb_str(sb, ", ");
    cuemu__sb_str(sb, o->part[j]);
  }
}

cuemu_status cuemu__ptx_tensor_instruction(tr *t, const char *op, int line) {
  tensor_form f;
  opnd ops[9];
  char head[48];
  int nops, want;
  size_t used;
  cuemu_status st;
  const int tensor = strstr(op, ".tensor") != NULL;
  const int reduce = !strncmp(op, "cp.reduce.", 10);
  memset(&f, 0, sizeof f);
  f.prefetch = !strncmp(op, "cp.async.bulk.prefetch", 22);
  used = f.prefetch ? (tensor ? strlen("cp.async.bulk.prefetch.tensor") : strlen("cp.async.bulk.prefetch"))
         : reduce   ? (tensor ? strlen("cp.reduce.async.bulk.tensor") : strlen("cp.reduce.async.bulk"))
         : tensor   ? strlen("cp.async.bulk.tensor")
                    : strlen("cp.async.bulk");
  st = tensor_modifiers(t, op, used, &f, line);
  if (st != CUEMU_SUCCESS) return st;
  st = tensor_operands(t, ops, &nops, op);
  if (st != CUEMU_SUCCESS) return st;
  if (f.hint) nops--; /* the cache policy: no effect */
  if (f.prefetch) {
    /* Prefetches to L2 change nothing here; their operands are checked. */
    if ((tensor && (nops != 1 || ops[0].kind != O_TADDR || ops[0].count != f.dims + 1)) ||
        (!tensor && (nops != 2 || ops[0].kind != O_ADDR)))
      return fail(t, line, "inline PTX: wrong operands for %s", op);
    return CUEMU_SUCCESS;
  }
  if (tensor && !f.dims) return fail(t, line, "inline PTX: %s needs a dimension (.1d to .5d)", op);
  if (f.to_shared && !f.mbar) return fail(t, line, "inline PTX: %s needs .mbarrier::complete_tx::bytes", op);
  if (f.to_global && !f.group) return fail(t, line, "inline PTX: %s needs .bulk_group", op);
  if ((!f.to_shared && !f.to_global) || (reduce && !f.redop[0]) || (!reduce && f.redop[0]) ||
      (f.multicast && !f.to_shared))
    return fail(t, line, "inline PTX: unsupported instruction %s", op);
  if (!tensor && !reduce) {
    /* cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
     * .multicast::cluster [dst], [src], size, [mbar], ctaMask */
    if (!f.multicast || f.redtype[0] || nops != 5 || ops[0].kind != O_ADDR ||
        ops[1].kind != O_ADDR || ops[2].kind != O_VALUE || ops[3].kind != O_ADDR ||
        ops[4].kind != O_VALUE)
      return fail(t, line, "inline PTX: wrong operands for %s", op);
    cuemu__sb_str(&t->body, "cuemu_p::__cuemu_bulk_g2s_multicast(");
    for (want = 0; want < 5; want++) {
      cuemu__sb_str(&t->body, ops[want].part[0]);
      cuemu__sb_str(&t->body, ", ");
    }
    cuemu__sb_str(&t->body, "__FILE__, __LINE__); ");
    return CUEMU_SUCCESS;
  }
  if (!tensor) {
    /* cp.reduce.async.bulk [dst], [src], size{, [mbar]}: a type is needed. */
    if (!f.redtype[0] || f.multicast)
      return fail(t, line, "inline PTX: unsupported instruction %s", op);
    want = f.to_shared ? 4 : 3;
    if (nops != want || ops[0].kind != O_ADDR || ops[1].kind != O_ADDR || ops[2].kind != O_VALUE ||
        (want == 4 && ops[3].kind != O_ADDR))
      return fail(t, line, "inline PTX: wrong operands for %s", op);
    cuemu__sb_str(&t->body, "cuemu_p::__cuemu_bulk_reduce<cuemu_p::m_");
    cuemu__sb_str(&t->body, f.redop);
    cuemu__sb_str(&t->body, ", cuemu_p::");
    cuemu__sb_str(&t->body, f.redtype);
    cuemu__sb_str(&t->body, ">(");
    cuemu__sb_str(&t->body, f.to_shared ? "cuemu_p::shared_at(" : "(");
    cuemu__sb_str(&t->body, ops[0].part[0]);
    cuemu__sb_str(&t->body, "), cuemu_p::shared_at(");
    cuemu__sb_str(&t->body, ops[1].part[0]);
    cuemu__sb_str(&t->body, "), ");
    cuemu__sb_str(&t->body, ops[2].part[0]);
    cuemu__sb_str(&t->body, ", ");
    cuemu__sb_str(&t->body, want == 4 ? ops[3].part[0] : "0");
    cuemu__sb_str(&t->body, ", __FILE__, __LINE__); ");
    return CUEMU_SUCCESS;
  }
  if (f.redtype[0]) return fail(t, line, "inline PTX: unsupported modifier .%s of %s", f.redtype, op);
  if (f.to_shared) {
    /* [dst], [map, {c...}], [mbar]{, ctaMask} */
    want = f.multicast ? 4 : 3;
    if (nops != want || ops[0].kind != O_ADDR || ops[1].kind != O_TADDR ||
        ops[1].count != f.dims + 1 || ops[2].kind != O_ADDR ||
        (f.multicast && ops[3].kind != O_VALUE))
      return fail(t, line, "inline PTX: wrong operands for %s", op);
    snprintf(head, sizeof head, "cuemu_p::__cuemu_tensor_g2s<%d>(", f.dims);
    cuemu__sb_str(&t->body, head);
    cuemu__sb_str(&t->body, ops[0].part[0]);
    cuemu__sb_str(&t->body, ", ");
    cuemu__sb_str(&t->body, ops[1].part[0]);
    cuemu__sb_str(&t->body, ", ");
    cuemu__sb_str(&t->body, ops[2].part[0]);
    cuemu__sb_str(&t->body, ", ");
    if (f.multicast) {
      cuemu__sb_str(&t->body, "((");
      cuemu__sb_str(&t->body, ops[3].part[0]);
      cuemu__sb_str(&t->body, ") & 0xffffULL)");
    } else {
      cuemu__sb_str(&t->body, "~0ULL");
    }
    cuemu__sb_str(&t->body, ", __FILE__, __LINE__");
    tensor_coords(&t->body, &ops[1]);
    cuemu__sb_str(&t->body, "); ");
    return CUEMU_SUCCESS;
  }
  /* [map, {c...}], [src] */
  if (nops != 2 || ops[0].kind != O_TADDR || ops[0].count != f.dims + 1 || ops[1].kind != O_ADDR)
    return fail(t, line, "inline PTX: wrong operands for %s", op);
  if (reduce) {
    cuemu__sb_str(&t->body, "cuemu_p::__cuemu_tensor_reduce<cuemu_p::m_");
    cuemu__sb_str(&t->body, f.redop);
    snprintf(head, sizeof head, ", %d>(", f.dims);
    cuemu__sb_str(&t->body, head);
  } else {
    snprintf(head, sizeof head, "cuemu_p::__cuemu_tensor_s2g<%d>(", f.dims);
    cuemu__sb_str(&t->body, head);
  }
  cuemu__sb_str(&t->body, ops[0].part[0]);
  cuemu__sb_str(&t->body, ", ");
  cuemu__sb_str(&t->body, ops[1].part[0]);
  cuemu__sb_str(&t->body, ", __FILE__, __LINE__");
  tensor_coords(&t->body, &ops[0]);
  cuemu__sb_str(&t->body, "); ");
  return CUEMU_SUCCESS;
}
