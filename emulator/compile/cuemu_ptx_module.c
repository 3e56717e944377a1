/*
 * cuemu_ptx_module.c: NVIDIA PTX text (a module as `nvcc -ptx` or NVIDIA's
 * NVRTC writes it, embedded in a program or read from a .ptx file) turned
 * into CUDA C++ that cuemu compiles as a module, so that the driver API's
 * loads (cuModuleLoad, cuModuleLoadData, cuLinkAddData) run it, as the
 * driver's JIT compiles PTX on a GPU.
 *
 * Each `.entry` becomes an `extern "C"` kernel of the same name whose
 * parameters have the `.param`s' names, sizes and alignments, and whose body
 * is one inline-PTX statement holding the entry's body, which cuemu-cc's
 * inline-PTX translator (cuemu_ptx_translate.c) turns into C++ as it does
 * any asm statement. The names the body gives to memory become operands of
 * that statement: a parameter's address (`ld.param [k_param_0]`), a
 * `.global` or `.const` variable's address, a `.shared` variable's
 * shared-window address (`mov.u32 %r1, smem`) and a `.local` array's
 * address. Module variables become `extern "C"` __device__, __constant__
 * or __shared__ variables of the same names (cuModuleGetGlobal finds them),
 * of integer types of the PTX types' sizes, with their initializers (PTX
 * writes floating-point ones as bits: `0f3F800000`); the entry's own
 * `.shared` and `.local` declarations become its kernel's variables.
 * `#line` directives give the PTX's line numbers, so that the inline
 * translator's errors and cuemu's reports name its lines.
 *
 * A `.func` becomes `void name(void **cuemu_ptx_slots)`, whose slots hold
 * the addresses of its return and parameters; a body's `.param` variables
 * (a call sequence's arguments and result) become the function's variables,
 * and `call` reaches a function through an operand holding its address
 * (cuemu_ptx_translate.c's call_instruction()), and so do the functions
 * of CUDA's ABI, bound to libcuemu's: `vprintf` to cuemu_ptx_vprintf(),
 * `malloc`, `free` and `__assertfail` to cuemu_ptx_abi.c's.
 *
 * Not translated (an error naming the line): calls of other functions
 * declared `.extern`, indirect calls, `.reg`
 * parameters, initializers holding addresses (`generic(x)`), texture and
 * surface references.
 */
#include "cuemu_ptx.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuemu_rewriter.h"

/* ---- Reading the text ----------------------------------------------------- */

typedef struct reader {
  const char *s;
  size_t n, k; /* the text, its length, the position */
  int line;    /* the line at k, 1-based */
  cuemu_ptx_result *out;
} reader;

static int word_char(char c) {
  return isalnum((unsigned char)c) || c == '_' || c == '$' || c == '%' ||
         c == '.';
}

/* Skips blanks and comments; stops at a newline when `lines` is set. */
static void skip_space(reader *r, int lines) {
  while (r->k < r->n) {
    char c = r->s[r->k];
    if (c == '\n') {
      if (lines) return;
      r->line++;
      r->k++;
    } else if (isspace((unsigned char)c)) {
      r->k++;
    } else if (c == '/' && r->k + 1 < r->n && r->s[r->k + 1] == '/') {
      while (r->k < r->n && r->s[r->k] != '\n') r->k++;
    } else if (c == '/' && r->k + 1 < r->n && r->s[r->k + 1] == '*') {
      r->k += 2;
      while (r->k + 1 < r->n && !(r->s[r->k] == '*' && r->s[r->k + 1] == '/')) {
        if (r->s[r->k] == '\n') r->line++;
        r->k++;
      }
      r->k = r->k + 2 <= r->n ? r->k + 2 : r->n;
    } else {
      return;
    }
  }
}

/* The next token: a word (identifiers, directives, registers, numbers), a
 * string or one punctuation character; its length, 0 at the end. */
static size_t token(reader *r) {
  skip_space(r, 0);
  if (r->k >= r->n) return 0;
  size_t e = r->k;
  if (r->s[e] == '"') {
    for (e++; e < r->n && r->s[e] != '"' && r->s[e] != '\n'; e++)
      if (r->s[e] == '\\') e++;
    return e < r->n ? e + 1 - r->k : e - r->k;
  }
  if (!word_char(r->s[e])) return 1;
  /* `::` belongs to the word (`.shared::cta`); a label's `:` does not. */
  while (e < r->n && (word_char(r->s[e]) ||
                      (r->s[e] == ':' && e + 2 < r->n && r->s[e + 1] == ':' &&
                       word_char(r->s[e + 2]))))
    e += r->s[e] == ':' ? 2 : 1;
  return e - r->k;
}

