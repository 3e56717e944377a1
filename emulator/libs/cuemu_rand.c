/*
 * cuemu_rand.c: cuRAND's host API (<curand.h>) for cuemu
 * (libcuemu_curand.so, emulator/libs/libs.am): XORWOW (the default),
 * MRG32k3a and Philox4_32_10 generators, whose sequence of 32-bit draws is the one the
 * device API gives one thread after curand_init(seed, 0, offset)
 * (curand_kernel.h), and the distributions drawn from it by the device
 * API's own transforms (curand_uniform, curand_normal's Box-Muller pairs,
 * and their double forms). A generator made with curandCreateGenerator
 * writes device memory in its stream's order (host work on the stream,
 * cuemu_rt_launch_host_func); one made with curandCreateGeneratorHost
 * writes host memory at once. The Sobol generators' points come from
 * cuemu_rand_quasi.c and go through the device API's transforms of one
 * point per value (generate_pointwise), as do MTGP32's draws
 * (cuemu_rand_mt.c). docs/cublas.md says what matches a GPU.
 */
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_status.h>
#include <cuemu/cuemu_runtime_graph.h>
#include <cuemu/cuemu_runtime_streams.h>

#include "cuemu_libs.h"
#include "cuemu_rand.h"

/* cuRAND's version that cuemu's cuRAND reports (CURAND_VERSION). */
#define CUEMU_RAND_VERSION 10400

/* The device API's constants (curand_globals.h). */
#define POW32_INV (2.3283064e-10f)
#define POW32_INV_2PI (2.3283064e-10f * 6.2831855f)
#define POW53_INV_DOUBLE (1.1102230246251565e-16)
#define POW32_INV_DOUBLE (2.3283064365386963e-10)
#define PI_DOUBLE (3.1415926535897932)

typedef struct curandGenerator_st {
  int type;
  int host; /* curandCreateGeneratorHost */
  int ordering;
  void *stream;
  unsigned long long seed, offset;
  int fresh; /* the state must be made from seed and offset first */
  /* XORWOW */
  uint32_t v[5], d;
  /* MRG32k3a */
  uint64_t s1[3], s2[3];
  /* Philox4_32_10 */
  uint32_t ctr[4], key[2], out[4];
  int index;
  /* The Sobol generators (cuemu_rand_quasi.c) */
  cuemu_rand_sobol *sobol;
  /* MTGP32 and MT19937 (cuemu_rand_mt.c) */
  cuemu_rand_mt *mt;
  /* References: the program's (until curandDestroyGenerator, which sets
   * `destroyed`) and one per request captured into a graph, which may
   * replay it later; the last one frees the generator. */
  int refs;
  int destroyed;
} *curandGenerator_t;

static void generator_release(curandGenerator_t g) {
  if (__atomic_sub_fetch(&g->refs, 1, __ATOMIC_ACQ_REL) == 0) {
    if (g->sobol)
      cuemu__rand_sobol_destroy(g->sobol);
    if (g->mt)
      cuemu__rand_mt_destroy(g->mt);
    free(g);
  }
}

/* ---- The generators, as curand_kernel.h's curand() draws ------------------ */

static uint32_t xorwow_next(curandGenerator_t g) {
  uint32_t t = g->v[0] ^ (g->v[0] >> 2);
  g->v[0] = g->v[1];
  g->v[1] = g->v[2];
  g->v[2] = g->v[3];
  g->v[3] = g->v[4];
  g->v[4] = (g->v[4] ^ (g->v[4] << 4)) ^ (t ^ (t << 1));
  g->d += 362437;
  return g->v[4] + g->d;
}

static void philox_block(const uint32_t ctr_in[4], const uint32_t key_in[2],
                         uint32_t out[4]) {
  uint32_t c[4] = {ctr_in[0], ctr_in[1], ctr_in[2], ctr_in[3]};
  uint32_t k0 = key_in[0], k1 = key_in[1];
  for (int r = 0; r < 10; ++r) {
    uint64_t p0 = (uint64_t)0xD2511F53u * c[0], p1 = (uint64_t)0xCD9E8D57u * c[2];
    uint32_t n0 = (uint32_t)(p1 >> 32) ^ c[1] ^ k0, n1 = (uint32_t)p1;
    uint32_t n2 = (uint32_t)(p0 >> 32) ^ c[3] ^ k1, n3 = (uint32_t)p0;
    c[0] = n0, c[1] = n1, c[2] = n2, c[3] = n3;
    k0 += 0x9E3779B9u, k1 += 0xBB67AE85u;
  }
  memcpy(out, c, sizeof c);
}

