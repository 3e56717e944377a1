/*
 * cuemu_fft_multi.c: cuFFT's multi-GPU transforms (cufftXt.h) on cuemu's
 * emulated devices (CUEMU_DEVICE's count=N): the descriptors of data spread
 * over a plan's GPUs (cufftXtMalloc, cufftXtFree), the copies to, from and
 * between them (cufftXtMemcpy) and the executions on them
 * (cufftXtExecDescriptorC2C, Z2Z, and cufftXtExecDescriptor of those types).
 *
 * How the data lies on the GPUs (cuFFT's documentation, "Multiple GPU
 * data organization"), GPU g of n holding a part of `count` items, the
 * first count % n GPUs one more than the others:
 * - batched transforms: whole transforms, in order;
 * - one 2-D or 3-D transform: in natural order (CUFFT_XT_FORMAT_INPLACE,
 *   _INPUT) slabs of the first dimension, X; after a forward transform
 *   (CUFFT_XT_FORMAT_INPLACE_SHUFFLED) slabs of the second, Y, each GPU's
 *   part laid out [x][its y][z]; an inverse transform of shuffled data
 *   gives natural order again;
 * - one 1-D transform: contiguous parts, in natural order before and after
 *   (cuFFT's own shuffled 1-D order is not emulated: a program that reads
 *   a 1-D result through cufftXtMemcpy gets the right values, one that
 *   indexes the GPUs' parts itself does not).
 * cufftXtMemcpy's host side is always in natural order. An execution
 * waits for the GPUs' work, gathers the input into one array, transforms
 * it with the plan (cuemu_fft_exec.c) and spreads the result in the
 * output's order; it blocks, as the host's copies between GPUs do. Real
 * transforms (R2C, C2R, D2Z, Z2D) are CUFFT_NOT_SUPPORTED.
 */
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_runtime.h>

#include "cuemu_fft.h"
#include "cuemu_libs.h"

/* cudaLibXtDesc and cudaXtDesc (cudalibxt.h). */
#define XT_GPUS 64
typedef struct {
  int version, nGPUs, GPUs[XT_GPUS];
  void *data[XT_GPUS];
  size_t size[XT_GPUS];
  void *cudaXtState;
} xt_desc;
typedef struct {
  int version;
  xt_desc *descriptor;
  int library, subFormat;
  void *libDescriptor;
} xt_lib_desc;

/* cufftXtSubFormat and cufftXtCopyType */
enum {
  FORMAT_INPUT = 0,
  FORMAT_OUTPUT = 1,
  FORMAT_INPLACE = 2,
  FORMAT_INPLACE_SHUFFLED = 3
};
enum {
  COPY_HOST_TO_DEVICE = 0,
  COPY_DEVICE_TO_HOST = 1,
  COPY_DEVICE_TO_DEVICE = 2
};
/* CUDA_XT_DESCRIPTOR_VERSION + CUDART_VERSION (13000) */
#define XT_VERSION (0x01000000 + 13000)

/* The first item of GPU g's part of `count` items over n GPUs, and the
 * part's size. */
static long long part_start(long long count, int n, int g) {
  long long base = count / n, extra = count % n;
  return g * base + (g < extra ? g : extra);
}
static long long part_size(long long count, int n, int g) {
  return count / n + (g < count % n);
}

/* Whether `format` is one of shuffled data. */
static int shuffled(const cuemu_fft_plan *p, int format) {
  return (format == FORMAT_INPLACE_SHUFFLED || format == FORMAT_OUTPUT) &&
         p->batch == 1 && p->rank >= 2;
}

/* Element i (natural order, over all batches) of plan p's data: where it
 * lies, as GPU *g and element offset *at in that GPU's part. */
