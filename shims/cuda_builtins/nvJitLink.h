/*
 * nvJitLink.h: CUDA's JIT linker library (nvJitLink) over the driver API's
 * linker (cuemu/cuemu_driver_link.h), as NVIDIA's link-time-optimisation
 * samples and cuda.core's Linker use it: NVRTC compiles programs with
 * -dlto (nvrtcGetLTOIR gives the module image, relocatable), nvJitLink
 * links them with -lto, and the linked cubin is loaded with
 * cuModuleLoadData. Inputs are cuemu modules in either form (CUBIN, PTX
 * text, LTO IR, fatbin: what NVRTC and cuemu-nvcc -cubin/-ptx/-fatbin
 * write); host objects and libraries hold no device images here and are
 * NVJITLINK_ERROR_INVALID_INPUT, -ptx (linked PTX) is refused, each with a
 * line in the error log. The other options of nvJitLink 13 are accepted
 * and change nothing (there is no code generator). -lnvJitLink links
 * libcuemu.
 */
#ifndef nvJitLink_INCLUDED
#define nvJitLink_INCLUDED

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_driver_link.h>

typedef enum {
  NVJITLINK_SUCCESS = 0,
  NVJITLINK_ERROR_UNRECOGNIZED_OPTION,
  NVJITLINK_ERROR_MISSING_ARCH,
  NVJITLINK_ERROR_INVALID_INPUT,
  NVJITLINK_ERROR_PTX_COMPILE,
  NVJITLINK_ERROR_NVVM_COMPILE,
  NVJITLINK_ERROR_INTERNAL,
  NVJITLINK_ERROR_THREADPOOL,
  NVJITLINK_ERROR_UNRECOGNIZED_INPUT,
  NVJITLINK_ERROR_FINALIZE,
  NVJITLINK_ERROR_NULL_INPUT,
  NVJITLINK_ERROR_INCOMPATIBLE_OPTIONS,
  NVJITLINK_ERROR_INCORRECT_INPUT_TYPE,
  NVJITLINK_ERROR_ARCH_MISMATCH,
  NVJITLINK_ERROR_OUTDATED_LIBRARY,
  NVJITLINK_ERROR_MISSING_FATBIN,
  NVJITLINK_ERROR_UNRECOGNIZED_ARCH,
  NVJITLINK_ERROR_UNSUPPORTED_ARCH,
  NVJITLINK_ERROR_LTO_NOT_ENABLED
} nvJitLinkResult;

typedef enum {
  NVJITLINK_INPUT_NONE = 0,
  NVJITLINK_INPUT_CUBIN = 1,
  NVJITLINK_INPUT_PTX,
  NVJITLINK_INPUT_LTOIR,
  NVJITLINK_INPUT_FATBIN,
  NVJITLINK_INPUT_OBJECT,
  NVJITLINK_INPUT_LIBRARY,
  NVJITLINK_INPUT_INDEX,
  NVJITLINK_INPUT_ANY = 10
} nvJitLinkInputType;

/* The state of one link: the driver's linker, the logs, the options that
 * matter here. */
struct nvJitLink {
  cuemu_drv_link *link;
  int lto;       /* -lto given */
  int completed; /* nvJitLinkComplete succeeded */
  void *image;   /* the linked image, owned by `link` */
  size_t image_size;
  char error_log[4096];
};
typedef struct nvJitLink *nvJitLinkHandle;