static uint32_t philox_next(curandGenerator_t g) {
  uint32_t r = g->out[g->index++];
  if (g->index == 4) {
    for (int i = 0; i < 4 && ++g->ctr[i] == 0; ++i)
      ;
    philox_block(g->ctr, g->key, g->out);
    g->index = 0;
  }
  return r;
}

/* MRG32k3a's two recurrences; the value in [1, m1] as curand_MRG32k3a()
 * gives it. */
#define MRG_M1 4294967087u
#define MRG_M2 4294944443u
static uint64_t mrg_next(curandGenerator_t g) {
  uint64_t p1 = (1403580u * g->s1[1] + (uint64_t)810728u * (MRG_M1 - g->s1[0])) %
                MRG_M1;
  g->s1[0] = g->s1[1], g->s1[1] = g->s1[2], g->s1[2] = p1;
  uint64_t p2 = (527612u * g->s2[2] + (uint64_t)1370589u * (MRG_M2 - g->s2[0])) %
                MRG_M2;
  g->s2[0] = g->s2[1], g->s2[1] = g->s2[2], g->s2[2] = p2;
  return p1 > p2 ? p1 - p2 : p1 - p2 + MRG_M1;
}
#define MRG_NORM (2.3283065498378288e-10)
#define MRG_BITS_NORM 1.000000048662

static uint32_t next(curandGenerator_t g) {
  if (g->mt)
    return cuemu__rand_mt_next(g->mt);
  if (g->type == RNG_MRG32K3A)
    return (uint32_t)((double)mrg_next(g) * MRG_BITS_NORM);
  return g->type == RNG_PHILOX ? philox_next(g) : xorwow_next(g);
}

/* curand_init(seed, 0, offset): the seed's scrambling, then `offset`
 * draws skipped. */
static void reset(curandGenerator_t g) {
  if (g->sobol) {
    /* A quasirandom generator's offset is a point of every dimension. */
    cuemu__rand_sobol_seek(g->sobol, g->offset);
  } else if (g->mt) {
    cuemu__rand_mt_reset(g->mt, g->seed, g->offset);
  } else if (g->type == RNG_PHILOX) {
    memset(g->ctr, 0, sizeof g->ctr);
    g->key[0] = (uint32_t)g->seed, g->key[1] = (uint32_t)(g->seed >> 32);
    philox_block(g->ctr, g->key, g->out);
    g->index = 0;
    /* Whole blocks of four by the counter, the rest by draws. */
    unsigned long long blocks = g->offset / 4;
    uint64_t lo = ((uint64_t)g->ctr[1] << 32 | g->ctr[0]) + blocks;
    g->ctr[0] = (uint32_t)lo, g->ctr[1] = (uint32_t)(lo >> 32);
    philox_block(g->ctr, g->key, g->out);
    for (unsigned long long i = 0; i < g->offset % 4; ++i)
      philox_next(g);
  } else if (g->type == RNG_MRG32K3A) {
    for (int i = 0; i < 3; ++i)
      g->s1[i] = g->s2[i] = 12345u;
    if (g->seed != 0) {
      uint64_t x1 = (uint32_t)g->seed ^ 0x55555555u;
      uint64_t x2 = (uint32_t)((g->seed >> 32) ^ 0xAAAAAAAAu);
      g->s1[0] = x1 * g->s1[0] % MRG_M1, g->s1[1] = x2 * g->s1[1] % MRG_M1;
      g->s1[2] = x1 * g->s1[2] % MRG_M1, g->s2[0] = x2 * g->s2[0] % MRG_M2;
      g->s2[1] = x1 * g->s2[1] % MRG_M2, g->s2[2] = x2 * g->s2[2] % MRG_M2;
    }
    for (unsigned long long i = 0; i < g->offset; ++i)
      mrg_next(g);
  } else {
    uint32_t s0 = (uint32_t)g->seed ^ 0xaad26b49u;
    uint32_t s1 = (uint32_t)(g->seed >> 32) ^ 0xf7dcefddu;
    uint32_t t0 = 1099087573u * s0, t1 = 2591861531u * s1;
    g->d = 6615241u + t1 + t0;
    g->v[0] = 123456789u + t0;
    g->v[1] = 362436069u ^ t0;
    g->v[2] = 521288629u + t1;
    g->v[3] = 88675123u ^ t1;
    g->v[4] = 5783321u + t0;
    for (unsigned long long i = 0; i < g->offset; ++i)
      xorwow_next(g);
  }
  g->fresh = 0;
}

