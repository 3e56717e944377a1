/*
 * check_parity_gpu.c: the real-CUDA legs of the parity runner: NVRTC
 * compiles (plain, template, extern "C" and namespaced kernels, the case's
 * options, kernels that compile only under cuemu's shims), how a missing
 * NVRTC or driver is reported, GPU runs refused without a device, and the
 * compute-sanitizer command line and summary.
 *
 * NVRTC is installed where CI runs, so its tests fail when it cannot be
 * loaded; they are left out, with a message, only when no libnvrtc file
 * exists at all, and then, where CI=true, the suite fails. Tests that run kernels on a GPU are added only with
 * CUEMU_REQUIRE_CUDA=1 (parity/gpu-check.sh sets it), and then fail without
 * a device. The suite never touches the driver in the parent process, since
 * the driver must not be initialised before Check forks a test.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../parity/cuemu_parity_gpu.h"
#include "cuemu_test_util.h"

Suite *make_parity_gpu_suite(void);

/* ---- Helpers ------------------------------------------------------------- */

/* The expected architecture of a compile with arch 0. */
static int default_arch(void) {
  int arch = cuemu__parity_gpu_arch();
  return arch ? arch : 90;
}

/* Fails the test unless NVRTC loads. */
static void require_nvrtc(void) {
  const char *why = NULL;
  int version = cuemu__parity_nvrtc_version(&why);
  ck_assert_msg(version > 0, "NVRTC is installed but did not load: %s", why);
}

/* The options scale.cu needs, in a static array: -DSCALE_BIAS=5 and -I its
 * include folder. */
static const char *const *scale_options(void) {
  static char include[4096];
  static const char *options[2];
  char *dir = test_src_path("tests/parity/nvrtc/include");
  snprintf(include, sizeof include, "-I%s", dir);
  free(dir);
  options[0] = "-DSCALE_BIAS=5";
  options[1] = include;
  return options;
}

/* Compiles kernel `kernel` of tests/parity/nvrtc/`file`; returns the status
 * and leaves the result in *ptx and the log in *log. */
static cuemu_status compile(const char *file, const char *kernel,
                            const char *const *options, int noptions, int arch,
                            cuemu__parity_ptx *ptx, char **log) {
  char relative[256];
  snprintf(relative, sizeof relative, "tests/parity/nvrtc/%s", file);
  char *path = test_src_path(relative);
  cuemu_status status = cuemu__parity_nvrtc_compile(path, kernel, options,
                                                    noptions, arch, ptx, log);
  free(path);
  return status;
}

/* Compiles a kernel of scale.cu with its options; fails the test unless
 * NVRTC succeeds, quoting its log. */
static void compile_scale(const char *kernel, int arch,
                          cuemu__parity_ptx *ptx) {
  char *log = NULL;
  cuemu_status status =
      compile("scale.cu", kernel, scale_options(), 2, arch, ptx, &log);
  ck_assert_msg(status == CUEMU_SUCCESS, "%s: %s", cuemu_status_name(status),
                log ? log : "(no log)");
  ck_assert_ptr_null(log);
}

/* Fails the test unless the PTX text contains `part`, quoting the PTX's
 * .target line rather than the whole (long) text. */
static void assert_ptx_contains(const char *ptx, const char *part) {
  const char *target = strstr(ptx, ".target");
  if (!target)
    target = "no .target line";
  ck_assert_msg(strstr(ptx, part) != NULL, "the PTX (%.*s) lacks \"%s\"",
                (int)strcspn(target, "\n"), target, part);
}

/* Fails the test unless the PTX holds the entry point `name` for `arch`. */
static void assert_ptx(const cuemu__parity_ptx *ptx, const char *name,
                       int arch) {
  ck_assert_ptr_nonnull(ptx->ptx);
  ck_assert_uint_eq(ptx->size, strlen(ptx->ptx) + 1);
  ck_assert_int_eq(ptx->arch, arch);
  char entry[512], target[64];
  snprintf(entry, sizeof entry, ".entry %s(", name);
  snprintf(target, sizeof target, ".target sm_%d\n", arch);
  assert_ptx_contains(ptx->ptx, entry);
  assert_ptx_contains(ptx->ptx, target);
}

/* Fails the test without a device. */
static void require_gpu(void) {
  const char *why = NULL;
  ck_assert_msg(cuemu__parity_gpu_available(&why), "no CUDA device: %s", why);
}

/* Runs a kernel and fails the test unless it succeeds. */
static void run_ok(const cuemu__parity_ptx *ptx, cuemu_dim3 grid,
                   cuemu_dim3 block, size_t shared, int cooperative,
                   cuemu__parity_gpu_arg *args, int nargs) {
  char *message = NULL;
  cuemu_status status = cuemu__parity_gpu_run(
      ptx, grid, block, shared, cooperative, args, nargs, &message);
  ck_assert_msg(status == CUEMU_SUCCESS, "%s: %s", cuemu_status_name(status),
                message ? message : "(no message)");
  ck_assert_ptr_null(message);
}

/* ---- NVRTC --------------------------------------------------------------- */

START_TEST(nvrtc_loads) {
  const char *why = "untouched";
  int version = cuemu__parity_nvrtc_version(&why);
  ck_assert_msg(version > 0, "NVRTC did not load: %s", why);
  /* Name expressions and lowered names need NVRTC 11.2 or later. */
  ck_assert_int_ge(version, 11020);
  ck_assert_str_eq(why, "untouched");
}
END_TEST

START_TEST(nvrtc_plain_kernel) {
  require_nvrtc();
  cuemu__parity_ptx ptx;
  compile_scale("fill", 0, &ptx);
  ck_assert_str_eq(ptx.lowered_name, "_Z4fillPii");
  assert_ptx(&ptx, "_Z4fillPii", default_arch());
  cuemu__parity_nvrtc_free(&ptx);
  ck_assert_ptr_null(ptx.ptx);
  ck_assert_ptr_null(ptx.lowered_name);
}
END_TEST

START_TEST(nvrtc_template_instantiations) {
  require_nvrtc();
  static const struct {
    const char *expression, *lowered;
    int arch;
  } cases[] = {
      {"scale<float, 3>", "_Z5scaleIfLi3EEvPT_i", 90},
      {"scale<double, 2>", "_Z5scaleIdLi2EEvPT_i", 80},
      {"scale<int,7>", "_Z5scaleIiLi7EEvPT_i", 75},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    cuemu__parity_ptx ptx;
    compile_scale(cases[i].expression, cases[i].arch, &ptx);
    ck_assert_str_eq(ptx.lowered_name, cases[i].lowered);
    assert_ptx(&ptx, cases[i].lowered, cases[i].arch);
    cuemu__parity_nvrtc_free(&ptx);
  }
}
END_TEST

