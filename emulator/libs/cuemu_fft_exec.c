/*
 * cuemu_fft_exec.c: cufftExecC2C, R2C, C2R, Z2Z, D2Z and Z2D for cuemu's
 * cuFFT (cuemu_fft.h). An execution checks its arguments at once and runs
 * in its plan's stream's order (host work on the stream,
 * cuemu_rt_launch_host_func, captured into a graph as one host node);
 * it reads every batch's input before it writes any output, so that in
 * place and overlapping layouts give cuFFT's results; it computes in
 * double precision and rounds once; an out-of-place complex-to-real
 * transform overwrites its input, as cuFFT's may (docs/cufft.md).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_graph.h>
#include <cuemu/cuemu_runtime_streams.h>
#include <cuemu/cuemu_status.h>

#include "cuemu_fft.h"
#include "cuemu_libs.h"

typedef struct request {
  cuemu_fft_plan *plan;
  const char *name;
  void *in, *out;
  int sign;
  int kept; /* captured into a graph, which owns it and may replay it */
  cuemu_fft_callbacks callbacks; /* the plan's when the call was made */
} request;

/* The lengths of one side: n, or n/2 + 1 in the last dimension of the
 * complex side of a real transform. */
static void side_lengths(const cuemu_fft_plan *p, int complex_side,
                         long long *len) {
  for (int d = 0; d < p->rank; ++d)
    len[d] = p->n[d];
  if (complex_side && (cuemu__fft_real_input(p->type) ||
                       cuemu__fft_real_output(p->type)))
    len[p->rank - 1] = p->n[p->rank - 1] / 2 + 1;
}

/* The elements one side spans in memory. */
static long long span(const cuemu_fft_plan *p, const cuemu_fft_layout *l,
                      const long long *len) {
  long long last = (p->batch - 1) * l->dist;
  for (int d = 0; d < p->rank; ++d)
    last += (len[d] - 1) * l->stride[d];
  return last + 1;
}

/* A side's lengths and strides over three dimensions, the plan's ranks
 * aligned to the last (a missing leading dimension has length 1). */
typedef struct {
  long long len[3], stride[3], dist;
} box;

static box side_box(const cuemu_fft_plan *p, const cuemu_fft_layout *l,
                    const long long *len) {
  box x = {{1, 1, 1}, {0, 0, 0}, l->dist};
  for (int d = 0; d < p->rank; ++d) {
    x.len[3 - p->rank + d] = len[d];
    x.stride[3 - p->rank + d] = l->stride[d];
  }
  return x;
}

/* IEEE binary16 (CUDA's __half) to double, exactly. Bit by bit, as C11
 * has no half type that every compiler takes (clang 14 refuses _Float16
 * on x86-64). */
static double half_to_double(uint16_t h) {
  int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  double v = e == 0    ? ldexp(m, -24)
             : e == 31 ? (m ? NAN : INFINITY)
                       : ldexp(1024 + m, e - 25);
  return h & 0x8000 ? -v : v;
}

/* A double to binary16, rounded to nearest even (infinity past the
 * largest half, subnormals below the smallest normal). */
static uint16_t double_to_half(double v) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  uint16_t sign = (uint16_t)((bits >> 48) & 0x8000);
  int exp = (int)((bits >> 52) & 0x7ff);
  uint64_t mant = bits & ((1ULL << 52) - 1);
  if (exp == 0x7ff)
    return sign | 0x7c00 | (mant ? 0x200 : 0);
  int e = exp - 1023 + 15;
  if (e >= 31)
    return sign | 0x7c00;
  uint64_t full = mant, k;
  int shift;
  if (e <= 0) {
    if (e < -10)
      return sign;
    full |= 1ULL << 52;
    shift = 43 - e;
    k = full >> shift;
  } else {
    shift = 42;
    k = ((uint64_t)e << 10) | (mant >> 42);
  }
  uint64_t rest = full & ((1ULL << shift) - 1), halfway = 1ULL << (shift - 1);
  if (rest > halfway || (rest == halfway && (k & 1)))
    ++k; /* a carry into the exponent is the next binade or infinity */
  return sign | (uint16_t)k;
}

