/*
 * cuemu_fft_plan.c: cuFFT's plans for cuemu (libcuemu_cufft.so,
 * emulator/libs/libs.am): handles, cufftPlan1d/2d/3d/Many, cufftCreate and
 * cufftMakePlan*, the work-size queries (cufftEstimate*, cufftGetSize*),
 * the work area, the stream, the plan properties, versions and
 * cufftXtSetGPUs. Executions are cuemu_fft_exec.c's. docs/cufft.md says
 * what matches cuFFT.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_runtime.h>

#include "cuemu_fft.h"

/* The plans by handle: handle h is plans[h - 1]; a destroyed handle's slot
 * stays NULL and is never reused, so that a stale handle is always
 * CUFFT_INVALID_PLAN. */
static pthread_mutex_t plans_lock = PTHREAD_MUTEX_INITIALIZER;
static cuemu_fft_plan **plans;
static size_t nplans, cap_plans;

/* The largest number of values in one transform or batch cuemu accepts. */
#define MAX_ELEMENTS (1LL << 40)

int cuemu__fft_scalar(int type) {
  switch (type) {
  case CUFFT_Z2Z: case CUFFT_D2Z: case CUFFT_Z2D:
    return 8;
  case CUFFT_C2C: case CUFFT_R2C: case CUFFT_C2R:
    return 4;
  case CUEMU_FFT_C2C_16F: case CUEMU_FFT_R2C_16F: case CUEMU_FFT_C2R_16F:
    return 2;
  default:
    return 0;
  }
}

int cuemu__fft_real_input(int type) {
  return type == CUFFT_R2C || type == CUFFT_D2Z || type == CUEMU_FFT_R2C_16F;
}

int cuemu__fft_real_output(int type) {
  return type == CUFFT_C2R || type == CUFFT_Z2D || type == CUEMU_FFT_C2R_16F;
}

/* One of the six types of cufft.h (cuemu's half-precision codes are not
 * a program's to pass). */
static int public_type(int type) {
  return cuemu__fft_scalar(type) >= 4;
}

static void plan_free(cuemu_fft_plan *p) {
  for (int d = 0; d < 3; ++d)
    cuemu__fft_engine_destroy(p->engine[d]);
  for (int k = 0; k < 2; ++k)
    cuemu__fft_jit_release(p, k);
  free(p);
}

cuemu_fft_plan *cuemu__fft_plan_get(cufftHandle handle) {
  cuemu_fft_plan *p = NULL;
  pthread_mutex_lock(&plans_lock);
  if (handle >= 1 && (size_t)handle <= nplans && plans[handle - 1]) {
    p = plans[handle - 1];
    __atomic_add_fetch(&p->refs, 1, __ATOMIC_ACQ_REL);
  }
  pthread_mutex_unlock(&plans_lock);
  return p;
}

void cuemu__fft_plan_release(cuemu_fft_plan *p) {
  if (p && __atomic_sub_fetch(&p->refs, 1, __ATOMIC_ACQ_REL) == 0)
    plan_free(p);
}

void cuemu__fft_layout(const cuemu_fft_plan *p, int in_place,
                       cuemu_fft_layout *in, cuemu_fft_layout *out) {
  int r = p->rank;
  long long ie[3], oe[3], is = p->istride, os = p->ostride;
  long long last = p->n[r - 1], half = last / 2 + 1;
  for (int d = 0; d < r; ++d) {
    ie[d] = p->basic ? p->n[d] : p->inembed[d];
    oe[d] = p->basic ? p->n[d] : p->onembed[d];
  }
  if (p->basic) {
    /* The basic layout: packed, the complex side's last dimension n/2 + 1
     * long, the real side's padded to 2 (n/2 + 1) in place. */
    is = os = 1;
    if (cuemu__fft_real_input(p->type)) {
      ie[r - 1] = in_place ? 2 * half : last;
      oe[r - 1] = half;
    } else if (cuemu__fft_real_output(p->type)) {
      ie[r - 1] = half;
      oe[r - 1] = in_place ? 2 * half : last;
    }
  }
  long long ip = is, op = os;
  for (int d = r - 1; d >= 0; --d) {
    in->stride[d] = ip, out->stride[d] = op;
    ip *= ie[d], op *= oe[d];
  }
  in->dist = p->basic ? ip : p->idist;
  out->dist = p->basic ? op : p->odist;
}

/* Checks a plan's parameters as cufftMakePlanMany64 takes them and, with
 * p, fills the plan's geometry (engines not made). */
