/*
 * check_rewrite.c: tests of cuemu-cc's lexer and source rewriter
 * (emulator/compile/cuemu_lexer.h, cuemu_rewrite.h).
 *
 * Every rewrite is checked against the exact expected text, and every
 * successful rewrite is checked to keep the input's line count. The last
 * test rewrites every .cu file of tests/kernels and, recursively, of
 * examples, under $CUEMU_SRCDIR (default ".").
 */
#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cuemu_lexer.h"
#include "cuemu_rewrite.h"
#include "cuemu_test_util.h"

/* ---- Helpers ------------------------------------------------------------- */

static size_t count_newlines(const char *s, size_t n) {
  size_t k, lines = 0;
  for (k = 0; k < n; k++)
    if (s[k] == '\n') lines++;
  return lines;
}

/* Rewrites src, which must succeed and keep its line count. */
static cuemu_rewrite rewrite_ok(const char *src) {
  cuemu_rewrite r;
  size_t n = strlen(src);
  cuemu_status st = cuemu__rewrite_source(src, n, "t.cu", &r);
  ck_assert_msg(st == CUEMU_SUCCESS, "status %d: %s", (int)st, r.message);
  ck_assert_ptr_nonnull(r.text);
  ck_assert_uint_eq(strlen(r.text), r.length);
  ck_assert_uint_eq(count_newlines(r.text, r.length), count_newlines(src, n));
  return r;
}

static void expect(const char *src, const char *expected) {
  cuemu_rewrite r = rewrite_ok(src);
  ck_assert_str_eq(r.text, expected);
  cuemu__rewrite_free(&r);
}

static void unchanged(const char *src) { expect(src, src); }

/* Rewrites src, which must fail with CUEMU_COMPILE and this message. */
static void expect_error(const char *src, const char *message) {
  cuemu_rewrite r;
  cuemu_status st = cuemu__rewrite_source(src, strlen(src), "bad.cu", &r);
  ck_assert_int_eq(st, CUEMU_COMPILE);
  ck_assert_ptr_null(r.text);
  ck_assert_ptr_null(r.kernels);
  ck_assert_str_eq(r.message, message);
  cuemu__rewrite_free(&r);
}

static const cuemu_kernel_decl *find_kernel(const cuemu_rewrite *r,
                                            const char *name) {
  int i;
  for (i = 0; i < r->kernel_count; i++)
    if (!strcmp(r->kernels[i].name, name)) return &r->kernels[i];
  return NULL;
}

static void check_kernel(const cuemu_rewrite *r, int index, const char *name,
                         int is_template, int is_extern_c, int is_definition,
                         int line) {
  const cuemu_kernel_decl *k;
  ck_assert_int_lt(index, r->kernel_count);
  k = &r->kernels[index];
  ck_assert_str_eq(k->name, name);
  ck_assert_int_eq(k->is_template, is_template);
  ck_assert_int_eq(k->is_extern_c, is_extern_c);
  ck_assert_int_eq(k->is_definition, is_definition);
  ck_assert_int_eq(k->line, line);
}

#define SHARED_TAIL " __asm__(\"cuemu_dynamic_shared\") CUEMU_TLS_IE __attribute__((unused));"

/* ---- Lexer --------------------------------------------------------------- */

static size_t lex(const char *src, cuemu_token_list *list) {
  cuemu_status st = cuemu__lex(src, strlen(src), list);
  ck_assert_int_eq(st, CUEMU_SUCCESS);
  return list->count;
}

START_TEST(lexer_kinds) {
  static const char src[] =
      "u8\"a\" L'b' x 1'000'000 0x1.8p+3f .5e-3 R\"d(x)\"y\" )d\" a::b->c\n"
      "  # define X \\\n  2 /* c\n */ 3\n"
      "'\\'' \"s\"_sv // end";
  static const struct {
    cuemu_token_kind kind;
    const char *text;
    int line;
  } want[] = {
      {CUEMU_TOKEN_STRING, "u8\"a\"", 1}, {CUEMU_TOKEN_CHAR, "L'b'", 1},
      {CUEMU_TOKEN_IDENT, "x", 1},        {CUEMU_TOKEN_NUMBER, "1'000'000", 1},
      {CUEMU_TOKEN_NUMBER, "0x1.8p+3f", 1}, {CUEMU_TOKEN_NUMBER, ".5e-3", 1},
      {CUEMU_TOKEN_STRING, "R\"d(x)\"y\" )d\"", 1},
      {CUEMU_TOKEN_IDENT, "a", 1},        {CUEMU_TOKEN_PUNCT, "::", 1},
      {CUEMU_TOKEN_IDENT, "b", 1},        {CUEMU_TOKEN_PUNCT, "->", 1},
      {CUEMU_TOKEN_IDENT, "c", 1},
      {CUEMU_TOKEN_DIRECTIVE, "# define X \\\n  2 /* c\n */ 3", 2},
      {CUEMU_TOKEN_CHAR, "'\\''", 5},     {CUEMU_TOKEN_STRING, "\"s\"_sv", 5},
      {CUEMU_TOKEN_COMMENT, "// end", 5},
  };
  cuemu_token_list list;
  size_t k, n = lex(src, &list);
  ck_assert_uint_eq(n, sizeof want / sizeof want[0]);
  for (k = 0; k < n; k++) {
    const cuemu_token *t = &list.tokens[k];
    ck_assert_int_eq(t->kind, want[k].kind);
    ck_assert_uint_eq(t->length, strlen(want[k].text));
    ck_assert_msg(!memcmp(src + t->offset, want[k].text, t->length),
                  "token %u is '%.*s'", (unsigned)k, (int)t->length,
                  src + t->offset);
    ck_assert_int_eq(t->line, want[k].line);
  }
  ck_assert(list.tokens[13].flags & CUEMU_TOKEN_AFTER_DIRECTIVE);
  cuemu__token_list_free(&list);
}
END_TEST