/* Value `at` of a side of scalars of `size` bytes (2: half), real or
 * complex. */
static inline double scalar_at(const void *base, long long at, int size) {
  switch (size) {
  case 8:
    return ((const double *)base)[at];
  case 4:
    return ((const float *)base)[at];
  default:
    return half_to_double(((const uint16_t *)base)[at]);
  }
}

static inline void scalar_set(void *base, long long at, int size, double v) {
  switch (size) {
  case 8:
    ((double *)base)[at] = v;
    break;
  case 4:
    ((float *)base)[at] = (float)v;
    break;
  default:
    ((uint16_t *)base)[at] = double_to_half(v);
  }
}

static inline cuemu_fft_complex load(const void *base, long long at, int size,
                                     int real) {
  cuemu_fft_complex v = {0, 0};
  if (real) {
    v.re = scalar_at(base, at, size);
  } else {
    v.re = scalar_at(base, 2 * at, size);
    v.im = scalar_at(base, 2 * at + 1, size);
  }
  return v;
}

static inline void store(void *base, long long at, int size, int real,
                         cuemu_fft_complex v) {
  if (real) {
    scalar_set(base, at, size, v.re);
  } else {
    scalar_set(base, 2 * at, size, v.re);
    scalar_set(base, 2 * at + 1, size, v.im);
  }
}

/* Lines transformed together along a dimension that is not the last, so
 * that their gathers read memory in runs. */
#define BLOCK 16

/* Transforms the full array w (row-major in n[3]) along every dimension;
 * line holds BLOCK lines of the longest length, then the engines'
 * scratch. */
static void transform(const cuemu_fft_plan *p, const long long *n,
                      cuemu_fft_complex *w, int sign, cuemu_fft_complex *line,
                      size_t longest) {
  long long total = n[0] * n[1] * n[2];
  cuemu_fft_complex *scratch = line + BLOCK * longest;
  for (int d = 3 - p->rank; d < 3; ++d) {
    long long len = n[d], inner = 1;
    const cuemu_fft_engine *e = p->engine[d - (3 - p->rank)];
    if (len == 1)
      continue;
    for (int f = d + 1; f < 3; ++f)
      inner *= n[f];
    for (long long outer = 0; outer < total / (len * inner); ++outer) {
      cuemu_fft_complex *base = w + outer * len * inner;
      if (inner == 1) { /* contiguous: in place */
        cuemu__fft_engine_run(e, base, sign, scratch);
        continue;
      }
      for (long long k0 = 0; k0 < inner; k0 += BLOCK) {
        long long count = inner - k0 < BLOCK ? inner - k0 : BLOCK;
        for (long long j = 0; j < len; ++j)
          for (long long k = 0; k < count; ++k)
            line[k * len + j] = base[j * inner + k0 + k];
        for (long long k = 0; k < count; ++k)
          cuemu__fft_engine_run(e, line + k * len, sign, scratch);
        for (long long j = 0; j < len; ++j)
          for (long long k = 0; k < count; ++k)
            base[j * inner + k0 + k] = line[k * len + j];
      }
    }
  }
}

/* Records that a line of n elements of `elem` bytes, the first at element
 * `at` of p and each `stride` elements after the one before, was written,
 * as the transform's kernels store it (cuemu_rt_library_wrote(): initcheck
 * takes the output as initialised). */
static void line_wrote(void *p, long long at, long long n, long long stride,
                       size_t elem) {
  char *first = (char *)p + (size_t)at * elem;
  if (stride == 1) {
    cuemu_rt_library_wrote(first, (size_t)n * elem);
    return;
  }
  for (long long i = 0; i < n; ++i)
    cuemu_rt_library_wrote(first + (size_t)(i * stride) * elem, elem);
}

