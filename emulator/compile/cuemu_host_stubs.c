/*
 * cuemu_host_stubs.c: what the host pass keeps of the user's device code,
 * as nvcc's host compile (cudafe++) keeps it: declarations and stubs.
 *
 * nvcc's host compiler never sees the body of a kernel or of a function
 * that is only __device__: cudafe++ replaces them (a kernel by a stub that
 * launches it, a __device__ function by a body that exits), so `-Xcompiler
 * -Wall,-Werror` warns about host code only. In cuemu's host pass a
 * kernel's body is dropped (cuemu_rewrite.c's kernel_linkage(): a
 * declaration of the device pass's kernel, or a template's instance
 * record), and the body of a namespace-scope __device__ function becomes
 * `{ __builtin_trap(); }` with GCC's `error` attribute, so that a call
 * from host code that survives the optimiser is a compile error, as nvcc
 * refuses it ("calling a __device__ function from a __host__ function is
 * not allowed"); so does that of a __device__ member function defined in a
 * class (cuemu__host_member_stub()); not that of a destructor, which a
 * virtual table's deleting destructor calls (refuse_host_calls()). A
 * declaration of a __device__
 * function without its body (a prototype before the definition, an
 * `extern` one defined in another unit under -rdc) gets the attribute
 * too (cuemu__host_device_decl()): clang++ accepts `error` only when the
 * first declaration has it. Functions whose body the host may
 * need are kept: constexpr ones (--expt-relaxed-constexpr lets host code
 * call them), those whose return type is deduced, constructors with
 * initializers, and __host__ __device__ ones.
 *
 * The body of an extended `__device__` lambda of host code cannot be
 * replaced (host code may name its closure type's operator(), whose
 * return type the body deduces), so the host pass compiles it as a system
 * header's code (cuemu__host_unwarned()): its errors are shown, as the
 * device pass's are, and the host compiler's warnings are not.
 *
 * A stub leaves its parameters unused, so it is wrapped in pragmas that
 * silence -Wunused-parameter (-Wextra) for it alone. The pragmas go before
 * the declaration's first token and after its last, where no directive
 * can be (the tokens are the significant ones), and on the lines of those
 * tokens, so that the line count is unchanged.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuemu_rewriter.h"

static const char quiet_push[] =
    "_Pragma(\"GCC diagnostic push\") "
    "_Pragma(\"GCC diagnostic ignored \\\"-Wunused-parameter\\\"\") ";
static const char quiet_pop[] = " _Pragma(\"GCC diagnostic pop\")";

cuemu_status cuemu__host_quiet(cuemu_rewriter *rw, size_t first,
                               size_t last) {
  const cuemu_token *a = &rw->toks[first], *b = &rw->toks[last];
  cuemu_status st =
      cuemu__rw_edit(rw, a->offset, 0, quiet_push, sizeof quiet_push - 1);
  if (st == CUEMU_SUCCESS)
    st = cuemu__rw_edit(rw, b->offset + b->length, 0, quiet_pop,
                        sizeof quiet_pop - 1);
  return st;
}

void cuemu__rw_line_marker(cuemu_strbuf *sb, const cuemu_rewriter *rw,
                           size_t offset, const char *file, int line,
                           int system) {
  char number[32];
  snprintf(number, sizeof number, "\n# %d \"", line);
  cuemu__sb_str(sb, number);
  for (const char *c = file; *c; c++) {
    if (*c == '"' || *c == '\\')
      cuemu__sb_add(sb, "\\", 1);
    cuemu__sb_add(sb, c, 1);
  }
  cuemu__sb_str(sb, system ? "\" 3\n" : "\"\n");
  size_t start = offset;
  while (start > 0 && rw->text[start - 1] != '\n')
    start--;
  for (; start < offset; start++)
    cuemu__sb_add(sb, rw->text[start] == '\t' ? "\t" : " ", 1);
}

cuemu_status cuemu__host_unwarned(cuemu_rewriter *rw, size_t open,
                                  size_t close) {
  const cuemu_token *a = &rw->toks[open], *b = &rw->toks[close];
  const char *file;
  int line;
  cuemu_strbuf in = {0}, out = {0};
  cuemu__rw_where(rw, a->line, &file, &line);
  cuemu__rw_line_marker(&in, rw, a->offset, file, line, 1);
  cuemu__rw_where(rw, b->line, &file, &line);
  cuemu__rw_line_marker(&out, rw, b->offset + b->length, file, line, 0);
  cuemu_status st = in.oom || out.oom ? CUEMU_OUT_OF_MEMORY
                                      : cuemu__rw_edit(rw, a->offset, 0,
                                                       in.data, in.length);
  if (st == CUEMU_SUCCESS)
    st = cuemu__rw_edit(rw, b->offset + b->length, 0, out.data, out.length);
  free(in.data);
  free(out.data);
  return st;
}

/* The `(` of the parameters of the function declared after token `from`
 * (a `__device__`), skipping attributes, template argument lists and
 * decltype(...); rw->n when the declaration is not a function's or the
 * body is not the `{` at `brace`. */