START_TEST(lexer_splices) {
  static const char src[] = "__glo\\\nbal__ x // a \\\n b\ny";
  cuemu_token_list list;
  size_t n = lex(src, &list);
  char buf[32];
  ck_assert_uint_eq(n, 4);
  ck_assert(list.tokens[0].flags & CUEMU_TOKEN_SPLICED);
  ck_assert(cuemu__token_is(src, &list.tokens[0], "__global__"));
  ck_assert_uint_eq(cuemu__token_spelling(src, &list.tokens[0], buf, sizeof buf),
                    10);
  ck_assert_str_eq(buf, "__global__");
  ck_assert_int_eq(list.tokens[1].line, 2);
  ck_assert_int_eq(list.tokens[2].kind, CUEMU_TOKEN_COMMENT);
  ck_assert(cuemu__token_is(src, &list.tokens[3], "y"));
  ck_assert_int_eq(list.tokens[3].line, 4);
  cuemu__token_list_free(&list);
}
END_TEST

START_TEST(lexer_lenient_directives) {
  /* Unbalanced quotes inside directives are not errors. */
  static const char src[] = "#error it's \"broken\n#include <a'b>\nint x;\n";
  cuemu_token_list list;
  ck_assert_uint_eq(lex(src, &list), 5);
  ck_assert_int_eq(list.tokens[0].kind, CUEMU_TOKEN_DIRECTIVE);
  ck_assert_int_eq(list.tokens[1].kind, CUEMU_TOKEN_DIRECTIVE);
  ck_assert_int_eq(list.tokens[2].line, 3);
  cuemu__token_list_free(&list);
}
END_TEST

START_TEST(lexer_byte_order_mark) {
  /* A UTF-8 byte-order mark before the first line is skipped: the #include
   * after it is a directive at the start of line 1 (a file saved on Windows
   * that includes <cstdio> there got a warning that printf was undeclared). */
  static const char src[] = "\xef\xbb\xbf#include <cstdio>\r\nint x;\r\n";
  cuemu_token_list list;
  ck_assert_uint_eq(lex(src, &list), 4);
  ck_assert_int_eq(list.tokens[0].kind, CUEMU_TOKEN_DIRECTIVE);
  ck_assert_uint_eq(list.tokens[0].offset, 3);
  ck_assert_int_eq(list.tokens[0].line, 1);
  ck_assert_int_eq(list.tokens[1].line, 2);
  cuemu__token_list_free(&list);
  /* Elsewhere the bytes stay part of an identifier, as before. */
  ck_assert_uint_eq(lex("int \xef\xbb\xbfx;", &list), 3);
  cuemu__token_list_free(&list);
}
END_TEST

/* ---- Text that must not change ------------------------------------------ */

START_TEST(untouched_comments_and_literals) {
  static const char src[] =
      "// k<<<1, 1>>>(); extern __shared__ float a[]; __global__ void c1();\n"
      "/* k<<<1, 1>>>();\n"
      "   extern __shared__ float b[];\n"
      "   __global__ void c2(); __noinline__ */\n"
      "const char *s = \"k<<<1, 1>>>() extern __shared__ float c[];\";\n"
      "const char *t = u8\"__global__ void c3() \\\" <<<\";\n"
      "const char *u = R\"x(k<<<1,1>>>() )\" extern __shared__ int d[];\n"
      "__global__ void c4() {} )x\";\n"
      "const wchar_t *v = LR\"(<<<)\";\n"
      "char w = '<', x = u8'<', y = L'\"';\n"
      "int z = 1'000 << 2 < 3;\n"
      "// a spliced comment \\\n"
      "k<<<1, 1>>>();\n";
  cuemu_rewrite r = rewrite_ok(src);
  ck_assert_str_eq(r.text, src);
  ck_assert_int_eq(r.kernel_count, 0);
  cuemu__rewrite_free(&r);
}
END_TEST

