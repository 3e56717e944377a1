/*
 * cuemu_shared_decl.c: rewriting of `extern __shared__` unsized arrays.
 *
 *   extern __shared__ __align__(16) T name[];
 *     -> extern __thread T (&name)[] __asm__("cuemu_dynamic_shared")
 *        CUEMU_TLS_IE __attribute__((unused));
 *   extern __shared__ T name[][33];
 *     -> extern __thread T (&name)[][33] __asm__("cuemu_dynamic_shared") ...;
 *
 * Every such declaration names the same thread-local pointer of libcuemu, a
 * reference's storage, so all of them alias the per-block dynamic buffer, as
 * on the GPU, and each is an array there as on the GPU: `&name` and
 * `reinterpret_cast<T &>(name)` are the buffer's address and contents.
 * In a function body, a local reference (see build()). Alignment
 * attributes are dropped (the buffer is aligned to at least 16 bytes).
 * Several declarators give several declarations on the first line of the
 * original; the newlines of the original follow them, so the line count is
 * kept.
 *
 * A declarator that is not an array (`extern __shared__ int count;`) is
 * what nvcc calls "treated as a static definition" (its warning #20044-D):
 * a __shared__ variable of its own, not the dynamic buffer. Its `extern` is
 * dropped, and it goes on as any other static __shared__ declaration.
 * Anything else is left alone.
 */
#include "cuemu_rewriter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char tail[] =
    " __asm__(\"cuemu_dynamic_shared\") CUEMU_TLS_IE __attribute__((unused));";
/* The same in a translation unit, where no macro of the shims is left. */
static const char tail_tu[] =
    " __asm__(\"cuemu_dynamic_shared\") "
    "__attribute__((tls_model(\"initial-exec\"), unused));";

/* Appends tokens one at a time, leaving out `extern` and attribute groups,
 * with one space where the source had a gap. */
typedef struct joiner {
  cuemu_strbuf *sb;
  size_t last;   /* last token appended, or (size_t)-1 */
} joiner;

static void join(joiner *jn, const cuemu_rewriter *rw, size_t from,
                 size_t to) {
  size_t k = from;
  while (k < to) {
    size_t after = cuemu__rw_skip_attribute(rw, k);
    if (after != k) {
      k = after;
      continue;
    }
    if (!cuemu__rw_is(rw, k, "extern")) {
      if (jn->last != (size_t)-1 &&
          rw->toks[jn->last].offset + rw->toks[jn->last].length !=
              rw->toks[k].offset)
        cuemu__sb_add(jn->sb, " ", 1);
      cuemu__sb_tokens(jn->sb, rw, k, k + 1, 0);
      jn->last = k;
    }
    k++;
  }
}

/* An unsized array declarator starts at k: `name [ ]`. */
static int unsized_name(const cuemu_rewriter *rw, size_t k) {
  return cuemu__rw_ident(rw, k) && cuemu__rw_is(rw, k + 1, "[") &&
         cuemu__rw_is(rw, k + 2, "]");
}

/* A declarator that is not an array ends at k + 1: `name ;` or `name ,`,
 * attributes allowed between. */
static int scalar_name(const cuemu_rewriter *rw, size_t k) {
  size_t after = k + 1;
  if (!cuemu__rw_ident(rw, k)) return 0;
  while (cuemu__rw_skip_attribute(rw, after) != after)
    after = cuemu__rw_skip_attribute(rw, after);
  return cuemu__rw_is(rw, after, ";") || cuemu__rw_is(rw, after, ",");
}

/* Finds the next declarator name from k; stops (returning rw->n) at
 * anything that cannot be part of a declaration before it. */
static size_t find_name(const cuemu_rewriter *rw, size_t k, int *has_extern) {
  size_t angle = 0;
  while (k < rw->n) {
    size_t after = cuemu__rw_skip_attribute(rw, k);
    if (after != k) {
      k = after;
      continue;
    }
    if (cuemu__rw_is(rw, k, "extern")) {
      *has_extern = 1;
    } else if (cuemu__rw_is(rw, k, "<")) {
      angle++;
    } else if (cuemu__rw_is(rw, k, ">")) {
      if (angle == 0) return rw->n;
      angle--;
    } else if (cuemu__rw_is(rw, k, "(")) {
      k = cuemu__rw_close(rw, k); /* decltype(...) */
      if (k >= rw->n) return rw->n;
    } else if (angle == 0 && cuemu__rw_ident(rw, k) &&
               cuemu__rw_is(rw, k + 1, "[") && !cuemu__rw_is(rw, k + 2, "[")) {
      return unsized_name(rw, k) ? k : rw->n;
    } else if (angle == 0 && scalar_name(rw, k)) {
      return k;
    } else if (cuemu__rw_is(rw, k, ";") || cuemu__rw_is(rw, k, "{") ||
               cuemu__rw_is(rw, k, "}") || cuemu__rw_is(rw, k, "=") ||
               cuemu__rw_is(rw, k, ")") || cuemu__rw_is(rw, k, "[") ||
               (angle == 0 && cuemu__rw_is(rw, k, ","))) {
      return rw->n;
    }
    k++;
  }
  return rw->n;
}

