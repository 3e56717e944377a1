/*
 * cuemu_launch_rewrite.c: rewriting of `callee<<<grid, block, shmem, stream>>>(args)`.
 *
 * The callee is the postfix expression right before `<<<`. When it is an
 * id-expression (optional `::`, qualifiers, template arguments) whose last
 * identifier names a kernel declared earlier in the file, the launch becomes
 * `::cuemu::launch_static<CUEMU_KERNEL_ARGS(callee)>(config)(args)` (for a
 * template-id `((void)&callee,
 * ::cuemu::launch_static<CUEMU_KERNEL_ARGS(callee)>(config))(args)`, so
 * that the instance is made even in a template where the arguments are not
 * dependent), or, for a kernel template
 * called without template arguments (they are deduced),
 * `::cuemu::launch_deduced("callee", [&](auto &&...a) { callee(a...); },
 * config)(args)`;
 * any other callee (function
 * pointer, `(*fp)`, `obj.k`, `table[i]`) gives
 * `::cuemu::launch_dynamic(callee, config)(args)`. In a translation unit,
 * a launch_static launcher goes through
 * `::cuemu::__cuemu_launch_checked<sizeof((callee(args), 0))>(...)`,
 * which checks the arguments as a call of the kernel where the launch is
 * written (the host compiler's error is then about the user's line, not
 * the shims'), unless an argument is a lambda. In kernel code of the
 * device pass, `.device_side()` follows the launcher (`...(config)
 * .device_side()(args)`), which refuses the arguments nvcc refuses there.
 * A launch whose call picks the kernel (launch_deduced, launch_overloaded)
 * and a launch in kernel code go through
 * `::cuemu::__cuemu_by_value<decltype(::cuemu::__cuemu_arg_kinds(args))>(
 * launcher)(args)` (unless an argument is a lambda), which takes a
 * constant by value, as nvcc's stubs do. Only `<<<`, `>>>` and the
 * insertion point change, so newlines inside the launch stay where they are.
 */
#define _GNU_SOURCE
#include <stdio.h>

#include "cuemu_launch_calls.h"
#include "cuemu_rewriter.h"

#include <stdlib.h>
#include <string.h>

/* Keywords that may precede a parenthesis without making a call. */
static int is_statement_keyword(const cuemu_rewriter *rw, size_t i) {
  static const char *const words[] = {
      "if", "while", "for", "switch", "return", "sizeof", "alignof",
      "decltype", "catch", "else", "do", "case", "throw", "co_return",
      "co_await", "co_yield", "new", "delete", "typeid", "noexcept",
      "static_assert", "and", "or", "not", "alignas", NULL};
  int k;
  for (k = 0; words[k]; k++)
    if (cuemu__rw_is(rw, i, words[k])) return 1;
  return 0;
}

/* First token of the callee that ends at token k (< i); i if there is none.
 * *name is the callee's last identifier when the callee is an id-expression,
 * else (size_t)-1. */
