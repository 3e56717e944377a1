/*
 * cuemu_ptx_rewrite.c: the source rewriter's part of inline PTX: an asm
 * statement in a function body is replaced, on its own lines, by the block
 * that cuemu__ptx_translate() makes of it (see cuemu_ptx.h). An asm label
 * after a declarator (`int f(int) __asm__("name");`) is no statement and
 * is left alone, as are asm statements whose template is not PTX.
 *
 * A statement of the unit's own source file that cannot be translated is
 * a compile error. One of a header, the user's or a system one (the
 * toolkit's CCCL, or CUTLASS and CuTe under -I, whose headers hold inline
 * PTX for every architecture and feature, most of which a program never
 * runs, and which nvcc builds whole) becomes code that ends the launch
 * running it with the message instead (CUEMU_PTX_DEFER_UNSUPPORTED).
 *
 * A statement made of `.reg` declarations only, standing alone in a C++
 * block, declares its registers for the statements after it in the block,
 * as nvcc's function-scope PTX registers are (CUEMU_PTX_BLOCK_STATEMENT):
 * the rewriter keeps their names until the block's `}`.
 *
 * A statement of several lines without backslash-newlines (a PTX module's
 * body is one, cuemu_ptx_module.c) is translated with
 * CUEMU_PTX_SPREAD_LINES and replaced line by line, one edit for each of its
 * lines, so that every instruction keeps the line it has in the text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuemu_ptx.h"
#include "cuemu_rewriter.h"

/* Token i (asm, __asm or __asm__, followed by qualifiers and `(`) starts a
 * statement, not an asm label (which follows a declarator: a name, `)` or
 * `]`). */
static int statement_start(const cuemu_rewriter *rw, size_t i, int qualified) {
  size_t open;
  if (qualified || i == 0) return 1;
  if (cuemu__rw_is(rw, i - 1, ";") || cuemu__rw_is(rw, i - 1, "{") ||
      cuemu__rw_is(rw, i - 1, "}") || cuemu__rw_is(rw, i - 1, ":") ||
      cuemu__rw_is(rw, i - 1, "else") || cuemu__rw_is(rw, i - 1, "do") ||
      /* A macro's argument: NV_IF_TARGET(SM_70, (asm(...);), (...)). */
      cuemu__rw_is(rw, i - 1, "(") || cuemu__rw_is(rw, i - 1, ","))
    return 1;
  if (!cuemu__rw_is(rw, i - 1, ")")) return 0;
  open = cuemu__rw_open(rw, i - 1);
  return open != (size_t)-1 && open > 0 &&
         (cuemu__rw_is(rw, open - 1, "if") || cuemu__rw_is(rw, open - 1, "while") ||
          cuemu__rw_is(rw, open - 1, "for") || cuemu__rw_is(rw, open - 1, "switch"));
}

/* The token closing the C++ block around token i, or rw->n. */
static size_t block_end(const cuemu_rewriter *rw, size_t i) {
  size_t depth = 0;
  while (i-- > 0) {
    if (cuemu__rw_is(rw, i, "}")) {
      depth++;
    } else if (cuemu__rw_is(rw, i, "{")) {
      if (depth == 0) return cuemu__rw_close(rw, i);
      depth--;
    }
  }
  return rw->n;
}

/* Whether the statement text[0, n) may have its code spread over its lines:
 * it has several, none continued by a backslash (a macro's definition) and
 * none a line marker of the preprocessor's output. */
static int spreadable(const char *text, size_t n) {
  const char *nl = memchr(text, '\n', n);
  if (!nl) return 0;
  for (size_t k = 0; k < n; k++) {
    if (text[k] != '\n') continue;
    size_t b = k;
    while (b > 0 && (text[b - 1] == ' ' || text[b - 1] == '\t' ||
                     text[b - 1] == '\r'))
      b--;
    if (b > 0 && text[b - 1] == '\\') return 0;
    size_t a = k + 1;
    while (a < n && (text[a] == ' ' || text[a] == '\t')) a++;
    if (a < n && text[a] == '#') return 0;
  }
  return 1;
}

/* Replaces the statement at offset [0, n) of the text by code, line by line:
 * the code's line j takes the place of the text's line j (without its
 * newline), so that the newlines stay where they are. */
static cuemu_status edit_lines(cuemu_rewriter *rw, size_t offset, size_t n,
                               const char *code, size_t length) {
  const char *text = rw->text + offset;
  size_t from = 0, c = 0;
  cuemu_status st = CUEMU_SUCCESS;
  while (st == CUEMU_SUCCESS && from <= n) {
    const char *nl = memchr(text + from, '\n', n - from);
    size_t to = nl ? (size_t)(nl - text) : n;
    const char *cl = c < length ? memchr(code + c, '\n', length - c) : NULL;
    size_t cend = cl ? (size_t)(cl - code) : length;
    if (!nl) cend = length; /* the text's last line takes what is left */
    if (to > from || cend > c)
      st = cuemu__rw_edit(rw, offset + from, to - from, code + c, cend - c);
    c = cl && nl ? cend + 1 : cend;
    if (!nl) break;
    from = to + 1;
  }
  return st;
}