/* Makes each lambda that captures by copy by default (`[=]`, `[=, ...]`)
 * and names the variable whose name is token name, in the rest of the
 * block whose declaration ends at token from, capture it by reference
 * (`[=, &name]`): a lambda cannot copy a local reference's array of unknown
 * bound, and on a GPU the variable is not captured at all (it is not
 * automatic), so the lambda reads the buffer itself either way. */
static cuemu_status capture_by_reference(cuemu_rewriter *rw, size_t from,
                                         size_t name) {
  size_t depth = 0, k;
  for (k = from; k < rw->n; k++) {
    if (cuemu__rw_is(rw, k, "{")) {
      depth++;
    } else if (cuemu__rw_is(rw, k, "}")) {
      if (depth-- == 0) break;
    } else if (cuemu__rw_is(rw, k, "[") && cuemu__rw_is(rw, k + 1, "=") &&
               (cuemu__rw_is(rw, k + 2, "]") || cuemu__rw_is(rw, k + 2, ","))) {
      size_t body = cuemu__rw_close(rw, k), close;
      while (body < rw->n && !cuemu__rw_is(rw, body, "{") &&
             !cuemu__rw_is(rw, body, ";"))
        body = cuemu__rw_is(rw, body, "(") ? cuemu__rw_close(rw, body) + 1
                                           : body + 1;
      if (body >= rw->n || !cuemu__rw_is(rw, body, "{")) continue;
      close = cuemu__rw_close(rw, body);
      for (size_t t = body + 1; t < close && t < rw->n; t++)
        if (rw->toks[t].length == rw->toks[name].length &&
            !memcmp(rw->text + rw->toks[t].offset,
                    rw->text + rw->toks[name].offset, rw->toks[t].length) &&
            !cuemu__rw_is(rw, t - 1, ".") && !cuemu__rw_is(rw, t - 1, "->") &&
            !cuemu__rw_is(rw, t - 1, "::")) {
          cuemu_strbuf capture = {0};
          cuemu__sb_str(&capture, ", &");
          cuemu__sb_tokens(&capture, rw, name, name + 1, 0);
          cuemu_status st =
              capture.oom ? CUEMU_OUT_OF_MEMORY
                          : cuemu__rw_edit(rw, rw->toks[k + 1].offset + 1, 0,
                                           capture.data, capture.length);
          free(capture.data);
          if (st != CUEMU_SUCCESS) return st;
          break;
        }
    }
  }
  return CUEMU_SUCCESS;
}

/* Builds the replacement of the declaration whose specifiers are tokens
 * [begin, shared) and (shared, name); returns the index of its `;`, or
 * rw->n when it is not an unsized array declaration. */
