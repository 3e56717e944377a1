/*
 * cuemu_fft_callback.c: cuFFT's callbacks (cufftXtSetCallback,
 * cufftXtClearCallback, cufftXtSetCallbackSharedSize): a load callback
 * gives each input value of an execution, a store callback takes each
 * output value, in place of the transform's own reads and writes.
 *
 * A callback is a __device__ function whose address the program reads
 * from a __device__ variable (cudaMemcpyFromSymbol), as with nvcc; cuemu's
 * device code is host code, so the transform, which runs on the host,
 * calls it directly, once per value, with the value's offset in elements
 * from the start of the array, the caller info the program gave and the
 * shared memory it asked for (zeroed, one buffer an execution). The types
 * follow the plan's: cufftComplex, cufftDoubleComplex, cufftReal and
 * cufftDoubleReal are passed and returned as C's float _Complex, double
 * _Complex, float and double, which the x86-64 and AArch64 calling
 * conventions pass as they pass those structures. Half precision plans
 * take no callback (CUFFT_NOT_SUPPORTED), as cuFFT's.
 *
 * An LTO callback (cufftXtSetJITCallback, CUDA 12.6) comes as the LTO IR
 * of the program's callback, compiled apart (nvcc -dlto -fatbin, or NVRTC
 * with -dlto and nvrtcGetLTOIR), and the name of its function. cuemu's
 * compilers make a module image of that code: it is loaded as a library
 * (cuLibraryLoadData) and the function found by its symbol name
 * (cuLibraryGetUnifiedFunction); the callback is then called as one that
 * cufftXtSetCallback sets (its offset is an unsigned long long, which is
 * size_t here).
 */
#include <stddef.h>
#include <stdio.h>

#include <cuemu/cuemu_driver_api.h>
#include <cuemu/cuemu_driver_library.h>

#include "cuemu_fft.h"

/* cufftXtCallbackType: load (0 to 3) and store (4 to 7) of complex,
 * complex double, real and real double values. */
enum { CB_LD_COMPLEX = 0, CB_ST_COMPLEX = 4, CB_TYPES = 8 };

/* The callback type a plan's load (store 0) or store (store 1) takes. */
static int callback_type(int plan_type, int store) {
  int real = store ? cuemu__fft_real_output(plan_type)
                   : cuemu__fft_real_input(plan_type);
  return (store ? CB_ST_COMPLEX : CB_LD_COMPLEX) +
         (cuemu__fft_scalar(plan_type) == 8) + 2 * real;
}

/* The plan of `handle` and the slot (0 load, 1 store) of `type`, or a
 * status: a half precision plan, or a type that is not its load's or its
 * store's; for an LTO callback (jit), a plan not made yet takes any type,
 * checked when it is made (cuemu__fft_jit_check). */
static cufftResult slot_of(cufftHandle handle, int type, int jit,
                           cuemu_fft_plan **p, int *slot) {
  *p = cuemu__fft_plan_get(handle);
  if (!*p)
    return CUFFT_INVALID_PLAN;
  cufftResult st = CUFFT_SUCCESS;
  if (type < 0 || type >= CB_TYPES)
    st = CUFFT_INVALID_VALUE;
  else if (jit && !__atomic_load_n(&(*p)->made, __ATOMIC_ACQUIRE))
    ; /* An LTO callback before the plan is made: checked then. */
  else if (cuemu__fft_scalar((*p)->type) == 2)
    st = CUFFT_NOT_SUPPORTED;
  else if (type != callback_type((*p)->type, type >= CB_ST_COMPLEX))
    st = CUFFT_INVALID_TYPE;
  if (st != CUFFT_SUCCESS)
    cuemu__fft_plan_release(*p);
  *slot = type >= CB_ST_COMPLEX;
  return st;
}

/* routine and caller_info: one entry per GPU of the plan (one here). */
CUEMU_FFT_EXPORT cufftResult cufftXtSetCallback(cufftHandle handle,
                                                void **routine, int type,
                                                void **caller_info) {
  cuemu_fft_plan *p;
  int slot;
  cufftResult st = slot_of(handle, type, 0, &p, &slot);
  if (st != CUFFT_SUCCESS)
    return st;
  if (!routine || !routine[0]) {
    st = CUFFT_INVALID_VALUE;
  } else {
    cuemu__fft_jit_release(p, slot);
    p->callback[slot] = routine[0];
    p->caller_info[slot] = caller_info ? caller_info[0] : NULL;
  }
  cuemu__fft_plan_release(p);
  return st;
}

cufftResult cuemu__fft_jit_check(const cuemu_fft_plan *p, int plan_type) {
  for (int k = 0; k < 2; ++k)
    if (p->jit_library[k] && (cuemu__fft_scalar(plan_type) == 2 ||
                              p->jit_type[k] != callback_type(plan_type, k)))
      return cuemu__fft_scalar(plan_type) == 2 ? CUFFT_NOT_SUPPORTED
                                               : CUFFT_INVALID_TYPE;
  return CUFFT_SUCCESS;
}

void cuemu__fft_jit_release(cuemu_fft_plan *p, int slot) {
  if (p->jit_library[slot])
    cuemu_drv_library_unload(p->jit_library[slot]);
  p->jit_library[slot] = NULL;
}

/* The LTO IR (`fatbin`, `size` bytes: the size is not needed to read a
 * module image) and the callback's symbol name; caller_info: one entry per
 * GPU of the plan (one here). A NULL name or image, or an image that is not
 * a module of cuemu's or has no function of that name, is
 * CUFFT_INVALID_VALUE with a line on stderr. */
