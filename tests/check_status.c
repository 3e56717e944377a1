/*
 * check_status.c: the status table: every status has a name and a
 * description, the CUDA runtime and driver errors it becomes and whether it
 * is sticky are pinned, and unknown values are handled.
 */
#include <string.h>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_runtime.h>

#include "check_suites.h"

START_TEST(every_status_has_a_name_and_text) {
  for (int s = 0; s < CUEMU_STATUS_COUNT_; ++s) {
    ck_assert_str_ne(cuemu_status_name((cuemu_status)s), "UNKNOWN");
    ck_assert_str_ne(cuemu_strerror((cuemu_status)s), "unknown status");
    ck_assert_int_gt(strlen(cuemu_strerror((cuemu_status)s)), 0);
  }
  ck_assert_str_eq(cuemu_status_name(CUEMU_SUCCESS), "SUCCESS");
  ck_assert_int_eq(CUEMU_SUCCESS, 0);
  ck_assert_str_eq(cuemu_status_name(CUEMU_DEADLOCK), "DEADLOCK");
}
END_TEST

/* What each status becomes in CUDA, written out again here on purpose: a
 * change of the table must be a change of this list too. The reasons are
 * beside the rows of cuemu_status.h. */
static const struct {
  cuemu_status status;
  const char *runtime; /* cudaGetErrorName */
  int runtime_value;
  const char *driver; /* cuGetErrorName */
  int driver_value;
  int sticky;
} expected[] = {
    {CUEMU_SUCCESS, "cudaSuccess", 0, "CUDA_SUCCESS", 0, 0},
    {CUEMU_INVALID_VALUE, "cudaErrorInvalidValue", 1,
     "CUDA_ERROR_INVALID_VALUE", 1, 0},
    {CUEMU_OUT_OF_MEMORY, "cudaErrorMemoryAllocation", 2,
     "CUDA_ERROR_OUT_OF_MEMORY", 2, 0},
    {CUEMU_IO_ERROR, "cudaErrorOperatingSystem", 304,
     "CUDA_ERROR_OPERATING_SYSTEM", 304, 0},
    {CUEMU_MODULE_LOAD, "cudaErrorInvalidKernelImage", 200,
     "CUDA_ERROR_INVALID_IMAGE", 200, 0},
    {CUEMU_MODULE_VERSION, "cudaErrorNoKernelImageForDevice", 209,
     "CUDA_ERROR_NO_BINARY_FOR_GPU", 209, 0},
    {CUEMU_KERNEL_IMAGE, "cudaErrorNoKernelImageForDevice", 209,
     "CUDA_ERROR_NO_BINARY_FOR_GPU", 209, 0},
    {CUEMU_KERNEL_NOT_FOUND, "cudaErrorInvalidDeviceFunction", 98,
     "CUDA_ERROR_NOT_FOUND", 500, 0},
    {CUEMU_INVALID_GRID_DIM, "cudaErrorInvalidConfiguration", 9,
     "CUDA_ERROR_INVALID_VALUE", 1, 0},
    {CUEMU_INVALID_BLOCK_DIM, "cudaErrorInvalidConfiguration", 9,
     "CUDA_ERROR_INVALID_VALUE", 1, 0},
    {CUEMU_TOO_MANY_THREADS, "cudaErrorInvalidConfiguration", 9,
     "CUDA_ERROR_INVALID_VALUE", 1, 0},
    {CUEMU_LAUNCH_BOUNDS, "cudaErrorLaunchOutOfResources", 701,
     "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", 701, 0},
    {CUEMU_SHARED_MEMORY_LIMIT, "cudaErrorInvalidValue", 1,
     "CUDA_ERROR_INVALID_VALUE", 1, 0},
    {CUEMU_ARGUMENT_COUNT, "cudaErrorInvalidValue", 1,
     "CUDA_ERROR_INVALID_VALUE", 1, 0},
    {CUEMU_DIVERGENT_BARRIER, "cudaErrorLaunchFailure", 719,
     "CUDA_ERROR_LAUNCH_FAILED", 719, 1},
    {CUEMU_DEADLOCK, "cudaErrorLaunchTimeout", 702,
     "CUDA_ERROR_LAUNCH_TIMEOUT", 702, 1},
    {CUEMU_WARP_MISUSE, "cudaErrorLaunchFailure", 719,
     "CUDA_ERROR_LAUNCH_FAILED", 719, 1},
    {CUEMU_STACK_OVERFLOW, "cudaErrorHardwareStackError", 714,
     "CUDA_ERROR_HARDWARE_STACK_ERROR", 714, 1},
    {CUEMU_LAUNCH_RESOURCES, "cudaErrorLaunchOutOfResources", 701,
     "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", 701, 1},
    {CUEMU_KERNEL_FAULT, "cudaErrorIllegalAddress", 700,
     "CUDA_ERROR_ILLEGAL_ADDRESS", 700, 1},
    {CUEMU_ASSERT, "cudaErrorAssert", 710, "CUDA_ERROR_ASSERT", 710, 1},
    {CUEMU_TRAP, "cudaErrorIllegalInstruction", 715,
     "CUDA_ERROR_ILLEGAL_INSTRUCTION", 715, 1},
    {CUEMU_COMPILE, "cudaErrorInvalidSource", 300,
     "CUDA_ERROR_INVALID_SOURCE", 300, 0},
    {CUEMU_CACHE, "cudaErrorOperatingSystem", 304,
     "CUDA_ERROR_OPERATING_SYSTEM", 304, 0},
    {CUEMU_NOT_SUPPORTED, "cudaErrorNotSupported", 801,
     "CUDA_ERROR_NOT_SUPPORTED", 801, 0},
    {CUEMU_COOPERATIVE_TOO_LARGE, "cudaErrorCooperativeLaunchTooLarge", 720,
     "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE", 720, 0},
    {CUEMU_GRID_SYNC, "cudaErrorIllegalInstruction", 715,
     "CUDA_ERROR_ILLEGAL_INSTRUCTION", 715, 1},
    {CUEMU_INVALID_HANDLE, "cudaErrorInvalidResourceHandle", 400,
     "CUDA_ERROR_INVALID_HANDLE", 400, 0},
    {CUEMU_CHECK_REPORT, "cudaErrorLaunchFailure", 719,
     "CUDA_ERROR_LAUNCH_FAILED", 719, 1},
    {CUEMU_CASE_INVALID, "cudaErrorInvalidValue", 1,
     "CUDA_ERROR_INVALID_VALUE", 1, 0},
    {CUEMU_HOST_COMPILE, "cudaErrorUnknown", 999, "CUDA_ERROR_UNKNOWN", 999,
     0},
    {CUEMU_HOST_FAULT, "cudaErrorUnknown", 999, "CUDA_ERROR_UNKNOWN", 999, 0},
    {CUEMU_MISMATCH, "cudaErrorUnknown", 999, "CUDA_ERROR_UNKNOWN", 999, 0},
    {CUEMU_NVRTC, "cudaErrorUnknown", 999, "CUDA_ERROR_UNKNOWN", 999, 0},
    {CUEMU_NO_DEVICE, "cudaErrorNoDevice", 100, "CUDA_ERROR_NO_DEVICE", 100,
     0},
    {CUEMU_CUDA_DRIVER, "cudaErrorUnknown", 999, "CUDA_ERROR_UNKNOWN", 999,
     0},
    {CUEMU_INTERNAL, "cudaErrorUnknown", 999, "CUDA_ERROR_UNKNOWN", 999, 0},
    {CUEMU_CLUSTER_SIZE, "cudaErrorInvalidClusterSize", 912,
     "CUDA_ERROR_INVALID_CLUSTER_SIZE", 912, 0},
    {CUEMU_MISALIGNED_ADDRESS, "cudaErrorMisalignedAddress", 716,
     "CUDA_ERROR_MISALIGNED_ADDRESS", 716, 1},
    {CUEMU_ILLEGAL_INSTRUCTION, "cudaErrorIllegalInstruction", 715,
     "CUDA_ERROR_ILLEGAL_INSTRUCTION", 715, 1},
    {CUEMU_LAUNCH_FAILED, "cudaErrorLaunchFailure", 719,
     "CUDA_ERROR_LAUNCH_FAILED", 719, 1},
    {CUEMU_PTX_TARGET, "cudaErrorInvalidPtx", 218, "CUDA_ERROR_INVALID_PTX",
     218, 0},
    {CUEMU_PTX_JIT, "cudaErrorInvalidPtx", 218, "CUDA_ERROR_INVALID_PTX", 218,
     0},
};

