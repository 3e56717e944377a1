/*
 * cuemu_parity_types.c: the element types of parity arguments: built-in
 * scalars under their C and <stdint.h> names, CUDA's vector and complex
 * types, and the structs a case declares; how each is laid out and how a
 * host function takes it (libffi), and reading and writing their fields.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cuemu_parity_internal.h"

typedef struct scalar_name {
  const char *name;
  cuemu__pscalar_kind kind;
  size_t size;
} scalar_name;

/* Every spelling of a scalar type, with its kind and size (LP64). */
static const scalar_name scalars[] = {
    {"bool", CUEMU__PS_BOOL, 1},
    {"char", CUEMU__PS_INT, 1},
    {"signed char", CUEMU__PS_INT, 1},
    {"int8_t", CUEMU__PS_INT, 1},
    {"unsigned char", CUEMU__PS_UINT, 1},
    {"uint8_t", CUEMU__PS_UINT, 1},
    {"short", CUEMU__PS_INT, 2},
    {"short int", CUEMU__PS_INT, 2},
    {"int16_t", CUEMU__PS_INT, 2},
    {"unsigned short", CUEMU__PS_UINT, 2},
    {"uint16_t", CUEMU__PS_UINT, 2},
    {"int", CUEMU__PS_INT, 4},
    {"signed", CUEMU__PS_INT, 4},
    {"int32_t", CUEMU__PS_INT, 4},
    {"unsigned", CUEMU__PS_UINT, 4},
    {"unsigned int", CUEMU__PS_UINT, 4},
    {"uint32_t", CUEMU__PS_UINT, 4},
    {"long", CUEMU__PS_INT, 8},
    {"long int", CUEMU__PS_INT, 8},
    {"long long", CUEMU__PS_INT, 8},
    {"long long int", CUEMU__PS_INT, 8},
    {"int64_t", CUEMU__PS_INT, 8},
    {"ptrdiff_t", CUEMU__PS_INT, 8},
    {"ssize_t", CUEMU__PS_INT, 8},
    {"unsigned long", CUEMU__PS_UINT, 8},
    {"unsigned long long", CUEMU__PS_UINT, 8},
    {"unsigned long long int", CUEMU__PS_UINT, 8},
    {"uint64_t", CUEMU__PS_UINT, 8},
    {"size_t", CUEMU__PS_UINT, 8},
    {"float", CUEMU__PS_FLOAT, 4},
    {"double", CUEMU__PS_FLOAT, 8},
    {"__half", CUEMU__PS_HALF, 2},
    {"half", CUEMU__PS_HALF, 2},
    {"__nv_bfloat16", CUEMU__PS_BF16, 2},
    {"nv_bfloat16", CUEMU__PS_BF16, 2},
};

typedef struct vector_name {
  const char *name;
  const char *base;
  int n;
  size_t align;
} vector_name;

/* CUDA's vector and complex types: components named x, y, z, w. */
static const vector_name vectors[] = {
    {"float2", "float", 2, 8},          {"float3", "float", 3, 4},
    {"float4", "float", 4, 16},         {"double2", "double", 2, 16},
    {"int2", "int", 2, 8},              {"int3", "int", 3, 4},
    {"int4", "int", 4, 16},             {"uint2", "unsigned int", 2, 8},
    {"uint4", "unsigned int", 4, 16},   {"cuFloatComplex", "float", 2, 8},
    {"cuComplex", "float", 2, 8},       {"cuDoubleComplex", "double", 2, 16},
    {"__half2", "__half", 2, 4},        {"half2", "__half", 2, 4},
};

/* Copies `s` into `out` with runs of spaces made one and ends trimmed. */
static void squeeze(const char *s, char *out, size_t size) {
  size_t n = 0;
  int space = 0;
  for (; *s && n + 1 < size; ++s) {
    if (isspace((unsigned char)*s)) {
      space = n > 0;
      continue;
    }
    if (space && n + 2 < size)
      out[n++] = ' ';
    space = 0;
    out[n++] = *s;
  }
  out[n] = 0;
}