/* ---- Distributions ---------------------------------------------------------- */

static float uniform(uint32_t x) { return x * POW32_INV + (POW32_INV / 2.0f); }

/* curand_uniform: from one 32-bit draw, or MRG32k3a's value scaled. */
static float uniform_float(curandGenerator_t g) {
  if (g->type == RNG_MRG32K3A)
    return (float)((double)mrg_next(g) * MRG_NORM);
  return uniform(next(g));
}

/* curand_uniform_double: two draws (XORWOW), one (Philox, MRG32k3a). */
static double uniform_double(curandGenerator_t g) {
  if (g->type == RNG_MRG32K3A)
    return (double)mrg_next(g) * MRG_NORM;
  if (g->type == RNG_PHILOX)
    return next(g) * POW32_INV_DOUBLE + (POW32_INV_DOUBLE / 2.0);
  uint32_t x = next(g), y = next(g);
  uint64_t z = (uint64_t)x ^ ((uint64_t)y << (53 - 32));
  return z * POW53_INV_DOUBLE + (POW53_INV_DOUBLE / 2.0);
}

static void box_muller(uint32_t x, uint32_t y, float *a, float *b) {
  float u = x * POW32_INV + (POW32_INV / 2);
  float v = y * POW32_INV_2PI + (POW32_INV_2PI / 2);
  float s = sqrtf(-2.0f * logf(u));
  *a = sinf(v) * s;
  *b = cosf(v) * s;
}

/* MRG32k3a's forms (curand_box_muller_mrg and its double form): from
 * uniform values rather than raw draws. */
static void box_muller_mrg(curandGenerator_t g, float *a, float *b) {
  float x = uniform_float(g);
  float y = uniform_float(g) * 6.2831855f;
  float s = sqrtf(-2.0f * logf(x));
  *a = sinf(y) * s;
  *b = cosf(y) * s;
}

static void box_muller_double(curandGenerator_t g, double *a, double *b) {
  if (g->type == RNG_MRG32K3A) {
    double x = uniform_double(g), y = uniform_double(g) * 2.0;
    double s = sqrt(-2.0 * log(x));
    *a = sin(y * PI_DOUBLE) * s;
    *b = cos(y * PI_DOUBLE) * s;
    return;
  }
  uint32_t x0 = next(g), x1 = next(g), y0 = next(g), y1 = next(g);
  uint64_t zx = (uint64_t)x0 ^ ((uint64_t)x1 << (53 - 32));
  double u = zx * POW53_INV_DOUBLE + (POW53_INV_DOUBLE / 2.0);
  uint64_t zy = (uint64_t)y0 ^ ((uint64_t)y1 << (53 - 32));
  double v = zy * (POW53_INV_DOUBLE * 2.0) + POW53_INV_DOUBLE;
  double s = sqrt(-2.0 * log(u));
  *a = sin(v * PI_DOUBLE) * s;
  *b = cos(v * PI_DOUBLE) * s;
}

/* A Poisson draw: Knuth's product of uniforms for a small lambda, and
 * Hormann's transformed rejection (PTRS) from lambda 64 on. */
