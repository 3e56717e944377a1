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
 */
#include <stdio.h>
#include <stdlib.h>

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

cuemu_status cuemu__ptx_rewrite(cuemu_rewriter *rw, size_t i, size_t *resume) {
  size_t k = i + 1, close, end;
  int qualified = 0;
  cuemu_ptx_result r;
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
  st = cuemu__ptx_translate(rw->text + rw->toks[i].offset,
                            rw->toks[end].offset + rw->toks[end].length -
                                rw->toks[i].offset,
                            (rw->toks[i].flags &
                             (CUEMU_TOKEN_FOREIGN | CUEMU_TOKEN_INCLUDED))
                                ? CUEMU_PTX_DEFER_UNSUPPORTED
                                : 0,
                            &r);
  if (st == CUEMU_COMPILE)
    return cuemu__rw_error(rw, rw->toks[i].line + r.error_line - 1, r.message);
  if (st != CUEMU_SUCCESS || !r.is_ptx) return st;
  if (rw->pass == CUEMU_PASS_HOST)
    rw->host_device_code = 1; /* calls of cuemu_ptx.h's functions */
  st = cuemu__rw_edit(rw, rw->toks[i].offset,
                      rw->toks[end].offset + rw->toks[end].length -
                          rw->toks[i].offset,
                      r.code, r.length);
  free(r.code);
  *resume = end;
  return st;
}
