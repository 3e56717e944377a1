/*
 * cuemu_ptx_video.c: what the inline-PTX translator reads of the scalar
 * video instructions' operands (see cuemu_ptx_translate.h): which
 * instructions take a byte or half selector on a register (%1.b2), and the
 * modifiers that those selectors and vmad's negated registers become.
 */
#include "cuemu_ptx_translate.h"

#include <string.h>

/* Whether fn is a scalar video instruction's, whose a and b may select a
 * byte or half of their registers. */
int cuemu__ptx_is_scalar_video(const char *fn) {
  static const char *const names[] = {"__cuemu_vadd", "__cuemu_vsub", "__cuemu_vabsdiff", "__cuemu_vmin",
                                      "__cuemu_vmax", "__cuemu_vshl", "__cuemu_vshr", "__cuemu_vset_scalar",
                                      "__cuemu_vmad", NULL};
  int k;
  for (k = 0; names[k]; k++)
    if (!strcmp(fn, names[k])) return 1;
  return 0;
}

/* The modifiers of the operands ops[0, nops) of the instruction in
 * (spelled op, on the statement's line): negated registers and selectors,
 * appended to targs, *nmods counting the template arguments. */
cuemu_status cuemu__ptx_video_modifiers(tr *t, const insn *in, const char *op, const opnd *ops,
                                        int nops, cuemu_strbuf *targs, size_t *nmods, int line) {
  int k;
  /* A register written negated: vmad's a, b and c, passed to it as the
   * modifiers __cuemu_m_nega, __cuemu_m_negb and __cuemu_m_negc. */
  for (k = 0; k < nops; k++) {
    int j;
    for (j = 0; j < ops[k].count; j++) {
      if (!ops[k].neg[j]) continue;
      if (k < 1 || k > 3 || ops[k].kind != O_VALUE) {
        return fail(t, line, "inline PTX: - before a register (of %s)", op);
      }
      cuemu__sb_str(targs, (*nmods)++ ? ", cuemu_p::__cuemu_m_neg" : "cuemu_p::__cuemu_m_neg");
      cuemu__sb_str(targs, k == 1 ? "a" : k == 2 ? "b" : "c");
    }
  }
  /* A selector of a byte or half: a scalar video instruction's d (the data
   * merge), a or b, passed as __cuemu_m_dsel_b0 ... __cuemu_m_bsel_h1. */
  for (k = 0; k < nops; k++) {
    if (!ops[k].sel[0]) continue;
    if (k > 2 || (k == 0 && !strcmp(in->fn, "__cuemu_vmad")) || ops[k].kind != O_VALUE) {
      return fail(t, line, "inline PTX: operand %d of %s with the element selector .%.2s (only d, a and b "
                  "take one; vmad's d does not)", k, op, ops[k].sel[0]);
    }
    cuemu__sb_str(targs, (*nmods)++ ? ", cuemu_p::__cuemu_m_" : "cuemu_p::__cuemu_m_");
    cuemu__sb_str(targs, k == 0 ? "dsel_" : k == 1 ? "asel_" : "bsel_");
    cuemu__sb_add(targs, ops[k].sel[0], 2);
  }
  return CUEMU_SUCCESS;
}
