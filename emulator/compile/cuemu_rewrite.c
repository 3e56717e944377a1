/*
 * cuemu_rewrite.c: the entry point of the source rewriter (see
 * cuemu_rewrite.h). It lexes the text, walks the significant tokens once
 * while tracking namespaces, extern "C" blocks and other braces, lets each
 * construct record its edits, then applies the edits in order.
 *
 * Each edit re-emits the newlines of the text it replaces, so the output has
 * exactly the input's line count.
 */
#include "cuemu_rewrite.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuemu_rewriter.h"

enum scope_kind { SCOPE_NAMESPACE, SCOPE_EXTERN_C, SCOPE_EXTERN_CXX };

typedef struct scope {
  enum scope_kind kind;
  char *name;          /* namespaces: "a" or "a::b", "" when anonymous */
} scope;

typedef struct walker {
  cuemu_rewriter *rw;
  scope *stack;        /* namespace and linkage blocks only */
  size_t depth;
  size_t capacity;
  size_t other_depth;  /* braces of anything else (functions, classes) */
  size_t decl_start;   /* first token of the current namespace-scope declaration */
  int kernel_decl;     /* the current namespace-scope declaration is a kernel's */
  size_t kernel_body;  /* other_depth inside the kernel body being walked, or 0 */
} walker;

/* Builds the name of a namespace from the tokens between `namespace` and
 * its `{`: "a", "a::b" (C++17 nested), "" (anonymous). */
static char *namespace_name(const cuemu_rewriter *rw, size_t from, size_t to) {
  cuemu_strbuf sb = {0};
  size_t k = from;
  cuemu__sb_add(&sb, "", 0);
  while (k < to) {
    size_t after = cuemu__rw_skip_attribute(rw, k);
    if (after != k) {
      k = after;
      continue;
    }
    if (cuemu__rw_ident(rw, k) && !cuemu__rw_is(rw, k, "inline")) {
      if (sb.length) cuemu__sb_add(&sb, "::", 2);
      cuemu__sb_tokens(&sb, rw, k, k + 1, 0);
    }
    k++;
  }
  if (sb.oom) {
    free(sb.data);
    return NULL;
  }
  return sb.data;
}

static cuemu_status push(walker *w, enum scope_kind kind, char *name) {
  if (w->depth == w->capacity) {
    size_t cap = w->capacity ? w->capacity * 2 : 16;
    scope *grown = realloc(w->stack, cap * sizeof *grown);
    if (!grown) {
      free(name);
      return CUEMU_OUT_OF_MEMORY;
    }
    w->stack = grown;
    w->capacity = cap;
  }
  w->stack[w->depth].kind = kind;
  w->stack[w->depth].name = name;
  w->depth++;
  return CUEMU_SUCCESS;
}

/* A `{` at namespace scope: opens a namespace, a linkage block or
 * something else (function or class body, initialiser). */
static cuemu_status open_brace(walker *w, size_t i) {
  cuemu_rewriter *rw = w->rw;
  size_t k = w->decl_start;
  while (cuemu__rw_skip_attribute(rw, k) != k)
    k = cuemu__rw_skip_attribute(rw, k);
  if (cuemu__rw_is(rw, k, "inline")) k++;
  if (k < i && cuemu__rw_is(rw, k, "namespace")) {
    char *name = namespace_name(rw, k + 1, i);
    if (!name) return CUEMU_OUT_OF_MEMORY;
    w->decl_start = i + 1;
    return push(w, SCOPE_NAMESPACE, name);
  }
  if (i == w->decl_start + 2 && cuemu__rw_is(rw, w->decl_start, "extern") &&
      rw->toks[w->decl_start + 1].kind == CUEMU_TOKEN_STRING) {
    w->decl_start = i + 1;
    return push(w,
                cuemu__rw_is(rw, w->decl_start - 2, "\"C\"") ? SCOPE_EXTERN_C
                                                             : SCOPE_EXTERN_CXX,
                NULL);
  }
  w->other_depth++;
  if (w->kernel_decl && w->other_depth == 1) w->kernel_body = 1;
  w->kernel_decl = 0;
  return CUEMU_SUCCESS;
}

static void close_brace(walker *w, size_t i) {
  if (w->other_depth > 0) {
    if (w->other_depth == w->kernel_body) w->kernel_body = 0;
    w->other_depth--;
  } else if (w->depth > 0) {
    w->depth--;
    free(w->stack[w->depth].name);
  }
  if (w->other_depth == 0) w->decl_start = i + 1;
}