START_TEST(nvrtc_extern_c_and_namespaced_kernels) {
  require_nvrtc();
  cuemu__parity_ptx ptx;
  compile_scale("add_one", 90, &ptx);
  ck_assert_str_eq(ptx.lowered_name, "add_one");
  assert_ptx(&ptx, "add_one", 90);
  cuemu__parity_nvrtc_free(&ptx);
  compile_scale("kernels::store_at", 90, &ptx);
  ck_assert_str_eq(ptx.lowered_name, "_ZN7kernels8store_atEPixi");
  assert_ptx(&ptx, "_ZN7kernels8store_atEPixi", 90);
  cuemu__parity_nvrtc_free(&ptx);
}
END_TEST

/* -D, -I and -U reach NVRTC in order: scale.cu needs both of its options. */
START_TEST(nvrtc_case_options) {
  require_nvrtc();
  const char *const *both = scale_options();
  cuemu__parity_ptx ptx;
  char *log = NULL;

  const char *no_define[] = {both[1]};
  ck_assert_int_eq(compile("scale.cu", "fill", no_define, 1, 90, &ptx, &log),
                   CUEMU_NVRTC);
  ck_assert_ptr_nonnull(log);
  TEST_ASSERT_CONTAINS(log, "SCALE_BIAS must be defined");
  TEST_ASSERT_CONTAINS(log, "scale.cu");
  ck_assert_ptr_null(ptx.ptx);
  free(log);

  const char *no_include[] = {both[0]};
  ck_assert_int_eq(compile("scale.cu", "fill", no_include, 1, 90, &ptx, &log),
                   CUEMU_NVRTC);
  TEST_ASSERT_CONTAINS(log, "scale_bias.cuh");
  free(log);

  const char *undefined[] = {both[0], both[1], "-USCALE_BIAS"};
  ck_assert_int_eq(compile("scale.cu", "fill", undefined, 3, 90, &ptx, &log),
                   CUEMU_NVRTC);
  TEST_ASSERT_CONTAINS(log, "SCALE_BIAS must be defined");
  free(log);

  /* The bias reaches the code as an immediate operand. */
  const char *other_bias[] = {"-DSCALE_BIAS=123457", both[1]};
  ck_assert_int_eq(compile("scale.cu", "fill", other_bias, 2, 90, &ptx, &log),
                   CUEMU_SUCCESS);
  assert_ptx_contains(ptx.ptx, "123457");
  cuemu__parity_nvrtc_free(&ptx);
}
END_TEST

/* A kernel calling a function without __device__ compiles under cuemu's
 * shims (and runs there) but not with NVRTC, whose log names the function
 * and the line that defines it. */
START_TEST(nvrtc_rejects_host_only_call) {
  require_nvrtc();
  cuemu__parity_ptx ptx;
  char *log = NULL;
  ck_assert_int_eq(
      compile("bad_host_call.cu", "doubled", NULL, 0, 90, &ptx, &log),
      CUEMU_NVRTC);
  ck_assert_ptr_nonnull(log);
  ck_assert_ptr_null(ptx.ptx);
  ck_assert_ptr_null(ptx.lowered_name);
  int line =
      test_marker_line("tests/parity/nvrtc/bad_host_call.cu", "HOST_ONLY_LINE");
  char where[64];
  snprintf(where, sizeof where, "bad_host_call.cu(%d)", line);
  TEST_ASSERT_CONTAINS(log, where);
  TEST_ASSERT_CONTAINS(log, "twice");
  TEST_ASSERT_CONTAINS(log, "kernel doubled");
  TEST_ASSERT_CONTAINS(log, "compute_90");
  free(log);

  /* cuemu refuses the kernel too, as nvcc does, naming the call's line. */
  char *source = test_src_path("tests/parity/nvrtc/bad_host_call.cu");
  char *output = test_tmp_path("bad_host_call.so");
  char *err = test_tmp_path("bad_host_call.stderr");
  cuemu_compile_options opt;
  memset(&opt, 0, sizeof opt);
  opt.module = 1;
  test_capture capture = test_capture_begin(2, err);
  cuemu_status st = cuemu_compile(source, output, &opt, NULL);
  test_capture_end(&capture);
  ck_assert_int_eq(st, CUEMU_COMPILE);
  char *text = test_read_text(err, NULL);
  snprintf(where, sizeof where, "bad_host_call.cu:%d:",
           test_marker_line("tests/parity/nvrtc/bad_host_call.cu",
                            "HOST_CALL_LINE"));
  TEST_ASSERT_CONTAINS(text, where);
  TEST_ASSERT_CONTAINS(text, "calling a __host__ function(\"twice(int)\") "
                             "from a __global__ function(\"doubled\") is "
                             "not allowed");
  free(text);
  free(err);
  free(output);
  free(source);
}
END_TEST

START_TEST(nvrtc_unknown_kernel) {
  require_nvrtc();
  cuemu__parity_ptx ptx;
  char *log = NULL;
  ck_assert_int_eq(
      compile("scale.cu", "no_such_kernel", scale_options(), 2, 90, &ptx, &log),
      CUEMU_NVRTC);
  TEST_ASSERT_CONTAINS(log, "no_such_kernel");
  ck_assert_ptr_null(ptx.ptx);
  free(log);
}
END_TEST

START_TEST(nvrtc_missing_source) {
  require_nvrtc();
  cuemu__parity_ptx ptx;
  char *log = NULL;
  ck_assert_int_eq(compile("no_such_file.cu", "fill", NULL, 0, 90, &ptx, &log),
                   CUEMU_IO_ERROR);
  ck_assert_ptr_nonnull(log);
  TEST_ASSERT_CONTAINS(log, "tests/parity/nvrtc/no_such_file.cu");
  free(log);
}
END_TEST

/* ---- NVRTC or the driver missing ----------------------------------------- */

START_TEST(nvrtc_invalid_arguments) {
  cuemu__parity_ptx ptx;
  char *log = (char *)"untouched";
  ck_assert_int_eq(
      cuemu__parity_nvrtc_compile(NULL, "fill", NULL, 0, 0, &ptx, &log),
      CUEMU_INVALID_VALUE);
  ck_assert_ptr_null(log);
  ck_assert_int_eq(
      cuemu__parity_nvrtc_compile("x.cu", NULL, NULL, 0, 0, &ptx, NULL),
      CUEMU_INVALID_VALUE);
  ck_assert_int_eq(
      cuemu__parity_nvrtc_compile("x.cu", "k", NULL, 0, 0, NULL, NULL),
      CUEMU_INVALID_VALUE);
  ck_assert_int_eq(
      cuemu__parity_nvrtc_compile("x.cu", "k", NULL, 2, 0, &ptx, NULL),
      CUEMU_INVALID_VALUE);
  ck_assert_int_eq(
      cuemu__parity_nvrtc_compile("x.cu", "k", NULL, 0, -1, &ptx, NULL),
      CUEMU_INVALID_VALUE);
  cuemu__parity_nvrtc_free(NULL);
}
END_TEST

