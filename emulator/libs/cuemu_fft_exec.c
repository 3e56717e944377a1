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
} request;

/* The side of a transform that holds complex values: the input of C2C
 * and C2R, the output of C2C and R2C. */
static int real_input(int type) {
  return type == CUFFT_R2C || type == CUFFT_D2Z;
}
static int real_output(int type) {
  return type == CUFFT_C2R || type == CUFFT_Z2D;
}

/* The lengths of one side: n, or n/2 + 1 in the last dimension of the
 * complex side of a real transform. */
static void side_lengths(const cuemu_fft_plan *p, int complex_side,
                         long long *len) {
  for (int d = 0; d < p->rank; ++d)
    len[d] = p->n[d];
  if (complex_side && p->type != CUFFT_C2C && p->type != CUFFT_Z2Z)
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

/* Element offset of the multi-index of value i (row-major in len). */
static long long offset(int rank, const long long *len,
                        const cuemu_fft_layout *l, long long i) {
  long long at = 0;
  for (int d = rank - 1; d >= 0; --d) {
    at += (i % len[d]) * l->stride[d];
    i /= len[d];
  }
  return at;
}

static cuemu_fft_complex load(const void *base, long long at, int dbl,
                              int real) {
  cuemu_fft_complex v = {0, 0};
  if (real) {
    v.re = dbl ? ((const double *)base)[at] : ((const float *)base)[at];
  } else if (dbl) {
    v.re = ((const double *)base)[2 * at];
    v.im = ((const double *)base)[2 * at + 1];
  } else {
    v.re = ((const float *)base)[2 * at];
    v.im = ((const float *)base)[2 * at + 1];
  }
  return v;
}

static void store(void *base, long long at, int dbl, int real,
                  cuemu_fft_complex v) {
  if (real) {
    if (dbl)
      ((double *)base)[at] = v.re;
    else
      ((float *)base)[at] = (float)v.re;
  } else if (dbl) {
    ((double *)base)[2 * at] = v.re;
    ((double *)base)[2 * at + 1] = v.im;
  } else {
    ((float *)base)[2 * at] = (float)v.re;
    ((float *)base)[2 * at + 1] = (float)v.im;
  }
}

/* Transforms the full array w (row-major in p->n) along every dimension. */
static void transform(const cuemu_fft_plan *p, cuemu_fft_complex *w, int sign,
                      cuemu_fft_complex *line, cuemu_fft_complex *scratch) {
  long long total = 1;
  for (int d = 0; d < p->rank; ++d)
    total *= p->n[d];
  for (int d = 0; d < p->rank; ++d) {
    long long n = p->n[d], inner = 1;
    if (n == 1)
      continue;
    for (int e = d + 1; e < p->rank; ++e)
      inner *= p->n[e];
    for (long long outer = 0; outer < total / (n * inner); ++outer)
      for (long long k = 0; k < inner; ++k) {
        cuemu_fft_complex *base = w + outer * n * inner + k;
        for (long long j = 0; j < n; ++j)
          line[j] = base[j * inner];
        cuemu__fft_engine_run(p->engine[d], line, sign, scratch);
        for (long long j = 0; j < n; ++j)
          base[j * inner] = line[j];
      }
  }
}

/* Index in the full array of value i of the half array (last dimension
 * n/2 + 1 long), and of its Hermitian mirror. */
static long long full_index(const cuemu_fft_plan *p, const long long *half,
                            long long i, int mirror) {
  long long at = 0, scale = 1;
  for (int d = p->rank - 1; d >= 0; --d) {
    long long k = i % half[d];
    i /= half[d];
    if (mirror)
      k = (p->n[d] - k) % p->n[d];
    at += k * scale;
    scale *= p->n[d];
  }
  return at;
}

static void run(const request *r) {
  const cuemu_fft_plan *p = r->plan;
  int dbl = cuemu__fft_is_double(p->type);
  int rin = real_input(p->type), rout = real_output(p->type);
  cuemu_fft_layout in, out;
  cuemu__fft_layout(p, r->in == r->out, &in, &out);
  long long ilen[3], olen[3], total = 1, ivalues = 1, ovalues = 1;
  side_lengths(p, !rin, ilen);
  side_lengths(p, !rout, olen);
  /* One line of the longest dimension, then the engines' scratch. */
  size_t longest = 1, most = 1;
  for (int d = 0; d < p->rank; ++d) {
    total *= p->n[d], ivalues *= ilen[d], ovalues *= olen[d];
    size_t need = cuemu__fft_engine_scratch(p->engine[d]);
    most = need > most ? need : most;
    longest = (size_t)p->n[d] > longest ? (size_t)p->n[d] : longest;
  }
  cuemu_fft_complex *w = malloc((size_t)(total * p->batch) * sizeof *w);
  cuemu_fft_complex *line = malloc((longest + most) * sizeof *line);
  if (!w || !line) {
    free(w);
    free(line);
    char message[256];
    snprintf(message, sizeof message,
             "%s: cuemu's cuFFT is out of host memory for a transform of "
             "%lld values",
             r->name, total * p->batch);
    cuemu_rt_library_fault(CUEMU_KERNEL_FAULT, message);
    return;
  }
  /* Every batch's input first: in place, the outputs overwrite them. */
  for (long long b = 0; b < p->batch; ++b) {
    cuemu_fft_complex *wb = w + b * total;
    const char *base = (const char *)r->in;
    for (long long i = 0; i < ivalues; ++i) {
      cuemu_fft_complex v =
          load(base, b * in.dist + offset(p->rank, ilen, &in, i), dbl, rin);
      if (rout) {
        /* The half spectrum and its Hermitian mirror make the full one. */
        wb[full_index(p, ilen, i, 0)] = v;
        cuemu_fft_complex c = {v.re, -v.im};
        wb[full_index(p, ilen, i, 1)] = c;
      } else {
        wb[i] = v;
      }
    }
    if (rout) /* the given values win over the mirrored ones */
      for (long long i = 0; i < ivalues; ++i)
        wb[full_index(p, ilen, i, 0)] =
            load(base, b * in.dist + offset(p->rank, ilen, &in, i), dbl, 0);
  }
  for (long long b = 0; b < p->batch; ++b)
    transform(p, w + b * total, r->sign, line, line + longest);
  /* An out-of-place C2R leaves its input overwritten: with the values of
   * the complex result at the half spectrum's places. */
  if (rout && r->in != r->out)
    for (long long b = 0; b < p->batch; ++b)
      for (long long i = 0; i < ivalues; ++i)
        store(r->in, b * in.dist + offset(p->rank, ilen, &in, i), dbl, 0,
              w[b * total + full_index(p, ilen, i, 0)]);
  for (long long b = 0; b < p->batch; ++b) {
    const cuemu_fft_complex *wb = w + b * total;
    for (long long i = 0; i < ovalues; ++i) {
      /* The complex output of R2C is the full array's first n/2 + 1 of
       * its last dimension. */
      long long from = rin ? full_index(p, olen, i, 0) : i;
      store(r->out, b * out.dist + offset(p->rank, olen, &out, i), dbl, rout,
            wb[from]);
    }
  }
  free(w);
  free(line);
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
                   int dbl) {
  long long len[3];
  side_lengths(p, complex_side, len);
  size_t scalar = dbl ? 8 : 4;
  size_t bytes = (size_t)span(p, l, len) * scalar * (complex_side ? 2 : 1);
  return cuemu__libs_aligned(name, arg, ptr, scalar) &&
         cuemu__libs_device_range(name, arg, ptr, bytes);
}

static cufftResult exec(cufftHandle handle, const char *name, int type,
                        void *in, void *out, int sign) {
  cuemu_fft_plan *p = cuemu__fft_plan_get(handle);
  if (!p)
    return CUFFT_INVALID_PLAN;
  cufftResult st = CUFFT_SUCCESS;
  if (!__atomic_load_n(&p->made, __ATOMIC_ACQUIRE))
    st = CUFFT_INVALID_PLAN;
  else if (p->type != type || !in || !out)
    st = CUFFT_INVALID_VALUE;
  else if ((type == CUFFT_C2C || type == CUFFT_Z2Z) &&
           sign != CUFFT_FORWARD && sign != CUFFT_INVERSE)
    st = CUFFT_INVALID_VALUE;
  else if (!__atomic_load_n(&p->auto_allocation, __ATOMIC_ACQUIRE) &&
           !__atomic_load_n(&p->work_area, __ATOMIC_ACQUIRE) &&
           p->work_size > 0)
    st = CUFFT_NO_WORKSPACE;
  else if (cuemu_rt_sticky() != 0)
    st = CUFFT_EXEC_FAILED;
  if (st != CUFFT_SUCCESS) {
    cuemu__fft_plan_release(p);
    return st;
  }
  int dbl = cuemu__fft_is_double(type);
  cuemu_fft_layout li, lo;
  cuemu__fft_layout(p, in == out, &li, &lo);
  if (!side_ok(p, name, "idata", in, &li, !real_input(type), dbl) ||
      !side_ok(p, name, "odata", out, &lo, !real_output(type), dbl)) {
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
  r->sign = type == CUFFT_C2R || type == CUFFT_Z2D   ? CUFFT_INVERSE
            : type == CUFFT_R2C || type == CUFFT_D2Z ? CUFFT_FORWARD
                                                     : sign;
  r->kept = 0;
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

CUEMU_FFT_EXPORT cufftResult cufftExecC2C(cufftHandle plan, void *idata,
                                          void *odata, int direction) {
  return exec(plan, "cufftExecC2C", CUFFT_C2C, idata, odata, direction);
}

CUEMU_FFT_EXPORT cufftResult cufftExecZ2Z(cufftHandle plan, void *idata,
                                          void *odata, int direction) {
  return exec(plan, "cufftExecZ2Z", CUFFT_Z2Z, idata, odata, direction);
}

CUEMU_FFT_EXPORT cufftResult cufftExecR2C(cufftHandle plan, void *idata,
                                          void *odata) {
  return exec(plan, "cufftExecR2C", CUFFT_R2C, idata, odata, CUFFT_FORWARD);
}

CUEMU_FFT_EXPORT cufftResult cufftExecD2Z(cufftHandle plan, void *idata,
                                          void *odata) {
  return exec(plan, "cufftExecD2Z", CUFFT_D2Z, idata, odata, CUFFT_FORWARD);
}

CUEMU_FFT_EXPORT cufftResult cufftExecC2R(cufftHandle plan, void *idata,
                                          void *odata) {
  return exec(plan, "cufftExecC2R", CUFFT_C2R, idata, odata, CUFFT_INVERSE);
}

CUEMU_FFT_EXPORT cufftResult cufftExecZ2D(cufftHandle plan, void *idata,
                                          void *odata) {
  return exec(plan, "cufftExecZ2D", CUFFT_Z2D, idata, odata, CUFFT_INVERSE);
}
