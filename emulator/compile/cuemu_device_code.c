/*
 * cuemu_device_code.c: what the device pass refuses in the bodies of
 * __global__ and __device__ functions, as nvcc does: a kernel launch
 * without relocatable device code (-rdc=true, -dc), cudaDeviceSynchronize,
 * which CUDA 12 removed from the device runtime, the runtime API's other
 * host-only functions (cudaMemcpy, cudaLaunchKernel, ...), variable-length
 * arrays, which nvcc refuses ("expression must have a constant value")
 * where g++ and clang++ accept them, GCC's built-in functions that nvcc
 * takes for host functions (__builtin_trap, __builtin_add_overflow, ...),
 * throw, try, typeid and thread_local, an initializer of a __shared__
 * variable, and, without -rdc, an extern device variable declared again
 * (docs/nvcc-checks.md, "Device code that nvcc refuses").
 *
 * Only the compiler knows which array bound is a constant expression, so
 * the body of each __global__ and __device__ function (and member function,
 * and extended lambda) is marked for it (cuemu__device_body_mark):
 * `#pragma cuemu device_code`, by which cuemu's GCC plugin
 * (cuemu_gcc_plugin.cc) knows the function and refuses its variable-length
 * arrays itself, as cuemu's clang plugin does with clang++
 * (cuemu_clang_plugin.cc). A compiler without either plugin ignores it and
 * accepts them: the device pass compiles with -w, which also silences a
 * `#pragma GCC diagnostic error "-Wvla"` (clang++'s -Wno-everything in
 * place of -w would let such a pragma work, but silences the warnings
 * that are errors by default, such as narrowing in braces).
 * The host pass and host functions keep their variable-length arrays, as
 * g++ allows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuemu_host_runtime_names.h"
#include "cuemu_rewriter.h"

/* GCC's built-in functions that nvcc 13 takes for host functions in device
 * code ("calling a __host__ function("__builtin_trap") from a __global__
 * function("k") is not allowed"), each tried with nvcc 13.0
 * (docs/nvcc-checks.md). nvcc accepts the others that real kernels use:
 * __builtin_expect, __builtin_assume, __builtin_unreachable, the
 * __builtin_clz, __builtin_clzll, __builtin_popcount, __builtin_popcountll,
 * __builtin_ffs, __builtin_ffsll, __builtin_memcpy, __builtin_memset,
 * __builtin_alloca, __builtin_malloc, __builtin_printf and the math
 * functions. __builtin_constant_p and __builtin_return_address, which nvcc
 * also refuses, are left out: the shims' macros expand to them in the
 * user's code (CUEMU_ATOMIC_CONSTANT; the surface, PTX barrier and tensor
 * shims, which pass the caller's address to their reports). */
static const char *const host_builtins[] = {
    "__builtin_trap", "__builtin_abort", "__builtin_free",
    "__builtin_strlen", "__builtin_strcmp", "__builtin_strchr",
    "__builtin_memcmp", "__builtin_memmove", "__builtin_prefetch",
    "__builtin_frame_address", "__builtin_ctz", "__builtin_ctzl",
    "__builtin_ctzll", "__builtin_clzl", "__builtin_popcountl",
    "__builtin_parity", "__builtin_clrsb", "__builtin_bswap16",
    "__builtin_bswap32", "__builtin_bswap64", "__builtin_cpu_supports",
    "__builtin_cpu_init", "__builtin_expect_with_probability",
    "__builtin_speculation_safe_value", NULL};

/* Whether the identifier at token i names one of host_builtins, a checked
 * arithmetic built-in (__builtin_add_overflow, __builtin_sadd_overflow,
 * __builtin_umulll_overflow, __builtin_mul_overflow_p, ...) or an x86 one
 * (__builtin_ia32_pause). */
static int host_builtin(const cuemu_rewriter *rw, size_t i) {
  const char *word = rw->text + rw->toks[i].offset;
  size_t length = rw->toks[i].length;
  static const char overflow[] = "_overflow", overflow_p[] = "_overflow_p";
  if (length < 10 || strncmp(word, "__builtin_", 10) != 0)
    return 0;
  for (const char *const *name = host_builtins; *name; ++name)
    if (cuemu__rw_is(rw, i, *name))
      return 1;
  if (length > 16 && strncmp(word, "__builtin_ia32_", 15) == 0)
    return 1;
  return (length > 19 &&
          memcmp(word + length - 9, overflow, sizeof overflow - 1) == 0) ||
         (length > 21 &&
          memcmp(word + length - 11, overflow_p, sizeof overflow_p - 1) == 0);
}

/* Whether token i is in an unevaluated operand (`sizeof(...)`,
 * `decltype(...)`, `noexcept(...)`, `alignof(...)`): nvcc's front end
 * refuses a call of a host function in device code only where the call is
 * made, so `(void)sizeof(cudaLaunchKernel(...))` in a kernel builds. */
static int unevaluated(const cuemu_rewriter *rw, size_t i) {
  static const char *const operators[] = {"sizeof", "decltype", "noexcept",
                                          "alignof", "__typeof__", NULL};
  for (size_t k = i; k > 0; --k) {
    size_t p = k - 1;
    if (cuemu__rw_is(rw, p, ")")) {
      size_t open = cuemu__rw_open(rw, p);
      if (open == (size_t)-1)
        return 0;
      k = open + 1; /* on, before the parenthesised group */
      continue;
    }
    if (cuemu__rw_is(rw, p, ";") || cuemu__rw_is(rw, p, "{") ||
        cuemu__rw_is(rw, p, "}"))
      return 0;
    if (cuemu__rw_is(rw, p, "(") && p > 0)
      for (int w = 0; operators[w]; ++w)
        if (cuemu__rw_is(rw, p - 1, operators[w]))
          return 1;
  }
  return 0;
}

