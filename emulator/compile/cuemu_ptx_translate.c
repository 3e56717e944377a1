/*
 * cuemu_ptx_translate.c: the PTX side of an inline-PTX statement (see
 * cuemu_ptx.h). The template (operands already `$N`) is split into PTX
 * tokens and read statement by statement: scopes `{ }`, `.reg`
 * declarations, labels, guards `@p`/`@!p` and instructions. Every register
 * becomes a 64-bit variable declared at the top of the generated block (so
 * that `bra` can jump over nothing that C++ forbids), labels become local
 * labels (`__label__`), and each instruction becomes one call of the
 * shims' emulation function of the same name in namespace ::cuemu::ptx,
 * with its modifiers and types as template arguments
 * (`cuemu_p::bfe<cuemu_p::s32>(d, a, b, c)`). The instructions themselves
 * are read and written by cuemu_ptx_instruction.c, with the table of
 * cuemu_ptx_insns.c and the families of cuemu_ptx_matrix.c,
 * cuemu_ptx_tensor.c and cuemu_ptx_video.c (cuemu_ptx_translate.h).
 */
#include "cuemu_ptx_translate.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuemu_rewriter.h"

/* ---- Special registers ---------------------------------------------------- */

static const struct {
  const char *name, *code;
} sregs[] = {
    {"%laneid", "cuemu_p::sreg_laneid()"},
    {"%warpid", "cuemu_p::sreg_warpid()"},
    {"%nwarpid", "cuemu_p::sreg_nwarpid()"},
    {"%smid", "cuemu_p::sreg_smid()"},
    {"%nsmid", "cuemu_p::sreg_nsmid()"},
    {"%lanemask_eq", "cuemu_p::sreg_lanemask(0)"},
    {"%lanemask_lt", "cuemu_p::sreg_lanemask(1)"},
    {"%lanemask_le", "cuemu_p::sreg_lanemask(2)"},
    {"%lanemask_gt", "cuemu_p::sreg_lanemask(3)"},
    {"%lanemask_ge", "cuemu_p::sreg_lanemask(4)"},
    {"%clock", "cuemu_p::sreg_clock()"},
    {"%clock_hi", "cuemu_p::sreg_clock_hi()"},
    {"%clock64", "cuemu_p::sreg_clock64()"},
    {"%globaltimer", "cuemu_p::sreg_globaltimer()"},
    {"%globaltimer_lo", "(cuemu_p::sreg_globaltimer() & 0xffffffffULL)"},
    {"%globaltimer_hi", "(cuemu_p::sreg_globaltimer() >> 32)"},
    {"%tid.x", "(unsigned long long)threadIdx.x"},
    {"%tid.y", "(unsigned long long)threadIdx.y"},
    {"%tid.z", "(unsigned long long)threadIdx.z"},
    {"%ntid.x", "(unsigned long long)blockDim.x"},
    {"%ntid.y", "(unsigned long long)blockDim.y"},
    {"%ntid.z", "(unsigned long long)blockDim.z"},
    {"%ctaid.x", "(unsigned long long)blockIdx.x"},
    {"%ctaid.y", "(unsigned long long)blockIdx.y"},
    {"%ctaid.z", "(unsigned long long)blockIdx.z"},
    {"%nctaid.x", "(unsigned long long)gridDim.x"},
    {"%nctaid.y", "(unsigned long long)gridDim.y"},
    {"%nctaid.z", "(unsigned long long)gridDim.z"},
    {"%gridid", "cuemu_grid_id()"},
    {"%dynamic_smem_size", "(unsigned long long)cuemu_dynamic_shared_size()"},
    {"WARP_SZ", "32ULL"}, /* the warp size, a predefined constant */
    {"%total_smem_size", "(unsigned long long)cuemu_kernel_shared_size(0)"},
    {"%aggr_smem_size", "(unsigned long long)cuemu_kernel_shared_size(1)"},
    /* The launch's clusters; without them each block is an implicit
     * cluster of one. An explicit cluster of one block is not told from
     * none. */
    {"%is_explicit_cluster", "(cuemu_p::sreg_cluster_nctarank() > 1 ? 1ULL : 0ULL)"},
    {"%clusterid.x", "cuemu_p::sreg_clusterid(0)"},
    {"%clusterid.y", "cuemu_p::sreg_clusterid(1)"},
    {"%clusterid.z", "cuemu_p::sreg_clusterid(2)"},
    {"%nclusterid.x", "cuemu_p::sreg_nclusterid(0)"},
    {"%nclusterid.y", "cuemu_p::sreg_nclusterid(1)"},
    {"%nclusterid.z", "cuemu_p::sreg_nclusterid(2)"},
    {"%cluster_ctaid.x", "cuemu_p::sreg_cluster_ctaid(0)"},
    {"%cluster_ctaid.y", "cuemu_p::sreg_cluster_ctaid(1)"},
    {"%cluster_ctaid.z", "cuemu_p::sreg_cluster_ctaid(2)"},
    {"%cluster_nctaid.x", "cuemu_p::sreg_cluster_nctaid(0)"},
    {"%cluster_nctaid.y", "cuemu_p::sreg_cluster_nctaid(1)"},
    {"%cluster_nctaid.z", "cuemu_p::sreg_cluster_nctaid(2)"},
    {"%cluster_ctarank", "cuemu_p::sreg_cluster_ctarank()"},
    {"%cluster_nctarank", "cuemu_p::sreg_cluster_nctarank()"},
};

/* ---- PTX tokens ----------------------------------------------------------- */

static int word_char(char c) {
  return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$' ||
         c == '%';
}