START_TEST(launches_in_macro_bodies) {
  /* A launch in a #define body becomes a launch_dynamic (the body knows no
   * kernels); a body with line splices is put on one line, and the lines
   * it covered follow as blank lines, so the line count is unchanged. */
  expect("#define LAUNCH(k, n) k<<<n, 1>>>()\n"
         "#define BIG(k) \\\n"
         "  k<<<1,  \\\n"
         "   1>>>()\n"
         "int x;\n",
         "#define LAUNCH(k, n) ::cuemu::launch_dynamic(k, n, 1)()\n"
         "#define BIG(k)   ::cuemu::launch_dynamic(k, 1,     1)()\n"
         "\n"
         "\n"
         "int x;\n");
  /* A #define without a launch is untouched. */
  unchanged("#define SMEM_BYTES (256 * 4)\n");
  /* Nor is one whose `<< <` or `<<<` names a template operator, or whose
   * `>>` and `>>>` are a shift or close template argument lists. */
  unchanged("#define FRIEND(T) friend std::ostream &operator<< <T>("
            "std::ostream &, const W<T> &);\n"
            "#define FRIEND2(T) friend std::ostream &operator<<<T>("
            "std::ostream &, const W<T> &);\n"
            "#define FRIEND3(T) friend W<T> operator<< < T >(W<T>, int);\n"
            "#define SHIFT_CMP(a, b, c) ((a) < (b) >> (c))\n"
            "#define NEST std::vector<std::vector<std::vector<int>>>\n"
            "#define CMP3(a, b) (a < b >>> 1)\n"
            "int x;\n");
  /* A launch beside a template operator in one body is still a launch. */
  expect("#define BOTH(k) os.operator<< <int>(1); k<<<1, 2>>>()\n",
         "#define BOTH(k) os.operator<< <int>(1); "
         "::cuemu::launch_dynamic(k, 1, 2)()\n");
}
END_TEST

START_TEST(untouched_directives) {
  /* Other directives are left alone, even with `<<<` in a comment. */
  unchanged("  #  if 0 // k<<<\n"
            "#endif /* extern __shared__ float s[];\n"
            "  __global__ void k(); */\n"
            "#pragma unroll\n"
            "int x;\n");
}
END_TEST

START_TEST(untouched_plain_code) {
  unchanged("");
  unchanged("int x");
  unchanged("\r\n\r\nint main() { return 1 << 3 >> 1; }\r\n");
  unchanged("template <class T> struct S { S<S<T>> *p; };\n"
            "std::vector<std::vector<int>> v; a < b && c > d;\n"
            "std::cout << x << std::endl; auto y = a >> 3;\n"
            "__shared__ float tile[32][33];\n"
            "extern __shared__ float sized[64];\n"
            "__attribute__((__noinline__)) void f();\n"
            "struct X { void operator<<(int); };\n"
            "template <class T> void operator<<<int>(X &, T);\n");
}
END_TEST

/* ---- extern __shared__ --------------------------------------------------- */

START_TEST(shared_basic) {
  expect("extern __shared__ float s[];\n",
         "extern __thread float (&s)[]" SHARED_TAIL "\n");
  expect("void f() {\n  extern __shared__ unsigned char smem[];\n}\n",
         "void f() {\n  extern __thread unsigned char (&smem)[]" SHARED_TAIL
         "\n}\n");
  expect("extern __shared__ const volatile int a[] ; // tail\n",
         "extern __thread const volatile int (&a)[]" SHARED_TAIL " // tail\n");
  expect("volatile extern __shared__ double v[];",
         "extern __thread volatile double (&v)[]" SHARED_TAIL);
  expect("__shared__ extern int e[];", "extern __thread int (&e)[]" SHARED_TAIL);
}
END_TEST

START_TEST(shared_alignment) {
  expect("extern __shared__ __align__(16) float a[];",
         "extern __thread float (&a)[]" SHARED_TAIL);
  expect("extern __shared__ alignas(16) float b[];",
         "extern __thread float (&b)[]" SHARED_TAIL);
  expect("extern __shared__ __attribute__((aligned(16))) float c[];",
         "extern __thread float (&c)[]" SHARED_TAIL);
  expect("extern __shared__ float d[] __align__(32);",
         "extern __thread float (&d)[]" SHARED_TAIL);
  expect("extern __shared__ float e[] __attribute__((aligned(32)));",
         "extern __thread float (&e)[]" SHARED_TAIL);
  expect("alignas(8) extern __shared__ float f[];",
         "extern __thread float (&f)[]" SHARED_TAIL);
  expect("extern __shared__ [[gnu::aligned(16)]] float g[];",
         "extern __thread float (&g)[]" SHARED_TAIL);
  expect("extern __shared__ __align__(sizeof(T)) unsigned char h[];",
         "extern __thread unsigned char (&h)[]" SHARED_TAIL);
}
END_TEST

START_TEST(shared_types) {
  expect("template <class T> __global__ void k() {\n"
         "  extern __shared__ T t[];\n"
         "  extern __shared__ typename X<T>::type u[];\n"
         "  extern __shared__ std::pair<int, T> p[];\n"
         "  extern __shared__ float *q[];\n"
         "}\n",
         "template <class T> __global__ void k() {\n"
         "  extern __thread T (&t)[]" SHARED_TAIL "\n"
         "  extern __thread typename X<T>::type (&u)[]" SHARED_TAIL "\n"
         "  extern __thread std::pair<int, T> (&p)[]" SHARED_TAIL "\n"
         "  extern __thread float * (&q)[]" SHARED_TAIL "\n"
         "}\n");
}
END_TEST