static void place(const cuemu_fft_plan *p, int format, long long i, int *g,
                  long long *at) {
  int n = p->ngpus;
  long long total = 1;
  for (int d = 0; d < p->rank; ++d)
    total *= p->n[d];
  if (p->batch > 1 || p->rank == 1) {
    /* Whole transforms (or, for one 1-D transform, elements) in order. */
    long long unit = p->batch > 1 ? total : 1;
    long long count = p->batch > 1 ? p->batch : total, item = i / unit;
    int k = 0;
    while (k + 1 < n && part_start(count, n, k + 1) <= item)
      ++k;
    *g = k, *at = i - part_start(count, n, k) * unit;
    return;
  }
  long long x = i / (total / p->n[0]), rest = i % (total / p->n[0]);
  long long y = rest / (total / p->n[0] / p->n[1]);
  long long z = rest % (total / p->n[0] / p->n[1]);
  long long ny = p->n[1], nz = total / p->n[0] / ny;
  if (!shuffled(p, format)) {
    int k = 0;
    while (k + 1 < n && part_start(p->n[0], n, k + 1) <= x)
      ++k;
    *g = k, *at = i - part_start(p->n[0], n, k) * ny * nz;
    return;
  }
  int k = 0;
  while (k + 1 < n && part_start(ny, n, k + 1) <= y)
    ++k;
  long long local = part_size(ny, n, k);
  *g = k, *at = (x * local + (y - part_start(ny, n, k))) * nz + z;
}

/* The plan of `handle`, made, multi-GPU and complex-to-complex, or a
 * status. */
static cufftResult multi_plan(cufftHandle handle, cuemu_fft_plan **out) {
  cuemu_fft_plan *p = cuemu__fft_plan_get(handle);
  if (!p)
    return CUFFT_INVALID_PLAN;
  cufftResult st = CUFFT_SUCCESS;
  if (!__atomic_load_n(&p->made, __ATOMIC_ACQUIRE) || p->ngpus < 2)
    st = CUFFT_INVALID_PLAN;
  else if (p->type != CUFFT_C2C && p->type != CUFFT_Z2Z)
    st = CUFFT_NOT_SUPPORTED;
  if (st != CUFFT_SUCCESS) {
    cuemu__fft_plan_release(p);
    return st;
  }
  *out = p;
  return CUFFT_SUCCESS;
}

static long long elements(const cuemu_fft_plan *p) {
  long long total = p->batch;
  for (int d = 0; d < p->rank; ++d)
    total *= p->n[d];
  return total;
}

static size_t element_size(const cuemu_fft_plan *p) {
  return 2 * (size_t)cuemu__fft_scalar(p->type);
}

CUEMU_FFT_EXPORT cufftResult cufftXtMalloc(cufftHandle handle,
                                           xt_lib_desc **out, int format) {
  cuemu_fft_plan *p;
  cufftResult st = multi_plan(handle, &p);
  if (st != CUFFT_SUCCESS)
    return st;
  if (!out || format < FORMAT_INPUT || format > FORMAT_INPLACE_SHUFFLED) {
    cuemu__fft_plan_release(p);
    return CUFFT_INVALID_VALUE;
  }
  xt_lib_desc *d = calloc(1, sizeof *d);
  xt_desc *x = calloc(1, sizeof *x);
  int current = 0;
  cuemu_rt_get_device(&current);
  /* Each GPU's part: its items in either order hold as many elements. */
  long long *count = calloc((size_t)p->ngpus, sizeof *count);
  for (long long i = 0; count && i < elements(p); ++i) {
    int g;
    long long at;
    place(p, format, i, &g, &at);
    count[g]++;
  }
  if (!d || !x || !count)
    st = CUFFT_ALLOC_FAILED;
  for (int g = 0; st == CUFFT_SUCCESS && g < p->ngpus; ++g) {
    x->GPUs[g] = p->gpus[g];
    x->size[g] = (size_t)count[g] * element_size(p);
    if (cuemu_rt_set_device(p->gpus[g]) != 0 ||
        cuemu_rt_malloc(&x->data[g], x->size[g] ? x->size[g] : 1) != 0)
      st = CUFFT_ALLOC_FAILED;
  }
  cuemu_rt_set_device(current);
  free(count);
  if (st != CUFFT_SUCCESS) {
    for (int g = 0; x && g < p->ngpus; ++g)
      if (x->data[g])
        cuemu_rt_free(x->data[g]);
    free(x), free(d);
    cuemu__fft_plan_release(p);
    return st;
  }
  x->version = XT_VERSION, x->nGPUs = p->ngpus;
  d->version = XT_VERSION, d->descriptor = x;
  d->library = 0; /* LIB_FORMAT_CUFFT */
  d->subFormat = format;
  d->libDescriptor = NULL;
  *out = d;
  cuemu__fft_plan_release(p);
  return CUFFT_SUCCESS;
}