static cufftResult check(cuemu_fft_plan *p, int rank, const long long *n,
                         const long long *inembed, long long istride,
                         long long idist, const long long *onembed,
                         long long ostride, long long odist, int type,
                         long long batch) {
  if (cuemu__fft_scalar(type) == 0)
    return CUFFT_INVALID_TYPE;
  if (rank < 1 || rank > 3 || !n)
    return CUFFT_INVALID_SIZE;
  long long total = batch;
  if (batch < 1)
    return CUFFT_INVALID_SIZE;
  for (int d = 0; d < rank; ++d) {
    if (n[d] < 1 || n[d] > MAX_ELEMENTS)
      return CUFFT_INVALID_SIZE;
    if (n[d] > MAX_ELEMENTS / total)
      return CUFFT_INVALID_SIZE;
    total *= n[d];
  }
  int basic = !inembed || !onembed;
  if (!basic) {
    if (istride < 1 || ostride < 1 || idist < 0 || odist < 0)
      return CUFFT_INVALID_VALUE;
    for (int d = 0; d < rank; ++d)
      if (inembed[d] < 1 || onembed[d] < 1)
        return CUFFT_INVALID_VALUE;
  }
  if (!p)
    return CUFFT_SUCCESS;
  p->type = type, p->rank = rank, p->batch = batch, p->basic = basic;
  for (int d = 0; d < rank; ++d) {
    p->n[d] = n[d];
    p->inembed[d] = basic ? n[d] : inembed[d];
    p->onembed[d] = basic ? n[d] : onembed[d];
  }
  p->istride = istride, p->idist = idist;
  p->ostride = ostride, p->odist = odist;
  return CUFFT_SUCCESS;
}

/* The work area a plan asks for: one copy of its values in its complex
 * type (cuemu computes in host memory, but a program that allocates the
 * work area itself gets a size to allocate and pass). */
static size_t work_size(int rank, const long long *n, int type,
                        long long batch) {
  size_t values = (size_t)batch;
  for (int d = 0; d < rank; ++d)
    values *= (size_t)n[d];
  return values * 2 * (size_t)cuemu__fft_scalar(type);
}

cufftResult cuemu__fft_make(cufftHandle handle, int rank, const long long *n,
                            const long long *inembed, long long istride,
                            long long idist, const long long *onembed,
                            long long ostride, long long odist, int type,
                            long long batch, size_t *size) {
  cuemu_fft_plan *p = cuemu__fft_plan_get(handle);
  if (!p)
    return CUFFT_INVALID_PLAN;
  cufftResult st = CUFFT_SUCCESS;
  if (__atomic_load_n(&p->made, __ATOMIC_ACQUIRE))
    st = CUFFT_INVALID_PLAN;
  cuemu_fft_plan geometry = *p;
  if (st == CUFFT_SUCCESS)
    st = check(&geometry, rank, n, inembed, istride, idist, onembed, ostride,
               odist, type, batch);
  if (st == CUFFT_SUCCESS)
    st = cuemu__fft_jit_check(p, type);
  for (int d = 0; d < rank && st == CUFFT_SUCCESS; ++d) {
    geometry.engine[d] = cuemu__fft_engine_create((size_t)n[d]);
    if (!geometry.engine[d])
      st = CUFFT_ALLOC_FAILED;
  }
  if (st != CUFFT_SUCCESS) {
    for (int d = 0; d < 3; ++d)
      if (geometry.engine[d] != p->engine[d])
        cuemu__fft_engine_destroy(geometry.engine[d]);
    cuemu__fft_plan_release(p);
    return st;
  }
  /* The geometry only: the settings and references stay the plan's. */
  p->type = geometry.type, p->rank = geometry.rank;
  p->basic = geometry.basic, p->batch = geometry.batch;
  memcpy(p->n, geometry.n, sizeof p->n);
  memcpy(p->inembed, geometry.inembed, sizeof p->inembed);
  memcpy(p->onembed, geometry.onembed, sizeof p->onembed);
  memcpy(p->engine, geometry.engine, sizeof p->engine);
  p->istride = geometry.istride, p->idist = geometry.idist;
  p->ostride = geometry.ostride, p->odist = geometry.odist;
  p->work_size = work_size(rank, n, type, batch);
  __atomic_store_n(&p->made, 1, __ATOMIC_RELEASE);
  if (size)
    *size = p->work_size;
  cuemu__fft_plan_release(p);
  return CUFFT_SUCCESS;
}

/* ---- Handles ---------------------------------------------------------------- */