START_TEST(nvrtc_absent) {
  test_setenv("CUEMU_NVRTC_LIBRARY", "/nonexistent/libnvrtc.so.99");
  const char *why = NULL;
  ck_assert_int_eq(cuemu__parity_nvrtc_version(&why), 0);
  ck_assert_ptr_nonnull(why);
  TEST_ASSERT_CONTAINS(why, "/nonexistent/libnvrtc.so.99");
  TEST_ASSERT_CONTAINS(why, "CUEMU_NVRTC_LIBRARY");

  cuemu__parity_ptx ptx;
  char *log = NULL;
  ck_assert_int_eq(
      compile("scale.cu", "fill", scale_options(), 2, 90, &ptx, &log),
      CUEMU_NVRTC);
  ck_assert_ptr_nonnull(log);
  TEST_ASSERT_CONTAINS(log, "NVRTC is not available");
  TEST_ASSERT_CONTAINS(log, "/nonexistent/libnvrtc.so.99");
  ck_assert_ptr_null(ptx.ptx);
  free(log);
}
END_TEST

/* A shared object that is not NVRTC: libcuemu itself. */
START_TEST(nvrtc_wrong_library) {
  char path[4096];
  snprintf(path, sizeof path, "%s/libcuemu.so", getenv("CUEMU_LIB_DIR"));
  ck_assert_int_eq(access(path, R_OK), 0);
  test_setenv("CUEMU_NVRTC_LIBRARY", path);
  const char *why = NULL;
  ck_assert_int_eq(cuemu__parity_nvrtc_version(&why), 0);
  TEST_ASSERT_CONTAINS(why, "lacks nvrtcVersion");
}
END_TEST

/* cuemu's own libcuda.so.1 (cuemu-toolkit/compat) is no GPU's driver. */
START_TEST(gpu_driver_is_cuemus) {
  char path[4096];
  snprintf(path, sizeof path, "%s/cuemu-toolkit/compat/libcuda.so.1",
           getenv("CUEMU_LIB_DIR"));
  ck_assert_int_eq(access(path, R_OK), 0);
  test_setenv("CUEMU_CUDA_DRIVER_LIBRARY", path);
  const char *why = NULL;
  ck_assert_int_eq(cuemu__parity_gpu_available(&why), 0);
  ck_assert_ptr_nonnull(why);
  TEST_ASSERT_CONTAINS(why, "is cuemu's emulated driver, not CUDA's");
  TEST_ASSERT_CONTAINS(why, "CUEMU_CUDA_DRIVER_LIBRARY");
  ck_assert_int_eq(cuemu__parity_gpu_arch(), 0);
}
END_TEST

START_TEST(gpu_driver_absent) {
  test_setenv("CUEMU_CUDA_DRIVER_LIBRARY", "/nonexistent/libcuda.so.1");
  const char *why = NULL;
  ck_assert_int_eq(cuemu__parity_gpu_available(&why), 0);
  ck_assert_ptr_nonnull(why);
  TEST_ASSERT_CONTAINS(why, "/nonexistent/libcuda.so.1");
  ck_assert_int_eq(cuemu__parity_gpu_arch(), 0);
  ck_assert_ptr_null(cuemu__parity_gpu_description());
  /* The answer is cached: asking again gives the same reason. */
  const char *again = NULL;
  ck_assert_int_eq(cuemu__parity_gpu_available(&again), 0);
  ck_assert_ptr_eq(again, why);
}
END_TEST

/* The toolkit's stub libcuda.so loads but refuses cuInit. */
START_TEST(gpu_stub_driver) {
  char path[4096];
  snprintf(path, sizeof path, "%s/lib64/stubs/libcuda.so",
           cuemu__parity_cuda_home());
  if (access(path, R_OK) != 0)
    snprintf(path, sizeof path, "/usr/local/cuda/lib64/stubs/libcuda.so");
  test_setenv("CUEMU_CUDA_DRIVER_LIBRARY", path);
  const char *why = NULL;
  ck_assert_int_eq(cuemu__parity_gpu_available(&why), 0);
  TEST_ASSERT_CONTAINS(why, "cuInit failed");
}
END_TEST

/* On this machine: a device and its description, or a reason why not. */
START_TEST(gpu_this_machine) {
  const char *why = NULL;
  const char *require = getenv("CUEMU_REQUIRE_CUDA");
  if (cuemu__parity_gpu_available(&why)) {
    ck_assert_int_ge(cuemu__parity_gpu_arch(), 50);
    ck_assert_ptr_nonnull(cuemu__parity_gpu_description());
    TEST_ASSERT_CONTAINS(cuemu__parity_gpu_description(), "sm_");
  } else {
    ck_assert_msg(!(require && strcmp(require, "1") == 0),
                  "CUEMU_REQUIRE_CUDA=1 but no device: %s", why);
    ck_assert_ptr_nonnull(why);
    ck_assert_msg(strlen(why) > 10, "reason too short: \"%s\"", why);
    ck_assert_int_eq(cuemu__parity_gpu_arch(), 0);
  }
}
END_TEST

/* A PTX image for the run tests that need no NVRTC. */
static cuemu__parity_ptx fake_ptx(void) {
  cuemu__parity_ptx ptx = {(char *)"// not real PTX\n", 17,
                           (char *)"_Z4fillPii", 90};
  return ptx;
}

START_TEST(gpu_run_without_device) {
  test_setenv("CUEMU_CUDA_DRIVER_LIBRARY", "/nonexistent/libcuda.so.1");
  cuemu__parity_ptx ptx = fake_ptx();
  int out[4] = {0};
  int n = 4;
  cuemu__parity_gpu_arg args[] = {{out, sizeof out, 1, 1},
                                  {&n, sizeof n, 0, 0}};
  char *message = NULL;
  ck_assert_int_eq(cuemu__parity_gpu_run(&ptx, test_dim(1, 1, 1),
                                         test_dim(4, 1, 1), 0, 0, args, 2,
                                         &message),
                   CUEMU_NO_DEVICE);
  ck_assert_ptr_nonnull(message);
  TEST_ASSERT_CONTAINS(message, "_Z4fillPii");
  TEST_ASSERT_CONTAINS(message, "/nonexistent/libcuda.so.1");
  free(message);
  ck_assert_int_eq(cuemu__parity_gpu_run(&ptx, test_dim(1, 1, 1),
                                         test_dim(4, 1, 1), 0, 0, args, 2,
                                         NULL),
                   CUEMU_NO_DEVICE);
}
END_TEST

