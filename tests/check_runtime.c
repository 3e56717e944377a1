/*
 * check_runtime.c: the CUDA runtime API through libcuemu's public side of
 * it (cuemu_runtime.h, cuemu_runtime_streams.h), as the shims' cuda*
 * functions call it: device queries, memory and its errors, the last error
 * and the sticky error after a kernel fault. Streams, events, launches,
 * function attributes and symbols are in check_runtime_launch.c.
 *
 * The kernels (tests/kernels/runtime_api.cu) are registered once, in the
 * parent process, as a whole program's are; every test runs in a child
 * process, so the sticky error of one never reaches another.
 *
 * A test that pins behaviour where cuemu differs from CUDA today says so in
 * a comment starting "CUDA DIFFERENCE"; such a test fails until the runtime
 * is fixed.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_streams.h>

#include "check_runtime.h"
#include "check_suites.h"
#include "cuemu_test_util.h"

/* ---- The program's kernels and launches ---------------------------------- */

static const cuemu_module_desc *program;

void runtime_program_setup(void) {
  if (!program)
    program = test_program("runtime_api.cu");
}

const void *runtime_kernel(const char *name) {
  ck_assert_ptr_nonnull(program);
  return test_program_kernel(program, name)->function;
}

int runtime_launch(const char *name, unsigned grid, unsigned block,
                   size_t dynamic_shared, void *stream, void **args) {
  cuemu_uint3 g = {grid, 1, 1}, b = {block, 1, 1};
  int status = CUEMU_SUCCESS;
  /* What the shims' cudaLaunchKernel does: the call's error, then the
   * kernel's execution error recorded as sticky. */
  int e = cuemu_rt_launch_kernel(runtime_kernel(name), NULL, g, b, args,
                                 dynamic_shared, stream, 0, &status);
  if (e != cudaSuccess)
    return e;
  e = cuemu_rt_record_launch_status(status);
  /* The kernel runs in its stream's order: the stream's synchronisation
   * returns its execution error. */
  return e ? e : cuemu_rt_stream_synchronize(stream);
}

/* ---- Device -------------------------------------------------------------- */

START_TEST(device_count_and_choice) {
  int n = -1, d = -1;
  ck_assert_int_eq(cuemu_rt_get_device_count(&n), cudaSuccess);
  ck_assert_int_eq(n, 1);
  ck_assert_int_eq(cuemu_rt_get_device(&d), cudaSuccess);
  ck_assert_int_eq(d, 0);
  ck_assert_int_eq(cuemu_rt_set_device(0), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_set_device(1), cudaErrorInvalidDevice);
  ck_assert_int_eq(cuemu_rt_set_device(-1), cudaErrorInvalidDevice);
  ck_assert_int_eq(cuemu_rt_get_device_count(NULL), cudaErrorInvalidValue);
  ck_assert_int_eq(cuemu_rt_get_device(NULL), cudaErrorInvalidValue);
  ck_assert_int_eq(cuemu_rt_get_last_error(), cudaErrorInvalidValue);
}
END_TEST

START_TEST(device_flags) {
  unsigned flags = 0;
  ck_assert_int_eq(cuemu_rt_set_device_flags(cudaDeviceScheduleYield),
                   cudaSuccess);
  ck_assert_int_eq(cuemu_rt_get_device_flags(&flags), cudaSuccess);
  /* Mapped pinned memory is always on, so CUDA adds cudaDeviceMapHost. */
  ck_assert_uint_eq(flags, cudaDeviceScheduleYield | cudaDeviceMapHost);
  ck_assert_int_eq(cuemu_rt_set_device_flags(0x100), cudaErrorInvalidValue);
  ck_assert_int_eq(cuemu_rt_set_device_flags(cudaDeviceScheduleSpin |
                                             cudaDeviceScheduleYield),
                   cudaErrorInvalidValue);
  ck_assert_int_eq(cuemu_rt_get_device_flags(NULL), cudaErrorInvalidValue);
}
END_TEST