static int is(const reader *r, size_t len, const char *w) {
  return len == strlen(w) && !strncmp(r->s + r->k, w, len);
}

static cuemu_status fail(reader *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static cuemu_status fail(reader *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->out->message, sizeof r->out->message, fmt, ap);
  va_end(ap);
  r->out->error_line = r->line;
  return CUEMU_COMPILE;
}

/* Skips to the end of the line (directives without a `;`). */
static void skip_line(reader *r) {
  while (r->k < r->n && r->s[r->k] != '\n') r->k++;
}

/* Skips to just past the next `;` at this level. */
static void skip_statement(reader *r) {
  size_t len;
  while ((len = token(r)) != 0) {
    int end = is(r, len, ";");
    r->k += len;
    if (end) return;
  }
}

static void addf(cuemu_strbuf *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void addf(cuemu_strbuf *sb, const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n < 0 || (size_t)n >= sizeof buf)
    sb->oom = 1;
  else
    cuemu__sb_add(sb, buf, (size_t)n);
}

/* ---- Names that become operands ------------------------------------------- */

typedef struct symbol {
  char name[256];
  char bind[320]; /* the C++ expression of its operand's value */
  int operand;    /* the body's operand number, or -1 while unused */
} symbol;

/* How a declaration's name is bound: by its address (an array's name is
 * one), a shared variable's in the shared window. */
enum { BIND_ADDRESS, BIND_SHARED };

typedef struct symbols {
  symbol *v;
  size_t count, capacity;
} symbols;

static symbol *find_symbol(symbols *t, const char *s, size_t len) {
  for (size_t i = 0; i < t->count; i++)
    if (strlen(t->v[i].name) == len && !strncmp(t->v[i].name, s, len))
      return &t->v[i];
  return NULL;
}

/* A name of the module or the body, whose operand's value is the C++
 * expression `bind`. */
static cuemu_status add_symbol(reader *r, symbols *t, const char *s,
                               size_t len, const char *bind) {
  if (len >= sizeof t->v->name || strlen(bind) >= sizeof t->v->bind)
    return fail(r, "PTX module: the name %.40s... is too long", s);
  if (t->count == t->capacity) {
    size_t cap = t->capacity ? 2 * t->capacity : 16;
    symbol *v = realloc(t->v, cap * sizeof *v);
    if (!v) return CUEMU_OUT_OF_MEMORY;
    t->v = v;
    t->capacity = cap;
  }
  symbol *y = &t->v[t->count++];
  memcpy(y->name, s, len);
  y->name[len] = '\0';
  snprintf(y->bind, sizeof y->bind, "%s", bind);
  y->operand = -1;
  return CUEMU_SUCCESS;
}

/* ---- Declarations --------------------------------------------------------- */

/* The C++ type that holds a PTX type of a variable: an integer of its
 * size (floating-point variables are initialised with their bits). */
static const char *storage_type(const reader *r, size_t len,
                                unsigned *bytes) {
  static const struct {
    const char *ptx, *cxx;
    unsigned bytes;
  } types[] = {{".b8", "unsigned char", 1},       {".u8", "unsigned char", 1},
               {".s8", "signed char", 1},         {".b16", "unsigned short", 2},
               {".u16", "unsigned short", 2},     {".s16", "short", 2},
               {".f16", "unsigned short", 2},     {".bf16", "unsigned short", 2},
               {".b32", "unsigned int", 4},       {".u32", "unsigned int", 4},
               {".s32", "int", 4},                {".f32", "unsigned int", 4},
               {".b64", "unsigned long long", 8}, {".u64", "unsigned long long", 8},
               {".s64", "long long", 8},          {".f64", "unsigned long long", 8}};
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
    if (is(r, len, types[i].ptx)) {
      *bytes = types[i].bytes;
      return types[i].cxx;
    }
  return NULL;
}

/* A declaration's parts: [.align N] [.v2|.v4] .type name[dims] [= init];
 * from the position after its state space. */
