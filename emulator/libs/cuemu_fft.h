/*
 * cuemu_fft.h: what the files of cuemu's cuFFT (libcuemu_cufft.so,
 * emulator/libs/libs.am) share: cuFFT's ABI constants (cufft.h's values,
 * so that the library builds without the CUDA toolkit), the transform
 * engine (cuemu_fft_engine.c), the plans (cuemu_fft_plan.c) and the
 * execution of a plan (cuemu_fft_exec.c). Only the cuemu_fft*.c files
 * include it.
 */
#ifndef CUEMU_FFT_H
#define CUEMU_FFT_H

#include <stddef.h>

#define CUEMU_FFT_EXPORT __attribute__((visibility("default")))

/* cufftResult */
typedef enum {
  CUFFT_SUCCESS = 0x0,
  CUFFT_INVALID_PLAN = 0x1,
  CUFFT_ALLOC_FAILED = 0x2,
  CUFFT_INVALID_TYPE = 0x3,
  CUFFT_INVALID_VALUE = 0x4,
  CUFFT_INTERNAL_ERROR = 0x5,
  CUFFT_EXEC_FAILED = 0x6,
  CUFFT_SETUP_FAILED = 0x7,
  CUFFT_INVALID_SIZE = 0x8,
  CUFFT_UNALIGNED_DATA = 0x9,
  CUFFT_INVALID_DEVICE = 0xB,
  CUFFT_NO_WORKSPACE = 0xD,
  CUFFT_NOT_IMPLEMENTED = 0xE,
  CUFFT_NOT_SUPPORTED = 0x10
} cufftResult;

/* cufftType */
enum { CUFFT_R2C = 0x2a, CUFFT_C2R = 0x2c, CUFFT_C2C = 0x29,
       CUFFT_D2Z = 0x6a, CUFFT_Z2D = 0x6c, CUFFT_Z2Z = 0x69 };
#define CUFFT_FORWARD (-1)
#define CUFFT_INVERSE 1
/* cufft.h's version (CUFFT_VER_MAJOR, _MINOR, _PATCH; CUFFT_VERSION). */
#define CUEMU_FFT_MAJOR 12
#define CUEMU_FFT_MINOR 0
#define CUEMU_FFT_PATCH 0
#define CUEMU_FFT_VERSION 12000

typedef int cufftHandle;

/* One complex value, computed in double whatever the plan's precision. */
typedef struct {
  double re, im;
} cuemu_fft_complex;

/* ---- The engine: one length's unnormalised 1-D DFT ------------------------ */

/* Mixed radix (4, 2, 3, 5, 7: Stockham's self-sorting form) for lengths
 * with no other prime factor; Bluestein's chirp convolution, through a
 * power-of-two engine, for the others. Read only once made, so that
 * transforms on several streams may share it. */
typedef struct cuemu_fft_engine cuemu_fft_engine;

/* NULL when out of memory. n >= 1. */
cuemu_fft_engine *cuemu__fft_engine_create(size_t n);
void cuemu__fft_engine_destroy(cuemu_fft_engine *e);
/* The complex values of scratch that cuemu__fft_engine_run needs. */
size_t cuemu__fft_engine_scratch(const cuemu_fft_engine *e);
/* x[k] = sum_j x[j] exp(sign 2 pi i jk / n), sign -1 (CUFFT_FORWARD) or
 * +1 (CUFFT_INVERSE), in place. */
void cuemu__fft_engine_run(const cuemu_fft_engine *e, cuemu_fft_complex *x,
                           int sign, cuemu_fft_complex *scratch);

/* ---- Plans ---------------------------------------------------------------- */

/* One plan's geometry, fixed when it is made: ranks up to 3, lengths,
 * layouts (in elements of the input's and output's own types) and
 * batch. */
typedef struct cuemu_fft_plan {
  int made;
  int type;
  int rank;
  long long n[3];
  /* NULL inembed or onembed: the basic layout, whose real side depends on
   * whether a transform is in place (cuemu__fft_layout()). */
  int basic;
  long long inembed[3], onembed[3];
  long long istride, idist, ostride, odist, batch;
  cuemu_fft_engine *engine[3];
  size_t work_size;
  /* Changed by the program at any time: the stream of the next execution,
   * the work area (cufftSetWorkArea), whether cuFFT allocates it. */
  void *stream;
  void *work_area;
  int auto_allocation;
  long long properties[2];
  /* cufftXtSetCallback: the load (0) and store (1) callbacks, device
   * functions (which cuemu's device code makes host functions), their
   * caller info, and the shared memory each asks for
   * (cufftXtSetCallbackSharedSize). An execution takes them as they are
   * when it is called (cuemu_fft_callback.c). */
  void *callback[2], *caller_info[2];
  size_t callback_shared[2];
  /* cufftXtSetJITCallback: the library (a loaded module image) that holds
   * each LTO callback, unloaded when the callback is replaced or cleared,
   * or the plan freed. */
  void *jit_library[2];
  int jit_type[2];
  /* cufftXtSetGPUs: the GPUs of a multi-GPU plan (ngpus 0: one GPU's). */
  int ngpus;
  int gpus[16];
  /* The program's reference (until cufftDestroy) and one per queued or
   * captured execution; the last frees the plan. */
  int refs;
} cuemu_fft_plan;

