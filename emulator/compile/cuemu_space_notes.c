/*
 * cuemu_space_notes.c: what cuemu-cc tells libcuemu about the addresses of
 * two state spaces that are ordinary memory here, so that __isConstant and
 * __isGridConstant answer as on the GPU (cuemu_address_space.h):
 *
 * - after each namespace-scope definition of `__constant__` variables, in
 *   the host pass (whose initializers run; the notes name a variable's
 *   host object, its shadow, which the note maps to the device pass's
 *   object: cuemu_variable_device_address()) or the single pass of a
 *   module,
 *   `CUEMU_CONSTANT_NOTE(name)` for each variable it defines, which
 *   registers the variable's address range once, at load; the same, with
 *   `CUEMU_MANAGED_NOTE(name)`, after a definition of `__managed__`
 *   variables, which cudaPointerGetAttributes then calls managed memory
 *   (cuemu_managed_register);
 * - after each namespace-scope definition of `__device__` variables (not
 *   also `__constant__` or `__managed__`; not a function), in the same
 *   passes, `CUEMU_DEVICE_NOTE(name)` for each variable, which registers
 *   it for schedule perturbation from load to unload
 *   (cuemu_device_variable_register);
 * - at the start of a kernel's body, `CUEMU_GRID_CONSTANT_NOTE(name);` for
 *   each parameter declared `__grid_constant__`, which tells libcuemu
 *   where the thread's copy of it lies.
 */
#include <stdlib.h>

#include "cuemu_rewriter.h"

/* Appends the note `macro(name)` for the identifier token k, or, where
 * `pragma`, `_Pragma("macro name")`. */
static void add_note(cuemu_strbuf *sb, const cuemu_rewriter *rw, size_t k,
                     const char *macro, int pragma) {
  cuemu__sb_str(sb, pragma ? " _Pragma(\"" : " ");
  cuemu__sb_str(sb, macro);
  cuemu__sb_str(sb, pragma ? " " : "(");
  cuemu__sb_add(sb, rw->text + rw->toks[k].offset, rw->toks[k].length);
  cuemu__sb_str(sb, pragma ? "\")" : ")");
}

static cuemu_status flush(cuemu_rewriter *rw, cuemu_strbuf *sb,
                          size_t offset) {
  cuemu_status st = sb->oom ? CUEMU_OUT_OF_MEMORY : CUEMU_SUCCESS;
  if (st == CUEMU_SUCCESS && sb->length)
    st = cuemu__rw_edit(rw, offset, 0, sb->data, sb->length);
  free(sb->data);
  return st;
}

/* The notes `macro(name)` (or, where `device`, the device pass's pragmas)
 * for the variables that the declaration starting at token start (the
 * qualifier at i) defines, or, where `device`, declares; where `device` is
 * 2, no note: each declared name is recorded for nvcc's warnings at host
 * code's reads and writes (cuemu__host_variable_record()). */
