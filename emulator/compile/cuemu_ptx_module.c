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
 * An indirect call (a device function pointer, a virtual function) goes
 * through the register holding such a function's address; its
 * `.callprototype` or `.calltargets` label is dropped. Initializers may
 * hold addresses (names of variables and functions, `generic(x)`, offsets,
 * the mask operator: init_expression(), packed_bytes()); a function's
 * `.reg` parameters and return are registers of its body, moved from and
 * to its slots (reg_param_moves()).
 *
 * Not translated (an error naming the line): calls of other functions
 * declared `.extern`, texture and surface references.
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

/* Texture and surface references (`.global .texref t;`, `.tex .u32 t;`)
 * are refused: CUDA 12 removed them from CUDA C++ (nvcc refuses
 * `texture<>`), so only PTX of older toolkits holds them, and they are
 * bound through the deprecated cuTexRef* calls, whose references no
 * kernel of cuemu's reads (cuemu_driver_texref_api.h). */
static cuemu_status texture_reference(reader *r) {
  return fail(r, "PTX module: texture and surface references are not "
                 "translated (CUDA 12 removed them)");
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
  cuemu_strbuf type_def; /* the definition of a structure `type` names */
  char *type_name;       /* `type` when the declaration owns it */
} declaration;

static void declaration_free(declaration *d) {
  free(d->dims.data);
  free(d->init.data);
  free(d->type_def.data);
  free(d->type_name);
}

/* One value of an initializer, as offsets in its C++ text: the whole
 * value's, and where it is one mask operator's byte (`shift` 0, 8, ... 56,
 * or -1), the masked expression's. */
typedef struct init_item {
  size_t from, to, inner_from, inner_to;
  int shift;
} init_item;

/* One number of an initializer: an integer as it is, a floating-point
 * constant's bits as a hexadecimal integer. */
static cuemu_status init_number(reader *r, size_t len, cuemu_strbuf *out) {
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
                  "PTX module: an initializer value %.*s that is not a "
                  "number or the name of a variable or function declared "
                  "before it",
                  (int)len, w);
  cuemu__sb_add(out, w, len);
  return CUEMU_SUCCESS;
}

/* An expression of an initializer, up to a `,`, `}`, `)` or `;`: numbers
 * and addresses added and subtracted. An address is the name of a module
 * variable or function, `generic(expression)` (a generic address, which
 * under cuemu is the variable's address, as a state space's own address
 * is), or `0xFF00(expression)`, the mask operator, which takes the byte
 * of the expression that the mask selects (a byte of an address in a
 * `.b8` array, the form of a packed structure holding pointers). Written
 * as a C++ expression of type unsigned long long; `syms` NULL where no
 * address may appear. */
