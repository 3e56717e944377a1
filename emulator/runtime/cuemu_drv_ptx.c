/*
 * cuemu_drv_ptx.c: NVIDIA PTX text given to the driver API's loads
 * (cuModuleLoad of a .ptx file, cuModuleLoadData, cuModuleLoadDataEx,
 * cuLinkAddData and cuLinkAddFile with CU_JIT_INPUT_PTX) is compiled, as
 * the driver JIT-compiles PTX on a GPU: translated to CUDA C++
 * (cuemu_ptx_module.c) and compiled by cuemu's NVRTC into a module image,
 * which the load then takes like any other. The compile goes through
 * cuemu's compile cache, so a program that loads the same PTX at every run
 * compiles it once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_driver_errors.h>
#include <cuemu/cuemu_nvrtc.h>

#include "base/cuemu_config.h"
#include "base/cuemu_report.h"
#include "compile/cuemu_ptx.h"
#include "device/cuemu_device_model.h"
#include "runtime/cuemu_drv_internal.h"

enum {
#define CUEMU_DRV_ENUM_(name, value, text) DRV_##name = value,
  CUEMU_DRIVER_ERROR_MAP(CUEMU_DRV_ENUM_)
#undef CUEMU_DRV_ENUM_
};

int cuemu__drv_ptx_is(const void *image, size_t n) {
  const char *text = image;
  size_t length = n == SIZE_MAX ? strlen(text) : strnlen(text, n);
  return cuemu__ptx_module_is(text, length);
}

/* The target's compute capability times ten (`.target sm_90a` is 90), 0
 * when the text names none. */
static int ptx_target(const char *text) {
  const char *t = strstr(text, ".target");
  if (!t) return 0;
  t += 7;
  while (*t == ' ' || *t == '\t') t++;
  if (strncmp(t, "sm_", 3) != 0 && strncmp(t, "compute_", 8) != 0) return 0;
  return atoi(strchr(t, '_') + 1);
}

/* A failed JIT compile: the message printed, CUDA_ERROR_INVALID_PTX. */
static int jit_failed(const char *call, const char *where, const char *what,
                      const char *log) {
  cuemu__report(CUEMU_PTX_JIT, "%s: %s: PTX text (nvcc's): %s", call, where,
                what);
  if (!cuemu__config_quiet())
    fprintf(stderr, "cuemu: %s\n%s", cuemu_last_message(), log ? log : "");
  return DRV_CUDA_ERROR_INVALID_PTX;
}

int cuemu__drv_ptx_image(const char *call, const void *image, size_t n,
                         const char *where, void **out, size_t *size) {
  *out = NULL;
  *size = 0;
  const char *given = image;
  size_t length = n == SIZE_MAX ? strlen(given) : strnlen(given, n);
  char *text = strndup(given, length);
  if (!text) return DRV_CUDA_ERROR_OUT_OF_MEMORY;
  const cuemu_device_model *model = cuemu__device_model();
  int target = ptx_target(text), device = model->major * 10 + model->minor;
  if (target > device) {
    char what[160];
    snprintf(what, sizeof what,
             "ptxas fatal   : SM version specified by .target (sm_%d) is "
             "higher than default SM version assumed (sm_%d)",
             target, device);
    free(text);
    return jit_failed(call, where, what, NULL);
  }
  cuemu_ptx_result tr;
  cuemu_status st = cuemu__ptx_module_source(text, length, &tr);
  free(text);
  if (st == CUEMU_OUT_OF_MEMORY) return DRV_CUDA_ERROR_OUT_OF_MEMORY;
  if (st != CUEMU_SUCCESS) {
    char what[400];
    snprintf(what, sizeof what, "line %d: %s", tr.error_line, tr.message);
    return jit_failed(call, where, what, NULL);
  }
  cuemu_nvrtc_program *p = NULL;
  int r = cuemu_nvrtc_create_program(&p, tr.code, where, 0, NULL, NULL);
  free(tr.code);
  if (r != 0) return DRV_CUDA_ERROR_OUT_OF_MEMORY;
  /* A real architecture, the device's, so that NVRTC makes an image. */
  char arch[32];
  snprintf(arch, sizeof arch, "-arch=sm_%d", device);
  const char *options[] = {arch};
  r = cuemu_nvrtc_compile_program(p, 1, options);
  if (r != 0) {
    size_t log_size = 0;
    char *log = NULL;
    if (cuemu_nvrtc_get_program_log_size(p, &log_size) == 0 &&
        (log = malloc(log_size + 1)) != NULL)
      cuemu_nvrtc_get_program_log(p, log);
    int e = jit_failed(call, where, "its translation did not compile", log);
    free(log);
    cuemu_nvrtc_destroy_program(&p);
    return e;
  }
  void *bytes = NULL;
  if (cuemu_nvrtc_get_image_size(p, 0, size) == 0 && *size &&
      (bytes = malloc(*size)) != NULL &&
      cuemu_nvrtc_get_image(p, 0, bytes) == 0) {
    *out = bytes;
    cuemu_nvrtc_destroy_program(&p);
    return DRV_CUDA_SUCCESS;
  }
  free(bytes);
  cuemu_nvrtc_destroy_program(&p);
  return DRV_CUDA_ERROR_OUT_OF_MEMORY;
}