static int runtime_name_order(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Whether token i calls one of the runtime API's host-only functions
 * (cuemu_host_runtime_names.h): cudaMemcpy, cudaLaunchKernel,
 * cudaStreamSynchronize... by its own name or the global scope's
 * (`::cudaMemcpy(`), not a member nor a name of another namespace. */
static int host_runtime_call(const cuemu_rewriter *rw, size_t i) {
  char name[64];
  size_t length = rw->toks[i].length;
  if (!cuemu__rw_ident(rw, i) || length < 5 || length >= sizeof name ||
      memcmp(rw->text + rw->toks[i].offset, "cuda", 4) != 0 ||
      !cuemu__rw_is(rw, i + 1, "("))
    return 0;
  if (i > 0 && (cuemu__rw_is(rw, i - 1, ".") || cuemu__rw_is(rw, i - 1, "->")))
    return 0;
  if (i > 1 && cuemu__rw_is(rw, i - 1, "::") &&
      (cuemu__rw_ident(rw, i - 2) || cuemu__rw_is(rw, i - 2, ">")))
    return 0;
  if (unevaluated(rw, i))
    return 0;
  memcpy(name, rw->text + rw->toks[i].offset, length);
  name[length] = '\0';
  const char *key = name;
  return bsearch(&key, cuemu_host_runtime_names,
                 sizeof cuemu_host_runtime_names /
                     sizeof cuemu_host_runtime_names[0],
                 sizeof cuemu_host_runtime_names[0],
                 runtime_name_order) != NULL;
}

cuemu_status cuemu__shared_initializer_check(cuemu_rewriter *rw, size_t i) {
  size_t depth = 0;
  if (rw->pass == CUEMU_PASS_HOST)
    return CUEMU_SUCCESS;
  for (size_t k = i + 1; k < rw->n; ++k) {
    if (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "["))
      depth++;
    else if (cuemu__rw_is(rw, k, ")") || cuemu__rw_is(rw, k, "]")) {
      if (depth == 0) return CUEMU_SUCCESS;
      depth--;
    } else if (depth == 0 && (cuemu__rw_is(rw, k, ";") ||
                              cuemu__rw_is(rw, k, "}") ||
                              cuemu__rw_is(rw, k, ",")))
      return CUEMU_SUCCESS;
    else if (depth == 0 && cuemu__rw_is(rw, k, "<") &&
             cuemu__rw_template_close(rw, k) < rw->n)
      k = cuemu__rw_template_close(rw, k);
    else if (depth == 0 && cuemu__rw_is(rw, k, "{") &&
             (cuemu__rw_is(rw, k - 1, "struct") ||
              cuemu__rw_is(rw, k - 1, "union") ||
              cuemu__rw_is(rw, k - 2, "struct") ||
              cuemu__rw_is(rw, k - 2, "union")))
      k = cuemu__rw_close(rw, k); /* `__shared__ struct { ... } s;` */
    else if (depth == 0 &&
             (cuemu__rw_is(rw, k, "=") || cuemu__rw_is(rw, k, "{")))
      return cuemu__rw_error(rw, rw->toks[k].line,
                             "initializer not allowed for __shared__ variable");
  }
  return CUEMU_SUCCESS;
}

cuemu_status cuemu__shared_mark(cuemu_rewriter *rw, size_t i) {
  static const char pragma[] = " _Pragma(\"cuemu shared\")";
  if (rw->pass != CUEMU_PASS_DEVICE && rw->pass != CUEMU_PASS_SINGLE)
    return CUEMU_SUCCESS;
  for (size_t k = i + 1; k < rw->n; ++k) {
    if (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "[") ||
        cuemu__rw_is(rw, k, "{"))
      k = cuemu__rw_close(rw, k);
    else if (cuemu__rw_is(rw, k, "}") || cuemu__rw_is(rw, k, ")"))
      return CUEMU_SUCCESS;
    else if (cuemu__rw_is(rw, k, ";"))
      return cuemu__rw_edit(rw, rw->toks[k].offset + rw->toks[k].length, 0,
                            pragma, sizeof pragma - 1);
    if (k >= rw->n)
      break;
  }
  return CUEMU_SUCCESS;
}

/* Words before a `(` in a declaration that are not the function's name. */
static int not_a_name(const cuemu_rewriter *rw, size_t k) {
  static const char *const words[] = {
      "__attribute__", "__launch_bounds__", "__cluster_dims__", "alignas",
      "__align__",     "decltype",          "__declspec",       "noexcept",
      "sizeof",        "alignof",           "__maxnreg__",      NULL};
  for (int j = 0; words[j]; ++j)
    if (cuemu__rw_is(rw, k, words[j]))
      return 1;
  return 0;
}

void cuemu__device_caller_note(cuemu_rewriter *rw, size_t start, size_t brace,
                               int kernel) {
  size_t name = rw->n;
  int host = 0;
  rw->caller[0] = '\0';
  for (size_t k = start; k < brace; ++k) {
    if (cuemu__rw_is(rw, k, "__host__"))
      host = 1;
    if (cuemu__rw_is(rw, k, "(") && k > start) {
      if (name == rw->n && cuemu__rw_ident(rw, k - 1) && !not_a_name(rw, k - 1))
        name = k - 1;
      k = cuemu__rw_close(rw, k);
    }
  }
  /* A __host__ __device__ function's call is nvcc's warning #20011-D, not
   * an error; so is a kernel's or device function's own (empty). */
  if (host && !kernel)
    return;
  if (name < rw->n && rw->toks[name].length < 80)
    snprintf(rw->caller, sizeof rw->caller, "%s function(\"%.*s\")",
             kernel ? "__global__" : "__device__", (int)rw->toks[name].length,
             rw->text + rw->toks[name].offset);
  else
    snprintf(rw->caller, sizeof rw->caller, "%s function",
             kernel ? "__global__" : "__device__");
}

cuemu_status cuemu__device_variable_note(cuemu_rewriter *rw, const char *ns,
                                         size_t name, int is_extern) {
  if (name == (size_t)-1) {
    for (size_t v = 0; v < rw->device_var_count; ++v)
      free(rw->device_vars[v]);
    free(rw->device_vars);
    rw->device_vars = NULL;
    rw->device_var_count = rw->device_var_capacity = 0;
    return CUEMU_SUCCESS;
  }
  /* "ns::name" and, in its first byte, whether a declaration was extern. */
  size_t ns_length = strlen(ns), length = rw->toks[name].length;
  char *key = malloc(ns_length + length + 4);
  if (!key) return CUEMU_OUT_OF_MEMORY;
  key[0] = is_extern ? 'e' : 'd';
  memcpy(key + 1, ns, ns_length);
  memcpy(key + 1 + ns_length, "::", 2);
  memcpy(key + 3 + ns_length, rw->text + rw->toks[name].offset, length);
  key[3 + ns_length + length] = '\0';
  for (size_t v = 0; v < rw->device_var_count; ++v)
    if (strcmp(rw->device_vars[v] + 1, key + 1) == 0) {
      int either = is_extern || rw->device_vars[v][0] == 'e';
      free(key);
      if (!either)
        return CUEMU_SUCCESS; /* the host compiler's own redefinition */
      char what[256];
      snprintf(what, sizeof what,
               "redefinition of '%.*s': without relocatable device code "
               "(-rdc=true) an extern __device__, __constant__ or "
               "__managed__ declaration is a definition, as with nvcc",
               (int)length, rw->text + rw->toks[name].offset);
      return cuemu__rw_error(rw, rw->toks[name].line, what);
    }
  if (rw->device_var_count == rw->device_var_capacity) {
    size_t cap = rw->device_var_capacity ? 2 * rw->device_var_capacity : 16;
    char **grown = realloc(rw->device_vars, cap * sizeof *grown);
    if (!grown) {
      free(key);
      return CUEMU_OUT_OF_MEMORY;
    }
    rw->device_vars = grown;
    rw->device_var_capacity = cap;
  }
  rw->device_vars[rw->device_var_count++] = key;
  return CUEMU_SUCCESS;
}