START_TEST(gpu_run_invalid_arguments) {
  cuemu__parity_ptx ptx = fake_ptx();
  int n = 4;
  cuemu__parity_gpu_arg scalar_without_value[] = {{NULL, sizeof n, 0, 0}};
  cuemu__parity_gpu_arg array_without_data[] = {{NULL, 16, 1, 1}};
  char *message = (char *)"untouched";
  cuemu_dim3 one = test_dim(1, 1, 1);
  ck_assert_int_eq(
      cuemu__parity_gpu_run(NULL, one, one, 0, 0, NULL, 0, &message),
      CUEMU_INVALID_VALUE);
  ck_assert_ptr_null(message);
  ck_assert_int_eq(cuemu__parity_gpu_run(&ptx, one, one, 0, 0, NULL, 1, NULL),
                   CUEMU_INVALID_VALUE);
  ck_assert_int_eq(cuemu__parity_gpu_run(&ptx, one, one, 0, 0, NULL, -1, NULL),
                   CUEMU_INVALID_VALUE);
  ck_assert_int_eq(cuemu__parity_gpu_run(&ptx, one, one, 0, 0,
                                         scalar_without_value, 1, NULL),
                   CUEMU_INVALID_VALUE);
  ck_assert_int_eq(
      cuemu__parity_gpu_run(&ptx, one, one, 0, 0, array_without_data, 1, NULL),
      CUEMU_INVALID_VALUE);
  ck_assert_int_eq(
      cuemu__parity_gpu_run(&ptx, one, one, (size_t)1 << 40, 0, NULL, 0, NULL),
      CUEMU_INVALID_VALUE);
}
END_TEST

/* ---- The GPU leg against a fake driver ------------------------------------
 * tests/parity/fake_cuda/fake_libcuda.c stands in for libcuda.so.1, so that
 * the GPU leg's argument passing, copies, error reports, context reset and
 * time limit are tested without a GPU. */

/* The fake driver, built with $CC into tests/tmp when it is missing or
 * older than its source, loaded through CUEMU_CUDA_DRIVER_LIBRARY; returns
 * its dlopen handle, for reading its fake_cuda_* counters. */
static void *use_fake_driver(void) {
  char *library = test_tmp_path("libfakecuda.so");
  char *source = test_src_path("tests/parity/fake_cuda/fake_libcuda.c");
  struct stat built, written;
  ck_assert_int_eq(stat(source, &written), 0);
  if (stat(library, &built) != 0 || built.st_mtime < written.st_mtime) {
    char name[64];
    snprintf(name, sizeof name, "libfakecuda.%ld.partial", (long)getpid());
    char *partial = test_tmp_path(name);
    const char *cc = getenv("CC");
    char *include = test_src_path("emulator/include");
    char command[16384];
    snprintf(command, sizeof command,
             "%s -shared -fPIC -O1 -I'%s' -o '%s' '%s' && mv -f '%s' '%s'",
             cc && *cc ? cc : "cc", include, partial, source, partial,
             library);
    free(include);
    ck_assert_msg(system(command) == 0, "could not build the fake driver: %s",
                  command);
    free(partial);
  }
  free(source);
  test_setenv("CUEMU_CUDA_DRIVER_LIBRARY", library);
  void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  ck_assert_msg(handle != NULL, "%s", dlerror());
  free(library);
  return handle;
}

/* The fake driver's counter `name` (fake_cuda_NAME). */
static int fake_counter(void *fake, const char *name) {
  char symbol[128];
  snprintf(symbol, sizeof symbol, "fake_cuda_%s", name);
  int (*counter)(void) = NULL;
  void *address = dlsym(fake, symbol);
  ck_assert_msg(address != NULL, "the fake driver lacks %s", symbol);
  memcpy(&counter, &address, sizeof address);
  return counter();
}

/* A PTX image for the fake driver, for the kernel `lowered`. */
static cuemu__parity_ptx fake_image(const char *lowered) {
  cuemu__parity_ptx ptx = {(char *)"// PTX for the fake driver\n", 28,
                           (char *)lowered, 90};
  return ptx;
}

START_TEST(fake_device_found) {
  use_fake_driver();
  const char *why = NULL;
  ck_assert_msg(cuemu__parity_gpu_available(&why), "%s", why);
  ck_assert_int_eq(cuemu__parity_gpu_arch(), 90);
  ck_assert_str_eq(cuemu__parity_gpu_description(),
                   "Fake CUDA Device (sm_90, driver API 13.0)");
}
END_TEST

START_TEST(fake_device_absent) {
  use_fake_driver();
  test_setenv("FAKE_CUDA_DEVICES", "0");
  const char *why = NULL;
  ck_assert_int_eq(cuemu__parity_gpu_available(&why), 0);
  TEST_ASSERT_CONTAINS(why, "sees no device");
}
END_TEST

START_TEST(fake_init_fails) {
  use_fake_driver();
  test_setenv("FAKE_CUDA_INIT_ERROR", "100");
  const char *why = NULL;
  ck_assert_int_eq(cuemu__parity_gpu_available(&why), 0);
  TEST_ASSERT_CONTAINS(why, "cuInit failed: CUDA_ERROR_NO_DEVICE (no "
                            "CUDA-capable device is detected)");
  cuemu__parity_ptx ptx = fake_image("_Z4fillPii");
  char *message = NULL;
  cuemu_dim3 one = test_dim(1, 1, 1);
  ck_assert_int_eq(
      cuemu__parity_gpu_run(&ptx, one, one, 0, 0, NULL, 0, &message),
      CUEMU_NO_DEVICE);
  TEST_ASSERT_CONTAINS(message, "CUDA_ERROR_NO_DEVICE");
  free(message);
}
END_TEST

/* With a device, arch 0 compiles for its compute capability. */
START_TEST(fake_device_sets_nvrtc_arch) {
  require_nvrtc();
  use_fake_driver();
  cuemu__parity_ptx ptx;
  compile_scale("fill", 0, &ptx);
  assert_ptx(&ptx, "_Z4fillPii", 90);
  cuemu__parity_nvrtc_free(&ptx);
}
END_TEST

/* Scalars by value, arrays copied in and (when asked) out, an empty array
 * as a null pointer, everything freed; plain and cooperative launches. */
