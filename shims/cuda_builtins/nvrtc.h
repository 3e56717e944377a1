/*
 * nvrtc.h: NVRTC, the run-time compiler, through cuemu. Each call forwards
 * to libcuemu's cuemu_nvrtc_* function (<cuemu/cuemu_nvrtc.h>, which
 * documents what they do): a program is compiled by cuemu's compiler into
 * a cuemu module, which nvrtcGetPTX and nvrtcGetCUBIN return and
 * cuModuleLoadData (cuda.h) loads. Each function refers to its symbol of
 * the NVRTC library (CUEMU_LIBRARY_SYMBOL), so that a program that calls
 * NVRTC links only with -lnvrtc, as with CUDA (docs/driver-api.md,
 * "Linking NVRTC"). docs/driver-api.md lists the options.
 */
#ifndef CUEMU_NVRTC_SHIM_H
#define CUEMU_NVRTC_SHIM_H
/* CUDA's own include guard: code tests it to know the header is in (the
   samples' helpers test it to pick their error checks). */
#define __NVRTC_H__

#ifdef __cplusplus
#include <cstddef>

#include <cuemu/cuemu_nvrtc.h>

#include "cuemu_library_symbol.h"
#else
#include <stddef.h>
#endif

typedef enum {
  NVRTC_SUCCESS = 0,
  NVRTC_ERROR_OUT_OF_MEMORY = 1,
  NVRTC_ERROR_PROGRAM_CREATION_FAILURE = 2,
  NVRTC_ERROR_INVALID_INPUT = 3,
  NVRTC_ERROR_INVALID_PROGRAM = 4,
  NVRTC_ERROR_INVALID_OPTION = 5,
  NVRTC_ERROR_COMPILATION = 6,
  NVRTC_ERROR_BUILTIN_OPERATION_FAILURE = 7,
  NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION = 8,
  NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION = 9,
  NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID = 10,
  NVRTC_ERROR_INTERNAL_ERROR = 11,
  NVRTC_ERROR_TIME_FILE_WRITE_FAILED = 12,
  NVRTC_ERROR_NO_PCH_CREATE_ATTEMPTED = 13,
  NVRTC_ERROR_PCH_CREATE_HEAP_EXHAUSTED = 14,
  NVRTC_ERROR_PCH_CREATE = 15,
  NVRTC_ERROR_CANCELLED = 16,
  NVRTC_ERROR_TIME_TRACE_FILE_WRITE_FAILED = 17
} nvrtcResult;

typedef struct _nvrtcProgram *nvrtcProgram;

/* In a C file: the C view, a prototype of each C function of NVRTC, which
 * cuemu's libnvrtc.so.13 exports (the toolkit's lib64/libnvrtc.so names it);
 * in C++ the functions are inline. */
#ifndef __cplusplus
#define CUEMU_NVRTC_FUNCTION(result, name, parameters, arguments)              \
  extern result name parameters;
#include "cuemu_nvrtc_functions.h"
#undef CUEMU_NVRTC_FUNCTION
#else

inline const char *nvrtcGetErrorString(nvrtcResult result) {
  CUEMU_LIBRARY_SYMBOL(nvrtcGetErrorString);
  return cuemu_nvrtc_error_string(result);
}

inline nvrtcResult nvrtcVersion(int *major, int *minor) {
  CUEMU_LIBRARY_SYMBOL(nvrtcVersion);
  return static_cast<nvrtcResult>(cuemu_nvrtc_version(major, minor));
}

inline nvrtcResult nvrtcGetNumSupportedArchs(int *numArchs) {
  CUEMU_LIBRARY_SYMBOL(nvrtcGetNumSupportedArchs);
  return static_cast<nvrtcResult>(cuemu_nvrtc_supported_arch_count(numArchs));
}

inline nvrtcResult nvrtcGetSupportedArchs(int *supportedArchs) {
  CUEMU_LIBRARY_SYMBOL(nvrtcGetSupportedArchs);
  return static_cast<nvrtcResult>(cuemu_nvrtc_supported_archs(supportedArchs));
}

inline nvrtcResult nvrtcCreateProgram(nvrtcProgram *prog, const char *src,
                                      const char *name, int numHeaders,
                                      const char *const *headers,
                                      const char *const *includeNames) {
  CUEMU_LIBRARY_SYMBOL(nvrtcCreateProgram);
  return static_cast<nvrtcResult>(cuemu_nvrtc_create_program(
      reinterpret_cast<cuemu_nvrtc_program **>(prog), src, name, numHeaders,
      headers, includeNames));
}