CUEMU_FFT_EXPORT cufftResult cufftXtSetJITCallback(cufftHandle handle,
                                                   const char *name,
                                                   const void *fatbin,
                                                   size_t size, int type,
                                                   void **caller_info) {
  cuemu_fft_plan *p;
  int slot;
  cufftResult st = slot_of(handle, type, 1, &p, &slot);
  if (st != CUFFT_SUCCESS)
    return st;
  void *library = NULL, *routine = NULL;
  const char *why = NULL;
  if (!name || !fatbin || !size)
    why = "a NULL symbol name or LTO IR";
  else if (cuemu_drv_init(0) != 0 ||
           cuemu_drv_library_load_data(&library, fatbin) != 0)
    why = "the LTO IR is not a module that cuemu's compilers made";
  else if (cuemu_drv_library_get_unified_function(&routine, library, name) != 0)
    why = "the LTO IR has no function of that name";
  if (why) {
    fprintf(stderr, "cuemu: cufftXtSetJITCallback: %s (%s)\n", why,
            name ? name : "NULL");
    if (library)
      cuemu_drv_library_unload(library);
    cuemu__fft_plan_release(p);
    return CUFFT_INVALID_VALUE;
  }
  cuemu__fft_jit_release(p, slot);
  p->jit_type[slot] = type;
  p->jit_library[slot] = library;
  p->callback[slot] = routine;
  p->caller_info[slot] = caller_info ? caller_info[0] : NULL;
  cuemu__fft_plan_release(p);
  return CUFFT_SUCCESS;
}

CUEMU_FFT_EXPORT cufftResult cufftXtClearCallback(cufftHandle handle,
                                                  int type) {
  cuemu_fft_plan *p;
  int slot;
  cufftResult st = slot_of(handle, type, 0, &p, &slot);
  if (st != CUFFT_SUCCESS)
    return st;
  cuemu__fft_jit_release(p, slot);
  p->callback[slot] = p->caller_info[slot] = NULL;
  p->callback_shared[slot] = 0;
  cuemu__fft_plan_release(p);
  return CUFFT_SUCCESS;
}

/* cuFFT's limit on a callback's shared memory: 16 KiB. */
CUEMU_FFT_EXPORT cufftResult cufftXtSetCallbackSharedSize(cufftHandle handle,
                                                          int type,
                                                          size_t size) {
  cuemu_fft_plan *p;
  int slot;
  cufftResult st = slot_of(handle, type, 0, &p, &slot);
  if (st != CUFFT_SUCCESS)
    return st;
  if (size > 16 * 1024)
    st = CUFFT_INVALID_VALUE;
  else
    p->callback_shared[slot] = size;
  cuemu__fft_plan_release(p);
  return st;
}

cuemu_fft_callbacks cuemu__fft_callbacks(const cuemu_fft_plan *p) {
  cuemu_fft_callbacks c = {{NULL, NULL}, {NULL, NULL}, {0, 0}, {NULL, NULL}};
  for (int k = 0; k < 2; ++k)
    c.routine[k] = p->callback[k], c.caller_info[k] = p->caller_info[k],
    c.shared_size[k] = p->callback_shared[k];
  return c;
}

typedef float _Complex (*load_c)(void *, size_t, void *, void *);
typedef double _Complex (*load_z)(void *, size_t, void *, void *);
typedef float (*load_r)(void *, size_t, void *, void *);
typedef double (*load_d)(void *, size_t, void *, void *);
typedef void (*store_c)(void *, size_t, float _Complex, void *, void *);
typedef void (*store_z)(void *, size_t, double _Complex, void *, void *);
typedef void (*store_r)(void *, size_t, float, void *, void *);
typedef void (*store_d)(void *, size_t, double, void *, void *);

cuemu_fft_complex cuemu__fft_load_callback(const cuemu_fft_callbacks *c,
                                           void *in, long long at, int size,
                                           int real) {
  cuemu_fft_complex v = {0, 0};
  void *f = c->routine[0], *info = c->caller_info[0], *shared = c->shared[0];
  if (real) {
    v.re = size == 8 ? ((load_d)f)(in, (size_t)at, info, shared)
                     : ((load_r)f)(in, (size_t)at, info, shared);
  } else if (size == 8) {
    double _Complex z = ((load_z)f)(in, (size_t)at, info, shared);
    v.re = __real__ z, v.im = __imag__ z;
  } else {
    float _Complex z = ((load_c)f)(in, (size_t)at, info, shared);
    v.re = __real__ z, v.im = __imag__ z;
  }
  return v;
}

void cuemu__fft_store_callback(const cuemu_fft_callbacks *c, void *out,
                               long long at, int size, int real,
                               cuemu_fft_complex v) {
  void *f = c->routine[1], *info = c->caller_info[1], *shared = c->shared[1];
  if (real && size == 8)
    ((store_d)f)(out, (size_t)at, v.re, info, shared);
  else if (real)
    ((store_r)f)(out, (size_t)at, (float)v.re, info, shared);
  else if (size == 8) {
    double _Complex z;
    __real__ z = v.re, __imag__ z = v.im;
    ((store_z)f)(out, (size_t)at, z, info, shared);
  } else {
    float _Complex z;
    __real__ z = (float)v.re, __imag__ z = (float)v.im;
    ((store_c)f)(out, (size_t)at, z, info, shared);
  }
}