static cuemu_status variable_notes(cuemu_rewriter *rw, size_t start,
                                   size_t i, const char *macro, int device) {
  int is_extern = 0;
  for (size_t k = start; k < i; ++k) {
    /* A variable template's pattern gets the device pass's pragma, by which
     * cuemu's GCC plugin knows its instances (`dvt<int>`) for device
     * memory; an explicit specialization or instantiation none. */
    if (device && cuemu__rw_is(rw, k, "template") &&
        cuemu__rw_is(rw, k + 1, "<") && !cuemu__rw_is(rw, k + 2, ">")) {
      size_t close = cuemu__rw_template_close(rw, k + 1);
      if (close >= i)
        return CUEMU_SUCCESS;
      k = close;
      continue;
    }
    if (cuemu__rw_is(rw, k, "template") || cuemu__rw_is(rw, k, "typedef") ||
        cuemu__rw_is(rw, k, "using") || cuemu__rw_is(rw, k, "friend"))
      return CUEMU_SUCCESS;
    if (cuemu__rw_is(rw, k, "extern"))
      is_extern = 1;
  }
  /* Each declarator's name is the last identifier before its `[`, `=`,
   * `{`, `(`, `,` or `;`; initializers and bounds are skipped whole. */
  cuemu_strbuf notes = {0};
  size_t name = (size_t)-1, k;
  int has_init = 0, angle = 0;
  for (k = i + 1; k < rw->n; ++k) {
    size_t after = cuemu__rw_skip_attribute(rw, k);
    if (after != k) {
      k = after - 1;
      continue;
    }
    if (cuemu__rw_is(rw, k, "<") && name != (size_t)-1 && angle == 0) {
      size_t close = cuemu__rw_template_close(rw, k);
      if (close >= rw->n)
        break;
      k = close;
      name = (size_t)-1;
      continue;
    }
    if (cuemu__type_operator(rw, k) < rw->n) {
      k = cuemu__type_operator(rw, k); /* `decltype(x) name`: the type's */
      name = (size_t)-1;
      continue;
    }
    if (cuemu__rw_ident(rw, k) && !cuemu__rw_is(rw, k, "const") &&
        !cuemu__rw_is(rw, k, "volatile")) {
      name = k;
      continue;
    }
    if (cuemu__rw_is(rw, k, "::")) {
      name = (size_t)-1;
      continue;
    }
    size_t inner;
    int function = 0;
    size_t nested = cuemu__rw_nested_declarator(rw, k, &inner, &function);
    if (nested != k && !function) {
      name = inner; /* `(*table[2])(int)` */
      k = nested - 1;
      continue;
    }
    int ends = cuemu__rw_is(rw, k, ",") || cuemu__rw_is(rw, k, ";");
    if (cuemu__rw_is(rw, k, "[") || cuemu__rw_is(rw, k, "{") ||
        cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "=")) {
      if (name != (size_t)-1 && !cuemu__rw_is(rw, k, "["))
        has_init = 1;
      /* To the end of this declarator. */
      size_t j = k;
      while (j < rw->n && !cuemu__rw_is(rw, j, ",") &&
             !cuemu__rw_is(rw, j, ";")) {
        /* A function's body (a __device__ function's, in the device
         * pass), or the end of the scope: no variable. */
        if (device && (cuemu__rw_is(rw, j, "}") ||
                       (cuemu__rw_is(rw, j, "{") && j > k &&
                        !cuemu__rw_is(rw, j - 1, "=")))) {
          free(notes.data);
          return CUEMU_SUCCESS;
        }
        if (cuemu__rw_is(rw, j, "(") || cuemu__rw_is(rw, j, "[") ||
            cuemu__rw_is(rw, j, "{"))
          j = cuemu__rw_close(rw, j);
        if (j < rw->n)
          j++;
      }
      k = j;
      ends = k < rw->n;
    }
    if (!ends)
      continue;
    if (name != (size_t)-1 && device == 2) {
      cuemu_status st = cuemu__host_variable_record(rw, name, macro);
      if (st != CUEMU_SUCCESS) {
        free(notes.data);
        return st;
      }
    } else if (name != (size_t)-1 && device)
      add_note(&notes, rw, name, macro, 1);
    else if (name != (size_t)-1 && (!is_extern || has_init))
      add_note(&notes, rw, name, macro, 0);
    name = (size_t)-1;
    has_init = 0;
    if (cuemu__rw_is(rw, k, ";"))
      break;
  }
  if (k >= rw->n) {
    free(notes.data);
    return CUEMU_SUCCESS;
  }
  return flush(rw, &notes, rw->toks[k].offset + rw->toks[k].length);
}

/* Whether the namespace-scope declaration that starts at token start,
 * its qualifier at i, declares variables: not a function, a lambda's or
 * an attribute's qualifier, a class defined there; nor, unless `spaces`,
 * a declaration that also says __constant__ or __managed__. */