START_TEST(shared_multidim_and_several) {
  expect("extern __shared__ float tile[][33];",
         "extern __thread float (&tile)[][33]" SHARED_TAIL);
  expect("extern __shared__ int cube[][4][N + 1];",
         "extern __thread int (&cube)[][4][N + 1]" SHARED_TAIL);
  expect("extern __shared__ float a[], b[];",
         "extern __thread float (&a)[]" SHARED_TAIL
         " extern __thread float (&b)[]" SHARED_TAIL);
  expect("extern __shared__ __align__(16) float a[] __align__(16), *b[], "
         "c[][2];",
         "extern __thread float (&a)[]" SHARED_TAIL
         " extern __thread float *(&b)[]" SHARED_TAIL
         " extern __thread float (&c)[][2]" SHARED_TAIL);
}
END_TEST

/* Not an array: nvcc's "treated as a static definition", a __shared__
 * variable of its own (its `extern` dropped), in either order. */
START_TEST(shared_extern_object) {
  expect("extern __shared__ int x;\n", " __shared__ int x;\n");
  expect("__shared__ extern Pair p;\n", "__shared__  Pair p;\n");
}
END_TEST

START_TEST(shared_multiline) {
  expect("  extern __shared__\n"
         "    float /* x\n y */ s[]\n"
         "    ;\nint z;\n",
         "  extern __thread float (&s)[]" SHARED_TAIL "\n\n\n\nint z;\n");
}
END_TEST

START_TEST(shared_not_rewritten) {
  unchanged("__shared__ float s[32];\n");
  unchanged("static __shared__ int s[4];\n");
  unchanged("extern __shared__ float s[16];\n");
  unchanged("extern __shared__ float a[], b[8];\n");
  unchanged("#define SMEM extern __shared__ float s[]\n");
}
END_TEST

/* ---- Launches ------------------------------------------------------------ */

static const char kernels_src[] =
    "__global__ void k(int);\n"
    "namespace ns { template <class T, int N> __global__ void t(T); }\n";

/* Rewrites kernels_src followed by body; compares the part after it. */
static void expect_launch(const char *body, const char *expected) {
  char src[2048], want[2048];
  snprintf(src, sizeof src, "%s%s", kernels_src, body);
  snprintf(want, sizeof want, "%s%s", kernels_src, expected);
  expect(src, want);
}

START_TEST(launch_static_and_dynamic) {
  expect_launch("k<<<1, 2>>>(3);", "::cuemu::launch_static<CUEMU_KERNEL_ARGS(k)>(1, 2)(3);");
  expect_launch("k <<< g, b, s, st >>> (3);",
                "::cuemu::launch_static<CUEMU_KERNEL_ARGS(k )>( g, b, s, st ) (3);");
  expect_launch("::k<<<1, 2>>>(3);", "::cuemu::launch_static<CUEMU_KERNEL_ARGS(::k)>(1, 2)(3);");
  expect_launch("other<<<1, 2>>>(3);",
                "::cuemu::launch_dynamic(other, 1, 2)(3);");
  expect_launch("(*fp)<<<1, 2>>>(3);",
                "::cuemu::launch_dynamic((*fp), 1, 2)(3);");
  expect_launch("if (c) (*fp)<<<1, 2>>>(3);",
                "if (c) ::cuemu::launch_dynamic((*fp), 1, 2)(3);");
  expect_launch("obj.k<<<1, 2>>>(3);",
                "::cuemu::launch_dynamic(obj.k, 1, 2)(3);");
  expect_launch("p->q.k<<<1, 2>>>(3);",
                "::cuemu::launch_dynamic(p->q.k, 1, 2)(3);");
  expect_launch("table[i][j]<<<1, 2>>>(3);",
                "::cuemu::launch_dynamic(table[i][j], 1, 2)(3);");
  expect_launch("get(x)<<<1, 2>>>(3);",
                "::cuemu::launch_dynamic(get(x), 1, 2)(3);");
  expect_launch("return k<<<1, 2>>>(3);",
                "return ::cuemu::launch_static<CUEMU_KERNEL_ARGS(k)>(1, 2)(3);");
}
END_TEST

START_TEST(launch_templates) {
  /* A template-id's address is taken too, so that g++ makes the instance
   * where the launch is in a template but its arguments are not
   * dependent. */
  expect_launch("ns::t<float, 3><<<1, 2>>>(x);",
                "((void)&ns::t<float, 3>, "
                "::cuemu::launch_static<CUEMU_KERNEL_ARGS(ns::t<float, 3>)>(1, 2))(x);");
  expect_launch("ns::t<A<B<int>>, (3 > 2)><<<1, 2>>>(x);",
                "((void)&ns::t<A<B<int>>, (3 > 2)>, "
                "::cuemu::launch_static<CUEMU_KERNEL_ARGS(ns::t<A<B<int>>, (3 > 2)>)>(1, 2))(x);");
  expect_launch("ns::t<std::map<int, V<W>>, (sizeof(T) >> 1)><<<1, 2>>>(x);",
                "((void)&ns::t<std::map<int, V<W>>, (sizeof(T) >> 1)>, "
                "::cuemu::launch_static<CUEMU_KERNEL_ARGS(ns::t<std::map<int, V<W>>, "
                "(sizeof(T) >> 1)>)>(1, 2))(x);");
  expect_launch("::ns::t<T, N><<<g, b>>>(x);",
                "((void)&::ns::t<T, N>, "
                "::cuemu::launch_static<CUEMU_KERNEL_ARGS(::ns::t<T, N>)>(g, b))(x);");
  expect_launch("fps<float>[0]<<<1, 2>>>(x);",
                "::cuemu::launch_dynamic(fps<float>[0], 1, 2)(x);");
  expect("template <class T> __global__ void tk(T);\n"
         "template <class T> void run(T x) {\n"
         "  tk<T><<<1, 1>>>(x);\n"
         "  auto l = [&] { tk<T><<<2, 2>>>(x); };\n"
         "}\n",
         "template <class T> __global__ void tk(T);\n"
         "template <class T> void run(T x) {\n"
         "  ((void)&tk<T>, ::cuemu::launch_static<CUEMU_KERNEL_ARGS(tk<T>)>(1, 1))(x);\n"
         "  auto l = [&] { ((void)&tk<T>, "
         "::cuemu::launch_static<CUEMU_KERNEL_ARGS(tk<T>)>(2, 2))(x); };\n"
         "}\n");
}
END_TEST