START_TEST(fake_run_copies_arguments) {
  void *fake = use_fake_driver();
  cuemu__parity_ptx ptx = fake_image("_Z4fillPii");
  enum { N = 100 };
  int out[N], kept[N];
  for (int cooperative = 0; cooperative < 2; ++cooperative) {
    for (int i = 0; i < N; ++i)
      out[i] = kept[i] = -1;
    int n = 90;
    cuemu__parity_gpu_arg args[] = {{out, sizeof out, 1, 1},
                                    {&n, sizeof n, 0, 0}};
    run_ok(&ptx, test_dim(1, 1, 1), test_dim(128, 1, 1), 0, cooperative, args,
           2);
    for (int i = 0; i < N; ++i)
      ck_assert_int_eq(out[i], i < n ? i + 5 : -1);
    cuemu__parity_gpu_arg no_copy[] = {{kept, sizeof kept, 1, 0},
                                       {&n, sizeof n, 0, 0}};
    run_ok(&ptx, test_dim(1, 1, 1), test_dim(128, 1, 1), 0, cooperative,
           no_copy, 2);
    for (int i = 0; i < N; ++i)
      ck_assert_int_eq(kept[i], -1);
    ck_assert_int_eq(fake_counter(fake, "live_allocations"), 0);
    ck_assert_int_eq(fake_counter(fake, "cooperative_launches"),
                     cooperative ? 2 : 0);
  }
  int zero = 0;
  cuemu__parity_gpu_arg empty[] = {{NULL, 0, 1, 1}, {&zero, sizeof zero, 0, 0}};
  run_ok(&ptx, test_dim(1, 1, 1), test_dim(32, 1, 1), 0, 0, empty, 2);
  ck_assert_int_eq(fake_counter(fake, "live_allocations"), 0);
  /* The primary context is retained once and kept. */
  ck_assert_int_eq(fake_counter(fake, "retained"), 1);
}
END_TEST

/* Above 48 KiB of dynamic shared memory the kernel opts in first. */
START_TEST(fake_large_dynamic_shared) {
  void *fake = use_fake_driver();
  cuemu__parity_ptx ptx = fake_image("_Z11block_totalPx");
  long long total = -1;
  cuemu__parity_gpu_arg args[] = {{&total, sizeof total, 1, 1}};
  run_ok(&ptx, test_dim(1, 1, 1), test_dim(256, 1, 1), 16 * 1024, 0, args, 1);
  ck_assert_int_eq(total, 255LL * 256 / 2);
  ck_assert_int_eq(fake_counter(fake, "last_shared_attribute"), 0);
  run_ok(&ptx, test_dim(1, 1, 1), test_dim(1024, 1, 1), 64 * 1024, 0, args, 1);
  ck_assert_int_eq(total, 1023LL * 1024 / 2);
  ck_assert_int_eq(fake_counter(fake, "last_shared_attribute"), 64 * 1024);
}
END_TEST

/* A kernel fault is reported with the kernel and the launch shape; the
 * context is reset, buffers are freed, and the next run works. */
START_TEST(fake_fault_resets_context) {
  void *fake = use_fake_driver();
  cuemu__parity_ptx bad = fake_image("_ZN7kernels8store_atEPixi");
  int out[4] = {0};
  long long index = 1LL << 40;
  int value = 7;
  cuemu__parity_gpu_arg args[] = {{out, sizeof out, 1, 1},
                                  {&index, sizeof index, 0, 0},
                                  {&value, sizeof value, 0, 0}};
  char *message = NULL;
  ck_assert_int_eq(cuemu__parity_gpu_run(&bad, test_dim(1, 1, 1),
                                         test_dim(1, 1, 1), 0, 0, args, 3,
                                         &message),
                   CUEMU_CUDA_DRIVER);
  TEST_ASSERT_CONTAINS(message, "GPU leg of kernel _ZN7kernels8store_atEPixi "
                                "(sm_90): the kernel: "
                                "CUDA_ERROR_ILLEGAL_ADDRESS (an illegal "
                                "memory access was encountered)");
  TEST_ASSERT_CONTAINS(message, "grid (1, 1, 1), block (1, 1, 1)");
  free(message);
  ck_assert_int_eq(fake_counter(fake, "resets"), 1);
  ck_assert_int_eq(fake_counter(fake, "live_allocations"), 0);
  ck_assert_int_eq(fake_counter(fake, "retained"), 0);

  index = 2;
  run_ok(&bad, test_dim(1, 1, 1), test_dim(1, 1, 1), 0, 0, args, 3);
  ck_assert_int_eq(out[2], 7);
  ck_assert_int_eq(fake_counter(fake, "resets"), 1);
  ck_assert_int_eq(fake_counter(fake, "retained"), 1);
}
END_TEST

/* Errors before the launch name the failing call and the driver's log. */
START_TEST(fake_errors_before_launch) {
  use_fake_driver();
  int out[4], n = 4;
  cuemu__parity_gpu_arg args[] = {{out, sizeof out, 1, 1},
                                  {&n, sizeof n, 0, 0}};
  char *message = NULL;
  cuemu__parity_ptx broken = {(char *)"// JIT_ERROR\n", 14,
                              (char *)"_Z4fillPii", 90};
  ck_assert_int_eq(cuemu__parity_gpu_run(&broken, test_dim(1, 1, 1),
                                         test_dim(4, 1, 1), 0, 0, args, 2,
                                         &message),
                   CUEMU_CUDA_DRIVER);
  TEST_ASSERT_CONTAINS(message, "cuModuleLoadDataEx: CUDA_ERROR_INVALID_PTX");
  TEST_ASSERT_CONTAINS(message, "\nptxas fatal: fake JIT error");
  free(message);

  cuemu__parity_ptx missing = fake_image("_Z7missingv");
  ck_assert_int_eq(cuemu__parity_gpu_run(&missing, test_dim(1, 1, 1),
                                         test_dim(4, 1, 1), 0, 0, args, 2,
                                         &message),
                   CUEMU_CUDA_DRIVER);
  TEST_ASSERT_CONTAINS(message, "_Z7missingv");
  TEST_ASSERT_CONTAINS(message, "cuModuleGetFunction: CUDA_ERROR_NOT_FOUND");
  free(message);

  cuemu__parity_ptx fill = fake_image("_Z4fillPii");
  ck_assert_int_eq(cuemu__parity_gpu_run(&fill, test_dim(1, 1, 1),
                                         test_dim(2048, 1, 1), 0, 0, args, 2,
                                         &message),
                   CUEMU_CUDA_DRIVER);
  TEST_ASSERT_CONTAINS(message, "cuLaunchKernel: CUDA_ERROR_INVALID_VALUE");
  TEST_ASSERT_CONTAINS(message, "block (2048, 1, 1)");
  free(message);
  ck_assert_int_eq(cuemu__parity_gpu_run(&fill, test_dim(1, 1, 1),
                                         test_dim(4, 1, 1), 300 * 1024, 0, args,
                                         2, &message),
                   CUEMU_CUDA_DRIVER);
  TEST_ASSERT_CONTAINS(message, "cuFuncSetAttribute");
  free(message);
}
END_TEST

