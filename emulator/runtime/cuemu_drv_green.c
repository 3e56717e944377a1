/*
 * cuemu_drv_green.c: the driver API's green contexts (CUDA 12.4; see
 * cuemu_driver_api.h). A device's SMs (its MULTIPROCESSOR_COUNT) are a
 * resource that cuDevSmResourceSplitByCount divides into groups, as
 * CUDA's rules for compute capability 9.0 do (at least 8 SMs, multiples of
 * 8; 2 and 2 with CU_DEV_SM_RESOURCE_SPLIT_IGNORE_SM_COSCHEDULING);
 * cuDevResourceGenerateDesc joins groups of one split into a descriptor
 * and cuGreenCtxCreate makes a green context of it: a context of its own
 * (cuCtxFromGreenCtx gives it) with that many SMs, which
 * cuGreenCtxGetDevResource and cuCtxGetDevResource report. Kernels of a
 * green context run on its SMs: those of its streams (the stream's
 * state), of its default stream while its context is current (launches
 * that run when issued ask current_sms; deferred ones are nodes with the
 * context's SMs) and of graph nodes made in it (docs/driver-api.md).
 */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_driver_api.h>
#include <cuemu/cuemu_driver_errors.h>
#include <cuemu/cuemu_host_ids.h>

#include "device/cuemu_device_launch.h"
#include "runtime/cuemu_drv_internal.h"

enum {
#define CUEMU_DRV_ENUM_(name, value, text) DRV_##name = value,
  CUEMU_DRIVER_ERROR_MAP(CUEMU_DRV_ENUM_)
#undef CUEMU_DRV_ENUM_
};

/* CU_DEV_RESOURCE_TYPE_SM, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
 * CU_DEV_SM_RESOURCE_SPLIT_IGNORE_SM_COSCHEDULING and _MAX_POTENTIAL_
 * CLUSTER_SIZE, CU_GREEN_CTX_DEFAULT_STREAM, CU_STREAM_NON_BLOCKING. */
#define RESOURCE_SM 1
#define ATTRIBUTE_SM_COUNT 16
#define SPLIT_IGNORE_COSCHEDULING 0x1u
#define SPLIT_MAX_CLUSTER 0x2u
#define GREEN_DEFAULT_STREAM 0x1u
#define STREAM_NON_BLOCKING 0x1u

/* CUdevResource's layout (cuda.h, RESOURCE_ABI_VERSION 1): the type, 92
 * bytes that are the driver's (here: where the resource came from), and
 * the SM fields. */
typedef struct resource {
  int type;
  uint32_t magic;  /* RESOURCE_MAGIC: made by these calls */
  int32_t device;
  uint32_t origin; /* ORIGIN_* */
  uint32_t split;  /* the split that made it (ORIGIN_SPLIT) */
  unsigned char rest[96 - 20];
  unsigned sm_count, min_partition, alignment;
  unsigned char oversize[48 - 12];
} resource;
#define RESOURCE_MAGIC 0x4e455247u /* "GREN" */
_Static_assert(sizeof(resource) == 144 &&
                   offsetof(resource, sm_count) == 96,
               "CUdevResource's layout");
enum { ORIGIN_WHOLE = 1, ORIGIN_SPLIT = 2 };

typedef struct descriptor {
  uint32_t magic;
  int device;
  unsigned sm_count;
} descriptor;
#define DESCRIPTOR_MAGIC 0x43534544u /* "DESC" */

typedef struct green {
  uint32_t magic;
  int live;
  int device;
  unsigned sm_count;
  void *context; /* cuCtxFromGreenCtx's: a context of its own */
} green;
#define GREEN_MAGIC 0x58544347u /* "GCTX" */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t next_split = 1;
/* Every green context made (kept after destruction, so that a second
 * destroy is an error and no handle is reused). */
static green **greens;
static size_t green_count, green_capacity;

static int sm_count_of(int device, unsigned *count) {
  int v = 0;
  int e = cuemu_drv_device_get_attribute(&v, ATTRIBUTE_SM_COUNT, device);
  if (!e)
    *count = (unsigned)v;
  return e;
}

/* A device's (or a green context's) SMs as a resource. */
static void whole(resource *r, int device, unsigned sm_count) {
  memset(r, 0, sizeof *r);
  r->type = RESOURCE_SM;
  r->magic = RESOURCE_MAGIC;
  r->device = device;
  r->origin = ORIGIN_WHOLE;
  r->sm_count = sm_count;
  r->min_partition = 8;
  r->alignment = 8;
}