static size_t callee_start(const cuemu_rewriter *rw, size_t k, size_t none,
                           size_t *name) {
  size_t start = none;
  int plain = 1;
  *name = (size_t)-1;
  for (;;) {
    if (cuemu__rw_is(rw, k, ">")) {
      size_t lt = cuemu__rw_template_open(rw, k);
      if (lt == (size_t)-1 || lt == 0 || !cuemu__rw_ident(rw, lt - 1))
        return start;
      k = lt - 1;
    }
    if (cuemu__rw_ident(rw, k)) {
      if (plain && *name == (size_t)-1) *name = k;
      start = k;
      while (start >= 1 && cuemu__rw_is(rw, start - 1, "::")) {
        size_t q = start - 1;
        start = q;
        if (q >= 1 && cuemu__rw_ident(rw, q - 1)) {
          start = q - 1;
        } else if (q >= 1 && cuemu__rw_is(rw, q - 1, ">")) {
          size_t lt = cuemu__rw_template_open(rw, q - 1);
          if (lt == (size_t)-1 || lt == 0 || !cuemu__rw_ident(rw, lt - 1))
            break;
          start = lt - 1;
        } else {
          break; /* a leading :: */
        }
      }
      if (start >= 2 &&
          (cuemu__rw_is(rw, start - 1, ".") ||
           cuemu__rw_is(rw, start - 1, "->"))) {
        plain = 0;
        *name = (size_t)-1;
        k = start - 2;
        continue;
      }
      return start;
    }
    if (cuemu__rw_is(rw, k, ")") || cuemu__rw_is(rw, k, "]")) {
      int paren = cuemu__rw_is(rw, k, ")");
      size_t open = cuemu__rw_open(rw, k);
      if (open == (size_t)-1) return start;
      plain = 0;
      *name = (size_t)-1;
      start = open;
      if (open == 0) return start;
      if (paren && (!cuemu__rw_ident(rw, open - 1) ||
                    is_statement_keyword(rw, open - 1)))
        return start; /* a parenthesised expression */
      if (!paren && !cuemu__rw_ident(rw, open - 1) &&
          !cuemu__rw_is(rw, open - 1, ")") &&
          !cuemu__rw_is(rw, open - 1, "]") && !cuemu__rw_is(rw, open - 1, ">"))
        return start; /* not a subscript */
      k = open - 1;   /* a call or a subscript: its operand comes next */
      continue;
    }
    return start;
  }
}

/* Non-zero when the arguments of the launch whose `>>>` is token j can be
 * written twice, once in an unevaluated operand: in a translation unit
 * (the shims declare what such an operand names there), with no lambda
 * among them (in an unevaluated operand, an error before C++20). *open and
 * *close are then the tokens of their parentheses. */
static int arguments_repeatable(const cuemu_rewriter *rw, size_t j,
                                size_t *open, size_t *close) {
  *open = j + 3;
  if (!rw->preprocessed || !cuemu__rw_is(rw, *open, "(")) return 0;
  *close = cuemu__rw_close(rw, *open);
  if (*close >= rw->n) return 0;
  for (size_t k = *open + 1; k < *close; k++)
    if (cuemu__rw_is(rw, k, "[") &&
        (k == *open + 1 || cuemu__rw_is(rw, k - 1, "(") ||
         cuemu__rw_is(rw, k - 1, ",") || cuemu__rw_is(rw, k - 1, "=") ||
         cuemu__rw_is(rw, k - 1, "?") || cuemu__rw_is(rw, k - 1, ":") ||
         cuemu__rw_is(rw, k - 1, "{") || cuemu__rw_is(rw, k - 1, "return")))
      return 0;
  return 1;
}

/* Non-zero when tokens [a, b) are a name alone: `::`-qualified
 * identifiers, with no template arguments. */
static int plain_name(const cuemu_rewriter *rw, size_t a, size_t b) {
  size_t k = a;
  if (k < b && cuemu__rw_is(rw, k, "::")) k++;
  for (;;) {
    if (k >= b || !cuemu__rw_ident(rw, k)) return 0;
    if (++k == b) return 1;
    if (!cuemu__rw_is(rw, k, "::")) return 0;
    k++;
  }
}

/* Where __cuemu_by_value cannot take the launch's arguments (a lambda is
 * among them), each argument that is a name alone becomes
 * `::cuemu::__cuemu_arg_value<decltype((name))>(name)`
 * (cuemu_kernel_params.h), so that a const scalar is read, not odr-used,
 * as nvcc's by-value stub reads it. An argument list with a `<` or `>`
 * outside parentheses is left as it is: its commas may be a template's. */