START_TEST(every_status_has_its_cuda_errors) {
  int n = (int)(sizeof expected / sizeof expected[0]);
  /* One row per status, in the table's order: a new status needs a row. */
  ck_assert_int_eq(n, CUEMU_STATUS_COUNT_);
  for (int i = 0; i < n; ++i) {
    cuemu_status s = expected[i].status;
    ck_assert_int_eq(s, i);
    const char *name = cuemu_status_name(s);
    int runtime = cuemu_status_cuda_error(s);
    int driver = cuemu_status_driver_error(s);
    ck_assert_msg(runtime == expected[i].runtime_value,
                  "%s: runtime error %d, expected %d", name, runtime,
                  expected[i].runtime_value);
    ck_assert_str_eq(cuemu_rt_error_name(runtime), expected[i].runtime);
    ck_assert_msg(driver == expected[i].driver_value,
                  "%s: driver error %d, expected %d", name, driver,
                  expected[i].driver_value);
    ck_assert_str_eq(cuemu_driver_error_name(driver), expected[i].driver);
    ck_assert_msg(!!cuemu_status_is_sticky(s) == expected[i].sticky,
                  "%s: sticky is %d, expected %d", name,
                  cuemu_status_is_sticky(s), expected[i].sticky);
  }
}
END_TEST