cuemu_status cuemu__device_code_check(cuemu_rewriter *rw, size_t i) {
  int line = rw->toks[i].line;
  if (rw->pass == CUEMU_PASS_HOST)
    return CUEMU_SUCCESS;
  if (rw->caller[0] && !(rw->toks[i].flags & CUEMU_TOKEN_FOREIGN) &&
      cuemu__rw_is(rw, i + 1, "(") && host_builtin(rw, i)) {
    char what[320];
    snprintf(what, sizeof what,
             "calling a __host__ function(\"%.*s\") from a %s is not "
             "allowed%s",
             (int)rw->toks[i].length, rw->text + rw->toks[i].offset,
             rw->caller,
             cuemu__rw_is(rw, i, "__builtin_trap")
                 ? " (CUDA's form is __trap())"
                 : "");
    return cuemu__rw_error(rw, line, what);
  }
  if (rw->caller[0] && !(rw->toks[i].flags & CUEMU_TOKEN_FOREIGN) &&
      host_runtime_call(rw, i)) {
    char what[320];
    snprintf(what, sizeof what,
             "calling a __host__ function(\"%.*s\") from a %s is not "
             "allowed: the device runtime does not have it",
             (int)rw->toks[i].length, rw->text + rw->toks[i].offset,
             rw->caller);
    return cuemu__rw_error(rw, line, what);
  }
  if (!(rw->toks[i].flags & CUEMU_TOKEN_FOREIGN)) {
    cuemu_status st = cuemu__nv_atomic_args_check(rw, i);
    if (st != CUEMU_SUCCESS)
      return st;
  }
  if (rw->caller[0] && !(rw->toks[i].flags & CUEMU_TOKEN_FOREIGN)) {
    /* Words that nvcc's front end refuses in device code, in its words. */
    if (cuemu__rw_is(rw, i, "throw") || cuemu__rw_is(rw, i, "try"))
      return cuemu__rw_error(rw, line,
                             "device code does not support exception handling");
    if (cuemu__rw_is(rw, i, "typeid"))
      return cuemu__rw_error(
          rw, line, "The operator 'typeid' is not allowed in device code");
    if (cuemu__rw_is(rw, i, "thread_local"))
      return cuemu__rw_error(rw, line,
                             "cannot use thread_local specifier for variable "
                             "declarations in device code");
  }
  if (cuemu__rw_is(rw, i, "<")) {
    if (rw->pass == CUEMU_PASS_DEVICE && !rw->rdc)
      return cuemu__rw_error(
          rw, line,
          "kernel launch from __device__ or __global__ functions requires "
          "separate compilation mode (-rdc=true or -dc), as with nvcc");
    return CUEMU_SUCCESS;
  }
  if (cuemu__rw_is(rw, i, "cudaDeviceSynchronize") &&
      cuemu__rw_is(rw, i + 1, "(") &&
      !(i > 0 && (cuemu__rw_is(rw, i - 1, ".") ||
                  cuemu__rw_is(rw, i - 1, "->"))))
    return cuemu__rw_error(
        rw, line,
        "calling a __host__ function(\"cudaDeviceSynchronize\") from device "
        "code is not allowed: CUDA 12 removed it from the device runtime, "
        "as nvcc says (a child grid always completes before its parent; "
        "launch into cudaStreamTailLaunch to run work after the parent); "
        "cuemu does not emulate the legacy CDP1 that nvcc still compiles "
        "below sm_90 with -DCUDA_FORCE_CDP1_IF_SUPPORTED");
  return CUEMU_SUCCESS;
}

/* Words that may stand between a function's parameters and its body. */
static int body_prefix_word(const cuemu_rewriter *rw, size_t k) {
  static const char *const words[] = {"const",    "volatile", "noexcept",
                                      "override", "final",    "mutable",
                                      "constexpr", "&",       "&&",
                                      NULL};
  for (int j = 0; words[j]; ++j)
    if (cuemu__rw_is(rw, k, words[j]))
      return 1;
  return 0;
}

/* Inserts `pragmas` on a line of their own before the character at
 * `offset` (of token `tok`), which keeps its line and column. */
static cuemu_status insert_pragmas(cuemu_rewriter *rw, size_t tok,
                                   size_t offset, const char *pragmas) {
  const char *file;
  int line;
  cuemu__rw_where(rw, rw->toks[tok].line, &file, &line);
  cuemu_strbuf sb = {0};
  cuemu__sb_str(&sb, "\n");
  cuemu__sb_str(&sb, pragmas);
  cuemu__rw_line_marker(&sb, rw, offset, file, line, 0);
  cuemu_status st = sb.oom ? CUEMU_OUT_OF_MEMORY
                           : cuemu__rw_edit(rw, offset, 0, sb.data, sb.length);
  free(sb.data);
  return st;
}

/* Whether the parameters end at token `k` (a `)`), with only qualifiers
 * between it and token `end`; or, for a function that returns a reference
 * or pointer to an array, whose declarator nests (`T (&get() const)[n]`,
 * `T (*row(int i))[n]`), with the nested declarator's `)` and the array's
 * bounds between. */
static int after_parameters(const cuemu_rewriter *rw, size_t end) {
  size_t k = end;
  while (k > 0 && body_prefix_word(rw, k - 1))
    k--;
  if (k == 0)
    return 0;
  if (cuemu__rw_is(rw, k - 1, ")"))
    return 1;
  if (!cuemu__rw_is(rw, k - 1, "]"))
    return 0;
  while (k > 0 && cuemu__rw_is(rw, k - 1, "]")) {
    size_t open = cuemu__rw_open(rw, k - 1);
    if (open == (size_t)-1)
      return 0;
    k = open;
  }
  /* The nested declarator's `)`, right after the parameters. */
  return k > 1 && cuemu__rw_is(rw, k - 1, ")") && after_parameters(rw, k - 1);
}

/* Whether the `{` at `brace` follows a trailing return type
 * (`) -> float {`, `) -> decltype(x) {`): a `->` after the parameters,
 * before any `;`, brace or `=` on the way back. */
static int after_trailing_return(const cuemu_rewriter *rw, size_t brace) {
  for (size_t k = brace; k-- > 0 && brace - k < 256;) {
    if (cuemu__rw_is(rw, k, "->"))
      return after_parameters(rw, k);
    if (cuemu__rw_is(rw, k, ";") || cuemu__rw_is(rw, k, "{") ||
        cuemu__rw_is(rw, k, "}") || cuemu__rw_is(rw, k, "="))
      return 0;
  }
  return 0;
}

/* Whether the `{` at `brace` follows a requires-clause after the
 * parameters (`) requires C<T> {`, `) requires requires { x + x; } {`). */
static int after_requires_clause(const cuemu_rewriter *rw, size_t brace) {
  size_t k = brace;
  while (k > 0 && brace - k < 512) {
    size_t t = k - 1;
    if (cuemu__rw_is(rw, t, ")") || cuemu__rw_is(rw, t, "]") ||
        cuemu__rw_is(rw, t, "}")) {
      size_t open = cuemu__rw_open(rw, t);
      if (open == (size_t)-1)
        return 0;
      k = open;
      continue;
    }
    /* The clause's `requires`, not a requires-expression's. */
    if (cuemu__rw_is(rw, t, "requires") && after_parameters(rw, t))
      return 1;
    if (cuemu__rw_is(rw, t, ";") || cuemu__rw_is(rw, t, "{") ||
        cuemu__rw_is(rw, t, "="))
      return 0;
    k = t;
  }
  return 0;
}