inline nvrtcResult nvrtcDestroyProgram(nvrtcProgram *prog) {
  CUEMU_LIBRARY_SYMBOL(nvrtcDestroyProgram);
  return static_cast<nvrtcResult>(cuemu_nvrtc_destroy_program(
      reinterpret_cast<cuemu_nvrtc_program **>(prog)));
}

inline nvrtcResult nvrtcAddNameExpression(nvrtcProgram prog,
                                          const char *const name_expression) {
  CUEMU_LIBRARY_SYMBOL(nvrtcAddNameExpression);
  return static_cast<nvrtcResult>(cuemu_nvrtc_add_name_expression(
      reinterpret_cast<cuemu_nvrtc_program *>(prog), name_expression));
}

inline nvrtcResult nvrtcCompileProgram(nvrtcProgram prog, int numOptions,
                                       const char *const *options) {
  CUEMU_LIBRARY_SYMBOL(nvrtcCompileProgram);
  return static_cast<nvrtcResult>(cuemu_nvrtc_compile_program(
      reinterpret_cast<cuemu_nvrtc_program *>(prog), numOptions, options));
}

/* Called at each step of a compile; a 1 cancels it
 * (NVRTC_ERROR_CANCELLED). */
inline nvrtcResult nvrtcSetFlowCallback(nvrtcProgram prog,
                                        int (*__cuemu_callback)(void *, void *),
                                        void *__cuemu_payload) {
  CUEMU_LIBRARY_SYMBOL(nvrtcSetFlowCallback);
  return static_cast<nvrtcResult>(cuemu_nvrtc_set_flow_callback(
      reinterpret_cast<cuemu_nvrtc_program *>(prog), __cuemu_callback,
      __cuemu_payload));
}

/* Precompiled headers: accepted, none made (docs/driver-api.md). */
inline nvrtcResult nvrtcGetPCHHeapSize(size_t *ret) {
  CUEMU_LIBRARY_SYMBOL(nvrtcGetPCHHeapSize);
  return static_cast<nvrtcResult>(cuemu_nvrtc_get_pch_heap_size(ret));
}

inline nvrtcResult nvrtcSetPCHHeapSize(size_t size) {
  CUEMU_LIBRARY_SYMBOL(nvrtcSetPCHHeapSize);
  return static_cast<nvrtcResult>(cuemu_nvrtc_set_pch_heap_size(size));
}

inline nvrtcResult nvrtcGetPCHCreateStatus(nvrtcProgram prog) {
  CUEMU_LIBRARY_SYMBOL(nvrtcGetPCHCreateStatus);
  return static_cast<nvrtcResult>(cuemu_nvrtc_get_pch_create_status(
      reinterpret_cast<cuemu_nvrtc_program *>(prog)));
}

inline nvrtcResult nvrtcGetPCHHeapSizeRequired(nvrtcProgram prog,
                                               size_t *size) {
  CUEMU_LIBRARY_SYMBOL(nvrtcGetPCHHeapSizeRequired);
  return static_cast<nvrtcResult>(cuemu_nvrtc_get_pch_heap_size_required(
      reinterpret_cast<cuemu_nvrtc_program *>(prog), size));
}

inline nvrtcResult nvrtcGetProgramLogSize(nvrtcProgram prog,
                                          size_t *logSizeRet) {
  CUEMU_LIBRARY_SYMBOL(nvrtcGetProgramLogSize);
  return static_cast<nvrtcResult>(cuemu_nvrtc_get_program_log_size(
      reinterpret_cast<cuemu_nvrtc_program *>(prog), logSizeRet));
}

inline nvrtcResult nvrtcGetProgramLog(nvrtcProgram prog, char *log) {
  CUEMU_LIBRARY_SYMBOL(nvrtcGetProgramLog);
  return static_cast<nvrtcResult>(cuemu_nvrtc_get_program_log(
      reinterpret_cast<cuemu_nvrtc_program *>(prog), log));
}

/* The "PTX" is the cuemu module image, followed by a NUL that the size
 * counts, as NVRTC's PTX text is. */
inline nvrtcResult nvrtcGetPTXSize(nvrtcProgram prog, size_t *ptxSizeRet) {
  CUEMU_LIBRARY_SYMBOL(nvrtcGetPTXSize);
  return static_cast<nvrtcResult>(cuemu_nvrtc_get_image_size(
      reinterpret_cast<cuemu_nvrtc_program *>(prog), 1, ptxSizeRet));
}

inline nvrtcResult nvrtcGetPTX(nvrtcProgram prog, char *ptx) {
  CUEMU_LIBRARY_SYMBOL(nvrtcGetPTX);
  return static_cast<nvrtcResult>(cuemu_nvrtc_get_image(
      reinterpret_cast<cuemu_nvrtc_program *>(prog), 1, ptx));
}