/* Keeps the registers statement i declared (r->declared) for its block. */
static cuemu_status keep_registers(cuemu_rewriter *rw, size_t i, cuemu_ptx_result *r) {
  size_t end = block_end(rw, i), k;
  for (k = 0; k < r->declared_count; k++) {
    if (rw->ptx_reg_count == rw->ptx_reg_capacity) {
      size_t cap = rw->ptx_reg_capacity ? 2 * rw->ptx_reg_capacity : 16;
      char **names = realloc(rw->ptx_regs, cap * sizeof *names);
      if (!names) return CUEMU_OUT_OF_MEMORY;
      rw->ptx_regs = names;
      size_t *ends = realloc(rw->ptx_reg_ends, cap * sizeof *ends);
      if (!ends) return CUEMU_OUT_OF_MEMORY;
      rw->ptx_reg_ends = ends;
      rw->ptx_reg_capacity = cap;
    }
    rw->ptx_regs[rw->ptx_reg_count] = r->declared[k];
    rw->ptx_reg_ends[rw->ptx_reg_count++] = end;
    r->declared[k] = NULL;
  }
  return CUEMU_SUCCESS;
}

void cuemu__ptx_rewrite_free(cuemu_rewriter *rw) {
  while (rw->ptx_reg_count) free(rw->ptx_regs[--rw->ptx_reg_count]);
  free(rw->ptx_regs);
  free(rw->ptx_reg_ends);
  rw->ptx_regs = NULL;
  rw->ptx_reg_ends = NULL;
  rw->ptx_reg_capacity = 0;
}

cuemu_status cuemu__ptx_rewrite(cuemu_rewriter *rw, size_t i, size_t *resume) {
  size_t k = i + 1, close, end;
  int qualified = 0;
  unsigned flags;
  cuemu_ptx_result r;
  cuemu_ptx_scope scope;
  cuemu_status st;
  *resume = i;
  while (cuemu__rw_is(rw, k, "volatile") || cuemu__rw_is(rw, k, "__volatile__") ||
         cuemu__rw_is(rw, k, "__volatile") || cuemu__rw_is(rw, k, "inline") ||
         cuemu__rw_is(rw, k, "goto")) {
    k++;
    qualified = 1;
  }
  if (!cuemu__rw_is(rw, k, "(") || !statement_start(rw, i, qualified))
    return CUEMU_SUCCESS;
  close = cuemu__rw_close(rw, k);
  if (close >= rw->n) return CUEMU_SUCCESS;
  end = cuemu__rw_is(rw, close + 1, ";") ? close + 1 : close;
  /* The registers of blocks that have ended are gone. */
  while (rw->ptx_reg_count && rw->ptx_reg_ends[rw->ptx_reg_count - 1] < i)
    free(rw->ptx_regs[--rw->ptx_reg_count]);
  flags = (rw->toks[i].flags & (CUEMU_TOKEN_FOREIGN | CUEMU_TOKEN_INCLUDED))
              ? CUEMU_PTX_DEFER_UNSUPPORTED
              : 0;
  if (end > close && i > 0 &&
      (cuemu__rw_is(rw, i - 1, ";") || cuemu__rw_is(rw, i - 1, "{") ||
       cuemu__rw_is(rw, i - 1, "}")))
    flags |= CUEMU_PTX_BLOCK_STATEMENT;
  const size_t length = rw->toks[end].offset + rw->toks[end].length -
                        rw->toks[i].offset;
  const int spread = spreadable(rw->text + rw->toks[i].offset, length);
  if (spread)
    flags |= CUEMU_PTX_SPREAD_LINES;
  scope.names = (const char *const *)rw->ptx_regs;
  scope.count = rw->ptx_reg_count;
  st = cuemu__ptx_translate_in(rw->text + rw->toks[i].offset, length, flags,
                               &scope, &r);
  if (st == CUEMU_SUCCESS && r.declared) {
    st = keep_registers(rw, i, &r);
    for (k = 0; k < r.declared_count; k++) free(r.declared[k]);
    free(r.declared);
    if (st != CUEMU_SUCCESS) {
      free(r.code);
      return st;
    }
  }
  if (st == CUEMU_COMPILE)
    return cuemu__rw_error(rw, rw->toks[i].line + r.error_line - 1, r.message);
  if (st != CUEMU_SUCCESS || !r.is_ptx) return st;
  if (rw->pass == CUEMU_PASS_HOST)
    rw->host_device_code = 1; /* calls of cuemu_ptx.h's functions */
  st = spread ? edit_lines(rw, rw->toks[i].offset, length, r.code, r.length)
              : cuemu__rw_edit(rw, rw->toks[i].offset, length, r.code,
                               r.length);
  free(r.code);
  *resume = end;
  return st;
}