size_t cuemu__rw_past_member_initializers(const cuemu_rewriter *rw,
                                         size_t brace) {
  if (brace < 2 || !cuemu__rw_ident(rw, brace - 1) ||
      !(cuemu__rw_is(rw, brace - 2, ":") || cuemu__rw_is(rw, brace - 2, ",")))
    return brace;
  size_t k = cuemu__rw_close(rw, brace);
  while (k < rw->n && cuemu__rw_is(rw, k + 1, ",")) {
    /* The next initializer's name, then its parentheses or braces. */
    k += 2;
    while (k < rw->n && !cuemu__rw_is(rw, k, "(") && !cuemu__rw_is(rw, k, "{"))
      k++;
    k = k < rw->n ? cuemu__rw_close(rw, k) : rw->n;
  }
  return k < rw->n && cuemu__rw_is(rw, k + 1, "{") ? k + 1 : rw->n;
}

/* Marks the body that opens at the `{` token `body` as device code of
 * `space` ("", "host" or "global"). */
static cuemu_status mark_body(cuemu_rewriter *rw, size_t body,
                              const char *space) {
  const cuemu_token *a = &rw->toks[body];
  char pragma[64];
  snprintf(pragma, sizeof pragma, "_Pragma(\"cuemu device_code%s%s\")",
           space[0] ? " " : "", space);
  return insert_pragmas(rw, body, a->offset + a->length, pragma);
}

cuemu_status cuemu__device_body_mark(cuemu_rewriter *rw, size_t brace,
                                    const char *space) {
  if (rw->pass != CUEMU_PASS_DEVICE && rw->pass != CUEMU_PASS_SINGLE)
    return CUEMU_SUCCESS;
  /* A function's body follows its parameters, perhaps with qualifiers or
   * a trailing return type between, or a constructor's member initializers
   * (the first `{` may open one of those); any other brace (a variable's
   * initializer, `T{...}`) is left alone. */
  size_t body = cuemu__rw_past_member_initializers(rw, brace);
  if (body >= rw->n || (body == brace && !after_parameters(rw, brace) &&
                        !after_trailing_return(rw, brace) &&
                        !after_requires_clause(rw, brace)))
    return CUEMU_SUCCESS;
  return mark_body(rw, body, space);
}

/* The `{` of the body of the extended lambda whose `__device__` is token
 * `device` (`[=] __device__ (int i) {`, `[] __host__ __device__ () {`), or
 * rw->n. */
static size_t lambda_body(const cuemu_rewriter *rw, size_t device) {
  size_t b = device;
  while (b > 0 && cuemu__rw_is(rw, b - 1, "__host__"))
    b--;
  if (b == 0 || !cuemu__rw_is(rw, b - 1, "]"))
    return rw->n;
  for (size_t k = device + 1; k < rw->n; k++) {
    if (cuemu__rw_is(rw, k, "(")) {
      k = cuemu__rw_close(rw, k);
      continue;
    }
    if (cuemu__rw_is(rw, k, "{"))
      return k;
    if (cuemu__rw_is(rw, k, ";") || cuemu__rw_is(rw, k, "}") ||
        cuemu__rw_is(rw, k, ")") || cuemu__rw_is(rw, k, ","))
      return rw->n;
  }
  return rw->n;
}

cuemu_status cuemu__device_inner_mark(cuemu_rewriter *rw, size_t device) {
  /* `__host__ __device__` or `__device__ __host__`: both spaces. */
  int host = (device > 0 && cuemu__rw_is(rw, device - 1, "__host__")) ||
             cuemu__rw_is(rw, device + 1, "__host__");
  size_t start, body = cuemu__rw_member_body(rw, device, &start);
  if (body < rw->n)
    return cuemu__device_body_mark(rw, body, host ? "host" : "");
  /* An extended lambda's body, which may follow its `__device__` with no
   * parameters between (`[=, *this] __device__ { ... }`, as warpcore
   * writes the lambdas of its kernels): lambda_body() has found the `{`
   * that opens it. */
  body = lambda_body(rw, device);
  if (body >= rw->n ||
      (rw->pass != CUEMU_PASS_DEVICE && rw->pass != CUEMU_PASS_SINGLE))
    return CUEMU_SUCCESS;
  return mark_body(rw, body, host ? "host" : "");
}

/* ---- Device functions defined again without a qualifier ---------------- */

/* The name token of the function declared from `start`, before `end`: the
 * identifier before the first `(` of its parameters at depth 0 (attributes
 * and __launch_bounds__ skipped); rw->n for anything else (a variable, an
 * operator, a destructor, a nested declarator). */
static size_t declared_name(const cuemu_rewriter *rw, size_t start,
                            size_t end) {
  for (size_t k = start; k < end; k++) {
    size_t after = cuemu__rw_skip_attribute(rw, k);
    if (after != k) {
      k = after - 1;
      continue;
    }
    if (cuemu__rw_is(rw, k, "<")) {
      size_t close = cuemu__rw_template_close(rw, k);
      if (close >= end)
        return rw->n;
      k = close;
      continue;
    }
    if (cuemu__rw_is(rw, k, "(")) {
      if (k == start || !cuemu__rw_ident(rw, k - 1) || not_a_name(rw, k - 1) ||
          cuemu__rw_is(rw, k - 1, "operator") ||
          (k >= 2 && (cuemu__rw_is(rw, k - 2, "~") ||
                      cuemu__rw_is(rw, k - 2, "operator"))))
        return rw->n;
      return k - 1;
    }
    if (cuemu__rw_is(rw, k, ";") || cuemu__rw_is(rw, k, "{") ||
        cuemu__rw_is(rw, k, "=") || cuemu__rw_is(rw, k, "["))
      return rw->n;
  }
  return rw->n;
}

/* The name token of the class, struct or union whose body holds token i
 * (`struct Mover {`, `template <class T> class __align__(8) Box final :
 * public Base<T> {`), or rw->n when i lies in another body (a function's,
 * a lambda's, a namespace's). */