static unsigned poisson(curandGenerator_t g, double lambda) {
  if (lambda < 64) {
    double limit = exp(-lambda), p = 1;
    unsigned k = 0;
    for (;;) {
      p *= uniform_float(g);
      if (p <= limit)
        return k;
      ++k;
    }
  }
  double slam = sqrt(lambda), loglam = log(lambda);
  double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
  double invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
  for (;;) {
    double u = uniform_double(g) - 0.5, v = uniform_double(g);
    double us = 0.5 - fabs(u);
    double k = floor((2 * a / us + b) * u + lambda + 0.43);
    if (us >= 0.07 && v <= vr)
      return (unsigned)k;
    if (k < 0 || (us < 0.013 && v > us))
      continue;
    if (log(v) + log(invalpha) - log(a / (us * us) + b) <=
        -lambda + k * loglam - lgamma(k + 1))
      return (unsigned)k;
  }
}

enum what { RAW, UNIFORM, UNIFORM_DOUBLE, NORMAL, NORMAL_DOUBLE, LOG_NORMAL,
            LOG_NORMAL_DOUBLE, POISSON, LONG_LONG };

/* The generation functions, by `enum what`. */
static const char *const names[] = {
    "curandGenerate",       "curandGenerateUniform",
    "curandGenerateUniformDouble", "curandGenerateNormal",
    "curandGenerateNormalDouble",  "curandGenerateLogNormal",
    "curandGenerateLogNormalDouble", "curandGeneratePoisson",
    "curandGenerateLongLong"};

typedef struct request {
  curandGenerator_t g;
  enum what what;
  void *out;
  size_t n;
  double mean, stddev; /* lambda for POISSON */
  int kept; /* captured into a graph, which owns it and may replay it */
} request;

/* _curand_poisson of one quasirandom point (curand_poisson.h): Fishman's
 * inversion below lambda 1000, in steps of e^-500 so that e^-lambda does not
 * underflow, and the rounded inverse-CDF normal above. */
static unsigned quasi_poisson(uint64_t point, int wide, double lambda) {
  if (lambda >= 1000)
    return (unsigned)(sqrt(lambda) *
                          (wide ? cuemu__rand_normal_icdf_double(point, wide)
                                : cuemu__rand_normal_icdf(point, wide)) +
                      lambda + 0.5);
  double u = wide ? (point >> 11) * POW53_INV_DOUBLE + POW53_INV_DOUBLE / 4.0
                  : (uint32_t)point * POW32_INV_DOUBLE +
                        POW32_INV_DOUBLE / 2.0;
  double p = 1.0, q = 1.0;
  unsigned k = 0;
  int pow = 0;
  do {
    double l = lambda > pow + 500.0 ? exp(-500.0) : exp(pow - lambda);
    p *= l;
    q *= l;
    pow += 500;
    while (u > q) {
      ++k;
      p *= lambda / k;
      q += p;
    }
  } while (pow < lambda);
  return k;
}

/* A request of a Sobol or MTGP32 generator: its points (dimension-major
 * for Sobol, the stream's draws for MTGP32) through the device API's
 * transform of one point per value (curand_uniform, curand_normal's inverse
 * CDF, ... of curandStateSobol32_t and curandStateMtgp32_t). */
static void generate_pointwise(const request *r) {
  curandGenerator_t g = r->g;
  size_t n = r->n;
  int wide = cuemu__rand_is_quasi64(g->type);
  uint64_t *points = malloc(n * sizeof *points);
  if (!points) {
    cuemu_rt_library_fault(CUEMU_KERNEL_FAULT,
                           "cuemu's cuRAND: out of host memory for the "
                           "points of a generation");
    return;
  }
  if (g->sobol) {
    cuemu__rand_sobol_points(g->sobol, points, n);
  } else {
    for (size_t i = 0; i < n; ++i)
      points[i] = next(g);
  }
  for (size_t i = 0; i < n; ++i) {
    uint64_t x = points[i];
    uint32_t top = wide ? (uint32_t)(x >> 32) : (uint32_t)x;
    switch (r->what) {
    case RAW:
      ((uint32_t *)r->out)[i] = (uint32_t)x;
      break;
    case LONG_LONG:
      ((uint64_t *)r->out)[i] = x;
      break;
    case UNIFORM:
      ((float *)r->out)[i] = uniform(top);
      break;
    case UNIFORM_DOUBLE:
      ((double *)r->out)[i] =
          wide ? (x >> 11) * POW53_INV_DOUBLE + POW53_INV_DOUBLE / 2.0
               : (uint32_t)x * POW32_INV_DOUBLE + POW32_INV_DOUBLE;
      break;
    case NORMAL:
    case LOG_NORMAL: {
      float v = (float)r->mean +
                (float)r->stddev * cuemu__rand_normal_icdf(x, wide);
      ((float *)r->out)[i] = r->what == LOG_NORMAL ? expf(v) : v;
      break;
    }
    case NORMAL_DOUBLE:
    case LOG_NORMAL_DOUBLE: {
      double v = r->mean + r->stddev * cuemu__rand_normal_icdf_double(x, wide);
      ((double *)r->out)[i] = r->what == LOG_NORMAL_DOUBLE ? exp(v) : v;
      break;
    }
    case POISSON:
      ((unsigned *)r->out)[i] = quasi_poisson(x, wide, r->mean);
      break;
    }
  }
  free(points);
}