/* The offset of the next word at or after k, past white space and the PTX
 * comments that ptxas skips (a line comment, `//` to the end of the line,
 * and a block comment, from slash-star to star-slash): n when nothing else
 * is there. The lexer skips them between tokens, and a template that
 * starts by naming its step in a comment (`"// xor5\n\t" "lop3.b32 ..."`)
 * is judged by its first instruction. */
static size_t skip_blanks_and_comments(const char *s, size_t n, size_t k) {
  for (;;) {
    while (k < n && isspace((unsigned char)s[k])) k++;
    if (k + 1 < n && s[k] == '/' && s[k + 1] == '/') {
      while (k < n && s[k] != '\n') k++;
    } else if (k + 1 < n && s[k] == '/' && s[k + 1] == '*') {
      k += 2;
      while (k + 1 < n && !(s[k] == '*' && s[k + 1] == '/')) k++;
      k = k + 1 < n ? k + 2 : n;
    } else {
      return k;
    }
  }
}

/* Splits a->ptx into tokens. */
static cuemu_status lex(tr *t) {
  const char *s = t->a->ptx;
  size_t n = t->a->length, k = 0, cap = 16;
  t->toks = malloc(cap * sizeof *t->toks);
  if (!t->toks) return CUEMU_OUT_OF_MEMORY;
  while (k <= n) {
    ptok tok;
    k = skip_blanks_and_comments(s, n, k);
    tok.s = s + k;
    tok.line = k < n ? t->a->lines[k] : (n ? t->a->lines[n - 1] : 1);
    if (k >= n) {
      tok.kind = T_END;
      tok.len = 0;
      k = n + 1;
    } else if (isdigit((unsigned char)s[k])) {
      size_t b = k;
      while (k < n && (isalnum((unsigned char)s[k]) || s[k] == '.' ||
                       ((s[k] == '+' || s[k] == '-') &&
                        (s[k - 1] == 'e' || s[k - 1] == 'E') &&
                        !(s[b] == '0' && (s[b + 1] == 'x' || s[b + 1] == 'X' ||
                                          s[b + 1] == 'f' || s[b + 1] == 'F' ||
                                          s[b + 1] == 'd' || s[b + 1] == 'D')))))
        k++;
      tok.kind = T_NUM;
      tok.len = k - b;
    } else if (word_char(s[k])) {
      size_t b = k;
      /* A '%' only starts a name (%r1, %laneid): `mov.u32%laneid` is two
       * words, as ptxas reads it. */
      while (k < n && ((word_char(s[k]) && (s[k] != '%' || k == b)) ||
                       (s[k] == ':' && k + 1 < n && s[k + 1] == ':' &&
                        k + 2 < n && word_char(s[k + 2])))) {
        if (s[k] == ':') k++;
        k++;
      }
      tok.kind = T_WORD;
      tok.len = k - b;
    } else {
      tok.kind = T_PUNCT;
      tok.len = 1;
      k++;
    }
    if (t->n == cap) {
      ptok *grown = realloc(t->toks, 2 * cap * sizeof *grown);
      if (!grown) return CUEMU_OUT_OF_MEMORY;
      t->toks = grown;
      cap *= 2;
    }
    t->toks[t->n++] = tok;
  }
  return CUEMU_SUCCESS;
}

/* Whether the word is the `.reg` directive, alone or with its type joined to
 * it (`.reg.f32 a;`, which ptxas reads as `.reg .f32 a;`). */
static int reg_directive(const ptok *k) {
  return k->kind == T_WORD && k->len >= 4 && !strncmp(k->s, ".reg", 4) &&
         (k->len == 4 || k->s[4] == '.');
}

/* Whether the dotted words of s (length len, such as `.v2.b128`) hold m. */
static int has_modifier(const char *s, size_t len, const char *m) {
  size_t ml = strlen(m), k = 0;
  while (k < len) {
    size_t e = k + 1;
    while (e < len && s[e] != '.') e++;
    if (e - k == ml && !strncmp(s + k, m, ml)) return 1;
    k = e;
  }
  return 0;
}

/* ---- Operands ------------------------------------------------------------- */

/* The C++ variable of the block's register w (length len), which a
 * declaration-only statement declared (CUEMU_PTX_BLOCK_STATEMENT):
 * cuemu_ptx_f_ and the name, a character other than a letter, a digit or
 * `_` written as _xHH_. */
static void block_register(char *buf, size_t cap, const char *w, size_t len) {
  size_t k, used = (size_t)snprintf(buf, cap, "cuemu_ptx_f_");
  for (k = 0; k < len && used + 6 < cap; k++) {
    if (isalnum((unsigned char)w[k]) || w[k] == '_')
      buf[used++] = w[k];
    else
      used += (size_t)snprintf(buf + used, cap - used, "_x%02x_", (unsigned char)w[k]);
  }
  buf[used < cap ? used : cap - 1] = '\0';
}

/* A register or special register named by the word w (length len). */
int cuemu__ptx_resolve(const tr *t, const char *w, size_t len, char *buf,
                       size_t cap, int *lvalue) {
  size_t k;
  *lvalue = 1;
  if (w[0] == '$' && len > 1 && isdigit((unsigned char)w[1])) {
    int num = atoi(w + 1);
    snprintf(buf, cap, "cuemu_ptx_%d", num);
    /* An "n" operand is a constant. */
    if (t->a->operands[num].constraint == 'n') *lvalue = 0;
    return 1;
  }
  if (len == 1 && w[0] == '_') {
    snprintf(buf, cap, "cuemu_ptx_sink");
    return 1;
  }
  for (k = t->ndecls; k-- > 0;)
    if (strlen(t->decls[k].name) == len && !strncmp(t->decls[k].name, w, len)) {
      if (t->decls[k].shared) {
        /* As in PTX, a shared variable's name is its address in the shared
         * state space (which cvta.shared turns into a generic one). */
        snprintf(buf, cap, "((unsigned long long)__cvta_generic_to_shared(cuemu_ptx_s%d))",
                 t->decls[k].id);
        *lvalue = 0;
      } else {
        snprintf(buf, cap, "cuemu_ptx_v%d", t->decls[k].id);
      }
      return 1;
    }
  for (k = t->scope ? t->scope->count : 0; k-- > 0;)
    if (strlen(t->scope->names[k]) == len && !strncmp(t->scope->names[k], w, len)) {
      block_register(buf, cap, w, len);
      return 1;
    }
  *lvalue = 0;
  for (k = 0; k < sizeof sregs / sizeof sregs[0]; k++)
    if (strlen(sregs[k].name) == len && !strncmp(sregs[k].name, w, len)) {
      snprintf(buf, cap, "%s", sregs[k].code);
      return 1;
    }
  return 0;
}

