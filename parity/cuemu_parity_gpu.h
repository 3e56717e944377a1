/*
 * cuemu_parity_gpu.h: the real-CUDA legs of the parity runner (internal).
 *
 * NVRTC (libnvrtc.so) and the CUDA driver (libcuda.so.1) are loaded with
 * dlopen on first use, so the runner builds and runs on machines that have
 * neither. Nothing here is called from kernel code. Host code, any thread.
 *
 * Environment:
 *   CUDA_HOME (or CUDA_PATH)   the toolkit's folder (default /usr/local/cuda):
 *                              libnvrtc, include/ and compute-sanitizer
 *   CUEMU_NVRTC_LIBRARY        load NVRTC from exactly this file
 *   CUEMU_CUDA_DRIVER_LIBRARY  load the driver from exactly this file
 *   CUEMU_GPU_TIMEOUT          seconds a kernel may run on the GPU (120)
 */
#ifndef CUEMU_PARITY_GPU_H
#define CUEMU_PARITY_GPU_H

#include <stddef.h>

#include <cuemu/cuemu.h>

/* A kernel compiled by NVRTC: a PTX image and the lowered (mangled) name of
 * the kernel in it. Owned by the caller; free with
 * cuemu__parity_nvrtc_free(). */
typedef struct cuemu__parity_ptx {
  char *ptx;          /* NUL-terminated PTX text */
  size_t size;        /* its length in bytes, with the NUL */
  char *lowered_name; /* the kernel's symbol in the image */
  int arch;           /* the compute capability it was built for, e.g. 90 */
} cuemu__parity_ptx;

/* Compiles `source_path` with NVRTC for `arch` (e.g. 90 for sm_90; 0 means
 * the first CUDA device's compute capability when there is one, else 90),
 * registering `kernel` (a name or a name expression such as
 * "scale<float, 3>") so that its lowered name is known. `options` are the
 * case's -D/-I/-U options, passed unchanged (a relative -I is relative to
 * the current folder); the source's own folder and the CUDA include folder
 * are added to the include path, then --gpu-architecture=compute_XX and
 * -std=c++17. The result is PTX, which the driver compiles for the device
 * when it loads it. No -default-device: NVRTC then refuses every function
 * without an execution-space qualifier (even one no kernel calls, which nvcc
 * would keep as host code), whereas with it NVRTC would accept kernels that
 * call host functions, which nvcc rejects; parity sources hold device code
 * only, so the strict choice is the faithful one. Arch 0 initialises the
 * CUDA driver when one is installed (see cuemu__parity_gpu_available about
 * fork). On failure *log (if not NULL) receives NVRTC's log, or "NVRTC is
 * not available: " and why (caller frees; NULL on success); to tell a
 * missing NVRTC from a failed compile, ask cuemu__parity_nvrtc_version().
 * Returns SUCCESS, INVALID_VALUE, NVRTC (not found or compile error),
 * IO_ERROR (the source cannot be read) or OUT_OF_MEMORY. */
cuemu_status cuemu__parity_nvrtc_compile(const char *source_path,
                                         const char *kernel,
                                         const char *const *options,
                                         int noptions, int arch,
                                         cuemu__parity_ptx *out, char **log);
void cuemu__parity_nvrtc_free(cuemu__parity_ptx *ptx);

/* NVRTC's version as major * 1000 + minor * 10 (13000 for 13.0), loading it
 * on first use; 0 when it cannot be loaded, with the reason in *why (if not
 * NULL; static, do not free). */
int cuemu__parity_nvrtc_version(const char **why);

/* Whether a CUDA device can be used: libcuda.so.1 loads, cuInit succeeds
 * and there is at least one device. *why (if not NULL) gets a short
 * static reason when not. Safe to call repeatedly; the answer is cached.
 * Call it only in the process that will run the GPU leg (the driver must
 * not be initialised before a fork). */
int cuemu__parity_gpu_available(const char **why);

/* Device 0's compute capability (90 for sm_90), or 0 without a device. */
int cuemu__parity_gpu_arch(void);

/* "NVIDIA H200 (sm_90, driver API 13.0)" for device 0 (static), or NULL
 * without a device. */
const char *cuemu__parity_gpu_description(void);

/* One kernel argument of a GPU launch. Scalars (and structs) are passed by
 * value from `host`; arrays are copied to a device allocation of `bytes`
 * bytes before the launch and, when `copy_back` is set, back into `host`
 * after it. */
typedef struct cuemu__parity_gpu_arg {
  void *host;
  size_t bytes;
  int is_array;
  int copy_back;
} cuemu__parity_gpu_arg;