static cuemu_status init_expression(reader *r, symbols *syms,
                                    cuemu_strbuf *out, init_item *item) {
  size_t len;
  int terms = 0;
  if (item) item->shift = -1;
  cuemu__sb_str(out, "(");
  while ((len = token(r)) != 0 && !is(r, len, ",") && !is(r, len, "}") &&
         !is(r, len, ")") && !is(r, len, ";")) {
    cuemu_status st = CUEMU_SUCCESS;
    const char *w = r->s + r->k;
    symbol *y = syms && word_char(w[0]) ? find_symbol(syms, w, len) : NULL;
    if (is(r, len, "+") || is(r, len, "-")) {
      cuemu__sb_add(out, w, 1);
      r->k += len;
      continue;
    }
    if (terms++ && !strchr("+-", out->data[out->length - 1]))
      return fail(r, "PTX module: expected + or - in an initializer");
    if (item) item->shift = -1; /* set again below for one mask alone */
    if (y) {
      addf(out, "(unsigned long long)(%s)", y->bind);
      r->k += len;
      continue;
    }
    size_t at = r->k;
    r->k += len;
    size_t next = token(r);
    int call = is(r, next, "(");
    r->k = at;
    if (call && syms && len == 7 && !strncmp(w, "generic", 7)) {
      r->k += len + next;
      st = init_expression(r, syms, out, NULL);
    } else if (call && syms && len > 2 && w[0] == '0' &&
               (w[1] == 'x' || w[1] == 'X')) {
      unsigned long long mask = strtoull(w, NULL, 16);
      int shift = 0;
      while (shift < 64 && mask != (0xFFull << shift)) shift += 8;
      if (shift == 64)
        return fail(r, "PTX module: a mask %.*s that is not one byte's",
                    (int)len, w);
      r->k += len + next;
      cuemu__sb_str(out, "((");
      size_t inner = out->length;
      st = init_expression(r, syms, out, NULL);
      if (item && terms == 1) {
        item->shift = shift;
        item->inner_from = inner;
        item->inner_to = out->length;
      }
      addf(out, " >> %d) & 0xFF)", shift);
    } else if (word_char(w[0]) && !isdigit((unsigned char)w[0])) {
      return fail(r,
                  "PTX module: an initializer names %.*s, which is not a "
                  "variable or function declared before it%s",
                  (int)len, w, syms ? "" : " (in a parameter)");
    } else {
      st = init_number(r, len, out);
      r->k += len;
      continue;
    }
    if (st != CUEMU_SUCCESS) return st;
    len = token(r);
    if (!is(r, len, ")"))
      return fail(r, "PTX module: expected ) in an initializer");
    r->k += len;
  }
  cuemu__sb_str(out, ")");
  return CUEMU_SUCCESS;
}

/* A byte array whose initializer holds addresses byte by byte, with the
 * mask operator (`.u8 p[9] = {107, 0xFF(generic(x)), 0xFF00(generic(x)),
 * ...}`, how nvcc writes a packed structure holding a pointer): a C++
 * byte cannot be initialised with a byte of an address before the program
 * runs (a __device__ variable may not be initialised dynamically), so the
 * variable becomes a packed structure of the same bytes in which the 8 (or
 * 4) bytes of one address in order are one field, of an address that the
 * linker writes. */
static cuemu_status packed_bytes(reader *r, declaration *d,
                                 const init_item *items, size_t count) {
  const char *text = d->init.data;
  unsigned long total = count;
  if (d->type_bytes != 1 || d->vector != 1 || !d->dims.data ||
      strchr(d->dims.data + 1, '['))
    return fail(r, "PTX module: the mask operator in an initializer of "
                   "other than a one-dimensional byte array (a byte of an "
                   "address in a wider element is not translated)");
  if (d->dims.length > 2) total = strtoul(d->dims.data + 1, NULL, 0);
  if (total < count)
    return fail(r, "PTX module: more values than the array holds");
  cuemu_strbuf def = {0}, init = {0};
  char name[300];
  snprintf(name, sizeof name, "cuemu_ptx_bytes_%.*s", (int)d->name_len,
           r->s + d->name);
  addf(&def, "struct __attribute__((packed)) %s {", name);
  cuemu__sb_str(&init, " = {");
  int field = 0;
  for (size_t i = 0; i < count;) {
    size_t n = 0; /* the bytes of one address from here, in order */
    const init_item *a = &items[i];
    while (i + n < count && n < 8 && items[i + n].shift == (int)(8 * n) &&
           items[i + n].inner_to - items[i + n].inner_from ==
               a->inner_to - a->inner_from &&
           !memcmp(text + items[i + n].inner_from, text + a->inner_from,
                   a->inner_to - a->inner_from))
      n++;
    if (n == 8 || n == 4) {
      const char *t = n == 8 ? "unsigned long long" : "unsigned int";
      addf(&def, " %s f%d;", t, field++);
      addf(&init, "%s(%s)(", field > 1 ? ", " : "", t);
      cuemu__sb_add(&init, text + a->inner_from, a->inner_to - a->inner_from);
      cuemu__sb_str(&init, ")");
      i += n;
    } else {
      addf(&def, " %s f%d;", d->type, field++);
      cuemu__sb_str(&init, field > 1 ? ", " : "");
      cuemu__sb_add(&init, text + a->from, a->to - a->from);
      i++;
    }
  }
  if (total > count)
    addf(&def, " unsigned char rest[%lu];", total - count);
  cuemu__sb_str(&def, " };\n");
  cuemu__sb_str(&init, "}");
  if (def.oom || init.oom) {
    free(def.data);
    free(init.data);
    return CUEMU_OUT_OF_MEMORY;
  }
  free(d->init.data);
  d->init = init;
  free(d->type_def.data);
  d->type_def = def;
  free(d->dims.data);
  memset(&d->dims, 0, sizeof d->dims);
  if (!(d->type_name = strdup(name))) return CUEMU_OUT_OF_MEMORY;
  d->type = d->type_name;
  return CUEMU_SUCCESS;
}