static size_t parameters(const cuemu_rewriter *rw, size_t from, size_t brace) {
  size_t k = from + 1;
  while (k < brace) {
    size_t after = cuemu__rw_skip_attribute(rw, k);
    if (after != k) {
      k = after;
    } else if (cuemu__rw_is(rw, k, "<")) {
      k = cuemu__rw_template_close(rw, k) + 1;
    } else if (cuemu__rw_is(rw, k, "decltype") ||
               cuemu__rw_is(rw, k, "__typeof__") ||
               cuemu__rw_is(rw, k, "typeof")) {
      k = cuemu__rw_is(rw, k + 1, "(") ? cuemu__rw_close(rw, k + 1) + 1 : k + 1;
    } else if (cuemu__rw_is(rw, k, "operator")) {
      /* The operator's name: `operator()`, `operator+`, `operator[]`. */
      k++;
      if (cuemu__rw_is(rw, k, "(") && cuemu__rw_is(rw, k + 1, ")"))
        k += 2;
      while (k < brace && !cuemu__rw_is(rw, k, "("))
        k++;
      return k < brace ? k : rw->n;
    } else if (cuemu__rw_is(rw, k, "(")) {
      return k;
    } else if (cuemu__rw_is(rw, k, "=") || cuemu__rw_is(rw, k, "[") ||
               cuemu__rw_is(rw, k, ";")) {
      return rw->n;
    } else {
      k++;
    }
  }
  return rw->n;
}

/* The `__device__` of a declaration in tokens [decl_start, end) that is
 * only device code (no `__host__`, `__global__`, `constexpr` or
 * `consteval`); rw->n when there is none. *deduced is set when the
 * declaration has an `auto`. */
static size_t device_only(const cuemu_rewriter *rw, size_t decl_start,
                          size_t end, int *deduced) {
  size_t device = rw->n;
  *deduced = 0;
  for (size_t k = decl_start; k < end; k++) {
    if (cuemu__rw_is(rw, k, "__device__") && device == rw->n)
      device = k;
    else if (cuemu__rw_is(rw, k, "__host__") ||
             cuemu__rw_is(rw, k, "__global__") ||
             cuemu__rw_is(rw, k, "constexpr") ||
             cuemu__rw_is(rw, k, "consteval"))
      return rw->n;
    else if (cuemu__rw_is(rw, k, "auto"))
      *deduced = 1;
  }
  return device;
}

/* Non-zero when the declarator between token `device` and the parameters'
 * `(` at `open` names an operator (`operator()`, `operator+`), whose
 * declarations take the attribute as a named function's do. */
static int operator_name(const cuemu_rewriter *rw, size_t device,
                         size_t open) {
  for (size_t k = device + 1; k < open; k++)
    if (cuemu__rw_is(rw, k, "operator"))
      return 1;
  return 0;
}

/* Non-zero when the definition whose parameters open at token `open`
 * names a member or a function of a namespace outside its scope
 * (`Cls::name`, `Cls::operator+`): its first declaration, in the class or
 * namespace, has the attribute or, in a system header's class, has none,
 * which clang++ refuses to add on a later declaration ("'error' attribute
 * does not appear on the first declaration"). */
