/*
 * cuemu_parity_case.c: parity cases built in code (the C API of parity.h),
 * and the messages of the parity library.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuemu_parity_internal.h"

static _Thread_local char last_message[16384];

const char *cuemu_parity_last_message(void) { return last_message; }

cuemu_status cuemu__parity_fail(cuemu_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(last_message, sizeof last_message, fmt, ap);
  va_end(ap);
  return status;
}

char *cuemu__parity_strdup(const char *s) { return s ? strdup(s) : NULL; }

void cuemu__pvalue_free(cuemu__pvalue *v) {
  if (!v)
    return;
  free(v->text);
  for (int i = 0; i < v->n; ++i) {
    if (v->keys)
      free(v->keys[i]);
    cuemu__pvalue_free(&v->items[i]);
  }
  free(v->keys);
  free(v->items);
  memset(v, 0, sizeof *v);
}

const char *cuemu_parity_leg_name(cuemu_parity_leg leg) {
  static const char *const names[CUEMU_PARITY_LEGS] = {
      "host", "emulated", "nvrtc", "gpu", "sanitize"};
  return (unsigned)leg < CUEMU_PARITY_LEGS ? names[leg] : "?";
}

cuemu_status cuemu_parity_case_new(cuemu_parity_case **out, const char *name) {
  if (!out || !name || !*name)
    return cuemu__parity_fail(CUEMU_INVALID_VALUE, "a case needs a name");
  cuemu_parity_case *c = calloc(1, sizeof *c);
  if (!c || !(c->name = strdup(name)) || !(c->file = strdup(""))) {
    cuemu_parity_case_free(c);
    return cuemu__parity_fail(CUEMU_OUT_OF_MEMORY, "out of memory");
  }
  *out = c;
  return CUEMU_SUCCESS;
}

void cuemu_parity_case_free(cuemu_parity_case *c) {
  if (!c)
    return;
  free(c->name);
  free(c->file);
  free(c->source);
  free(c->kernel);
  free(c->module);
  for (int i = 0; i < c->noptions; ++i)
    free(c->options[i]);
  free(c->options);
  free(c->host_file);
  free(c->host_function);
  for (int i = 0; i < 3; ++i) {
    free(c->grid[i]);
    free(c->threads[i]);
    free(c->block[i]);
  }
  free(c->shared);
  for (int i = 0; i < c->nstructs; ++i) {
    cuemu__pstruct *s = &c->structs[i];
    for (int f = 0; f < s->n; ++f) {
      free(s->field_names[f]);
      free(s->field_types[f]);
    }
    free(s->name);
    free(s->field_names);
    free(s->field_types);
  }
  free(c->structs);
  for (int i = 0; i < c->nargs; ++i) {
    cuemu__parg *a = &c->args[i];
    free(a->name);
    free(a->type);
    free(a->shape[0]);
    free(a->shape[1]);
    cuemu__pvalue_free(&a->value);
    free(a->size);
    free((void *)a->gen.values);
  }
  free(c->args);
  free(c);
}

const char *cuemu_parity_case_name(const cuemu_parity_case *c) {
  return c->name;
}

const char *cuemu_parity_case_file(const cuemu_parity_case *c) {
  return c->file;
}

/* Replaces the string at *slot by a copy of s. */
static cuemu_status set_string(char **slot, const char *s) {
  char *copy = NULL;
  if (s && !(copy = strdup(s)))
    return cuemu__parity_fail(CUEMU_OUT_OF_MEMORY, "out of memory");
  free(*slot);
  *slot = copy;
  return CUEMU_SUCCESS;
}

cuemu_status cuemu_parity_case_set_kernel(cuemu_parity_case *c,
                                          const char *source,
                                          const char *kernel) {
  if (!c || !source || !kernel || !*kernel)
    return cuemu__parity_fail(CUEMU_INVALID_VALUE,
                              "a kernel needs a source and a name");
  cuemu_status st = set_string(&c->source, source);
  return st ? st : set_string(&c->kernel, kernel);
}

cuemu_status cuemu_parity_case_add_option(cuemu_parity_case *c,
                                          const char *option) {
  if (!c || !option)
    return cuemu__parity_fail(CUEMU_INVALID_VALUE, "no option");
  if (strncmp(option, "-D", 2) != 0 && strncmp(option, "-I", 2) != 0 &&
      strncmp(option, "-U", 2) != 0)
    return cuemu__parity_fail(CUEMU_INVALID_VALUE,
                              "option '%s': only -D, -I and -U are passed to "
                              "both cuemu-cc and NVRTC",
                              option);
  char **o = realloc(c->options, (size_t)(c->noptions + 1) * sizeof *o);
  if (!o)
    return cuemu__parity_fail(CUEMU_OUT_OF_MEMORY, "out of memory");
  c->options = o;
  if (!(o[c->noptions] = strdup(option)))
    return cuemu__parity_fail(CUEMU_OUT_OF_MEMORY, "out of memory");
  c->noptions++;
  return CUEMU_SUCCESS;
}