/* A numeric literal as a C++ expression of its bits. */
cuemu_status cuemu__ptx_number(tr *t, const ptok *k, int negative, char *buf,
                               size_t cap, int *fdec) {
  char text[64];
  size_t len = k->len < sizeof text - 1 ? k->len : sizeof text - 1;
  memcpy(text, k->s, len);
  text[len] = '\0';
  *fdec = 0;
  if (len > 2 && text[0] == '0' && strchr("fFdD", text[1])) {
    unsigned long long v = strtoull(text + 2, NULL, 16);
    if (negative) v ^= (text[1] == 'f' || text[1] == 'F') ? 0x80000000ULL
                                                          : 0x8000000000000000ULL;
    snprintf(buf, cap, "0x%llxULL", v);
  } else if (strpbrk(text, ".eE") && !(text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))) {
    snprintf(buf, cap, "%s%s", negative ? "-" : "", text);
    *fdec = 1;
  } else {
    char *end;
    unsigned long long v;
    if (len > 2 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B'))
      v = strtoull(text + 2, &end, 2);
    else
      v = strtoull(text, &end, 0);
    if (*end && strcmp(end, "U") && strcmp(end, "u"))
      return fail(t, k->line, "inline PTX: malformed number %s", text);
    snprintf(buf, cap, "0x%llxULL", negative ? 0ULL - v : v);
  }
  return CUEMU_SUCCESS;
}

/* One simple operand: [!|-] register, special register, number, or a label
 * name when labels are allowed. */
cuemu_status cuemu__ptx_read_simple(tr *t, opnd *o, int idx, int allow_label) {
  const ptok *k;
  int neg = 0, notp = 0;
  char buf[160];
  if (punct(t, '!')) {
    notp = 1;
    t->i++;
  } else if (punct(t, '-')) {
    neg = 1;
    t->i++;
  }
  k = cur(t);
  o->lvalue[idx] = 0;
  o->fdec[idx] = 0;
  if (k->kind == T_NUM) {
    cuemu_status st = cuemu__ptx_number(t, k, neg, buf, sizeof buf, &o->fdec[idx]);
    if (st != CUEMU_SUCCESS) return st;
    if (notp) return fail(t, k->line, "inline PTX: ! before a number");
    snprintf(o->part[idx], sizeof o->part[idx], "%s", buf);
  } else if (k->kind == T_WORD) {
    int lv;
    size_t digits = 1;
    /* An operand with another suffix is a video instruction's element
     * selector or mask (%0.b0 of a SIMD one, %1.h10): refused, since reading
     * the whole register instead would compute something else without a
     * word. */
    while (k->s[0] == '$' && digits < k->len && isdigit((unsigned char)k->s[digits])) digits++;
    o->sel[idx] = 0;
    if (k->s[0] == '$' && digits > 1 && digits + 3 == k->len && t->sel_ok && k->s[digits] == '.' &&
        (k->s[digits + 1] == 'b' ? k->s[digits + 2] >= '0' && k->s[digits + 2] <= '3'
                                 : k->s[digits + 1] == 'h' && (k->s[digits + 2] == '0' || k->s[digits + 2] == '1'))) {
      /* A scalar video instruction's selector of a byte or half of a or b:
       * the register, and the selector for cuemu__ptx_instruction() to pass on. */
      o->sel[idx] = k->s + digits + 1;
      if (!cuemu__ptx_resolve(t, k->s, digits, buf, sizeof buf, &lv))
        return fail(t, k->line, "inline PTX: unknown register %.*s", (int)digits, k->s);
      if (notp) return fail(t, k->line, "inline PTX: ! before a register with a selector");
      snprintf(o->part[idx], sizeof o->part[idx], "%s", buf);
      o->lvalue[idx] = lv;
      o->neg[idx] = neg;
      if (neg && !t->neg_ok) return fail(t, k->line, "inline PTX: - before a register");
      t->i++;
      return CUEMU_SUCCESS;
    }
    if (k->s[0] == '$' && digits > 1 && digits < k->len)
      return fail(t, k->line,
                  "inline PTX: operand %%%.*s with the element selector or mask %.*s "
                  "(the SIMD video instructions are emulated without selectors and masks)",
                  (int)(digits - 1), k->s + 1, (int)(k->len - digits), k->s + digits);
    if (!cuemu__ptx_resolve(t, k->s, k->len, buf, sizeof buf, &lv)) {
      if (allow_label && !notp && !neg && k->s[0] != '%') {
        o->kind = O_LABEL;
        snprintf(o->part[idx], sizeof o->part[idx], "%.*s", (int)k->len, k->s);
        t->i++;
        return CUEMU_SUCCESS;
      }
      return fail(t, k->line,
                  k->s[0] == '%' ? "inline PTX: unsupported special register %.*s"
                                 : "inline PTX: unknown register %.*s",
                  (int)k->len, k->s);
    }
    /* A negated register is vmad's alone (cuemu__ptx_instruction() sets neg_ok). */
    if (neg && !t->neg_ok) return fail(t, k->line, "inline PTX: - before a register");
    o->neg[idx] = neg;
    if (notp)
      snprintf(o->part[idx], sizeof o->part[idx], "(unsigned long long)!(%s)",
               buf);
    else
      snprintf(o->part[idx], sizeof o->part[idx], "%s", buf);
    o->lvalue[idx] = lv && !notp;
  } else {
    return fail(t, k->line, "inline PTX: unexpected '%.*s' in an operand",
                (int)k->len, k->s);
  }
  t->i++;
  return CUEMU_SUCCESS;
}