CUEMU_FFT_EXPORT cufftResult cufftCreate(cufftHandle *handle) {
  if (!handle)
    return CUFFT_INVALID_VALUE;
  int device;
  if (cuemu_rt_get_device(&device) != 0)
    return CUFFT_SETUP_FAILED;
  cuemu_fft_plan *p = calloc(1, sizeof *p);
  if (!p)
    return CUFFT_ALLOC_FAILED;
  p->auto_allocation = 1;
  p->refs = 1;
  pthread_mutex_lock(&plans_lock);
  if (nplans == cap_plans) {
    size_t cap = cap_plans ? 2 * cap_plans : 16;
    cuemu_fft_plan **grown = cap < (size_t)0x7fffffff
                                 ? realloc(plans, cap * sizeof *grown)
                                 : NULL;
    if (!grown) {
      pthread_mutex_unlock(&plans_lock);
      free(p);
      return CUFFT_ALLOC_FAILED;
    }
    plans = grown, cap_plans = cap;
  }
  plans[nplans++] = p;
  *handle = (cufftHandle)nplans;
  pthread_mutex_unlock(&plans_lock);
  return CUFFT_SUCCESS;
}

CUEMU_FFT_EXPORT cufftResult cufftDestroy(cufftHandle handle) {
  cuemu_fft_plan *p = NULL;
  pthread_mutex_lock(&plans_lock);
  if (handle >= 1 && (size_t)handle <= nplans) {
    p = plans[handle - 1];
    plans[handle - 1] = NULL;
  }
  pthread_mutex_unlock(&plans_lock);
  if (!p)
    return CUFFT_INVALID_PLAN;
  /* Executions still queued hold references of their own. */
  cuemu__fft_plan_release(p);
  return CUFFT_SUCCESS;
}

/* ---- Making plans ------------------------------------------------------------ */

/* n, inembed and onembed of int as long long. */
static void widen(int rank, const int *from, long long *to) {
  for (int d = 0; d < rank && d < 3; ++d)
    to[d] = from[d];
}

static cufftResult make_int(cufftHandle handle, int rank, const int *n,
                            const int *inembed, int istride, int idist,
                            const int *onembed, int ostride, int odist,
                            int type, int batch, size_t *size) {
  long long n64[3] = {0}, ie[3] = {0}, oe[3] = {0};
  if (rank < 1 || rank > 3 || !n) {
    cuemu_fft_plan *p = cuemu__fft_plan_get(handle);
    cuemu__fft_plan_release(p);
    return p ? CUFFT_INVALID_SIZE : CUFFT_INVALID_PLAN;
  }
  widen(rank, n, n64);
  if (inembed)
    widen(rank, inembed, ie);
  if (onembed)
    widen(rank, onembed, oe);
  if (!public_type(type))
    type = 0; /* CUFFT_INVALID_TYPE, after the handle's check */
  return cuemu__fft_make(handle, rank, n64, inembed ? ie : NULL, istride,
                         idist, onembed ? oe : NULL, ostride, odist, type,
                         batch, size);
}

CUEMU_FFT_EXPORT cufftResult cufftMakePlan1d(cufftHandle handle, int nx,
                                             int type, int batch,
                                             size_t *size) {
  int n[1] = {nx};
  return make_int(handle, 1, n, NULL, 1, 0, NULL, 1, 0, type, batch, size);
}

CUEMU_FFT_EXPORT cufftResult cufftMakePlan2d(cufftHandle handle, int nx,
                                             int ny, int type, size_t *size) {
  int n[2] = {nx, ny};
  return make_int(handle, 2, n, NULL, 1, 0, NULL, 1, 0, type, 1, size);
}

CUEMU_FFT_EXPORT cufftResult cufftMakePlan3d(cufftHandle handle, int nx,
                                             int ny, int nz, int type,
                                             size_t *size) {
  int n[3] = {nx, ny, nz};
  return make_int(handle, 3, n, NULL, 1, 0, NULL, 1, 0, type, 1, size);
}

CUEMU_FFT_EXPORT cufftResult cufftMakePlanMany(
    cufftHandle handle, int rank, int *n, int *inembed, int istride,
    int idist, int *onembed, int ostride, int odist, int type, int batch,
    size_t *size) {
  return make_int(handle, rank, n, inembed, istride, idist, onembed, ostride,
                  odist, type, batch, size);
}