static cuemu_status wrap_named_arguments(cuemu_rewriter *rw, size_t j) {
  size_t open = j + 3;
  if (!rw->preprocessed || !cuemu__rw_is(rw, open, "(")) return CUEMU_SUCCESS;
  size_t close = cuemu__rw_close(rw, open);
  if (close >= rw->n) return CUEMU_SUCCESS;
  for (size_t k = open + 1; k < close; k++) {
    if (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "[") ||
        cuemu__rw_is(rw, k, "{"))
      k = cuemu__rw_close(rw, k);
    else if (cuemu__rw_is(rw, k, "<") || cuemu__rw_is(rw, k, ">"))
      return CUEMU_SUCCESS;
  }
  size_t a = open + 1;
  for (size_t k = open + 1; k <= close; k++) {
    if (k < close && (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "[") ||
                      cuemu__rw_is(rw, k, "{"))) {
      k = cuemu__rw_close(rw, k);
      continue;
    }
    if (k < close && !cuemu__rw_is(rw, k, ",")) continue;
    if (plain_name(rw, a, k)) {
      cuemu_strbuf head = {0};
      cuemu__sb_str(&head, "::cuemu::__cuemu_arg_value<decltype((");
      cuemu__sb_tokens(&head, rw, a, k, 0);
      cuemu__sb_str(&head, "))>(");
      cuemu_status st =
          head.oom ? CUEMU_OUT_OF_MEMORY
                   : cuemu__rw_edit(rw, rw->toks[a].offset, 0, head.data,
                                    head.length);
      free(head.data);
      if (st == CUEMU_SUCCESS)
        st = cuemu__rw_edit(rw, rw->toks[k - 1].offset + rw->toks[k - 1].length,
                            0, ")", 1);
      if (st != CUEMU_SUCCESS) return st;
    }
    a = k + 1;
  }
  return CUEMU_SUCCESS;
}

/* The check of a launch's arguments by a call of the kernel (tokens
 * [start, i) are the callee, j the `>>>`):
 * `::cuemu::__cuemu_launch_checked<sizeof((callee(args), 0))>(`, in *out
 * (empty), and *checked set; or nothing where the arguments cannot be
 * written twice: a lambda (in an unevaluated operand, an error before
 * C++20). Out of memory, *out is freed. */
static cuemu_status argument_check(const cuemu_rewriter *rw, size_t start,
                                   size_t i, size_t j, cuemu_strbuf *out,
                                   int *checked) {
  size_t open, close;
  *checked = 0;
  if (!arguments_repeatable(rw, j, &open, &close)) return CUEMU_SUCCESS;
  cuemu__sb_str(out, "::cuemu::__cuemu_launch_checked<sizeof((");
  cuemu__sb_tokens(out, rw, start, i, 0);
  cuemu__sb_str(out, "(");
  cuemu__sb_tokens(out, rw, open + 1, close, 0);
  cuemu__sb_str(out, "), 0))>(");
  if (out->oom) {
    free(out->data);
    return CUEMU_OUT_OF_MEMORY;
  }
  *checked = 1;
  return CUEMU_SUCCESS;
}

/* The number of items between the parentheses at tokens open and close
 * (commas outside brackets, plus one; none for `()` and `(void)`), or -1
 * when a `<`, `>`, shift or `...` leaves it unsure. */
static int count_items(const cuemu_rewriter *rw, size_t open, size_t close) {
  static const char *const unsure[] = {"<", ">", "<<", ">>", "<=", ">=",
                                       "...", NULL};
  int commas = 0, any = 0;
  if (close == open + 2 && cuemu__rw_is(rw, open + 1, "void")) return 0;
  for (size_t k = open + 1; k < close; k++) {
    for (int u = 0; unsure[u]; u++)
      if (cuemu__rw_is(rw, k, unsure[u])) return -1;
    if (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "[") ||
        cuemu__rw_is(rw, k, "{")) {
      k = cuemu__rw_close(rw, k);
      if (k >= close) return -1;
    } else if (cuemu__rw_is(rw, k, ",")) {
      commas++;
      continue;
    }
    any = 1;
  }
  return any ? commas + 1 : 0;
}

/* nvcc's error for a launch (`>>>` at token j) of kernel decl with more or
 * fewer arguments than it has parameters, where both are plain to count (a
 * kernel that has no overloads, no default arguments and no parameter
 * pack); else CUEMU_SUCCESS. A kernel template's is nvcc's "no instance"
 * error, which the compiler's "candidate expects 2 arguments" then
 * explains; without it, a shim's static assertion said it. */