typedef struct declaration {
  unsigned long align;
  int vector; /* 1, 2 or 4 */
  const char *type;
  unsigned type_bytes;
  size_t name, name_len; /* offsets in the text */
  cuemu_strbuf dims;     /* `[4][8]`, or empty; `[]` for an extern array */
  cuemu_strbuf init;     /* ` = {...}` in C++, or empty */
} declaration;

static void declaration_free(declaration *d) {
  free(d->dims.data);
  free(d->init.data);
}

/* One value of an initializer: an integer as it is, a floating-point
 * constant's bits as a hexadecimal integer. */
static cuemu_status init_value(reader *r, size_t len, cuemu_strbuf *out) {
  const char *w = r->s + r->k;
  if (len >= 3 && w[0] == '0' && (w[1] == 'f' || w[1] == 'F' || w[1] == 'd' ||
                                  w[1] == 'D')) {
    cuemu__sb_str(out, "0x");
    cuemu__sb_add(out, w + 2, len - 2);
    cuemu__sb_str(out, w[1] == 'd' || w[1] == 'D' ? "ull" : "u");
    return CUEMU_SUCCESS;
  }
  for (size_t i = 0; i < len; i++)
    if (!isxdigit((unsigned char)w[i]) && w[i] != 'x' && w[i] != 'X' &&
        w[i] != 'U' && w[i] != 'u')
      return fail(r,
                  "PTX module: an initializer value %.*s that is not an "
                  "integer or a floating-point constant's bits (addresses, "
                  "generic(), are not translated)",
                  (int)len, w);
  cuemu__sb_add(out, w, len);
  return CUEMU_SUCCESS;
}

static cuemu_status read_declaration(reader *r, declaration *d) {
  size_t len;
  memset(d, 0, sizeof *d);
  d->vector = 1;
  /* The attributes, in any order (`.param .u64 .ptr .global .align 4 p`). */
  while ((len = token(r)) != 0 && r->s[r->k] == '.') {
    if (is(r, len, ".align")) {
      r->k += len;
      len = token(r);
      d->align = strtoul(r->s + r->k, NULL, 0);
    } else if (is(r, len, ".v2") || is(r, len, ".v4")) {
      d->vector = r->s[r->k + 2] - '0';
    } else if (!is(r, len, ".ptr") && !is(r, len, ".global") &&
               !is(r, len, ".shared") && !is(r, len, ".const") &&
               !is(r, len, ".local")) {
      /* a .param's pointer attributes are dropped; this is the type */
      if (d->type || !(d->type = storage_type(r, len, &d->type_bytes)))
        return fail(r, "PTX module: unsupported type %.*s in a declaration",
                    (int)len, r->s + r->k);
    }
    r->k += len;
  }
  if (!d->type)
    return fail(r, "PTX module: a declaration without a type");
  if (!len || !word_char(r->s[r->k]))
    return fail(r, "PTX module: a declaration without a name");
  d->name = r->k;
  d->name_len = len;
  r->k += len;
  while ((len = token(r)) != 0 && is(r, len, "[")) {
    size_t open = r->k;
    while (r->k < r->n && r->s[r->k] != ']' && r->s[r->k] != '\n') r->k++;
    if (r->k >= r->n || r->s[r->k] != ']')
      return fail(r, "PTX module: unterminated [ in a declaration");
    r->k++;
    cuemu__sb_add(&d->dims, r->s + open, r->k - open);
  }
  if (d->vector > 1) addf(&d->dims, "[%d]", d->vector);
  if (is(r, len, "=")) {
    r->k += len;
    cuemu__sb_str(&d->init, " = ");
    while ((len = token(r)) != 0 && !is(r, len, ";")) {
      cuemu_status st = CUEMU_SUCCESS;
      if (is(r, len, "{") || is(r, len, "}") || is(r, len, ","))
        cuemu__sb_add(&d->init, r->s + r->k, len);
      else if (is(r, len, "-"))
        cuemu__sb_str(&d->init, "-");
      else
        st = init_value(r, len, &d->init);
      if (st != CUEMU_SUCCESS) return st;
      r->k += len;
    }
  }
  return CUEMU_SUCCESS;
}