namespace cuemu {
namespace jitlink {

/* Appends a line to the handle's error log. */
/* The driver's statuses that cuemu_drv_link_add_* return (cuda.h's
 * values; this header does not include cuda.h, as NVIDIA's does not). */
enum {
  drv_success = 0,
  drv_out_of_memory = 2,
  drv_invalid_image = 200,
  drv_file_not_found = 301
};

inline void log_line(nvJitLinkHandle h, const char *what, const char *value) {
  size_t used = strlen(h->error_log);
  snprintf(h->error_log + used, sizeof h->error_log - used, "%s%s\n", what,
           value ? value : "");
}

/* nvJitLink's result for the driver status `e` of adding the input `name`
 * by `call`; a failure is logged with its cause. */
inline nvJitLinkResult added(nvJitLinkHandle h, int e, const char *call,
                             const char *name) {
  if (e == drv_success)
    return NVJITLINK_SUCCESS;
  const char *why = e == drv_invalid_image    ? "not a cuemu module: "
                    : e == drv_file_not_found ? "cannot read the file: "
                    : e == drv_out_of_memory  ? "out of memory: "
                                              : "cannot store the input for "
                                                "the link (see stderr): ";
  size_t used = strlen(h->error_log);
  snprintf(h->error_log + used, sizeof h->error_log - used, "%s: %s%s\n", call,
           why, name ? name : "");
  return e == drv_out_of_memory ? NVJITLINK_ERROR_INTERNAL
                                : NVJITLINK_ERROR_INVALID_INPUT;
}

/* Non-zero when `v` is an architecture value nvJitLink takes: sm_N,
 * compute_N or lto_N with an optional a/f suffix. */
inline int arch_value(const char *v) {
  const char *digits = strncmp(v, "sm_", 3) == 0        ? v + 3
                       : strncmp(v, "compute_", 8) == 0 ? v + 8
                       : strncmp(v, "lto_", 4) == 0     ? v + 4
                                                        : NULL;
  if (!digits || *digits < '1' || *digits > '9')
    return 0;
  while (*digits >= '0' && *digits <= '9')
    ++digits;
  return *digits == '\0' ||
         ((*digits == 'a' || *digits == 'f') && digits[1] == '\0');
}

/* Whether `opt` is one of nvJitLink 13's options (with its value where it
 * takes one). */
inline int known_option(const char *opt) {
  static const char *const flags[] = {
      "-time", "-verbose", "-lto", "-O0", "-O3", "-g", "-lineinfo",
      "-optimize-unused-variables", "-no-cache", "-device-stack-protector",
      NULL};
  static const char *const valued[] = {
      "-maxrregcount=", "-ftz=", "-prec-div=", "-prec-sqrt=", "-fma=",
      "-kernels-used=", "-variables-used=", "-Xptxas=", "-split-compile=",
      "-split-compile-extended=", "-jump-table-density=", NULL};
  for (int __cuemu_i = 0; flags[__cuemu_i]; ++__cuemu_i)
    if (strcmp(opt, flags[__cuemu_i]) == 0)
      return 1;
  for (int __cuemu_i = 0; valued[__cuemu_i]; ++__cuemu_i)
    if (strncmp(opt, valued[__cuemu_i], strlen(valued[__cuemu_i])) == 0 &&
        opt[strlen(valued[__cuemu_i])] != '\0')
      return 1;
  return 0;
}

} // namespace jitlink
} // namespace cuemu

/* The options are read here; -arch=sm_N is required. */
inline nvJitLinkResult nvJitLinkCreate(nvJitLinkHandle *handle,
                                       uint32_t numOptions,
                                       const char **options) {
  if (!handle || (numOptions > 0 && !options))
    return NVJITLINK_ERROR_NULL_INPUT;
  *handle = NULL;
  int arch = 0, lto = 0;
  for (uint32_t __cuemu_i = 0; __cuemu_i < numOptions; ++__cuemu_i) {
    const char *__cuemu_o = options[__cuemu_i];
    if (!__cuemu_o)
      return NVJITLINK_ERROR_NULL_INPUT;
    if (strncmp(__cuemu_o, "-arch=", 6) == 0) {
      if (!cuemu::jitlink::arch_value(__cuemu_o + 6))
        return NVJITLINK_ERROR_UNRECOGNIZED_ARCH;
      arch = 1;
    } else if (strcmp(__cuemu_o, "-ptx") == 0) {
      /* No linked PTX: the link's result is a cuemu module. */
      fprintf(stderr, "cuemu: nvJitLink: -ptx (linked PTX) is not supported; "
                      "link to a cubin and load it with cuModuleLoadData\n");
      return NVJITLINK_ERROR_UNRECOGNIZED_OPTION;
    } else if (!cuemu::jitlink::known_option(__cuemu_o)) {
      return NVJITLINK_ERROR_UNRECOGNIZED_OPTION;
    } else if (strcmp(__cuemu_o, "-lto") == 0) {
      lto = 1;
    }
  }
  if (!arch)
    return NVJITLINK_ERROR_MISSING_ARCH;
  nvJitLinkHandle h =
      static_cast<nvJitLinkHandle>(calloc(1, sizeof(struct nvJitLink)));
  if (!h)
    return NVJITLINK_ERROR_INTERNAL;
  if (cuemu_jit_link_create(&h->link) != 0) {
    free(h);
    return NVJITLINK_ERROR_INTERNAL;
  }
  h->lto = lto;
  *handle = h;
  return NVJITLINK_SUCCESS;
}