static cuemu_status argument_count(cuemu_rewriter *rw,
                                   const cuemu_kernel_decl *decl, size_t j) {
  if (!decl || decl->template_variadic || decl->overloaded ||
      decl->has_defaults || !decl->decl_end || !cuemu__rw_is(rw, j + 3, "("))
    return CUEMU_SUCCESS;
  size_t params_close = cuemu__rw_close(rw, decl->params_open);
  size_t args_close = cuemu__rw_close(rw, j + 3);
  if (params_close >= rw->n || args_close >= rw->n) return CUEMU_SUCCESS;
  int params = count_items(rw, decl->params_open, params_close);
  int args = count_items(rw, j + 3, args_close);
  if (params < 0 || args < 0 || params == args) return CUEMU_SUCCESS;
  if (decl->is_template) {
    char what[320];
    snprintf(what, sizeof what,
             "no instance of function template \"%s\" matches the argument "
             "list (%d argument%s for %d parameter%s)",
             cuemu__last_part(decl->name), args, args == 1 ? "" : "s", params,
             params == 1 ? "" : "s");
    return cuemu__rw_error(rw, rw->toks[j + 3].line, what);
  }
  return cuemu__rw_error(rw, rw->toks[j + 3].line,
                         args > params ? "too many arguments in function call"
                                       : "too few arguments in function call");
}

/* Replaces the three characters of the `<<<` or `>>>` at token j by text;
 * what nvcc allows between them (blanks, comments, a newline) stays, so the
 * lines after it keep their numbers. */
static cuemu_status replace_chevrons(cuemu_rewriter *rw, size_t j,
                                     const char *text, size_t length) {
  cuemu_status st = cuemu__rw_edit(rw, rw->toks[j].offset, 1, text, length);
  if (!st) st = cuemu__rw_edit(rw, rw->toks[j + 1].offset, 1, "", 0);
  if (!st) st = cuemu__rw_edit(rw, rw->toks[j + 2].offset, 1, "", 0);
  return st;
}

