/*
 * cuemu_ptx_instruction.c: the emission of one instruction of an inline-PTX
 * statement (see cuemu_ptx_translate.h): its modifiers checked against the
 * instruction table and written as template arguments, its operands read
 * and checked, and the call of the shims' emulation function written (the
 * memory accesses and calls written here, the matrix and tensor families
 * handed to their files).
 */
#include "cuemu_ptx_translate.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cuemu__ptx_emit_args(cuemu_strbuf *sb, const opnd *ops, int nops,
                          const char *ftype) {
  int k, j, first = 1;
  for (k = 0; k < nops; k++)
    for (j = 0; j < ops[k].count; j++) {
      if (!first) cuemu__sb_str(sb, ", ");
      first = 0;
      if (ops[k].fdec[j] && ops[k].kind != O_ADDR) {
        cuemu__sb_str(sb, "cuemu_p::fimm<");
        cuemu__sb_str(sb, ftype);
        cuemu__sb_str(sb, ">(");
        cuemu__sb_str(sb, ops[k].part[j]);
        cuemu__sb_str(sb, ")");
      } else {
        cuemu__sb_str(sb, ops[k].part[j]);
      }
    }
}

/* Part j of operand o as an argument. */
static void emit_part(cuemu_strbuf *sb, const opnd *o, int j, const char *ftype) {
  opnd one = *o;
  one.count = 1;
  if (j != 0) {
    memcpy(one.part[0], o->part[j], sizeof one.part[0]);
    one.fdec[0] = o->fdec[j];
  }
  cuemu__ptx_emit_args(sb, &one, 1, ftype);
}

/* ld, st and cp.async: the plain accesses are written here, in the user's
 * statement, so that the checkers' instrumentation sees them at the user's
 * line (accesses made inside the shims are the shims' own bookkeeping to
 * them); ordered ones (.acquire, .relaxed, .release) are atomic operations
 * of the shims. Element i of a vector is at address + i * its size. */
static void memory_access(tr *t, const insn *in, const char *targs,
                          const opnd *ops, const char *ftype, int ordered) {
  cuemu_strbuf *sb = &t->body;
  const opnd *addr = (in->flags & F_LD) ? &ops[1] : &ops[0];
  const opnd *vals = (in->flags & F_LD) ? &ops[0] : &ops[1];
  int j;
  char index[48];
  if (!strcmp(in->fn, "cp_async")) {
    /* memcpy(dst, src, copied); the rest of cp-size is zeroed. */
    cuemu__sb_str(sb, "std::memcpy(reinterpret_cast<void *>(");
    emit_part(sb, &ops[0], 0, ftype);
    cuemu__sb_str(sb, "), reinterpret_cast<const void *>(");
    emit_part(sb, &ops[1], 0, ftype);
    cuemu__sb_str(sb, "), cuemu_p::cp_async_copied(");
    cuemu__ptx_emit_args(sb, &ops[2], ops[3].count ? 2 : 1, ftype);
    cuemu__sb_str(sb, ")); cuemu_p::cp_async_fill(");
    emit_part(sb, &ops[0], 0, ftype);
    cuemu__sb_str(sb, ", ");
    cuemu__ptx_emit_args(sb, &ops[2], ops[3].count ? 2 : 1, ftype);
    cuemu__sb_str(sb, "); ");
    return;
  }
  if (ordered && vals->count > 1) {
    /* A vector is one access of the whole (see ld_ordered_v). */
    cuemu__sb_str(sb, (in->flags & F_LD) ? "cuemu_p::ld_ordered_v<" : "cuemu_p::st_ordered_v<");
    cuemu__sb_str(sb, targs);
    cuemu__sb_str(sb, ">(");
    emit_part(sb, addr, 0, ftype);
    for (j = 0; j < vals->count; j++) {
      cuemu__sb_str(sb, ", ");
      emit_part(sb, vals, j, ftype);
    }
    cuemu__sb_str(sb, "); ");
    return;
  }
  for (j = 0; j < vals->count; j++) {
    snprintf(index, sizeof index, ", %d", j);
    if (ordered) {
      cuemu__sb_str(sb, (in->flags & F_LD) ? "cuemu_p::ld_ordered<" : "cuemu_p::st_ordered<");
      cuemu__sb_str(sb, targs);
      cuemu__sb_str(sb, ">(");
      if (in->flags & F_LD) {
        emit_part(sb, vals, j, ftype);
        cuemu__sb_str(sb, ", ");
      }
      emit_part(sb, addr, 0, ftype);
      cuemu__sb_str(sb, index);
      if (!(in->flags & F_LD)) {
        cuemu__sb_str(sb, ", ");
        emit_part(sb, vals, j, ftype);
      }
      cuemu__sb_str(sb, "); ");
    } else if (in->flags & F_LD) {
      cuemu__sb_str(sb, "cuemu_p::ld<");
      cuemu__sb_str(sb, targs);
      cuemu__sb_str(sb, ">(");
      emit_part(sb, vals, j, ftype);
      cuemu__sb_str(sb, ", *cuemu_p::at<");
      cuemu__sb_str(sb, targs);
      cuemu__sb_str(sb, ">(");
      emit_part(sb, addr, 0, ftype);
      cuemu__sb_str(sb, index);
      cuemu__sb_str(sb, ")); ");
    } else {
      cuemu__sb_str(sb, "*cuemu_p::at<");
      cuemu__sb_str(sb, targs);
      cuemu__sb_str(sb, ">(");
      emit_part(sb, addr, 0, ftype);
      cuemu__sb_str(sb, index);
      cuemu__sb_str(sb, ") = cuemu_p::st<");
      cuemu__sb_str(sb, targs);
      cuemu__sb_str(sb, ">(");
      emit_part(sb, vals, j, ftype);
      cuemu__sb_str(sb, "); ");
    }
  }
}