/* An operand: simple, `a|b`, `{a, b, ...}` or `[a]`, `[a+imm]`. */
cuemu_status cuemu__ptx_read_operand(tr *t, opnd *o, int allow_label) {
  cuemu_status st;
  memset(o, 0, sizeof *o);
  o->kind = O_VALUE;
  if (punct(t, '{')) {
    t->i++;
    o->kind = O_VEC;
    for (;;) {
      if (o->count == 4)
        return fail(t, cur(t)->line, "inline PTX: a vector of more than 4");
      st = cuemu__ptx_read_simple(t, o, o->count++, 0);
      if (st != CUEMU_SUCCESS) return st;
      if (punct(t, '}')) break;
      if (!punct(t, ','))
        return fail(t, cur(t)->line, "inline PTX: expected , or } in a vector");
      t->i++;
    }
    t->i++;
    return CUEMU_SUCCESS;
  }
  if (punct(t, '[')) {
    char base[192];
    t->i++;
    st = cuemu__ptx_read_simple(t, o, 0, 0);
    if (st != CUEMU_SUCCESS) return st;
    snprintf(base, sizeof base, "%s", o->part[0]);
    if (punct(t, ',')) {
      /* A tensor's address: the map, then a vector of 1 to 5 coordinates. */
      t->i++;
      if (!punct(t, '{'))
        return fail(t, cur(t)->line, "inline PTX: expected { after a tensor map's address");
      t->i++;
      o->count = 1;
      for (;;) {
        if (o->count == 6)
          return fail(t, cur(t)->line, "inline PTX: more than 5 tensor coordinates");
        st = cuemu__ptx_read_simple(t, o, o->count++, 0);
        if (st != CUEMU_SUCCESS) return st;
        if (punct(t, '}')) break;
        if (!punct(t, ','))
          return fail(t, cur(t)->line, "inline PTX: expected , or } in tensor coordinates");
        t->i++;
      }
      t->i++;
      if (!punct(t, ']'))
        return fail(t, cur(t)->line, "inline PTX: expected ] after tensor coordinates");
      t->i++;
      o->kind = O_TADDR;
      return CUEMU_SUCCESS;
    }
    if (punct(t, '+') || punct(t, '-')) {
      int minus = punct(t, '-');
      t->i++;
      if (minus && punct(t, '-'))
        return fail(t, cur(t)->line, "inline PTX: malformed address");
      if (!minus && punct(t, '-')) {
        minus = 1;
        t->i++;
      }
      if (cur(t)->kind != T_NUM)
        return fail(t, cur(t)->line, "inline PTX: an address offset must be a number");
      st = cuemu__ptx_number(t, cur(t), minus, o->part[1], sizeof o->part[1], &o->fdec[1]);
      if (st != CUEMU_SUCCESS) return st;
      t->i++;
      snprintf(o->part[0], sizeof o->part[0], "(%.120s + %.40s)", base, o->part[1]);
    }
    if (!punct(t, ']'))
      return fail(t, cur(t)->line, "inline PTX: expected ] after an address");
    t->i++;
    o->kind = O_ADDR;
    o->count = 1;
    return CUEMU_SUCCESS;
  }
  st = cuemu__ptx_read_simple(t, o, 0, allow_label);
  if (st != CUEMU_SUCCESS) return st;
  o->count = 1;
  if (punct(t, '|')) {
    t->i++;
    st = cuemu__ptx_read_simple(t, o, 1, 0);
    if (st != CUEMU_SUCCESS) return st;
    o->kind = O_PIPE;
    o->count = 2;
  }
  return CUEMU_SUCCESS;
}

/* ---- Statements ----------------------------------------------------------- */

void cuemu__ptx_label_name(cuemu_strbuf *sb, const char *s, size_t len) {
  size_t k;
  cuemu__sb_str(sb, "cuemu_ptx_L_");
  for (k = 0; k < len; k++) {
    char c = isalnum((unsigned char)s[k]) ? s[k] : '_';
    cuemu__sb_add(sb, &c, 1);
  }
}

static cuemu_status add_decl(tr *t, const char *name, size_t len, int wide, int pred) {
  char buf[48];
  if (t->ndecls == t->cap_decls) {
    size_t cap = t->cap_decls ? 2 * t->cap_decls : 16;
    decl *grown = realloc(t->decls, cap * sizeof *grown);
    if (!grown) return CUEMU_OUT_OF_MEMORY;
    t->decls = grown;
    t->cap_decls = cap;
  }
  t->decls[t->ndecls].name = malloc(len + 1);
  if (!t->decls[t->ndecls].name) return CUEMU_OUT_OF_MEMORY;
  memcpy(t->decls[t->ndecls].name, name, len);
  t->decls[t->ndecls].name[len] = '\0';
  t->decls[t->ndecls].depth = t->depth;
  t->decls[t->ndecls].id = t->next_id;
  t->decls[t->ndecls].pred = pred;
  t->decls[t->ndecls].wide = wide;
  t->decls[t->ndecls].shared = 0;
  snprintf(buf, sizeof buf, "%s cuemu_ptx_v%d = 0; ",
           wide ? "unsigned __int128" : "unsigned long long", t->next_id++);
  cuemu__sb_str(&t->head, buf);
  t->ndecls++;
  return CUEMU_SUCCESS;
}