/* A kernel that never ends is given up on; later runs are refused. */
START_TEST(fake_time_limit) {
  use_fake_driver();
  test_setenv("CUEMU_GPU_TIMEOUT", "0.2");
  cuemu__parity_ptx spin = fake_image("_Z4spinPVi");
  int flag = 0;
  cuemu__parity_gpu_arg args[] = {{&flag, sizeof flag, 1, 0}};
  char *message = NULL;
  ck_assert_int_eq(cuemu__parity_gpu_run(&spin, test_dim(1, 1, 1),
                                         test_dim(1, 1, 1), 0, 0, args, 1,
                                         &message),
                   CUEMU_CUDA_DRIVER);
  TEST_ASSERT_CONTAINS(message, "did not finish within 0.2 s");
  free(message);
  cuemu__parity_ptx fill = fake_image("_Z4fillPii");
  ck_assert_int_eq(cuemu__parity_gpu_run(&fill, test_dim(1, 1, 1),
                                         test_dim(1, 1, 1), 0, 0, NULL, 0,
                                         &message),
                   CUEMU_CUDA_DRIVER);
  TEST_ASSERT_CONTAINS(message, "still running");
  free(message);
}
END_TEST

/* ---- compute-sanitizer --------------------------------------------------- */

START_TEST(sanitizer_tools) {
  ck_assert(cuemu__parity_sanitizer_tool_valid("memcheck"));
  ck_assert(cuemu__parity_sanitizer_tool_valid("racecheck"));
  ck_assert(cuemu__parity_sanitizer_tool_valid("synccheck"));
  ck_assert(cuemu__parity_sanitizer_tool_valid("initcheck"));
  ck_assert(!cuemu__parity_sanitizer_tool_valid("leakcheck"));
  ck_assert(!cuemu__parity_sanitizer_tool_valid("memcheck "));
  ck_assert(!cuemu__parity_sanitizer_tool_valid(""));
  ck_assert(!cuemu__parity_sanitizer_tool_valid(NULL));
}
END_TEST

START_TEST(sanitizer_command_line) {
  char **argv = NULL;
  ck_assert_int_eq(cuemu__parity_sanitizer_argv(
                       "/opt/cuda/bin/compute-sanitizer", "racecheck",
                       "/build/cuemu-parity", "block sum",
                       "examples/block_sum/block_sum.parity.yaml", &argv),
                   CUEMU_SUCCESS);
  static const char *const expected[] = {
      "/opt/cuda/bin/compute-sanitizer",
      "--tool",
      "racecheck",
      "--error-exitcode",
      "86",
      "/build/cuemu-parity",
      "--gpu-leg-only",
      "--case",
      "block sum",
      "examples/block_sum/block_sum.parity.yaml",
  };
  size_t count = sizeof expected / sizeof expected[0];
  for (size_t i = 0; i < count; ++i) {
    ck_assert_ptr_nonnull(argv[i]);
    ck_assert_str_eq(argv[i], expected[i]);
  }
  ck_assert_ptr_null(argv[count]);
  free(argv);
}
END_TEST

START_TEST(sanitizer_command_line_invalid) {
  char **argv = (char **)&argv;
  ck_assert_int_eq(
      cuemu__parity_sanitizer_argv("cs", "leakcheck", "self", "c", "f", &argv),
      CUEMU_INVALID_VALUE);
  ck_assert_ptr_null(argv);
  ck_assert_int_eq(
      cuemu__parity_sanitizer_argv(NULL, "memcheck", "self", "c", "f", &argv),
      CUEMU_INVALID_VALUE);
  ck_assert_int_eq(
      cuemu__parity_sanitizer_argv("cs", "memcheck", "self", NULL, "f", &argv),
      CUEMU_INVALID_VALUE);
  ck_assert_int_eq(
      cuemu__parity_sanitizer_argv("cs", "memcheck", "self", "c", "f", NULL),
      CUEMU_INVALID_VALUE);
}
END_TEST

START_TEST(sanitizer_summary) {
  ck_assert_int_eq(
      cuemu__parity_sanitizer_errors("========= COMPUTE-SANITIZER\n"
                                     "case saxpy: ok\n"
                                     "========= ERROR SUMMARY: 0 errors\n"),
      0);
  ck_assert_int_eq(cuemu__parity_sanitizer_errors(
                       "========= Invalid __global__ write of size 4 bytes\n"
                       "=========     at store+0x70\n"
                       "========= ERROR SUMMARY: 1 error\n"),
                   1);
  ck_assert_int_eq(
      cuemu__parity_sanitizer_errors("========= ERROR SUMMARY: 3 errors\n"
                                     "========= ERROR SUMMARY: 12 errors\n"),
      12);
  ck_assert_int_eq(
      cuemu__parity_sanitizer_errors(
          "========= Error: Race reported between Write access at "
          "k+0x10\n"
          "========= RACECHECK SUMMARY: 2 hazards displayed (2 errors, 0 "
          "warnings)\n"),
      2);
  ck_assert_int_eq(
      cuemu__parity_sanitizer_errors("========= RACECHECK SUMMARY: 1 hazard "
                                     "displayed (0 errors, 1 warning)\n"
                                     "========= ERROR SUMMARY: 0 errors\n"),
      0);
  /* Only counts of errors count. */
  ck_assert_int_eq(cuemu__parity_sanitizer_errors(
                       "========= RACECHECK SUMMARY: 1 hazard displayed (1 "
                       "warning)\n"),
                   -1);
  ck_assert_int_eq(
      cuemu__parity_sanitizer_errors("========= ERROR SUMMARY: see above\n"),
      -1);
  /* A run cut short prints no summary. */
  ck_assert_int_eq(
      cuemu__parity_sanitizer_errors("========= COMPUTE-SANITIZER\nKilled\n"),
      -1);
  ck_assert_int_eq(cuemu__parity_sanitizer_errors(""), -1);
  ck_assert_int_eq(cuemu__parity_sanitizer_errors(NULL), -1);
}
END_TEST

/* Writes an executable compute-sanitizer script into `dir`. */
static char *fake_sanitizer(const char *dir) {
  mkdir(dir, 0755);
  char *path = test_join(dir, "compute-sanitizer");
  test_write_text(path, "#!/bin/sh\nexit 0\n");
  ck_assert_int_eq(chmod(path, 0755), 0);
  return path;
}