static size_t build(cuemu_rewriter *rw, size_t begin, size_t shared,
                    size_t name, cuemu_strbuf *out) {
  cuemu_strbuf type = {0};
  joiner jt = {&type, (size_t)-1};
  size_t prefix = name, k;
  join(&jt, rw, begin, shared);
  join(&jt, rw, shared + 1, name);
  for (;;) {
    size_t dims;
    cuemu_strbuf decl = {0};
    joiner jd = {&decl, (size_t)-1};
    int has_extern = 0;
    k = name + 3;
    dims = k;
    while (cuemu__rw_is(rw, k, "[") && !cuemu__rw_is(rw, k + 1, "[")) {
      k = cuemu__rw_close(rw, k);
      if (k >= rw->n) break;
      k++;
    }
    if (k >= rw->n) break;
    join(&jd, rw, prefix, name);
    if (out->length) cuemu__sb_add(out, " ", 1);
    if (rw->preprocessed && rw->scope_depth > 0) {
      /* In a function body: a local reference to the dynamic buffer, since
       * g++ drops an asm label on a block-scope extern in a template; the
       * lambdas that would copy it capture it by reference. */
      size_t at = out->length;
      cuemu__sb_add(out, type.data ? type.data : "", type.length);
      cuemu__sb_add(out, " ", 1);
      cuemu__sb_add(out, decl.data ? decl.data : "", decl.length);
      size_t type_end = out->length;
      cuemu__sb_str(out, "(&");
      cuemu__sb_tokens(out, rw, name, name + 1, 0);
      cuemu__sb_str(out, ")[]");
      cuemu__sb_tokens(out, rw, dims, k, 0);
      cuemu__sb_str(out, " __attribute__((unused)) = *reinterpret_cast<");
      if (!out->oom) {
        char *copy = malloc(type_end - at + 1);
        if (!copy) {
          out->oom = 1;
        } else {
          memcpy(copy, out->data + at, type_end - at);
          cuemu__sb_add(out, copy, type_end - at);
          free(copy);
        }
      }
      cuemu__sb_str(out, "(*)[]");
      cuemu__sb_tokens(out, rw, dims, k, 0);
      cuemu__sb_str(out, ">(cuemu_dynamic_shared);");
      if (capture_by_reference(rw, k, name) != CUEMU_SUCCESS) out->oom = 1;
      free(decl.data);
    } else {
      cuemu__sb_str(out, "extern __thread ");
      cuemu__sb_add(out, type.data ? type.data : "", type.length);
      cuemu__sb_add(out, " ", 1);
      cuemu__sb_add(out, decl.data ? decl.data : "", decl.length);
      free(decl.data);
      cuemu__sb_str(out, "(&");
      cuemu__sb_tokens(out, rw, name, name + 1, 0);
      cuemu__sb_str(out, ")[]");
      cuemu__sb_tokens(out, rw, dims, k, 0);
      cuemu__sb_str(out, rw->preprocessed ? tail_tu : tail);
    }
    while (cuemu__rw_skip_attribute(rw, k) != k)
      k = cuemu__rw_skip_attribute(rw, k);
    if (cuemu__rw_is(rw, k, ";")) break;
    if (!cuemu__rw_is(rw, k, ",")) {
      k = rw->n;
      break;
    }
    prefix = k + 1;
    name = find_name(rw, prefix, &has_extern);
    if (name >= rw->n || has_extern) {
      k = rw->n;
      break;
    }
  }
  free(type.data);
  if (type.oom) out->oom = 1;
  return k;
}

cuemu_status cuemu__shared_decl_rewrite(cuemu_rewriter *rw, size_t i,
                                        size_t *resume) {
  size_t begin = i, name, end, k;
  int has_extern = 0;
  cuemu_strbuf text = {0};
  cuemu_status st;
  *resume = i;
  /* Specifiers before __shared__: extern, cv-qualifiers, attributes. */
  while (begin > 0) {
    size_t p = begin - 1, a;
    if (cuemu__rw_is(rw, p, "extern")) {
      has_extern = 1;
      begin = p;
    } else if (cuemu__rw_is(rw, p, "const") ||
               cuemu__rw_is(rw, p, "volatile")) {
      begin = p;
    } else if ((a = cuemu__rw_attribute_start(rw, p)) != p) {
      begin = a;
    } else {
      break;
    }
  }
  if (!has_extern) {
    /* `extern double __shared__ s[]`: the specifiers in another order. */
    size_t k = begin, n = 0;
    while (k-- > 0 && n++ < 32) {
      if (cuemu__rw_is(rw, k, ";") || cuemu__rw_is(rw, k, "{") ||
          cuemu__rw_is(rw, k, "}") || cuemu__rw_is(rw, k, ")") ||
          cuemu__rw_is(rw, k, ":") || cuemu__rw_is(rw, k, ","))
        break;
      if (cuemu__rw_is(rw, k, "extern")) {
        has_extern = 1;
        begin = k;
        break;
      }
    }
  }
  name = find_name(rw, i + 1, &has_extern);
  if (name >= rw->n || !has_extern) return CUEMU_SUCCESS;
  if (!cuemu__rw_is(rw, name + 1, "[")) {
    /* Not an array: a static definition, as nvcc treats it. */
    for (k = begin; k < name; k++)
      if (cuemu__rw_is(rw, k, "extern")) {
        st = cuemu__rw_edit(rw, rw->toks[k].offset, rw->toks[k].length, "",
                            0);
        if (st != CUEMU_SUCCESS) return st;
      }
    return CUEMU_SUCCESS;
  }
  end = build(rw, begin, i, name, &text);
  if (text.oom) {
    free(text.data);
    return CUEMU_OUT_OF_MEMORY;
  }
  if (end >= rw->n) {
    free(text.data);
    return CUEMU_SUCCESS;
  }
  /* A translation unit's directives are line markers, which the edit
   * keeps (see assemble() in cuemu_rewrite.c). */
  for (k = begin + 1; k <= end && !rw->preprocessed; k++)
    if (rw->toks[k].flags & CUEMU_TOKEN_AFTER_DIRECTIVE) {
      free(text.data);
      return cuemu__rw_error(rw, rw->toks[i].line,
                             "cannot rewrite an extern __shared__ declaration "
                             "with a preprocessor directive inside it");
    }
  st = cuemu__rw_edit(rw, rw->toks[begin].offset,
                      rw->toks[end].offset + 1 - rw->toks[begin].offset,
                      text.data, text.length);
  free(text.data);
  *resume = end;
  return st;
}

