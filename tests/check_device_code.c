/*
 * check_device_code.c: what cuemu-cc refuses in device code, with nvcc's
 * words (emulator/compile/cuemu_device_code.c): a kernel launch in a
 * __global__ or __device__ function without relocatable device code,
 * cudaDeviceSynchronize in device code (removed from the device runtime in
 * CUDA 12), the runtime API's other host-only functions (cudaLaunchKernel,
 * cudaMemcpy, ...) in device code, and __cluster_dims__ on a kernel template; and the marks of
 * the device code of -rdc functions that the link names per pass.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "check_suites.h"
#include "cuemu_rewrite.h"

/* Translates src for `pass`; returns the status and leaves the message (or
 * "") in msg. */
static cuemu_status translate(const char *src, enum cuemu_pass pass, int rdc,
                              char *msg, size_t size) {
  cuemu_translate_options opt;
  memset(&opt, 0, sizeof opt);
  opt.pass = pass;
  opt.rdc = rdc;
  cuemu_rewrite r;
  cuemu_status st =
      cuemu__rewrite_preprocessed(src, strlen(src), "dp.cu", &opt, &r);
  snprintf(msg, size, "%s", st == CUEMU_SUCCESS ? "" : r.message);
  cuemu__rewrite_free(&r);
  return st;
}

static const char launch_in_kernel[] =
    "__global__ void child(int *p) { *p = 1; }\n"
    "__global__ void parent(int *p) {\n"
    "  child<<<1, 1>>>(p);\n"
    "}\n";

static const char launch_in_device_function[] =
    "__global__ void child(int *p) { *p = 1; }\n"
    "__device__ void helper(int *p) {\n"
    "  if (p)\n"
    "    child<<<1, 1>>>(p);\n"
    "}\n";

START_TEST(device_launch_needs_rdc) {
  char msg[512];
  ck_assert_int_eq(translate(launch_in_kernel, CUEMU_PASS_DEVICE, 0, msg,
                             sizeof msg),
                   CUEMU_COMPILE);
  ck_assert_ptr_nonnull(strstr(msg, "dp.cu:3: kernel launch from __device__ "
                                    "or __global__ functions requires "
                                    "separate compilation mode"));
  ck_assert_int_eq(translate(launch_in_device_function, CUEMU_PASS_DEVICE, 0,
                             msg, sizeof msg),
                   CUEMU_COMPILE);
  ck_assert_ptr_nonnull(strstr(msg, "dp.cu:4:"));
  /* With -rdc, and in the host pass, the launch is translated. */
  ck_assert_int_eq(translate(launch_in_kernel, CUEMU_PASS_DEVICE, 1, msg,
                             sizeof msg),
                   CUEMU_SUCCESS);
  ck_assert_int_eq(translate(launch_in_kernel, CUEMU_PASS_HOST, 0, msg,
                             sizeof msg),
                   CUEMU_SUCCESS);
  /* A launch from host code needs nothing. */
  ck_assert_int_eq(translate("__global__ void k() {}\n"
                             "void run() { k<<<1, 1>>>(); }\n",
                             CUEMU_PASS_DEVICE, 0, msg, sizeof msg),
                   CUEMU_SUCCESS);
}
END_TEST