/* Removes every whole word `word` from `s` (in place). */
static void drop_word(char *s, const char *word) {
  size_t len = strlen(word);
  for (char *p = s; (p = strstr(p, word));) {
    int starts = p == s || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
    int ends = !(isalnum((unsigned char)p[len]) || p[len] == '_');
    if (starts && ends)
      memmove(p, p + len, strlen(p + len) + 1);
    else
      p += len;
  }
}

/* The canonical spelling: no struct, const, volatile or restrict, single
 * spaces, none around '*'. */
static void canonical(const char *text, char *out, size_t size) {
  char tmp[256];
  snprintf(tmp, sizeof tmp, "%s", text);
  static const char *const words[] = {"struct", "const", "volatile",
                                      "__restrict__", "__restrict", "restrict"};
  for (size_t i = 0; i < sizeof words / sizeof *words; ++i)
    drop_word(tmp, words[i]);
  char sq[256];
  squeeze(tmp, sq, sizeof sq);
  size_t n = 0;
  for (size_t i = 0; sq[i] && n + 1 < size; ++i) {
    if (sq[i] == ' ' && (sq[i + 1] == '*' || (n > 0 && out[n - 1] == '*')))
      continue;
    out[n++] = sq[i];
  }
  out[n] = 0;
}

int cuemu__ptype_split(const char *text, char *elem, size_t size) {
  char c[256];
  canonical(text, c, sizeof c);
  int depth = 0;
  for (const char *p = c; *p; ++p)
    depth += *p == '*';
  char *star = strchr(c, '*');
  if (star)
    *star = 0;
  squeeze(c, elem, size);
  return depth;
}

static const scalar_name *find_scalar(const char *name) {
  for (size_t i = 0; i < sizeof scalars / sizeof *scalars; ++i)
    if (strcmp(scalars[i].name, name) == 0)
      return &scalars[i];
  return NULL;
}

/* The libffi type of one scalar field, as a C host function takes it
 * (__half and __nv_bfloat16 as their 16 bits). */
static ffi_type *scalar_ffi(cuemu__pscalar_kind kind, size_t size) {
  switch (kind) {
  case CUEMU__PS_FLOAT:
    return size == 4 ? &ffi_type_float : &ffi_type_double;
  case CUEMU__PS_HALF:
  case CUEMU__PS_BF16:
    return &ffi_type_uint16;
  case CUEMU__PS_INT:
    return size == 1 ? &ffi_type_sint8
           : size == 2 ? &ffi_type_sint16
           : size == 4 ? &ffi_type_sint32
                       : &ffi_type_sint64;
  default:
    return size == 1 ? &ffi_type_uint8
           : size == 2 ? &ffi_type_uint16
           : size == 4 ? &ffi_type_uint32
                       : &ffi_type_uint64;
  }
}

/* Makes `t` a struct of its fields for libffi. */
static void make_ffi_struct(cuemu__ptype *t) {
  for (int i = 0; i < t->nfields; ++i)
    t->ffi_elements[i] = scalar_ffi(t->fields[i].kind, t->fields[i].size);
  t->ffi_elements[t->nfields] = NULL;
  memset(&t->ffi_struct, 0, sizeof t->ffi_struct);
  t->ffi_struct.type = FFI_TYPE_STRUCT;
  t->ffi_struct.elements = t->ffi_elements;
  t->ffi = &t->ffi_struct;
}