static size_t enclosing_class(const cuemu_rewriter *rw, size_t i) {
  size_t k = i, depth = 0;
  while (k-- > 0) {
    if (cuemu__rw_is(rw, k, "}"))
      depth++;
    else if (cuemu__rw_is(rw, k, "{") && depth-- == 0)
      break;
  }
  if (k >= i)
    return rw->n;
  while (k-- > 0) {
    if (cuemu__rw_is(rw, k, ")") || cuemu__rw_is(rw, k, "]")) {
      size_t open = cuemu__rw_open(rw, k);
      if (open == (size_t)-1)
        return rw->n;
      k = open;
      continue;
    }
    if (cuemu__rw_is(rw, k, ";") || cuemu__rw_is(rw, k, "{") ||
        cuemu__rw_is(rw, k, "}") || cuemu__rw_is(rw, k, "="))
      return rw->n;
    if (cuemu__rw_is(rw, k, "class") || cuemu__rw_is(rw, k, "struct") ||
        cuemu__rw_is(rw, k, "union")) {
      size_t n = k + 1;
      while (n < i && cuemu__rw_skip_attribute(rw, n) != n)
        n = cuemu__rw_skip_attribute(rw, n);
      /* `struct A::B {`: the last name. */
      while (n + 2 < i && cuemu__rw_is(rw, n + 1, "::") &&
             cuemu__rw_ident(rw, n + 2))
        n += 2;
      return n < i && cuemu__rw_ident(rw, n) ? n : rw->n;
    }
  }
  return rw->n;
}

/* Whether token k is a word that makes up a type by itself (`int`,
 * `unsigned`, `const`): not a parameter's name. */
static int type_word(const cuemu_rewriter *rw, size_t k) {
  static const char *const words[] = {
      "int",    "float",    "double", "char",     "long",  "short",
      "signed", "unsigned", "bool",   "void",     "auto",  "const",
      "volatile", "__restrict__", "wchar_t", "char16_t", "char32_t", NULL};
  for (int i = 0; words[i]; ++i)
    if (cuemu__rw_is(rw, k, words[i]))
      return 1;
  return 0;
}

/* Appends the types of the parameters whose `(` is token `open`, without
 * their names and default arguments (`(const vec3 &, float)`), so that a
 * declaration and a definition of one function give the same text. */
static void parameter_types(cuemu_strbuf *sb, const cuemu_rewriter *rw,
                            size_t open) {
  size_t close = cuemu__rw_close(rw, open);
  cuemu__sb_add(sb, "(", 1);
  for (size_t a = open + 1; a < close && close < rw->n;) {
    /* One parameter: [a, b), its default argument from `eq`. */
    size_t b = a, eq = rw->n;
    for (; b < close && !cuemu__rw_is(rw, b, ","); b++) {
      if (cuemu__rw_is(rw, b, "(") || cuemu__rw_is(rw, b, "[") ||
          cuemu__rw_is(rw, b, "{"))
        b = cuemu__rw_close(rw, b);
      else if (cuemu__rw_is(rw, b, "<") &&
               cuemu__rw_template_close(rw, b) < close)
        b = cuemu__rw_template_close(rw, b);
      else if (cuemu__rw_is(rw, b, "=") && eq == rw->n)
        eq = b;
    }
    size_t last = eq < b ? eq : b;
    if (last - a >= 2 && cuemu__rw_ident(rw, last - 1) &&
        !type_word(rw, last - 1))
      last--;
    if (a > open + 1)
      cuemu__sb_add(sb, ",", 1);
    for (size_t k = a; k < last; k++) {
      if (k > a)
        cuemu__sb_add(sb, " ", 1);
      cuemu__sb_tokens(sb, rw, k, k + 1, 0);
    }
    a = b + 1;
  }
  cuemu__sb_add(sb, ")", 1);
}

/* "Q::name(types)" for the name token `name` (its parameters follow it)
 * and the qualifier token `q` (rw->n: "::name(types)"), after a '+' for a
 * __host__ __device__ function, a '-' for a __device__ one; NULL without
 * memory. */
static char *prototype_key(const cuemu_rewriter *rw, int host, size_t q,
                           size_t name) {
  cuemu_strbuf sb = {0};
  cuemu__sb_add(&sb, host ? "+" : "-", 1);
  if (q < rw->n)
    cuemu__sb_tokens(&sb, rw, q, q + 1, 0);
  cuemu__sb_add(&sb, "::", 2);
  cuemu__sb_tokens(&sb, rw, name, name + 1, 0);
  parameter_types(&sb, rw, name + 1);
  if (sb.oom) {
    free(sb.data);
    return NULL;
  }
  return sb.data;
}

/* Whether a function of the key `key` (its sign left out; its parameter
 * types too unless `types`) was recorded: 1 as a __device__ function, 2 as
 * a __host__ __device__ one, 3 both (overloads). */
static int prototype_known(const cuemu_rewriter *rw, const char *key,
                           int types) {
  int known = 0;
  size_t length = types ? strlen(key + 1) : strcspn(key + 1, "(");
  for (size_t p = 0; p < rw->device_proto_count; p++) {
    const char *proto = rw->device_protos[p] + 1;
    if (strncmp(proto, key + 1, length) == 0 &&
        (types ? proto[length] == '\0' : proto[length] == '('))
      known |= rw->device_protos[p][0] == '+' ? 2 : 1;
  }
  return known;
}

/* Appends `key` (malloc'ed, taken) to a list of keys. */
static cuemu_status key_append(char ***keys, size_t *count, size_t *capacity,
                               char *key) {
  if (*count == *capacity) {
    size_t cap = *capacity ? 2 * *capacity : 16;
    char **grown = realloc(*keys, cap * sizeof *grown);
    if (!grown) {
      free(key);
      return CUEMU_OUT_OF_MEMORY;
    }
    *keys = grown;
    *capacity = cap;
  }
  (*keys)[(*count)++] = key;
  return CUEMU_SUCCESS;
}

cuemu_status cuemu__device_prototype_note(cuemu_rewriter *rw, size_t device,
                                          size_t start, size_t end) {
  if (device == (size_t)-1) {
    for (size_t p = 0; p < rw->device_proto_count; p++)
      free(rw->device_protos[p]);
    free(rw->device_protos);
    rw->device_protos = NULL;
    rw->device_proto_count = rw->device_proto_capacity = 0;
    for (size_t p = 0; p < rw->host_proto_count; p++)
      free(rw->host_protos[p]);
    free(rw->host_protos);
    rw->host_protos = NULL;
    rw->host_proto_count = rw->host_proto_capacity = 0;
    return CUEMU_SUCCESS;
  }
  size_t q = rw->n;
  if (start == (size_t)-1) {
    /* A member's: from the class's last `;`, `{`, `}` or access label to
     * its own `;` (none: a body, which is marked where it is). */
    q = enclosing_class(rw, device);
    if (q >= rw->n)
      return CUEMU_SUCCESS;
    start = device;
    while (start > 0 && !cuemu__rw_is(rw, start - 1, ";") &&
           !cuemu__rw_is(rw, start - 1, "{") &&
           !cuemu__rw_is(rw, start - 1, "}") &&
           !cuemu__rw_is(rw, start - 1, ":"))
      start--;
    for (end = device; end < rw->n && !cuemu__rw_is(rw, end, ";"); end++) {
      if (cuemu__rw_is(rw, end, "(") || cuemu__rw_is(rw, end, "["))
        end = cuemu__rw_close(rw, end);
      else if (cuemu__rw_is(rw, end, "{") || cuemu__rw_is(rw, end, "}"))
        return CUEMU_SUCCESS;
    }
  }
  int host = 0;
  for (size_t k = start; k < end; k++)
    if (cuemu__rw_is(rw, k, "__global__") || cuemu__rw_is(rw, k, "friend") ||
        cuemu__rw_is(rw, k, "typedef"))
      return CUEMU_SUCCESS;
    else if (cuemu__rw_is(rw, k, "__host__"))
      host = 1;
  size_t name = declared_name(rw, start, end);
  if (name >= rw->n ||
      (q < rw->n && rw->toks[name].length == rw->toks[q].length &&
       memcmp(rw->text + rw->toks[name].offset, rw->text + rw->toks[q].offset,
              rw->toks[q].length) == 0))
    return CUEMU_SUCCESS; /* not a function, or a constructor */
  char *key = prototype_key(rw, host, q, name);
  if (!key)
    return CUEMU_OUT_OF_MEMORY;
  if (prototype_known(rw, key, 1) & (host ? 2 : 1)) {
    free(key);
    return CUEMU_SUCCESS;
  }
  return key_append(&rw->device_protos, &rw->device_proto_count,
                    &rw->device_proto_capacity, key);
}