static void run(const request *r) {
  const cuemu_fft_plan *p = r->plan;
  /* The callbacks' shared memory, for this execution. */
  cuemu_fft_callbacks cb = r->callbacks;
  for (int k = 0; k < 2; ++k)
    cb.shared[k] = cb.routine[k] && cb.shared_size[k]
                       ? calloc(1, cb.shared_size[k])
                       : NULL;
  int size = cuemu__fft_scalar(p->type);
  int rin = cuemu__fft_real_input(p->type);
  int rout = cuemu__fft_real_output(p->type);
  cuemu_fft_layout in, out;
  cuemu__fft_layout(p, r->in == r->out, &in, &out);
  long long ilen[3], olen[3];
  side_lengths(p, !rin, ilen);
  side_lengths(p, !rout, olen);
  box ib = side_box(p, &in, ilen), ob = side_box(p, &out, olen);
  long long full[3] = {1, 1, 1}, total = 1;
  /* One block of lines of the longest dimension, then the engines'
   * scratch. */
  size_t longest = 1, most = 1;
  for (int d = 0; d < p->rank; ++d) {
    full[3 - p->rank + d] = p->n[d];
    total *= p->n[d];
    size_t need = cuemu__fft_engine_scratch(p->engine[d]);
    most = need > most ? need : most;
    longest = (size_t)p->n[d] > longest ? (size_t)p->n[d] : longest;
  }
  cuemu_fft_complex *w = malloc((size_t)(total * p->batch) * sizeof *w);
  cuemu_fft_complex *line = malloc((BLOCK * longest + most) * sizeof *line);
  if (!w || !line) {
    free(w);
    free(line);
    free(cb.shared[0]);
    free(cb.shared[1]);
    char message[256];
    snprintf(message, sizeof message,
             "%s: cuemu's cuFFT is out of host memory for a transform of "
             "%lld values",
             r->name, total * p->batch);
    cuemu_rt_library_fault(CUEMU_KERNEL_FAULT, message);
    return;
  }
  /* Every batch's input first: in place, the outputs overwrite them. A
   * C2R's half spectrum and its Hermitian mirror make the full one (the
   * mirror only where no value is given). */
  for (long long b = 0; b < p->batch; ++b) {
    cuemu_fft_complex *wb = w + b * total;
    for (long long i0 = 0; i0 < ib.len[0]; ++i0)
      for (long long i1 = 0; i1 < ib.len[1]; ++i1) {
        long long at = b * ib.dist + i0 * ib.stride[0] + i1 * ib.stride[1];
        cuemu_fft_complex *row = wb + (i0 * full[1] + i1) * full[2];
        cuemu_fft_complex *mirror =
            wb + ((full[0] - i0) % full[0] * full[1] +
                  (full[1] - i1) % full[1]) * full[2];
        for (long long i2 = 0; i2 < ib.len[2]; ++i2) {
          cuemu_fft_complex v =
              cb.routine[0]
                  ? cuemu__fft_load_callback(&cb, r->in,
                                             at + i2 * ib.stride[2], size,
                                             rin)
                  : load(r->in, at + i2 * ib.stride[2], size, rin);
          row[i2] = v;
          long long m2 = (full[2] - i2) % full[2];
          if (rout && m2 >= ib.len[2]) {
            cuemu_fft_complex c = {v.re, -v.im};
            mirror[m2] = c;
          }
        }
      }
  }
  for (long long b = 0; b < p->batch; ++b)
    transform(p, full, w + b * total, r->sign, line, longest);
  /* An out-of-place C2R leaves its input overwritten: with the values of
   * the complex result at the half spectrum's places. */
  if (rout && r->in != r->out)
    for (long long b = 0; b < p->batch; ++b)
      for (long long i0 = 0; i0 < ib.len[0]; ++i0)
        for (long long i1 = 0; i1 < ib.len[1]; ++i1) {
          long long at = b * ib.dist + i0 * ib.stride[0] + i1 * ib.stride[1];
          const cuemu_fft_complex *row =
              w + b * total + (i0 * full[1] + i1) * full[2];
          for (long long i2 = 0; i2 < ib.len[2]; ++i2)
            store(r->in, at + i2 * ib.stride[2], size, 0, row[i2]);
        }
  /* The output; an R2C's is the first n/2 + 1 of each last dimension. */
  for (long long b = 0; b < p->batch; ++b)
    for (long long i0 = 0; i0 < ob.len[0]; ++i0)
      for (long long i1 = 0; i1 < ob.len[1]; ++i1) {
        long long at = b * ob.dist + i0 * ob.stride[0] + i1 * ob.stride[1];
        const cuemu_fft_complex *row =
            w + b * total + (i0 * full[1] + i1) * full[2];
        for (long long i2 = 0; i2 < ob.len[2]; ++i2)
          if (cb.routine[1])
            cuemu__fft_store_callback(&cb, r->out,
                                      at + i2 * ob.stride[2], size, rout,
                                      row[i2]);
          else
            store(r->out, at + i2 * ob.stride[2], size, rout, row[i2]);
        if (!cb.routine[1])
          line_wrote(r->out, at, ob.len[2], ob.stride[2],
                     (size_t)size * (rout ? 1 : 2));
      }
  free(w);
  free(line);
  free(cb.shared[0]);
  free(cb.shared[1]);
}