START_TEST(device_synchronize_refused) {
  char msg[512];
  const char *in_kernel = "__global__ void k() {\n"
                          "  cudaDeviceSynchronize();\n"
                          "}\n";
  ck_assert_int_eq(translate(in_kernel, CUEMU_PASS_DEVICE, 1, msg, sizeof msg),
                   CUEMU_COMPILE);
  ck_assert_ptr_nonnull(strstr(msg, "dp.cu:2: calling a __host__ "
                                    "function(\"cudaDeviceSynchronize\") "
                                    "from device code is not allowed"));
  /* nvcc 13 compiles the call below sm_90 when the program opts in to the
   * legacy CDP1 (Learn-CUDA-Programming's recursion.cu needs it): the
   * message says that cuemu does not emulate it. */
  ck_assert_ptr_nonnull(strstr(msg, "cuemu does not emulate the legacy CDP1 "
                                    "that nvcc still compiles below sm_90 "
                                    "with -DCUDA_FORCE_CDP1_IF_SUPPORTED"));
  const char *in_device = "__host__ __device__ int f() {\n"
                          "  return cudaDeviceSynchronize();\n"
                          "}\n";
  ck_assert_int_eq(translate(in_device, CUEMU_PASS_DEVICE, 1, msg, sizeof msg),
                   CUEMU_COMPILE);
  /* Host code may synchronise. */
  ck_assert_int_eq(translate("int main() { return cudaDeviceSynchronize(); }\n",
                             CUEMU_PASS_DEVICE, 1, msg, sizeof msg),
                   CUEMU_SUCCESS);
}
END_TEST

START_TEST(host_runtime_calls_refused) {
  char msg[512];
  /* A kernel that launches its children with the host's cudaLaunchKernel,
   * as nvcc 13 refuses with or without -rdc. */
  const char *launch = "__global__ void child(float *d, int n) {}\n"
                       "__global__ void parent(float *d, int n) {\n"
                       "  void *args[] = {&d, &n};\n"
                       "  cudaLaunchKernel((void *)child, dim3(1), dim3(1),\n"
                       "                   args, 0, 0);\n"
                       "}\n";
  for (int rdc = 0; rdc <= 1; ++rdc) {
    ck_assert_int_eq(translate(launch, CUEMU_PASS_DEVICE, rdc, msg, sizeof msg),
                     CUEMU_COMPILE);
    ck_assert_ptr_nonnull(strstr(msg, "dp.cu:4: calling a __host__ "
                                      "function(\"cudaLaunchKernel\") from a "
                                      "__global__ function(\"parent\") is not "
                                      "allowed"));
  }
  /* A device function's copy, and a call through the global scope. */
  ck_assert_int_eq(translate("__device__ void f(int *p) {\n"
                             "  cudaMemcpy(p, p + 1, 4, "
                             "cudaMemcpyDeviceToDevice);\n"
                             "}\n",
                             CUEMU_PASS_DEVICE, 1, msg, sizeof msg),
                   CUEMU_COMPILE);
  ck_assert_ptr_nonnull(strstr(msg, "dp.cu:2: calling a __host__ "
                                    "function(\"cudaMemcpy\") from a "
                                    "__device__ function(\"f\")"));
  ck_assert_int_eq(translate("__global__ void k() { ::cudaStreamSynchronize(0); }\n",
                             CUEMU_PASS_DEVICE, 1, msg, sizeof msg),
                   CUEMU_COMPILE);
  /* A call after a sizeof or inside a call that sizeof's operand is in
   * is made. */
  ck_assert_int_eq(translate("__global__ void k(int *p) {\n"
                             "  int n = sizeof(int) + cudaMemcpy(p, p, 4,\n"
                             "      cudaMemcpyDefault);\n"
                             "  (void)n;\n"
                             "}\n",
                             CUEMU_PASS_DEVICE, 1, msg, sizeof msg),
                   CUEMU_COMPILE);
  /* What the device runtime has, a member or another namespace's function
   * of the same name, a __host__ __device__ function (nvcc's warning, not
   * its error) and host code compile. */
  const char *allowed[] = {
      "__global__ void k(int *p) {\n"
      "  cudaStream_t s;\n"
      "  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);\n"
      "  cudaMemcpyAsync(p, p + 1, 4, cudaMemcpyDeviceToDevice, s);\n"
      "  cudaMalloc((void **)&p, 4); cudaFree(p); cudaGetLastError();\n"
      "}\n",
      "struct Q { void cudaMemcpy(int); };\n"
      "namespace mine { __device__ void cudaMemset(int) {} }\n"
      "__global__ void k(Q *q) { q->cudaMemcpy(1); mine::cudaMemset(2); }\n",
      "__host__ __device__ void f(int *p) { cudaMemset(p, 0, 4); }\n",
      "void run(int *p) { cudaMemset(p, 0, 4); }\n",
      /* Unevaluated operands make no call (nvcc 13 builds these). */
      "__global__ void k(int *p) {\n"
      "  (void)sizeof(cudaLaunchKernel((const void *)0, dim3(), dim3(),\n"
      "                                (void **)0, 0, 0));\n"
      "  decltype(cudaMemcpy(p, p, 4, cudaMemcpyDefault)) e = cudaSuccess;\n"
      "  (void)e;\n"
      "}\n",
      NULL};
  for (int j = 0; allowed[j]; ++j)
    ck_assert_msg(translate(allowed[j], CUEMU_PASS_DEVICE, 1, msg,
                            sizeof msg) == CUEMU_SUCCESS,
                  "refused case %d: %s", j, msg);
}
END_TEST