static void generate(const request *r) {
  curandGenerator_t g = r->g;
  if (__atomic_load_n(&g->destroyed, __ATOMIC_ACQUIRE)) {
    /* A graph replaying a generation after curandDestroyGenerator: on a
     * GPU the generator's state is freed device memory. */
    char message[256];
    snprintf(message, sizeof message,
             "%s: a graph launch replays a generation of a generator that "
             "curandDestroyGenerator has destroyed (its state is freed "
             "device memory on a GPU)",
             names[r->what]);
    cuemu_rt_library_fault(CUEMU_KERNEL_FAULT, message);
    return;
  }
  if (g->fresh)
    reset(g);
  if (g->sobol || g->type == RNG_MTGP32) {
    generate_pointwise(r);
    return;
  }
  size_t n = r->n;
  switch (r->what) {
  case RAW:
    for (size_t i = 0; i < n; ++i)
      ((uint32_t *)r->out)[i] = next(g);
    break;
  case UNIFORM:
    for (size_t i = 0; i < n; ++i)
      ((float *)r->out)[i] = uniform_float(g);
    break;
  case UNIFORM_DOUBLE:
    for (size_t i = 0; i < n; ++i)
      ((double *)r->out)[i] = uniform_double(g);
    break;
  case NORMAL:
  case LOG_NORMAL:
    for (size_t i = 0; i < n; i += 2) {
      float a, b;
      if (g->type == RNG_MRG32K3A) {
        box_muller_mrg(g, &a, &b);
      } else {
        uint32_t x = next(g), y = next(g);
        box_muller(x, y, &a, &b);
      }
      float *o = (float *)r->out + i;
      o[0] = (float)(a * r->stddev + r->mean);
      o[1] = (float)(b * r->stddev + r->mean);
      if (r->what == LOG_NORMAL)
        o[0] = expf(o[0]), o[1] = expf(o[1]);
    }
    break;
  case NORMAL_DOUBLE:
  case LOG_NORMAL_DOUBLE:
    for (size_t i = 0; i < n; i += 2) {
      double a, b;
      box_muller_double(g, &a, &b);
      double *o = (double *)r->out + i;
      o[0] = a * r->stddev + r->mean;
      o[1] = b * r->stddev + r->mean;
      if (r->what == LOG_NORMAL_DOUBLE)
        o[0] = exp(o[0]), o[1] = exp(o[1]);
    }
    break;
  case POISSON:
    for (size_t i = 0; i < n; ++i)
      ((unsigned *)r->out)[i] = poisson(g, r->mean);
    break;
  case LONG_LONG: /* refused by submit() */
    break;
  }
}

static void run_request(void *data) {
  generate(data);
  if (!((request *)data)->kept)
    free(data);
}

/* The destructor of a captured request (a graph's user object): drops its
 * reference to the generator. */
static void release_request(void *data) {
  generator_release(((request *)data)->g);
  free(data);
}

/* The bytes of one output element. */
static size_t element_size(enum what w) {
  return w == UNIFORM_DOUBLE || w == NORMAL_DOUBLE ||
                 w == LOG_NORMAL_DOUBLE || w == LONG_LONG
             ? 8
             : 4;
}