/* The bytes of the declared object: its type's times its dimensions. */
static unsigned long declared_bytes(const declaration *d) {
  unsigned long bytes = d->type_bytes;
  for (const char *p = d->dims.data; p && (p = strchr(p, '[')) != NULL; p++)
    bytes *= strtoul(p + 1, NULL, 0);
  return bytes;
}

/* `__align__(N) TYPE NAME DIMS INIT` */
static void put_declaration(cuemu_strbuf *out, const reader *r,
                            const declaration *d) {
  if (d->align) addf(out, "__align__(%lu) ", d->align);
  addf(out, "%s %.*s", d->type, (int)d->name_len, r->s + d->name);
  cuemu__sb_add(out, d->dims.data ? d->dims.data : "", d->dims.length);
  cuemu__sb_add(out, d->init.data ? d->init.data : "", d->init.length);
}

/* ---- Entries -------------------------------------------------------------- */

/* The template of the entry's statement, as a C string literal per PTX
 * line. */
static void put_template_char(cuemu_strbuf *t, char c) {
  if (c == '"' || c == '\\') cuemu__sb_add(t, "\\", 1);
  if (c == '\n')
    cuemu__sb_str(t, "\\n\"\n\"");
  else if (c == '\t')
    cuemu__sb_str(t, " ");
  else
    cuemu__sb_add(t, &c, 1);
}

/* An operand for the name: its number, the binding added to `binds`. */
static int operand_of(symbol *y, int *count, cuemu_strbuf *binds) {
  if (y->operand >= 0) return y->operand;
  y->operand = (*count)++;
  cuemu__sb_str(binds, y->operand ? ", " : "");
  addf(binds, "\"l\"((unsigned long long)(%s))", y->bind);
  return y->operand;
}

/* Adds the declared name, bound by its address (`how`). */
static cuemu_status declared_symbol(reader *r, symbols *syms,
                                    const declaration *d, int how) {
  char bind[320];
  snprintf(bind, sizeof bind, how == BIND_SHARED
                                  ? "__cvta_generic_to_shared(%s%.*s)"
                                  : "%s%.*s",
           d->dims.length ? "" : "&", (int)d->name_len, r->s + d->name);
  return add_symbol(r, syms, r->s + d->name, d->name_len, bind);
}

/* The parameters `( .param .u64 k_param_0, ... )`: an entry's are its
 * kernel's (`params` gets them; a `.b8` array parameter, a structure passed
 * by value, is a structure of its size and alignment, in `types`); a
 * function's (params NULL) are the addresses in its slots, after the
 * return's (cuemu_ptx_translate.c's call). */
static cuemu_status parameters(reader *r, symbols *syms, cuemu_strbuf *types,
                               cuemu_strbuf *params, int first_slot) {
  size_t len = token(r);
  if (!is(r, len, "(")) return CUEMU_SUCCESS; /* no parameters */
  r->k += len;
  int index = 0;
  while ((len = token(r)) != 0 && !is(r, len, ")")) {
    if (is(r, len, ",")) {
      r->k += len;
      continue;
    }
    if (!is(r, len, ".param"))
      return fail(r, "PTX module: expected .param in a parameter list (.reg "
                     "parameters are not translated)");
    r->k += len;
    declaration d;
    cuemu_status st = read_declaration(r, &d);
    if (st == CUEMU_SUCCESS && !params) {
      char bind[64];
      snprintf(bind, sizeof bind, "cuemu_ptx_slots[%d]", first_slot + index);
      st = add_symbol(r, syms, r->s + d.name, d.name_len, bind);
    } else if (st == CUEMU_SUCCESS) {
      char bind[300]; /* a kernel parameter, a structure's too */
      snprintf(bind, sizeof bind, "&%.*s", (int)d.name_len, r->s + d.name);
      st = add_symbol(r, syms, r->s + d.name, d.name_len, bind);
    }
    if (st == CUEMU_SUCCESS && params) {
      cuemu__sb_str(params, index ? ", " : "");
      if (d.dims.length) {
        addf(types, "struct __align__(%lu) cuemu_ptx_param_%.*s { %s b",
             d.align ? d.align : 1, (int)d.name_len, r->s + d.name, d.type);
        cuemu__sb_add(types, d.dims.data, d.dims.length);
        cuemu__sb_str(types, "; };\n");
        addf(params, "cuemu_ptx_param_%.*s %.*s", (int)d.name_len,
             r->s + d.name, (int)d.name_len, r->s + d.name);
      } else {
        addf(params, "%s %.*s", d.type, (int)d.name_len, r->s + d.name);
      }
    }
    declaration_free(&d);
    if (st != CUEMU_SUCCESS) return st;
    index++;
  }
  if (!len) return fail(r, "PTX module: unterminated parameter list");
  r->k += len;
  return CUEMU_SUCCESS;
}