START_TEST(cluster_dims_of_templates_refused) {
  char msg[512];
  const char *tmpl = "template <typename T>\n"
                     "__global__ void __cluster_dims__(2, 1, 1) k(T *p) {}\n";
  ck_assert_int_eq(translate(tmpl, CUEMU_PASS_DEVICE, 0, msg, sizeof msg),
                   CUEMU_COMPILE);
  ck_assert_ptr_nonnull(strstr(msg, "dp.cu:2: __cluster_dims__ on a kernel "
                                    "template is not supported"));
  const char *plain = "__global__ void __cluster_dims__(2, 1, 1) k(int *p) {}\n";
  ck_assert_int_eq(translate(plain, CUEMU_PASS_DEVICE, 0, msg, sizeof msg),
                   CUEMU_SUCCESS);
}
END_TEST

/* Non-zero when src, translated for `pass` (rdc, a further pass when
 * `variant`), marks `count` declarations protected
 * (cuemu_rewrite.c's host_device_linkage(), host_device_member(),
 * variant_function_template()). */
static int protected_marks(const char *src, enum cuemu_pass pass, int rdc,
                           int variant, int count) {
  cuemu_translate_options opt;
  memset(&opt, 0, sizeof opt);
  opt.pass = pass;
  opt.rdc = rdc;
  opt.variant = variant;
  cuemu_rewrite r;
  if (cuemu__rewrite_preprocessed(src, strlen(src), "hd.cu", &opt, &r) !=
      CUEMU_SUCCESS)
    return 0;
  int n = 0;
  for (const char *p = r.text; (p = strstr(p, "visibility(\"protected\")"));
       ++p)
    ++n;
  cuemu__rewrite_free(&r);
  return n == count;
}

/* With relocatable device code, a device pass names a non-inline
 * __host__ __device__ function's device code apart from its host code:
 * its declarations (a class's member's in the class) are marked; inline,
 * static and template ones, and host passes, are not. A further pass marks
 * a __device__ function template's declaration and a class's __device__
 * member declared without its body. */
START_TEST(host_device_functions_marked) {
  const char *hd = "__host__ __device__ int where();\n"
                   "__device__ __host__ int where() { return 1; }\n"
                   "struct V { __host__ __device__ float twice() const; "
                   "__host__ __device__ float inl() const { return 0; } };\n"
                   "inline __host__ __device__ int in() { return 2; }\n"
                   "static __host__ __device__ int st() { return 3; }\n"
                   "template <class T> __host__ __device__ T tp(T v);\n";
  ck_assert(protected_marks(hd, CUEMU_PASS_DEVICE, 1, 0, 3));
  ck_assert(protected_marks(hd, CUEMU_PASS_DEVICE, 0, 0, 0));
  ck_assert(protected_marks(hd, CUEMU_PASS_HOST, 1, 0, 0));
  const char *dev = "template <class T> __device__ T scaled(T v);\n"
                    "struct P { __device__ int plus(int v) const; };\n"
                    "template <class T> __device__ inline T il(T v) "
                    "{ return v; }\n";
  ck_assert(protected_marks(dev, CUEMU_PASS_DEVICE, 1, 0, 0));
  ck_assert(protected_marks(dev, CUEMU_PASS_DEVICE, 1, 1, 2));
}
END_TEST