/* Whether an operand's C++ expression is a .pred register of the
 * statement (cuemu_ptx_vN of a declaration with .pred). */
static int is_pred_register(const tr *t, const char *part) {
  size_t k;
  for (k = 0; k < t->ndecls; k++) {
    char name[32];
    snprintf(name, sizeof name, "cuemu_ptx_v%d", t->decls[k].id);
    if (t->decls[k].pred && !strcmp(part, name)) return 1;
  }
  return 0;
}

/* Notes what instruction `in` (spelled `op`) does with the carry flag: the
 * addc, subc and madc forms read it, the .cc forms set it. A read after a
 * set in the same statement needs nothing from the statements before,
 * unless a branch may have skipped the set. */
static void carry_use(tr *t, const insn *in, const char *op) {
  const char *cc = strstr(op, ".cc");
  const int reads = !strcmp(in->fn, "addc") || !strcmp(in->fn, "subc") || !strcmp(in->fn, "madc");
  if (reads && (!t->cc_set || t->have_labels))
    t->cc_load = 1;
  if (cc && (cc[3] == '.' || cc[3] == '\0')) {
    t->cc_store = 1;
    t->cc_set = 1;
  }
}

/* One slot of a call: an operand of the statement (`$N`, the address of a
 * .param variable, how cuemu_ptx_module.c binds a call sequence's
 * arguments) as it is, or a register or immediate (PTX's other argument
 * forms, which a function with .reg parameters takes) copied into a
 * variable of the call, whose address is the slot; `copies` gets the
 * copies' declarations, `back` a result's copy back into its register. */
static cuemu_status call_slot(tr *t, int index, int is_return, cuemu_strbuf *slots,
                              cuemu_strbuf *copies, cuemu_strbuf *back, int line) {
  const ptok *k = cur(t);
  int operand = k->kind == T_WORD && k->s[0] == '$' && k->len > 1 &&
                isdigit((unsigned char)k->s[1]);
  char var[48];
  opnd o;
  memset(&o, 0, sizeof o);
  cuemu_status st = cuemu__ptx_read_simple(t, &o, 0, 0);
  if (st != CUEMU_SUCCESS) return st;
  cuemu__sb_str(slots, index ? ", " : "");
  if (operand) {
    cuemu__sb_str(slots, "(void *)(unsigned long long)(");
    cuemu__sb_str(slots, o.part[0]);
    cuemu__sb_str(slots, ")");
    return CUEMU_SUCCESS;
  }
  if (is_return && !o.lvalue[0])
    return fail(t, line, "inline PTX: a call's return is not a register");
  snprintf(var, sizeof var, "cuemu_ptx_call_%d", index);
  cuemu__sb_str(copies, "unsigned long long ");
  cuemu__sb_str(copies, var);
  cuemu__sb_str(copies, " = ");
  cuemu__sb_str(copies, is_return ? "0" : o.part[0]);
  cuemu__sb_str(copies, "; ");
  cuemu__sb_str(slots, "&");
  cuemu__sb_str(slots, var);
  if (is_return) {
    cuemu__sb_str(back, o.part[0]);
    cuemu__sb_str(back, " = ");
    cuemu__sb_str(back, var);
    cuemu__sb_str(back, "; ");
  }
  return CUEMU_SUCCESS;
}