START_TEST(launch_configs) {
  expect_launch("k<<<(n >> 1), 256>>>(x);",
                "::cuemu::launch_static<CUEMU_KERNEL_ARGS(k)>((n >> 1), 256)(x);");
  expect_launch("k<<<dim3((n + 255) >> 8, 1), dim3{256, 1}, n * sizeof(float),"
                " streams[i >> 1]>>>(x);",
                "::cuemu::launch_static<CUEMU_KERNEL_ARGS(k)>(dim3((n + 255) >> 8, 1), "
                "dim3{256, 1}, n * sizeof(float), streams[i >> 1])(x);");
  expect_launch("k<<<f(a, b), g(c)>>>(x, y);",
                "::cuemu::launch_static<CUEMU_KERNEL_ARGS(k)>(f(a, b), g(c))(x, y);");
  expect_launch("k<<<1, 1>>>(k2<<<1, 1>>>, y);",
                "::cuemu::launch_static<CUEMU_KERNEL_ARGS(k)>(1, 1)(::cuemu::launch_dynamic(k2, "
                "1, 1), y);");
}
END_TEST

START_TEST(launch_multiline) {
  expect_launch("ns::t<float,\n"
                "      3>\n"
                "    <<<grid,\n"
                "       block, // the block\n"
                "       0>>>(\n"
                "  x,\n"
                "  y);\n",
                "((void)&ns::t<float, 3>, ::cuemu::launch_static<CUEMU_KERNEL_ARGS(ns::t<float,\n"
                "      3>\n"
                "    )>(grid,\n"
                "       block, // the block\n"
                "       0))(\n"
                "  x,\n"
                "  y);\n");
  expect_launch("k<<<1,\n#if BIG\n 512\n#else\n 32\n#endif\n>>>(x);",
                "::cuemu::launch_static<CUEMU_KERNEL_ARGS(k)>(1,\n#if BIG\n 512\n#else\n 32\n"
                "#endif\n)(x);");
}
END_TEST

START_TEST(launch_before_declaration) {
  /* Only kernels declared earlier in the file launch statically. */
  expect("void h() { late<<<1, 1>>>(); }\n__global__ void late() {}\n"
         "void g() { late<<<1, 1>>>(); }\n",
         "void h() { ::cuemu::launch_dynamic(late, 1, 1)(); }\n"
         "__global__ void late() {}\n"
         "void g() { ::cuemu::launch_static<CUEMU_KERNEL_ARGS(late)>(1, 1)(); }\n");
}
END_TEST

/* ---- __noinline__ -------------------------------------------------------- */

START_TEST(noinline) {
  expect("__device__ __noinline__ int f();\n",
         "__device__ __attribute__((noinline)) int f();\n");
  unchanged("__attribute__((__noinline__)) int g();\n");
  unchanged("__attribute__((cold, __noinline__)) int g();\n");
  unchanged("int __noinline__x;\n");
}
END_TEST

/* ---- Kernel discovery ---------------------------------------------------- */

START_TEST(kernels_namespaces) {
  static const char src[] =
      "__global__ void top(int *p) { p[0] = 1; }\n"                 /* 1 */
      "namespace a {\n"                                              /* 2 */
      "__global__ void k1();\n"                                      /* 3 */
      "namespace b::c { __global__ void k2() {} }\n"                 /* 4 */
      "inline namespace v1 { __global__ void k3(); }\n"              /* 5 */
      "namespace { __global__ void k4() {} }\n"                      /* 6 */
      "namespace [[deprecated]] d { __global__ void k5(); }\n"       /* 7 */
      "}\n"                                                          /* 8 */
      "namespace e = a::b;\n"                                        /* 9 */
      "namespace a { namespace f { __global__ void k6(); } }\n"      /* 10 */
      "__global__ void a::k1() {}\n";                                /* 11 */
  cuemu_rewrite r = rewrite_ok(src);
  ck_assert_int_eq(r.kernel_count, 7);
  check_kernel(&r, 0, "top", 0, 0, 1, 1);
  check_kernel(&r, 1, "a::k1", 0, 0, 1, 11);
  check_kernel(&r, 2, "a::b::c::k2", 0, 0, 1, 4);
  check_kernel(&r, 3, "a::v1::k3", 0, 0, 0, 5);
  check_kernel(&r, 4, "a::k4", 0, 0, 1, 6);
  check_kernel(&r, 5, "a::d::k5", 0, 0, 0, 7);
  check_kernel(&r, 6, "a::f::k6", 0, 0, 0, 10);
  cuemu__rewrite_free(&r);
}
END_TEST