static void run_request(void *data) {
  request *r = data;
  run(r);
  if (!r->kept) {
    cuemu__fft_plan_release(r->plan);
    free(r);
  }
}

/* The destructor of a captured execution (a graph's user object). */
static void release_request(void *data) {
  request *r = data;
  cuemu__fft_plan_release(r->plan);
  free(r);
}

/* Checks that one side of an execution is device memory, aligned to its
 * scalar. 0 after recording a fault (cuemu_libs.h). */
static int side_ok(const cuemu_fft_plan *p, const char *name, const char *arg,
                   const void *ptr, const cuemu_fft_layout *l, int complex_side,
                   size_t scalar) {
  long long len[3];
  side_lengths(p, complex_side, len);
  size_t bytes = (size_t)span(p, l, len) * scalar * (complex_side ? 2 : 1);
  return cuemu__libs_aligned(name, arg, ptr, scalar) &&
         cuemu__libs_device_range(name, arg, ptr, bytes);
}

/* Whether an execution of type `type` from `in` to `out` fits the plan:
 * CUFFT_INVALID_PLAN when it is not made yet, CUFFT_INVALID_VALUE for
 * another type or a NULL array, else CUFFT_SUCCESS. */
static cufftResult plan_fits(const cuemu_fft_plan *p, int type,
                             const void *in, const void *out) {
  if (!__atomic_load_n(&p->made, __ATOMIC_ACQUIRE))
    return CUFFT_INVALID_PLAN;
  return p->type != type || !in || !out ? CUFFT_INVALID_VALUE : CUFFT_SUCCESS;
}

cufftResult cuemu__fft_exec(cufftHandle handle, const char *name, int type,
                            void *in, void *out, int sign) {
  cuemu_fft_plan *p = cuemu__fft_plan_get(handle);
  if (!p)
    return CUFFT_INVALID_PLAN;
  cufftResult st = plan_fits(p, type, in, out);
  if (st == CUFFT_SUCCESS) {
    if (!cuemu__fft_real_input(type) && !cuemu__fft_real_output(type) &&
        sign != CUFFT_FORWARD && sign != CUFFT_INVERSE)
      st = CUFFT_INVALID_VALUE;
    else if (!__atomic_load_n(&p->auto_allocation, __ATOMIC_ACQUIRE) &&
             !__atomic_load_n(&p->work_area, __ATOMIC_ACQUIRE) &&
             p->work_size > 0)
      st = CUFFT_NO_WORKSPACE;
    else if (cuemu_rt_sticky() != 0)
      st = CUFFT_EXEC_FAILED;
  }
  if (st != CUFFT_SUCCESS) {
    cuemu__fft_plan_release(p);
    return st;
  }
  size_t scalar = (size_t)cuemu__fft_scalar(type);
  cuemu_fft_layout li, lo;
  cuemu__fft_layout(p, in == out, &li, &lo);
  if (!side_ok(p, name, "idata", in, &li, !cuemu__fft_real_input(type),
               scalar) ||
      !side_ok(p, name, "odata", out, &lo, !cuemu__fft_real_output(type),
               scalar)) {
    /* The fault is recorded; the launch itself succeeded. */
    cuemu__fft_plan_release(p);
    return CUFFT_SUCCESS;
  }
  request *r = malloc(sizeof *r);
  if (!r) {
    cuemu__fft_plan_release(p);
    return CUFFT_ALLOC_FAILED;
  }
  r->plan = p, r->name = name, r->in = in, r->out = out;
  r->sign = cuemu__fft_real_output(type)  ? CUFFT_INVERSE
            : cuemu__fft_real_input(type) ? CUFFT_FORWARD
                                          : sign;
  r->kept = 0;
  r->callbacks = cuemu__fft_callbacks(p);
  void *stream = __atomic_load_n(&p->stream, __ATOMIC_ACQUIRE);
  int capture = CUEMU_RT_CAPTURE_NONE;
  cuemu_rt_graph *graph = NULL;
  cuemu_rt_stream_get_capture_info(stream, &capture, NULL, &graph, NULL,
                                   NULL);
  if (capture == CUEMU_RT_CAPTURE_ACTIVE && graph) {
    /* The graph owns a captured execution and its reference to the plan,
     * and replays it with each launch. */
    cuemu_rt_user_object *object;
    if (cuemu_rt_user_object_create(&object, r, release_request, 1, 1) != 0) {
      release_request(r);
      return CUFFT_ALLOC_FAILED;
    }
    r->kept = 1;
    if (cuemu_rt_graph_retain_user_object(graph, object, 1, 1) != 0) {
      cuemu_rt_user_object_release(object, 1);
      return CUFFT_EXEC_FAILED;
    }
  }
  if (cuemu_rt_launch_host_func(stream, run_request, r) != 0) {
    if (!r->kept)
      release_request(r);
    return CUFFT_EXEC_FAILED;
  }
  return CUFFT_SUCCESS;
}