inline nvJitLinkResult nvJitLinkDestroy(nvJitLinkHandle *handle) {
  if (!handle || !*handle)
    return NVJITLINK_ERROR_INVALID_INPUT;
  cuemu_drv_link_destroy((*handle)->link);
  free(*handle);
  *handle = NULL;
  return NVJITLINK_SUCCESS;
}

inline nvJitLinkResult nvJitLinkAddData(nvJitLinkHandle handle,
                                        nvJitLinkInputType inputType,
                                        const void *data, size_t size,
                                        const char *name) {
  if (!handle)
    return NVJITLINK_ERROR_INVALID_INPUT;
  if (!data)
    return NVJITLINK_ERROR_NULL_INPUT;
  if (inputType == NVJITLINK_INPUT_LTOIR && !handle->lto) {
    cuemu::jitlink::log_line(handle, "LTO IR input without -lto: ", name);
    return NVJITLINK_ERROR_LTO_NOT_ENABLED;
  }
  if (inputType != NVJITLINK_INPUT_CUBIN && inputType != NVJITLINK_INPUT_PTX &&
      inputType != NVJITLINK_INPUT_LTOIR &&
      inputType != NVJITLINK_INPUT_FATBIN && inputType != NVJITLINK_INPUT_ANY) {
    cuemu::jitlink::log_line(
        handle,
        "cuemu: nvJitLink takes cuemu modules (cubin, PTX, LTO IR, fatbin); "
        "host objects, libraries and index files hold no device code here: ",
        name);
    return NVJITLINK_ERROR_INVALID_INPUT;
  }
  int e = cuemu_drv_link_add_data(handle->link, data, size,
                                  name ? name : "nvJitLink input");
  return cuemu::jitlink::added(handle, e, "nvJitLinkAddData", name);
}

inline nvJitLinkResult nvJitLinkAddFile(nvJitLinkHandle handle,
                                        nvJitLinkInputType inputType,
                                        const char *fileName) {
  if (!handle)
    return NVJITLINK_ERROR_INVALID_INPUT;
  if (!fileName)
    return NVJITLINK_ERROR_NULL_INPUT;
  if (inputType == NVJITLINK_INPUT_LTOIR && !handle->lto) {
    cuemu::jitlink::log_line(handle, "LTO IR input without -lto: ", fileName);
    return NVJITLINK_ERROR_LTO_NOT_ENABLED;
  }
  /* Read by cuLinkAddFile's reader, which knows the device runtime
   * library (libcudadevrt.a) as well as cuemu modules of each form. */
  int e = cuemu_drv_link_add_file(handle->link, fileName);
  return cuemu::jitlink::added(handle, e, "nvJitLinkAddFile", fileName);
}

inline nvJitLinkResult nvJitLinkComplete(nvJitLinkHandle handle) {
  if (!handle)
    return NVJITLINK_ERROR_INVALID_INPUT;
  size_t used = strlen(handle->error_log);
  if (cuemu_drv_link_complete(handle->link, &handle->image,
                              &handle->image_size, handle->error_log + used,
                              sizeof handle->error_log - used) != 0)
    return NVJITLINK_ERROR_INVALID_INPUT;
  handle->completed = 1;
  return NVJITLINK_SUCCESS;
}

