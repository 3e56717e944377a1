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
  /* The state values are drawn from (one thread's, for the layout below). */
  cuemu_rand_state s;
  /* XORWOW, MRG32k3a and Philox4_32_10 in NVIDIA's host API layout
   * (docs/cublas.md): `threads` states, thread t on subsequence t, their
   * starts for `starts_seed` (and SEEDED or not) kept (the jumps cost most); `position` is the
   * next item's index (XORWOW, MRG32k3a: values, normal pairs; Philox:
   * values, in groups of four per thread); `completed` counts the items
   * (Philox: groups) done since the offset was set, from which a change of
   * seed or ordering restarts as NVIDIA's generators do. */
  cuemu_rand_state *states, *starts;
  unsigned threads;
  int have_starts, starts_seeded;
  unsigned long long starts_seed, position, completed;
  /* The Poisson table of the last lambda below 2000 (cuemu_rand_discrete.c). */
  cuemu_rand_poisson_table poisson;
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
    free(g->states);
    free(g->starts);
    cuemu__rand_poisson_table_free(&g->poisson);
    free(g);
  }
}

/* ---- The generators, as curand_kernel.h's curand() draws ------------------ */

static uint32_t xorwow_next(curandGenerator_t g) {
  return cuemu__rand_xorwow_next(&g->s);
}

static uint32_t philox_next(curandGenerator_t g) {
  return cuemu__rand_philox_next(&g->s);
}