/* Reads a declaration; `syms` holds the names its initializer may take
 * the addresses of (NULL: none). */
static cuemu_status read_declaration(reader *r, declaration *d,
                                     symbols *syms) {
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
      if (is(r, len, ".texref") || is(r, len, ".surfref") ||
          is(r, len, ".samplerref"))
        return texture_reference(r);
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
    init_item *items = NULL;
    size_t count = 0, masked = 0;
    cuemu_status st = CUEMU_SUCCESS;
    while (st == CUEMU_SUCCESS && (len = token(r)) != 0 && !is(r, len, ";")) {
      if (is(r, len, "{") || is(r, len, "}") || is(r, len, ",")) {
        cuemu__sb_add(&d->init, r->s + r->k, len);
        r->k += len;
        continue;
      }
      if (!(count & (count + 1))) { /* 0, 1, 3, 7, ...: grow */
        init_item *more = realloc(items, 2 * (count + 1) * sizeof *items);
        if (!more) {
          st = CUEMU_OUT_OF_MEMORY;
          break;
        }
        items = more;
      }
      /* Each value converted to the element's type. */
      init_item *item = &items[count++];
      item->from = d->init.length;
      addf(&d->init, "(%s)", d->type);
      st = init_expression(r, syms, &d->init, item);
      item->to = d->init.length;
      masked += item->shift >= 0;
      if (st == CUEMU_SUCCESS && is(r, token(r), ")"))
        st = fail(r, "PTX module: unbalanced ) in an initializer");
    }
    if (st == CUEMU_SUCCESS && masked && !d->init.oom)
      st = packed_bytes(r, d, items, count);
    free(items);
    if (st != CUEMU_SUCCESS) return st;
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

/* A function's `.reg` parameters and return (older or hand-written PTX:
 * `.func (.reg .b32 r) f(.reg .b32 a)`): registers of its body, each
 * loaded from its slot where the body starts, and the return's stored to
 * its slot before each `ret`; a call passes the address of a copy of each
 * register or immediate it gives (cuemu_ptx_translate.c's call_slot()). */
typedef struct reg_param {
  char name[64];
  unsigned bytes; /* 2, 4 or 8 */
  int slot;       /* 0 for the return */
} reg_param;

typedef struct reg_params {
  reg_param v[16];
  int count;
} reg_params;

/* Notes the .reg parameter or return just read (`d`) in slot `slot`. */
static cuemu_status add_reg_param(reader *r, reg_params *regs,
                                  const declaration *d, int slot) {
  if (regs->count == (int)(sizeof regs->v / sizeof regs->v[0]))
    return fail(r, "PTX module: more than 16 .reg parameters");
  if (d->name_len >= sizeof regs->v->name || d->dims.length ||
      d->type_bytes < 2)
    return fail(r, "PTX module: a .reg parameter that is not one register "
                   "of 16, 32 or 64 bits");
  reg_param *p = &regs->v[regs->count++];
  memcpy(p->name, r->s + d->name, d->name_len);
  p->name[d->name_len] = '\0';
  p->bytes = d->type_bytes;
  p->slot = slot;
  return CUEMU_SUCCESS;
}

/* The parameters `( .param .u64 k_param_0, ... )`: an entry's are its
 * kernel's (`params` gets them; a `.b8` array parameter, a structure passed
 * by value, is a structure of its size and alignment, in `types`); a
 * function's (params NULL) are the addresses in its slots, after the
 * return's (cuemu_ptx_translate.c's call). */
static cuemu_status parameters(reader *r, symbols *syms, cuemu_strbuf *types,
                               cuemu_strbuf *params, int first_slot,
                               reg_params *regs) {
  size_t len = token(r);
  if (!is(r, len, "(")) return CUEMU_SUCCESS; /* no parameters */
  r->k += len;
  int index = 0;
  while ((len = token(r)) != 0 && !is(r, len, ")")) {
    if (is(r, len, ",")) {
      r->k += len;
      continue;
    }
    int reg = is(r, len, ".reg");
    if (!is(r, len, ".param") && !(reg && !params))
      return fail(r, "PTX module: expected .param in %s parameter list",
                  params ? "an entry's" : "a function's");
    r->k += len;
    declaration d;
    cuemu_status st = read_declaration(r, &d, NULL);
    if (st == CUEMU_SUCCESS && reg) {
      st = add_reg_param(r, regs, &d, first_slot + index);
    } else if (st == CUEMU_SUCCESS && !params) {
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

/* Non-zero when the statement at r->k is a label of an indirect call's
 * prototype or list of targets (`prototype_4 : .callprototype ...;`,
 * `Ftgt: .calltargets f, g;`), which the call through an address does not
 * need (cuemu_ptx_translate.c's call_instruction()). */
static int call_prototype(reader *r, size_t len) {
  size_t at = r->k;
  int line = r->line, yes = 0;
  r->k += len;
  len = token(r);
  if (is(r, len, ":")) {
    r->k += len;
    len = token(r);
    yes = is(r, len, ".callprototype") || is(r, len, ".calltargets");
  }
  r->k = at;
  r->line = line;
  return yes;
}

/* Non-zero when the statement at r->k is a `ret`, guarded or not. */
static int ret_statement(reader *r, size_t len) {
  size_t at = r->k;
  int line = r->line;
  if (is(r, len, "@")) {
    r->k += len;
    len = token(r);
    if (is(r, len, "!")) {
      r->k += len;
      len = token(r);
    }
    r->k += len;
    len = token(r);
  }
  int yes = is(r, len, "ret") || is(r, len, "ret.uni");
  r->k = at;
  r->line = line;
  return yes;
}

/* `ld.bN name, [slot];` for each .reg parameter where the body starts
 * (`store` 0, the return declared too), or `st.bN [slot], name;` for the
 * return before a `ret` (`store` 1). */
static void reg_param_moves(const reg_params *regs, int store, symbols *syms,
                            int *operands, cuemu_strbuf *tmpl,
                            cuemu_strbuf *binds) {
  for (int i = 0; i < regs->count; i++) {
    const reg_param *p = &regs->v[i];
    char slot[32], name[2 * sizeof p->name];
    size_t k = 0;
    if (store && p->slot != 0) continue;
    for (const char *c = p->name; *c; c++) { /* `%` is `%%` in a template */
      if (*c == '%') name[k++] = '%';
      name[k++] = *c;
    }
    name[k] = '\0';
    snprintf(slot, sizeof slot, "cuemu_ptx_slot%d", p->slot);
    symbol *y = find_symbol(syms, slot, strlen(slot));
    if (!store) addf(tmpl, " .reg .b%u %s;", p->bytes * 8, name);
    if (!y || (!store && p->slot == 0)) continue;
    int n = operand_of(y, operands, binds);
    if (store)
      addf(tmpl, " st.b%u [%%%d], %s;", p->bytes * 8, n, name);
    else
      addf(tmpl, " ld.b%u %s, [%%%d];", p->bytes * 8, name, n);
  }
  if (regs->count) cuemu__sb_str(tmpl, " ");
}

/* The body of an entry or a function, from its `{` to the matching `}`: its
 * own variables go to `vars`, the statement's template to `tmpl`, its
 * operands to `binds`; a function's .reg parameters are `regs`. */
static cuemu_status routine_body(reader *r, symbols *syms, size_t module_syms,
                                 const reg_params *regs, cuemu_strbuf *vars,
                                 cuemu_strbuf *tmpl, cuemu_strbuf *binds) {
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
    if (is(r, len, "{") && depth++ == 0) {
      put_template_char(tmpl, '{');
      reg_param_moves(regs, 0, syms, &operands, tmpl, binds);
      r->k += len;
      last = '{';
      continue;
    }
    if (is(r, len, "}") && --depth == 0) {
      reg_param_moves(regs, 1, syms, &operands, tmpl, binds);
      put_template_char(tmpl, '}');
      r->k += len;
      break;
    }
    if (starts_statement(last) && word_char(w[0]) && call_prototype(r, len)) {
      skip_statement(r);
      last = ';';
      continue;
    }
    if (starts_statement(last) && regs->count && ret_statement(r, len))
      reg_param_moves(regs, 1, syms, &operands, tmpl, binds);
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
      cuemu_status st = read_declaration(r, &d, NULL);
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
                            int is_entry, const char *return_name,
                            reg_params *regs) {
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
    st = parameters(r, syms, &types, is_entry ? &params : NULL, 1, regs);
  /* The slots of .reg parameters, operands of the body. */
  for (int i = 0; st == CUEMU_SUCCESS && i < regs->count; i++) {
    char slot[32], bind[48];
    snprintf(slot, sizeof slot, "cuemu_ptx_slot%d", regs->v[i].slot);
    snprintf(bind, sizeof bind, "cuemu_ptx_slots[%d]", regs->v[i].slot);
    st = add_symbol(r, syms, slot, strlen(slot), bind);
  }
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
    st = routine_body(r, syms, module_syms, regs, &vars, &tmpl, &binds);
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
static cuemu_status func_return(reader *r, char *name, size_t cap,
                                reg_params *regs) {
  size_t len = token(r);
  name[0] = '\0';
  if (!is(r, len, "(")) return CUEMU_SUCCESS;
  /* `name(` is the function's name and parameters; `(.param` a return. */
  size_t at = r->k;
  int line = r->line;
  r->k += len;
  len = token(r);
  int reg = is(r, len, ".reg");
  if (!is(r, len, ".param") && !reg) {
    r->k = at;
    r->line = line;
    return CUEMU_SUCCESS;
  }
  r->k += len;
  declaration d;
  cuemu_status st = read_declaration(r, &d, NULL);
  if (st == CUEMU_SUCCESS && reg) {
    /* A register of the body, not a name of the slot. */
    st = add_reg_param(r, regs, &d, 0);
  } else if (st == CUEMU_SUCCESS && d.name_len >= cap) {
    st = fail(r, "PTX module: a function's return name is too long");
  } else if (st == CUEMU_SUCCESS) {
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
  cuemu_status st = read_declaration(r, &d, syms);
  if (st == CUEMU_SUCCESS)
    st = declared_symbol(r, syms, &d, space == 's' ? BIND_SHARED : BIND_ADDRESS);
  if (st == CUEMU_SUCCESS) {
    cuemu__sb_add(out, d.type_def.data ? d.type_def.data : "",
                  d.type_def.length);
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
      reg_params none = {0};
      st = routine(&r, &syms, &src, 1, NULL, &none);
    } else if (is(&r, len, ".func")) {
      char return_name[256];
      reg_params regs = {0};
      r.k += len;
      st = func_return(&r, return_name, sizeof return_name, &regs);
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
        st = routine(&r, &syms, &src, 0, return_name, &regs);
      }
    } else if (is(&r, len, ".global") || is(&r, len, ".const") ||
               is(&r, len, ".shared")) {
      char space = r.s[r.k + 1];
      r.k += len;
      st = variable(&r, &syms, &src, space, is_extern);
    } else if (is(&r, len, ".tex") || is(&r, len, ".surf") ||
               is(&r, len, ".texref") || is(&r, len, ".surfref") ||
               is(&r, len, ".samplerref")) {
      st = texture_reference(&r);
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
