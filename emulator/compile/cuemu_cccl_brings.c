/*
 * cuemu_cccl_brings.c: whether a unit needs the heavier half of what
 * nvcc's <cooperative_groups.h> brings (cuemu_cccl_brings.h).
 */
#define _GNU_SOURCE
#include "cuemu_cccl_brings.h"

#include <string.h>

#include "cuemu_line_markers.h"

/* The names of std that nvcc's <cooperative_groups.h> declares through
 * <string>, <string_view>, <chrono>, <stdexcept>, <system_error>,
 * <iterator>, <ratio> and <typeinfo>, and cuda_runtime.h does not. */
static const char *const brought_std_names[] = {"string",
                                                "wstring",
                                                "u16string",
                                                "u32string",
                                                "basic_string",
                                                "string_view",
                                                "wstring_view",
                                                "basic_string_view",
                                                "to_string",
                                                "to_wstring",
                                                "stoi",
                                                "stol",
                                                "stoll",
                                                "stoul",
                                                "stoull",
                                                "stof",
                                                "stod",
                                                "stold",
                                                "getline",
                                                "char_traits",
                                                "chrono",
                                                "runtime_error",
                                                "logic_error",
                                                "invalid_argument",
                                                "out_of_range",
                                                "domain_error",
                                                "length_error",
                                                "overflow_error",
                                                "range_error",
                                                "underflow_error",
                                                "system_error",
                                                "error_code",
                                                "error_condition",
                                                "errc",
                                                "generic_category",
                                                "system_category",
                                                "iterator_traits",
                                                "iterator",
                                                "back_inserter",
                                                "front_inserter",
                                                "inserter",
                                                "back_insert_iterator",
                                                "reverse_iterator",
                                                "make_reverse_iterator",
                                                "move_iterator",
                                                "istreambuf_iterator",
                                                "ostreambuf_iterator",
                                                "distance",
                                                "advance",
                                                "next",
                                                "prev",
                                                "begin",
                                                "end",
                                                "cbegin",
                                                "cend",
                                                "rbegin",
                                                "rend",
                                                "size",
                                                "ssize",
                                                "data",
                                                "empty",
                                                "input_iterator_tag",
                                                "output_iterator_tag",
                                                "forward_iterator_tag",
                                                "bidirectional_iterator_tag",
                                                "random_access_iterator_tag",
                                                "ratio",
                                                "milli",
                                                "micro",
                                                "nano",
                                                "kilo",
                                                "mega",
                                                "type_info",
                                                "bad_cast",
                                                "bad_typeid",
                                                "exception_ptr",
                                                "current_exception",
                                                "rethrow_exception",
                                                "make_exception_ptr",
                                                "nested_exception",
                                                "throw_with_nested",
                                                "hash",
                                                "allocator",
                                                NULL};

/* Whether the identifier text[i, end) is a name of the narrow float
 * types' headers: __half..., __nv_..., the conversions to them, the
 * __h... intrinsics, half, half2, nv_bfloat16 and nv_bfloat162. */
static int float_name(const char *text, size_t i, size_t end) {
  static const char *const prefixes[] = {"__h",
                                         "__nv_",
                                         "__float2half",
                                         "__float2bfloat16",
                                         "__double2half",
                                         "__double2bfloat16",
                                         "__float22half",
                                         "__float22bfloat16",
                                         "__int2half",
                                         "__uint2half",
                                         "__short2half",
                                         "__ushort2half",
                                         "__ll2half",
                                         "__ull2half",
                                         "__int2bfloat16",
                                         "__uint2bfloat16",
                                         "__bfloat16",
                                         "__bfloat162",
                                         NULL};
  static const char *const words[] = {"half", "half2", "nv_bfloat16",
                                      "nv_bfloat162", NULL};
  for (int w = 0; prefixes[w]; ++w)
    if (end - i >= strlen(prefixes[w]) &&
        memcmp(text + i, prefixes[w], strlen(prefixes[w])) == 0)
      return 1;
  for (int w = 0; words[w]; ++w)
    if (end - i == strlen(words[w]) && memcmp(text + i, words[w], end - i) == 0)
      return 1;
  return 0;
}

/* The identifier that starts at text[i] (ending at *end), or 0 when
 * text[i] starts none. */
static int identifier_at(const char *text, size_t size, size_t i, size_t *end) {
  if (!cuemu__ident_char(text[i]) || (text[i] >= '0' && text[i] <= '9') ||
      (i > 0 && cuemu__ident_char(text[i - 1])))
    return 0;
  size_t k = i;
  while (k < size && cuemu__ident_char(text[k]))
    k++;
  *end = k;
  return 1;
}

static int word_is(const char *text, size_t i, size_t end, const char *word) {
  return end - i == strlen(word) && memcmp(text + i, word, end - i) == 0;
}

/* The position of the first significant character at or after k. */
static size_t skip_blanks(const char *text, size_t size, size_t k) {
  while (k < size && (text[k] == ' ' || text[k] == '\t' || text[k] == '\n'))
    k++;
  return k;
}

/* The headers that declare the names of CUEMU_CCCL_BRINGS_FLOATS (the
 * shims') and of CUEMU_CCCL_BRINGS_STD (libstdc++'s), as the last part of
 * a line marker's file name. */
static const char *const float_headers[] = {"/cuda_fp16.h", "/cuda_bf16.h",
                                            "/cuda_fp8.h"};
static const char *const std_headers[] = {
    "/string",   "/string_view", "/chrono", "/stdexcept", "/system_error",
    "/iterator", "/exception",   "/ratio",  "/typeinfo"};