/* Performance directives between the parameters and the body (or the `;`
 * of a declaration); .maxntid and .minnctapersm give the kernel's
 * __launch_bounds__. */
static void entry_directives(reader *r, cuemu_strbuf *bounds) {
  unsigned long threads = 0, blocks = 0;
  size_t len;
  while ((len = token(r)) != 0 && !is(r, len, "{") && !is(r, len, ";")) {
    int maxntid = is(r, len, ".maxntid") || is(r, len, ".reqntid");
    int minctas = is(r, len, ".minnctapersm");
    r->k += len;
    if (!maxntid && !minctas) continue;
    unsigned long product = 1;
    while ((len = token(r)) != 0 && (isdigit((unsigned char)r->s[r->k]) ||
                                     is(r, len, ","))) {
      if (!is(r, len, ",")) product *= strtoul(r->s + r->k, NULL, 0);
      r->k += len;
    }
    if (maxntid)
      threads = product;
    else
      blocks = product;
  }
  if (threads && blocks)
    addf(bounds, "__launch_bounds__(%lu, %lu) ", threads, blocks);
  else if (threads)
    addf(bounds, "__launch_bounds__(%lu) ", threads);
}

/* Non-zero when the token at r->k starts a statement: the last token
 * before it (`last`) ends one. */
static int starts_statement(char last) {
  return last == ';' || last == '{' || last == '}' || last == ':' ||
         last == '\0';
}

/* The body of an entry or a function, from its `{` to the matching `}`: its
 * own variables go to `vars`, the statement's template to `tmpl`, its
 * operands to `binds`. */
static cuemu_status routine_body(reader *r, symbols *syms, size_t module_syms,
                               cuemu_strbuf *vars, cuemu_strbuf *tmpl,
                               cuemu_strbuf *binds) {
  int depth = 0, operands = 0;
  char last = '\0';
  size_t len;
  for (;;) {
    /* The blanks and comments before the token, newlines kept. */
    size_t from = r->k;
    int newlines = 0;
    skip_space(r, 0);
    for (size_t i = from; i < r->k; i++)
      if (r->s[i] == '\n') {
        put_template_char(tmpl, '\n');
        newlines++;
      }
    if (r->k > from && !newlines) put_template_char(tmpl, ' ');
    len = token(r);
    if (!len) return fail(r, "PTX module: unterminated entry body");
    const char *w = r->s + r->k;
    if (is(r, len, "{")) depth++;
    if (is(r, len, "}") && --depth == 0) {
      put_template_char(tmpl, '}');
      r->k += len;
      break;
    }
    if (starts_statement(last) && (is(r, len, ".loc") || is(r, len, ".file"))) {
      skip_line(r);
      continue;
    }
    if (starts_statement(last) && is(r, len, ".pragma")) {
      skip_statement(r); /* "nounroll": nothing to do here */
      last = ';';
      continue;
    }
    if (starts_statement(last) &&
        (is(r, len, ".shared") || is(r, len, ".local") || is(r, len, ".param"))) {
      /* The body's variables are the function's: .param ones hold a
       * call's arguments and result (each name one object of 64 bytes, or
       * more where the first declaration needs it, as a later call's
       * declaration of the name may be larger). */
      char space = w[1];
      r->k += len;
      declaration d;
      cuemu_status st = read_declaration(r, &d);
      symbol *old = st == CUEMU_SUCCESS && space == 'p'
                        ? find_symbol(syms, r->s + d.name, d.name_len)
                        : NULL;
      if (st == CUEMU_SUCCESS && space == 'p') {
        unsigned long bytes = declared_bytes(&d);
        if (old && bytes > 64)
          st = fail(r, "PTX module: a .param of more than 64 bytes declared "
                       "again");
        free(d.dims.data);
        memset(&d.dims, 0, sizeof d.dims);
        addf(&d.dims, "[%lu]", bytes > 64 ? bytes : 64);
        d.type = "unsigned char";
        d.align = 16;
      }
      if (st == CUEMU_SUCCESS && !old)
        st = declared_symbol(r, syms, &d,
                             space == 's' ? BIND_SHARED : BIND_ADDRESS);
      if (st == CUEMU_SUCCESS && !old) {
        cuemu__sb_str(vars, space == 's' ? "  __shared__ " : "  ");
        put_declaration(vars, r, &d);
        cuemu__sb_str(vars, ";\n");
      }
      declaration_free(&d);
      if (st != CUEMU_SUCCESS) return st;
      skip_statement(r);
      last = ';';
      continue;
    }
    symbol *y = word_char(w[0]) ? find_symbol(syms, w, len) : NULL;
    if (y) {
      addf(tmpl, "%%%d", operand_of(y, &operands, binds));
    } else {
      for (size_t i = 0; i < len; i++) {
        if (w[i] == '%') cuemu__sb_add(tmpl, "%", 1);
        put_template_char(tmpl, w[i]);
      }
    }
    last = len == 1 ? w[0] : 'w';
    r->k += len;
  }
  /* The entry's own names end with it. */
  syms->count = module_syms;
  for (size_t i = 0; i < syms->count; i++) syms->v[i].operand = -1;
  return CUEMU_SUCCESS;
}