START_TEST(default_properties) {
  struct cudaDeviceProp p;
  ck_assert_int_eq(cuemu_rt_get_device_properties(&p, 0), cudaSuccess);
  ck_assert_int_eq(p.major, 9);
  ck_assert_int_eq(p.minor, 0);
  ck_assert_int_eq(p.multiProcessorCount, 8);
  ck_assert_int_eq(p.warpSize, 32);
  ck_assert_int_eq(p.maxThreadsPerBlock, 1024);
  ck_assert_int_eq(p.maxThreadsDim[0], 1024);
  ck_assert_int_eq(p.maxThreadsDim[2], 64);
  ck_assert_int_eq(p.maxGridSize[0], 2147483647);
  ck_assert_int_eq(p.maxGridSize[1], 65535);
  ck_assert_uint_eq(p.sharedMemPerBlock, 48 * 1024);
  ck_assert_uint_eq(p.sharedMemPerBlockOptin, 227 * 1024);
  ck_assert_int_eq(p.cooperativeLaunch, 1);
  ck_assert_uint_gt(p.totalGlobalMem, 0);
  ck_assert_uint_gt(strlen(p.name), 0);
  ck_assert_int_eq(cuemu_rt_get_device_properties(&p, 1),
                   cudaErrorInvalidDevice);
  ck_assert_int_eq(cuemu_rt_get_device_properties(NULL, 0),
                   cudaErrorInvalidValue);
}
END_TEST

/* Every attribute agrees with the properties. */
START_TEST(attributes_agree_with_properties) {
  struct cudaDeviceProp p;
  ck_assert_int_eq(cuemu_rt_get_device_properties(&p, 0), cudaSuccess);
  static const struct {
    int attr;
    size_t offset;
  } pairs[] = {
      {cudaDevAttrMaxThreadsPerBlock,
       offsetof(struct cudaDeviceProp, maxThreadsPerBlock)},
      {cudaDevAttrMultiProcessorCount,
       offsetof(struct cudaDeviceProp, multiProcessorCount)},
      {cudaDevAttrComputeCapabilityMajor, offsetof(struct cudaDeviceProp, major)},
      {cudaDevAttrComputeCapabilityMinor, offsetof(struct cudaDeviceProp, minor)},
      {cudaDevAttrWarpSize, offsetof(struct cudaDeviceProp, warpSize)},
      {cudaDevAttrMaxBlockDimX, offsetof(struct cudaDeviceProp, maxThreadsDim)},
      {cudaDevAttrMaxGridDimY,
       offsetof(struct cudaDeviceProp, maxGridSize) + sizeof(int)},
  };
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; ++i) {
    int value = -1;
    ck_assert_int_eq(cuemu_rt_device_get_attribute(&value, pairs[i].attr, 0),
                     cudaSuccess);
    int expected;
    memcpy(&expected, (const char *)&p + pairs[i].offset, sizeof expected);
    ck_assert_msg(value == expected, "attribute %d is %d, the property %d",
                  pairs[i].attr, value, expected);
  }
  int value;
  ck_assert_int_eq(cuemu_rt_device_get_attribute(
                       &value, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0),
                   cudaSuccess);
  ck_assert_int_eq(value, (int)p.sharedMemPerBlockOptin);
  ck_assert_int_eq(cuemu_rt_device_get_attribute(&value, 100000, 0),
                   cudaErrorInvalidValue);
  ck_assert_int_eq(
      cuemu_rt_device_get_attribute(&value, cudaDevAttrWarpSize, 1),
      cudaErrorInvalidDevice);
  ck_assert_int_eq(cuemu_rt_device_get_attribute(NULL, cudaDevAttrWarpSize, 0),
                   cudaErrorInvalidValue);
}
END_TEST

/* CUEMU_DEVICE describes another device; every query, the function
 * attributes and launches follow it. The variable is read once per
 * process, and each test is a fresh child. */