/* Runs the compiled kernel on device 0 (its primary context, one run at a
 * time per process) and waits for it, at most $CUEMU_GPU_TIMEOUT seconds.
 * An empty array (bytes 0) is passed as a null pointer. After a kernel
 * fault the primary context is reset, so later runs start clean. Returns
 * SUCCESS, INVALID_VALUE, NO_DEVICE, NOT_SUPPORTED (cooperative launch
 * without driver support), OUT_OF_MEMORY (host) or CUDA_DRIVER (any driver
 * error, the JIT compile of the PTX, a kernel fault or the time limit); on
 * failure *message (if not NULL) receives the kernel's lowered name, the
 * failing call, the driver's error name and string, and the launch shape
 * or the JIT log where they apply (caller frees; NULL on success). */
cuemu_status cuemu__parity_gpu_run(const cuemu__parity_ptx *ptx,
                                   cuemu_dim3 grid, cuemu_dim3 block,
                                   size_t dynamic_shared, int cooperative,
                                   cuemu__parity_gpu_arg *args, int nargs,
                                   char **message);

/* ---- compute-sanitizer ---------------------------------------------------
 * The runner re-runs its GPU leg of one case under each tool:
 *   compute-sanitizer --tool T --error-exitcode 86 SELF --gpu-leg-only
 *                     --case NAME FILE */

/* The exit status compute-sanitizer is told to use when it found errors. */
#define CUEMU_PARITY_SANITIZER_EXIT 86

/* Whether `tool` is one of memcheck, racecheck, synccheck, initcheck. */
int cuemu__parity_sanitizer_tool_valid(const char *tool);

/* The path of compute-sanitizer: $CUDA_HOME/bin, /usr/local/cuda/bin, then
 * $PATH; malloc()ed (caller frees), or NULL when there is none. */
char *cuemu__parity_sanitizer_find(void);

/* The NULL-terminated argument vector above for `sanitizer` (a path, e.g.
 * from cuemu__parity_sanitizer_find), `tool`, the runner's own executable
 * `self`, the case's name and its file. The vector and its strings are one
 * malloc()ed block: free(*argv) frees it all. Returns SUCCESS,
 * INVALID_VALUE (NULL argument or unknown tool) or OUT_OF_MEMORY. */
cuemu_status cuemu__parity_sanitizer_argv(const char *sanitizer,
                                          const char *tool, const char *self,
                                          const char *case_name,
                                          const char *case_file, char ***argv);

/* The number of errors compute-sanitizer reported in its output `text`:
 * the last "ERROR SUMMARY: N error(s)" line, or for racecheck the errors of
 * "RACECHECK SUMMARY: ... (N errors, M warnings)", whichever is larger; -1
 * when the output has no summary (the tool did not finish). */
long cuemu__parity_sanitizer_errors(const char *text);

/* ---- Loading CUDA's libraries (shared by the legs above) ---------------- */

/* The CUDA toolkit's folder: $CUDA_HOME, $CUDA_PATH or /usr/local/cuda. */
const char *cuemu__parity_cuda_home(void);

/* Loads the first library of `names` (NULL-terminated) that dlopen finds;
 * when `search_toolkit` is set, then also under lib64/ and lib/ of
 * $CUDA_HOME and of /usr/local/cuda. When the environment variable
 * `env_override` (may be NULL) is set,
 * only that file is tried. Returns the handle, or NULL with *why (if not
 * NULL) set to every reason dlopen gave (caller frees). */
void *cuemu__parity_dlopen(const char *env_override, const char *const *names,
                           int search_toolkit, char **why);

/* Whether the library of `handle` is one of cuemu's own: it, or a library
 * it depends on, has libcuemu's symbols (cuemu-toolkit/compat/libcuda.so.1,
 * emulator/export/libcuda.am, which LD_LIBRARY_PATH may name for another
 * program's sake). */
int cuemu__parity_is_cuemu_library(void *handle);

/* One entry point to resolve: its name and an older alternative (or NULL),
 * and the function pointer variable that receives it. */
typedef struct cuemu__parity_symbol {
  const char *names[2];
  void *slot;   /* the address of a function pointer variable */
  int optional; /* a missing optional entry point is left NULL */
} cuemu__parity_symbol;

/* Resolves every symbol; returns 0 and sets *missing (if not NULL) to the
 * first absent mandatory one, else 1. */
int cuemu__parity_dlsym_all(void *handle, const cuemu__parity_symbol *symbols,
                            int count, const char **missing);

#endif /* CUEMU_PARITY_GPU_H */