START_TEST(kernels_extern_c) {
  static const char src[] =
      "extern \"C\" {\n"                                             /* 1 */
      "__global__ void c1(unsigned *f);\n"                           /* 2 */
      "namespace n { __global__ void c2() {} }\n"                    /* 3 */
      "extern \"C++\" { __global__ void cpp1(); }\n"                 /* 4 */
      "}\n"                                                          /* 5 */
      "extern \"C\" __global__ void c3() {}\n"                       /* 6 */
      "extern \"C\" { __global__ void c4(); }\n"                     /* 7 */
      "__global__ void c4() {}\n"                                    /* 8 */
      "__global__ void c1(unsigned *f) { *f = 0; }\n";               /* 9 */
  cuemu_rewrite r = rewrite_ok(src);
  ck_assert_int_eq(r.kernel_count, 5);
  check_kernel(&r, 0, "c1", 0, 1, 1, 9);
  check_kernel(&r, 1, "n::c2", 0, 1, 1, 3);
  check_kernel(&r, 2, "cpp1", 0, 0, 0, 4);
  check_kernel(&r, 3, "c3", 0, 1, 1, 6);
  check_kernel(&r, 4, "c4", 0, 1, 1, 8);
  cuemu__rewrite_free(&r);
}
END_TEST

START_TEST(kernels_decorations) {
  static const char src[] =
      "template <typename T, int N = (3 > 2)>\n"                           /* 1 */
      "__global__ void __launch_bounds__(256, 2) t1(T *p) {}\n"            /* 2 */
      "static __global__ void s1() {}\n"                                   /* 3 */
      "inline __global__ void i1();\n"                                     /* 4 */
      "void __global__ o1() {}\n"                                          /* 5 */
      "[[maybe_unused]] __global__ __attribute__((used)) void a1()\n"      /* 6 */
      "  __attribute__((cold)) {}\n"                                       /* 7 */
      "__global__ __launch_bounds__(128) void\n"                           /* 8 */
      "  multi_line(int x,\n"                                              /* 9 */
      "             int y);\n"                                             /* 10 */
      "template <> __global__ void t1<float>(float *p) {}\n"               /* 11 */
      "template <class T> __global__ void t2(T) __attribute__((cold));\n"  /* 12 */
      "struct S { void m() { __global__ void inside(); } };\n"             /* 13 */
      "void host() { if (1) { } }\n"                                       /* 14 */
      "__global__ void after_host(float *__restrict__ p,\n"                /* 15 */
      "                           const int n) { p[0] = n; }\n";           /* 16 */
  cuemu_rewrite r = rewrite_ok(src);
  ck_assert_int_eq(r.kernel_count, 8);
  check_kernel(&r, 0, "t1", 1, 0, 1, 2);
  check_kernel(&r, 1, "s1", 0, 0, 1, 3);
  check_kernel(&r, 2, "i1", 0, 0, 0, 4);
  check_kernel(&r, 3, "o1", 0, 0, 1, 5);
  check_kernel(&r, 4, "a1", 0, 0, 1, 6);
  check_kernel(&r, 5, "multi_line", 0, 0, 0, 9);
  check_kernel(&r, 6, "t2", 1, 0, 0, 12);
  check_kernel(&r, 7, "after_host", 0, 0, 1, 15);
  ck_assert_ptr_null(find_kernel(&r, "inside"));
  cuemu__rewrite_free(&r);
}
END_TEST

START_TEST(kernels_prototype_then_definition) {
  static const char src[] =
      "__global__ void saxpy(int n, float a, const float *x, float *y);\n"
      "int main() {\n"
      "  saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);\n"
      "}\n"
      "__global__ void saxpy(int n, float a, const float *x, float *y) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < n) y[i] = a * x[i] + y[i];\n"
      "}\n";
  cuemu_rewrite r = rewrite_ok(src);
  ck_assert_int_eq(r.kernel_count, 1);
  check_kernel(&r, 0, "saxpy", 0, 0, 1, 5);
  ck_assert_ptr_nonnull(
      strstr(r.text, "::cuemu::launch_static<CUEMU_KERNEL_ARGS(saxpy)>((n + 255) / 256, 256)("));
  cuemu__rewrite_free(&r);
}
END_TEST

START_TEST(kernels_in_conditional_branches) {
  /* Each branch opens the namespace; only one closes it. */
  static const char src[] = "#ifdef X\n"
                            "namespace p {\n"
                            "#else\n"
                            "namespace p {\n"
                            "#endif\n"
                            "__global__ void k() {}\n"
                            "}\n";
  cuemu_rewrite r = rewrite_ok(src);
  ck_assert_int_eq(r.kernel_count, 1);
  /* Braces in #else and #elif branches are not counted: the name is
   * qualified once. */
  check_kernel(&r, 0, "p::k", 0, 0, 1, 6);
  cuemu__rewrite_free(&r);
}
END_TEST