/* `.reg .type a, b<4>;` */
static cuemu_status reg_decl(tr *t) {
  int wide = 0, pred = 0;
  do { /* .reg, with or without its type joined to it, then the types */
    wide |= has_modifier(cur(t)->s, cur(t)->len, ".b128");
    pred |= has_modifier(cur(t)->s, cur(t)->len, ".pred");
    t->i++;
  } while (cur(t)->kind == T_WORD && cur(t)->s[0] == '.');
  for (;;) {
    const ptok *k = cur(t);
    cuemu_status st;
    if (k->kind != T_WORD)
      return fail(t, k->line, "inline PTX: expected a register name after .reg");
    t->i++;
    if (punct(t, '<')) {
      int count, j;
      char name[80];
      t->i++;
      if (cur(t)->kind != T_NUM)
        return fail(t, k->line, "inline PTX: expected a count in .reg name<N>");
      count = atoi(cur(t)->s);
      t->i++;
      if (!punct(t, '>') || count < 0 || count > 1024)
        return fail(t, k->line, "inline PTX: malformed .reg name<N>");
      t->i++;
      for (j = 0; j < count; j++) {
        int len = snprintf(name, sizeof name, "%.*s%d", (int)k->len, k->s, j);
        st = add_decl(t, name, (size_t)len, wide, pred);
        if (st != CUEMU_SUCCESS) return st;
      }
    } else {
      st = add_decl(t, k->s, k->len, wide, pred);
      if (st != CUEMU_SUCCESS) return st;
    }
    if (punct(t, ';')) {
      t->i++;
      return CUEMU_SUCCESS;
    }
    if (!punct(t, ','))
      return fail(t, k->line, "inline PTX: expected , or ; in .reg");
    t->i++;
  }
}

/* Whether the word is the `.shared` directive, alone or with modifiers
 * joined to it (`.shared.b32 buf[64];`). */
static int shared_directive(const ptok *k) {
  return k->kind == T_WORD && k->len >= 7 && !strncmp(k->s, ".shared", 7) &&
         (k->len == 7 || k->s[7] == '.');
}

/* The size in bytes of a PTX scalar type (`.b32`, `.f64`...), 0 if the word
 * is not one. */
static int type_size(const char *s, size_t len) {
  static const struct {
    const char *name;
    int size;
  } types[] = {{".b8", 1},  {".u8", 1},  {".s8", 1},  {".b16", 2}, {".u16", 2},
               {".s16", 2}, {".f16", 2}, {".bf16", 2}, {".b32", 4}, {".u32", 4},
               {".s32", 4}, {".f32", 4}, {".b64", 8}, {".u64", 8}, {".s64", 8},
               {".f64", 8}};
  size_t k;
  for (k = 0; k < sizeof types / sizeof types[0]; k++)
    if (strlen(types[k].name) == len && !strncmp(types[k].name, s, len)) return types[k].size;
  return 0;
}

/* `.shared {.align N} .type name[N], ...;`: shared memory of the block,
 * declared in the statement (as ptxas takes it in the function that the
 * statement is pasted into). Each becomes a __shared__ array of the
 * statement's C++ block, whose name stands for its shared address. */
static cuemu_status shared_decl(tr *t) {
  const ptok *d = cur(t);
  int size = 0, align = 0;
  const char *m = d->s + 7;
  size_t left = d->len - 7;
  t->i++;
  for (;;) { /* the modifiers joined to .shared, then those after it */
    while (left > 0) {
      size_t l = 1;
      while (l < left && m[l] != '.') l++;
      if (!type_size(m, l))
        return fail(t, d->line, "inline PTX: unsupported .shared modifier %.*s", (int)l, m);
      size = type_size(m, l);
      m += l;
      left -= l;
    }
    if (cur(t)->kind == T_WORD && tok_is(cur(t), ".align")) {
      t->i++;
      if (cur(t)->kind != T_NUM || (align = atoi(cur(t)->s)) <= 0 || (align & (align - 1)))
        return fail(t, d->line, "inline PTX: .align takes a power of two");
      t->i++;
      continue;
    }
    if (cur(t)->kind != T_WORD || cur(t)->s[0] != '.') break;
    d = cur(t);
    m = d->s;
    left = d->len;
    t->i++;
  }
  if (!size) return fail(t, d->line, "inline PTX: a .shared declaration without a type");
  for (;;) {
    const ptok *k = cur(t);
    unsigned long long count = 1;
    char buf[160];
    cuemu_status st;
    if (k->kind != T_WORD || k->s[0] == '.')
      return fail(t, k->line, "inline PTX: expected a name in a .shared declaration");
    t->i++;
    while (punct(t, '[')) {
      t->i++;
      if (cur(t)->kind != T_NUM)
        return fail(t, k->line,
                    "inline PTX: a .shared array without a size (dynamic shared memory: "
                    "use extern __shared__ in C++)");
      count *= strtoull(cur(t)->s, NULL, 0);
      t->i++;
      if (!punct(t, ']')) return fail(t, k->line, "inline PTX: expected ] in a .shared declaration");
      t->i++;
    }
    if (count == 0 || count > (1ULL << 28))
      return fail(t, k->line, "inline PTX: a .shared array of %llu elements", count);
    st = add_decl(t, k->s, k->len, 0, 0);
    if (st != CUEMU_SUCCESS) return st;
    /* add_decl declared a register: the name is the array's instead. */
    t->decls[t->ndecls - 1].shared = 1;
    snprintf(buf, sizeof buf, "__shared__ __align__(%d) %s cuemu_ptx_s%d[%llu]; ",
             align > size ? align : size,
             size == 1 ? "unsigned char" : size == 2 ? "unsigned short" : size == 4 ? "unsigned int"
                                                                        : "unsigned long long",
             t->decls[t->ndecls - 1].id, count);
    cuemu__sb_str(&t->head, buf);
    if (punct(t, ';')) {
      t->i++;
      return t->head.oom ? CUEMU_OUT_OF_MEMORY : CUEMU_SUCCESS;
    }
    if (!punct(t, ',')) return fail(t, k->line, "inline PTX: expected , or ; in .shared");
    t->i++;
  }
}