cuemu_status cuemu__launch_rewrite(cuemu_rewriter *rw, size_t i,
                                   size_t *resume) {
  size_t start, name, j, commas = 0;
  int line = rw->toks[i].line, known = 0;
  cuemu_status st;
  *resume = i + 3;
  start = i > 0 ? callee_start(rw, i - 1, i, &name) : i;
  if (start == i)
    return cuemu__rw_error(rw, line, "kernel launch '<<<' without a kernel");
  for (j = i + 3; j < rw->n; j++) {
    if (cuemu__rw_is(rw, j, "(") || cuemu__rw_is(rw, j, "[") ||
        cuemu__rw_is(rw, j, "{")) {
      j = cuemu__rw_close(rw, j);
      if (j >= rw->n) break;
    } else if (cuemu__rw_is(rw, j, ")") || cuemu__rw_is(rw, j, "]") ||
               cuemu__rw_is(rw, j, "}") || cuemu__rw_is(rw, j, ";")) {
      j = rw->n;
      break;
    } else if (cuemu__rw_is(rw, j, ",")) {
      commas++;
    } else if (cuemu__rw_chevrons(rw, j, ">")) {
      break;
    }
  }
  if (j >= rw->n)
    return cuemu__rw_error(
        rw, line, "unterminated kernel launch: '<<<' without a matching '>>>'");
  if (commas == 0)
    return cuemu__rw_error(
        rw, line, "kernel launch configuration needs a grid and a block");
  /* nvcc's -Wdefault-stream-launch, once a launch: from the pass that
   * compiles the code around it (a kernel's body in the device pass). */
  if (commas < 3 && (rw->launch_in_device_body ? rw->pass != CUEMU_PASS_HOST
                                               : rw->pass != CUEMU_PASS_DEVICE))
    cuemu__rw_diagnose(rw, j, rw->warn_default_stream, "default-stream-launch",
                       "explicit stream argument not provided in kernel "
                       "launch");
  /* What replaces `>>>`: a launch in kernel code is checked as nvcc checks
   * it when it compiles (device_side(), cuemu_kernel_params.h); the
   * template-id form closes one more parenthesis (close, else close + 1). */
  const char *close = rw->launch_in_device_code ? ")).device_side()" : "))";
  const cuemu_kernel_decl *decl = NULL;
  if (name != (size_t)-1) {
    char buf[256];
    size_t len = cuemu__token_spelling(rw->text, &rw->toks[name], buf,
                                       sizeof buf);
    known = len < sizeof buf ? cuemu__kernel_known(rw, buf, len) : 0;
    if (known && rw->preprocessed) decl = cuemu__kernel_find(rw, buf, len);
  }
  /* A __device__ function launched: nvcc's error. (Its name may also be a
   * variable's, a pointer to a kernel, only where it is no function's.) */
  if (!known && name != (size_t)-1 && name == start &&
      cuemu__launch_calls_device_function(rw, name))
    return cuemu__rw_error(rw, line,
                           "a __device__ function call cannot be configured");
  /* In a translation unit, the kernel is called in a lambda when the call
   * itself must complete it: default arguments, or template arguments
   * that are partly deduced. */
  int in_lambda = known == 2 && name == i - 1;
  if (decl && decl->has_defaults) in_lambda = 1;
  /* A name of kernels of several namespaces: which one the call means is
   * lookup's (using-directives, argument-dependent lookup; a qualified name
   * relative to the enclosing namespaces, `inner::k` in namespace outer),
   * and the overloads of the name are not all that namespace's. */
  if (decl && known &&
      cuemu__kernel_namespaces(rw, cuemu__last_part(decl->name)) > 1)
    in_lambda = 1;
  if (decl && known == 2 && name + 1 < i && cuemu__rw_is(rw, name + 1, "<")) {
    int given = 1, depth = 0;
    size_t k;
    for (k = name + 2; k < i - 1; k++) {
      if (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "[") ||
          cuemu__rw_is(rw, k, "{"))
        k = cuemu__rw_close(rw, k);
      else if (cuemu__rw_is(rw, k, "<"))
        depth++;
      else if (cuemu__rw_is(rw, k, ">"))
        depth--;
      else if (depth == 0 && cuemu__rw_is(rw, k, ","))
        given++;
    }
    if (decl->template_variadic || given < decl->template_required)
      in_lambda = 1;
  }
  /* A launch whose call picks the kernel (overloads, deduced template
   * arguments, default arguments), and a launch in kernel code, take a
   * constant as nvcc's stubs do, by value:
   * `__cuemu_by_value<decltype(__cuemu_arg_kinds(args))>(` before the
   * launcher, and its `)` at the end of every closing of `>>>` below
   * (cuemu_kernel_params.h). */
  char wrapped_close[32];
  if (in_lambda || (decl && decl->overloaded) ||
      (rw->launch_in_device_code && known)) {
    size_t open, end;
    if (arguments_repeatable(rw, j, &open, &end)) {
      cuemu_strbuf wrap = {0};
      cuemu__sb_str(&wrap, "::cuemu::__cuemu_by_value<decltype(::cuemu::"
                           "__cuemu_arg_kinds(");
      cuemu__sb_tokens(&wrap, rw, open + 1, end, 0);
      cuemu__sb_str(&wrap, "))>(");
      if (wrap.oom) {
        free(wrap.data);
        return CUEMU_OUT_OF_MEMORY;
      }
      st = cuemu__rw_edit(rw, rw->toks[start].offset, 0, wrap.data,
                          wrap.length);
      free(wrap.data);
      if (st != CUEMU_SUCCESS) return st;
      snprintf(wrapped_close, sizeof wrapped_close, "%s)", close);
      close = wrapped_close;
    } else {
      st = wrap_named_arguments(rw, j);
      if (st != CUEMU_SUCCESS) return st;
    }
  }
  if (decl && decl->overloaded && !in_lambda &&
      cuemu__kernel_overloads_ready(rw, decl)) {
    /* Overloads: the launch's arguments pick the kernel. */
    st = cuemu__launch_overloaded(rw, decl, start, i);
  } else if (decl && decl->overloaded) {
    in_lambda = 1; /* default arguments, or a launch in its own body */
  }
  if (decl && decl->overloaded && !in_lambda) {
    /* Rewritten above. */
  } else if (in_lambda) {
    /* The call itself, in a lambda, deduces what is left (template
     * arguments, default arguments). The name is for messages. */
    char kname[256];
    size_t klen = cuemu__token_spelling(rw->text, &rw->toks[name], kname,
                                        sizeof kname);
    /* Kernels that are no templates: the set of those the call can pick,
     * whose attributes the launch takes; else the kernels' pickers
     * (cuemu_kernel_picker.c). */
    char *set = known == 1 && rw->preprocessed
                    ? cuemu__kernel_pick_set(rw, start, name)
                    : NULL;
    char *pick = !set && rw->preprocessed
                     ? cuemu__launch_pick(rw, start, name, i)
                     : NULL;
    char *head = NULL, *tail = NULL;
    int n = asprintf(&head,
                     "::cuemu::launch_%s%s%s(\"%.*s\", "
                     "[&](auto &&...cuemu_arg_) { ",
                     set ? "picked<" : pick ? "deduced_with" : "deduced",
                     set ? set : "", set ? ">" : "",
                     (int)(klen < sizeof kname ? klen : 0), kname);
    int m = asprintf(&tail,
                     "(cuemu_arg_...); }, %s%s%s",
                     pick ? "[](auto &&...cuemu_arg_) -> decltype(" : "",
                     pick ? pick : "",
                     pick ? "(cuemu_arg_...)) { return {}; }, " : "");
    free(set);
    free(pick);
    if (n < 0 || m < 0) {
      free(n < 0 ? NULL : head);
      free(m < 0 ? NULL : tail);
      return CUEMU_OUT_OF_MEMORY;
    }
    st = cuemu__rw_edit(rw, rw->toks[start].offset, 0, head, (size_t)n);
    free(head);
    if (!st)
      st = replace_chevrons(rw, i, tail,
                          (size_t)m);
    free(tail);
  } else if (known && decl && decl->constant_alias) {
    /* A kernel of this unit (cuemu__kernel_type_alias()): the launch names
     * the kernel's constant, `::cuemu::launch_constant(constant{}, config)`,
     * instead of the name as written, whose overload set may hold an
     * ordinary function of the same name, even one that the launch is in
     * and whose return type is not deduced yet (tail-island/cuda-primer's
     * mandelbrot-cuda-ng;
     * tests/programs/trialbook/kernel_named_like_auto_host_function.cu).
     * The callee's text is replaced; its newlines stay. */
    st = argument_count(rw, decl, j);
    if (st != CUEMU_SUCCESS) return st;
    cuemu_strbuf head = {0};
    cuemu__sb_str(&head, "::cuemu::launch_constant(");
    cuemu__sb_str(&head, decl->constant_alias);
    cuemu__sb_str(&head, "{}, ");
    if (head.oom) {
      free(head.data);
      return CUEMU_OUT_OF_MEMORY;
    }
    st = cuemu__rw_edit(rw, rw->toks[start].offset,
                        rw->toks[i].offset - rw->toks[start].offset,
                        head.data, head.length);
    free(head.data);
    if (!st)
      st = replace_chevrons(rw, i, "", 0);
  } else if (known && decl && decl->type_alias) {
    /* A kernel whose name is also an ordinary function's: its type picks
     * it out of the overload set. */
    st = argument_count(rw, decl, j);
    if (st != CUEMU_SUCCESS) return st;
    cuemu_strbuf head = {0};
    cuemu__sb_str(&head, "::cuemu::launch_static<CUEMU_KERNEL_CAST_ARGS((");
    cuemu__sb_str(&head, decl->type_alias);
    cuemu__sb_str(&head, " *)(");
    if (head.oom) {
      free(head.data);
      return CUEMU_OUT_OF_MEMORY;
    }
    st = cuemu__rw_edit(rw, rw->toks[start].offset, 0, head.data, head.length);
    free(head.data);
    if (!st)
      st = replace_chevrons(rw, i, "))>(", 4);
  } else if (known && name + 1 < i && cuemu__rw_is(rw, name + 1, "<")) {
    /* A template-id: `((void)&k<float>, launch_static<k<float>>(config))`.
     * The address taken in an expression makes g++ instantiate the kernel
     * where the launch is in a template but its arguments are not
     * dependent (as a template argument alone, the instance is referenced
     * but never emitted). */
    cuemu_strbuf head = {0};
    int checked;
    st = argument_count(rw, decl, j);
    if (st == CUEMU_SUCCESS)
      st = argument_check(rw, start, i, j, &head, &checked);
    if (st != CUEMU_SUCCESS) return st;
    cuemu__sb_str(&head, "((void)&");
    cuemu__sb_tokens(&head, rw, start, i, 0);
    cuemu__sb_str(&head, ", ::cuemu::launch_static<CUEMU_KERNEL_ARGS(");
    if (head.oom) {
      free(head.data);
      return CUEMU_OUT_OF_MEMORY;
    }
    st = cuemu__rw_edit(rw, rw->toks[start].offset, 0, head.data, head.length);
    free(head.data);
    if (!st) st = replace_chevrons(rw, i, ")>(", 3);
    if (!st && checked) {
      /* One more parenthesis: __cuemu_launch_checked's. */
      char *closing = NULL;
      if (asprintf(&closing, ")%s", close) < 0) return CUEMU_OUT_OF_MEMORY;
      st = replace_chevrons(rw, j, closing, strlen(closing));
      free(closing);
    } else if (!st) {
      st = replace_chevrons(rw, j, close, strlen(close));
    }
    return st;
  } else if (known) {
    cuemu_strbuf head = {0};
    int checked;
    st = argument_count(rw, decl, j);
    if (st == CUEMU_SUCCESS)
      st = argument_check(rw, start, i, j, &head, &checked);
    if (st != CUEMU_SUCCESS) return st;
    cuemu__sb_str(&head, "::cuemu::launch_static<CUEMU_KERNEL_ARGS(");
    if (head.oom) {
      free(head.data);
      return CUEMU_OUT_OF_MEMORY;
    }
    st = cuemu__rw_edit(rw, rw->toks[start].offset, 0, head.data, head.length);
    free(head.data);
    if (!st) st = replace_chevrons(rw, i, ")>(", 3);
    /* __cuemu_launch_checked's parenthesis closes with launch_static's. */
    if (!st && checked) st = replace_chevrons(rw, j, close, strlen(close));
    if (!st && checked) return st;
  } else if (rw->preprocessed && name != (size_t)-1) {
    /* A name the unit declares as no kernel: a pointer to one, or a host
     * function, which nvcc refuses ("a host function call cannot be
     * configured"; the shims' incomplete type says so at this line). */
    cuemu_strbuf head = {0};
    cuemu__sb_str(&head, "::cuemu::__cuemu_launch_checked<sizeof(::cuemu::"
                         "__cuemu_a_host_function_call_cannot_be_configured<"
                         "::std::is_function<decltype(");
    cuemu__sb_tokens(&head, rw, start, i, 0);
    cuemu__sb_str(&head, ")>::value>)>(::cuemu::launch_dynamic(");
    if (head.oom) {
      free(head.data);
      return CUEMU_OUT_OF_MEMORY;
    }
    st = cuemu__rw_edit(rw, rw->toks[start].offset, 0, head.data, head.length);
    free(head.data);
    if (!st) st = replace_chevrons(rw, i, ", ", 2);
    /* launch_checked's parenthesis closes with launch_dynamic's. */
    if (!st) st = replace_chevrons(rw, j, close, strlen(close));
    return st;
  } else {
    static const char head[] = "::cuemu::launch_dynamic(";
    st = cuemu__rw_edit(rw, rw->toks[start].offset, 0, head, sizeof head - 1);
    if (!st) st = replace_chevrons(rw, i, ", ", 2);
  }
  if (!st) st = replace_chevrons(rw, j, close + 1, strlen(close + 1));
  return st;
}