static curandStatus_t submit(curandGenerator_t g, enum what what, void *out,
                             size_t n, double mean, double stddev) {
  if (!g)
    return CURAND_STATUS_NOT_INITIALIZED;
  /* 64-bit values come from the 64-bit Sobol generators only, and those
   * give no 32-bit ones. */
  if ((what == LONG_LONG) != cuemu__rand_is_quasi64(g->type) &&
      (what == LONG_LONG || what == RAW))
    return CURAND_STATUS_TYPE_ERROR;
  /* A quasirandom generator fills every dimension equally. */
  if (g->sobol && n % cuemu__rand_sobol_dims(g->sobol) != 0)
    return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
  /* Normals come in Box-Muller pairs: an odd count is refused (cuRAND's
   * rule for its pseudorandom generators). */
  if (!g->sobol && g->type != RNG_MTGP32 && (what == NORMAL || what == NORMAL_DOUBLE || what == LOG_NORMAL ||
       what == LOG_NORMAL_DOUBLE) &&
      n % 2 != 0)
    return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
  if (what == POISSON && !(mean > 0))
    return CURAND_STATUS_OUT_OF_RANGE;
  if (n == 0)
    return CURAND_STATUS_SUCCESS;
  if (!out)
    return CURAND_STATUS_OUT_OF_RANGE;
  request r = {g, what, out, n, mean, stddev, 0};
  if (g->host) {
    generate(&r);
    return CURAND_STATUS_SUCCESS;
  }
  if (cuemu_rt_sticky() != 0)
    return CURAND_STATUS_PREEXISTING_FAILURE;
  if (!cuemu__libs_aligned(names[what], "outputPtr", out,
                           element_size(what)) ||
      !cuemu__libs_device_range(names[what], "outputPtr", out,
                                n * element_size(what)))
    return CURAND_STATUS_SUCCESS;
  request *queued = malloc(sizeof *queued);
  if (!queued)
    return CURAND_STATUS_ALLOCATION_FAILED;
  *queued = r;
  int capture = CUEMU_RT_CAPTURE_NONE;
  cuemu_rt_graph *graph = NULL;
  cuemu_rt_stream_get_capture_info(g->stream, &capture, NULL, &graph, NULL,
                                   NULL);
  if (capture == CUEMU_RT_CAPTURE_ACTIVE && graph) {
    /* The graph owns a captured request (a user object) and replays it
     * with each launch, continuing the generator's sequence. The request
     * holds the generator: a launch after curandDestroyGenerator faults
     * with a message (generate()) instead of reading freed memory. */
    cuemu_rt_user_object *object;
    if (cuemu_rt_user_object_create(&object, queued, release_request, 1,
                                    1) != 0) {
      free(queued);
      return CURAND_STATUS_ALLOCATION_FAILED;
    }
    __atomic_add_fetch(&g->refs, 1, __ATOMIC_ACQ_REL);
    queued->kept = 1;
    if (cuemu_rt_graph_retain_user_object(graph, object, 1, 1) != 0) {
      cuemu_rt_user_object_release(object, 1);
      return CURAND_STATUS_LAUNCH_FAILURE;
    }
  }
  if (cuemu_rt_launch_host_func(g->stream, run_request, queued) != 0) {
    if (!queued->kept)
      free(queued);
    return CURAND_STATUS_LAUNCH_FAILURE;
  }
  return CURAND_STATUS_SUCCESS;
}

/* ---- The API ---------------------------------------------------------------- */