/* `call{.uni} {(r),} f{, (a, b, ...)}{, proto};` whose target `f` is an
 * operand of the statement holding the address of a function that takes
 * the addresses of the return and parameter slots (`void f(void **slots)`,
 * slots[0] the return's or null): how cuemu_ptx_module.c binds the
 * functions of a PTX module and the ABI functions it calls (vprintf), or,
 * in an indirect call, a register holding such an address (a device
 * function pointer, a virtual function read from a vtable). An indirect
 * call's last operand, the prototype's label (`.callprototype`) or the
 * list of its possible targets (`.calltargets`, a call table), says
 * nothing that the call through the address needs, and is dropped. A call
 * of a PTX function by its name is not emulated in a statement of C++
 * code. */
static cuemu_status call_instruction(tr *t, const char *op, int line) {
  opnd target;
  cuemu_strbuf slots = {0}, copies = {0}, back = {0};
  cuemu_status st = CUEMU_SUCCESS;
  int index = 1;
  if (punct(t, '(')) {
    t->i++;
    st = call_slot(t, 0, 1, &slots, &copies, &back, line);
    if (st == CUEMU_SUCCESS && !punct(t, ')'))
      st = fail(t, line, "inline PTX: expected ) after call's return");
    if (st == CUEMU_SUCCESS) t->i++;
    if (st == CUEMU_SUCCESS && !punct(t, ','))
      st = fail(t, line, "inline PTX: expected , after call's return");
    if (st == CUEMU_SUCCESS) t->i++;
  } else {
    cuemu__sb_str(&slots, "(void *)0");
  }
  const ptok *k = cur(t);
  char reg[160];
  int lv = 0;
  if (st == CUEMU_SUCCESS &&
      (k->kind != T_WORD || !cuemu__ptx_resolve(t, k->s, k->len, reg, sizeof reg, &lv) ||
       !(lv || k->s[0] == '$')))
    st = fail(t, line, "inline PTX: unsupported instruction %s (a call of %.*s)",
              op, (int)k->len, k->s);
  memset(&target, 0, sizeof target);
  if (st == CUEMU_SUCCESS) st = cuemu__ptx_read_simple(t, &target, 0, 0);
  if (st == CUEMU_SUCCESS && punct(t, ',') && t->i + 1 < t->n &&
      t->toks[t->i + 1].kind == T_PUNCT && t->toks[t->i + 1].s[0] == '(') {
    t->i += 2;
    while (st == CUEMU_SUCCESS && !punct(t, ')')) {
      st = call_slot(t, index++, 0, &slots, &copies, &back, line);
      if (st != CUEMU_SUCCESS) break;
      if (punct(t, ',')) t->i++;
      else if (!punct(t, ')'))
        st = fail(t, line, "inline PTX: expected , or ) in call's arguments");
    }
    if (st == CUEMU_SUCCESS) t->i++;
  }
  /* An indirect call's prototype or targets. */
  if (st == CUEMU_SUCCESS && punct(t, ',') && t->i + 1 < t->n &&
      t->toks[t->i + 1].kind == T_WORD)
    t->i += 2;
  if (st == CUEMU_SUCCESS && !punct(t, ';'))
    st = fail(t, line, "inline PTX: expected ; after call");
  if (st == CUEMU_SUCCESS) {
    t->i++;
    cuemu__sb_str(&t->body, "{ ");
    cuemu__sb_add(&t->body, copies.data, copies.length);
    cuemu__sb_str(&t->body, "void *cuemu_ptx_call_slots[] = {");
    cuemu__sb_add(&t->body, slots.data, slots.length);
    cuemu__sb_str(&t->body, "}; ((void (*)(void **))(unsigned long long)(");
    cuemu__sb_str(&t->body, target.part[0]);
    cuemu__sb_str(&t->body, "))(cuemu_ptx_call_slots); ");
    cuemu__sb_add(&t->body, back.data, back.length);
    cuemu__sb_str(&t->body, "} ");
    if (slots.oom || copies.oom || back.oom) st = CUEMU_OUT_OF_MEMORY;
  }
  free(slots.data);
  free(copies.data);
  free(back.data);
  return st;
}