/* A `__global__` at namespace scope: records its kernel. */
static cuemu_status global_decl(walker *w, size_t i) {
  cuemu_strbuf ns = {0};
  int extern_c = 0;
  size_t k;
  cuemu_status st;
  cuemu__sb_add(&ns, "", 0);
  for (k = 0; k < w->depth; k++) {
    const scope *s = &w->stack[k];
    if (s->kind != SCOPE_NAMESPACE) {
      extern_c = s->kind == SCOPE_EXTERN_C;
    } else if (s->name[0]) {
      if (ns.length) cuemu__sb_add(&ns, "::", 2);
      cuemu__sb_str(&ns, s->name);
    }
  }
  if (ns.oom) {
    free(ns.data);
    return CUEMU_OUT_OF_MEMORY;
  }
  st = cuemu__kernel_decl_scan(w->rw, w->decl_start, i, ns.data, extern_c);
  free(ns.data);
  return st;
}

static int three_lt(const cuemu_rewriter *rw, size_t i) {
  return cuemu__rw_is(rw, i, "<") && cuemu__rw_is(rw, i + 1, "<") &&
         cuemu__rw_is(rw, i + 2, "<") && cuemu__rw_adjacent(rw, i) &&
         cuemu__rw_adjacent(rw, i + 1);
}

static cuemu_status walk(walker *w) {
  cuemu_rewriter *rw = w->rw;
  size_t i = 0, resume;
  cuemu_status st = CUEMU_SUCCESS;
  static const char noinline[] = "__attribute__((noinline))";
  while (i < rw->n && st == CUEMU_SUCCESS) {
    const cuemu_token *t = &rw->toks[i];
    if (t->kind == CUEMU_TOKEN_IDENT) {
      if (cuemu__rw_is(rw, i, "__noinline__") &&
          !(i > 0 && (cuemu__rw_is(rw, i - 1, "(") ||
                      cuemu__rw_is(rw, i - 1, ",")))) {
        /* Not inside __attribute__((__noinline__)), which is GCC's own. */
        st = cuemu__rw_edit(rw, t->offset, t->length, noinline,
                            sizeof noinline - 1);
      } else if (cuemu__rw_is(rw, i, "__shared__")) {
        st = cuemu__shared_decl_rewrite(rw, i, &resume);
        if (st == CUEMU_SUCCESS && resume != i) {
          i = resume; /* the `;` that ends the declaration */
          continue;
        }
        if (st == CUEMU_SUCCESS && w->kernel_body)
          st = cuemu__static_shared_note(rw, i);
      } else if (w->other_depth > 0 && (cuemu__rw_is(rw, i, "asm") ||
                                        cuemu__rw_is(rw, i, "__asm__") ||
                                        cuemu__rw_is(rw, i, "__asm"))) {
        st = cuemu__ptx_rewrite(rw, i, &resume); /* inline PTX */
        if (st == CUEMU_SUCCESS && resume != i) {
          i = resume + 1;
          continue;
        }
      } else if (w->other_depth == 0 && cuemu__rw_is(rw, i, "__global__")) {
        st = global_decl(w, i);
        w->kernel_decl = 1;
      }
    } else if (t->kind == CUEMU_TOKEN_PUNCT) {
      if (three_lt(rw, i)) {
        st = cuemu__launch_rewrite(rw, i, &resume);
        i = resume;
        continue;
      } else if (t->flags & CUEMU_TOKEN_ALT_BRANCH) {
        /* Braces of #else branches are not counted. */
      } else if (cuemu__rw_is(rw, i, "{")) {
        if (w->other_depth == 0)
          st = open_brace(w, i);
        else
          w->other_depth++;
      } else if (cuemu__rw_is(rw, i, "}")) {
        close_brace(w, i);
      } else if (cuemu__rw_is(rw, i, ";") && w->other_depth == 0) {
        w->decl_start = i + 1;
        w->kernel_decl = 0;
      }
    }
    i++;
  }
  return st;
}

