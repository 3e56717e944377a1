/*
 * cuemu_main_bare_return.c: `return;` in `int main()`.
 *
 * nvcc's front end takes a `return;` without a value in `main` for the end
 * of main, which returns 0: it gives its warning #117-D (`non-void function
 * "main" should return a value`) and its host code says `return 0;` there,
 * so the program builds and exits with status 0 from that statement. g++
 * refuses the same statement ("return-statement with no value, in function
 * returning 'int'"), so each `return;` of main's own body is edited into
 * `return 0;` here, with nvcc's warning at its line (once, in the host
 * pass). main is `int main(...)` or `auto main(...) -> int`, its body a
 * block or a function-try-block, whose handlers' `return;` statements
 * return from main too. Of the other functions returning a value, nvcc
 * refuses a `return;` where its host compile sees it, as g++ does; a
 * device-only function's is cuemu_device_bare_return.c's. The `return;`
 * statements of a lambda's body or of a local class's member functions in
 * main are theirs, not main's, and are left as they are.
 */
#include <stdio.h>
#include <string.h>

#include "cuemu_rewriter.h"

/* Whether the `{` at token b opens a lambda's body: `[...] {`, or
 * `[...](...) specifiers {` (C++20's `[...]<...>(...) {` too), its
 * specifiers being `mutable`, `constexpr`, `noexcept`, attributes or a
 * trailing return type. */
static int lambda_body(const cuemu_rewriter *rw, size_t b) {
  size_t k = b;
  while (k > 0) {
    size_t p = k - 1;
    if (cuemu__rw_is(rw, p, "]")) {
      size_t start = cuemu__rw_attribute_start(rw, p);
      if (start != p && start < p) { /* an attribute group `[[...]]` */
        k = start;
        continue;
      }
      return 1; /* `[captures] {` */
    }
    if (cuemu__rw_is(rw, p, ")")) {
      size_t open = cuemu__rw_open(rw, p);
      if (open == (size_t)-1 || open == 0)
        return 0;
      if (cuemu__rw_is(rw, open - 1, "]"))
        return 1; /* `[captures](parameters) {` */
      if (cuemu__rw_is(rw, open - 1, ">")) { /* C++20's `[]<class T>(T x) {` */
        size_t lt = cuemu__rw_template_open(rw, open - 1);
        return lt != (size_t)-1 && lt > 0 && cuemu__rw_is(rw, lt - 1, "]");
      }
      if (cuemu__rw_is(rw, open - 1, "noexcept")) {
        k = open - 1;
        continue;
      }
      return 0; /* a statement's or a function's parentheses */
    }
    if (cuemu__rw_is(rw, p, "mutable") || cuemu__rw_is(rw, p, "constexpr") ||
        cuemu__rw_is(rw, p, "noexcept") || cuemu__rw_is(rw, p, "->") ||
        cuemu__rw_is(rw, p, "::") || cuemu__rw_is(rw, p, "*") ||
        cuemu__rw_is(rw, p, "&") || cuemu__rw_ident(rw, p)) {
      k = p; /* a trailing return type's words */
      continue;
    }
    return 0;
  }
  return 0;
}

/* Whether the `{` at token b opens a class's body (a local class of main):
 * `struct`, `class` or `union` in the declaration before it. */
static int class_body(const cuemu_rewriter *rw, size_t b) {
  for (size_t k = b; k > 0; k--) {
    size_t p = k - 1;
    if (cuemu__rw_is(rw, p, ";") || cuemu__rw_is(rw, p, "{") ||
        cuemu__rw_is(rw, p, "}") || cuemu__rw_is(rw, p, ")"))
      return 0;
    if (cuemu__rw_is(rw, p, "struct") || cuemu__rw_is(rw, p, "class") ||
        cuemu__rw_is(rw, p, "union"))
      return 1;
  }
  return 0;
}