static curandStatus_t create(curandGenerator_t *out, int type, int host) {
  if (!out)
    return CURAND_STATUS_NOT_INITIALIZED;
  if (type == RNG_PSEUDO_DEFAULT)
    type = RNG_XORWOW;
  if (type == RNG_QUASI_DEFAULT)
    type = RNG_SOBOL32;
  if (type != RNG_XORWOW && type != RNG_PHILOX && type != RNG_MRG32K3A &&
      type != RNG_MTGP32 && type != RNG_MT19937 &&
      !cuemu__rand_is_quasi(type)) {
    /* CURAND_RNG_TEST is cuRAND's, not cuemu's (docs/cublas.md). */
    if (type == RNG_TEST)
      fprintf(stderr,
              "cuemu: curandCreateGenerator: generator type %d "
              "(CURAND_RNG_TEST) is not emulated\n",
              type);
    return CURAND_STATUS_TYPE_ERROR;
  }
  if (!host) {
    int device;
    if (cuemu_rt_get_device(&device) != 0)
      return CURAND_STATUS_INITIALIZATION_FAILED;
  }
  curandGenerator_t g = calloc(1, sizeof *g);
  if (!g)
    return CURAND_STATUS_ALLOCATION_FAILED;
  g->type = type, g->host = host, g->ordering = ORDERING_PSEUDO_BEST;
  if (cuemu__rand_is_quasi(type)) {
    curandStatus_t status = cuemu__rand_sobol_create(&g->sobol, type);
    if (status != CURAND_STATUS_SUCCESS) {
      free(g);
      return status;
    }
    g->ordering = ORDERING_QUASI_DEFAULT;
  }
  if (type == RNG_MTGP32 || type == RNG_MT19937) {
    curandStatus_t status = cuemu__rand_mt_create(&g->mt, type);
    if (status != CURAND_STATUS_SUCCESS) {
      if (status == CURAND_STATUS_TYPE_ERROR)
        fprintf(stderr,
                "cuemu: curandCreateGenerator: MTGP32 needs the CUDA "
                "toolkit's curand_mtgp32dc_p_11213.h, which this build of "
                "cuemu did not find\n");
      free(g);
      return status;
    }
  }
  g->fresh = 1;
  g->refs = 1;
  *out = g;
  return CURAND_STATUS_SUCCESS;
}

CUEMU_RAND_EXPORT curandStatus_t curandCreateGenerator(curandGenerator_t *g,
                                                       int type) {
  return create(g, type, 0);
}

CUEMU_RAND_EXPORT curandStatus_t curandCreateGeneratorHost(curandGenerator_t *g,
                                                           int type) {
  return create(g, type, 1);
}

/* A change of seed, offset, ordering or stream applies to the work issued
 * after it: the generator's earlier work finishes first. */
static void settle(curandGenerator_t g) {
  if (!g->host)
    cuemu_rt_stream_synchronize(g->stream);
}

CUEMU_RAND_EXPORT curandStatus_t curandDestroyGenerator(curandGenerator_t g) {
  if (!g)
    return CURAND_STATUS_NOT_INITIALIZED;
  settle(g);
  __atomic_store_n(&g->destroyed, 1, __ATOMIC_RELEASE);
  generator_release(g);
  return CURAND_STATUS_SUCCESS;
}

CUEMU_RAND_EXPORT curandStatus_t curandGetVersion(int *version) {
  if (!version)
    return CURAND_STATUS_OUT_OF_RANGE;
  *version = CUEMU_RAND_VERSION;
  return CURAND_STATUS_SUCCESS;
}

CUEMU_RAND_EXPORT curandStatus_t curandGetProperty(int type, int *value) {
  if (!value || type < 0 || type > 2)
    return CURAND_STATUS_OUT_OF_RANGE;
  *value = type == 0   ? CUEMU_RAND_VERSION / 1000
           : type == 1 ? CUEMU_RAND_VERSION / 100 % 10
                       : CUEMU_RAND_VERSION % 100;
  return CURAND_STATUS_SUCCESS;
}

CUEMU_RAND_EXPORT curandStatus_t curandSetStream(curandGenerator_t g,
                                                 void *stream) {
  if (!g)
    return CURAND_STATUS_NOT_INITIALIZED;
  settle(g);
  g->stream = stream;
  return CURAND_STATUS_SUCCESS;
}

CUEMU_RAND_EXPORT curandStatus_t
curandSetPseudoRandomGeneratorSeed(curandGenerator_t g,
                                   unsigned long long seed) {
  if (!g)
    return CURAND_STATUS_NOT_INITIALIZED;
  if (g->sobol)
    return CURAND_STATUS_TYPE_ERROR; /* a quasirandom generator has none */
  settle(g);
  g->seed = seed;
  g->fresh = 1;
  return CURAND_STATUS_SUCCESS;
}