int cuemu__ptype_resolve(const cuemu_parity_case *c, const char *name,
                         cuemu__ptype *out, char *err, size_t errsize) {
  char n[256];
  canonical(name, n, sizeof n);
  memset(out, 0, sizeof *out);
  snprintf(out->name, sizeof out->name, "%.63s", n);
  const scalar_name *s = find_scalar(n);
  if (s) {
    out->size = out->align = s->size;
    out->nfields = 1;
    out->fields[0] = (cuemu__pfield){"", s->kind, s->size, 0};
    out->ffi = scalar_ffi(s->kind, s->size);
    return 0;
  }
  static const char *const comp[] = {"x", "y", "z", "w"};
  for (size_t i = 0; i < sizeof vectors / sizeof *vectors; ++i) {
    if (strcmp(vectors[i].name, n) != 0)
      continue;
    const scalar_name *b = find_scalar(vectors[i].base);
    out->nfields = vectors[i].n;
    for (int f = 0; f < vectors[i].n; ++f)
      out->fields[f] = (cuemu__pfield){comp[f], b->kind, b->size, f * b->size};
    out->align = vectors[i].align;
    size_t raw = (size_t)vectors[i].n * b->size;
    out->size = (raw + out->align - 1) / out->align * out->align;
    make_ffi_struct(out);
    return 0;
  }
  for (int i = 0; c && i < c->nstructs; ++i) {
    const cuemu__pstruct *st = &c->structs[i];
    if (strcmp(st->name, n) != 0)
      continue;
    size_t off = 0, align = 1;
    for (int f = 0; f < st->n; ++f) {
      char fn[256];
      canonical(st->field_types[f], fn, sizeof fn);
      const scalar_name *b = find_scalar(fn);
      if (!b) {
        snprintf(err, errsize,
                 "struct %s: field %s has type '%s', which is not a scalar "
                 "type the runner knows",
                 st->name, st->field_names[f], st->field_types[f]);
        return -1;
      }
      off = (off + b->size - 1) / b->size * b->size;
      out->fields[f] = (cuemu__pfield){st->field_names[f], b->kind, b->size, off};
      off += b->size;
      if (b->size > align)
        align = b->size;
    }
    out->nfields = st->n;
    out->align = align;
    out->size = (off + align - 1) / align * align;
    out->is_struct = 1;
    make_ffi_struct(out);
    return 0;
  }
  snprintf(err, errsize,
           "unknown type '%s' (declare structs under 'structs:'; see "
           "parity/README.md for the known types)",
           name);
  return -1;
}

int cuemu__ptype_same(const cuemu_parity_case *c, const char *a,
                      const char *b) {
  char ea[128], eb[128];
  int pa = cuemu__ptype_split(a, ea, sizeof ea);
  int pb = cuemu__ptype_split(b, eb, sizeof eb);
  char ca[256], cb[256];
  canonical(a, ca, sizeof ca);
  canonical(b, cb, sizeof cb);
  if (strcmp(ca, cb) == 0)
    return 1;
  if (pa != pb)
    return 0;
  /* Different spellings of one built-in type (uint32_t and unsigned int)
   * are the same type; a typedef the runner does not know is not. */
  const scalar_name *sa = find_scalar(ea), *sb = find_scalar(eb);
  if (sa && sb)
    return sa->kind == sb->kind && sa->size == sb->size;
  cuemu__ptype ta, tb;
  char err[256];
  if (cuemu__ptype_resolve(c, ea, &ta, err, sizeof err) ||
      cuemu__ptype_resolve(c, eb, &tb, err, sizeof err))
    return 0;
  /* cuFloatComplex is a typedef of float2, and so on. */
  return !ta.is_struct && !tb.is_struct && ta.size == tb.size &&
         ta.nfields == tb.nfields && ta.fields[0].kind == tb.fields[0].kind;
}

/* IEEE binary16 and bfloat16 to and from float, rounding to nearest even. */
static float half_to_float(uint16_t h) {
  int sign = h >> 15, exp = (h >> 10) & 31, man = h & 1023;
  float v;
  if (exp == 0)
    v = ldexpf((float)man, -24);
  else if (exp == 31)
    v = man ? NAN : INFINITY;
  else
    v = ldexpf((float)(man | 1024), exp - 25);
  return sign ? -v : v;
}

