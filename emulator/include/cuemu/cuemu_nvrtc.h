/*
 * cuemu_nvrtc.h: libcuemu's side of NVRTC (nvrtc.h). The shim
 * shims/cuda_builtins/nvrtc.h forwards each nvrtc* call to a cuemu_nvrtc_*
 * function declared here; they return nvrtcResult values as int. `-lnvrtc`
 * links nothing more: libcuemu has it all.
 *
 * A program is compiled by cuemu_compile() as a module (the device pass
 * alone, as NVRTC compiles), through the compile cache: its source and its
 * headers are written to a private folder, the options are NVRTC's
 * (docs/driver-api.md lists them; an unknown one is
 * NVRTC_ERROR_INVALID_OPTION with NVRTC's log line), and the result is a
 * cuemu module image that nvrtcGetPTX and nvrtcGetCUBIN return and
 * cuModuleLoadData takes. The compiler's messages are the program's log.
 * Name expressions name kernels ("&scale<float, 2>" or "scale<float,2>");
 * their lowered names are the kernels' mangled names, as NVRTC gives them.
 *
 * Host code, any thread; a program is used by one thread at a time, as
 * with NVRTC.
 */
#ifndef CUEMU_NVRTC_H
#define CUEMU_NVRTC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cuemu_nvrtc_program cuemu_nvrtc_program;

/* nvrtcGetErrorString: the result's name ("NVRTC_ERROR_COMPILATION"), or
 * "NVRTC_ERROR unknown" for a value NVRTC does not have. */
const char *cuemu_nvrtc_error_string(int result);
/* nvrtcVersion: 13.0. */
int cuemu_nvrtc_version(int *major, int *minor);
/* nvrtcGetNumSupportedArchs / nvrtcGetSupportedArchs: the compute
 * capabilities -arch accepts, times ten (75 to 121). */
int cuemu_nvrtc_supported_arch_count(int *count);
int cuemu_nvrtc_supported_archs(int *archs);

int cuemu_nvrtc_create_program(cuemu_nvrtc_program **program,
                               const char *source, const char *name,
                               int header_count,
                               const char *const *headers,
                               const char *const *include_names);
/* Frees the program and sets *program to NULL. */
int cuemu_nvrtc_destroy_program(cuemu_nvrtc_program **program);
int cuemu_nvrtc_add_name_expression(cuemu_nvrtc_program *program,
                                    const char *expression);
int cuemu_nvrtc_compile_program(cuemu_nvrtc_program *program,
                                int option_count,
                                const char *const *options);
/* nvrtcSetFlowCallback: callback(payload, NULL) is called at each step of
 * a later compile (options read, before and after the C++ compile); a 1
 * cancels the compile with NVRTC_ERROR_CANCELLED and a line in the log.
 * NULL removes it. */
int cuemu_nvrtc_set_flow_callback(cuemu_nvrtc_program *program,
                                  int (*__cuemu_callback)(void *, void *),
                                  void *__cuemu_payload);
/* The precompiled-header calls: cuemu makes none. The heap size is kept
 * and given back (0 at first); every program's status is
 * NVRTC_ERROR_NO_PCH_CREATE_ATTEMPTED and its required size 0. */
int cuemu_nvrtc_get_pch_heap_size(size_t *size);
int cuemu_nvrtc_set_pch_heap_size(size_t size);
int cuemu_nvrtc_get_pch_create_status(cuemu_nvrtc_program *program);
int cuemu_nvrtc_get_pch_heap_size_required(cuemu_nvrtc_program *program,
                                           size_t *size);
/* The log ("" before a compile); its size counts the terminating NUL. */
int cuemu_nvrtc_get_program_log_size(cuemu_nvrtc_program *program,
                                     size_t *size);
int cuemu_nvrtc_get_program_log(cuemu_nvrtc_program *program, char *log);
/* The module image (ptx 0: CUBIN), its text form with a NUL after it,
 * which the size counts (ptx 1: PTX), or the image as LTO IR (ptx 2: size
 * 0 and NVRTC_ERROR_INVALID_PROGRAM without -dlto) or as OptiX IR (ptx 3:
 * size 0 and NVRTC_ERROR_INVALID_PROGRAM, as no program is compiled to it);
 * NVRTC_ERROR_INVALID_PROGRAM before a successful compile. */
int cuemu_nvrtc_get_image_size(cuemu_nvrtc_program *program, int ptx,
                               size_t *size);
int cuemu_nvrtc_get_image(cuemu_nvrtc_program *program, int ptx, char *__cuemu_out);
/* The lowered name of an expression added before the compile; the string
 * belongs to the program. */
int cuemu_nvrtc_get_lowered_name(cuemu_nvrtc_program *program,
                                 const char *expression,
                                 const char **lowered);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_NVRTC_H */
