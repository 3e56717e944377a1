/*
 * cuemu_parity_setup.c: makes a case ready to run: resolves every
 * argument's type, evaluates the scalar values, sizes and launch shape, and
 * generates the initial contents of every array.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuemu_parity_internal.h"

/* Fails the setup with a message naming the file, the line and the field. */
__attribute__((format(printf, 4, 5))) static cuemu_status
bad(const cuemu_parity_case *c, int line, const char *field, const char *fmt,
    ...) {
  char what[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  if (c->file[0])
    return cuemu__parity_fail(CUEMU_CASE_INVALID,
                              "%s:%d: case '%s': field '%s': %s", c->file,
                              line ? line : c->line, c->name, field, what);
  return cuemu__parity_fail(CUEMU_CASE_INVALID, "case '%s': field '%s': %s",
                            c->name, field, what);
}

typedef struct eval_ctx {
  const cuemu_parity_case *c;
  int depth;
} eval_ctx;

static int lookup(void *p, const char *name, int64_t *v, char *err,
                  size_t errsize) {
  eval_ctx *e = p;
  const cuemu_parity_case *c = e->c;
  for (int i = 0; i < c->nargs; ++i) {
    const cuemu__parg *a = &c->args[i];
    if (strcmp(a->name, name) != 0)
      continue;
    cuemu__ptype t;
    if (a->is_array || a->value.kind != CUEMU__PV_TEXT ||
        cuemu__ptype_resolve(c, a->type, &t, err, errsize) || t.nfields != 1 ||
        t.fields[0].kind == CUEMU__PS_FLOAT || t.fields[0].kind == CUEMU__PS_HALF ||
        t.fields[0].kind == CUEMU__PS_BF16) {
      snprintf(err, errsize, "'%s' is not an integer scalar argument", name);
      return -1;
    }
    if (e->depth > 32) {
      snprintf(err, errsize, "'%s' is defined in terms of itself", name);
      return -1;
    }
    e->depth++;
    int rc = cuemu__parity_eval(a->value.text, lookup, e, v, err, errsize);
    e->depth--;
    return rc;
  }
  snprintf(err, errsize, "no scalar argument named '%s'", name);
  return -1;
}

static int eval(const cuemu_parity_case *c, const char *expr, int64_t *v,
                char *err, size_t errsize) {
  eval_ctx e = {c, 0};
  return cuemu__parity_eval(expr, lookup, &e, v, err, errsize);
}

/* One scalar field from a text value. Integers must fit their type. */
static int scalar_field(const cuemu_parity_case *c, const cuemu__pfield *f,
                        const char *text, void *elem, char *err,
                        size_t errsize) {
  if (f->kind == CUEMU__PS_BOOL &&
      (strcmp(text, "true") == 0 || strcmp(text, "false") == 0)) {
    cuemu__pfield_set(f, elem, text[0] == 't');
    return 0;
  }
  double d;
  if ((f->kind == CUEMU__PS_FLOAT || f->kind == CUEMU__PS_HALF ||
       f->kind == CUEMU__PS_BF16) &&
      cuemu__parity_number(text, &d) == 0) {
    cuemu__pfield_set(f, elem, d);
    return 0;
  }
  /* An unsigned 64-bit literal may be past INT64_MAX. */
  if (f->kind == CUEMU__PS_UINT && f->size == 8 && text[0] >= '0' &&
      text[0] <= '9') {
    char *end;
    errno = 0;
    int hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    unsigned long long u = strtoull(text, &end, hex ? 16 : 10);
    if (!*end && !errno) {
      memcpy((char *)elem + f->offset, &u, 8);
      return 0;
    }
  }
  int64_t v;
  if (eval(c, text, &v, err, errsize))
    return -1;
  if (f->kind == CUEMU__PS_FLOAT || f->kind == CUEMU__PS_HALF ||
      f->kind == CUEMU__PS_BF16) {
    cuemu__pfield_set(f, elem, (double)v);
    return 0;
  }
  int bits = (int)f->size * 8;
  int fits = f->kind == CUEMU__PS_BOOL ? v == 0 || v == 1
             : f->kind == CUEMU__PS_UINT
                 ? v >= 0 && (bits == 64 || (uint64_t)v >> bits == 0)
                 : bits == 64 || (v >= -((int64_t)1 << (bits - 1)) &&
                                  v < ((int64_t)1 << (bits - 1)));
  if (!fits) {
    snprintf(err, errsize, "%lld does not fit a %d-bit %s", (long long)v, bits,
             f->kind == CUEMU__PS_BOOL ? "bool (0, 1, true or false)"
             : f->kind == CUEMU__PS_UINT ? "unsigned integer"
                                         : "integer");
    return -1;
  }
  memcpy((char *)elem + f->offset, &v, f->size); /* little-endian */
  return 0;
}

/* A scalar argument's bytes from its value. */
static cuemu_status build_scalar(const cuemu_parity_case *c,
                                 const cuemu__parg *a, const cuemu__ptype *t,
                                 unsigned char *out) {
  char field[160], err[512];
  snprintf(field, sizeof field, "args (%s).value", a->name);
  const cuemu__pvalue *v = &a->value;
  int line = v->line ? v->line : a->line;
  if (t->nfields == 1 && !t->is_struct) {
    if (v->kind != CUEMU__PV_TEXT)
      return bad(c, line, field, "a %s takes a single value", t->name);
    if (scalar_field(c, &t->fields[0], v->text, out, err, sizeof err))
      return bad(c, line, field, "%s", err);
    return CUEMU_SUCCESS;
  }
  if (v->kind == CUEMU__PV_TEXT)
    return bad(c, line, field,
               "a %s takes %s of its %d fields", t->name,
               t->is_struct ? "a mapping" : "a list", t->nfields);
  if (v->kind == CUEMU__PV_SEQ && v->n != t->nfields)
    return bad(c, line, field, "a %s has %d fields, not %d", t->name,
               t->nfields, v->n);
  for (int f = 0; f < t->nfields; ++f) {
    const cuemu__pvalue *item = NULL;
    if (v->kind == CUEMU__PV_SEQ)
      item = &v->items[f];
    else
      for (int k = 0; k < v->n; ++k)
        if (strcmp(v->keys[k], t->fields[f].name) == 0)
          item = &v->items[k];
    if (!item)
      return bad(c, line, field, "field %s of %s is missing", t->fields[f].name,
                 t->name);
    if (item->kind != CUEMU__PV_TEXT)
      return bad(c, line, field, "field %s takes a single value",
                 t->fields[f].name);
    if (scalar_field(c, &t->fields[f], item->text, out, err, sizeof err))
      return bad(c, line, field, "field %s: %s", t->fields[f].name, err);
  }
  if (v->kind == CUEMU__PV_MAP)
    for (int k = 0; k < v->n; ++k) {
      int known = 0;
      for (int f = 0; f < t->nfields; ++f)
        known |= strcmp(v->keys[k], t->fields[f].name) == 0;
      if (!known)
        return bad(c, line, field, "%s has no field %s", t->name, v->keys[k]);
    }
  return CUEMU_SUCCESS;
}

/* Evaluates three launch expressions into a dim3 of positive values. */
static cuemu_status dims(const cuemu_parity_case *c, char *const e[3],
                         const char *field, unsigned out[3]) {
  for (int i = 0; i < 3; ++i) {
    int64_t v;
    char err[512];
    if (eval(c, e[i] ? e[i] : "1", &v, err, sizeof err))
      return bad(c, c->launch_line, field, "%s", err);
    if (v < 1 || v > 0x7fffffff)
      return bad(c, c->launch_line, field,
                 "dimension %c is %lld; it must be positive", "xyz"[i],
                 (long long)v);
    out[i] = (unsigned)v;
  }
  return CUEMU_SUCCESS;
}

cuemu_status cuemu__psetup_build(const cuemu_parity_case *c,
                                 cuemu__psetup *s) {
  memset(s, 0, sizeof *s);
  s->c = c;
  if (!c->source || !c->kernel)
    return bad(c, 0, "kernel", "the case names no kernel");
  if (!c->host_file)
    return bad(c, 0, "host", "the case names no host implementation");
  if (!c->block[0])
    return bad(c, 0, "launch.block", "missing");
  if (!c->grid[0] && !c->threads[0])
    return bad(c, 0, "launch", "give either grid or threads");
  size_t n = (size_t)(c->nargs ? c->nargs : 1);
  s->types = calloc(n, sizeof *s->types);
  s->scalars = calloc(n, sizeof *s->scalars);
  s->count = calloc(n, sizeof *s->count);
  s->bytes = calloc(n, sizeof *s->bytes);
  s->init = calloc(n, sizeof *s->init);
  s->rows = calloc(n, sizeof *s->rows);
  s->cols = calloc(n, sizeof *s->cols);
  if (!s->types || !s->scalars || !s->count || !s->bytes || !s->init ||
      !s->rows || !s->cols)
    return cuemu__parity_fail(CUEMU_OUT_OF_MEMORY, "out of memory");
  for (int i = 0; i < c->nargs; ++i) {
    const cuemu__parg *a = &c->args[i];
    char field[160], err[512], elem[128];
    snprintf(field, sizeof field, "args[%d] (%s).type", i, a->name);
    for (int j = 0; j < i; ++j)
      if (strcmp(c->args[j].name, a->name) == 0)
        return bad(c, a->line, field, "a second argument named %s", a->name);
    cuemu__ptype_split(a->type, elem, sizeof elem);
    if (cuemu__ptype_resolve(c, elem, &s->types[i], err, sizeof err))
      return bad(c, a->line, field, "%s", err);
    if (!a->is_array) {
      s->scalars[i] = calloc(1, s->types[i].size);
      if (!s->scalars[i])
        return cuemu__parity_fail(CUEMU_OUT_OF_MEMORY, "out of memory");
      cuemu_status st = build_scalar(c, a, &s->types[i], s->scalars[i]);
      if (st)
        return st;
      continue;
    }
    snprintf(field, sizeof field, "args[%d] (%s).size", i, a->name);
    int64_t count;
    if (eval(c, a->size, &count, err, sizeof err))
      return bad(c, a->line, field, "%s", err);
    /* Every leg keeps a copy, so an array may take an eighth of memory. */
    uint64_t limit = (uint64_t)sysconf(_SC_PHYS_PAGES) *
                     (uint64_t)sysconf(_SC_PAGESIZE) / 8;
    if (count < 0 || (uint64_t)count > limit / s->types[i].size)
      return bad(c, a->line, field,
                 "%lld elements of %zu bytes is not a usable size (at most "
                 "%llu bytes here)",
                 (long long)count, s->types[i].size, (unsigned long long)limit);
    s->count[i] = (size_t)count;
    s->bytes[i] = (size_t)count * s->types[i].size;
    s->rows[i] = 1;
    s->cols[i] = (size_t)count;
    if (a->shape[0]) {
      int64_t r, k;
      snprintf(field, sizeof field, "args[%d] (%s).shape", i, a->name);
      if (eval(c, a->shape[0], &r, err, sizeof err) ||
          eval(c, a->shape[1], &k, err, sizeof err))
        return bad(c, a->line, field, "%s", err);
      if (r < 1 || k < 1 || (uint64_t)r * (uint64_t)k != (uint64_t)count)
        return bad(c, a->line, field,
                   "%lld by %lld elements is not the array's size (%lld)",
                   (long long)r, (long long)k, (long long)count);
      s->rows[i] = (size_t)r;
      s->cols[i] = (size_t)k;
    }
    s->init[i] = calloc(1, s->bytes[i] ? s->bytes[i] : 1);
    if (!s->init[i])
      return bad(c, a->line, field, "out of memory for %zu bytes", s->bytes[i]);
    if (a->kind == CUEMU_PARITY_OUTPUT) {
      cuemu_parity_generator fill = {CUEMU_PARITY_CONSTANT, a->fill, 0, NULL, 0};
      cuemu__parity_generate(&fill, &s->types[i], s->init[i], s->count[i],
                             c->seed, (uint64_t)i);
    } else {
      cuemu__parity_generate(&a->gen, &s->types[i], s->init[i], s->count[i],
                             c->seed, (uint64_t)i);
    }
  }
  int compared = 0;
  for (int i = 0; i < c->nargs; ++i)
    compared |= c->args[i].is_array && c->args[i].kind != CUEMU_PARITY_INPUT;
  if (!compared)
    return bad(c, 0, "args", "the case compares nothing: give at least one "
                             "output or inout array");
  unsigned v[3];
  cuemu_status st = dims(c, (char *const *)c->block, "launch.block", v);
  if (st)
    return st;
  s->block = (cuemu_dim3){v[0], v[1], v[2]};
  if (c->use_threads) {
    if ((st = dims(c, (char *const *)c->threads, "launch.threads", v)))
      return st;
    s->grid = (cuemu_dim3){(v[0] + s->block.x - 1) / s->block.x,
                           (v[1] + s->block.y - 1) / s->block.y,
                           (v[2] + s->block.z - 1) / s->block.z};
  } else {
    if ((st = dims(c, (char *const *)c->grid, "launch.grid", v)))
      return st;
    s->grid = (cuemu_dim3){v[0], v[1], v[2]};
  }
  int64_t shared = 0;
  char err[512];
  if (eval(c, c->shared ? c->shared : "0", &shared, err, sizeof err))
    return bad(c, c->launch_line, "launch.shared", "%s", err);
  if (shared < 0)
    return bad(c, c->launch_line, "launch.shared", "negative");
  s->shared = (size_t)shared;
  return CUEMU_SUCCESS;
}

void cuemu__psetup_free(cuemu__psetup *s) {
  int n = s->c ? s->c->nargs : 0;
  for (int i = 0; i < n; ++i) {
    if (s->scalars)
      free(s->scalars[i]);
    if (s->init)
      free(s->init[i]);
  }
  free(s->types);
  free(s->scalars);
  free(s->count);
  free(s->bytes);
  free(s->init);
  free(s->rows);
  free(s->cols);
  memset(s, 0, sizeof *s);
}