static int declares_variables(const cuemu_rewriter *rw, size_t start,
                              size_t i, int spaces) {
  for (size_t k = start; k < i; ++k)
    if (cuemu__rw_is(rw, k, "=") || cuemu__rw_is(rw, k, "[") ||
        cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "{"))
      return 0; /* a lambda's or an attribute's __device__ */
  /* The declaration's specifiers and first declarator, to the token that
   * tells a variable from a function. */
  size_t k;
  for (k = start; k < rw->n; ++k) {
    size_t after = cuemu__rw_skip_attribute(rw, k);
    if (after != k) {
      k = after - 1;
      continue;
    }
    if ((!spaces && (cuemu__rw_is(rw, k, "__constant__") ||
                     cuemu__rw_is(rw, k, "__managed__"))) ||
        cuemu__rw_is(rw, k, "__shared__") ||
        cuemu__rw_is(rw, k, "__global__") ||
        cuemu__rw_is(rw, k, "operator"))
      return 0;
    if (cuemu__rw_is(rw, k, "<") && k > start && cuemu__rw_ident(rw, k - 1)) {
      size_t close = cuemu__rw_template_close(rw, k);
      if (close >= rw->n)
        return 0;
      k = close;
      continue;
    }
    if (cuemu__rw_is(rw, k, "(")) {
      size_t inner;
      int function = 0;
      if (cuemu__rw_nested_declarator(rw, k, &inner, &function) == k ||
          function)
        return 0; /* a function, or a variable initialised by a
                   * parenthesised list (not noted) */
      break;
    }
    if (cuemu__rw_is(rw, k, ";") || cuemu__rw_is(rw, k, "=") ||
        cuemu__rw_is(rw, k, "[") || cuemu__rw_is(rw, k, ",") ||
        cuemu__rw_is(rw, k, "{"))
      break;
  }
  if (k >= rw->n)
    return 0;
  for (size_t j = start; j < k && cuemu__rw_is(rw, k, "{"); ++j)
    if (cuemu__rw_is(rw, j, "struct") || cuemu__rw_is(rw, j, "class") ||
        cuemu__rw_is(rw, j, "union") || cuemu__rw_is(rw, j, "enum"))
      return 0; /* a class defined in the declaration */
  return 1;
}

cuemu_status cuemu__device_note(cuemu_rewriter *rw, size_t start,
                                size_t i) {
  if (!declares_variables(rw, start, i, 0))
    return CUEMU_SUCCESS;
  return cuemu__constant_note(rw, start, i, "CUEMU_DEVICE_NOTE");
}

cuemu_status cuemu__constant_note(cuemu_rewriter *rw, size_t start, size_t i,
                                  const char *macro) {
  if (rw->pass != CUEMU_PASS_HOST && rw->pass != CUEMU_PASS_SINGLE)
    return CUEMU_SUCCESS;
  return variable_notes(rw, start, i, macro, 0);
}

cuemu_status cuemu__device_variable_mark(cuemu_rewriter *rw, size_t start,
                                         size_t i) {
  if (rw->pass != CUEMU_PASS_DEVICE && rw->pass != CUEMU_PASS_SINGLE)
    return CUEMU_SUCCESS;
  return variable_notes(rw, start, i,
                        cuemu__rw_is(rw, i, "__constant__")
                            ? "cuemu device_variable constant"
                            : "cuemu device_variable",
                        1);
}

cuemu_status cuemu__host_variable_names(cuemu_rewriter *rw, size_t start,
                                        size_t i, const char *ns) {
  if (rw->pass == CUEMU_PASS_DEVICE || cuemu__rw_is(rw, i, "__managed__") ||
      !declares_variables(rw, start, i, 1))
    return CUEMU_SUCCESS;
  return variable_notes(rw, start, i, ns, 2);
}

cuemu_status cuemu__grid_constant_notes(cuemu_rewriter *rw, size_t start,
                                        size_t brace) {
  cuemu_strbuf notes = {0};
  for (size_t k = start; k < brace; ++k) {
    if (!cuemu__rw_is(rw, k, "__grid_constant__"))
      continue;
    /* The parameter's name: the last identifier before its `,`, `=` or
     * the `)` that closes the list. */
    size_t name = (size_t)-1, j;
    for (j = k + 1; j < brace; ++j) {
      size_t after = cuemu__rw_skip_attribute(rw, j);
      if (after != j) {
        j = after - 1;
        continue;
      }
      if (cuemu__rw_is(rw, j, "<")) {
        size_t close = cuemu__rw_template_close(rw, j);
        if (close < brace)
          j = close;
        continue;
      }
      if (cuemu__rw_is(rw, j, ",") || cuemu__rw_is(rw, j, ")") ||
          cuemu__rw_is(rw, j, "=") || cuemu__rw_is(rw, j, "["))
        break;
      if (cuemu__rw_ident(rw, j) && !cuemu__rw_is(rw, j, "const") &&
          !cuemu__rw_is(rw, j, "volatile"))
        name = j;
    }
    if (name != (size_t)-1) {
      add_note(&notes, rw, name, "CUEMU_GRID_CONSTANT_NOTE", 0);
      cuemu__sb_str(&notes, ";");
    }
    k = j;
  }
  const cuemu_token *t = &rw->toks[brace];
  return flush(rw, &notes, t->offset + t->length);
}
