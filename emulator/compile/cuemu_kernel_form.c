/*
 * cuemu_kernel_form.c: the forms of a `__global__` function's declaration
 * that nvcc 13 refuses and g++ accepts (or refuses with words about
 * cuemu's shims, at their lines), refused at the user's line with nvcc's
 * words (docs/nvcc-checks.md, "A kernel's declaration"):
 *
 * - `constexpr` or `consteval`: "A __global__ function or function
 *   template cannot be marked constexpr" (consteval);
 * - `noexcept` or `throw(...)` after the parameters: "An exception
 *   specification is not allowed for a __global__ function or function
 *   template";
 * - an `auto` or `decltype(auto)` return type without a trailing one: "a
 *   __global__ function must not have a deduced return type";
 * - a parameter of rvalue reference type (`int &&`, `T &&`): "a __global__
 *   function cannot have a parameter with rvalue reference type";
 * - a parameter of type `std::initializer_list<...>`: "a __global__
 *   function or function template cannot have a parameter with type
 *   std::initializer_list";
 * - a template parameter pack before the last template parameter
 *   (`template <typename... A, typename T>`, two packs): "Pack template
 *   parameter must be the last template parameter for a variadic
 *   __global__ function template".
 *
 * The tokens are read as written (the lexer's `&&` is two adjacent `&`):
 * a type alias that hides one of these
 * forms (`using list = std::initializer_list<int>;`) is not seen.
 */
#include "cuemu_rewriter.h"

/* The `(` of the parameter list of the kernel whose `__global__` is token
 * global, or rw->n: the first parenthesis after it that is not an
 * attribute's, a template argument list's or decltype's. */
static size_t parameter_list(const cuemu_rewriter *rw, size_t global) {
  size_t k = global + 1;
  while (k < rw->n) {
    size_t after = cuemu__rw_skip_attribute(rw, k);
    if (after != k) {
      k = after;
    } else if (cuemu__rw_is(rw, k, "decltype") && cuemu__rw_is(rw, k + 1, "(")) {
      k = cuemu__rw_close(rw, k + 1) + 1;
    } else if (cuemu__rw_is(rw, k, "<")) {
      k = cuemu__rw_template_close(rw, k) + 1;
    } else if (cuemu__rw_is(rw, k, "(")) {
      return k;
    } else if (cuemu__rw_is(rw, k, ";") || cuemu__rw_is(rw, k, "{") ||
               cuemu__rw_is(rw, k, "}") || cuemu__rw_is(rw, k, "=")) {
      return rw->n;
    } else {
      k++;
    }
  }
  return rw->n;
}

/* The first of nvcc's refusals that the parameters between the
 * parentheses open and close hold, or NULL: each parameter's tokens up to
 * its default argument, outside nested brackets. */
static const char *parameter_form(const cuemu_rewriter *rw, size_t open,
                                  size_t close) {
  int in_default = 0;
  for (size_t p = open + 1; p < close && p < rw->n; p++) {
    if (cuemu__rw_is(rw, p, "(") || cuemu__rw_is(rw, p, "[") ||
        cuemu__rw_is(rw, p, "{")) {
      p = cuemu__rw_close(rw, p);
    } else if (cuemu__rw_is(rw, p, "<") && !in_default) {
      size_t end = cuemu__rw_template_close(rw, p);
      if (end < close)
        p = end;
    } else if (cuemu__rw_is(rw, p, ",")) {
      in_default = 0;
    } else if (cuemu__rw_is(rw, p, "=")) {
      in_default = 1;
    } else if (in_default) {
      continue;
    } else if (cuemu__rw_is(rw, p, "&") && cuemu__rw_is(rw, p + 1, "&") &&
               cuemu__rw_adjacent(rw, p)) {
      return "a __global__ function cannot have a parameter with rvalue "
             "reference type";
    } else if (cuemu__rw_is(rw, p, "initializer_list")) {
      return "a __global__ function or function template cannot have a "
             "parameter with type std::initializer_list";
    }
  }
  return NULL;
}