/* How the nv_diag pragmas before `offset` set a diagnostic's level
 * (cuemu_rewriter.h): `#pragma nv_diag_suppress 20037` (a `_Pragma` of
 * it, or the older `diag_suppress`) silences #20037-D, even
 * under -diag-error; nv_diag_error makes it an error without the number
 * (3), even under -w; nv_diag_default and nv_diag_warning give it back
 * the command line's level (nvcc's nv_diag_warning would also undo a
 * -diag-suppress or -diag-error of the number, which `level` cannot tell
 * from -w's silence); nv_diagnostic push and pop keep and restore it. */
int cuemu__rw_diag_level(const cuemu_rewriter *rw, size_t offset, long number,
                         int level) {
  int state = 0, depth = 0; /* 0 the command line's, 1 suppressed, 3 error */
  unsigned long long saved = 0; /* the pushed states, two bits each */
  for (const char *p = rw->text, *end = rw->text + offset; p < end;) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *stop = nl ? nl : end;
    const char *q = p;
    while (q < stop && (*q == ' ' || *q == '\t'))
      q++;
    static const char pragma[] = "#pragma";
    if ((size_t)(stop - q) > sizeof pragma &&
        memcmp(q, pragma, sizeof pragma - 1) == 0) {
      q += sizeof pragma - 1;
      while (q < stop && (*q == ' ' || *q == '\t'))
        q++;
      const char *word = q;
      while (q < stop && *q != ' ' && *q != '\t')
        q++;
      size_t length = (size_t)(q - word);
      int kind = 0; /* 1 suppress, 2 the command line's, 3 error, 4 push,
                     * 5 pop */
      if (length > 3 && memcmp(word, "nv_", 3) == 0) {
        word += 3; /* the older names without nv_ too */
        length -= 3;
      }
      if (length == 13 && memcmp(word, "diag_suppress", 13) == 0)
        kind = 1;
      else if ((length == 12 && memcmp(word, "diag_default", 12) == 0) ||
               (length == 12 && memcmp(word, "diag_warning", 12) == 0))
        kind = 2;
      else if (length == 10 && memcmp(word, "diag_error", 10) == 0)
        kind = 3;
      else if (length == 10 && memcmp(word, "diagnostic", 10) == 0) {
        while (q < stop && (*q == ' ' || *q == '\t'))
          q++;
        kind = stop - q >= 4 && memcmp(q, "push", 4) == 0   ? 4
               : stop - q >= 3 && memcmp(q, "pop", 3) == 0 ? 5
                                                            : 0;
      }
      if (kind == 4 && depth < 32) {
        saved = (saved << 2) | (unsigned)state;
        depth++;
      } else if (kind == 5 && depth > 0) {
        state = (int)(saved & 3);
        saved >>= 2;
        depth--;
      }
      /* The numbers: "20037", "20037-D", comma-separated. */
      for (const char *d = q; kind >= 1 && kind <= 3 && d < stop; d++)
        if (*d >= '0' && *d <= '9' && (d == q || d[-1] < '0' || d[-1] > '9') &&
            strtol(d, NULL, 10) == number)
          state = kind == 2 ? 0 : kind;
    }
    p = nl ? nl + 1 : end;
  }
  return state == 1 ? 0 : state == 3 ? 3 : level;
}

/* nvcc's warning #20037-D at the definition, whose qualified name is
 * tokens [first, name] ("Box<T>::width"; its outer qualifiers too). */
static void redeclared_warning(cuemu_rewriter *rw, size_t first, size_t name) {
  int level = cuemu__rw_diag_level(rw, rw->toks[name].offset, 20037,
                                   rw->warn_redeclared);
  if (!level)
    return;
  while (first >= 2 && cuemu__rw_is(rw, first - 1, "::") &&
         cuemu__rw_ident(rw, first - 2))
    first -= 2;
  cuemu_strbuf what = {0};
  cuemu__sb_str(&what, "a __device__ function(\"");
  cuemu__sb_tokens(&what, rw, first, name + 1, 0);
  cuemu__sb_str(&what, "\") redeclared without __device__, hence treated "
                       "as a __host__ __device__ function");
  if (!what.oom)
    cuemu__rw_diagnose(rw, name, level, "20037-D", what.data);
  free(what.data);
}

cuemu_status cuemu__device_redeclared_mark(cuemu_rewriter *rw, size_t start,
                                           size_t brace) {
  if (rw->device_proto_count == 0)
    return CUEMU_SUCCESS;
  for (size_t k = start; k < brace; k++)
    if (cuemu__rw_is(rw, k, "__host__"))
      return CUEMU_SUCCESS;
  size_t name = declared_name(rw, start, brace);
  if (name >= rw->n)
    return CUEMU_SUCCESS;
  /* `R Q::name(`, `R Q<T>::name(`, `R ns::name(` or `R name(`. */
  size_t q = rw->n;
  if (name >= 2 && cuemu__rw_is(rw, name - 1, "::")) {
    q = name - 2;
    if (cuemu__rw_is(rw, q, ">")) {
      size_t open = cuemu__rw_template_open(rw, q);
      q = open != (size_t)-1 && open > 0 ? open - 1 : rw->n;
    }
    if (q < rw->n && !cuemu__rw_ident(rw, q))
      q = rw->n;
  }
  char *key = prototype_key(rw, 0, q, name),
       *bare = prototype_key(rw, 0, rw->n, name);
  /* The device pass marks a definition whose name was declared (device
   * code may call it), the host pass stubs only one whose parameter types
   * are those of a __device__ prototype (a host overload of the name keeps
   * its body, which host code calls). */
  int host_pass = rw->pass == CUEMU_PASS_HOST;
  int known = key && bare ? prototype_known(rw, key, host_pass) |
                                prototype_known(rw, bare, host_pass)
                          : 0;
  cuemu_status st = !key || !bare ? CUEMU_OUT_OF_MEMORY : CUEMU_SUCCESS;
  free(key);
  free(bare);
  if (st != CUEMU_SUCCESS || !known)
    return st;
  /* A __host__ __device__ function's definition stays the host's. The
   * host pass, which matches the parameter types too, gives nvcc's
   * warning at the definition's name. */
  if (host_pass && known == 1)
    redeclared_warning(rw, q < rw->n ? q : name, name);
  if (host_pass)
    return known == 1 ? cuemu__host_redeclared_stub(rw, start, brace)
                      : CUEMU_SUCCESS;
  return cuemu__device_body_mark(rw, brace, "host");
}