inline nvJitLinkResult nvJitLinkGetLinkedCubinSize(nvJitLinkHandle handle,
                                                   size_t *size) {
  if (!handle || !handle->completed)
    return NVJITLINK_ERROR_INVALID_INPUT;
  if (!size)
    return NVJITLINK_ERROR_NULL_INPUT;
  *size = handle->image_size;
  return NVJITLINK_SUCCESS;
}

inline nvJitLinkResult nvJitLinkGetLinkedCubin(nvJitLinkHandle handle,
                                               void *cubin) {
  if (!handle || !handle->completed)
    return NVJITLINK_ERROR_INVALID_INPUT;
  if (!cubin)
    return NVJITLINK_ERROR_NULL_INPUT;
  memcpy(cubin, handle->image, handle->image_size);
  return NVJITLINK_SUCCESS;
}

/* Linked PTX exists with -lto -ptx only, which is refused above. */
inline nvJitLinkResult nvJitLinkGetLinkedPtxSize(nvJitLinkHandle handle,
                                                 size_t *size) {
  (void)size;
  return handle && !handle->lto ? NVJITLINK_ERROR_LTO_NOT_ENABLED
                                : NVJITLINK_ERROR_INVALID_INPUT;
}

inline nvJitLinkResult nvJitLinkGetLinkedPtx(nvJitLinkHandle handle,
                                             char *ptx) {
  (void)ptx;
  return handle && !handle->lto ? NVJITLINK_ERROR_LTO_NOT_ENABLED
                                : NVJITLINK_ERROR_INVALID_INPUT;
}

namespace cuemu {
namespace jitlink {

/* A log's size (counting the terminating NUL) or its text: `text` is the
 * error log, or "" for the info log. */
inline nvJitLinkResult log_size(nvJitLinkHandle handle, const char *text,
                                size_t *size) {
  if (!handle)
    return NVJITLINK_ERROR_INVALID_INPUT;
  if (!size)
    return NVJITLINK_ERROR_NULL_INPUT;
  *size = strlen(text) + 1;
  return NVJITLINK_SUCCESS;
}

inline nvJitLinkResult log_text(nvJitLinkHandle handle, const char *text,
                                char *log) {
  if (!handle)
    return NVJITLINK_ERROR_INVALID_INPUT;
  if (!log)
    return NVJITLINK_ERROR_NULL_INPUT;
  memcpy(log, text, strlen(text) + 1);
  return NVJITLINK_SUCCESS;
}

} // namespace jitlink
} // namespace cuemu

inline nvJitLinkResult nvJitLinkGetErrorLogSize(nvJitLinkHandle handle,
                                                size_t *size) {
  return cuemu::jitlink::log_size(handle, handle ? handle->error_log : "",
                                  size);
}

inline nvJitLinkResult nvJitLinkGetErrorLog(nvJitLinkHandle handle,
                                            char *log) {
  return cuemu::jitlink::log_text(handle, handle ? handle->error_log : "",
                                  log);
}

/* The info log is empty: nothing is timed or reported verbosely. */
inline nvJitLinkResult nvJitLinkGetInfoLogSize(nvJitLinkHandle handle,
                                               size_t *size) {
  return cuemu::jitlink::log_size(handle, "", size);
}

inline nvJitLinkResult nvJitLinkGetInfoLog(nvJitLinkHandle handle,
                                           char *log) {
  return cuemu::jitlink::log_text(handle, "", log);
}

inline nvJitLinkResult nvJitLinkVersion(unsigned int *major,
                                        unsigned int *minor) {
  if (!major || !minor)
    return NVJITLINK_ERROR_NULL_INPUT;
  *major = 13;
  *minor = 0;
  return NVJITLINK_SUCCESS;
}

#endif /* nvJitLink_INCLUDED */