/* One instruction, its guard already emitted. */
cuemu_status cuemu__ptx_instruction(tr *t) {
  const ptok *opk = cur(t);
  char op[128], ftype[32] = "cuemu_p::u32";
  size_t used, m, nmods = 0;
  const insn *in;
  opnd ops[9];
  int nops = 0, k, line = opk->line, has_shared = 0, first_type = 1;
  int ordered = 0, has_to = 0, cache_hint = 0;
  cuemu_strbuf targs = {0};
  cuemu_status st;
  if (opk->len >= sizeof op)
    return fail(t, line, "inline PTX: instruction too long");
  memcpy(op, opk->s, opk->len);
  op[opk->len] = '\0';
  t->i++;
  if (!strcmp(op, "bra") || !strncmp(op, "bra.", 4)) {
    if (strcmp(op, "bra") && strcmp(op, "bra.uni"))
      return fail(t, line, "inline PTX: unsupported instruction %s", op);
    if (cur(t)->kind != T_WORD)
      return fail(t, line, "inline PTX: bra needs a label");
    cuemu__sb_str(&t->body, "goto ");
    cuemu__ptx_label_name(&t->body, cur(t)->s, cur(t)->len);
    cuemu__sb_str(&t->body, "; ");
    t->i++;
    if (!punct(t, ';')) return fail(t, line, "inline PTX: expected ; after bra");
    t->i++;
    return CUEMU_SUCCESS;
  }
  if (!strcmp(op, "call") || !strcmp(op, "call.uni"))
    return call_instruction(t, op, line);
  if (!strncmp(op, "wgmma.mma_async", 15) && (op[15] == '.' || !op[15]))
    return cuemu__ptx_wgmma_instruction(t, op, line);
  if (!strncmp(op, "setmaxnreg", 10) && (op[10] == '.' || !op[10]))
    return cuemu__ptx_setmaxnreg_instruction(t, op, line);
  if (!strcmp(op, "ret") || !strcmp(op, "ret.uni")) {
    /* The asm statement's function returns: in a kernel the thread ends,
     * as PTX's ret does in an entry function. */
    cuemu__sb_str(&t->body, "return; ");
    if (!punct(t, ';')) return fail(t, line, "inline PTX: expected ; after ret");
    t->i++;
    return CUEMU_SUCCESS;
  }
  if (!strncmp(op, "cp.async.bulk.tensor.", 21) || !strncmp(op, "cp.reduce.async.bulk.", 21) ||
      !strncmp(op, "cp.async.bulk.prefetch.", 23) ||
      (!strncmp(op, "cp.async.bulk.", 14) && strstr(op, ".multicast::cluster")))
    return cuemu__ptx_tensor_instruction(t, op, line);
  in = cuemu__ptx_insn_find(op, strlen(op), &used);
  if (!in && !strncmp(op, "multimem.", 9))
    return fail(t, line,
                "inline PTX: unsupported instruction %s (multimem addresses "
                "reach the memory of several devices, which one emulated "
                "device cannot have)", op);
  /* The bulk copies not emulated (tensor maps, prefetches) are not
   * cp.async with odd modifiers. */
  if (!in || (!strncmp(op, "cp.async.bulk.", 14) && strncmp(in->op, "cp.async.bulk.", 14)))
    return fail(t, line, "inline PTX: unsupported instruction %s", op);
  /* Modifiers and types (the mode of vote's older spelling first). */
  cuemu__sb_add(&targs, "", 0);
  if (!strncmp(in->op, "vote.", 5) && strcmp(in->op, "vote.sync")) {
    cuemu__sb_str(&targs, "cuemu_p::m_");
    cuemu__sb_add(&targs, in->op + 5, strcspn(in->op + 5, "."));
    nmods++;
  }
  for (m = used; op[m];) {
    size_t l;
    int drop = 0;
    m++; /* the '.' */
    l = strcspn(op + m, ".");
    if ((l == 6 && !strncmp(op + m, "shared", l)) ||
        (l == 11 && !strncmp(op + m, "shared::cta", l)) ||
        (l == 15 && !strncmp(op + m, "shared::cluster", l)))
      has_shared = 1;
    if (strstr(op + m, "::") && strstr(op + m, "::") < op + m + l) {
      /* Cache and eviction hints. */
      if (l == 14 && !strncmp(op + m, "L2::cache_hint", l) && (in->flags & (F_LD | F_ST | F_ATOM))) {
        /* A cache policy, in an extra last operand: no effect here. */
        cache_hint = 1;
      } else if (!strncmp(op + m, "L2::cache_hint", l) || !cuemu__ptx_listed(in->mods, op + m, l, &drop)) {
        if (strncmp(op + m, "L1::", 4) && strncmp(op + m, "L2::", 4)) {
          free(targs.data);
          return fail(t, line, "inline PTX: unsupported modifier .%.*s of %s",
                      (int)l, op + m, in->op);
        }
        if (!strncmp(op + m, "L2::cache_hint", l)) {
          free(targs.data);
          return fail(t, line, "inline PTX: unsupported modifier .%.*s of %s",
                      (int)l, op + m, in->op);
        }
      }
      m += l;
      continue;
    }
    if (!cuemu__ptx_listed(in->mods, op + m, l, &drop)) {
      free(targs.data);
      return fail(t, line, "inline PTX: unsupported modifier .%.*s of %s",
                  (int)l, op + m, in->op);
    }
    if (l == 2 && !strncmp(op + m, "to", l)) has_to = 1;
    if ((l == 7 && (!strncmp(op + m, "acquire", l) || !strncmp(op + m, "relaxed", l) ||
                    !strncmp(op + m, "release", l))))
      ordered = 1;
    if (!drop) {
      if (nmods++) cuemu__sb_str(&targs, ", ");
      if (cuemu__ptx_is_type(op + m, l)) {
        /* tf32 is a reserved name in the shims (shim-macro-hygiene.md). */
        const char *prefix = l == 4 && !strncmp(op + m, "tf32", 4) ? "cuemu_p::__cuemu_"
                                                                    : "cuemu_p::";
        cuemu__sb_str(&targs, prefix);
        cuemu__sb_add(&targs, op + m, l);
        if (first_type) {
          snprintf(ftype, sizeof ftype, "%s%.*s", prefix, (int)l, op + m);
          first_type = 0;
        }
      } else if ((l == 3 && !strncmp(op + m, "oob", l)) ||
                 (l == 7 && !strncmp(op + m, "m8n8k16", l)) ||
                 (l == 2 && !strncmp(op + m, "po", l)) ||
                 (l == 4 && !strncmp(op + m, "shr7", l)) ||
                 (l == 5 && !strncmp(op + m, "shr15", l))) {
        /* A modifier added since the hygiene check has a reserved name. */
        cuemu__sb_str(&targs, "cuemu_p::__cuemu_m_");
        cuemu__sb_add(&targs, op + m, l);
      } else if (l == 7 && !strncmp(op + m, "acq_rel", l)) {
        /* Of an atom, .acq_rel orders as .release does here (its acquire
         * half is the operation itself, done sequentially consistent). */
        cuemu__sb_str(&targs, "cuemu_p::m_release");
      } else {
        cuemu__sb_str(&targs, "cuemu_p::m_");
        cuemu__sb_add(&targs, op + m, l);
      }
    }
    m += l;
  }
  if (targs.oom) return CUEMU_OUT_OF_MEMORY;
  /* Atomics of the 16-bit floating-point types: .add alone. */
  if ((!strcmp(in->fn, "atom") || !strcmp(in->fn, "red")) &&
      (strstr(op, ".f16") || strstr(op, ".bf16")) && !strstr(op, ".add")) {
    free(targs.data);
    return fail(t, line, "inline PTX: unsupported instruction %s (of the .f16 and .bf16 "
                "atomics, .add.noftz is emulated)", op);
  }
  /* .rna (dropped: the rounding of a cvt to .tf32 without .rn or .rz) is
   * cvt.rna.tf32.f32's alone. */
  if (strstr(op, ".rna") && !strstr(op, ".tf32")) {
    free(targs.data);
    return fail(t, line, "inline PTX: unsupported modifier .rna of %s", in->op);
  }
  /* .b128 accesses are plain, scalar ones (the ordered and vector forms,
   * and atomics other than cas and exch, are not emulated). */
  if (strstr(op, ".b128") &&
      ((ordered && strcmp(in->fn, "atom")) || strstr(op, ".v2") || strstr(op, ".v4") || strstr(op, ".volatile") ||
       (!strcmp(in->fn, "atom") && !strstr(op, ".cas") && !strstr(op, ".exch")))) {
    free(targs.data);
    return fail(t, line, "inline PTX: unsupported instruction %s (of the .b128 forms, "
                "mov, ld and st without an order or a vector, atom.cas and "
                "atom.exch are emulated)", op);
  }
  /* Operands. */
  t->neg_ok = !strcmp(in->fn, "__cuemu_vmad");
  t->sel_ok = cuemu__ptx_is_scalar_video(in->fn);
  while (!punct(t, ';')) {
    if (cur(t)->kind == T_END) {
      free(targs.data);
      return fail(t, line, "inline PTX: expected ; after %s", op);
    }
    if (nops == 8) {
      free(targs.data);
      return fail(t, line, "inline PTX: too many operands for %s", op);
    }
    st = cuemu__ptx_read_operand(t, &ops[nops++], 0);
    if (st != CUEMU_SUCCESS) {
      free(targs.data);
      return st;
    }
    if (!punct(t, ',') && !punct(t, ';')) {
      free(targs.data);
      return fail(t, line, "inline PTX: expected , or ; after an operand of %s", op);
    }
    if (punct(t, ',')) t->i++;
  }
  t->i++;
  t->neg_ok = 0;
  t->sel_ok = 0;
  st = cuemu__ptx_video_modifiers(t, in, op, ops, nops, &targs, &nmods, line);
  if (st != CUEMU_SUCCESS) {
    free(targs.data);
    return st;
  }
  if (targs.oom) {
    free(targs.data);
    return CUEMU_OUT_OF_MEMORY;
  }
  /* The cache policy of .L2::cache_hint: read, and no effect. */
  if (cache_hint) {
    if (nops < 2 || ops[nops - 1].kind != O_VALUE) {
      free(targs.data);
      return fail(t, line, "inline PTX: .L2::cache_hint needs a cache-policy operand");
    }
    nops--;
  }
  /* Check the operands' count and kinds. */
  {
    int nsrc = nops - in->ndst, bad = nsrc < in->min_src || nsrc > in->max_src;
    for (k = 0; k < nops && !bad; k++) {
      int dst = k < in->ndst, addr = 0, j;
      if ((in->flags & (F_LD | F_ST | F_ATOM | F_ADDR0)) &&
          k == ((in->flags & (F_ST | F_ADDR0)) ? 0 : 1))
        addr = 1;
      if (!strcmp(in->op, "cp.async") && k == 1) addr = 1;
      if (!strncmp(in->fn, "bulk_", 5) && (k == 1 || k == 3)) addr = 1;
      if (addr != (ops[k].kind == O_ADDR)) bad = 1;
      if (ops[k].kind == O_VEC &&
          !((dst && (in->flags & F_LD)) || (!dst && (in->flags & F_ST) && k == 1) ||
            !strcmp(in->fn, "mov") || !strcmp(in->fn, "mma")))
        bad = 1;
      if (ops[k].kind == O_PIPE && !(k == 0 && (in->flags & F_PIPE))) bad = 1;
      if (ops[k].kind == O_TADDR) bad = 1;
      if (dst)
        for (j = 0; j < ops[k].count; j++)
          if (!ops[k].lvalue[j]) bad = 1;
    }
    if (bad) {
      free(targs.data);
      return fail(t, line, "inline PTX: wrong operands for %s", op);
    }
  }
  if (!strcmp(in->fn, "ldmatrix") || !strcmp(in->fn, "__cuemu_stmatrix") || !strcmp(in->fn, "mma")) {
    const char *wrong = cuemu__ptx_matrix_form(in, op + used, ops);
    if (wrong) {
      free(targs.data);
      return fail(t, line, "inline PTX: %s %s", op, wrong);
    }
  }
  if (in->flags & F_NONE) {
    free(targs.data);
    return CUEMU_SUCCESS;
  }
  /* A pipe's missing second destination. */
  if ((in->flags & F_PIPE) && ops[0].kind != O_PIPE) {
    snprintf(ops[0].part[1], sizeof ops[0].part[1], "cuemu_ptx_sink");
    ops[0].count = 2;
  }
  /* An address of the shared state space (as __cvta_generic_to_shared()
   * and cvta.to.shared make it) becomes the generic address it stands for
   * (cuemu_device.h's shared window); the first address operand is the
   * shared one (cp.async's destination). */
  if (has_shared)
    for (k = 0; k < nops; k++)
      if (ops[k].kind == O_ADDR) {
        char wrapped[192];
        snprintf(wrapped, sizeof wrapped, "cuemu_p::shared_at(%.170s)", ops[k].part[0]);
        memcpy(ops[k].part[0], wrapped, sizeof wrapped);
        break;
      }
  if (((in->flags & F_LD) && strcmp(in->fn, "ldmatrix")) || !strcmp(in->fn, "st") ||
      !strcmp(in->fn, "cp_async")) {
    memset(&ops[nops], 0, sizeof ops[nops]); /* cp.async's optional src-size */
    if (!strcmp(in->fn, "cp_async") && nops == 4 && ops[3].kind == O_VALUE &&
        is_pred_register(t, ops[3].part[0])) {
      /* cp.async's other form, [dst], [src], cp-size, ignore-src: a true
       * predicate copies nothing (zeros), as a src-size of 0 would. */
      char size[192];
      snprintf(size, sizeof size, "(%.160s ? 0ULL : ~0ULL)", ops[3].part[0]);
      memcpy(ops[3].part[0], size, sizeof size);
    }
    memory_access(t, in, targs.data, ops, ftype, ordered);
    free(targs.data);
    return CUEMU_SUCCESS;
  }
  cuemu__sb_str(&t->body, "cuemu_p::");
  if (!strcmp(in->fn, "mov") && ops[0].kind == O_VEC)
    cuemu__sb_str(&t->body, "unpack");
  else if (!strcmp(in->fn, "mov") && ops[1].kind == O_VEC)
    cuemu__sb_str(&t->body, "pack");
  else if (!strcmp(in->fn, "cvta") && has_shared)
    cuemu__sb_str(&t->body, has_to ? "cvta_to_shared" : "cvta_shared");
  else if ((!strcmp(in->fn, "__cuemu_mapa") || !strcmp(in->fn, "__cuemu_getctarank")) && has_shared)
    cuemu__sb_str(&t->body, !strcmp(in->fn, "__cuemu_mapa") ? "__cuemu_mapa_shared"
                                                          : "__cuemu_getctarank_shared");
  else
    cuemu__sb_str(&t->body, in->fn);
  cuemu__sb_str(&t->body, "<");
  cuemu__sb_str(&t->body, targs.data);
  cuemu__sb_str(&t->body, ">(");
  free(targs.data);
  if (!strcmp(in->fn, "mov") && ops[0].kind == O_VEC) {
    /* unpack(source, parts...) */
    cuemu__ptx_emit_args(&t->body, &ops[1], 1, ftype);
    cuemu__sb_str(&t->body, ", ");
    cuemu__ptx_emit_args(&t->body, &ops[0], 1, ftype);
  } else {
    cuemu__ptx_emit_args(&t->body, ops, nops, ftype);
  }
  if (in->flags & F_CC) {
    cuemu__sb_str(&t->body, nops ? ", cuemu_ptx_cc" : "cuemu_ptx_cc");
    carry_use(t, in, op);
  }
  if (in->flags & F_SITE)
    cuemu__sb_str(&t->body, nops ? ", __FILE__, __LINE__" : "__FILE__, __LINE__");
  cuemu__sb_str(&t->body, "); ");
  return CUEMU_SUCCESS;
}
