/*
 * check_cccl.c: where a unit's CCCL headers come from (cuemu_toolkit.h):
 * the toolkit's include/cccl, else Debian's libcub-dev / libthrust-dev
 * (looked for in $CUEMU_DEBIAN_CCCL_DIR here, so that nothing has to be
 * installed or removed), else none, with a message naming what is missing;
 * and CCCL in a module compiled through the C API (cuemu_compile() with
 * `module` set, as NVRTC and CuPy's RawModule compile), where CCCL must
 * find its CUDA compiler although the module is NVRTC's (__CUDACC_RTC__).
 */
#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cuemu/cuemu.h>

#include "check_suites.h"
#include "cuemu_test_util.h"

/* A fake tree DIR/SUB/FILE holding `text` (folders made as needed). */
static void plant(const char *dir, const char *sub, const char *file, const char *text) {
  char *folder = test_join(dir, sub);
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "mkdir -p '%s'", folder);
  ck_assert_int_eq(system(cmd), 0);
  char *path = test_join(folder, file);
  test_write_text(path, text);
  free(path);
  free(folder);
}

/* Compiles `source` (text) as a module in `dir`, runs kernel `k`(out) on
 * one block of `threads` threads and returns out[0]; -1 when it does not
 * compile. */
static int module_result(const char *dir, const char *source, unsigned threads) {
  char *cu = test_join(dir, "unit.cu");
  char *so = test_join(dir, "unit.so");
  test_write_text(cu, source);
  cuemu_compile_options o;
  memset(&o, 0, sizeof o);
  o.module = 1;
  int result = -1;
  if (cuemu_compile(cu, so, &o, NULL) == CUEMU_SUCCESS) {
    cuemu_module *m = NULL;
    int buffer[128] = {0};
    int *out = buffer, *in = buffer + 64;
    ck_assert_int_eq(cuemu_module_load(&m, so), CUEMU_SUCCESS);
    for (int i = 0; i < 64; ++i) in[i] = 3 * i + 1;
    void *args[] = {&in, &out};
    ck_assert_int_eq(test_launch1(test_kernel(m, "k"), 1, threads, args, 2), CUEMU_SUCCESS);
    result = out[0];
    cuemu_module_unload(m);
  }
  free(cu);
  free(so);
  return result;
}

/* ---- Selection ----------------------------------------------------------- */

/* A module that reports which <cub/cub.cuh> it was built against. */
static const char which_cub[] =
    "#include <cub/cub.cuh>\n"
    "extern \"C\" __global__ void k(const int *in, int *out) {\n"
    "  if (threadIdx.x == 0) out[0] = FAKE_CUB + in[0];\n"
    "}\n";

/* The toolkit's include/cccl comes first, then Debian's libcub-dev and
 * libthrust-dev (here in fake trees: $CUEMU_DEBIAN_CCCL_DIR stands for
 * /usr/include), then nothing, which fails with a message naming what is
 * missing. */
START_TEST(cccl_selection_order) {
  char *root = test_fresh_dir("cccl-select");
  test_setenv("CUEMU_CACHE_DIR", root);
  char *toolkit = test_join(root, "toolkit");
  char *debian = test_join(root, "debian");
  char *thrust_only = test_join(root, "thrust-only");
  char *empty = test_join(root, "empty");
  plant(toolkit, "include/cccl/cub", "cub.cuh", "#define FAKE_CUB 10\n");
  plant(debian, "cub", "cub.cuh", "#define FAKE_CUB 40\n");
  plant(thrust_only, "thrust", "version.h", "#define THRUST_VERSION 101702\n");
  plant(empty, "nothing", "here.h", "\n");

  test_setenv("CUDA_HOME", toolkit);
  test_setenv("CUEMU_DEBIAN_CCCL_DIR", debian);
  ck_assert_int_eq(module_result(root, which_cub, 32), 11);
  /* A toolkit without include/cccl: Debian's headers. */
  test_setenv("CUDA_HOME", empty);
  ck_assert_int_eq(module_result(root, which_cub, 32), 41);
  /* Neither: the compile fails, naming both. */
  test_setenv("CUEMU_DEBIAN_CCCL_DIR", empty);
  ck_assert_int_eq(module_result(root, which_cub, 32), -1);
  TEST_ASSERT_CONTAINS(cuemu_last_message(), "no CUB/Thrust/libcu++ headers were found");
  TEST_ASSERT_CONTAINS(cuemu_last_message(), "include/cccl");
  TEST_ASSERT_CONTAINS(cuemu_last_message(), "libcub-dev");
  /* Debian's Thrust alone is a Debian CCCL: the failure is then the
   * compiler's own (no cub/cub.cuh there), without the note. */
  test_setenv("CUEMU_DEBIAN_CCCL_DIR", thrust_only);
  ck_assert_int_eq(module_result(root, which_cub, 32), -1);
  ck_assert_ptr_null(strstr(cuemu_last_message(), "libcub-dev"));
  free(toolkit);
  free(debian);
  free(thrust_only);
  free(empty);
  test_rm_rf(root);
  free(root);
}
END_TEST

/* ---- CCCL in a module ---------------------------------------------------- */

START_TEST(cub_in_a_module) {
  struct stat st;
  const char *home = getenv("CUDA_HOME");
  char cccl[4096];
  snprintf(cccl, sizeof cccl, "%s/include/cccl/cub", home && *home ? home : "/usr/local/cuda");
  if (stat(cccl, &st) != 0)
    return; /* no toolkit CCCL on this machine: nothing to test */
  char *root = test_fresh_dir("cccl-module");
  const char *source =
      "#include <cub/block/block_reduce.cuh>\n"
      "extern \"C\" __global__ void k(const int *in, int *out) {\n"
      "  using BlockReduce = cub::BlockReduce<int, 64>;\n"
      "  __shared__ typename BlockReduce::TempStorage storage;\n"
      "  int sum = BlockReduce(storage).Sum(in[threadIdx.x]);\n"
      "#ifdef __NVCC__\n"
      "  sum = -sum; /* NVRTC's macros only, after CCCL's headers */\n"
      "#endif\n"
      "  if (threadIdx.x == 0) out[0] = sum;\n"
      "}\n";
  /* sum of 3i + 1 for i < 64: 3 * 2016 + 64. */
  ck_assert_int_eq(module_result(root, source, 64), 6112);
  test_rm_rf(root);
  free(root);
}
END_TEST

Suite *make_cccl_suite(void) {
  Suite *s = suite_create("cccl");
  TCase *tc = test_tcase(s, "selection", 60);
  tcase_add_test(tc, cccl_selection_order);
  tc = test_tcase(s, "modules", 240);
  tcase_add_test(tc, cub_in_a_module);
  return s;
}