cufftResult cuemu__fft_exec_host(cufftHandle handle, int type, void *in,
                                 void *out, int sign) {
  cuemu_fft_plan *p = cuemu__fft_plan_get(handle);
  if (!p)
    return CUFFT_INVALID_PLAN;
  const cufftResult st = plan_fits(p, type, in, out);
  if (st == CUFFT_SUCCESS) {
    request r = {p, "fftw_execute", in, out, sign, 1,
                 cuemu__fft_callbacks(p)};
    if (cuemu__fft_real_output(type))
      r.sign = CUFFT_INVERSE;
    else if (cuemu__fft_real_input(type))
      r.sign = CUFFT_FORWARD;
    run(&r);
  }
  cuemu__fft_plan_release(p);
  return st;
}

CUEMU_FFT_EXPORT cufftResult cufftExecC2C(cufftHandle plan, void *idata,
                                          void *odata, int direction) {
  return cuemu__fft_exec(plan, "cufftExecC2C", CUFFT_C2C, idata, odata, direction);
}

CUEMU_FFT_EXPORT cufftResult cufftExecZ2Z(cufftHandle plan, void *idata,
                                          void *odata, int direction) {
  return cuemu__fft_exec(plan, "cufftExecZ2Z", CUFFT_Z2Z, idata, odata, direction);
}

CUEMU_FFT_EXPORT cufftResult cufftExecR2C(cufftHandle plan, void *idata,
                                          void *odata) {
  return cuemu__fft_exec(plan, "cufftExecR2C", CUFFT_R2C, idata, odata, CUFFT_FORWARD);
}

CUEMU_FFT_EXPORT cufftResult cufftExecD2Z(cufftHandle plan, void *idata,
                                          void *odata) {
  return cuemu__fft_exec(plan, "cufftExecD2Z", CUFFT_D2Z, idata, odata, CUFFT_FORWARD);
}

CUEMU_FFT_EXPORT cufftResult cufftExecC2R(cufftHandle plan, void *idata,
                                          void *odata) {
  return cuemu__fft_exec(plan, "cufftExecC2R", CUFFT_C2R, idata, odata, CUFFT_INVERSE);
}

CUEMU_FFT_EXPORT cufftResult cufftExecZ2D(cufftHandle plan, void *idata,
                                          void *odata) {
  return cuemu__fft_exec(plan, "cufftExecZ2D", CUFFT_Z2D, idata, odata, CUFFT_INVERSE);
}