static int qualified_name(const cuemu_rewriter *rw, size_t device,
                          size_t open) {
  size_t name = open - 1;
  for (size_t k = device + 1; k < open; k++)
    if (cuemu__rw_is(rw, k, "operator")) {
      name = k;
      break;
    }
  return name > device + 1 && cuemu__rw_is(rw, name - 1, "::");
}

/* Puts nvcc's message for a call from host code, as GCC's `error`
 * attribute naming the function whose parameters open at token `open`,
 * after the declaration's `__device__` (token `device`). A definition's
 * attribute adds `noinline`, so that a call of its stub is not inlined
 * away; a prototype's does not: it has no body to inline, and GCC warns
 * about an `inline` (or `__forceinline__`) prototype given `noinline`
 * whatever the warning options ("inline function ... given attribute
 * 'noinline'", where nvcc says nothing). */
static cuemu_status refuse_host_calls(cuemu_rewriter *rw, size_t device,
                                      size_t open, int definition) {
  /* A destructor's stub takes no attribute: a virtual one's deleting
   * destructor, which the compiler emits with the virtual table, calls the
   * complete object's, and g++ -O0 and -O1 keep that call (-O2 inlines it:
   * -finline-small-functions), so the attribute refused a unit that nvcc
   * builds (a __device__ virtual destructor defined out of its class:
   * tests/programs/trialproj/rt_weekend). Whether a destructor is virtual
   * cannot be told from its declaration (a base's makes it so), so no
   * destructor has it; nvcc's host code has a plain body for each, as the
   * stub is. Host code that destroys an object of such a class, which
   * nvcc refuses, compiles (the stub traps if it runs). */
  if (open >= 2 && cuemu__rw_is(rw, open - 2, "~"))
    return CUEMU_SUCCESS;
  const cuemu_token *d = &rw->toks[device];
  cuemu_strbuf refused = {0};
  cuemu__sb_str(&refused, " __attribute__((error(\"calling a __device__ "
                          "function(\\\"");
  if (cuemu__rw_ident(rw, open - 1))
    cuemu__sb_tokens(&refused, rw, open - 1, open, 0);
  cuemu__sb_str(&refused, "\\\") from a __host__ function is not allowed "
                          "(nvcc refuses it too)\")");
  cuemu__sb_str(&refused, definition ? ", noinline))" : "))");
  cuemu_status st =
      refused.oom ? CUEMU_OUT_OF_MEMORY
                  : cuemu__rw_edit(rw, d->offset + d->length, 0, refused.data,
                                   refused.length);
  free(refused.data);
  return st;
}

cuemu_status cuemu__host_device_decl(cuemu_rewriter *rw, size_t decl_start,
                                     size_t semicolon) {
  int deduced;
  size_t device = device_only(rw, decl_start, semicolon, &deduced);
  if (device == rw->n || deduced)
    return CUEMU_SUCCESS;
  /* An explicit instantiation (`template __device__ ...;`) or a typedef
   * takes no such attribute. */
  for (size_t k = decl_start; k < semicolon; k++)
    if (cuemu__rw_is(rw, k, "typedef") ||
        (cuemu__rw_is(rw, k, "template") && !cuemu__rw_is(rw, k + 1, "<")))
      return CUEMU_SUCCESS;
  size_t open = parameters(rw, device, semicolon);
  size_t close = open < rw->n ? cuemu__rw_close(rw, open) : rw->n;
  if (close >= semicolon ||
      !(cuemu__rw_ident(rw, open - 1) || operator_name(rw, device, open)))
    return CUEMU_SUCCESS;
  /* Not a variable: `(*name)(...)` declares a pointer, and a literal or
   * an `=` after the parentheses (`x(5)`, `= delete`) is no function
   * declaration that host code could call. */
  if (close > open + 1 &&
      (cuemu__rw_is(rw, open + 1, "*") || cuemu__rw_is(rw, open + 1, "&") ||
       rw->toks[open + 1].kind == CUEMU_TOKEN_NUMBER ||
       rw->toks[open + 1].kind == CUEMU_TOKEN_STRING ||
       rw->toks[open + 1].kind == CUEMU_TOKEN_CHAR))
    return CUEMU_SUCCESS;
  for (size_t k = close + 1; k < semicolon; k++)
    if (cuemu__rw_is(rw, k, "=") || cuemu__rw_is(rw, k, "("))
      return CUEMU_SUCCESS;
  /* A later `__host__ __device__` redeclaration makes it a function that
   * host code may call (nvcc's warning #20036-D). */
  if (cuemu__device_redeclared_host_device(rw, open, semicolon))
    return CUEMU_SUCCESS;
  return refuse_host_calls(rw, device, open, 0);
}