START_TEST(configured_device) {
  test_setenv("CUEMU_DEVICE", "sm=80,sms=4,threads=256");
  struct cudaDeviceProp p;
  ck_assert_int_eq(cuemu_rt_get_device_properties(&p, 0), cudaSuccess);
  ck_assert_int_eq(p.major, 8);
  ck_assert_int_eq(p.minor, 0);
  ck_assert_int_eq(p.multiProcessorCount, 4);
  ck_assert_int_eq(p.maxThreadsPerBlock, 256);
  int value = 0;
  ck_assert_int_eq(
      cuemu_rt_device_get_attribute(&value, cudaDevAttrMaxThreadsPerBlock, 0),
      cudaSuccess);
  ck_assert_int_eq(value, 256);
  ck_assert_uint_eq(cuemu_rt_sm_count(), 4);

  int out[512];
  int *po = out, v = 3;
  void *args[] = {&po, &v};
  ck_assert_int_eq(runtime_launch("rt_fill", 1, 256, 0, NULL, args),
                   cudaSuccess);
  ck_assert_int_eq(runtime_launch("rt_fill", 1, 512, 0, NULL, args),
                   cudaErrorInvalidConfiguration);
}
END_TEST

/* CUDA DIFFERENCE (issue 12): cudaFuncGetAttributes says 1024 threads per
 * block on a device that allows 256, and CUDA's maxThreadsPerBlock of a
 * function is never more than the device's. */
START_TEST(configured_device_function_attributes) {
  test_setenv("CUEMU_DEVICE", "threads=256");
  cuemu_rt_func_attributes a;
  ck_assert_int_eq(
      cuemu_rt_func_get_attributes(&a, runtime_kernel("rt_fill"), 1),
      cudaSuccess);
  ck_assert_int_eq(a.max_threads_per_block, 256);
}
END_TEST

START_TEST(versions_and_memory_info) {
  int v = 0;
  ck_assert_int_eq(cuemu_rt_runtime_get_version(&v), cudaSuccess);
  ck_assert_int_eq(v, 13000);
  ck_assert_int_eq(cuemu_rt_driver_get_version(&v), cudaSuccess);
  ck_assert_int_ge(v, 13000);
  ck_assert_int_eq(cuemu_rt_runtime_get_version(NULL), cudaErrorInvalidValue);
  ck_assert_int_eq(cuemu_rt_driver_get_version(NULL), cudaErrorInvalidValue);
  size_t free_bytes = 0, total = 0;
  ck_assert_int_eq(cuemu_rt_mem_get_info(&free_bytes, &total), cudaSuccess);
  ck_assert_uint_gt(total, 0);
  ck_assert_uint_le(free_bytes, total);
  /* Either output may be NULL, as with CUDA: the other one is written. */
  size_t total_alone = 0;
  ck_assert_int_eq(cuemu_rt_mem_get_info(NULL, &total_alone), cudaSuccess);
  ck_assert_uint_eq(total_alone, total);
  ck_assert_int_eq(cuemu_rt_mem_get_info(&free_bytes, NULL), cudaSuccess);
}
END_TEST

/* ---- Memory -------------------------------------------------------------- */

START_TEST(copies_round_trip) {
  enum { N = 256 };
  int host[N], back[N];
  for (int i = 0; i < N; ++i)
    host[i] = i * 7;
  int *a = NULL, *b = NULL;
  ck_assert_int_eq(cuemu_rt_malloc((void **)&a, sizeof host), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_malloc((void **)&b, sizeof host), cudaSuccess);
  ck_assert_ptr_nonnull(a);
  ck_assert_int_eq(
      cuemu_rt_memcpy(a, host, sizeof host, cudaMemcpyHostToDevice),
      cudaSuccess);
  ck_assert_int_eq(
      cuemu_rt_memcpy(b, a, sizeof host, cudaMemcpyDeviceToDevice),
      cudaSuccess);
  memset(back, 0, sizeof back);
  ck_assert_int_eq(cuemu_rt_memcpy(back, b, sizeof back, cudaMemcpyDefault),
                   cudaSuccess);
  ck_assert_int_eq(memcmp(host, back, sizeof host), 0);
  ck_assert_int_eq(cuemu_rt_memset(b, 0xff, sizeof host / 2), cudaSuccess);
  ck_assert_int_eq(
      cuemu_rt_memcpy(back, b, sizeof back, cudaMemcpyDeviceToHost),
      cudaSuccess);
  ck_assert_int_eq(back[0], -1);
  ck_assert_int_eq(back[N / 2 - 1], -1);
  ck_assert_int_eq(back[N / 2], host[N / 2]);
  ck_assert_int_eq(cuemu_rt_free(a), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_free(b), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_get_last_error(), cudaSuccess);
}
END_TEST