/* Whether the template parameter list whose `<` is token open and `>`
 * token close declares a pack (`typename... A`, `int... N`: an ellipsis
 * outside nested brackets and before a default argument) that is not its
 * last parameter. */
static int pack_before_last(const cuemu_rewriter *rw, size_t open,
                            size_t close) {
  int pack = 0, in_default = 0;
  for (size_t p = open + 1; p < close && p < rw->n; p++) {
    if (cuemu__rw_is(rw, p, "(") || cuemu__rw_is(rw, p, "[") ||
        cuemu__rw_is(rw, p, "{")) {
      p = cuemu__rw_close(rw, p);
    } else if (cuemu__rw_is(rw, p, "<")) {
      size_t end = cuemu__rw_template_close(rw, p);
      if (end < close)
        p = end;
    } else if (cuemu__rw_is(rw, p, ",")) {
      if (pack)
        return 1;
      in_default = 0;
    } else if (cuemu__rw_is(rw, p, "=")) {
      in_default = 1;
    } else if (!in_default && cuemu__rw_is(rw, p, ".") &&
               cuemu__rw_is(rw, p + 1, ".") && cuemu__rw_is(rw, p + 2, ".") &&
               cuemu__rw_adjacent(rw, p) && cuemu__rw_adjacent(rw, p + 1)) {
      pack = 1;
      p += 2;
    }
  }
  return 0;
}

cuemu_status cuemu__kernel_form_check(cuemu_rewriter *rw, size_t decl_start,
                                      size_t global) {
  size_t open = parameter_list(rw, global), k;
  int deduced = 0;
  if (open >= rw->n)
    return CUEMU_SUCCESS;
  for (k = decl_start; k < open; k++) {
    if (cuemu__rw_is(rw, k, "template") && cuemu__rw_is(rw, k + 1, "<")) {
      size_t close = cuemu__rw_template_close(rw, k + 1);
      if (close >= open)
        return CUEMU_SUCCESS;
      if (pack_before_last(rw, k + 1, close))
        return cuemu__rw_error(rw, rw->toks[k].line,
                               "Pack template parameter must be the last "
                               "template parameter for a variadic "
                               "__global__ function template");
      k = close; /* past its parameters' tokens */
    } else if (cuemu__rw_is(rw, k, "constexpr") ||
               cuemu__rw_is(rw, k, "consteval")) {
      return cuemu__rw_error(rw, rw->toks[k].line,
                             cuemu__rw_is(rw, k, "constexpr")
                                 ? "A __global__ function or function "
                                   "template cannot be marked constexpr"
                                 : "A __global__ function or function "
                                   "template cannot be marked consteval");
    } else if (cuemu__rw_is(rw, k, "auto")) {
      deduced = 1;
    } else if (cuemu__rw_is(rw, k, "decltype") &&
               cuemu__rw_is(rw, k + 1, "(")) {
      k = cuemu__rw_close(rw, k + 1);
    }
  }
  size_t close = cuemu__rw_close(rw, open);
  if (close >= rw->n)
    return CUEMU_SUCCESS;
  const char *form = parameter_form(rw, open, close);
  if (form)
    return cuemu__rw_error(rw, rw->toks[open].line, form);
  /* After the parameters: an exception specification, a trailing return
   * type, up to the body or the end of the declaration. */
  int trailing = 0;
  for (k = close + 1; k < rw->n; k++) {
    if (cuemu__rw_is(rw, k, "{") || cuemu__rw_is(rw, k, ";") ||
        cuemu__rw_is(rw, k, "="))
      break;
    if (cuemu__rw_is(rw, k, "noexcept") || cuemu__rw_is(rw, k, "throw"))
      return cuemu__rw_error(rw, rw->toks[k].line,
                             "An exception specification is not allowed "
                             "for a __global__ function or function "
                             "template");
    if (cuemu__rw_is(rw, k, "->"))
      trailing = 1;
    if (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "["))
      k = cuemu__rw_close(rw, k);
  }
  if (deduced && !trailing)
    return cuemu__rw_error(rw, rw->toks[global].line,
                           "a __global__ function must not have a deduced "
                           "return type");
  return CUEMU_SUCCESS;
}