START_TEST(kernels_and_rewrites_in_else_branches) {
  /* Constructs in #else branches are rewritten and their kernels found. */
  static const char src[] =
      "#if FAST\n"                                                  /* 1 */
      "__global__ void k(float *p) { extern __shared__ float s[]; }\n"
      "#else\n"                                                     /* 3 */
      "__global__ void k(float *p) {\n"                             /* 4 */
      "  extern __shared__ double d[];\n"                           /* 5 */
      "}\n"                                                         /* 6 */
      "__global__ void slow() {}\n"                                 /* 7 */
      "#endif\n"                                                    /* 8 */
      "void h(float *p) { k<<<1, 1>>>(p); }\n";                    /* 9 */
  cuemu_rewrite r = rewrite_ok(src);
  ck_assert_int_eq(r.kernel_count, 2);
  check_kernel(&r, 0, "k", 0, 0, 1, 2);
  check_kernel(&r, 1, "slow", 0, 0, 1, 7);
  ck_assert_ptr_nonnull(strstr(r.text, "extern __thread float (&s)[]"));
  ck_assert_ptr_nonnull(strstr(r.text, "extern __thread double (&d)[]"));
  ck_assert_ptr_nonnull(strstr(r.text, "::cuemu::launch_static<CUEMU_KERNEL_ARGS(k)>(1, 1)(p);"));
  cuemu__rewrite_free(&r);
}
END_TEST

START_TEST(kernels_none) {
  cuemu_rewrite r =
      rewrite_ok("struct S { friend __global__ void f(); };\n"
                 "void g() { __global__ void h(); }\n");
  ck_assert_int_eq(r.kernel_count, 0);
  cuemu__rewrite_free(&r);
}
END_TEST

/* ---- Errors -------------------------------------------------------------- */

START_TEST(errors) {
  expect_error("int a;\n\nk<<<1, 2(x);\n",
               "bad.cu:3: unterminated kernel launch: '<<<' without a "
               "matching '>>>'");
  expect_error("void f() {\n k<<<1, 2;\n}\n",
               "bad.cu:2: unterminated kernel launch: '<<<' without a "
               "matching '>>>'");
  expect_error("k<<<1, 2>>",
               "bad.cu:1: unterminated kernel launch: '<<<' without a "
               "matching '>>>'");
  expect_error("\nk<<<1>>>();\n",
               "bad.cu:2: kernel launch configuration needs a grid and a "
               "block");
  expect_error("x = <<<1, 1>>>();\n",
               "bad.cu:1: kernel launch '<<<' without a kernel");
  expect_error("struct S {\n  __global__ void f();\n};\n",
               "bad.cu:2: A __global__ function or function template cannot "
               "be a member function");
  expect_error("int a;\n/* open\n\n", "bad.cu:2: unterminated comment");
  expect_error("int a;\n\nconst char *s = \"abc\n\";\n",
               "bad.cu:3: unterminated string literal");
  expect_error("char c = 'x;\n", "bad.cu:1: unterminated character literal");
  expect_error("\n\nauto s = R\"d(abc)e\";\n",
               "bad.cu:3: unterminated raw string literal");
  expect_error("auto s = R\"a b(x)a b\";\n",
               "bad.cu:1: invalid raw string delimiter");
  expect_error("#define X 1 /* never closed\n",
               "bad.cu:1: unterminated comment");
  expect_error("void f() {\n  extern __shared__\n#if 1\n float\n#endif\n s[];\n}\n",
               "bad.cu:2: cannot rewrite an extern __shared__ declaration "
               "with a preprocessor directive inside it");
}
END_TEST

START_TEST(invalid_arguments) {
  cuemu_rewrite r;
  ck_assert_int_eq(cuemu__rewrite_source("x", 1, "t.cu", NULL),
                   CUEMU_INVALID_VALUE);
  ck_assert_int_eq(cuemu__rewrite_source(NULL, 3, "t.cu", &r),
                   CUEMU_INVALID_VALUE);
  ck_assert_int_eq(cuemu__rewrite_source(NULL, 0, NULL, &r), CUEMU_SUCCESS);
  ck_assert_str_eq(r.text, "");
  cuemu__rewrite_free(&r);
  cuemu__rewrite_free(&r);
  cuemu__rewrite_free(NULL);
  /* The text need not be NUL-terminated: only `length` bytes are read. */
  ck_assert_int_eq(cuemu__rewrite_source("k<<<1,1>>>()garbage", 12, NULL, &r),
                   CUEMU_SUCCESS);
  ck_assert_str_eq(r.text, "::cuemu::launch_dynamic(k, 1,1)()");
  cuemu__rewrite_free(&r);
  ck_assert_int_eq(cuemu__rewrite_source("/*", 2, NULL, &r), CUEMU_COMPILE);
  ck_assert_str_eq(r.message, "<input>:1: unterminated comment");
}
END_TEST

/* ---- Every kernel file of the tree -------------------------------------- */

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcmp(s + n - k, suffix);
}

/* Rewrites every .cu file under dir (recursively when asked); returns the
 * number of files. */