START_TEST(allocation_errors) {
  void *p = (void *)1;
  ck_assert_int_eq(cuemu_rt_malloc(NULL, 16), cudaErrorInvalidValue);
  ck_assert_int_eq(cuemu_rt_malloc(&p, SIZE_MAX / 2),
                   cudaErrorMemoryAllocation);
  ck_assert_int_eq(cuemu_rt_get_last_error(), cudaErrorMemoryAllocation);
  /* Freeing NULL does nothing; freeing what is not an allocation, or
   * freeing twice, is an invalid value. */
  ck_assert_int_eq(cuemu_rt_free(NULL), cudaSuccess);
  int local;
  ck_assert_int_eq(cuemu_rt_free(&local), cudaErrorInvalidValue);
  ck_assert_int_eq(cuemu_rt_malloc(&p, 64), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_free((char *)p + 8), cudaErrorInvalidValue);
  ck_assert_int_eq(cuemu_rt_free(p), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_free(p), cudaErrorInvalidValue);
  /* Device memory is not freed as host memory, nor host memory as device. */
  void *host = NULL;
  ck_assert_int_eq(cuemu_rt_host_alloc(&host, 64, cudaHostAllocDefault),
                   cudaSuccess);
  ck_assert_int_eq(cuemu_rt_malloc(&p, 64), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_free_host(p), cudaErrorInvalidValue);
  ck_assert_int_eq(cuemu_rt_free_host(host), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_free(p), cudaSuccess);
}
END_TEST

/* A copy or set that would reach past an allocation fails and touches
 * nothing. */