/* MRG32k3a's value in [1, m1] as curand_MRG32k3a() gives it. */
static uint64_t mrg_next(curandGenerator_t g) {
  return cuemu__rand_mrg_next(&g->s);
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

/* XORWOW, MRG32k3a, Philox: every thread's state at the generator's
 * position, offset + completed (for Philox, the completed groups of four
 * counted as values, which is what NVIDIA's generators do after a change
 * of seed or ordering). */
static void layout_reset(curandGenerator_t g) {
  int seeded = g->ordering == ORDERING_PSEUDO_SEEDED;
  if (!g->have_starts || g->starts_seed != g->seed ||
      g->starts_seeded != seeded) {
    cuemu__rand_pseudo_starts(g->type, g->ordering, g->seed, g->starts);
    g->have_starts = 1, g->starts_seed = g->seed, g->starts_seeded = seeded;
  }
  unsigned long long p = g->offset + g->completed;
  g->threads = cuemu__rand_pseudo_threads(g->type, g->ordering);
  memcpy(g->states, g->starts, g->threads * sizeof *g->states);
  if (g->type == RNG_PHILOX)
    cuemu__rand_pseudo_skip(g->type, g->states, g->threads,
                            4 * (p / 4 / g->threads),
                            (unsigned)(p / 4 % g->threads));
  else
    cuemu__rand_pseudo_skip(g->type, g->states, g->threads, p / g->threads,
                            (unsigned)(p % g->threads));
  g->position = p;
}

/* The generator's state from its seed and offset. */
static void reset(curandGenerator_t g) {
  if (g->sobol) {
    /* A quasirandom generator's offset is a point of every dimension. */
    cuemu__rand_sobol_seek(g->sobol, g->offset);
  } else if (g->mt) {
    cuemu__rand_mt_reset(g->mt, g->seed, g->offset);
  } else {
    layout_reset(g);
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

/* A double from two 32-bit draws (_curand_uniform_double_hq). */
static double uniform_double_of(uint32_t x, uint32_t y) {
  uint64_t z = (uint64_t)x ^ ((uint64_t)y << (53 - 32));
  return z * POW53_INV_DOUBLE + (POW53_INV_DOUBLE / 2.0);
}

/* A uniform double as NVIDIA's host generators make it: one MRG32k3a
 * value, two draws of the others (Philox's too, unlike the device API's
 * curand_uniform_double of a Philox state). */
static double uniform_double(curandGenerator_t g) {
  if (g->type == RNG_MRG32K3A)
    return (double)mrg_next(g) * MRG_NORM;
  uint32_t x = next(g), y = next(g);
  return uniform_double_of(x, y);
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

/* curand_box_muller_double of four draws. */
static void box_muller_double_of(const uint32_t x[4], double *a, double *b) {
  uint64_t zx = (uint64_t)x[0] ^ ((uint64_t)x[1] << (53 - 32));
  double u = zx * POW53_INV_DOUBLE + (POW53_INV_DOUBLE / 2.0);
  uint64_t zy = (uint64_t)x[2] ^ ((uint64_t)x[3] << (53 - 32));
  double v = zy * (POW53_INV_DOUBLE * 2.0) + POW53_INV_DOUBLE;
  double s = sqrt(-2.0 * log(u));
  *a = sin(v * PI_DOUBLE) * s;
  *b = cos(v * PI_DOUBLE) * s;
}

static void box_muller_double(curandGenerator_t g, double *a, double *b) {
  if (g->type == RNG_MRG32K3A) {
    double x = uniform_double(g), y = uniform_double(g) * 2.0;
    double s = sqrt(-2.0 * log(x));
    *a = sin(y * PI_DOUBLE) * s;
    *b = cos(y * PI_DOUBLE) * s;
    return;
  }
  uint32_t x[4];
  for (int i = 0; i < 4; ++i)
    x[i] = next(g);
  box_muller_double_of(x, a, b);
}

/* A value of NVIDIA's Poisson table for lambda (made when lambda changes;
 * lambda below 2000) from one draw, as _curand_M2_double takes it. */
static unsigned poisson_of_draw(curandGenerator_t g, uint32_t x,
                                double lambda) {
  cuemu_rand_poisson_table *t = &g->poisson;
  if (!t->V || t->lambda != lambda) {
    cuemu__rand_poisson_table_free(t);
    if (cuemu__rand_poisson_table(lambda, t) != CURAND_STATUS_SUCCESS) {
      cuemu_rt_library_fault(CUEMU_KERNEL_FAULT,
                             "cuemu's cuRAND: out of host memory for a "
                             "Poisson table");
      return 0;
    }
  }
  double u = x * POW32_INV_DOUBLE + POW32_INV_DOUBLE / 2.0;
  unsigned j = (unsigned)floor(t->length * u);
  if (j >= t->length)
    j = t->length - 1;
  return t->shift + (u < t->V[j] ? j : t->K[j]);
}

/* A Poisson value of one point of a quasirandom generator or MTGP32, as
 * NVIDIA's host generators make it. 64-bit Sobol: Fishman's inversion
 * below lambda 1000 (in steps of e^-500 so that e^-lambda does not
 * underflow), the rounded inverse-CDF normal (double) above. 32-bit points:
 * NVIDIA's table below lambda 10, Fishman's inversion up to lambda 8000, the
 * rounded double inverse-CDF normal above (docs/cublas.md). */
static unsigned quasi_poisson(curandGenerator_t g, uint64_t point, int wide,
                              double lambda) {
  if (!wide && lambda < 10)
    return poisson_of_draw(g, (uint32_t)point, lambda);
  if (wide ? lambda >= 1000 : lambda > 8000)
    return (unsigned)(sqrt(lambda) * cuemu__rand_normal_icdf_double(point, wide) +
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

/* curand_normal (float; MRG32k3a: curand_normal_double) of g->s, the
 * second value of each Box-Muller pair kept in the state for the next. */
static double kept_normal(curandGenerator_t g) {
  cuemu_rand_state *s = &g->s;
  if (g->type == RNG_MRG32K3A) {
    if (s->normal_double_kept) {
      s->normal_double_kept = 0;
      return s->normal_double_extra;
    }
    double a, b;
    box_muller_double(g, &a, &b);
    s->normal_double_kept = 1, s->normal_double_extra = b;
    return a;
  }
  if (s->normal_kept) {
    s->normal_kept = 0;
    return s->normal_extra;
  }
  float a, b;
  uint32_t x = next(g), y = next(g);
  box_muller(x, y, &a, &b);
  s->normal_kept = 1, s->normal_extra = b;
  return a;
}


/* A Poisson draw. XORWOW, Philox and MRG32k3a, as NVIDIA's host
 * generators: from lambda 2000 on, the rounded normal of the device API's
 * curand_poisson (a float normal; MRG32k3a's double); below, NVIDIA's
 * table at one draw. MT19937: Knuth's product of uniforms for a small
 * lambda and Hormann's transformed rejection (PTRS) from lambda 64 on. */
static unsigned poisson(curandGenerator_t g, double lambda) {
  if (g->states && lambda >= 2000)
    return (unsigned)(sqrt(lambda) * kept_normal(g) + lambda + 0.5);
  if (g->states)
    return poisson_of_draw(g, next(g), lambda);
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
      ((unsigned *)r->out)[i] = quasi_poisson(g, x, wide, r->mean);
      break;
    }
  }
  free(points);
}

/* The bytes of one output element. */
static size_t element_size(enum what w) {
  return w == UNIFORM_DOUBLE || w == NORMAL_DOUBLE ||
                 w == LOG_NORMAL_DOUBLE || w == LONG_LONG
             ? 8
             : 4;
}

/* Values of one item of XORWOW, MRG32k3a or MT19937: a Box-Muller pair of
 * normals, else one value. */
static size_t item_values(enum what w) {
  return w == NORMAL || w == NORMAL_DOUBLE || w == LOG_NORMAL ||
                 w == LOG_NORMAL_DOUBLE
             ? 2
             : 1;
}

/* Item i of the output (values i and i + 1 for normals) from g->s, as the
 * device API's transforms make it. */
static void generate_item(const request *r, size_t i) {
  curandGenerator_t g = r->g;
  switch (r->what) {
  case RAW:
    ((uint32_t *)r->out)[i] = next(g);
    break;
  case UNIFORM:
    ((float *)r->out)[i] = uniform_float(g);
    break;
  case UNIFORM_DOUBLE:
    ((double *)r->out)[i] = uniform_double(g);
    break;
  case NORMAL:
  case LOG_NORMAL: {
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
    break;
  }
  case NORMAL_DOUBLE:
  case LOG_NORMAL_DOUBLE: {
    double a, b;
    box_muller_double(g, &a, &b);
    double *o = (double *)r->out + i;
    o[0] = a * r->stddev + r->mean;
    o[1] = b * r->stddev + r->mean;
    if (r->what == LOG_NORMAL_DOUBLE)
      o[0] = exp(o[0]), o[1] = exp(o[1]);
    break;
  }
  case POISSON:
    ((unsigned *)r->out)[i] = poisson(g, r->mean);
    break;
  case LONG_LONG: /* refused by submit() */
    break;
  }
}

/* XORWOW and MRG32k3a: item k of the generator (its position) comes from
 * thread k mod threads, which continues its own subsequence. */
static void generate_threads(const request *r) {
  curandGenerator_t g = r->g;
  size_t step = item_values(r->what);
  for (size_t i = 0; i < r->n; i += step) {
    cuemu_rand_state *state = &g->states[g->position % g->threads];
    g->s = *state;
    generate_item(r, i);
    *state = g->s;
    ++g->position, ++g->completed;
  }
}

/* Philox4_32_10: value j of the generator (its position) is lane j mod 4 of
 * the group j / 4, which thread (j / 4) mod threads makes from its state as
 * curand4 does: four draws (eight for doubles: two per value), four values.
 * A thread's state moves on when a call has written its group's last lane;
 * a group cut by the end of a call is made again by the next. */
static void generate_philox(const request *r) {
  curandGenerator_t g = r->g;
  size_t size = element_size(r->what), i = 0;
  unsigned char values[4 * 8];
  while (i < r->n) {
    unsigned long long j = g->position;
    unsigned lane = (unsigned)(j % 4);
    cuemu_rand_state *state = &g->states[j / 4 % g->threads];
    g->s = *state;
    if (r->what == POISSON && r->mean >= 2000) {
      /* curand_poisson4: the rounded normals of curand_normal4. */
      uint32_t x[4];
      for (int k = 0; k < 4; ++k)
        x[k] = next(g);
      for (int k = 0; k < 4; k += 2) {
        float a, b;
        box_muller(x[k], x[k + 1], &a, &b);
        ((unsigned *)values)[k] =
            (unsigned)(sqrt(r->mean) * a + r->mean + 0.5);
        ((unsigned *)values)[k + 1] =
            (unsigned)(sqrt(r->mean) * b + r->mean + 0.5);
      }
    } else if (r->what == POISSON) {
      for (int k = 0; k < 4; ++k)
        ((unsigned *)values)[k] = poisson_of_draw(g, next(g), r->mean);
    } else {
      int wide = size == 8;
      uint32_t x[8];
      for (int k = 0; k < (wide ? 8 : 4); ++k)
        x[k] = next(g);
      for (int k = 0; k < 4; k += 2) {
        float *f = (float *)values + k;
        double *d = (double *)values + k;
        switch (r->what) {
        case RAW:
          memcpy(values + 4 * k, x + k, 8);
          break;
        case UNIFORM:
          f[0] = uniform(x[k]), f[1] = uniform(x[k + 1]);
          break;
        case UNIFORM_DOUBLE:
          d[0] = uniform_double_of(x[2 * k], x[2 * k + 1]);
          d[1] = uniform_double_of(x[2 * k + 2], x[2 * k + 3]);
          break;
        case NORMAL:
        case LOG_NORMAL:
          box_muller(x[k], x[k + 1], &f[0], &f[1]);
          for (int h = 0; h < 2; ++h) {
            f[h] = (float)(f[h] * r->stddev + r->mean);
            if (r->what == LOG_NORMAL)
              f[h] = expf(f[h]);
          }
          break;
        case NORMAL_DOUBLE:
        case LOG_NORMAL_DOUBLE:
          box_muller_double_of(x + 2 * k, &d[0], &d[1]);
          for (int h = 0; h < 2; ++h) {
            d[h] = d[h] * r->stddev + r->mean;
            if (r->what == LOG_NORMAL_DOUBLE)
              d[h] = exp(d[h]);
          }
          break;
        default:
          break;
        }
      }
    }
    size_t take = 4 - lane < r->n - i ? 4 - lane : r->n - i;
    memcpy((unsigned char *)r->out + i * size, values + lane * size,
           take * size);
    if (lane + take == 4) {
      *state = g->s;
      ++g->completed;
    }
    i += take;
    g->position += take;
  }
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
  if (g->states) {
    if (g->type == RNG_PHILOX)
      generate_philox(r);
    else
      generate_threads(r);
    return;
  }
  /* MT19937: one stream of draws; an odd count of normals keeps the first
   * of the last pair. */
  size_t step = item_values(r->what), i = 0;
  for (; i + step <= r->n; i += step)
    generate_item(r, i);
  if (i < r->n) {
    double pair[2];
    request last = *r;
    last.out = pair, last.n = 2;
    generate_item(&last, 0);
    memcpy((unsigned char *)r->out + i * element_size(r->what), pair,
           element_size(r->what));
  }
}

static void run_request(void *data) {
  const request *r = data;
  generate(r);
  /* cuRAND's kernels store the values: initcheck must see them written. */
  if (!__atomic_load_n(&r->g->destroyed, __ATOMIC_ACQUIRE))
    cuemu_rt_library_wrote(r->out, r->n * element_size(r->what));
  if (!((request *)data)->kept)
    free(data);
}

/* The destructor of a captured request (a graph's user object): drops its
 * reference to the generator. */
static void release_request(void *data) {
  generator_release(((request *)data)->g);
  free(data);
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
  /* XORWOW's and MRG32k3a's normals come in Box-Muller pairs: an odd
   * count is refused, as NVIDIA's do (its Philox, MTGP32 and MT19937
   * generators accept one). */
  if ((g->type == RNG_XORWOW || g->type == RNG_MRG32K3A) &&
      item_values(what) == 2 && n % 2 != 0)
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
  g->type = type, g->host = host, g->ordering = ORDERING_PSEUDO_DEFAULT;
  if (type == RNG_XORWOW || type == RNG_PHILOX || type == RNG_MRG32K3A) {
    g->threads = cuemu__rand_pseudo_threads(type, g->ordering);
    g->states = malloc(g->threads * sizeof *g->states);
    g->starts = malloc(g->threads * sizeof *g->starts);
    if (!g->states || !g->starts) {
      free(g->states);
      free(g->starts);
      free(g);
      return CURAND_STATUS_ALLOCATION_FAILED;
    }
  }
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
  /* NVIDIA's generators keep their state when the seed does not change. */
  if (g->states && seed == g->seed)
    return CURAND_STATUS_SUCCESS;
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
  g->completed = 0;
  g->fresh = 1;
  return CURAND_STATUS_SUCCESS;
}

CUEMU_RAND_EXPORT curandStatus_t curandSetGeneratorOrdering(curandGenerator_t g,
                                                            int order) {
  if (!g)
    return CURAND_STATUS_NOT_INITIALIZED;
  /* The pseudorandom orderings, or the one quasirandom ordering
   * (dimension-major). As NVIDIA's: SEEDED is XORWOW's only, MT19937 has
   * no BEST, and a host generator refuses DYNAMIC (docs/cublas.md). */
  if (g->sobol ? order != ORDERING_QUASI_DEFAULT
               : order < ORDERING_PSEUDO_BEST || order > ORDERING_PSEUDO_DYNAMIC)
    return CURAND_STATUS_OUT_OF_RANGE;
  if (!g->sobol &&
      ((order == ORDERING_PSEUDO_SEEDED && g->type != RNG_XORWOW) ||
       (order == ORDERING_PSEUDO_BEST && g->type == RNG_MT19937) ||
       (order == ORDERING_PSEUDO_DYNAMIC && g->host)))
    return CURAND_STATUS_OUT_OF_RANGE;
  if (g->states && order == g->ordering)
    return CURAND_STATUS_SUCCESS;
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