CUEMU_RAND_EXPORT curandStatus_t curandSetGeneratorOffset(
    curandGenerator_t g, unsigned long long offset) {
  if (!g)
    return CURAND_STATUS_NOT_INITIALIZED;
  settle(g);
  g->offset = offset;
  g->fresh = 1;
  return CURAND_STATUS_SUCCESS;
}

CUEMU_RAND_EXPORT curandStatus_t curandSetGeneratorOrdering(curandGenerator_t g,
                                                            int order) {
  if (!g)
    return CURAND_STATUS_NOT_INITIALIZED;
  /* The pseudorandom orderings, each giving the one sequence here, or the
   * one quasirandom ordering (dimension-major). */
  if (g->sobol ? order != ORDERING_QUASI_DEFAULT
               : order < ORDERING_PSEUDO_BEST || order > ORDERING_PSEUDO_DYNAMIC)
    return CURAND_STATUS_OUT_OF_RANGE;
  settle(g);
  g->ordering = order;
  g->fresh = 1;
  return CURAND_STATUS_SUCCESS;
}

CUEMU_RAND_EXPORT curandStatus_t
curandSetQuasiRandomGeneratorDimensions(curandGenerator_t g, unsigned dims) {
  if (!g)
    return CURAND_STATUS_NOT_INITIALIZED;
  if (!g->sobol)
    return CURAND_STATUS_TYPE_ERROR; /* a pseudorandom generator */
  if (dims < 1 || dims > 20000)
    return CURAND_STATUS_OUT_OF_RANGE;
  settle(g);
  g->fresh = 1; /* each dimension starts again at the offset */
  return cuemu__rand_sobol_set_dims(g->sobol, dims);
}

CUEMU_RAND_EXPORT curandStatus_t curandGenerateSeeds(curandGenerator_t g) {
  if (!g)
    return CURAND_STATUS_NOT_INITIALIZED;
  settle(g);
  reset(g);
  return CURAND_STATUS_SUCCESS;
}

CUEMU_RAND_EXPORT curandStatus_t curandGenerate(curandGenerator_t g,
                                                unsigned *out, size_t n) {
  return submit(g, RAW, out, n, 0, 0);
}

CUEMU_RAND_EXPORT curandStatus_t curandGenerateLongLong(curandGenerator_t g,
                                                        unsigned long long *out,
                                                        size_t n) {
  /* Only the 64-bit quasirandom generators have it (submit()). */
  return submit(g, LONG_LONG, out, n, 0, 0);
}

CUEMU_RAND_EXPORT curandStatus_t curandGenerateUniform(curandGenerator_t g,
                                                       float *out, size_t n) {
  return submit(g, UNIFORM, out, n, 0, 0);
}

CUEMU_RAND_EXPORT curandStatus_t
curandGenerateUniformDouble(curandGenerator_t g, double *out, size_t n) {
  return submit(g, UNIFORM_DOUBLE, out, n, 0, 0);
}

CUEMU_RAND_EXPORT curandStatus_t curandGenerateNormal(curandGenerator_t g,
                                                      float *out, size_t n,
                                                      float mean,
                                                      float stddev) {
  return submit(g, NORMAL, out, n, mean, stddev);
}

CUEMU_RAND_EXPORT curandStatus_t
curandGenerateNormalDouble(curandGenerator_t g, double *out, size_t n,
                           double mean, double stddev) {
  return submit(g, NORMAL_DOUBLE, out, n, mean, stddev);
}

CUEMU_RAND_EXPORT curandStatus_t curandGenerateLogNormal(curandGenerator_t g,
                                                         float *out, size_t n,
                                                         float mean,
                                                         float stddev) {
  return submit(g, LOG_NORMAL, out, n, mean, stddev);
}

CUEMU_RAND_EXPORT curandStatus_t
curandGenerateLogNormalDouble(curandGenerator_t g, double *out, size_t n,
                              double mean, double stddev) {
  return submit(g, LOG_NORMAL_DOUBLE, out, n, mean, stddev);
}

CUEMU_RAND_EXPORT curandStatus_t curandGeneratePoisson(curandGenerator_t g,
                                                       unsigned *out, size_t n,
                                                       double lambda) {
  return submit(g, POISSON, out, n, lambda, 0);
}