static cuemu_status statements(tr *t) {
  cuemu_status st = CUEMU_SUCCESS;
  while (st == CUEMU_SUCCESS && cur(t)->kind != T_END) {
    const ptok *k = cur(t);
    /* Each statement's code on the line of its text (SPREAD_LINES). */
    for (; t->spread && t->body_line < k->line; t->body_line++)
      cuemu__sb_str(&t->body, "\n");
    if (k->kind == T_PUNCT && k->s[0] == '{') {
      cuemu__sb_str(&t->body, "{ ");
      t->depth++;
      t->i++;
    } else if (k->kind == T_PUNCT && k->s[0] == '}') {
      if (t->depth == 0)
        return fail(t, k->line, "inline PTX: unbalanced }");
      while (t->ndecls && t->decls[t->ndecls - 1].depth == t->depth)
        free(t->decls[--t->ndecls].name);
      t->depth--;
      cuemu__sb_str(&t->body, "} ");
      t->i++;
    } else if (k->kind == T_PUNCT && k->s[0] == ';') {
      t->i++;
    } else if (reg_directive(k)) {
      st = reg_decl(t);
    } else if (shared_directive(k)) {
      st = shared_decl(t);
    } else if (k->kind == T_WORD && k->s[0] == '.') {
      return fail(t, k->line, "inline PTX: unsupported directive %.*s",
                  (int)k->len, k->s);
    } else if (k->kind == T_WORD && t->i + 1 < t->n &&
               t->toks[t->i + 1].kind == T_PUNCT &&
               t->toks[t->i + 1].s[0] == ':') {
      cuemu__sb_str(&t->labels, t->have_labels++ ? ", " : "__label__ ");
      cuemu__ptx_label_name(&t->labels, k->s, k->len);
      cuemu__ptx_label_name(&t->body, k->s, k->len);
      cuemu__sb_str(&t->body, ":; ");
      t->i += 2;
    } else if (k->kind == T_PUNCT && k->s[0] == '@') {
      opnd guard;
      t->i++;
      memset(&guard, 0, sizeof guard);
      st = cuemu__ptx_read_simple(t, &guard, 0, 0);
      if (st != CUEMU_SUCCESS) return st;
      cuemu__sb_str(&t->body, "if (");
      cuemu__sb_str(&t->body, guard.part[0]);
      cuemu__sb_str(&t->body, ") { ");
      if (cur(t)->kind != T_WORD)
        return fail(t, cur(t)->line, "inline PTX: expected an instruction after a guard");
      /* A guarded instruction may not run: the carry it sets is not
       * certain to be set after it. */
      const int cc_set = t->cc_set;
      st = cuemu__ptx_instruction(t);
      t->cc_set = cc_set;
      cuemu__sb_str(&t->body, "} ");
    } else if (k->kind == T_WORD) {
      st = cuemu__ptx_instruction(t);
    } else {
      return fail(t, k->line, "inline PTX: unexpected '%.*s'", (int)k->len, k->s);
    }
  }
  if (st == CUEMU_SUCCESS && t->depth != 0)
    return fail(t, cur(t)->line, "inline PTX: unbalanced {");
  return st;
}

/* The operands: inputs read at the start, outputs written at the end. */
static void bind(tr *t, cuemu_strbuf *post) {
  const cuemu__ptx_asm *a = t->a;
  int k;
  char buf[96];
  for (k = 0; k < a->count; k++) {
    const cuemu__ptx_operand *o = &a->operands[k];
    if (o->constraint == 'q') {
      /* A 128-bit operand: an unsigned __int128 of the same bits. */
      snprintf(buf, sizeof buf, "unsigned __int128 cuemu_ptx_%d = ", k);
      cuemu__sb_str(&t->head, buf);
      if (o->output && !o->read_write) {
        cuemu__sb_str(&t->head, "0; ");
      } else {
        cuemu__sb_str(&t->head, "cuemu_p::inq(");
        cuemu__sb_str(&t->head, o->expr);
        cuemu__sb_str(&t->head, "); ");
      }
      if (o->output) {
        cuemu__sb_str(post, "cuemu_p::outq(");
        cuemu__sb_str(post, o->expr);
        snprintf(buf, sizeof buf, ", cuemu_ptx_%d); ", k);
        cuemu__sb_str(post, buf);
      }
      continue;
    }
    if (o->output && !o->read_write) {
      snprintf(buf, sizeof buf, "unsigned long long cuemu_ptx_%d = 0; ", k);
      cuemu__sb_str(&t->head, buf);
    } else {
      snprintf(buf, sizeof buf, "%sunsigned long long cuemu_ptx_%d = cuemu_p::in<'%c'>(",
               o->constraint == 'n' ? "const " : "", k, o->constraint);
      cuemu__sb_str(&t->head, buf);
      cuemu__sb_str(&t->head, o->expr);
      cuemu__sb_str(&t->head, "); ");
    }
    if (o->output) {
      snprintf(buf, sizeof buf, "cuemu_p::__cuemu_out<'%c'>(", o->constraint);
      cuemu__sb_str(post, buf);
      cuemu__sb_str(post, o->expr);
      snprintf(buf, sizeof buf, ", cuemu_ptx_%d); ", k);
      cuemu__sb_str(post, buf);
    }
  }
}