CUEMU_FFT_EXPORT cufftResult cufftMakePlanMany64(
    cufftHandle handle, int rank, long long *n, long long *inembed,
    long long istride, long long idist, long long *onembed, long long ostride,
    long long odist, int type, long long batch, size_t *size) {
  return cuemu__fft_make(handle, rank, n, inembed, istride, idist, onembed,
                         ostride, odist, public_type(type) ? type : 0, batch,
                         size);
}

/* cufftPlan*: cufftCreate and cufftMakePlan*; the handle is written only
 * when the plan is made. */
static cufftResult plan_int(cufftHandle *handle, int rank, const int *n,
                            const int *inembed, int istride, int idist,
                            const int *onembed, int ostride, int odist,
                            int type, int batch) {
  if (!handle)
    return CUFFT_INVALID_VALUE;
  cufftHandle h;
  cufftResult st = cufftCreate(&h);
  if (st != CUFFT_SUCCESS)
    return st;
  st = make_int(h, rank, n, inembed, istride, idist, onembed, ostride, odist,
                type, batch, NULL);
  if (st != CUFFT_SUCCESS) {
    cufftDestroy(h);
    return st;
  }
  *handle = h;
  return CUFFT_SUCCESS;
}

CUEMU_FFT_EXPORT cufftResult cufftPlan1d(cufftHandle *handle, int nx,
                                         int type, int batch) {
  int n[1] = {nx};
  return plan_int(handle, 1, n, NULL, 1, 0, NULL, 1, 0, type, batch);
}

CUEMU_FFT_EXPORT cufftResult cufftPlan2d(cufftHandle *handle, int nx, int ny,
                                         int type) {
  int n[2] = {nx, ny};
  return plan_int(handle, 2, n, NULL, 1, 0, NULL, 1, 0, type, 1);
}

CUEMU_FFT_EXPORT cufftResult cufftPlan3d(cufftHandle *handle, int nx, int ny,
                                         int nz, int type) {
  int n[3] = {nx, ny, nz};
  return plan_int(handle, 3, n, NULL, 1, 0, NULL, 1, 0, type, 1);
}

CUEMU_FFT_EXPORT cufftResult cufftPlanMany(cufftHandle *handle, int rank,
                                           int *n, int *inembed, int istride,
                                           int idist, int *onembed,
                                           int ostride, int odist, int type,
                                           int batch) {
  return plan_int(handle, rank, n, inembed, istride, idist, onembed, ostride,
                  odist, type, batch);
}

/* ---- Work sizes ---------------------------------------------------------------- */

/* cufftEstimate* and cufftGetSize*: the size cufftMakePlan* would give
 * for these parameters. */
static cufftResult estimate(int rank, const int *n, const int *inembed,
                            int istride, int idist, const int *onembed,
                            int ostride, int odist, int type, int batch,
                            size_t *size) {
  long long n64[3] = {0}, ie[3] = {0}, oe[3] = {0};
  if (!size)
    return CUFFT_INVALID_VALUE;
  if (rank < 1 || rank > 3 || !n)
    return CUFFT_INVALID_SIZE;
  widen(rank, n, n64);
  if (inembed)
    widen(rank, inembed, ie);
  if (onembed)
    widen(rank, onembed, oe);
  return cuemu__fft_estimate(rank, n64, inembed ? ie : NULL, istride, idist,
                             onembed ? oe : NULL, ostride, odist,
                             public_type(type) ? type : 0, batch, size);
}

cufftResult cuemu__fft_estimate(int rank, const long long *n,
                                const long long *inembed, long long istride,
                                long long idist, const long long *onembed,
                                long long ostride, long long odist, int type,
                                long long batch, size_t *size) {
  if (!size)
    return CUFFT_INVALID_VALUE;
  cufftResult st = check(NULL, rank, n, inembed, istride, idist, onembed,
                         ostride, odist, type, batch);
  if (st == CUFFT_SUCCESS)
    *size = work_size(rank, n, type, batch);
  return st;
}

CUEMU_FFT_EXPORT cufftResult cufftEstimate1d(int nx, int type, int batch,
                                             size_t *size) {
  int n[1] = {nx};
  return estimate(1, n, NULL, 1, 0, NULL, 1, 0, type, batch, size);
}

CUEMU_FFT_EXPORT cufftResult cufftEstimate2d(int nx, int ny, int type,
                                             size_t *size) {
  int n[2] = {nx, ny};
  return estimate(2, n, NULL, 1, 0, NULL, 1, 0, type, 1, size);
}