/* ---- Host functions redeclared with an execution space ----------------- */

/* The first token of the qualifiers of the name token `name` (`Box<T>` of
 * `Box<T>::width`, `a` of `a::b::f`), `name` itself without any. */
static size_t qualifiers_start(const cuemu_rewriter *rw, size_t name) {
  size_t first = name;
  while (first >= 2 && cuemu__rw_is(rw, first - 1, "::")) {
    size_t q = first - 2;
    if (cuemu__rw_is(rw, q, ">")) {
      size_t open = cuemu__rw_template_open(rw, q);
      if (open == (size_t)-1 || open == 0)
        break;
      q = open - 1;
    }
    if (!cuemu__rw_ident(rw, q))
      break;
    first = q;
  }
  return first;
}

/* Whether tokens a and c have the same text. */
static int same_token(const cuemu_rewriter *rw, size_t a, size_t c) {
  return rw->toks[a].length == rw->toks[c].length &&
         memcmp(rw->text + rw->toks[a].offset, rw->text + rw->toks[c].offset,
                rw->toks[a].length) == 0;
}

/* The first token of the name of the function declared from `start`
 * before `end`, its identifier or an operator's `operator` (`operator+=`,
 * `operator()`; not a conversion's), with *open its parameters' `(`;
 * rw->n for anything else. */
static size_t function_name(const cuemu_rewriter *rw, size_t start,
                            size_t end, size_t *open) {
  size_t name = declared_name(rw, start, end);
  if (name < rw->n) {
    *open = name + 1;
    return name;
  }
  for (size_t k = start; k + 2 < end; k++) {
    if (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "{") ||
        cuemu__rw_is(rw, k, "="))
      return rw->n;
    if (!cuemu__rw_is(rw, k, "operator"))
      continue;
    size_t p = k + 1;
    if (cuemu__rw_is(rw, p, "(") || cuemu__rw_is(rw, p, "["))
      p = cuemu__rw_close(rw, p) + 1;
    else
      while (p < end && !cuemu__rw_ident(rw, p) && !cuemu__rw_is(rw, p, "("))
        p++;
    if (p == k + 1 || p >= end || !cuemu__rw_is(rw, p, "("))
      return rw->n;
    *open = p;
    return k;
  }
  return rw->n;
}

/* Appends tokens [from, to) without the spaces between them ("operator+=",
 * as nvcc writes an operator's name). */
static void joined_tokens(cuemu_strbuf *sb, const cuemu_rewriter *rw,
                          size_t from, size_t to) {
  for (size_t k = from; k < to; k++)
    cuemu__sb_tokens(sb, rw, k, k + 1, 0);
}

/* Whether parameters whose `(` are tokens a and b have the same types. */
static int same_parameters(const cuemu_rewriter *rw, size_t a, size_t b) {
  cuemu_strbuf x = {0}, y = {0};
  parameter_types(&x, rw, a);
  parameter_types(&y, rw, b);
  int same = !x.oom && !y.oom && x.length == y.length &&
             memcmp(x.data, y.data, x.length) == 0;
  free(x.data);
  free(y.data);
  return same;
}

/* Whether the `length` tokens from j (before `end`) are those from `name`,
 * followed by a `(`. */
static int same_name(const cuemu_rewriter *rw, size_t j, size_t name,
                     size_t length, size_t end) {
  if (j + length >= end || !cuemu__rw_is(rw, j + length, "("))
    return 0;
  for (size_t k = 0; k < length; k++)
    if (!same_token(rw, j + k, name + k))
      return 0;
  return 1;
}

/* Whether the class named by token `cls`, defined before it, declares the
 * member function whose name is tokens [name, open) (with the parameter
 * types of its definition, whose `(` is `open`) without __device__: the
 * nearest definition of a class of that name is searched. */
static int member_declared_host(const cuemu_rewriter *rw, size_t cls,
                                size_t name, size_t open) {
  for (size_t k = cls; k-- > 0;) {
    if (!cuemu__rw_is(rw, k, "class") && !cuemu__rw_is(rw, k, "struct") &&
        !cuemu__rw_is(rw, k, "union"))
      continue;
    size_t n = k + 1;
    while (n < cls && cuemu__rw_skip_attribute(rw, n) != n)
      n = cuemu__rw_skip_attribute(rw, n);
    if (n >= cls || !same_token(rw, n, cls))
      continue;
    /* Its body: the `{` before any `;` (a declaration alone). */
    size_t body = n + 1;
    while (body < cls && !cuemu__rw_is(rw, body, "{") &&
           !cuemu__rw_is(rw, body, ";")) {
      if (cuemu__rw_is(rw, body, "(") || cuemu__rw_is(rw, body, "["))
        body = cuemu__rw_close(rw, body);
      body++;
    }
    if (body >= cls || !cuemu__rw_is(rw, body, "{"))
      continue;
    size_t close = cuemu__rw_close(rw, body);
    if (close >= rw->n)
      return 0;
    /* Its members, each from the token after a `;`, `{`, `}` or `:`. */
    size_t member = body + 1;
    for (size_t j = body + 1; j < close; j++) {
      if (cuemu__rw_is(rw, j, ";") || cuemu__rw_is(rw, j, ":")) {
        member = j + 1;
      } else if (cuemu__rw_is(rw, j, "{")) {
        j = cuemu__rw_close(rw, j);
        member = j + 1;
      } else if (cuemu__rw_is(rw, j, "(") || cuemu__rw_is(rw, j, "[")) {
        j = cuemu__rw_close(rw, j);
      } else if (same_name(rw, j, name, open - name, close) &&
                 same_parameters(rw, j + open - name, open)) {
        for (size_t m = member; m < j; m++)
          if (cuemu__rw_is(rw, m, "__device__"))
            return 0;
        return 1;
      }
      if (j >= close)
        return 0;
    }
    return 0;
  }
  return 0;
}