START_TEST(driver_error_names_and_texts) {
  ck_assert_str_eq(cuemu_driver_error_name(700), "CUDA_ERROR_ILLEGAL_ADDRESS");
  ck_assert_str_eq(cuemu_driver_error_string(700),
                   "an illegal memory access was encountered");
  ck_assert_str_eq(cuemu_driver_error_name(0), "CUDA_SUCCESS");
  ck_assert_str_eq(cuemu_driver_error_string(0), "no error");
  ck_assert_str_eq(cuemu_driver_error_name(999), "CUDA_ERROR_UNKNOWN");
  /* Codes CUDA does not have: cuGetErrorName leaves its answer NULL. */
  ck_assert_ptr_null(cuemu_driver_error_name(12345));
  ck_assert_ptr_null(cuemu_driver_error_string(-1));
  /* Every status's driver error has a name and a text. */
  for (int s = 0; s < CUEMU_STATUS_COUNT_; ++s) {
    int code = cuemu_status_driver_error((cuemu_status)s);
    ck_assert_ptr_nonnull(cuemu_driver_error_name(code));
    ck_assert_ptr_nonnull(cuemu_driver_error_string(code));
  }
}
END_TEST

START_TEST(unknown_status) {
  ck_assert_str_eq(cuemu_status_name((cuemu_status)9999), "UNKNOWN");
  ck_assert_str_eq(cuemu_strerror((cuemu_status)-1), "unknown status");
  ck_assert_int_eq(cuemu_status_cuda_error((cuemu_status)9999), 999);
  ck_assert_int_eq(cuemu_status_driver_error((cuemu_status)-1), 999);
  ck_assert_int_eq(cuemu_status_is_sticky((cuemu_status)9999), 0);
}
END_TEST

START_TEST(messages_are_per_call) {
  cuemu_module *m = NULL;
  ck_assert_int_eq(cuemu_module_load(&m, "/nonexistent/module.so"),
                   CUEMU_MODULE_LOAD);
  ck_assert_ptr_null(m);
  ck_assert_ptr_nonnull(strstr(cuemu_last_message(), "/nonexistent/module.so"));
  ck_assert_int_eq(cuemu_module_load(NULL, "x"), CUEMU_INVALID_VALUE);
}
END_TEST

Suite *make_status_suite(void) {
  Suite *s = suite_create("status");
  TCase *tc = tcase_create("table");
  tcase_set_timeout(tc, 30);
  tcase_add_test(tc, every_status_has_a_name_and_text);
  tcase_add_test(tc, every_status_has_its_cuda_errors);
  tcase_add_test(tc, driver_error_names_and_texts);
  tcase_add_test(tc, unknown_status);
  tcase_add_test(tc, messages_are_per_call);
  suite_add_tcase(s, tc);
  return s;
}