/* Translates the entry's statement once here, so that what the inline
 * translator refuses (an instruction it lacks) fails the load, naming the
 * PTX's line, as ptxas fails the driver's JIT, where a module's unit
 * would compile it into code that ends the launch running it. */
static cuemu_status check_statement(reader *r, int body_line,
                                    const cuemu_strbuf *tmpl,
                                    const cuemu_strbuf *binds) {
  cuemu_strbuf stmt = {0};
  cuemu__sb_str(&stmt, "asm volatile(\"");
  cuemu__sb_add(&stmt, tmpl->data ? tmpl->data : "", tmpl->length);
  cuemu__sb_str(&stmt, "\" : : ");
  cuemu__sb_add(&stmt, binds->data ? binds->data : "", binds->length);
  cuemu__sb_str(&stmt, " : \"memory\")");
  if (stmt.oom) {
    free(stmt.data);
    return CUEMU_OUT_OF_MEMORY;
  }
  cuemu_ptx_result t;
  cuemu_status st = cuemu__ptx_translate(stmt.data, stmt.length, 0, &t);
  free(stmt.data);
  if (st == CUEMU_SUCCESS) free(t.code);
  if (st == CUEMU_COMPILE) {
    r->line = body_line + t.error_line - 1;
    return fail(r, "%s", t.message);
  }
  return st;
}

/* An `.entry` (is_entry) or a `.func`, from its name (after a `.func`'s
 * return parameter, which `has_return` says it has): a kernel of the same
 * name, or a function `void name(void **cuemu_ptx_slots)` whose slots hold
 * the addresses of its return and parameters (a call's, see
 * cuemu_ptx_translate.c). A `.func` without a body is declared; a function
 * is declared before any body that calls it, as PTX requires. */
