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
 * (`cuemu_p::bfe<cuemu_p::s32>(d, a, b, c)`).
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
    {"%gridid", "0ULL"},
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

/* Splits a->ptx into tokens. */
static cuemu_status lex(tr *t) {
  const char *s = t->a->ptx;
  size_t n = t->a->length, k = 0, cap = 16;
  t->toks = malloc(cap * sizeof *t->toks);
  if (!t->toks) return CUEMU_OUT_OF_MEMORY;
  while (k <= n) {
    ptok tok;
    while (k < n && isspace((unsigned char)s[k])) k++;
    if (k + 1 < n && s[k] == '/' && s[k + 1] == '/') {
      while (k < n && s[k] != '\n') k++;
      continue;
    }
    if (k + 1 < n && s[k] == '/' && s[k + 1] == '*') {
      k += 2;
      while (k + 1 < n && !(s[k] == '*' && s[k + 1] == '/')) k++;
      k += 2;
      continue;
    }
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
static int resolve(const tr *t, const char *w, size_t len, char *buf,
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
       * the register, and the selector for instruction() to pass on. */
      o->sel[idx] = k->s + digits + 1;
      if (!resolve(t, k->s, digits, buf, sizeof buf, &lv))
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
    if (!resolve(t, k->s, k->len, buf, sizeof buf, &lv)) {
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
    /* A negated register is vmad's alone (instruction() sets neg_ok). */
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

static void label_name(cuemu_strbuf *sb, const char *s, size_t len) {
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

/* One instruction, its guard already emitted. */

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
      (k->kind != T_WORD || !resolve(t, k->s, k->len, reg, sizeof reg, &lv) ||
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

/* Whether fn is a scalar video instruction's, whose a and b may select a
 * byte or half of their registers. */
static int is_scalar_video(const char *fn) {
  static const char *const names[] = {"__cuemu_vadd", "__cuemu_vsub", "__cuemu_vabsdiff", "__cuemu_vmin",
                                      "__cuemu_vmax", "__cuemu_vshl", "__cuemu_vshr", "__cuemu_vset_scalar",
                                      "__cuemu_vmad", NULL};
  int k;
  for (k = 0; names[k]; k++)
    if (!strcmp(fn, names[k])) return 1;
  return 0;
}

static cuemu_status instruction(tr *t) {
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
    label_name(&t->body, cur(t)->s, cur(t)->len);
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
  t->sel_ok = is_scalar_video(in->fn);
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
  /* A register written negated: vmad's a, b and c, passed to it as the
   * modifiers __cuemu_m_nega, __cuemu_m_negb and __cuemu_m_negc. */
  for (k = 0; k < nops; k++) {
    int j;
    for (j = 0; j < ops[k].count; j++) {
      if (!ops[k].neg[j]) continue;
      if (k < 1 || k > 3 || ops[k].kind != O_VALUE) {
        free(targs.data);
        return fail(t, line, "inline PTX: - before a register (of %s)", op);
      }
      cuemu__sb_str(&targs, nmods++ ? ", cuemu_p::__cuemu_m_neg" : "cuemu_p::__cuemu_m_neg");
      cuemu__sb_str(&targs, k == 1 ? "a" : k == 2 ? "b" : "c");
    }
  }
  /* A selector of a byte or half: a scalar video instruction's d (the data
   * merge), a or b, passed as __cuemu_m_dsel_b0 ... __cuemu_m_bsel_h1. */
  for (k = 0; k < nops; k++) {
    if (!ops[k].sel[0]) continue;
    if (k > 2 || (k == 0 && !strcmp(in->fn, "__cuemu_vmad")) || ops[k].kind != O_VALUE) {
      free(targs.data);
      return fail(t, line, "inline PTX: operand %d of %s with the element selector .%.2s (only d, a and b "
                  "take one; vmad's d does not)", k, op, ops[k].sel[0]);
    }
    cuemu__sb_str(&targs, nmods++ ? ", cuemu_p::__cuemu_m_" : "cuemu_p::__cuemu_m_");
    cuemu__sb_str(&targs, k == 0 ? "dsel_" : k == 1 ? "asel_" : "bsel_");
    cuemu__sb_add(&targs, ops[k].sel[0], 2);
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

static cuemu_status statements(tr *t) {
  cuemu_status st = CUEMU_SUCCESS;
  while (st == CUEMU_SUCCESS && cur(t)->kind != T_END) {
    const ptok *k = cur(t);
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
      label_name(&t->labels, k->s, k->len);
      label_name(&t->body, k->s, k->len);
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
      st = instruction(t);
      t->cc_set = cc_set;
      cuemu__sb_str(&t->body, "} ");
    } else if (k->kind == T_WORD) {
      st = instruction(t);
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
    label_name(all, t->toks[k].s, t->toks[k].len);
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
  size_t k = 0, l, base;
  size_t used;
  while (k < n && isspace((unsigned char)s[k])) k++;
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