/* Whether the function whose parameters open at token `open`, declared
 * from token `decl_start`, is a constructor: `C::C(` out of its class, or
 * a name after nothing but specifiers and attributes in it. */
static int constructor(const cuemu_rewriter *rw, size_t decl_start,
                       size_t open) {
  static const char *const specifiers[] = {
      "__device__", "__forceinline__", "__noinline__", "inline", "explicit"};
  if (open < decl_start + 1 || !cuemu__rw_ident(rw, open - 1))
    return 0;
  const cuemu_token *name = &rw->toks[open - 1];
  if (open >= decl_start + 3 && cuemu__rw_is(rw, open - 2, "::")) {
    const cuemu_token *scope = &rw->toks[open - 3];
    return scope->length == name->length &&
           memcmp(rw->text + scope->offset, rw->text + name->offset,
                  name->length) == 0;
  }
  for (size_t k = decl_start; k + 1 < open; k++) {
    if (cuemu__rw_is(rw, k, ")") || cuemu__rw_is(rw, k, "]"))
      continue; /* the end of an attribute, skipped below */
    size_t i = 0;
    while (i < sizeof specifiers / sizeof *specifiers &&
           !cuemu__rw_is(rw, k, specifiers[i]))
      i++;
    if (i < sizeof specifiers / sizeof *specifiers)
      continue;
    if ((cuemu__rw_is(rw, k, "__attribute__") ||
         cuemu__rw_is(rw, k, "__launch_bounds__") ||
         cuemu__rw_is(rw, k, "__maxnreg__") ||
         cuemu__rw_is(rw, k, "alignas")) &&
        cuemu__rw_is(rw, k + 1, "(")) {
      k = cuemu__rw_close(rw, k + 1);
      continue;
    }
    if (cuemu__rw_is(rw, k, "[") && cuemu__rw_is(rw, k + 1, "[")) {
      k = cuemu__rw_close(rw, k);
      continue;
    }
    return 0;
  }
  return 1;
}

/* Replaces the body (its `{` at token `brace`) of the function declared
 * from token decl_start, whose parameters follow token `from`, by the
 * stub, but keeps a body that the host may need (a deduced return type, a
 * constructor's initializers, an empty constructor); with `device` (its
 * `__device__` token, else rw->n), gives it the attribute that refuses
 * host calls too. */