/* And those of CUEMU_CCCL_BRINGS_LIBRARIES (libcu++'s, with the std ones):
 * a unit that includes Thrust or CUB has read them all already. */
static const char *const libcudacxx_headers[] = {
    "/cuda/atomic",       "/cuda/std/atomic",  "/cuda/std/cassert",
    "/cuda/std/cfloat",   "/cuda/std/chrono",  "/cuda/std/climits",
    "/cuda/std/cstddef",  "/cuda/std/cstdint", "/cuda/std/cstring",
    "/cuda/std/ctime",    "/cuda/std/limits",  "/cuda/std/ratio",
    "/cuda/std/type_traits", "/cuda/std/version"};
enum {
  FLOAT_HEADERS = sizeof float_headers / sizeof float_headers[0],
  STD_HEADERS = sizeof std_headers / sizeof std_headers[0],
  LIBCUDACXX_HEADERS = sizeof libcudacxx_headers / sizeof libcudacxx_headers[0]
};

/* Marks in read[kind] the header of `list` (of `count`) that a line
 * marker names, file[0, len). */
static void mark_list(const char *file, size_t len, const char *const *list,
                      int count, unsigned *read) {
  for (int h = 0; h < count; ++h) {
    const size_t n = strlen(list[h]);
    if (len >= n && memcmp(file + len - n, list[h], n) == 0)
      *read |= 1u << h;
  }
}

/* Marks in read[0] (float_headers), read[1] (std_headers) and read[2]
 * (libcudacxx_headers) the header that a line marker names, file[0, len). */
static void mark_read(const char *file, size_t len, unsigned *read) {
  mark_list(file, len, float_headers, FLOAT_HEADERS, &read[0]);
  mark_list(file, len, std_headers, STD_HEADERS, &read[1]);
  mark_list(file, len, libcudacxx_headers, LIBCUDACXX_HEADERS, &read[2]);
}

/* Whether the word before text[k] (on its line) is `using`. */
static int after_using(const char *text, size_t k) {
  while (k > 0 && (text[k - 1] == ' ' || text[k - 1] == '\t'))
    k--;
  return k >= 5 && memcmp(text + k - 5, "using", 5) == 0 &&
         (k == 5 || !cuemu__ident_char(text[k - 6]));
}

int cuemu__unit_needs_cccl_brings(const char *text, size_t size,
                                  const char *const *skip, int nskip) {
  static const char brings[] = "cuemu_cccl_brings.h\"";
  int reads_brings = 0, names = 0, user = 1;
  const int all = CUEMU_CCCL_BRINGS_FLOATS | CUEMU_CCCL_BRINGS_LIBRARIES |
                  CUEMU_CCCL_BRINGS_STD;
  unsigned read[3] = {0, 0, 0}; /* the headers of each kind already read */
  cuemu_marker_reader reader = {.skip = skip, .nskip = nskip};
  for (size_t i = 0; i < size && !(reads_brings && names == all);) {
    const char *eol = memchr(text + i, '\n', size - i);
    const size_t n = eol ? (size_t)(eol - (text + i)) : size - i;
    const char *line = text + i;
    cuemu_user_marker m;
    if (cuemu__read_user_marker(&reader, line, n, &m)) {
      user = m.user && !m.system;
      if (!reads_brings && n > sizeof brings &&
          memmem(line, n, brings, sizeof brings - 1))
        reads_brings = 1;
      mark_read(m.file, m.file_len, read);
    } else if (user && names != all) {
      for (size_t k = i; k < i + n; ++k) {
        size_t end;
        if (!identifier_at(text, i + n, k, &end))
          continue;
        size_t after = skip_blanks(text, size, end);
        const int scoped =
            after + 1 < size && text[after] == ':' && text[after + 1] == ':';
        if (word_is(text, k, end, "cuda") && scoped) {
          names |= CUEMU_CCCL_BRINGS_LIBRARIES;
        } else if (word_is(text, k, end, "std") && scoped) {
          size_t name = skip_blanks(text, size, after + 2), name_end;
          if (identifier_at(text, size, name, &name_end))
            for (int w = 0; brought_std_names[w]; ++w)
              if (word_is(text, name, name_end, brought_std_names[w]))
                names |= CUEMU_CCCL_BRINGS_STD;
        } else if (word_is(text, k, end, "namespace") && after_using(text, k)) {
          size_t name = skip_blanks(text, size, end), name_end;
          if (identifier_at(text, size, name, &name_end) &&
              word_is(text, name, name_end, "std"))
            names |= CUEMU_CCCL_BRINGS_STD;
        } else if (float_name(text, k, end)) {
          names |= CUEMU_CCCL_BRINGS_FLOATS;
        }
        k = end - 1;
      }
    }
    i += n + 1;
  }
  /* What the unit reads already needs no second preprocessing. */
  if (read[0] == (1u << FLOAT_HEADERS) - 1)
    names &= ~CUEMU_CCCL_BRINGS_FLOATS;
  if (read[1] == (1u << STD_HEADERS) - 1)
    names &= ~CUEMU_CCCL_BRINGS_STD;
  if (read[1] == (1u << STD_HEADERS) - 1 &&
      read[2] == (1u << LIBCUDACXX_HEADERS) - 1)
    names &= ~CUEMU_CCCL_BRINGS_LIBRARIES;
  cuemu__marker_reader_free(&reader);
  return reads_brings ? names : 0;
}