cuemu_status cuemu__rw_bare_returns(cuemu_rewriter *rw, size_t open,
                                    size_t close, const char *value, int edit,
                                    int warn, const char *function,
                                    int after_value) {
  cuemu_status st = CUEMU_SUCCESS;
  int valued = 0; /* a `return` with a value was seen */
  for (size_t k = open + 1; k < close && st == CUEMU_SUCCESS; k++) {
    if (cuemu__rw_is(rw, k, "{") &&
        (lambda_body(rw, k) || class_body(rw, k))) {
      size_t end = cuemu__rw_close(rw, k);
      if (end >= close)
        break;
      k = end;
      continue;
    }
    if (!cuemu__rw_is(rw, k, "return"))
      continue;
    if (!cuemu__rw_is(rw, k + 1, ";")) {
      valued = 1;
      continue;
    }
    if (after_value && !valued)
      continue;
    if (edit) {
      const cuemu_token *semicolon = &rw->toks[k + 1];
      st = cuemu__rw_edit(rw, semicolon->offset, 0, value, strlen(value));
    }
    if (warn) {
      char what[512];
      snprintf(what, sizeof what,
               "non-void function \"%s\" should return a value", function);
      cuemu__rw_diagnose(rw, k,
                         cuemu__rw_diag_level(rw, rw->toks[k].offset, 117,
                                              rw->warn_main_bare_return),
                         "117-D", what);
    }
  }
  return st;
}

/* The token after main's declarator whose parentheses close at token
 * params: past a trailing return type `-> int` (of `auto main(...)`) and
 * the `try` of a function-try-block, which *is_try tells. */
static size_t past_declarator(const cuemu_rewriter *rw, size_t params,
                              int trailing, int *is_try) {
  size_t k = params + 1;
  if (trailing) {
    if (!cuemu__rw_is(rw, k, "->") || !cuemu__rw_is(rw, k + 1, "int"))
      return (size_t)-1;
    k += 2;
  }
  *is_try = cuemu__rw_is(rw, k, "try");
  return k + (size_t)*is_try;
}

/* Edits main's `return;` statements: those of its body, opening at token
 * body, and of the handlers `catch (...) {...}` after it where main's body
 * is a function-try-block (a `return;` in them returns from main too). */
static cuemu_status main_returns(cuemu_rewriter *rw, size_t body, int is_try) {
  size_t close = cuemu__rw_close(rw, body);
  if (close >= rw->n)
    return CUEMU_SUCCESS;
  int warn = rw->pass != CUEMU_PASS_DEVICE;
  cuemu_status st =
      cuemu__rw_bare_returns(rw, body, close, " 0", 1, warn, "main", 0);
  while (st == CUEMU_SUCCESS && is_try && cuemu__rw_is(rw, close + 1, "catch") &&
         cuemu__rw_is(rw, close + 2, "(")) {
    size_t handler = cuemu__rw_close(rw, close + 2) + 1;
    if (handler >= rw->n || !cuemu__rw_is(rw, handler, "{"))
      break;
    close = cuemu__rw_close(rw, handler);
    if (close >= rw->n)
      break;
    st = cuemu__rw_bare_returns(rw, handler, close, " 0", 1, warn,
                                "main", 0);
  }
  return st;
}

cuemu_status cuemu__main_bare_returns(cuemu_rewriter *rw) {
  size_t depth = 0;
  for (size_t i = 0; i < rw->n; i++) {
    if (cuemu__rw_is(rw, i, "{")) {
      depth++;
      continue;
    }
    if (cuemu__rw_is(rw, i, "}")) {
      depth -= depth > 0;
      continue;
    }
    /* `int main(...) {` or `auto main(...) -> int {` at namespace scope,
     * the user's own, either with a function-try-block. */
    if (depth != 0 || i == 0 || !cuemu__rw_is(rw, i, "main") ||
        !(cuemu__rw_is(rw, i - 1, "int") || cuemu__rw_is(rw, i - 1, "auto")) ||
        !cuemu__rw_is(rw, i + 1, "(") ||
        (rw->toks[i].flags & (CUEMU_TOKEN_FOREIGN | CUEMU_TOKEN_SHIM)))
      continue;
    size_t params = cuemu__rw_close(rw, i + 1);
    if (params >= rw->n)
      continue;
    int is_try = 0;
    size_t body = past_declarator(rw, params, cuemu__rw_is(rw, i - 1, "auto"),
                                  &is_try);
    if (body >= rw->n || !cuemu__rw_is(rw, body, "{"))
      continue;
    return main_returns(rw, body, is_try);
  }
  return CUEMU_SUCCESS;
}