static cuemu_status stub_body(cuemu_rewriter *rw, size_t decl_start,
                              size_t from, size_t device, size_t brace,
                              int deduced) {
  static const char stub[] = "{ __builtin_trap(); }";
  size_t k;
  size_t open = parameters(rw, from, brace);
  size_t close = open < rw->n ? cuemu__rw_close(rw, open) : rw->n;
  if (close >= brace)
    return CUEMU_SUCCESS;
  /* Between the parameters and the body: a trailing return type, or a
   * constructor's initializers (`:`), which stay (a reference or const
   * member needs its own), before the body, which goes unless empty. */
  for (k = close + 1; k < brace; k++) {
    if (cuemu__rw_is(rw, k, "->"))
      deduced = 0;
    if (cuemu__rw_is(rw, k, "=")) {
      rw->host_device_code = 1; /* the body stays */
      return CUEMU_SUCCESS;
    }
  }
  int initializers = 0;
  for (k = close + 1; k < brace && !initializers; k++)
    initializers = cuemu__rw_is(rw, k, ":");
  /* A constructor defined after its class keeps its initializers, and the
   * default member initializers of its class, which may call __device__
   * functions (`: v(dev_f())`, `int x = dev_f();`): inline, it is compiled
   * only where host code calls it (and refused there), as one defined in
   * its class is. */
  const int later = constructor(rw, decl_start, open) &&
                    cuemu__rw_is(rw, open - 2, "::") &&
                    !cuemu__rw_is(rw, decl_start, "template") &&
                    !cuemu__rw_is(rw, decl_start, "inline");
  size_t scope = open - 3; /* `inline` before `ns::S::S(` */
  while (later && scope >= decl_start + 2 &&
         cuemu__rw_is(rw, scope - 1, "::") && cuemu__rw_ident(rw, scope - 2))
    scope -= 2;
  if (later && scope > decl_start && cuemu__rw_is(rw, scope - 1, "::"))
    scope--; /* `::S::S(` */
  cuemu_status st = later ? cuemu__rw_edit(rw, rw->toks[scope].offset, 0,
                                           "inline ", 7)
                          : CUEMU_SUCCESS;
  if (st != CUEMU_SUCCESS)
    return st;
  if (initializers) {
    size_t body = cuemu__rw_past_member_initializers(rw, brace);
    if (body >= rw->n || cuemu__rw_close(rw, body) == body + 1) {
      rw->host_device_code = 1; /* the body stays */
      return CUEMU_SUCCESS;
    }
    brace = body;
  }
  size_t end = cuemu__rw_close(rw, brace);
  if (deduced || end >= rw->n) {
    rw->host_device_code = 1; /* the body stays */
    return CUEMU_SUCCESS;
  }
  /* An empty constructor stays as it is: nvcc accepts a __device__ or
   * __constant__ variable of its class (no dynamic initialization), whose
   * host pass's definition calls it at start-up. */
  if (end == brace + 1 && constructor(rw, decl_start, open))
    return CUEMU_SUCCESS;
  const cuemu_token *a = &rw->toks[brace], *b = &rw->toks[end];
  /* nvcc's message, naming the function (a member's, on its declaration
   * in the class). */
  st = device >= rw->n || qualified_name(rw, device, open)
           ? CUEMU_SUCCESS
           : refuse_host_calls(rw, device, open, 1);
  if (st == CUEMU_SUCCESS)
    st = cuemu__rw_edit(rw, a->offset, b->offset + b->length - a->offset, stub,
                        sizeof stub - 1);
  if (st == CUEMU_SUCCESS)
    st = cuemu__host_quiet(rw, decl_start, end);
  return st;
}

cuemu_status cuemu__host_device_stub(cuemu_rewriter *rw, size_t decl_start,
                                     size_t brace) {
  int deduced;
  size_t device = device_only(rw, decl_start, brace, &deduced);
  if (device == rw->n)
    return CUEMU_SUCCESS;
  return stub_body(rw, decl_start, device, device, brace, deduced);
}

cuemu_status cuemu__host_redeclared_stub(cuemu_rewriter *rw,
                                         size_t decl_start, size_t brace) {
  int deduced = 0;
  for (size_t k = decl_start; k < brace; k++)
    if (cuemu__rw_is(rw, k, "constexpr") || cuemu__rw_is(rw, k, "consteval"))
      return CUEMU_SUCCESS;
    else if (cuemu__rw_is(rw, k, "auto"))
      deduced = 1;
  /* Its parameters: the first `(` after the template head. */
  size_t from = decl_start;
  if (cuemu__rw_is(rw, from, "template") && cuemu__rw_is(rw, from + 1, "<"))
    from = cuemu__rw_template_close(rw, from + 1);
  if (from >= brace)
    return CUEMU_SUCCESS;
  return stub_body(rw, decl_start, from, rw->n, brace, deduced);
}

/* The first token of the member declaration whose `__device__` is token
 * `device`, or rw->n where it is in no declaration. */