/* Appends s as a C string literal. */
static void add_literal(cuemu_strbuf *sb, const char *s) {
  cuemu__sb_add(sb, "\"", 1);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') cuemu__sb_add(sb, "\\", 1);
    cuemu__sb_add(sb, s, 1);
  }
  cuemu__sb_add(sb, "\"", 1);
}

/* The code of a statement that cannot be translated, with
 * CUEMU_PTX_DEFER_UNSUPPORTED: the launch that runs it ends with the
 * message. */
static cuemu_status deferred(cuemu_ptx_result *out, int semicolon) {
  cuemu_strbuf sb = {0};
  cuemu__sb_str(&sb, "({ ::cuemu::ptx::unsupported(");
  add_literal(&sb, out->message);
  cuemu__sb_str(&sb, semicolon ? ", __FILE__, __LINE__); });" : ", __FILE__, __LINE__); })");
  if (sb.oom) {
    free(sb.data);
    return CUEMU_OUT_OF_MEMORY;
  }
  out->is_ptx = 1;
  out->code = sb.data;
  out->length = sb.length;
  return CUEMU_SUCCESS;
}

/* The statement is `.reg` declarations only, outside braces. */
static int declarations_only(const tr *t) {
  size_t k = 0;
  int any = 0;
  while (t->toks[k].kind != T_END) {
    if (t->toks[k].kind == T_PUNCT && t->toks[k].s[0] == ';') {
      k++;
    } else if (reg_directive(&t->toks[k])) {
      any = 1;
      while (t->toks[k].kind != T_END &&
             !(t->toks[k].kind == T_PUNCT && t->toks[k].s[0] == ';'))
        k++;
    } else {
      return 0;
    }
  }
  return any;
}

/* A declaration-only statement that stands alone in a C++ block: its
 * registers become variables of the block, for the statements after it
 * (CUEMU_PTX_BLOCK_STATEMENT), and out->declared names them. */
static cuemu_status block_declarations(tr *t, cuemu_strbuf *all) {
  cuemu_ptx_result *out = t->out;
  size_t k;
  cuemu_status st = statements(t);
  if (st != CUEMU_SUCCESS) return st;
  out->declared = calloc(t->ndecls ? t->ndecls : 1, sizeof *out->declared);
  if (!out->declared) return CUEMU_OUT_OF_MEMORY;
  for (k = 0; k < t->ndecls; k++) {
    char name[192];
    out->declared[k] = strdup(t->decls[k].name);
    if (!out->declared[k]) return CUEMU_OUT_OF_MEMORY;
    out->declared_count = k + 1;
    block_register(name, sizeof name, t->decls[k].name, strlen(t->decls[k].name));
    cuemu__sb_str(all, t->decls[k].wide ? "unsigned __int128 " : "unsigned long long ");
    cuemu__sb_str(all, name);
    cuemu__sb_str(all, " __attribute__((unused)) = 0; ");
  }
  return all->oom ? CUEMU_OUT_OF_MEMORY : CUEMU_SUCCESS;
}

/* The statement is labels only (`$loop:`), outside braces. */
static int labels_only(const tr *t) {
  size_t k = 0;
  int any = 0;
  while (t->toks[k].kind != T_END) {
    if (t->toks[k].kind == T_PUNCT && t->toks[k].s[0] == ';') {
      k++;
    } else if (t->toks[k].kind == T_WORD && t->toks[k + 1].kind == T_PUNCT &&
               t->toks[k + 1].s[0] == ':') {
      any = 1;
      k += 2;
    } else {
      return 0;
    }
  }
  return any;
}

/* A labels-only statement that stands alone in a C++ block: its labels are
 * the function's, as in nvcc's PTX, so that the branches of other
 * statements reach them (CUEMU_PTX_BLOCK_STATEMENT): plain C++ labels, not
 * inside a statement expression, which a goto may not enter. */
static cuemu_status block_labels(tr *t, cuemu_strbuf *all) {
  size_t k;
  for (k = 0; t->toks[k].kind != T_END; k++) {
    if (t->toks[k].kind != T_WORD) continue;
    cuemu__ptx_label_name(all, t->toks[k].s, t->toks[k].len);
    cuemu__sb_str(all, ":; ");
  }
  return all->oom ? CUEMU_OUT_OF_MEMORY : CUEMU_SUCCESS;
}