CUEMU_FFT_EXPORT cufftResult cufftXtFree(xt_lib_desc *d) {
  if (!d || !d->descriptor)
    return CUFFT_INVALID_VALUE;
  for (int g = 0; g < d->descriptor->nGPUs && g < XT_GPUS; ++g)
    if (d->descriptor->data[g])
      cuemu_rt_free(d->descriptor->data[g]);
  free(d->descriptor);
  free(d);
  return CUFFT_SUCCESS;
}

/* Whether descriptor d holds plan p's data. */
static int fits(const cuemu_fft_plan *p, const xt_lib_desc *d) {
  if (!d || !d->descriptor || d->descriptor->nGPUs != p->ngpus)
    return 0;
  for (int g = 0; g < p->ngpus; ++g)
    if (!d->descriptor->data[g])
      return 0;
  return 1;
}

/* Copies between the natural order of `flat` and descriptor d's order
 * (to_desc: into d). The GPUs' work is done first. */
static void move(const cuemu_fft_plan *p, xt_lib_desc *d, char *flat,
                 int to_desc) {
  size_t es = element_size(p);
  for (long long i = 0; i < elements(p); ++i) {
    int g;
    long long at;
    place(p, d->subFormat, i, &g, &at);
    char *there = (char *)d->descriptor->data[g] + (size_t)at * es;
    if (to_desc) {
      memcpy(there, flat + (size_t)i * es, es);
      cuemu_rt_library_wrote(there, es);
    } else {
      memcpy(flat + (size_t)i * es, there, es);
    }
  }
}

/* Waits for every GPU of the plan (their kernels may be writing the
 * data). */
static void wait_gpus(const cuemu_fft_plan *p) {
  int current = 0;
  cuemu_rt_get_device(&current);
  for (int g = 0; g < p->ngpus; ++g)
    if (cuemu_rt_set_device(p->gpus[g]) == 0)
      cuemu_rt_device_synchronize();
  cuemu_rt_set_device(current);
}

CUEMU_FFT_EXPORT cufftResult cufftXtMemcpy(cufftHandle handle, void *dst,
                                           void *src, int type) {
  cuemu_fft_plan *p;
  cufftResult st = multi_plan(handle, &p);
  if (st != CUFFT_SUCCESS)
    return st;
  size_t bytes = (size_t)elements(p) * element_size(p);
  char *flat = NULL;
  if (!dst || !src || type < COPY_HOST_TO_DEVICE ||
      type > COPY_DEVICE_TO_DEVICE ||
      (type != COPY_HOST_TO_DEVICE && !fits(p, src)) ||
      (type != COPY_DEVICE_TO_HOST && !fits(p, dst)))
    st = CUFFT_INVALID_VALUE;
  else if (type == COPY_DEVICE_TO_DEVICE && !(flat = malloc(bytes ? bytes : 1)))
    st = CUFFT_ALLOC_FAILED;
  if (st == CUFFT_SUCCESS) {
    wait_gpus(p);
    if (type == COPY_HOST_TO_DEVICE)
      move(p, dst, src, 1);
    else if (type == COPY_DEVICE_TO_HOST)
      move(p, src, dst, 0);
    else {
      move(p, src, flat, 0);
      ((xt_lib_desc *)dst)->subFormat = ((xt_lib_desc *)src)->subFormat;
      move(p, dst, flat, 1);
    }
  }
  free(flat);
  cuemu__fft_plan_release(p);
  return st;
}