/* What tells a static shared declaration apart from the others of its
 * kernel, the same in every translation unit and pass that compiles it: a
 * hash (64-bit FNV-1a, folded to 31 bits) of the user's file, line and
 * the variable's name. */
static unsigned long long declaration_id(const cuemu_rewriter *rw,
                                         size_t name) {
  const char *file;
  int line;
  char where[32];
  unsigned long long h = 1469598103934665603ull;
  cuemu__rw_where(rw, rw->toks[name].line, &file, &line);
  snprintf(where, sizeof where, ":%d:", line);
  const char *parts[] = {file, where, NULL};
  for (int p = 0; parts[p]; p++)
    for (const char *c = parts[p]; *c; c++)
      h = (h ^ (unsigned char)*c) * 1099511628211ull;
  for (size_t c = 0; c < rw->toks[name].length; c++)
    h = (h ^ (unsigned char)rw->text[rw->toks[name].offset + c]) *
        1099511628211ull;
  /* An immediate operand of asm on x86-64 is a sign-extended 32-bit
   * value: 31 bits of the hash (declarations need telling apart only
   * within one kernel). */
  return (h ^ (h >> 31) ^ (h >> 62)) & 0x7fffffffu;
}

/* Appends to text, for the kernel's static shared variable `name`, the check
 * that it and the variables of scope still visible fit in nvcc's 48 KiB
 * together (each name once: an inner declaration hides an outer one of its
 * name), and adds name to scope. */
static void shared_total_check(cuemu_strbuf *text, cuemu_rewriter *rw,
                               size_t name, cuemu_shared_scope *scope) {
  size_t used[CUEMU_SHARED_SCOPE_MAX + 1], n = 0;
  for (size_t s = scope->count + 1; s-- > 0;) {
    size_t tok = s == scope->count ? name : scope->name[s];
    int seen = 0;
    for (size_t u = 0; u < n && !seen; u++)
      seen = rw->toks[used[u]].length == rw->toks[tok].length &&
             !memcmp(rw->text + rw->toks[used[u]].offset,
                     rw->text + rw->toks[tok].offset, rw->toks[tok].length);
    if (!seen) used[n++] = tok;
  }
  if (n > 1) {
    cuemu__sb_str(text, " static_assert(0");
    for (size_t u = n; u-- > 0;) {
      cuemu__sb_str(text, " + sizeof(");
      cuemu__sb_tokens(text, rw, used[u], used[u] + 1, 0);
      cuemu__sb_str(text, ")");
    }
    cuemu__sb_str(text, " <= 48u * 1024u, \"the static __shared__ variables");
    for (size_t u = n; u-- > 0;) {
      cuemu__sb_str(text, u + 1 == n ? " '" : ", '");
      cuemu__sb_tokens(text, rw, used[u], used[u] + 1, 0);
      cuemu__sb_str(text, "'");
    }
    cuemu__sb_str(text, " of this kernel take more than 48 KiB together, the most static "
                        "shared memory a kernel may have (nvcc: too much shared data)\");");
  }
  if (scope->count < CUEMU_SHARED_SCOPE_MAX) scope->name[scope->count++] = name;
}