cuemu_status cuemu__host_redeclared_note(cuemu_rewriter *rw, const char *ns,
                                         size_t start, size_t end) {
  int host = 0, device = 0;
  for (size_t k = start; k < end; k++)
    if (cuemu__rw_is(rw, k, "__global__") || cuemu__rw_is(rw, k, "friend") ||
        cuemu__rw_is(rw, k, "typedef"))
      return CUEMU_SUCCESS;
    else if (cuemu__rw_is(rw, k, "__host__"))
      host = 1;
    else if (cuemu__rw_is(rw, k, "__device__"))
      device = 1;
  size_t open = rw->n, name = function_name(rw, start, end, &open);
  if (name >= rw->n)
    return CUEMU_SUCCESS;
  size_t first = qualifiers_start(rw, name);
  /* "ns::Q::name(types)", the qualifiers' template arguments left out,
   * and the name as nvcc writes it, "ns::Q<T>::name". */
  cuemu_strbuf key = {0}, shown = {0};
  if (ns[0]) {
    cuemu__sb_str(&key, ns);
    cuemu__sb_str(&key, "::");
  }
  for (size_t k = first; k < name; k++)
    if (cuemu__rw_is(rw, k, "<"))
      k = cuemu__rw_template_close(rw, k);
    else
      joined_tokens(&key, rw, k, k + 1);
  joined_tokens(&key, rw, name, open);
  parameter_types(&key, rw, open);
  if (key.oom) {
    free(key.data);
    return CUEMU_OUT_OF_MEMORY;
  }
  size_t p = 0;
  while (p < rw->host_proto_count && strcmp(rw->host_protos[p], key.data))
    p++;
  int known = p < rw->host_proto_count;
  if (!device) {
    /* Not a function that a __device__ prototype made a __host__
     * __device__ one (nvcc's warning #20037-D). */
    size_t q = first < name ? name - 2 : rw->n;
    if (q < rw->n && cuemu__rw_is(rw, q, ">")) {
      size_t open = cuemu__rw_template_open(rw, q);
      q = open != (size_t)-1 && open > 0 ? open - 1 : rw->n;
    }
    char *dkey = open == name + 1 ? prototype_key(rw, 0, q, name) : NULL;
    int device_known = dkey && prototype_known(rw, dkey, 1);
    free(dkey);
    if (known || device_known) {
      free(key.data);
      return CUEMU_SUCCESS;
    }
    return key_append(&rw->host_protos, &rw->host_proto_count,
                      &rw->host_proto_capacity, key.data);
  }
  /* A member function: its class declares it, without __device__ or with
   * it (then recorded by cuemu__device_prototype_note). */
  if (!known && first < name) {
    size_t cls = name - 2;
    if (cuemu__rw_is(rw, cls, ">")) {
      size_t open = cuemu__rw_template_open(rw, cls);
      cls = open != (size_t)-1 && open > 0 ? open - 1 : rw->n;
    }
    if (cls < rw->n && cuemu__rw_ident(rw, cls) &&
        member_declared_host(rw, cls, name, open))
      known = 2;
  }
  free(key.data);
  if (known == 1) {
    /* nvcc warns at the first redeclaration alone. */
    free(rw->host_protos[p]);
    rw->host_protos[p] = rw->host_protos[--rw->host_proto_count];
  }
  if (!known)
    return CUEMU_SUCCESS;
  int level = cuemu__rw_diag_level(
      rw, rw->toks[name].offset, host ? 20040 : 20039,
      host ? rw->warn_redeclared_host_device : rw->warn_redeclared_device);
  if (!level)
    return CUEMU_SUCCESS;
  if (ns[0]) {
    cuemu__sb_str(&shown, ns);
    cuemu__sb_str(&shown, "::");
  }
  if (first < name)
    cuemu__sb_tokens(&shown, rw, first, name, 0);
  joined_tokens(&shown, rw, name, open);
  cuemu_strbuf what = {0};
  cuemu__sb_str(&what, "a __host__ function(\"");
  cuemu__sb_str(&what, shown.oom ? "" : shown.data);
  cuemu__sb_str(&what, host ? "\") redeclared with __host__ __device__, "
                              "hence treated as a __host__ __device__ function"
                            : "\") redeclared with __device__, hence treated "
                              "as a __host__ __device__ function");
  if (!what.oom && !shown.oom)
    cuemu__rw_diagnose(rw, name, level, host ? "20040-D" : "20039-D",
                       what.data);
  free(shown.data);
  free(what.data);
  return CUEMU_SUCCESS;
}

/* ---- __device__ functions redeclared __host__ __device__ --------------- */

/* Prepends to `sb` the namespaces that enclose token `k` ("a::b::"). */
static void enclosing_namespaces(cuemu_strbuf *sb, const cuemu_rewriter *rw,
                                 size_t k) {
  cuemu_strbuf names = {0};
  for (size_t j = k; j-- > 0;) {
    if (cuemu__rw_is(rw, j, "}")) {
      size_t open = cuemu__rw_open(rw, j);
      if (open == (size_t)-1)
        break;
      j = open;
      continue;
    }
    if (!cuemu__rw_is(rw, j, "{"))
      continue;
    /* An enclosing `{`: `namespace a {` or `namespace a::b {`. */
    size_t first = j;
    while (first >= 2 && cuemu__rw_ident(rw, first - 1) &&
           cuemu__rw_is(rw, first - 2, "::"))
      first -= 2;
    if (first >= 2 && cuemu__rw_ident(rw, first - 1) &&
        cuemu__rw_is(rw, first - 2, "namespace")) {
      cuemu_strbuf one = {0};
      joined_tokens(&one, rw, first - 1, j);
      cuemu__sb_str(&one, "::");
      cuemu__sb_str(&one, names.data ? names.data : "");
      free(names.data);
      names = one;
    }
  }
  cuemu__sb_str(sb, names.data ? names.data : "");
  free(names.data);
}

int cuemu__device_redeclared_host_device(cuemu_rewriter *rw, size_t open,
                                         size_t semicolon) {
  size_t name = open - 1;
  for (size_t k = semicolon + 1; k + 1 < rw->n; k++) {
    if (!same_token(rw, k, name) || !cuemu__rw_is(rw, k + 1, "(") ||
        (rw->toks[k].flags & CUEMU_TOKEN_FOREIGN) ||
        !same_parameters(rw, k + 1, open))
      continue;
    /* Its declaration: from the `;`, `{` or `}` before it. */
    int host = 0, device = 0;
    size_t start = k;
    while (start > 0 && !cuemu__rw_is(rw, start - 1, ";") &&
           !cuemu__rw_is(rw, start - 1, "{") &&
           !cuemu__rw_is(rw, start - 1, "}")) {
      start--;
      host |= cuemu__rw_is(rw, start, "__host__");
      device |= cuemu__rw_is(rw, start, "__device__");
    }
    if (!host || !device)
      continue;
    /* nvcc's warning #20036-D at the first such redeclaration. */
    int level = cuemu__rw_diag_level(rw, rw->toks[k].offset, 20036,
                                     rw->warn_device_redeclared_host_device);
    if (level) {
      cuemu_strbuf what = {0};
      cuemu__sb_str(&what, "a __device__ function(\"");
      enclosing_namespaces(&what, rw, k);
      joined_tokens(&what, rw, qualifiers_start(rw, k), k + 1);
      cuemu__sb_str(&what, "\") redeclared with __host__ __device__, hence "
                           "treated as a __host__ __device__ function");
      if (!what.oom)
        cuemu__rw_diagnose(rw, k, level, "20036-D", what.data);
      free(what.data);
    }
    return 1;
  }
  return 0;
}