static int edit_order(const void *a, const void *b) {
  const cuemu_edit *x = a, *y = b;
  if (x->offset != y->offset) return x->offset < y->offset ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Applies the edits; each replaced range's newlines follow its text. */
static cuemu_status assemble(cuemu_rewriter *rw, cuemu_rewrite *out) {
  cuemu_strbuf sb = {0};
  size_t pos = 0, e, k;
  if (rw->edit_count)
    qsort(rw->edits, rw->edit_count, sizeof *rw->edits, edit_order);
  cuemu__sb_add(&sb, "", 0);
  for (e = 0; e < rw->edit_count; e++) {
    const cuemu_edit *ed = &rw->edits[e];
    if (ed->offset < pos) continue; /* overlapping edits cannot happen */
    cuemu__sb_add(&sb, rw->text + pos, ed->offset - pos);
    cuemu__sb_add(&sb, ed->text, ed->length);
    for (k = ed->offset; k < ed->offset + ed->removed; k++)
      if (rw->text[k] == '\n') cuemu__sb_add(&sb, "\n", 1);
    pos = ed->offset + ed->removed;
  }
  cuemu__sb_add(&sb, rw->text + pos, rw->length - pos);
  if (sb.oom) {
    free(sb.data);
    return CUEMU_OUT_OF_MEMORY;
  }
  out->text = sb.data;
  out->length = sb.length;
  return CUEMU_SUCCESS;
}

static void release(cuemu_rewriter *rw, walker *w) {
  size_t k;
  int i;
  for (k = 0; k < rw->edit_count; k++) free(rw->edits[k].text);
  free(rw->edits);
  free(rw->toks);
  for (i = 0; i < rw->kernel_count; i++) {
    free(rw->kernels[i].name);
    free(rw->kernels[i].launch_bounds);
  }
  free(rw->kernels);
  free(rw->by_name);
  free(rw->by_last);
  for (k = 0; k < w->depth; k++) free(w->stack[k].name);
  free(w->stack);
}

/* The conditional a directive token opens, switches or closes: 'i' (#if,
 * #ifdef, #ifndef), 'e' (#elif..., #else), 'n' (#endif), else 0. */
static int conditional(const char *text, const cuemu_token *t) {
  char buf[16], word[8];
  size_t len = cuemu__token_spelling(text, t, buf, sizeof buf), k = 1, w = 0;
  if (len > sizeof buf - 1) len = sizeof buf - 1;
  while (k < len && (buf[k] == ' ' || buf[k] == '\t')) k++;
  while (k < len && w < sizeof word - 1 && buf[k] >= 'a' && buf[k] <= 'z')
    word[w++] = buf[k++];
  word[w] = '\0';
  if (!strcmp(word, "if") || !strcmp(word, "ifdef") || !strcmp(word, "ifndef"))
    return 'i';
  if (!strncmp(word, "elif", 4) || !strcmp(word, "else")) return 'e';
  if (!strcmp(word, "endif")) return 'n';
  return 0;
}

/* Keeps the significant tokens (no comments, no directives), marking those
 * in #elif and #else branches. */
static cuemu_status significant(cuemu_rewriter *rw,
                                const cuemu_token_list *list) {
  size_t k, depth = 0, alt_levels = 0;
  unsigned char *alt = malloc(list->count + 1); /* per open conditional */
  rw->toks = malloc((list->count ? list->count : 1) * sizeof *rw->toks);
  if (!rw->toks || !alt) {
    free(alt);
    return CUEMU_OUT_OF_MEMORY;
  }
  for (k = 0; k < list->count; k++) {
    const cuemu_token *t = &list->tokens[k];
    if (t->kind == CUEMU_TOKEN_DIRECTIVE) {
      switch (conditional(rw->text, t)) {
      case 'i':
        alt[depth++] = 0;
        break;
      case 'e':
        if (depth > 0 && !alt[depth - 1]) {
          alt[depth - 1] = 1;
          alt_levels++;
        }
        break;
      case 'n':
        if (depth > 0 && alt[--depth]) alt_levels--;
        break;
      }
    } else if (t->kind != CUEMU_TOKEN_COMMENT) {
      rw->toks[rw->n] = *t;
      if (alt_levels) rw->toks[rw->n].flags |= CUEMU_TOKEN_ALT_BRANCH;
      rw->n++;
    }
  }
  free(alt);
  return CUEMU_SUCCESS;
}

/* Rewrites the launches in the body of a `#define` directive, so that a
 * macro that expands to `k<<<grid, block>>>(args)` works. The body is
 * rewritten as a source of its own (it knows no kernels, so each launch
 * becomes ::cuemu::launch_dynamic, which takes any kernel name or pointer)
 * and put back on one line: the line splices it had come back as blank
 * lines after the directive, so the line count is unchanged. */
static cuemu_status rewrite_macro(cuemu_rewriter *rw, const cuemu_token *t) {
  const char *d = rw->text + t->offset, *end = d + t->length, *p = d;
  size_t n = t->length;
  int has_launch = 0;
  for (size_t i = 0; i + 2 < n; ++i)
    if (d[i] == '<' && d[i + 1] == '<' && d[i + 2] == '<')
      has_launch = 1;
  if (!has_launch)
    return CUEMU_SUCCESS;
  /* "#", "define", the macro's name and its parameter list. */
  p++;
  while (p < end && (*p == ' ' || *p == '\t'))
    p++;
  if ((size_t)(end - p) < 6 || strncmp(p, "define", 6) != 0)
    return CUEMU_SUCCESS;
  p += 6;
  while (p < end && (*p == ' ' || *p == '\t'))
    p++;
  while (p < end && (isalnum((unsigned char)*p) || *p == '_'))
    p++;
  if (p < end && *p == '(') {
    while (p < end && *p != ')')
      p++;
    if (p < end)
      p++;
  }
  cuemu_rewrite sub;
  cuemu_status st = cuemu__rewrite_source(p, (size_t)(end - p), rw->filename,
                                          &sub);
  if (st != CUEMU_SUCCESS) {
    snprintf(rw->message, rw->message_size, "%s", sub.message);
    return st;
  }
  /* One line: drop the splices (and a CR before them). */
  size_t len = 0;
  for (size_t i = 0; i < sub.length; ++i) {
    if (sub.text[i] == '\\') {
      size_t j = i + 1;
      if (j < sub.length && sub.text[j] == '\r')
        j++;
      if (j < sub.length && sub.text[j] == '\n') {
        i = j;
        continue;
      }
    }
    sub.text[len++] = sub.text[i];
  }
  st = cuemu__rw_edit(rw, (size_t)(p - rw->text), (size_t)(end - p), sub.text,
                      len);
  cuemu__rewrite_free(&sub);
  return st;
}

/* Rewrites the launches in every #define body (see rewrite_macro). */
static cuemu_status rewrite_macros(cuemu_rewriter *rw,
                                   const cuemu_token_list *list) {
  for (size_t i = 0; i < list->count; ++i) {
    if (list->tokens[i].kind != CUEMU_TOKEN_DIRECTIVE)
      continue;
    cuemu_status st = rewrite_macro(rw, &list->tokens[i]);
    if (st != CUEMU_SUCCESS)
      return st;
  }
  return CUEMU_SUCCESS;
}

cuemu_status cuemu__rewrite_source(const char *text, size_t length,
                                   const char *filename, cuemu_rewrite *out) {
  cuemu_rewriter rw;
  walker w;
  cuemu_token_list list;
  cuemu_status st;
  if (!out) return CUEMU_INVALID_VALUE;
  memset(out, 0, sizeof *out);
  if (!text && length) {
    snprintf(out->message, sizeof out->message, "%s: no source text",
             filename ? filename : "<input>");
    return CUEMU_INVALID_VALUE;
  }
  if (!text) text = "";
  memset(&rw, 0, sizeof rw);
  memset(&w, 0, sizeof w);
  rw.text = text;
  rw.length = length;
  rw.filename = filename;
  rw.message = out->message;
  rw.message_size = sizeof out->message;
  w.rw = &rw;
  st = cuemu__lex(text, length, &list);
  if (st == CUEMU_COMPILE) {
    cuemu__rw_error(&rw, list.error_line, list.error);
    return st;
  }
  if (st == CUEMU_SUCCESS) st = significant(&rw, &list);
  if (st == CUEMU_SUCCESS) st = rewrite_macros(&rw, &list);
  cuemu__token_list_free(&list);
  if (st == CUEMU_SUCCESS) st = walk(&w);
  if (st == CUEMU_SUCCESS) st = assemble(&rw, out);
  if (st == CUEMU_SUCCESS) {
    out->kernels = rw.kernels;
    out->kernel_count = rw.kernel_count;
    rw.kernels = NULL;
    rw.kernel_count = 0;
    out->message[0] = '\0';
  } else if (st == CUEMU_OUT_OF_MEMORY) {
    snprintf(out->message, sizeof out->message, "%s: out of memory",
             filename ? filename : "<input>");
  }
  release(&rw, &w);
  return st;
}

void cuemu__rewrite_free(cuemu_rewrite *r) {
  int i;
  if (!r) return;
  free(r->text);
  for (i = 0; i < r->kernel_count; i++) {
    free(r->kernels[i].name);
    free(r->kernels[i].launch_bounds);
  }
  free(r->kernels);
  r->text = NULL;
  r->length = 0;
  r->kernels = NULL;
  r->kernel_count = 0;
}