/* Executes plan p on descriptor in into out (the same descriptor for an
 * in-place transform); out's order is shuffled after a transform of data
 * in natural order, natural after one of shuffled data. */
static cufftResult exec_descriptor(cufftHandle handle, xt_lib_desc *in,
                                   xt_lib_desc *out, int sign, int type) {
  cuemu_fft_plan *p;
  cufftResult st = multi_plan(handle, &p);
  if (st != CUFFT_SUCCESS)
    return st;
  if (p->type != type)
    st = CUFFT_INVALID_VALUE;
  else if (!fits(p, in) || !fits(p, out) ||
           (sign != CUFFT_FORWARD && sign != CUFFT_INVERSE))
    st = CUFFT_INVALID_VALUE;
  size_t bytes = (size_t)elements(p) * element_size(p);
  char *flat = st == CUFFT_SUCCESS ? malloc(bytes ? bytes : 1) : NULL;
  if (st == CUFFT_SUCCESS && !flat)
    st = CUFFT_ALLOC_FAILED;
  if (st == CUFFT_SUCCESS) {
    wait_gpus(p);
    int was_shuffled = shuffled(p, in->subFormat);
    move(p, in, flat, 0);
    st = cuemu__fft_exec_host(handle, type, flat, flat, sign);
    if (st == CUFFT_SUCCESS) {
      out->subFormat = was_shuffled || p->batch > 1 || p->rank == 1
                           ? FORMAT_INPLACE
                           : FORMAT_INPLACE_SHUFFLED;
      move(p, out, flat, 1);
    }
  }
  free(flat);
  cuemu__fft_plan_release(p);
  return st;
}

CUEMU_FFT_EXPORT cufftResult cufftXtExecDescriptorC2C(cufftHandle handle,
                                                      xt_lib_desc *in,
                                                      xt_lib_desc *out,
                                                      int direction) {
  return exec_descriptor(handle, in, out, direction, CUFFT_C2C);
}

CUEMU_FFT_EXPORT cufftResult cufftXtExecDescriptorZ2Z(cufftHandle handle,
                                                      xt_lib_desc *in,
                                                      xt_lib_desc *out,
                                                      int direction) {
  return exec_descriptor(handle, in, out, direction, CUFFT_Z2Z);
}

/* The real transforms of several GPUs are not emulated. */
#define XT_REAL(NAME)                                                          \
  CUEMU_FFT_EXPORT cufftResult NAME(cufftHandle handle, xt_lib_desc *in,       \
                                    xt_lib_desc *out) {                        \
    (void)in, (void)out;                                                       \
    cuemu_fft_plan *p = cuemu__fft_plan_get(handle);                           \
    if (!p)                                                                    \
      return CUFFT_INVALID_PLAN;                                               \
    cuemu__fft_plan_release(p);                                                \
    return CUFFT_NOT_SUPPORTED;                                                \
  }
XT_REAL(cufftXtExecDescriptorR2C)
XT_REAL(cufftXtExecDescriptorC2R)
XT_REAL(cufftXtExecDescriptorD2Z)
XT_REAL(cufftXtExecDescriptorZ2D)

/* cufftXtExecDescriptor: the plan's own type decides. */
CUEMU_FFT_EXPORT cufftResult cufftXtExecDescriptor(cufftHandle handle,
                                                   xt_lib_desc *in,
                                                   xt_lib_desc *out,
                                                   int direction) {
  cuemu_fft_plan *p = cuemu__fft_plan_get(handle);
  if (!p)
    return CUFFT_INVALID_PLAN;
  int type = p->type;
  cuemu__fft_plan_release(p);
  return exec_descriptor(handle, in, out, direction, type);
}