static cuemu_status translate(const char *text, size_t length, unsigned flags,
                              const cuemu_ptx_scope *scope,
                              cuemu_ptx_result *out, int semicolon) {
  cuemu__ptx_asm a;
  tr t;
  cuemu_strbuf post = {0}, all = {0};
  cuemu_status st;
  st = cuemu__ptx_parse(text, length, &a, out);
  if (st != CUEMU_SUCCESS) return st;
  if (!a.is_ptx) {
    cuemu__ptx_asm_free(&a);
    return CUEMU_SUCCESS;
  }
  out->is_ptx = 1;
  memset(&t, 0, sizeof t);
  t.a = &a;
  t.out = out;
  t.scope = scope;
  t.spread = (flags & CUEMU_PTX_SPREAD_LINES) != 0;
  t.body_line = 1;
  cuemu__sb_add(&t.head, "", 0);
  cuemu__sb_add(&t.labels, "", 0);
  cuemu__sb_add(&t.body, "", 0);
  cuemu__sb_add(&post, "", 0);
  st = lex(&t);
  const int block = st == CUEMU_SUCCESS && (flags & CUEMU_PTX_BLOCK_STATEMENT) &&
                    semicolon && a.count == 0;
  if (block && declarations_only(&t)) {
    st = block_declarations(&t, &all);
  } else if (block && labels_only(&t)) {
    st = block_labels(&t, &all);
  } else if (st == CUEMU_SUCCESS) {
    bind(&t, &post);
    st = statements(&t);
  }
  if (st == CUEMU_SUCCESS && !all.data) {
    /* A statement expression: its commas are inside parentheses, so that
     * it may stand where the asm statement stood in a macro's argument. */
    cuemu__sb_str(&all, "({ ");
    if (t.have_labels) {
      cuemu__sb_str(&all, t.labels.data);
      cuemu__sb_str(&all, "; ");
    }
    cuemu__sb_str(&all,
                  "namespace cuemu_p = ::cuemu::ptx; "
                  "unsigned long long cuemu_ptx_cc = 0, cuemu_ptx_sink = 0; "
                  "(void)cuemu_ptx_cc; (void)cuemu_ptx_sink; ");
    if (t.cc_load) cuemu__sb_str(&all, "cuemu_ptx_cc = cuemu_ptx_carry; ");
    cuemu__sb_str(&all, t.head.data);
    if (a.memory_clobber) cuemu__sb_str(&all, "__atomic_signal_fence(__ATOMIC_SEQ_CST); ");
    cuemu__sb_str(&all, t.body.data);
    if (t.cc_store) cuemu__sb_str(&all, "cuemu_ptx_carry = cuemu_ptx_cc; ");
    if (a.memory_clobber) cuemu__sb_str(&all, "__atomic_signal_fence(__ATOMIC_SEQ_CST); ");
    cuemu__sb_str(&all, post.data);
    cuemu__sb_str(&all, semicolon ? "});" : "})");
    if (t.head.oom || t.labels.oom || t.body.oom || post.oom ||
        all.oom)
      st = CUEMU_OUT_OF_MEMORY;
  }
  if (st == CUEMU_SUCCESS) {
    out->code = all.data;
    out->length = all.length;
  } else {
    free(all.data);
    while (out->declared_count) free(out->declared[--out->declared_count]);
    free(out->declared);
    out->declared = NULL;
  }
  while (t.ndecls) free(t.decls[--t.ndecls].name);
  free(t.decls);
  free(t.toks);
  free(t.head.data);
  free(t.labels.data);
  free(t.body.data);
  free(post.data);
  cuemu__ptx_asm_free(&a);
  return st;
}

cuemu_status cuemu__ptx_translate(const char *text, size_t length,
                                  unsigned flags, cuemu_ptx_result *out) {
  return cuemu__ptx_translate_in(text, length, flags, NULL, out);
}

cuemu_status cuemu__ptx_translate_in(const char *text, size_t length,
                                     unsigned flags, const cuemu_ptx_scope *scope,
                                     cuemu_ptx_result *out) {
  size_t end = length;
  int semicolon;
  cuemu_status st;
  memset(out, 0, sizeof *out);
  while (end > 0 && isspace((unsigned char)text[end - 1])) end--;
  semicolon = end > 0 && text[end - 1] == ';';
  st = translate(text, length, flags, scope, out, semicolon);
  if (st == CUEMU_COMPILE && (flags & CUEMU_PTX_DEFER_UNSUPPORTED))
    return deferred(out, semicolon);
  if (st == CUEMU_COMPILE) out->is_ptx = 1;
  return st;
}

/* ---- Is it PTX? ----------------------------------------------------------- */

int cuemu__ptx_template_is_ptx(const char *s, size_t n) {
  size_t k = skip_blanks_and_comments(s, n, 0), l, base;
  size_t used;
  if (k == n) return 0;
  if (s[k] == '{' || s[k] == '@') return 1;
  for (const char *const *d = cuemu__ptx_directives; *d; d++)
    if (n - k >= strlen(*d) && !strncmp(s + k, *d, strlen(*d))) return 1;
  l = 0;
  while (k + l < n && word_char(s[k + l])) l++;
  if (l == 0) return 0;
  /* A label (`$loop:`, a statement of its own that other statements branch
   * to); not a host assembler's numeric local label (`1:`). */
  if (!isdigit((unsigned char)s[k])) {
    size_t c = k + l;
    while (c < n && isspace((unsigned char)s[c])) c++;
    if (c < n && s[c] == ':' && (c + 1 == n || s[c + 1] != ':')) return 1;
  }
  base = strcspn(s + k, ".");
  if (base > l) base = l;
  if ((l == 4 && !strncmp(s + k, "trap", 4)) ||
      (l == 4 && !strncmp(s + k, "exit", 4)) ||
      (l == 3 && !strncmp(s + k, "ret", 3)) ||
      (l == 5 && !strncmp(s + k, "brkpt", 5)) ||
      (l == 3 && !strncmp(s + k, "bra", 3)))
    return 1;
  if (base == l) return 0; /* no modifier: host asm such as `mov %eax, %ebx` */
  if (cuemu__ptx_insn_find(s + k, l, &used)) return 1;
  for (const char *const *u = cuemu__ptx_unsupported; *u; u++)
    if (strlen(*u) == base && !strncmp(*u, s + k, base)) return 1;
  /* An instruction that is none of PTX's but has one of its types among
   * its modifiers (`madd.lo.u32`, `addcc.u64`: a misspelling) is PTX too,
   * so that the translation names it; host assemblers' mnemonics carry no
   * such type (AArch64's `b.eq`). */
  for (size_t m = k + base; m < k + l;) {
    size_t ml = 0;
    m++; /* the '.' */
    while (m + ml < k + l && s[m + ml] != '.') ml++;
    if (ml > 0 && cuemu__ptx_is_type(s + m, ml)) return 1;
    m += ml;
  }
  return 0;
}