inline nvrtcResult nvrtcGetCUBINSize(nvrtcProgram prog,
                                     size_t *cubinSizeRet) {
  CUEMU_LIBRARY_SYMBOL(nvrtcGetCUBINSize);
  return static_cast<nvrtcResult>(cuemu_nvrtc_get_image_size(
      reinterpret_cast<cuemu_nvrtc_program *>(prog), 0, cubinSizeRet));
}

inline nvrtcResult nvrtcGetCUBIN(nvrtcProgram prog, char *cubin) {
  CUEMU_LIBRARY_SYMBOL(nvrtcGetCUBIN);
  return static_cast<nvrtcResult>(cuemu_nvrtc_get_image(
      reinterpret_cast<cuemu_nvrtc_program *>(prog), 0, cubin));
}

/* LTO IR (-dlto, for nvJitLink): the module image itself; size 0 for a
 * program compiled without -dlto, and no LTO IR to get. */
inline nvrtcResult nvrtcGetLTOIRSize(nvrtcProgram prog, size_t *LTOIRSizeRet) {
  CUEMU_LIBRARY_SYMBOL(nvrtcGetLTOIRSize);
  return static_cast<nvrtcResult>(cuemu_nvrtc_get_image_size(
      reinterpret_cast<cuemu_nvrtc_program *>(prog), 2, LTOIRSizeRet));
}

inline nvrtcResult nvrtcGetLTOIR(nvrtcProgram prog, char *LTOIR) {
  CUEMU_LIBRARY_SYMBOL(nvrtcGetLTOIR);
  return static_cast<nvrtcResult>(cuemu_nvrtc_get_image(
      reinterpret_cast<cuemu_nvrtc_program *>(prog), 2, LTOIR));
}

/* OptiX IR (-optix-ir, for OptiX): no program is compiled to it here, so
 * its size is 0, as NVRTC's for a program compiled without -optix-ir, and
 * there is none to get. */
inline nvrtcResult nvrtcGetOptiXIRSize(nvrtcProgram prog,
                                       size_t *optixirSizeRet) {
  CUEMU_LIBRARY_SYMBOL(nvrtcGetOptiXIRSize);
  return static_cast<nvrtcResult>(cuemu_nvrtc_get_image_size(
      reinterpret_cast<cuemu_nvrtc_program *>(prog), 3, optixirSizeRet));
}

inline nvrtcResult nvrtcGetOptiXIR(nvrtcProgram prog, char *optixir) {
  CUEMU_LIBRARY_SYMBOL(nvrtcGetOptiXIR);
  return static_cast<nvrtcResult>(cuemu_nvrtc_get_image(
      reinterpret_cast<cuemu_nvrtc_program *>(prog), 3, optixir));
}

inline nvrtcResult nvrtcGetLoweredName(nvrtcProgram prog,
                                       const char *const name_expression,
                                       const char **lowered_name) {
  CUEMU_LIBRARY_SYMBOL(nvrtcGetLoweredName);
  return static_cast<nvrtcResult>(cuemu_nvrtc_get_lowered_name(
      reinterpret_cast<cuemu_nvrtc_program *>(prog), name_expression,
      lowered_name));
}

/* nvrtcGetTypeName, when NVRTC_GET_TYPE_NAME is non-zero, as in NVRTC: the
 * source-level name of a type, from the C++ ABI's demangler. */
#if NVRTC_GET_TYPE_NAME
#include <cxxabi.h>
#include <cstdlib>
#include <string>
#include <typeinfo>

inline nvrtcResult nvrtcGetTypeName(const std::type_info &tinfo,
                                    std::string *result) {
  int status = 0;
  char *name = abi::__cxa_demangle(tinfo.name(), nullptr, nullptr, &status);
  if (status != 0 || !name)
    return NVRTC_ERROR_INTERNAL_ERROR;
  *result = name;
  std::free(name);
  return NVRTC_SUCCESS;
}

template <typename T> struct cuemu_nvrtc_type_holder {};

template <typename T> nvrtcResult nvrtcGetTypeName(std::string *result) {
  std::string held;
  nvrtcResult __cuemu_r = nvrtcGetTypeName(typeid(cuemu_nvrtc_type_holder<T>), &held);
  if (__cuemu_r != NVRTC_SUCCESS)
    return __cuemu_r;
  /* "cuemu_nvrtc_type_holder<T>" -> "T". */
  std::size_t open = held.find('<'), close = held.rfind('>');
  if (open == std::string::npos || close == std::string::npos || close < open)
    return NVRTC_ERROR_INTERNAL_ERROR;
  *result = held.substr(open + 1, close - open - 1);
  return NVRTC_SUCCESS;
}
#endif /* NVRTC_GET_TYPE_NAME */
#endif /* __cplusplus */

#endif /* CUEMU_NVRTC_SHIM_H */