static cuemu_status routine(reader *r, symbols *syms, cuemu_strbuf *out,
                            int is_entry, const char *return_name) {
  int has_return = return_name && *return_name;
  size_t len = token(r);
  if (!len || !word_char(r->s[r->k]))
    return fail(r, "PTX module: an .entry or .func without a name");
  size_t name = r->k, name_len = len;
  int line = r->line;
  r->k += len;
  cuemu_status st = CUEMU_SUCCESS;
  if (!is_entry && !find_symbol(syms, r->s + name, name_len)) {
    char bind[300];
    snprintf(bind, sizeof bind, "&%.*s", (int)name_len, r->s + name);
    st = add_symbol(r, syms, r->s + name, name_len, bind);
    addf(out, "#line %d\n__device__ void %.*s(void **cuemu_ptx_slots);\n",
         line, (int)name_len, r->s + name);
  }
  size_t module_syms = syms->count;
  cuemu_strbuf types = {0}, params = {0}, bounds = {0}, vars = {0},
               tmpl = {0}, binds = {0};
  if (st == CUEMU_SUCCESS && has_return)
    st = add_symbol(r, syms, return_name, strlen(return_name),
                    "cuemu_ptx_slots[0]");
  if (st == CUEMU_SUCCESS)
    st = parameters(r, syms, &types, is_entry ? &params : NULL, 1);
  if (st == CUEMU_SUCCESS) {
    entry_directives(r, &bounds);
    len = token(r);
    if (!is_entry && is(r, len, ";")) { /* a declaration */
      r->k += len;
      syms->count = module_syms;
      free(types.data);
      free(params.data);
      free(bounds.data);
      return CUEMU_SUCCESS;
    }
    if (!is(r, len, "{"))
      st = fail(r, "PTX module: an .entry or .func without a body");
  }
  int body_line = r->line;
  if (st == CUEMU_SUCCESS)
    st = routine_body(r, syms, module_syms, &vars, &tmpl, &binds);
  if (st == CUEMU_SUCCESS)
    st = check_statement(r, body_line, &tmpl, &binds);
  if (st == CUEMU_SUCCESS) {
    cuemu__sb_add(out, types.data ? types.data : "", types.length);
    if (is_entry)
      addf(out, "#line %d\n__global__ void %s%.*s(", line,
           bounds.data ? bounds.data : "", (int)name_len, r->s + name);
    else
      addf(out, "#line %d\n__device__ void %.*s(void **cuemu_ptx_slots", line,
           (int)name_len, r->s + name);
    cuemu__sb_add(out, params.data ? params.data : "", params.length);
    cuemu__sb_str(out, ") {\n");
    cuemu__sb_add(out, vars.data ? vars.data : "", vars.length);
    addf(out, "#line %d\n  asm volatile(\"", body_line);
    cuemu__sb_add(out, tmpl.data ? tmpl.data : "", tmpl.length);
    cuemu__sb_str(out, "\" : : ");
    cuemu__sb_add(out, binds.data ? binds.data : "", binds.length);
    cuemu__sb_str(out, " : \"memory\");\n}\n");
  }
  free(types.data);
  free(params.data);
  free(bounds.data);
  free(vars.data);
  free(tmpl.data);
  free(binds.data);
  if (st == CUEMU_SUCCESS && (out->oom || tmpl.oom || binds.oom))
    st = CUEMU_OUT_OF_MEMORY;
  return st;
}

/* A `.func`'s return parameter, `(.param .b32 func_retval0)`: its name in
 * `name` (empty without one), which routine() binds to slot 0. */
static cuemu_status func_return(reader *r, char *name, size_t cap) {
  size_t len = token(r);
  name[0] = '\0';
  if (!is(r, len, "(")) return CUEMU_SUCCESS;
  /* `name(` is the function's name and parameters; `(.param` a return. */
  size_t at = r->k;
  int line = r->line;
  r->k += len;
  len = token(r);
  if (!is(r, len, ".param")) {
    r->k = at;
    r->line = line;
    return CUEMU_SUCCESS;
  }
  r->k += len;
  declaration d;
  cuemu_status st = read_declaration(r, &d);
  if (st == CUEMU_SUCCESS && d.name_len >= cap)
    st = fail(r, "PTX module: a function's return name is too long");
  if (st == CUEMU_SUCCESS) {
    memcpy(name, r->s + d.name, d.name_len);
    name[d.name_len] = '\0';
  }
  declaration_free(&d);
  len = token(r);
  if (st == CUEMU_SUCCESS && !is(r, len, ")"))
    st = fail(r, "PTX module: expected ) after a function's return");
  r->k += len;
  return st;
}

/* ---- The module ----------------------------------------------------------- */

/* A module variable `.global`, `.const` or `.shared` (`space`), `.extern`
 * when `is_extern`. */
static cuemu_status variable(reader *r, symbols *syms, cuemu_strbuf *out,
                             char space, int is_extern) {
  declaration d;
  int line = r->line;
  cuemu_status st = read_declaration(r, &d);
  if (st == CUEMU_SUCCESS)
    st = declared_symbol(r, syms, &d, space == 's' ? BIND_SHARED : BIND_ADDRESS);
  if (st == CUEMU_SUCCESS) {
    addf(out, "#line %d\n%s%s", line, is_extern ? "extern " : "",
         space == 's' ? "__shared__ " : space == 'c' ? "__constant__ "
                                                     : "__device__ ");
    put_declaration(out, r, &d);
    cuemu__sb_str(out, ";\n");
    skip_statement(r);
  }
  declaration_free(&d);
  return st;
}