int cuemu_drv_device_get_dev_resource(int device, void *out, int type) {
  unsigned sms = 0;
  int e = cuemu_drv_device_get_attribute((int *)&sms, ATTRIBUTE_SM_COUNT,
                                         device);
  if (e)
    return e;
  if (!out)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  if (type != RESOURCE_SM)
    return DRV_CUDA_ERROR_INVALID_RESOURCE_TYPE;
  whole(out, device, sms);
  return DRV_CUDA_SUCCESS;
}

/* The live green context of a handle, or NULL. Under lock. */
static green *live_green(const void *handle) {
  for (size_t i = 0; i < green_count; ++i)
    if (greens[i] == handle)
      return greens[i]->live ? greens[i] : NULL;
  return NULL;
}

/* The live green context whose converted context is `ctx`, or NULL. */
static green *green_of_context(const void *ctx) {
  green *g = NULL;
  pthread_mutex_lock(&lock);
  for (size_t i = 0; i < green_count && !g; ++i)
    if (greens[i]->live && greens[i]->context == ctx)
      g = greens[i];
  pthread_mutex_unlock(&lock);
  return g;
}

int cuemu_drv_ctx_get_dev_resource(void *ctx, void *out, int type) {
  int e = cuemu_drv_check_context();
  if (e)
    return e;
  int device = 0;
  if (!ctx || cuemu__drv_context_device(ctx, &device))
    return DRV_CUDA_ERROR_INVALID_CONTEXT;
  if (!out)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  if (type != RESOURCE_SM)
    return DRV_CUDA_ERROR_INVALID_RESOURCE_TYPE;
  green *g = green_of_context(ctx);
  unsigned sms = 0;
  if (g)
    sms = g->sm_count;
  else if ((e = sm_count_of(device, &sms)) != 0)
    return e;
  whole(out, device, sms);
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_green_ctx_get_dev_resource(void *handle, void *out, int type) {
  int e = cuemu_drv_check_context();
  if (e && e != DRV_CUDA_ERROR_INVALID_CONTEXT)
    return e;
  pthread_mutex_lock(&lock);
  green *g = live_green(handle);
  green copy = g ? *g : (green){0};
  pthread_mutex_unlock(&lock);
  if (!g)
    return DRV_CUDA_ERROR_INVALID_CONTEXT;
  if (!out)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  if (type != RESOURCE_SM)
    return DRV_CUDA_ERROR_INVALID_RESOURCE_TYPE;
  whole(out, copy.device, copy.sm_count);
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_dev_sm_resource_split_by_count(void *result, unsigned *groups,
                                             const void *input,
                                             void *remaining, unsigned flags,
                                             unsigned min_count) {
  int e = cuemu_drv_check_context();
  if (e && e != DRV_CUDA_ERROR_INVALID_CONTEXT)
    return e;
  const resource *in = input;
  if (!groups || !in || (flags & ~(SPLIT_IGNORE_COSCHEDULING |
                                   SPLIT_MAX_CLUSTER)))
    return DRV_CUDA_ERROR_INVALID_VALUE;
  if (in->type != RESOURCE_SM || in->magic != RESOURCE_MAGIC)
    return DRV_CUDA_ERROR_INVALID_RESOURCE_TYPE;
  /* A group of a split is split again only through a green context. */
  if (in->origin != ORIGIN_WHOLE)
    return DRV_CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION;
  if (min_count > in->sm_count)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  unsigned least = (flags & SPLIT_IGNORE_COSCHEDULING) ? 2 : in->min_partition;
  unsigned align = (flags & SPLIT_IGNORE_COSCHEDULING) ? 2 : in->alignment;
  unsigned size = min_count > least ? min_count : least;
  size = (size + align - 1) / align * align;
  unsigned n = size <= in->sm_count ? in->sm_count / size : 0;
  if (result && n > *groups)
    n = *groups;
  pthread_mutex_lock(&lock);
  uint32_t split = next_split++;
  pthread_mutex_unlock(&lock);
  for (unsigned i = 0; result && i < n; ++i) {
    resource *r = (resource *)result + i;
    whole(r, in->device, size);
    r->origin = ORIGIN_SPLIT;
    r->split = split;
    r->min_partition = least;
    r->alignment = align;
  }
  if (remaining) {
    resource *r = remaining;
    whole(r, in->device, in->sm_count - n * size);
    r->origin = ORIGIN_SPLIT;
    r->split = split;
    r->min_partition = least;
    r->alignment = align;
  }
  *groups = n;
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_dev_resource_generate_desc(void **desc, const void *resources,
                                         unsigned count) {
  int e = cuemu_drv_check_context();
  if (e && e != DRV_CUDA_ERROR_INVALID_CONTEXT)
    return e;
  if (!desc || !resources || !count)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  const resource *r = resources;
  unsigned sms = 0;
  for (unsigned i = 0; i < count; ++i) {
    if (r[i].type != RESOURCE_SM || r[i].magic != RESOURCE_MAGIC)
      return DRV_CUDA_ERROR_INVALID_RESOURCE_TYPE;
    /* One device, and (for several) the outputs of one split. */
    if (r[i].device != r[0].device ||
        (count > 1 && (r[i].origin != ORIGIN_SPLIT || r[i].split != r[0].split)))
      return DRV_CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION;
    sms += r[i].sm_count;
  }
  descriptor *d = malloc(sizeof *d);
  if (!d)
    return DRV_CUDA_ERROR_OUT_OF_MEMORY;
  *d = (descriptor){DESCRIPTOR_MAGIC, r[0].device, sms};
  *desc = d;
  return DRV_CUDA_SUCCESS;
}

/* The SMs of the green context current on the calling thread, 0 for
 * none (cuemu_device_launch.c asks for a launch into the default
 * stream). */
static unsigned current_sms(void) {
  return cuemu__drv_green_sms(cuemu__drv_current());
}

int cuemu_drv_green_ctx_create(void **out, const void *desc, int device,
                               unsigned flags) {
  unsigned sms = 0;
  int e = cuemu_drv_device_get_attribute((int *)&sms, ATTRIBUTE_SM_COUNT,
                                         device);
  if (e)
    return e;
  const descriptor *d = desc;
  if (!out || !d || d->magic != DESCRIPTOR_MAGIC ||
      flags != GREEN_DEFAULT_STREAM)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  if (d->device != device)
    return DRV_CUDA_ERROR_INVALID_DEVICE;
  green *g = calloc(1, sizeof *g);
  if (!g)
    return DRV_CUDA_ERROR_OUT_OF_MEMORY;
  /* Its context: made (cuCtxCreate pushes it) and taken off the calling
   * thread's stack again, since creation sets nothing current. */
  void *ctx = NULL, *popped = NULL;
  e = cuemu_drv_ctx_create(&ctx, 0, device);
  if (!e)
    e = cuemu_drv_ctx_pop_current(&popped);
  if (e) {
    free(g);
    return e;
  }
  *g = (green){GREEN_MAGIC, 1, device, d->sm_count, ctx};
  pthread_mutex_lock(&lock);
  if (green_count == green_capacity) {
    size_t cap = green_capacity ? 2 * green_capacity : 8;
    green **grown = realloc(greens, cap * sizeof *grown);
    if (grown) {
      greens = grown;
      green_capacity = cap;
    }
  }
  int stored = green_count < green_capacity;
  if (stored)
    greens[green_count++] = g;
  pthread_mutex_unlock(&lock);
  if (!stored) {
    cuemu_drv_ctx_destroy(ctx);
    free(g);
    return DRV_CUDA_ERROR_OUT_OF_MEMORY;
  }
  cuemu__device_set_default_stream_sms(current_sms);
  *out = g;
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_green_ctx_destroy(void *handle) {
  pthread_mutex_lock(&lock);
  green *g = live_green(handle);
  if (g)
    g->live = 0;
  pthread_mutex_unlock(&lock);
  if (!g)
    return DRV_CUDA_ERROR_INVALID_CONTEXT;
  return cuemu_drv_ctx_destroy(g->context);
}

/* The converted context of a live green context (CUDA_SUCCESS), else
 * CUDA_ERROR_INVALID_CONTEXT. */
int cuemu_drv_ctx_from_green_ctx(void **ctx, void *handle) {
  if (!ctx)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  pthread_mutex_lock(&lock);
  green *g = live_green(handle);
  void *c = g ? g->context : NULL;
  pthread_mutex_unlock(&lock);
  if (!c)
    return DRV_CUDA_ERROR_INVALID_CONTEXT;
  *ctx = c;
  return DRV_CUDA_SUCCESS;
}

void *cuemu__drv_green_of_context(const void *ctx) {
  return green_of_context(ctx);
}

unsigned cuemu__drv_green_sms(const void *ctx) {
  green *g = green_of_context(ctx);
  return g ? g->sm_count : 0;
}