static uint16_t float_to_half(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
  uint32_t abs = x & 0x7fffffff;
  if (abs > 0x7f800000)
    return sign | 0x7e00;
  if (abs >= 0x477ff000) /* rounds to infinity */
    return sign | 0x7c00;
  if (abs < 0x38800000) { /* subnormal or zero in half */
    float a;
    memcpy(&a, &abs, 4);
    return sign | (uint16_t)lrintf(a * 16777216.0f); /* 2^24, even rounding */
  }
  uint32_t r = abs + 0xfff + ((abs >> 13) & 1) - 0x38000000;
  return sign | (uint16_t)(r >> 13);
}

static float bf16_to_float(uint16_t h) {
  uint32_t x = (uint32_t)h << 16;
  float f;
  memcpy(&f, &x, 4);
  return f;
}

static uint16_t float_to_bf16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  if ((x & 0x7fffffff) > 0x7f800000)
    return (uint16_t)((x >> 16) | 0x40);
  x += 0x7fff + ((x >> 16) & 1);
  return (uint16_t)(x >> 16);
}

double cuemu__pfield_get(const cuemu__pfield *f, const void *elem) {
  const unsigned char *p = (const unsigned char *)elem + f->offset;
  switch (f->kind) {
  case CUEMU__PS_BOOL:
    return *p != 0;
  case CUEMU__PS_FLOAT:
    if (f->size == 4) {
      float v;
      memcpy(&v, p, 4);
      return v;
    } else {
      double v;
      memcpy(&v, p, 8);
      return v;
    }
  case CUEMU__PS_HALF:
  case CUEMU__PS_BF16: {
    uint16_t h;
    memcpy(&h, p, 2);
    return f->kind == CUEMU__PS_HALF ? half_to_float(h) : bf16_to_float(h);
  }
  case CUEMU__PS_INT: {
    int64_t v = 0;
    if (f->size == 1) v = *(const int8_t *)p;
    else if (f->size == 2) { int16_t t; memcpy(&t, p, 2); v = t; }
    else if (f->size == 4) { int32_t t; memcpy(&t, p, 4); v = t; }
    else memcpy(&v, p, 8);
    return (double)v;
  }
  default: {
    uint64_t v = 0;
    memcpy(&v, p, f->size); /* little-endian */
    return (double)v;
  }
  }
}

/* `v` as a float rounded to odd: exact when it fits, else the neighbour
 * toward zero with its last bit set. A further rounding to a narrower
 * format (half, bfloat16) is then correct, without double rounding. */
static float round_to_odd(double v) {
  float f = (float)v;
  if (isnan(v) || isinf(f) || (double)f == v)
    return f;
  if (fabs((double)f) > fabs(v))
    f = nextafterf(f, 0.0f);
  uint32_t bits;
  memcpy(&bits, &f, 4);
  bits |= 1;
  memcpy(&f, &bits, 4);
  return f;
}

void cuemu__pfield_set(const cuemu__pfield *f, void *elem, double v) {
  unsigned char *p = (unsigned char *)elem + f->offset;
  switch (f->kind) {
  case CUEMU__PS_BOOL:
    *p = v != 0;
    return;
  case CUEMU__PS_FLOAT:
    if (f->size == 4) {
      float t = (float)v;
      memcpy(p, &t, 4);
    } else {
      memcpy(p, &v, 8);
    }
    return;
  case CUEMU__PS_HALF:
  case CUEMU__PS_BF16: {
    float r = round_to_odd(v);
    uint16_t h = f->kind == CUEMU__PS_HALF ? float_to_half(r) : float_to_bf16(r);
    memcpy(p, &h, 2);
    return;
  }
  case CUEMU__PS_INT: {
    int64_t t = (int64_t)v;
    memcpy(p, &t, f->size); /* little-endian: the low bytes */
    return;
  }
  default: {
    uint64_t t = v < 0 ? (uint64_t)(int64_t)v : (uint64_t)v;
    memcpy(p, &t, f->size);
    return;
  }
  }
}