int cuemu__ptx_module_is(const char *text, size_t length) {
  cuemu_ptx_result ignored;
  reader r = {text, length, 0, 1, &ignored};
  size_t len = token(&r);
  return is(&r, len, ".version");
}

cuemu_status cuemu__ptx_module_source(const char *text, size_t length,
                                      cuemu_ptx_result *out) {
  memset(out, 0, sizeof *out);
  reader r = {text, length, 0, 1, out};
  symbols syms = {0};
  cuemu_strbuf src = {0};
  cuemu_status st = CUEMU_SUCCESS;
  cuemu__sb_str(&src, "// NVIDIA PTX translated by cuemu (cuemu_ptx_module.c)\n"
                      "extern \"C\" {\n");

  size_t len;
  while (st == CUEMU_SUCCESS && (len = token(&r)) != 0) {
    int is_extern = 0;
    if (is(&r, len, ".version") || is(&r, len, ".target") ||
        is(&r, len, ".address_size") || is(&r, len, ".file")) {
      skip_line(&r);
      continue;
    }
    if (is(&r, len, ".pragma")) {
      skip_statement(&r);
      continue;
    }
    if (is(&r, len, ".section")) {
      /* Debug sections (-G): `.section .debug_info { ... }`. */
      while ((len = token(&r)) != 0 && !is(&r, len, "{")) r.k += len;
      int depth = 0;
      while ((len = token(&r)) != 0) {
        depth += is(&r, len, "{") - is(&r, len, "}");
        r.k += len;
        if (depth == 0) break;
      }
      continue;
    }
    /* Linkage: .visible, .extern, .weak, .common. */
    while (is(&r, len, ".visible") || is(&r, len, ".extern") ||
           is(&r, len, ".weak") || is(&r, len, ".common")) {
      is_extern |= is(&r, len, ".extern");
      r.k += len;
      len = token(&r);
    }
    if (is(&r, len, ".entry")) {
      r.k += len;
      st = routine(&r, &syms, &src, 1, NULL);
    } else if (is(&r, len, ".func")) {
      char return_name[256];
      r.k += len;
      st = func_return(&r, return_name, sizeof return_name);
      len = st == CUEMU_SUCCESS ? token(&r) : 0;
      if (st == CUEMU_SUCCESS && is_extern) {
        /* A function of CUDA's ABI that cuemu has (vprintf, a kernel's
         * printf; malloc, free; __assertfail, a failed assert), bound to
         * it; a call of another is refused there. */
        static const char *const abi[][2] = {
            {"vprintf", "&cuemu_ptx_vprintf"},
            {"malloc", "&cuemu_ptx_malloc"},
            {"free", "&cuemu_ptx_free"},
            {"__assertfail", "&cuemu_ptx_assertfail"},
        };
        for (size_t a = 0; a < sizeof abi / sizeof abi[0]; a++)
          if (is(&r, len, abi[a][0]) && !find_symbol(&syms, r.s + r.k, len))
            st = add_symbol(&r, &syms, r.s + r.k, len, abi[a][1]);
        skip_statement(&r);
      } else if (st == CUEMU_SUCCESS) {
        st = routine(&r, &syms, &src, 0, return_name);
      }
    } else if (is(&r, len, ".global") || is(&r, len, ".const") ||
               is(&r, len, ".shared")) {
      char space = r.s[r.k + 1];
      r.k += len;
      st = variable(&r, &syms, &src, space, is_extern);
    } else if (is(&r, len, ".tex") || is(&r, len, ".surf") ||
               is(&r, len, ".texref") || is(&r, len, ".surfref") ||
               is(&r, len, ".samplerref")) {
      st = fail(&r, "PTX module: texture and surface references are not "
                    "translated (CUDA 12 removed them)");
    } else {
      st = fail(&r, "PTX module: unexpected %.*s at module scope",
                (int)(len < 40 ? len : 40), r.s + r.k);
    }
  }
  cuemu__sb_str(&src, "}\n");
  free(syms.v);
  if (st == CUEMU_SUCCESS && src.oom) st = CUEMU_OUT_OF_MEMORY;
  if (st != CUEMU_SUCCESS) {
    free(src.data);
    return st;
  }
  out->is_ptx = 1;
  out->code = src.data;
  out->length = src.length;
  return CUEMU_SUCCESS;
}