START_TEST(sanitizer_search_order) {
  char *root = test_fresh_dir("sanitizer_search");
  char *home = test_join(root, "cuda");
  char *home_bin = test_join(home, "bin");
  char *on_path = test_join(root, "path");
  mkdir(home, 0755);
  char *in_path = fake_sanitizer(on_path);

  /* Only on $PATH (after an empty and a missing entry). */
  char search[8192];
  snprintf(search, sizeof search, ":/nonexistent:%s", on_path);
  test_setenv("PATH", search);
  test_setenv("CUDA_HOME", home);
  char *found = cuemu__parity_sanitizer_find();
  const char *system = "/usr/local/cuda/bin/compute-sanitizer";
  const char *expected = access(system, X_OK) == 0 ? system : in_path;
  ck_assert_ptr_nonnull(found);
  ck_assert_str_eq(found, expected);
  free(found);

  /* $CUDA_HOME/bin comes first. */
  char *in_home = fake_sanitizer(home_bin);
  found = cuemu__parity_sanitizer_find();
  ck_assert_ptr_nonnull(found);
  ck_assert_str_eq(found, in_home);
  free(found);

  /* Not executable: not found there. */
  ck_assert_int_eq(chmod(in_home, 0644), 0);
  found = cuemu__parity_sanitizer_find();
  ck_assert_ptr_nonnull(found);
  ck_assert_str_eq(found, expected);
  free(found);

  /* Nowhere. */
  test_setenv("PATH", "/nonexistent");
  found = cuemu__parity_sanitizer_find();
  if (access(system, X_OK) == 0) {
    ck_assert_str_eq(found, system);
  } else {
    ck_assert_ptr_null(found);
  }
  free(found);
  test_rm_rf(root);
  free(root);
  free(home);
  free(home_bin);
  free(on_path);
  free(in_path);
  free(in_home);
}
END_TEST

/* ---- On a GPU (CUEMU_REQUIRE_CUDA=1) ------------------------------------- */

/* fill on the GPU, normally and cooperatively; an array without copy_back
 * keeps its host values. */
START_TEST(gpu_fill) {
  require_gpu();
  cuemu__parity_ptx ptx;
  compile_scale("fill", 0, &ptx);
  enum { N = 1000 };
  static int out[N], untouched[N];
  for (int cooperative = 0; cooperative < 2; ++cooperative) {
    for (int i = 0; i < N; ++i)
      out[i] = untouched[i] = -1;
    int n = N;
    cuemu__parity_gpu_arg args[] = {{out, sizeof out, 1, 1},
                                    {&n, sizeof n, 0, 0}};
    run_ok(&ptx, test_dim(4, 1, 1), test_dim(256, 1, 1), 0, cooperative, args,
           2);
    for (int i = 0; i < N; ++i)
      ck_assert_int_eq(out[i], i + 5);
    cuemu__parity_gpu_arg no_copy[] = {{untouched, sizeof untouched, 1, 0},
                                       {&n, sizeof n, 0, 0}};
    run_ok(&ptx, test_dim(4, 1, 1), test_dim(256, 1, 1), 0, cooperative,
           no_copy, 2);
    for (int i = 0; i < N; ++i)
      ck_assert_int_eq(untouched[i], -1);
  }
  cuemu__parity_nvrtc_free(&ptx);
}
END_TEST

START_TEST(gpu_template) {
  require_gpu();
  cuemu__parity_ptx ptx;
  compile_scale("scale<float, 3>", 0, &ptx);
  enum { N = 300 };
  float x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.5f * (float)i;
  int n = N;
  cuemu__parity_gpu_arg args[] = {{x, sizeof x, 1, 1}, {&n, sizeof n, 0, 0}};
  run_ok(&ptx, test_dim(3, 1, 1), test_dim(128, 1, 1), 0, 0, args, 2);
  for (int i = 0; i < N; ++i)
    ck_assert_float_eq(x[i], 1.5f * (float)i + 5.0f);
  cuemu__parity_nvrtc_free(&ptx);
}
END_TEST

/* 64 KiB of dynamic shared memory needs the kernel's opt-in attribute. */
START_TEST(gpu_large_dynamic_shared) {
  require_gpu();
  cuemu__parity_ptx ptx;
  compile_scale("block_total", 0, &ptx);
  long long total = -1;
  cuemu__parity_gpu_arg args[] = {{&total, sizeof total, 1, 1}};
  run_ok(&ptx, test_dim(1, 1, 1), test_dim(1024, 1, 1), 64 * 1024, 0, args, 1);
  ck_assert_int_eq(total, 1023LL * 1024 / 2);
  cuemu__parity_nvrtc_free(&ptx);
}
END_TEST

/* A faulting kernel is reported, and the next run starts clean. */
START_TEST(gpu_fault_then_clean_run) {
  require_gpu();
  cuemu__parity_ptx bad, good;
  compile_scale("kernels::store_at", 0, &bad);
  compile_scale("fill", 0, &good);
  int out[4] = {0};
  long long index = 1LL << 40;
  int value = 7;
  cuemu__parity_gpu_arg args[] = {{out, sizeof out, 1, 1},
                                  {&index, sizeof index, 0, 0},
                                  {&value, sizeof value, 0, 0}};
  char *message = NULL;
  ck_assert_int_eq(cuemu__parity_gpu_run(&bad, test_dim(1, 1, 1),
                                         test_dim(1, 1, 1), 0, 0, args, 3,
                                         &message),
                   CUEMU_CUDA_DRIVER);
  ck_assert_ptr_nonnull(message);
  TEST_ASSERT_CONTAINS(message, "_ZN7kernels8store_atEPixi");
  TEST_ASSERT_CONTAINS(message, "CUDA_ERROR_");
  free(message);

  int filled[4] = {0};
  int n = 4;
  cuemu__parity_gpu_arg fill_args[] = {{filled, sizeof filled, 1, 1},
                                       {&n, sizeof n, 0, 0}};
  run_ok(&good, test_dim(1, 1, 1), test_dim(32, 1, 1), 0, 0, fill_args, 2);
  for (int i = 0; i < n; ++i)
    ck_assert_int_eq(filled[i], i + 5);
  cuemu__parity_nvrtc_free(&bad);
  cuemu__parity_nvrtc_free(&good);
}
END_TEST

/* The driver refuses a launch; its error and the launch shape are named. */
START_TEST(gpu_launch_refused) {
  require_gpu();
  cuemu__parity_ptx ptx;
  compile_scale("fill", 0, &ptx);
  int out[4] = {0};
  int n = 4;
  cuemu__parity_gpu_arg args[] = {{out, sizeof out, 1, 1},
                                  {&n, sizeof n, 0, 0}};
  char *message = NULL;
  ck_assert_int_eq(cuemu__parity_gpu_run(&ptx, test_dim(1, 1, 1),
                                         test_dim(2048, 1, 1), 0, 0, args, 2,
                                         &message),
                   CUEMU_CUDA_DRIVER);
  TEST_ASSERT_CONTAINS(message, "cuLaunchKernel");
  TEST_ASSERT_CONTAINS(message, "block (2048, 1, 1)");
  free(message);
  cuemu__parity_nvrtc_free(&ptx);
}
END_TEST