START_TEST(copy_and_set_bounds) {
  int host[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  int *d = NULL;
  ck_assert_int_eq(cuemu_rt_malloc((void **)&d, 4 * sizeof(int)),
                   cudaSuccess);
  ck_assert_int_eq(cuemu_rt_memset(d, 0, 4 * sizeof(int)), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_memcpy(d, host, sizeof host,
                                   cudaMemcpyHostToDevice),
                   cudaErrorInvalidValue);
  ck_assert_int_eq(cuemu_rt_memset(d + 2, 1, 4 * sizeof(int)),
                   cudaErrorInvalidValue);
  int back[4] = {9, 9, 9, 9};
  ck_assert_int_eq(cuemu_rt_memcpy(back, d, sizeof back,
                                   cudaMemcpyDeviceToHost),
                   cudaSuccess);
  for (int i = 0; i < 4; ++i)
    ck_assert_int_eq(back[i], 0);
  ck_assert_int_eq(cuemu_rt_memcpy(back, d, 8 * sizeof(int),
                                   cudaMemcpyDeviceToHost),
                   cudaErrorInvalidValue);
  /* An unknown direction. */
  ck_assert_int_eq(cuemu_rt_memcpy(back, d, sizeof back, 9),
                   cudaErrorInvalidMemcpyDirection);
  ck_assert_int_eq(cuemu_rt_peek_last_error(), cudaErrorInvalidMemcpyDirection);
  ck_assert_int_eq(cuemu_rt_free(d), cudaSuccess);
}
END_TEST

START_TEST(pitched_memory) {
  void *p = NULL;
  size_t pitch = 0;
  ck_assert_int_eq(cuemu_rt_malloc_pitch(&p, &pitch, 100, 4), cudaSuccess);
  ck_assert_uint_ge(pitch, 100);
  ck_assert_uint_eq(pitch % 32, 0);
  char rows[4][100];
  for (int r = 0; r < 4; ++r)
    memset(rows[r], 'a' + r, sizeof rows[r]);
  ck_assert_int_eq(cuemu_rt_memcpy_2d(p, pitch, rows, 100, 100, 4,
                                      cudaMemcpyHostToDevice),
                   cudaSuccess);
  char back[4][100];
  ck_assert_int_eq(cuemu_rt_memcpy_2d(back, 100, p, pitch, 100, 4,
                                      cudaMemcpyDeviceToHost),
                   cudaSuccess);
  ck_assert_int_eq(memcmp(rows, back, sizeof rows), 0);
  /* A width past the pitch. */
  ck_assert_int_eq(cuemu_rt_memcpy_2d(back, 100, p, pitch, pitch + 1, 1,
                                      cudaMemcpyDeviceToHost),
                   cudaErrorInvalidPitchValue);
  ck_assert_int_eq(cuemu_rt_memset_2d(p, pitch, 0, 100, 4), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_free(p), cudaSuccess);
}
END_TEST

START_TEST(pointer_attributes) {
  struct cudaPointerAttributes a;
  void *d = NULL, *h = NULL;
  int local = 0;
  ck_assert_int_eq(cuemu_rt_malloc(&d, 32), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_host_alloc(&h, 32, cudaHostAllocMapped),
                   cudaSuccess);
  ck_assert_int_eq(cuemu_rt_pointer_get_attributes(&a, d), cudaSuccess);
  ck_assert_int_eq(a.type, cudaMemoryTypeDevice);
  ck_assert_ptr_eq(a.devicePointer, d);
  ck_assert_int_eq(cuemu_rt_pointer_get_attributes(&a, h), cudaSuccess);
  ck_assert_int_eq(a.type, cudaMemoryTypeHost);
  ck_assert_ptr_eq(a.hostPointer, h);
  ck_assert_int_eq(cuemu_rt_pointer_get_attributes(&a, &local), cudaSuccess);
  ck_assert_int_eq(a.type, cudaMemoryTypeUnregistered);
  ck_assert_int_eq(cuemu_rt_pointer_get_attributes(NULL, d),
                   cudaErrorInvalidValue);
  /* Registering host memory twice, and unregistering what is not. */
  static char buffer[4096];
  ck_assert_int_eq(cuemu_rt_host_register(buffer, sizeof buffer, 0),
                   cudaSuccess);
  ck_assert_int_eq(cuemu_rt_host_register(buffer, sizeof buffer, 0),
                   cudaErrorHostMemoryAlreadyRegistered);
  ck_assert_int_eq(cuemu_rt_host_unregister(buffer), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_host_unregister(buffer),
                   cudaErrorHostMemoryNotRegistered);
  ck_assert_int_eq(cuemu_rt_free(d), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_free_host(h), cudaSuccess);
}
END_TEST

/* ---- Errors -------------------------------------------------------------- */

START_TEST(last_error_and_peek) {
  ck_assert_int_eq(cuemu_rt_get_last_error(), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_set_device(3), cudaErrorInvalidDevice);
  ck_assert_int_eq(cuemu_rt_peek_last_error(), cudaErrorInvalidDevice);
  ck_assert_int_eq(cuemu_rt_peek_last_error(), cudaErrorInvalidDevice);
  /* A call that succeeds leaves the last error as it is. */
  int n;
  ck_assert_int_eq(cuemu_rt_get_device_count(&n), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_get_last_error(), cudaErrorInvalidDevice);
  ck_assert_int_eq(cuemu_rt_get_last_error(), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_peek_last_error(), cudaSuccess);
}
END_TEST

static void *fail_in_thread(void *arg) {
  (void)arg;
  cuemu_rt_set_device(5);
  return (void *)(intptr_t)cuemu_rt_peek_last_error();
}

/* The last error belongs to the host thread. */
START_TEST(last_error_per_thread) {
  pthread_t t;
  void *seen = NULL;
  ck_assert_int_eq(pthread_create(&t, NULL, fail_in_thread, NULL), 0);
  ck_assert_int_eq(pthread_join(t, &seen), 0);
  ck_assert_int_eq((int)(intptr_t)seen, cudaErrorInvalidDevice);
  ck_assert_int_eq(cuemu_rt_peek_last_error(), cudaSuccess);
}
END_TEST

START_TEST(error_names_and_strings) {
  ck_assert_str_eq(cuemu_rt_error_name(cudaSuccess), "cudaSuccess");
  ck_assert_str_eq(cuemu_rt_error_string(cudaSuccess), "no error");
  ck_assert_str_eq(cuemu_rt_error_name(700), "cudaErrorIllegalAddress");
  ck_assert_str_eq(cuemu_rt_error_string(700),
                   "an illegal memory access was encountered");
  ck_assert_str_eq(cuemu_rt_error_name(9), "cudaErrorInvalidConfiguration");
  ck_assert_str_eq(cuemu_rt_error_name(12345), "unrecognized error code");
  ck_assert_str_eq(cuemu_rt_error_string(-1), "unrecognized error code");
}
END_TEST

/* After a kernel faults, every call that works with the device returns the
 * fault, launches included, and cudaGetLastError cannot clear it; queries of
 * the installation still work; cudaDeviceReset clears it. */
START_TEST(sticky_error_after_fault) {
  int *null = NULL;
  void *fault_args[] = {&null};
  ck_assert_int_eq(runtime_launch("rt_write_through", 1, 32, 0, NULL,
                                  fault_args),
                   cudaErrorIllegalAddress);
  ck_assert_int_eq(cuemu_rt_sticky(), cudaErrorIllegalAddress);
  ck_assert_int_eq(cuemu_rt_device_synchronize(), cudaErrorIllegalAddress);
  void *p = NULL;
  ck_assert_int_eq(cuemu_rt_malloc(&p, 16), cudaErrorIllegalAddress);
  int host = 1;
  ck_assert_int_eq(cuemu_rt_memcpy(&host, &host, sizeof host,
                                   cudaMemcpyHostToHost),
                   cudaErrorIllegalAddress);
  ck_assert_int_eq(cuemu_rt_set_device(0), cudaErrorIllegalAddress);
  ck_assert_int_eq(cuemu_rt_get_last_error(), cudaErrorIllegalAddress);
  ck_assert_int_eq(cuemu_rt_get_last_error(), cudaErrorIllegalAddress);

  /* A later launch is refused and runs nothing. */
  int out[32] = {0};
  int *po = out, v = 42;
  void *args[] = {&po, &v};
  ck_assert_int_eq(runtime_launch("rt_fill", 1, 32, 0, NULL, args),
                   cudaErrorIllegalAddress);
  ck_assert_int_eq(out[0], 0);

  int n = 0;
  ck_assert_int_eq(cuemu_rt_get_device_count(&n), cudaSuccess);
  struct cudaDeviceProp prop;
  ck_assert_int_eq(cuemu_rt_get_device_properties(&prop, 0), cudaSuccess);
  ck_assert_str_eq(cuemu_rt_error_name(cuemu_rt_sticky()),
                   "cudaErrorIllegalAddress");

  ck_assert_int_eq(cuemu_rt_device_reset(), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_sticky(), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_get_last_error(), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_malloc(&p, 16), cudaSuccess);
  ck_assert_int_eq(runtime_launch("rt_fill", 1, 32, 0, NULL, args),
                   cudaSuccess);
  ck_assert_int_eq(out[31], 42);
}
END_TEST

/* CUDA DIFFERENCE (issue 12): a kernel<<<>>> launch (cuemu_program_launch,
 * then the launch's status recorded, as the shims' thunk does) still runs
 * after a kernel fault and writes memory; CUDA refuses it with the sticky
 * error. */
START_TEST(sticky_error_stops_triple_chevron_launches) {
  int *null = NULL;
  void *fault_args[] = {&null};
  ck_assert_int_eq(runtime_launch("rt_write_through", 1, 1, 0, NULL,
                                  fault_args),
                   cudaErrorIllegalAddress);
  int flag = 0;
  int *pf = &flag, v = 42;
  void *args[] = {&pf, &v};
  cuemu_uint3 one = {1, 1, 1};
  int status = cuemu_program_launch(test_program_kernel(program, "rt_fill"),
                                    one, one, 0, NULL, args);
  cuemu_rt_record_launch_status(status);
  ck_assert_int_eq(flag, 0);
  ck_assert_int_eq(cuemu_rt_get_last_error(), cudaErrorIllegalAddress);
}
END_TEST

/* Each execution error becomes the CUDA error of the status table, sticky;
 * the first one stays. */
START_TEST(execution_errors_are_sticky) {
  int zero = 0;
  void *assert_args[] = {&zero};
  ck_assert_int_eq(runtime_launch("rt_assert_positive", 1, 4, 0, NULL,
                                  assert_args),
                   cudaErrorAssert);
  ck_assert_int_eq(runtime_launch("rt_trap", 1, 1, 0, NULL, NULL),
                   cudaErrorAssert);
  ck_assert_int_eq(cuemu_rt_sticky(), cudaErrorAssert);
  ck_assert_int_eq(cuemu_rt_device_reset(), cudaSuccess);
  ck_assert_int_eq(runtime_launch("rt_trap", 1, 1, 0, NULL, NULL),
                   cuemu_status_cuda_error(CUEMU_TRAP));
  ck_assert_int_eq(cuemu_rt_sticky(), cudaErrorIllegalInstruction);
}
END_TEST

/* A configuration error is the launch's own: not sticky. */
START_TEST(configuration_errors_are_not_sticky) {
  int out[4];
  int *po = out, v = 1;
  void *args[] = {&po, &v};
  ck_assert_int_eq(runtime_launch("rt_fill", 1, 2048, 0, NULL, args),
                   cudaErrorInvalidConfiguration);
  ck_assert_int_eq(runtime_launch("rt_fill", 0, 32, 0, NULL, args),
                   cudaErrorInvalidConfiguration);
  ck_assert_int_eq(cuemu_rt_sticky(), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_get_last_error(), cudaErrorInvalidConfiguration);
  ck_assert_int_eq(cuemu_rt_get_last_error(), cudaSuccess);
  ck_assert_int_eq(runtime_launch("rt_fill", 1, 4, 0, NULL, args),
                   cudaSuccess);
  ck_assert_int_eq(out[3], 1);
}
END_TEST

Suite *make_runtime_suite(void) {
  Suite *s = suite_create("runtime");
  TCase *device = test_tcase(s, "device", 120);
  tcase_add_unchecked_fixture(device, runtime_program_setup, NULL);
  tcase_add_test(device, device_count_and_choice);
  tcase_add_test(device, device_flags);
  tcase_add_test(device, default_properties);
  tcase_add_test(device, attributes_agree_with_properties);
  tcase_add_test(device, configured_device);
  tcase_add_test(device, configured_device_function_attributes);
  tcase_add_test(device, versions_and_memory_info);

  TCase *memory = test_tcase(s, "memory", 30);
  tcase_add_test(memory, copies_round_trip);
  tcase_add_test(memory, allocation_errors);
  tcase_add_test(memory, copy_and_set_bounds);
  tcase_add_test(memory, pitched_memory);
  tcase_add_test(memory, pointer_attributes);

  TCase *errors = test_tcase(s, "errors", 120);
  tcase_add_unchecked_fixture(errors, runtime_program_setup, NULL);
  tcase_add_test(errors, last_error_and_peek);
  tcase_add_test(errors, last_error_per_thread);
  tcase_add_test(errors, error_names_and_strings);
  tcase_add_test(errors, sticky_error_after_fault);
  tcase_add_test(errors, sticky_error_stops_triple_chevron_launches);
  tcase_add_test(errors, execution_errors_are_sticky);
  tcase_add_test(errors, configuration_errors_are_not_sticky);
  return s;
}