/* Counts the occurrences of `word` in src translated for `pass`, the
 * shims' folder being /shims; -1 when it does not translate. */
static int translated_count(const char *src, enum cuemu_pass pass,
                            const char *word) {
  const char *skip[] = {"/shims", NULL};
  cuemu_translate_options opt;
  memset(&opt, 0, sizeof opt);
  opt.pass = pass;
  opt.skip_dirs = skip;
  cuemu_rewrite r;
  if (cuemu__rewrite_preprocessed(src, strlen(src), "in.cu", &opt, &r) !=
      CUEMU_SUCCESS)
    return -1;
  int n = 0;
  for (const char *p = r.text; (p = strstr(p, word)); ++p)
    ++n;
  cuemu__rewrite_free(&r);
  return n;
}

/* CCCL's forced inlining (_CCCL_FORCEINLINE's attribute, alone or among
 * others) is left to the compiler in both passes: the attribute becomes
 * `__unused__` in CCCL's headers (the toolkit's include/cccl, a thrust
 * folder), and only there: the user's own, the shims' and another system
 * header's are kept (cuemu_cccl_inlining.c). */
START_TEST(cccl_forced_inlining_dropped) {
  const char *src =
      "# 1 \"in.cu\"\n"
      "# 1 \"/opt/cuda/include/cccl/cub/util.cuh\" 1 3\n"
      "inline __attribute__((__always_inline__)) int a() { return 1; }\n"
      "__attribute__((__visibility__(\"hidden\"), __always_inline__)) "
      "inline int b() { return 2; }\n"
      "# 1 \"/usr/include/thrust/fill.h\" 1 3\n"
      "__attribute__((always_inline)) inline int c() { return 3; }\n"
      "# 3 \"/opt/cuda/include/cccl/cub/util.cuh\" 2 3\n"
      "# 2 \"in.cu\" 2\n"
      "__attribute__((always_inline)) inline int d() { return 4; }\n"
      "# 1 \"/shims/cuemu_atomics.h\" 1\n"
      "__attribute__((always_inline)) inline int e() { return 5; }\n"
      "# 1 \"/usr/include/c++/12/bits/atomic_base.h\" 1 3\n"
      "inline __attribute__((__always_inline__)) int f() { return 6; }\n"
      "# 3 \"in.cu\" 2\n"
      "int g() { return a() + b() + c() + d() + e() + f(); }\n";
  const enum cuemu_pass passes[] = {CUEMU_PASS_DEVICE, CUEMU_PASS_HOST};
  for (int k = 0; k < 2; ++k) {
    const enum cuemu_pass pass = passes[k];
    ck_assert_int_eq(translated_count(src, pass, "__unused__"), 3);
    ck_assert_int_eq(translated_count(src, pass, "__always_inline__"), 1);
    ck_assert_int_eq(translated_count(src, pass, "(always_inline)"), 2);
  }
}
END_TEST

Suite *make_device_code_suite(void) {
  Suite *s = suite_create("device_code");
  TCase *t = tcase_create("refused");
  tcase_add_test(t, device_launch_needs_rdc);
  tcase_add_test(t, device_synchronize_refused);
  tcase_add_test(t, host_runtime_calls_refused);
  tcase_add_test(t, cluster_dims_of_templates_refused);
  tcase_add_test(t, host_device_functions_marked);
  tcase_add_test(t, cccl_forced_inlining_dropped);
  suite_add_tcase(s, t);
  return s;
}