CUEMU_FFT_EXPORT cufftResult cufftEstimate3d(int nx, int ny, int nz, int type,
                                             size_t *size) {
  int n[3] = {nx, ny, nz};
  return estimate(3, n, NULL, 1, 0, NULL, 1, 0, type, 1, size);
}

CUEMU_FFT_EXPORT cufftResult cufftEstimateMany(int rank, int *n, int *inembed,
                                               int istride, int idist,
                                               int *onembed, int ostride,
                                               int odist, int type, int batch,
                                               size_t *size) {
  return estimate(rank, n, inembed, istride, idist, onembed, ostride, odist,
                  type, batch, size);
}

/* cufftGetSize1d ... on a valid handle. */
static cufftResult get_size(cufftHandle handle, int rank, const int *n,
                            const int *inembed, int istride, int idist,
                            const int *onembed, int ostride, int odist,
                            int type, int batch, size_t *size) {
  cuemu_fft_plan *p = cuemu__fft_plan_get(handle);
  if (!p)
    return CUFFT_INVALID_PLAN;
  cuemu__fft_plan_release(p);
  return estimate(rank, n, inembed, istride, idist, onembed, ostride, odist,
                  type, batch, size);
}

CUEMU_FFT_EXPORT cufftResult cufftGetSize1d(cufftHandle handle, int nx,
                                            int type, int batch,
                                            size_t *size) {
  int n[1] = {nx};
  return get_size(handle, 1, n, NULL, 1, 0, NULL, 1, 0, type, batch, size);
}

CUEMU_FFT_EXPORT cufftResult cufftGetSize2d(cufftHandle handle, int nx, int ny,
                                            int type, size_t *size) {
  int n[2] = {nx, ny};
  return get_size(handle, 2, n, NULL, 1, 0, NULL, 1, 0, type, 1, size);
}

CUEMU_FFT_EXPORT cufftResult cufftGetSize3d(cufftHandle handle, int nx, int ny,
                                            int nz, int type, size_t *size) {
  int n[3] = {nx, ny, nz};
  return get_size(handle, 3, n, NULL, 1, 0, NULL, 1, 0, type, 1, size);
}

CUEMU_FFT_EXPORT cufftResult cufftGetSizeMany(cufftHandle handle, int rank,
                                              int *n, int *inembed,
                                              int istride, int idist,
                                              int *onembed, int ostride,
                                              int odist, int type, int batch,
                                              size_t *size) {
  return get_size(handle, rank, n, inembed, istride, idist, onembed, ostride,
                  odist, type, batch, size);
}

CUEMU_FFT_EXPORT cufftResult cufftGetSizeMany64(
    cufftHandle handle, int rank, long long *n, long long *inembed,
    long long istride, long long idist, long long *onembed, long long ostride,
    long long odist, int type, long long batch, size_t *size) {
  cuemu_fft_plan *p = cuemu__fft_plan_get(handle);
  if (!p)
    return CUFFT_INVALID_PLAN;
  cuemu__fft_plan_release(p);
  return cuemu__fft_estimate(rank, n, inembed, istride, idist, onembed,
                             ostride, odist, public_type(type) ? type : 0,
                             batch, size);
}

CUEMU_FFT_EXPORT cufftResult cufftGetSize(cufftHandle handle, size_t *size) {
  cuemu_fft_plan *p = cuemu__fft_plan_get(handle);
  if (!p)
    return CUFFT_INVALID_PLAN;
  cufftResult st = CUFFT_SUCCESS;
  if (!size)
    st = CUFFT_INVALID_VALUE;
  else
    *size = __atomic_load_n(&p->made, __ATOMIC_ACQUIRE) ? p->work_size : 0;
  cuemu__fft_plan_release(p);
  return st;
}

/* ---- Settings ------------------------------------------------------------------ */

CUEMU_FFT_EXPORT cufftResult cufftSetWorkArea(cufftHandle handle,
                                              void *area) {
  cuemu_fft_plan *p = cuemu__fft_plan_get(handle);
  if (!p)
    return CUFFT_INVALID_PLAN;
  __atomic_store_n(&p->work_area, area, __ATOMIC_RELEASE);
  cuemu__fft_plan_release(p);
  return CUFFT_SUCCESS;
}

CUEMU_FFT_EXPORT cufftResult cufftSetAutoAllocation(cufftHandle handle,
                                                    int automatic) {
  cuemu_fft_plan *p = cuemu__fft_plan_get(handle);
  if (!p)
    return CUFFT_INVALID_PLAN;
  __atomic_store_n(&p->auto_allocation, automatic != 0, __ATOMIC_RELEASE);
  cuemu__fft_plan_release(p);
  return CUFFT_SUCCESS;
}