static int rewrite_tree(const char *dir, int recursive) {
  DIR *d = opendir(dir);
  struct dirent *e;
  int files = 0;
  if (!d) return 0;
  while ((e = readdir(d)) != NULL) {
    char path[4096];
    struct stat sb;
    if (e->d_name[0] == '.') continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (stat(path, &sb) != 0) continue;
    if (S_ISDIR(sb.st_mode)) {
      if (recursive) files += rewrite_tree(path, 1);
    } else if (ends_with(e->d_name, ".cu")) {
      size_t length = 0;
      char *text = test_read_text(path, &length);
      cuemu_rewrite r;
      cuemu_status st;
      st = cuemu__rewrite_source(text, length, path, &r);
      ck_assert_msg(st == CUEMU_SUCCESS, "%s: status %d: %s", path, (int)st,
                    r.message);
      ck_assert_msg(count_newlines(r.text, r.length) ==
                        count_newlines(text, length),
                    "%s: line count changed", path);
      cuemu__rewrite_free(&r);
      free(text);
      files++;
    }
  }
  closedir(d);
  return files;
}

START_TEST(tree_files) {
  const char *root = getenv("CUEMU_SRCDIR");
  char dir[4096];
  int files;
  if (!root || !*root) root = ".";
  snprintf(dir, sizeof dir, "%s/tests/kernels", root);
  files = rewrite_tree(dir, 0);
  snprintf(dir, sizeof dir, "%s/examples", root);
  files += rewrite_tree(dir, 1);
  printf("check_rewrite: rewrote %d .cu files under %s\n", files, root);
}
END_TEST

/* A decimal literal above LLONG_MAX without a `u` suffix gets ULL: nvcc's
 * type, unsigned long long, where g++ gives __int128. Others are left. */
START_TEST(rewrite_decimal_literals_above_long_long) {
  expect("unsigned long long g = 17492915097719143606 * x;\n",
         "unsigned long long g = 17492915097719143606ULL * x;\n");
  expect("long long m = -9223372036854775808, n = 9223372036854775808LL;\n",
         "long long m = -9223372036854775808ULL, n = 9223372036854775808ULL;\n");
  expect("auto s = 18'446'744'073'709'551'615l;\n",
         "auto s = 18'446'744'073'709'551'615ULL;\n");
  unchanged("long long a = 9223372036854775807, b = 18446744073709551615u,\n"
            "  c = 0xFFFFFFFFFFFFFFFF, d = 99999999999999999999, e = 1.8e19,\n"
            "  f = 17492915097719143606Ul, g = 17492915097719143606lL;\n");
}
END_TEST

Suite *make_rewrite_suite(void) {
  Suite *s = suite_create("rewrite");
  TCase *lexer = tcase_create("lexer");
  TCase *keep = tcase_create("untouched");
  TCase *shared = tcase_create("extern_shared");
  TCase *launch = tcase_create("launch");
  TCase *kernels = tcase_create("kernels");
  TCase *errs = tcase_create("errors");
  TCase *tree = tcase_create("tree");
  TCase *all[] = {lexer, keep, shared, launch, kernels, errs};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
    tcase_set_timeout(all[i], 30);
  tcase_add_test(lexer, lexer_kinds);
  tcase_add_test(lexer, lexer_splices);
  tcase_add_test(lexer, lexer_lenient_directives);
  tcase_add_test(lexer, lexer_byte_order_mark);
  tcase_add_test(keep, untouched_comments_and_literals);
  tcase_add_test(keep, untouched_directives);
  tcase_add_test(keep, launches_in_macro_bodies);
  tcase_add_test(keep, untouched_plain_code);
  tcase_add_test(shared, shared_basic);
  tcase_add_test(shared, shared_alignment);
  tcase_add_test(shared, shared_types);
  tcase_add_test(shared, shared_multidim_and_several);
  tcase_add_test(shared, shared_multiline);
  tcase_add_test(shared, shared_not_rewritten);
  tcase_add_test(shared, shared_extern_object);
  tcase_add_test(launch, launch_static_and_dynamic);
  tcase_add_test(launch, launch_templates);
  tcase_add_test(launch, launch_configs);
  tcase_add_test(launch, launch_multiline);
  tcase_add_test(launch, launch_before_declaration);
  tcase_add_test(launch, noinline);
  tcase_add_test(launch, rewrite_decimal_literals_above_long_long);
  tcase_add_test(kernels, kernels_namespaces);
  tcase_add_test(kernels, kernels_extern_c);
  tcase_add_test(kernels, kernels_decorations);
  tcase_add_test(kernels, kernels_prototype_then_definition);
  tcase_add_test(kernels, kernels_in_conditional_branches);
  tcase_add_test(kernels, kernels_and_rewrites_in_else_branches);
  tcase_add_test(kernels, kernels_none);
  tcase_add_test(errs, errors);
  tcase_add_test(errs, invalid_arguments);
  tcase_add_test(tree, tree_files);
  tcase_set_timeout(tree, 60);
  suite_add_tcase(s, lexer);
  suite_add_tcase(s, keep);
  suite_add_tcase(s, shared);
  suite_add_tcase(s, launch);
  suite_add_tcase(s, kernels);
  suite_add_tcase(s, errs);
  suite_add_tcase(s, tree);
  return s;
}
