/*
 * cuemu_parity_yaml.c: parity case files, read with libyaml. Each YAML
 * document of a file is one case; see parity/README.md for the fields.
 * Every error names the file, the line and the field.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "cuemu_parity_internal.h"

/* Limits on a value's nesting and size, so that YAML aliases (which may
 * refer to themselves or multiply) cannot exhaust the runner. */
#define MAX_DEPTH 16
#define MAX_NODES 10000

typedef struct loader {
  yaml_document_t *doc;
  int nodes;
  const char *path;
  const char *dir;     /* the file's folder, with a trailing '/', or "" */
  char case_name[256];
  char err[1024];
} loader;

/* Records an error about `field` at node `n` and returns -1. */
__attribute__((format(printf, 4, 5))) static int
bad(loader *L, const yaml_node_t *n, const char *field, const char *fmt, ...) {
  char what[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  snprintf(L->err, sizeof L->err, "%s:%lu: case '%s': field '%s': %s", L->path,
           n ? (unsigned long)n->start_mark.line + 1 : 0UL,
           L->case_name[0] ? L->case_name : "?", field, what);
  return -1;
}

static yaml_node_t *node(loader *L, int id) {
  return yaml_document_get_node(L->doc, id);
}

static const char *text(const yaml_node_t *n) {
  return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value
                                          : NULL;
}

/* Converts a node to a value tree; -1 when it is too deep or too large
 * (*v is then partly built: free it). */
static int to_value(loader *L, const yaml_node_t *n, cuemu__pvalue *v,
                    int depth) {
  memset(v, 0, sizeof *v);
  v->line = (int)n->start_mark.line + 1;
  if (depth > MAX_DEPTH || ++L->nodes > MAX_NODES)
    return -1;
  if (n->type == YAML_SCALAR_NODE) {
    v->kind = CUEMU__PV_TEXT;
    v->text = strdup(text(n));
    return v->text ? 0 : -1;
  }
  if (n->type == YAML_SEQUENCE_NODE) {
    v->kind = CUEMU__PV_SEQ;
    int count = (int)(n->data.sequence.items.top - n->data.sequence.items.start);
    v->items = calloc((size_t)(count ? count : 1), sizeof *v->items);
    if (!v->items)
      return -1;
    for (int i = 0; i < count; ++i) {
      if (to_value(L, node(L, n->data.sequence.items.start[i]), &v->items[i],
                   depth + 1))
        return -1;
      v->n++;
    }
    return 0;
  }
  v->kind = CUEMU__PV_MAP;
  int count = (int)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
  v->items = calloc((size_t)(count ? count : 1), sizeof *v->items);
  v->keys = calloc((size_t)(count ? count : 1), sizeof *v->keys);
  if (!v->items || !v->keys)
    return -1;
  for (int i = 0; i < count; ++i) {
    yaml_node_pair_t *p = &n->data.mapping.pairs.start[i];
    const char *k = text(node(L, p->key));
    v->keys[i] = strdup(k ? k : "");
    if (!v->keys[i] || to_value(L, node(L, p->value), &v->items[i], depth + 1))
      return -1;
    v->n++;
  }
  return 0;
}

int cuemu__pvalue_parse(const char *src, cuemu__pvalue *out, char *err,
                        size_t errsize) {
  yaml_parser_t parser;
  yaml_document_t doc;
  memset(out, 0, sizeof *out);
  if (!yaml_parser_initialize(&parser)) {
    snprintf(err, errsize, "out of memory");
    return -1;
  }
  yaml_parser_set_input_string(&parser, (const unsigned char *)src, strlen(src));
  int rc = -1;
  if (!yaml_parser_load(&parser, &doc)) {
    snprintf(err, errsize, "does not parse: %s",
             parser.problem ? parser.problem : "?");
  } else {
    loader L = {.doc = &doc, .path = "", .dir = ""};
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (!root)
      snprintf(err, errsize, "empty value");
    else
      rc = to_value(&L, root, out, 0);
    if (rc && root)
      snprintf(err, errsize, "too deeply nested or too large");
    yaml_document_delete(&doc);
  }
  yaml_parser_delete(&parser);
  return rc;
}

/* The value of key `key` in mapping `m`, or NULL. */
static yaml_node_t *get(loader *L, const yaml_node_t *m, const char *key) {
  if (!m || m->type != YAML_MAPPING_NODE)
    return NULL;
  for (yaml_node_pair_t *p = m->data.mapping.pairs.start;
       p < m->data.mapping.pairs.top; ++p) {
    const char *k = text(node(L, p->key));
    if (k && strcmp(k, key) == 0)
      return node(L, p->value);
  }
  return NULL;
}

/* Refuses keys of mapping `m` that are not in the NULL-terminated `known`. */
static int only_keys(loader *L, const yaml_node_t *m, const char *where,
                     const char *const *known) {
  for (yaml_node_pair_t *p = m->data.mapping.pairs.start;
       p < m->data.mapping.pairs.top; ++p) {
    const char *k = text(node(L, p->key));
    for (yaml_node_pair_t *q = m->data.mapping.pairs.start; k && q < p; ++q) {
      const char *k2 = text(node(L, q->key));
      if (k2 && strcmp(k, k2) == 0) {
        char field[256];
        snprintf(field, sizeof field, "%s%s%s", where, *where ? "." : "", k);
        return bad(L, node(L, p->key), field, "given twice");
      }
    }
    int ok = 0;
    for (int i = 0; k && known[i]; ++i)
      ok |= strcmp(k, known[i]) == 0;
    if (!ok) {
      char field[256];
      snprintf(field, sizeof field, "%s%s%s", where, *where ? "." : "",
               k ? k : "?");
      return bad(L, node(L, p->key), field, "unknown field");
    }
  }
  return 0;
}

/* A scalar field as text; -1 (with an error) when it is not one. */
static int want_text(loader *L, const yaml_node_t *n, const char *field,
                     const char **out) {
  *out = text(n);
  if (!*out)
    return bad(L, n, field, "expected a single value");
  return 0;
}

static int want_number(loader *L, const yaml_node_t *n, const char *field,
                       double *out) {
  const char *t;
  if (want_text(L, n, field, &t))
    return -1;
  if (cuemu__parity_number(t, out))
    return bad(L, n, field, "'%s' is not a number", t);
  return 0;
}

/* A number that must be a whole number in [lo, hi]. */
static int want_whole(loader *L, const yaml_node_t *n, const char *field,
                      double lo, double hi, double *out) {
  if (want_number(L, n, field, out))
    return -1;
  if (!(*out >= lo && *out <= hi) || *out != floor(*out))
    return bad(L, n, field, "expected a whole number from %.0f to %.0f", lo, hi);
  return 0;
}

/* A path relative to the case file. */
static char *relative(loader *L, const char *p) {
  if (p[0] == '/')
    return strdup(p);
  size_t n = strlen(L->dir) + strlen(p) + 1;
  char *s = malloc(n);
  if (s)
    snprintf(s, n, "%s%s", L->dir, p);
  return s;
}

/* A number or a list of up to three expressions, into x, y, z. */
static int want_dims(loader *L, const yaml_node_t *n, const char *field,
                     const char *out[3]) {
  out[0] = out[1] = out[2] = NULL;
  if (n->type == YAML_SCALAR_NODE) {
    out[0] = text(n);
    return 0;
  }
  if (n->type != YAML_SEQUENCE_NODE)
    return bad(L, n, field, "expected a number or a list of up to three");
  int count = (int)(n->data.sequence.items.top - n->data.sequence.items.start);
  if (count < 1 || count > 3)
    return bad(L, n, field, "expected one to three dimensions, not %d", count);
  for (int i = 0; i < count; ++i)
    if (want_text(L, node(L, n->data.sequence.items.start[i]), field, &out[i]))
      return -1;
  return 0;
}

static int load_launch(loader *L, const yaml_node_t *n, cuemu_parity_case *c) {
  static const char *const keys[] = {"grid", "threads", "block", "shared",
                                     "cooperative", NULL};
  if (!n || n->type != YAML_MAPPING_NODE)
    return bad(L, n, "launch", "expected a mapping with block and grid or threads");
  c->launch_line = (int)n->start_mark.line + 1;
  if (only_keys(L, n, "launch", keys))
    return -1;
  const yaml_node_t *grid = get(L, n, "grid"), *threads = get(L, n, "threads"),
                    *block = get(L, n, "block"), *shared = get(L, n, "shared"),
                    *coop = get(L, n, "cooperative");
  const char *d[3];
  if (!!grid == !!threads)
    return bad(L, n, "launch", "give either grid or threads");
  if (!block)
    return bad(L, n, "launch.block", "missing");
  if (want_dims(L, grid ? grid : threads, grid ? "launch.grid" : "launch.threads", d))
    return -1;
  cuemu_status st = grid ? cuemu_parity_case_set_grid(c, d[0], d[1], d[2])
                         : cuemu_parity_case_set_threads(c, d[0], d[1], d[2]);
  if (st || want_dims(L, block, "launch.block", d) ||
      cuemu_parity_case_set_block(c, d[0], d[1], d[2]))
    return -1;
  const char *t = "0";
  if (shared && want_text(L, shared, "launch.shared", &t))
    return -1;
  if (cuemu_parity_case_set_shared(c, t))
    return -1;
  if (coop) {
    if (want_text(L, coop, "launch.cooperative", &t))
      return -1;
    if (strcmp(t, "true") != 0 && strcmp(t, "false") != 0)
      return bad(L, coop, "launch.cooperative", "expected true or false");
    cuemu_parity_case_set_cooperative(c, strcmp(t, "true") == 0);
  }
  return 0;
}

static int load_structs(loader *L, const yaml_node_t *n, cuemu_parity_case *c) {
  if (n->type != YAML_MAPPING_NODE)
    return bad(L, n, "structs", "expected a mapping of struct names to fields");
  for (yaml_node_pair_t *p = n->data.mapping.pairs.start;
       p < n->data.mapping.pairs.top; ++p) {
    const char *name = text(node(L, p->key));
    yaml_node_t *fields = node(L, p->value);
    char field[160];
    snprintf(field, sizeof field, "structs.%s", name ? name : "?");
    if (!name || fields->type != YAML_SEQUENCE_NODE)
      return bad(L, fields, field, "expected a list of {field: type}");
    int count = (int)(fields->data.sequence.items.top -
                      fields->data.sequence.items.start);
    const char *names[16], *types[16];
    if (count < 1 || count > 16)
      return bad(L, fields, field, "a struct has 1 to 16 fields");
    for (int i = 0; i < count; ++i) {
      yaml_node_t *f = node(L, fields->data.sequence.items.start[i]);
      if (f->type != YAML_MAPPING_NODE ||
          f->data.mapping.pairs.top - f->data.mapping.pairs.start != 1)
        return bad(L, f, field, "each field is one {name: type}");
      names[i] = text(node(L, f->data.mapping.pairs.start[0].key));
      types[i] = text(node(L, f->data.mapping.pairs.start[0].value));
      if (!names[i] || !types[i])
        return bad(L, f, field, "each field is one {name: type}");
    }
    if (cuemu_parity_case_add_struct(c, name, count, names, types))
      return bad(L, fields, field, "%s", cuemu_parity_last_message());
  }
  return 0;
}

/* A generator mapping such as {uniform: [-1, 1]}. */
static int load_generator(loader *L, const yaml_node_t *n, const char *field,
                          cuemu_parity_generator *g, double **values) {
  static const char *const kinds[] = {"uniform", "normal", "integers",
                                      "constant", "arange", "permutation",
                                      "values"};
  if (!n || n->type != YAML_MAPPING_NODE ||
      n->data.mapping.pairs.top - n->data.mapping.pairs.start != 1)
    return bad(L, n, field,
               "expected one generator: {uniform: [lo, hi]}, {normal: [mean, "
               "std]}, {integers: [lo, hi]}, {constant: v}, {arange: [start, "
               "step]}, {permutation: true} or {values: [...]}");
  const char *k = text(node(L, n->data.mapping.pairs.start[0].key));
  yaml_node_t *v = node(L, n->data.mapping.pairs.start[0].value);
  int kind = -1;
  for (int i = 0; k && i < 7; ++i)
    if (strcmp(k, kinds[i]) == 0)
      kind = i;
  if (kind < 0)
    return bad(L, n, field, "unknown generator '%s'", k ? k : "?");
  memset(g, 0, sizeof *g);
  g->kind = (cuemu_parity_generator_kind)kind;
  char sub[192];
  snprintf(sub, sizeof sub, "%s.%s", field, k);
  if (g->kind == CUEMU_PARITY_PERMUTATION) {
    if (!text(v) || strcmp(text(v), "true") != 0)
      return bad(L, v, sub, "write {permutation: true}");
    return 0;
  }
  if (g->kind == CUEMU_PARITY_CONSTANT ||
      (g->kind == CUEMU_PARITY_ARANGE && v->type == YAML_SCALAR_NODE)) {
    g->b = 1;
    return want_number(L, v, sub, &g->a);
  }
  if (v->type != YAML_SEQUENCE_NODE)
    return bad(L, v, sub, "expected a list");
  int count = (int)(v->data.sequence.items.top - v->data.sequence.items.start);
  if (g->kind == CUEMU_PARITY_VALUES) {
    if (count < 1)
      return bad(L, v, sub, "expected at least one value");
    *values = malloc((size_t)count * sizeof **values);
    if (!*values)
      return bad(L, v, sub, "out of memory");
    for (int i = 0; i < count; ++i)
      if (want_number(L, node(L, v->data.sequence.items.start[i]), sub,
                      &(*values)[i]))
        return -1;
    g->values = *values;
    g->nvalues = (size_t)count;
    return 0;
  }
  if (count != 2)
    return bad(L, v, sub, "expected two numbers");
  if (want_number(L, node(L, v->data.sequence.items.start[0]), sub, &g->a) ||
      want_number(L, node(L, v->data.sequence.items.start[1]), sub, &g->b))
    return -1;
  char why[256];
  if (cuemu__parity_generator_check(g, why, sizeof why))
    return bad(L, v, sub, "%s", why);
  return 0;
}

static int load_compare(loader *L, const yaml_node_t *n, const char *field,
                        cuemu_parity_compare *cmp) {
  static const char *const expected =
      "expected exact, {exact: true, nan_equal: true}, {ulps: N} or "
      "{rtol: R, atol: A}";
  memset(cmp, 0, sizeof *cmp);
  const char *t = text(n);
  if (t) {
    if (strcmp(t, "exact") != 0)
      return bad(L, n, field, "%s", expected);
    cmp->kind = CUEMU_PARITY_EXACT;
    return 0;
  }
  static const char *const keys[] = {"exact", "nan_equal", "ulps", "rtol",
                                     "atol", NULL};
  if (n->type != YAML_MAPPING_NODE || only_keys(L, n, field, keys))
    return n->type != YAML_MAPPING_NODE ? bad(L, n, field, "%s", expected)
                                        : -1;
  const yaml_node_t *u = get(L, n, "ulps"), *r = get(L, n, "rtol"),
                    *a = get(L, n, "atol"), *e = get(L, n, "exact"),
                    *ne = get(L, n, "nan_equal");
  char sub[192];
  /* {exact: true} and {exact: true, nan_equal: true}: bit for bit, and
   * with nan_equal any NaN matches any NaN. */
  if (ne && (!text(ne) || (strcmp(text(ne), "true") != 0 &&
                           strcmp(text(ne), "false") != 0))) {
    snprintf(sub, sizeof sub, "%s.nan_equal", field);
    return bad(L, ne, sub, "expected true or false");
  }
  if (e) {
    snprintf(sub, sizeof sub, "%s.exact", field);
    if (!text(e) || strcmp(text(e), "true") != 0)
      return bad(L, e, sub, "expected true (leave exact out for ulps or "
                            "rtol/atol)");
    if (u || r || a)
      return bad(L, n, field, "give either exact or ulps or rtol/atol");
    cmp->kind = CUEMU_PARITY_EXACT;
    cmp->nan_equal = ne && strcmp(text(ne), "true") == 0;
    return 0;
  }
  if (ne)
    return bad(L, ne, field, "nan_equal goes with exact: {exact: true, "
                             "nan_equal: true} (under ulps and rtol/atol any "
                             "NaN already matches any NaN)");
  snprintf(sub, sizeof sub, "%s.%s", field, u ? "ulps" : "rtol");
  if (u) {
    double v;
    if (r || a)
      return bad(L, n, field, "give either exact or ulps or rtol/atol");
    if (want_whole(L, u, sub, 0, 1e18, &v))
      return -1;
    cmp->kind = CUEMU_PARITY_ULPS;
    cmp->ulps = (long long)v;
    return 0;
  }
  if (!r && !a)
    return bad(L, n, field, "%s", expected);
  /* A missing one takes NumPy's allclose default. */
  cmp->kind = CUEMU_PARITY_TOLERANCE;
  cmp->rtol = 1e-5;
  cmp->atol = 1e-8;
  if (r && want_number(L, r, sub, &cmp->rtol))
    return -1;
  snprintf(sub, sizeof sub, "%s.atol", field);
  if (a && want_number(L, a, sub, &cmp->atol))
    return -1;
  if (!(cmp->rtol >= 0 && cmp->atol >= 0 && isfinite(cmp->rtol) &&
        isfinite(cmp->atol)))
    return bad(L, n, field, "tolerances are finite and not negative");
  return 0;
}

static int load_arg(loader *L, const yaml_node_t *n, int index,
                    cuemu_parity_case *c) {
  static const char *const keys[] = {"name",  "type",  "value",
                                     "size",  "input", "output",
                                     "inout", "compare", "shape", NULL};
  char field[64];
  snprintf(field, sizeof field, "args[%d]", index);
  if (n->type != YAML_MAPPING_NODE)
    return bad(L, n, field, "expected a mapping with name and type");
  if (only_keys(L, n, field, keys))
    return -1;
  const char *name, *type;
  const yaml_node_t *nn = get(L, n, "name"), *tn = get(L, n, "type");
  if (!nn)
    return bad(L, n, field, "missing name");
  if (want_text(L, nn, field, &name))
    return -1;
  snprintf(field, sizeof field, "args[%d] (%s)", index, name);
  if (!tn)
    return bad(L, n, field, "missing type");
  if (want_text(L, tn, field, &type))
    return -1;
  const yaml_node_t *value = get(L, n, "value"), *size = get(L, n, "size"),
                    *in = get(L, n, "input"), *out = get(L, n, "output"),
                    *io = get(L, n, "inout"), *cmp = get(L, n, "compare"),
                    *shape = get(L, n, "shape");
  char elem[64];
  int pointer = cuemu__ptype_split(type, elem, sizeof elem) > 0;
  if (!pointer) {
    if (!value)
      return bad(L, n, field, "a scalar of type '%s' needs a value", type);
    if (size || in || out || io || cmp || shape)
      return bad(L, n, field, "a scalar takes only a value");
    if (cuemu_parity_case_add_scalar(c, name, type, "0"))
      return bad(L, n, field, "%s", cuemu_parity_last_message());
    cuemu__parg *a = &c->args[c->nargs - 1];
    cuemu__pvalue_free(&a->value);
    L->nodes = 0;
    if (to_value(L, value, &a->value, 0))
      return bad(L, value, field, "too deeply nested or too large (at most %d "
                                  "levels and %d items)", MAX_DEPTH, MAX_NODES);
    a->line = (int)n->start_mark.line + 1;
    return 0;
  }
  if (value)
    return bad(L, value, field, "an array (type '%s') takes a size and input, "
                                "output or inout, not a value", type);
  if (!size)
    return bad(L, n, field, "an array needs a size");
  if ((in != NULL) + (out != NULL) + (io != NULL) != 1)
    return bad(L, n, field, "an array is one of input, output or inout");
  const char *sz;
  if (want_text(L, size, field, &sz))
    return -1;
  cuemu_parity_generator gen, *g = NULL;
  double *values = NULL, fill = 0;
  cuemu_parity_array_kind kind = in ? CUEMU_PARITY_INPUT
                                 : out ? CUEMU_PARITY_OUTPUT : CUEMU_PARITY_INOUT;
  char sub[96];
  snprintf(sub, sizeof sub, "%s.%s", field, in ? "input" : out ? "output" : "inout");
  if (in || io) {
    if (load_generator(L, in ? in : io, sub, &gen, &values)) {
      free(values);
      return -1;
    }
    g = &gen;
  } else if (out->type == YAML_MAPPING_NODE) {
    static const char *const okeys[] = {"fill", NULL};
    const yaml_node_t *f = get(L, out, "fill");
    if (only_keys(L, out, sub, okeys) || (f && want_number(L, f, sub, &fill)))
      return -1;
  } else if (!text(out) || (strcmp(text(out), "true") != 0 &&
                            strcmp(text(out), "") != 0)) {
    return bad(L, out, sub, "expected {fill: V} or true");
  }
  if (in && cmp)
    return bad(L, cmp, field, "an input is not compared");
  const char *rows = NULL, *cols = NULL;
  if (shape) {
    snprintf(sub, sizeof sub, "%s.shape", field);
    if (in)
      return bad(L, shape, sub, "an input has no shape (only compared arrays "
                                "are drawn)");
    if (shape->type != YAML_SEQUENCE_NODE ||
        shape->data.sequence.items.top - shape->data.sequence.items.start != 2)
      return bad(L, shape, sub, "expected [rows, columns]");
    if (want_text(L, node(L, shape->data.sequence.items.start[0]), sub, &rows) ||
        want_text(L, node(L, shape->data.sequence.items.start[1]), sub, &cols))
      return -1;
  }
  cuemu_parity_compare compare = {CUEMU_PARITY_DEFAULT, 0, 0, 0, 0};
  snprintf(sub, sizeof sub, "%s.compare", field);
  if (cmp && load_compare(L, cmp, sub, &compare)) {
    free(values);
    return -1;
  }
  cuemu_status st =
      cuemu_parity_case_add_array(c, name, type, kind, sz, g, fill, &compare);
  free(values);
  if (!st && shape)
    st = cuemu_parity_case_set_shape(c, name, rows, cols);
  if (st)
    return bad(L, n, field, "%s", cuemu_parity_last_message());
  c->args[c->nargs - 1].line = (int)n->start_mark.line + 1;
  return 0;
}

/* Builds the case of one document. */
static int load_case(loader *L, const yaml_node_t *root, const char *stem,
                     int index, cuemu_parity_case **out) {
  static const char *const keys[] = {"name", "source", "kernel", "options",
                                     "host", "launch", "seed", "structs",
                                     "args", NULL};
  *out = NULL;
  L->case_name[0] = 0;
  if (root->type != YAML_MAPPING_NODE)
    return bad(L, root, "(case)", "a case is a mapping of fields");
  const char *name = stem;
  char fallback[200];
  const yaml_node_t *n = get(L, root, "name");
  if (n && want_text(L, n, "name", &name))
    return -1;
  if (!n && index > 0) {
    snprintf(fallback, sizeof fallback, "%s#%d", stem, index + 1);
    name = fallback;
  }
  snprintf(L->case_name, sizeof L->case_name, "%s", name);
  if (only_keys(L, root, "", keys))
    return -1;
  cuemu_parity_case *c;
  if (cuemu_parity_case_new(&c, name))
    return bad(L, root, "name", "%s", cuemu_parity_last_message());
  *out = c;
  free(c->file);
  c->file = strdup(L->path);
  c->line = (int)root->start_mark.line + 1;
  const char *src, *kernel;
  const yaml_node_t *sn = get(L, root, "source"), *kn = get(L, root, "kernel");
  if (!sn || !kn)
    return bad(L, root, sn ? "kernel" : "source", "missing");
  if (want_text(L, sn, "source", &src) || want_text(L, kn, "kernel", &kernel))
    return -1;
  char *path = relative(L, src);
  cuemu_status st = cuemu_parity_case_set_kernel(c, path, kernel);
  free(path);
  if (st)
    return bad(L, kn, "kernel", "%s", cuemu_parity_last_message());
  if ((n = get(L, root, "options"))) {
    if (n->type != YAML_SEQUENCE_NODE)
      return bad(L, n, "options", "expected a list such as [-DTILE=32]");
    for (yaml_node_item_t *i = n->data.sequence.items.start;
         i < n->data.sequence.items.top; ++i) {
      const char *o;
      if (want_text(L, node(L, *i), "options", &o))
        return -1;
      /* -I folders are relative to the case file too. */
      char *opt = NULL;
      if (strncmp(o, "-I", 2) == 0 && o[2] && o[2] != '/') {
        char *p = relative(L, o + 2);
        if (p && (opt = malloc(strlen(p) + 3)))
          sprintf(opt, "-I%s", p);
        free(p);
      }
      st = cuemu_parity_case_add_option(c, opt ? opt : o);
      free(opt);
      if (st)
        return bad(L, node(L, *i), "options", "%s", cuemu_parity_last_message());
    }
  }
  n = get(L, root, "host");
  if (!n)
    return bad(L, root, "host", "missing (the host implementation)");
  const char *hfile, *hfunc = NULL;
  if (n->type == YAML_MAPPING_NODE) {
    static const char *const hkeys[] = {"file", "function", NULL};
    if (only_keys(L, n, "host", hkeys))
      return -1;
    const yaml_node_t *f = get(L, n, "file"), *fn = get(L, n, "function");
    if (!f)
      return bad(L, n, "host.file", "missing");
    if (want_text(L, f, "host.file", &hfile) ||
        (fn && want_text(L, fn, "host.function", &hfunc)))
      return -1;
  } else if (want_text(L, n, "host", &hfile)) {
    return -1;
  }
  path = relative(L, hfile);
  st = cuemu_parity_case_set_host(c, path, hfunc);
  free(path);
  if (st)
    return bad(L, n, "host", "%s", cuemu_parity_last_message());
  if (load_launch(L, get(L, root, "launch"), c))
    return -1;
  if ((n = get(L, root, "seed"))) {
    double seed;
    if (want_whole(L, n, "seed", 0, 9007199254740992.0, &seed))
      return -1;
    cuemu_parity_case_set_seed(c, (uint64_t)seed);
  }
  if ((n = get(L, root, "structs")) && load_structs(L, n, c))
    return -1;
  n = get(L, root, "args");
  if (!n || n->type != YAML_SEQUENCE_NODE)
    return bad(L, n ? n : root, "args", "expected a list of arguments");
  int i = 0;
  for (yaml_node_item_t *it = n->data.sequence.items.start;
       it < n->data.sequence.items.top; ++it, ++i)
    if (load_arg(L, node(L, *it), i, c))
      return -1;
  return 0;
}

cuemu_status cuemu_parity_load(const char *path, cuemu_parity_case ***cases,
                               int *ncases) {
  *cases = NULL;
  *ncases = 0;
  FILE *f = fopen(path, "rb");
  if (!f)
    return cuemu__parity_fail(CUEMU_IO_ERROR, "%s: %s", path, strerror(errno));
  loader L;
  memset(&L, 0, sizeof L);
  L.path = path;
  char dir[4096] = "", stem[160];
  const char *slash = strrchr(path, '/');
  if (slash)
    snprintf(dir, sizeof dir, "%.*s/", (int)(slash - path), path);
  L.dir = dir;
  const char *base = slash ? slash + 1 : path;
  const char *suffix = strstr(base, ".parity.y");
  size_t len = suffix ? (size_t)(suffix - base) : strcspn(base, ".");
  snprintf(stem, sizeof stem, "%.*s", (int)len, base);

  yaml_parser_t parser;
  if (!yaml_parser_initialize(&parser)) {
    fclose(f);
    return cuemu__parity_fail(CUEMU_OUT_OF_MEMORY, "out of memory");
  }
  yaml_parser_set_input_file(&parser, f);
  cuemu_status st = CUEMU_SUCCESS;
  for (int index = 0;; ++index) {
    yaml_document_t doc;
    if (!yaml_parser_load(&parser, &doc)) {
      st = cuemu__parity_fail(
          CUEMU_CASE_INVALID, "%s:%lu:%lu: does not parse as YAML: %s%s%s", path,
          (unsigned long)parser.problem_mark.line + 1,
          (unsigned long)parser.problem_mark.column + 1,
          parser.problem ? parser.problem : "?",
          parser.context ? " " : "", parser.context ? parser.context : "");
      break;
    }
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (!root) { /* the end of the stream */
      yaml_document_delete(&doc);
      if (*ncases == 0)
        st = cuemu__parity_fail(CUEMU_CASE_INVALID, "%s: holds no case", path);
      break;
    }
    L.doc = &doc;
    cuemu_parity_case *c = NULL;
    int rc = load_case(&L, root, stem, index, &c);
    yaml_document_delete(&doc);
    if (rc) {
      cuemu_parity_case_free(c);
      st = cuemu__parity_fail(CUEMU_CASE_INVALID, "%s", L.err);
      break;
    }
    cuemu_parity_case **more = realloc(*cases, (size_t)(*ncases + 1) * sizeof *more);
    if (!more) {
      cuemu_parity_case_free(c);
      st = cuemu__parity_fail(CUEMU_OUT_OF_MEMORY, "out of memory");
      break;
    }
    *cases = more;
    more[(*ncases)++] = c;
  }
  /* Two cases of one name could not be told apart in a report or by
   * --case. */
  cuemu__ptext dup = {0};
  if (!st && cuemu__parity_duplicates(*cases, *ncases, &dup))
    st = cuemu__parity_fail(CUEMU_CASE_INVALID, "%s", dup.s);
  free(dup.s);
  yaml_parser_delete(&parser);
  fclose(f);
  if (st) {
    for (int i = 0; i < *ncases; ++i)
      cuemu_parity_case_free((*cases)[i]);
    free(*cases);
    *cases = NULL;
    *ncases = 0;
  }
  return st;
}