cuemu_status cuemu__static_shared_note(cuemu_rewriter *rw, size_t i,
                                       int kernel,
                                       cuemu_shared_scope *scope) {
  /* The declarator's name: the identifier at the outer level (not inside
   * parentheses, brackets, braces or a template argument list) that comes
   * last before the first `[`, `=`, `{`, `(`, `,` or `;` that follows it. */
  size_t k, name = rw->n, angle = 0;
  int class_key = 0;
  static const char call[] = " CUEMU_STATIC_SHARED_NOTE(";
  static const char check[] = " CUEMU_STATIC_SHARED_CHECK(";
  static const char device_note[] = " CUEMU_DEVICE_SHARED_NOTE(";
  for (k = i + 1; k < rw->n; k++) {
    size_t after = cuemu__rw_skip_attribute(rw, k);
    if (after != k) {
      k = after - 1;
      continue;
    }
    if (angle == 0 && (cuemu__rw_is(rw, k, "union") || cuemu__rw_is(rw, k, "struct") ||
                       cuemu__rw_is(rw, k, "class"))) {
      class_key = 1;
    } else if (angle == 0 && class_key && cuemu__rw_is(rw, k, "{")) {
      /* `__shared__ union { ... } tmp;` (as CUB's documentation writes
       * temporary storage): the name follows the class's body. */
      k = cuemu__rw_close(rw, k);
      if (k >= rw->n) return CUEMU_SUCCESS;
      class_key = 0;
      name = rw->n;
    } else if (cuemu__rw_is(rw, k, "<")) {
      angle++;
    } else if (cuemu__rw_is(rw, k, ">") && angle > 0) {
      angle--;
    } else if (angle == 0 && cuemu__rw_ident(rw, k)) {
      name = k;
    } else if (angle == 0 &&
               (cuemu__rw_is(rw, k, "[") || cuemu__rw_is(rw, k, "=") ||
                cuemu__rw_is(rw, k, "{") || cuemu__rw_is(rw, k, "(") ||
                cuemu__rw_is(rw, k, ",") || cuemu__rw_is(rw, k, ";"))) {
      break;
    } else if (cuemu__rw_is(rw, k, "}") || cuemu__rw_is(rw, k, ")")) {
      return CUEMU_SUCCESS; /* not a declaration we understand */
    }
  }
  if (name >= rw->n || k >= rw->n) return CUEMU_SUCCESS;
  /* The `;` that ends the declaration. */
  while (k < rw->n && !cuemu__rw_is(rw, k, ";")) {
    if (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "[") ||
        cuemu__rw_is(rw, k, "{")) {
      k = cuemu__rw_close(rw, k);
      if (k >= rw->n) return CUEMU_SUCCESS;
    } else if (cuemu__rw_is(rw, k, "}")) {
      return CUEMU_SUCCESS;
    }
    k++;
  }
  if (k >= rw->n) return CUEMU_SUCCESS;
  cuemu_strbuf text = {0};
  if (rw->pass == CUEMU_PASS_HOST) {
    cuemu__sb_add(&text, check, sizeof check - 1);
    cuemu__sb_tokens(&text, rw, name, name + 1, 0);
  } else if (!kernel) {
    char id[40];
    cuemu__sb_add(&text, device_note, sizeof device_note - 1);
    cuemu__sb_tokens(&text, rw, name, name + 1, 0);
    snprintf(id, sizeof id, ", %lluull", declaration_id(rw, name));
    cuemu__sb_str(&text, id);
  } else {
    cuemu__sb_add(&text, call, sizeof call - 1);
    cuemu__sb_tokens(&text, rw, name, name + 1, 0);
    cuemu__sb_str(&text, ", ");
    cuemu_status self = cuemu__kernel_self_reference(rw, &text);
    if (self != CUEMU_SUCCESS) {
      free(text.data);
      return self == CUEMU_INVALID_VALUE ? CUEMU_SUCCESS : self;
    }
    char id[40];
    snprintf(id, sizeof id, ", %lluull", declaration_id(rw, name));
    cuemu__sb_str(&text, id);
  }
  cuemu__sb_add(&text, ");", 2);
  if (kernel && scope) shared_total_check(&text, rw, name, scope);
  if (text.oom) {
    free(text.data);
    return CUEMU_OUT_OF_MEMORY;
  }
  const cuemu_token *semi = &rw->toks[k];
  cuemu_status st = cuemu__rw_edit(rw, semi->offset + semi->length, 0,
                                   text.data, text.length);
  free(text.data);
  return st;
}