/* The plan a handle names with a reference taken, or NULL (an invalid or
 * destroyed handle). cuemu__fft_plan_release drops the reference. */
cuemu_fft_plan *cuemu__fft_plan_get(cufftHandle handle);
void cuemu__fft_plan_release(cuemu_fft_plan *plan);

/* cuemu's own type codes of half-precision plans (cufftXtMakePlanMany with
 * CUDA_C_16F execution), which cufft.h's cufftType has none of. */
enum { CUEMU_FFT_C2C_16F = 0x19, CUEMU_FFT_R2C_16F = 0x1a,
       CUEMU_FFT_C2R_16F = 0x1c };

/* The bytes of one real scalar of a type's values (2, 4 or 8); 0 for a
 * code that is no type. */
int cuemu__fft_scalar(int type);
/* 1 for the real-to-complex types, 1 for the complex-to-real ones. */
int cuemu__fft_real_input(int type);
int cuemu__fft_real_output(int type);

/* Runs the plan's transform of type `type` from `in` to `out` (host
 * memory: cuFFTW's fftw_execute, cuemu_fftw.c) now, in the calling
 * thread, with direction `sign` for a complex-to-complex plan. */
cufftResult cuemu__fft_exec_host(cufftHandle handle, int type, void *in,
                                 void *out, int sign);

/* cufftMakePlanMany64 for any type, cuemu's half-precision ones
 * included (cuemu_fft_xt.c). */
cufftResult cuemu__fft_make(cufftHandle handle, int rank, const long long *n,
                            const long long *inembed, long long istride,
                            long long idist, const long long *onembed,
                            long long ostride, long long odist, int type,
                            long long batch, size_t *size);
/* cufftGetSizeMany64's checks and size for any type. */
cufftResult cuemu__fft_estimate(int rank, const long long *n,
                                const long long *inembed, long long istride,
                                long long idist, const long long *onembed,
                                long long ostride, long long odist, int type,
                                long long batch, size_t *size);
/* cufftExec* of a plan of `type`, direction `sign` (C2C only). */
cufftResult cuemu__fft_exec(cufftHandle handle, const char *name, int type,
                            void *in, void *out, int sign);

/* The layout of one side of an execution: element strides of each
 * dimension's index and of the batch. */
typedef struct {
  long long stride[3], dist;
} cuemu_fft_layout;

/* The input's and output's layouts for an execution in place or not. */
void cuemu__fft_layout(const cuemu_fft_plan *p, int in_place,
                       cuemu_fft_layout *in, cuemu_fft_layout *out);

/* An execution's callbacks (cuemu_fft_callback.c): the plan's, taken
 * when the execution is called, and each one's shared memory while it
 * runs. */
typedef struct {
  void *routine[2], *caller_info[2];
  size_t shared_size[2];
  void *shared[2];
} cuemu_fft_callbacks;

/* Unloads the library of the plan's LTO callback in `slot` (0 load, 1
 * store), if it has one (cuemu_fft_callback.c). */
void cuemu__fft_jit_release(cuemu_fft_plan *p, int slot);

/* When the plan is made with `plan_type`: the LTO callbacks set before
 * (cufftXtSetJITCallback may come first) must be of its load's and store's
 * types (CUFFT_INVALID_TYPE), and not for half precision
 * (CUFFT_NOT_SUPPORTED). */
cufftResult cuemu__fft_jit_check(const cuemu_fft_plan *p, int plan_type);

/* The callbacks of p as they are now (none: all NULL). */
cuemu_fft_callbacks cuemu__fft_callbacks(const cuemu_fft_plan *p);
/* Value `at` of a side of `type`'s input through the load callback, and
 * value v stored at `at` of its output through the store callback (the
 * caller checks that there is one; scalar `size` 4 or 8, `real` the
 * side's). */
cuemu_fft_complex cuemu__fft_load_callback(const cuemu_fft_callbacks *c,
                                           void *in, long long at, int size,
                                           int real);
void cuemu__fft_store_callback(const cuemu_fft_callbacks *c, void *out,
                               long long at, int size, int real,
                               cuemu_fft_complex v);

#endif /* CUEMU_FFT_H */