CUEMU_FFT_EXPORT cufftResult cufftSetStream(cufftHandle handle,
                                            void *stream) {
  cuemu_fft_plan *p = cuemu__fft_plan_get(handle);
  if (!p)
    return CUFFT_INVALID_PLAN;
  __atomic_store_n(&p->stream, stream, __ATOMIC_RELEASE);
  cuemu__fft_plan_release(p);
  return CUFFT_SUCCESS;
}

/* cufftProperty: NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT (1) and
 * NVFFT_PLAN_PROPERTY_INT64_MAX_NUM_HOST_THREADS (2), kept and changing
 * nothing. */
static cufftResult property(cufftHandle handle, int which, int set,
                            long long value, long long *out) {
  cuemu_fft_plan *p = cuemu__fft_plan_get(handle);
  if (!p)
    return CUFFT_INVALID_PLAN;
  cufftResult st = CUFFT_SUCCESS;
  if (which != 1 && which != 2)
    st = CUFFT_NOT_SUPPORTED;
  else if (set)
    p->properties[which - 1] = value;
  else if (!out)
    st = CUFFT_INVALID_VALUE;
  else
    *out = p->properties[which - 1];
  cuemu__fft_plan_release(p);
  return st;
}

CUEMU_FFT_EXPORT cufftResult cufftSetPlanPropertyInt64(cufftHandle handle,
                                                       int which,
                                                       const long long value) {
  return property(handle, which, 1, value, NULL);
}

CUEMU_FFT_EXPORT cufftResult cufftGetPlanPropertyInt64(cufftHandle handle,
                                                       int which,
                                                       long long *value) {
  return property(handle, which, 0, 0, value);
}

CUEMU_FFT_EXPORT cufftResult cufftResetPlanProperty(cufftHandle handle,
                                                    int which) {
  return property(handle, which, 1, 0, NULL);
}

/* cufftXtSetGPUs: cuFFT's multi-GPU plans take 2 to 16 GPUs, each a
 * device that exists (CUEMU_DEVICE's count=N: cuemu_fft_multi.c), none
 * twice; fewer than 2 are CUFFT_INVALID_VALUE, a missing one
 * CUFFT_INVALID_DEVICE. Before the plan is made. */
CUEMU_FFT_EXPORT cufftResult cufftXtSetGPUs(cufftHandle handle, int count,
                                            int *which) {
  cuemu_fft_plan *p = cuemu__fft_plan_get(handle);
  if (!p)
    return CUFFT_INVALID_PLAN;
  int devices = 0;
  cufftResult st = CUFFT_SUCCESS;
  if (count < 2 || count > 16 || !which)
    st = CUFFT_INVALID_VALUE;
  else if (__atomic_load_n(&p->made, __ATOMIC_ACQUIRE))
    st = CUFFT_INVALID_PLAN;
  else if (cuemu_rt_get_device_count(&devices) != 0)
    st = CUFFT_INVALID_DEVICE;
  for (int i = 0; st == CUFFT_SUCCESS && i < count; ++i) {
    if (which[i] < 0 || which[i] >= devices)
      st = CUFFT_INVALID_DEVICE;
    for (int j = 0; j < i && st == CUFFT_SUCCESS; ++j)
      if (which[j] == which[i])
        st = CUFFT_INVALID_VALUE;
  }
  if (st == CUFFT_SUCCESS) {
    memcpy(p->gpus, which, (size_t)count * sizeof *which);
    p->ngpus = count;
  }
  cuemu__fft_plan_release(p);
  return st;
}

/* ---- Versions ------------------------------------------------------------------ */

CUEMU_FFT_EXPORT cufftResult cufftGetVersion(int *version) {
  if (!version)
    return CUFFT_INVALID_VALUE;
  *version = CUEMU_FFT_VERSION;
  return CUFFT_SUCCESS;
}

/* libraryPropertyType: MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL. */
CUEMU_FFT_EXPORT cufftResult cufftGetProperty(int type, int *value) {
  if (!value)
    return CUFFT_INVALID_VALUE;
  switch (type) {
  case 0:
    *value = CUEMU_FFT_MAJOR;
    return CUFFT_SUCCESS;
  case 1:
    *value = CUEMU_FFT_MINOR;
    return CUFFT_SUCCESS;
  case 2:
    *value = CUEMU_FFT_PATCH;
    return CUFFT_SUCCESS;
  default:
    return CUFFT_INVALID_TYPE;
  }
}