/* A kernel that never ends is given up on after $CUEMU_GPU_TIMEOUT. */
START_TEST(gpu_time_limit) {
  require_gpu();
  test_setenv("CUEMU_GPU_TIMEOUT", "1");
  cuemu__parity_ptx ptx;
  compile_scale("spin", 0, &ptx);
  int flag = 0;
  cuemu__parity_gpu_arg args[] = {{&flag, sizeof flag, 1, 0}};
  char *message = NULL;
  ck_assert_int_eq(cuemu__parity_gpu_run(&ptx, test_dim(1, 1, 1),
                                         test_dim(1, 1, 1), 0, 0, args, 1,
                                         &message),
                   CUEMU_CUDA_DRIVER);
  TEST_ASSERT_CONTAINS(message, "did not finish within 1 s");
  free(message);
  ck_assert_int_eq(cuemu__parity_gpu_run(&ptx, test_dim(1, 1, 1),
                                         test_dim(1, 1, 1), 0, 0, args, 1,
                                         &message),
                   CUEMU_CUDA_DRIVER);
  TEST_ASSERT_CONTAINS(message, "still running");
  free(message);
  cuemu__parity_nvrtc_free(&ptx);
}
END_TEST

/* ---- The suite ----------------------------------------------------------- */

/* Whether a libnvrtc file exists anywhere NVRTC is looked for. */
static int nvrtc_installed(void) {
  char home[4200];
  snprintf(home, sizeof home, "%s/lib*/libnvrtc.so*",
           cuemu__parity_cuda_home());
  const char *patterns[] = {home, "/usr/local/cuda/lib*/libnvrtc.so*",
                            "/usr/lib/*/libnvrtc.so*",
                            "/usr/lib*/libnvrtc.so*"};
  const char *forced = getenv("CUEMU_NVRTC_LIBRARY");
  if (forced && *forced)
    return 1; /* it must load, then */
  for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; ++i) {
    glob_t found;
    int hit = glob(patterns[i], 0, NULL, &found) == 0 && found.gl_pathc > 0;
    globfree(&found);
    if (hit)
      return 1;
  }
  return 0;
}

/* Set-up installs the CUDA toolkit; where CI=true a part of it that is
 * missing fails the suite instead of leaving its tests out. */
START_TEST(toolkit_part_present) {
  ck_abort_msg("a part of the CUDA toolkit that set-up installs is missing "
               "(the suite's message above says which)");
}
END_TEST

/* Says on stderr that tests are left out, and where CI=true adds a test
 * that fails. */
static void leave_out(Suite *s, const char *message) {
  fputs(message, stderr);
  const char *ci = getenv("CI");
  if (ci && strcmp(ci, "true") == 0)
    tcase_add_test(test_tcase(s, "toolkit", 10), toolkit_part_present);
}

Suite *make_parity_gpu_suite(void) {
  Suite *s = suite_create("parity_gpu");

  if (nvrtc_installed()) {
    TCase *tc = test_tcase(s, "nvrtc", 120);
    tcase_add_test(tc, nvrtc_loads);
    tcase_add_test(tc, nvrtc_plain_kernel);
    tcase_add_test(tc, nvrtc_template_instantiations);
    tcase_add_test(tc, nvrtc_extern_c_and_namespaced_kernels);
    tcase_add_test(tc, nvrtc_case_options);
    tcase_add_test(tc, nvrtc_rejects_host_only_call);
    tcase_add_test(tc, nvrtc_unknown_kernel);
    tcase_add_test(tc, nvrtc_missing_source);
  } else {
    char message[4400];
    snprintf(message, sizeof message,
             "parity_gpu: no libnvrtc.so under %s or the system library "
             "folders: the NVRTC compile tests are skipped\n",
             cuemu__parity_cuda_home());
    leave_out(s, message);
  }

  TCase *absent = test_tcase(s, "absent", 30);
  tcase_add_test(absent, nvrtc_invalid_arguments);
  tcase_add_test(absent, nvrtc_absent);
  tcase_add_test(absent, nvrtc_wrong_library);
  tcase_add_test(absent, gpu_driver_absent);
  tcase_add_test(absent, gpu_driver_is_cuemus);
  tcase_add_test(absent, gpu_this_machine);
  tcase_add_test(absent, gpu_run_without_device);
  tcase_add_test(absent, gpu_run_invalid_arguments);
  char stub[4200];
  snprintf(stub, sizeof stub, "%s/lib64/stubs/libcuda.so",
           cuemu__parity_cuda_home());
  if (access(stub, R_OK) == 0 ||
      access("/usr/local/cuda/lib64/stubs/libcuda.so", R_OK) == 0)
    tcase_add_test(absent, gpu_stub_driver);
  else
    leave_out(s, "parity_gpu: no stubs/libcuda.so in the CUDA toolkit: the "
                 "stub driver test is skipped\n");

  TCase *fake = test_tcase(s, "fake_driver", 60);
  tcase_add_test(fake, fake_device_found);
  tcase_add_test(fake, fake_device_absent);
  tcase_add_test(fake, fake_init_fails);
  if (nvrtc_installed())
    tcase_add_test(fake, fake_device_sets_nvrtc_arch);
  tcase_add_test(fake, fake_run_copies_arguments);
  tcase_add_test(fake, fake_large_dynamic_shared);
  tcase_add_test(fake, fake_fault_resets_context);
  tcase_add_test(fake, fake_errors_before_launch);
  tcase_add_test(fake, fake_time_limit);

  TCase *sanitizer = test_tcase(s, "sanitizer", 30);
  tcase_add_test(sanitizer, sanitizer_tools);
  tcase_add_test(sanitizer, sanitizer_command_line);
  tcase_add_test(sanitizer, sanitizer_command_line_invalid);
  tcase_add_test(sanitizer, sanitizer_summary);
  tcase_add_test(sanitizer, sanitizer_search_order);

  const char *require = getenv("CUEMU_REQUIRE_CUDA");
  if (require && strcmp(require, "1") == 0) {
    TCase *gpu = test_tcase(s, "gpu", 120);
    tcase_add_test(gpu, gpu_fill);
    tcase_add_test(gpu, gpu_template);
    tcase_add_test(gpu, gpu_large_dynamic_shared);
    tcase_add_test(gpu, gpu_fault_then_clean_run);
    tcase_add_test(gpu, gpu_launch_refused);
    tcase_add_test(gpu, gpu_time_limit);
  } else {
    fprintf(stderr, "parity_gpu: kernels are run on a GPU only with "
                    "CUEMU_REQUIRE_CUDA=1 (parity/gpu-check.sh)\n");
  }
  return s;
}