static size_t member_decl_start(const cuemu_rewriter *rw, size_t device) {
  /* A member's declaration starts after the `{`, `;`, `}` or access
   * specifier's `:` before it; anything else before the `__device__` (an
   * expression: `[] __device__ (...)`) is not a declaration. */
  size_t start = device;
  while (start > 0) {
    size_t prev = start - 1;
    if (cuemu__rw_is(rw, prev, "{") || cuemu__rw_is(rw, prev, ";") ||
        cuemu__rw_is(rw, prev, "}") || cuemu__rw_is(rw, prev, ":"))
      break;
    if (cuemu__rw_is(rw, prev, ">")) {
      size_t lt = cuemu__rw_template_open(rw, prev);
      if (lt == (size_t)-1 || lt == 0 || !cuemu__rw_is(rw, lt - 1, "template"))
        return rw->n;
      start = lt - 1;
      continue;
    }
    if (cuemu__rw_is(rw, prev, ")") || cuemu__rw_is(rw, prev, "]"))
      start = cuemu__rw_attribute_start(rw, prev);
    if (start == prev + 1) {
      if (!cuemu__rw_ident(rw, prev))
        return rw->n;
      start = prev;
    }
  }
  return start;
}

size_t cuemu__rw_member_body(const cuemu_rewriter *rw, size_t device,
                             size_t *decl_start) {
  const size_t start = member_decl_start(rw, device);
  if (start >= rw->n)
    return rw->n;
  /* Its body: the first `{` after the parameters, before any `;`. */
  size_t k = device + 1, open = rw->n;
  for (; k < rw->n; k++) {
    if (cuemu__rw_is(rw, k, ";") || cuemu__rw_is(rw, k, "}"))
      return rw->n;
    if (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "[")) {
      if (open == rw->n && cuemu__rw_is(rw, k, "("))
        open = k;
      k = cuemu__rw_close(rw, k);
      if (k >= rw->n)
        return rw->n;
      continue;
    }
    if (cuemu__rw_requires_body(rw, k)) {
      /* A requires-clause's requires-expression, not the body. */
      k = cuemu__rw_close(rw, k);
      if (k >= rw->n)
        return rw->n;
      continue;
    }
    if (cuemu__rw_is(rw, k, "{"))
      break;
  }
  if (k >= rw->n || open == rw->n)
    return rw->n;
  *decl_start = start;
  return k;
}

/* The `;` that ends the member declaration without a body whose
 * `__device__` is token `device`, or rw->n where a body or the class's end
 * comes first. */
static size_t member_decl_end(const cuemu_rewriter *rw, size_t device) {
  for (size_t k = device + 1; k < rw->n; k++) {
    if (cuemu__rw_is(rw, k, ";"))
      return k;
    if (cuemu__rw_is(rw, k, "{") || cuemu__rw_is(rw, k, "}"))
      return rw->n;
    if (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "["))
      k = cuemu__rw_close(rw, k);
  }
  return rw->n;
}

cuemu_status cuemu__host_member_stub(cuemu_rewriter *rw, size_t device) {
  size_t start = 0, body = cuemu__rw_member_body(rw, device, &start);
  if (body < rw->n)
    return cuemu__host_device_stub(rw, start, body);
  /* A member function declared here and defined outside the class: its
   * definition gets the attribute (cuemu__host_device_stub()), which
   * clang++ takes only where the first declaration, this one, has it (a
   * friend's too: both compilers take it there). Not for a constructor or
   * destructor, whose name follows the specifiers, nor an operator. */
  start = member_decl_start(rw, device);
  const size_t end = member_decl_end(rw, device);
  if (start >= rw->n || end >= rw->n)
    return CUEMU_SUCCESS;
  size_t name = rw->n;
  for (size_t k = start; k < end; k++) {
    if (cuemu__rw_is(rw, k, "~") || cuemu__rw_is(rw, k, "operator"))
      return CUEMU_SUCCESS;
    if (name == rw->n && cuemu__rw_is(rw, k, "("))
      name = k - 1;
  }
  static const char *const specifiers[] = {
      "__device__", "__forceinline__", "__noinline__", "inline", "explicit",
      "static", "virtual", "constexpr", "friend", ":", "{", ";", "}"};
  if (name >= rw->n || name <= start)
    return CUEMU_SUCCESS;
  for (size_t i = 0; i < sizeof specifiers / sizeof *specifiers; i++)
    if (cuemu__rw_is(rw, name - 1, specifiers[i]))
      return CUEMU_SUCCESS;
  return cuemu__host_device_decl(rw, start, end);
}
