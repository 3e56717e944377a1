/*
 * cuemu_variable_template.c: `__device__` and `__constant__` variable
 * templates in nvcc's two passes.
 *
 * A variable template's instance is one object of the program in both
 * passes. g++ binds it STB_GNU_UNIQUE in the host pass and weak in the
 * device pass, so the linker would keep the host pass's: its initializer
 * is the host pass's, so `template <typename T> __device__ T (*p)(T) =
 * f<T>;` would hold the address of the host pass's stub of f<T>, and a
 * kernel that called through it would fault. So, as for other device
 * variables, the device pass's object is the program's: in the device pass
 * the template gets default visibility, and the host pass's definition is
 * left as it is, its instances made weak in its object where the device
 * pass's object defines them too (cuemu__elf_weaken_unique(), after the
 * compile), and linked after the device pass's. An instance that only host
 * code names, under `#ifndef __CUDA_ARCH__` (which the device pass never
 * sees), is the host pass's own object. Host code's names of the
 * instances are the host pass's shadows (CUEMU_HOST_SHADOW_MARK), as
 * nvcc's host code has a shadow of each instance.
 * Explicit specializations (`template <>`) and templates of functions are
 * left alone.
 */
#include "cuemu_rewriter.h"

/* Whether token k is a specifier after which the rule does not apply. */
static int excluded(const cuemu_rewriter *rw, size_t k) {
  static const char *const words[] = {"static",    "extern",   "inline",
                                      "constexpr", "typedef",  "using",
                                      "friend",    "__host__", "__managed__",
                                      "thread_local", NULL};
  for (const char *const *w = words; *w; ++w)
    if (cuemu__rw_is(rw, k, *w))
      return 1;
  return 0;
}

cuemu_status cuemu__device_variable_template(cuemu_rewriter *rw, size_t start,
                                            size_t i, const char *visible,
                                            size_t visible_length,
                                            int *handled) {
  *handled = 0;
  size_t t = (size_t)-1, k;
  for (k = start; k < i; ++k) {
    if (cuemu__rw_is(rw, k, "template") && t == (size_t)-1)
      t = k;
    if (excluded(rw, k))
      return CUEMU_SUCCESS;
  }
  if (t == (size_t)-1 || !cuemu__rw_is(rw, t + 1, "<") ||
      cuemu__rw_is(rw, t + 2, ">"))
    return CUEMU_SUCCESS; /* not a template, or a full specialization */
  if (!cuemu__rw_is(rw, i, "__device__") && !cuemu__rw_is(rw, i, "__constant__"))
    return CUEMU_SUCCESS;
  /* The declarator: a variable's, up to its initializer or its end. */
  for (k = i + 1; k < rw->n; ++k) {
    size_t after = cuemu__rw_skip_attribute(rw, k);
    if (after != k) {
      k = after - 1;
      continue;
    }
    if (excluded(rw, k) || cuemu__rw_is(rw, k, "<") ||
        cuemu__rw_is(rw, k, "operator"))
      return CUEMU_SUCCESS; /* a partial specialization, or not a variable */
    size_t name;
    int function = 0;
    size_t nested = cuemu__rw_nested_declarator(rw, k, &name, &function);
    if (nested != k) {
      if (function)
        return CUEMU_SUCCESS;
      k = nested - 1;
      continue;
    }
    if (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, ","))
      return CUEMU_SUCCESS; /* a function template */
    if (cuemu__rw_is(rw, k, "[")) {
      k = cuemu__rw_close(rw, k);
      continue;
    }
    if (cuemu__rw_is(rw, k, "=") || cuemu__rw_is(rw, k, "{") ||
        cuemu__rw_is(rw, k, ";"))
      break;
  }
  size_t end = k;
  while (end < rw->n && !cuemu__rw_is(rw, end, ";")) {
    if (cuemu__rw_is(rw, end, "(") || cuemu__rw_is(rw, end, "[") ||
        cuemu__rw_is(rw, end, "{"))
      end = cuemu__rw_close(rw, end);
    if (end < rw->n)
      ++end;
  }
  if (end >= rw->n)
    return CUEMU_SUCCESS;
  *handled = 1;
  const cuemu_token *q = &rw->toks[i];
  if (rw->pass == CUEMU_PASS_HOST)
    return cuemu__rw_edit(rw, q->offset + q->length, 0, CUEMU_HOST_SHADOW_MARK,
                          sizeof CUEMU_HOST_SHADOW_MARK - 1);
  if (rw->pass != CUEMU_PASS_DEVICE)
    return CUEMU_SUCCESS;
  return cuemu__rw_edit(rw, q->offset + q->length, 0, visible, visible_length);
}