cuemu_status cuemu_parity_case_set_host(cuemu_parity_case *c, const char *file,
                                        const char *function) {
  if (!c || !file)
    return cuemu__parity_fail(CUEMU_INVALID_VALUE, "no host file");
  cuemu_status st = set_string(&c->host_file, file);
  return st ? st : set_string(&c->host_function, function);
}

static cuemu_status set_dims(char **slot, const char *x, const char *y,
                             const char *z) {
  const char *v[3] = {x, y, z};
  for (int i = 0; i < 3; ++i) {
    cuemu_status st = set_string(&slot[i], v[i] ? v[i] : "1");
    if (st)
      return st;
  }
  return CUEMU_SUCCESS;
}

cuemu_status cuemu_parity_case_set_grid(cuemu_parity_case *c, const char *x,
                                        const char *y, const char *z) {
  c->use_threads = 0;
  return set_dims(c->grid, x, y, z);
}

cuemu_status cuemu_parity_case_set_threads(cuemu_parity_case *c,
                                           const char *x, const char *y,
                                           const char *z) {
  c->use_threads = 1;
  return set_dims(c->threads, x, y, z);
}

cuemu_status cuemu_parity_case_set_block(cuemu_parity_case *c, const char *x,
                                         const char *y, const char *z) {
  return set_dims(c->block, x, y, z);
}

cuemu_status cuemu_parity_case_set_shared(cuemu_parity_case *c,
                                          const char *bytes) {
  return set_string(&c->shared, bytes ? bytes : "0");
}

void cuemu_parity_case_set_cooperative(cuemu_parity_case *c, int cooperative) {
  c->cooperative = cooperative != 0;
}

void cuemu_parity_case_set_seed(cuemu_parity_case *c, uint64_t seed) {
  c->seed = seed;
}

cuemu_status cuemu_parity_case_add_struct(cuemu_parity_case *c,
                                          const char *name, int nfields,
                                          const char *const *field_names,
                                          const char *const *field_types) {
  if (!c || !name || nfields <= 0 || nfields > 16)
    return cuemu__parity_fail(CUEMU_INVALID_VALUE,
                              "struct %s: it needs 1 to 16 fields",
                              name ? name : "?");
  cuemu__pstruct *s = realloc(c->structs, (size_t)(c->nstructs + 1) * sizeof *s);
  if (!s)
    return cuemu__parity_fail(CUEMU_OUT_OF_MEMORY, "out of memory");
  c->structs = s;
  s = &c->structs[c->nstructs];
  memset(s, 0, sizeof *s);
  s->name = strdup(name);
  s->field_names = calloc((size_t)nfields, sizeof *s->field_names);
  s->field_types = calloc((size_t)nfields, sizeof *s->field_types);
  c->nstructs++;
  if (!s->name || !s->field_names || !s->field_types)
    return cuemu__parity_fail(CUEMU_OUT_OF_MEMORY, "out of memory");
  for (int i = 0; i < nfields; ++i) {
    s->field_names[i] = strdup(field_names[i]);
    s->field_types[i] = strdup(field_types[i]);
    s->n++;
    if (!s->field_names[i] || !s->field_types[i])
      return cuemu__parity_fail(CUEMU_OUT_OF_MEMORY, "out of memory");
  }
  return CUEMU_SUCCESS;
}

/* Appends an argument slot named `name` of type `type`. */
static cuemu__parg *new_arg(cuemu_parity_case *c, const char *name,
                            const char *type) {
  cuemu__parg *a = realloc(c->args, (size_t)(c->nargs + 1) * sizeof *a);
  if (!a)
    return NULL;
  c->args = a;
  a = &c->args[c->nargs];
  memset(a, 0, sizeof *a);
  a->name = strdup(name);
  a->type = strdup(type);
  c->nargs++;
  return a->name && a->type ? a : NULL;
}

cuemu_status cuemu_parity_case_add_scalar(cuemu_parity_case *c,
                                          const char *name, const char *type,
                                          const char *value) {
  if (!c || !name || !type || !value)
    return cuemu__parity_fail(CUEMU_INVALID_VALUE,
                              "a scalar needs a name, a type and a value");
  char elem[64];
  if (cuemu__ptype_split(type, elem, sizeof elem))
    return cuemu__parity_fail(CUEMU_INVALID_VALUE,
                              "argument %s: '%s' is a pointer; add it as an "
                              "array",
                              name, type);
  cuemu__parg *a = new_arg(c, name, type);
  if (!a)
    return cuemu__parity_fail(CUEMU_OUT_OF_MEMORY, "out of memory");
  char err[256];
  if (cuemu__pvalue_parse(value, &a->value, err, sizeof err) != 0)
    return cuemu__parity_fail(CUEMU_INVALID_VALUE, "argument %s: value '%s': %s",
                              name, value, err);
  return CUEMU_SUCCESS;
}

cuemu_status cuemu_parity_case_add_array(cuemu_parity_case *c,
                                         const char *name, const char *type,
                                         cuemu_parity_array_kind kind,
                                         const char *size,
                                         const cuemu_parity_generator *gen,
                                         double fill,
                                         const cuemu_parity_compare *compare) {
  if (!c || !name || !type || !size)
    return cuemu__parity_fail(CUEMU_INVALID_VALUE,
                              "an array needs a name, a type and a size");
  char elem[64];
  int depth = cuemu__ptype_split(type, elem, sizeof elem);
  if (depth != 1)
    return cuemu__parity_fail(CUEMU_INVALID_VALUE,
                              "argument %s: an array needs a pointer type, "
                              "not '%s'%s",
                              name, type,
                              depth > 1 ? " (arrays of pointers are not "
                                          "supported)" : "");
  if (kind != CUEMU_PARITY_OUTPUT && !gen)
    return cuemu__parity_fail(CUEMU_INVALID_VALUE,
                              "argument %s: an input needs a generator", name);
  char why[256];
  if (gen && kind != CUEMU_PARITY_OUTPUT &&
      cuemu__parity_generator_check(gen, why, sizeof why))
    return cuemu__parity_fail(CUEMU_INVALID_VALUE, "argument %s: %s", name, why);
  if (compare && cuemu__parity_compare_check(compare, why, sizeof why))
    return cuemu__parity_fail(CUEMU_INVALID_VALUE, "argument %s: %s", name, why);
  cuemu__parg *a = new_arg(c, name, type);
  if (!a || !(a->size = strdup(size)))
    return cuemu__parity_fail(CUEMU_OUT_OF_MEMORY, "out of memory");
  a->is_array = 1;
  a->kind = kind;
  a->fill = fill;
  if (gen) {
    a->gen = *gen;
    a->gen.values = NULL;
    if (gen->kind == CUEMU_PARITY_VALUES) {
      double *v = malloc((gen->nvalues ? gen->nvalues : 1) * sizeof *v);
      if (!v)
        return cuemu__parity_fail(CUEMU_OUT_OF_MEMORY, "out of memory");
      if (gen->nvalues)
        memcpy(v, gen->values, gen->nvalues * sizeof *v);
      a->gen.values = v;
    }
  }
  if (compare)
    a->compare = *compare;
  return CUEMU_SUCCESS;
}

cuemu_status cuemu_parity_case_set_shape(cuemu_parity_case *c,
                                         const char *array, const char *rows,
                                         const char *cols) {
  if (!c || !array || !rows || !cols)
    return cuemu__parity_fail(CUEMU_INVALID_VALUE,
                              "a shape needs an array, rows and columns");
  for (int i = c->nargs - 1; i >= 0; --i) {
    cuemu__parg *a = &c->args[i];
    if (strcmp(a->name, array) != 0)
      continue;
    if (!a->is_array || a->kind == CUEMU_PARITY_INPUT)
      return cuemu__parity_fail(CUEMU_INVALID_VALUE,
                                "argument %s: only an output or in-out array "
                                "has a shape",
                                array);
    char *r = strdup(rows), *k = strdup(cols);
    if (!r || !k) {
      free(r);
      free(k);
      return cuemu__parity_fail(CUEMU_OUT_OF_MEMORY, "out of memory");
    }
    free(a->shape[0]);
    free(a->shape[1]);
    a->shape[0] = r;
    a->shape[1] = k;
    return CUEMU_SUCCESS;
  }
  return cuemu__parity_fail(CUEMU_INVALID_VALUE, "the case has no array %s",
                            array);
}

int cuemu__parity_duplicates(cuemu_parity_case *const *cases, int n,
                             cuemu__ptext *out) {
  int found = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j) {
      const cuemu_parity_case *a = cases[j], *b = cases[i];
      if (strcmp(a->name, b->name) != 0)
        continue;
      cuemu__ptext_add(out,
                       "%s:%d: case '%s' is declared twice: at %s:%d and at "
                       "%s:%d; case names must be unique\n",
                       b->file[0] ? b->file : "(in code)", b->line, b->name,
                       a->file[0] ? a->file : "(in code)", a->line,
                       b->file[0] ? b->file : "(in code)", b->line);
      found++;
      break; /* each later case names the first of its name */
    }
  return found;
}
