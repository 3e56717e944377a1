/*
 * cuemu_fftw.c: cuFFTW, the FFTW3 interface of cuFFT (NVIDIA's
 * <cufftw.h>, -lcufftw), on top of cuemu's cuFFT (docs/cufft.md, "cuFFTW").
 *
 * A plan is a cuFFT plan of the same transform with the arrays it was made
 * for. As with NVIDIA's cuFFTW, the arrays are host memory (malloc,
 * fftw_malloc) and an execution has finished when fftw_execute returns:
 * the transform runs at once, in the calling thread
 * (cuemu__fft_exec_host()). The planner's flags (FFTW_ESTIMATE,
 * FFTW_MEASURE...) change nothing, and the arrays are not touched when
 * planning. What cuFFT cannot do gives a NULL plan, as FFTW's planner
 * does: ranks other than 1 to 3, a length or count below 1, and the guru
 * planners (not emulated). Wisdom is not kept.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuemu_fft.h"

/* cufft.h's planner, exported by cuemu_fft_plan.c. */
CUEMU_FFT_EXPORT cufftResult cufftPlanMany(cufftHandle *handle, int rank,
                                           int *n, int *inembed, int istride,
                                           int idist, int *onembed,
                                           int ostride, int odist, int type,
                                           int batch);
CUEMU_FFT_EXPORT cufftResult cufftDestroy(cufftHandle handle);

/* What fftw_plan (void *) points to. */
typedef struct cuemu_fftw_plan {
  cufftHandle handle;
  int type; /* CUFFT_C2C, ..., the cuFFT type of the transform */
  int sign; /* FFTW_FORWARD (-1) or FFTW_BACKWARD (+1); complex only */
  void *in, *out;
} cuemu_fftw_plan;

/* FFTW's and cuFFT's types by precision and kind. */
enum { KIND_C2C, KIND_R2C, KIND_C2R };
static int cufft_type(int single, int kind) {
  static const int types[2][3] = {{CUFFT_Z2Z, CUFFT_D2Z, CUFFT_Z2D},
                                  {CUFFT_C2C, CUFFT_R2C, CUFFT_C2R}};
  return types[single ? 1 : 0][kind];
}

/* A plan of `howmany` transforms of rank `rank` and lengths n; embeds
 * NULL: cuFFT's basic layout (the basic planners, whose in-place real
 * rows are padded as FFTW's are), else the advanced layout. NULL when
 * cuFFT refuses it. */
static void *make(int rank, const int *n, int howmany, void *in,
                  const int *inembed, int istride, int idist, void *out,
                  const int *onembed, int ostride, int odist, int type,
                  int sign) {
  if (rank < 1 || rank > 3 || !n || howmany < 1)
    return NULL;
  int lengths[3], ie[3], oe[3];
  for (int d = 0; d < rank; ++d) {
    if (n[d] < 1)
      return NULL;
    lengths[d] = n[d];
  }
  cuemu_fftw_plan *p = calloc(1, sizeof *p);
  if (!p)
    return NULL;
  if (inembed)
    memcpy(ie, inembed, (size_t)rank * sizeof *ie);
  if (onembed)
    memcpy(oe, onembed, (size_t)rank * sizeof *oe);
  if (cufftPlanMany(&p->handle, rank, lengths, inembed ? ie : NULL, istride,
                    idist, onembed ? oe : NULL, ostride, odist, type,
                    howmany) != CUFFT_SUCCESS) {
    free(p);
    return NULL;
  }
  p->type = type;
  p->sign = sign;
  p->in = in;
  p->out = out;
  return p;
}

/* The advanced layout of fftw_plan_many_dft*: FFTW's NULL inembed or
 * onembed is n itself, with n/2 + 1 in the last dimension of the complex
 * side of a real transform (FFTW's manual), where cuFFT's NULL would mean
 * its basic layout and ignore the strides and distances. */
static void *make_many(int rank, const int *n, int howmany, void *in,
                       const int *inembed, int istride, int idist, void *out,
                       const int *onembed, int ostride, int odist, int single,
                       int kind, int sign) {
  if (rank < 1 || rank > 3 || !n)
    return NULL;
  int in_default[3], out_default[3];
  for (int d = 0; d < rank; ++d)
    in_default[d] = out_default[d] = n[d];
  if (kind == KIND_R2C)
    out_default[rank - 1] = n[rank - 1] / 2 + 1;
  if (kind == KIND_C2R)
    in_default[rank - 1] = n[rank - 1] / 2 + 1;
  return make(rank, n, howmany, in, inembed ? inembed : in_default, istride,
              idist, out, onembed ? onembed : out_default, ostride, odist,
              cufft_type(single, kind), sign);
}

static void execute(const void *plan, void *in, void *out) {
  const cuemu_fftw_plan *p = plan;
  if (p)
    cuemu__fft_exec_host(p->handle, p->type, in, out, p->sign);
}

static void destroy(void *plan) {
  cuemu_fftw_plan *p = plan;
  if (p) {
    cufftDestroy(p->handle);
    free(p);
  }
}

static void *aligned(size_t n) {
  void *p = NULL;
  return posix_memalign(&p, 64, n ? n : 1) == 0 ? p : NULL;
}

/* Each function of <cufftw.h>, in double precision (PREFIX fftw_, REAL
 * double) and in single (fftwf_, float). The complex types are pointers
 * to two reals (fftw_complex is double[2]). */
#define CUEMU_FFTW_FUNCTIONS(PREFIX, REAL, SINGLE)                             \
  CUEMU_FFT_EXPORT void *PREFIX##plan_dft_1d(int n, void *in, void *out,       \
                                             int sign, unsigned flags) {      \
    (void)flags;                                                               \
    return make(1, &n, 1, in, NULL, 1, n, out, NULL, 1, n,                     \
                cufft_type(SINGLE, KIND_C2C), sign);                           \
  }                                                                            \
  CUEMU_FFT_EXPORT void *PREFIX##plan_dft_2d(int n0, int n1, void *in,         \
                                             void *out, int sign,             \
                                             unsigned flags) {                \
    const int n[2] = {n0, n1};                                                 \
    (void)flags;                                                               \
    return make(2, n, 1, in, NULL, 1, 0, out, NULL, 1, 0,                      \
                cufft_type(SINGLE, KIND_C2C), sign);                           \
  }                                                                            \
  CUEMU_FFT_EXPORT void *PREFIX##plan_dft_3d(int n0, int n1, int n2,           \
                                             void *in, void *out, int sign,   \
                                             unsigned flags) {                \
    const int n[3] = {n0, n1, n2};                                             \
    (void)flags;                                                               \
    return make(3, n, 1, in, NULL, 1, 0, out, NULL, 1, 0,                      \
                cufft_type(SINGLE, KIND_C2C), sign);                           \
  }                                                                            \
  CUEMU_FFT_EXPORT void *PREFIX##plan_dft(int rank, const int *n, void *in,    \
                                          void *out, int sign,                \
                                          unsigned flags) {                   \
    (void)flags;                                                               \
    return make(rank, n, 1, in, NULL, 1, 0, out, NULL, 1, 0,                   \
                cufft_type(SINGLE, KIND_C2C), sign);                           \
  }                                                                            \
  CUEMU_FFT_EXPORT void *PREFIX##plan_dft_r2c(int rank, const int *n,          \
                                              REAL *in, void *out,            \
                                              unsigned flags) {               \
    (void)flags;                                                               \
    return make(rank, n, 1, in, NULL, 1, 0, out, NULL, 1, 0,                   \
                cufft_type(SINGLE, KIND_R2C), -1);                             \
  }                                                                            \
  CUEMU_FFT_EXPORT void *PREFIX##plan_dft_r2c_1d(int n, REAL *in, void *out,   \
                                                 unsigned flags) {            \
    return PREFIX##plan_dft_r2c(1, &n, in, out, flags);                        \
  }                                                                            \
  CUEMU_FFT_EXPORT void *PREFIX##plan_dft_r2c_2d(int n0, int n1, REAL *in,     \
                                                 void *out, unsigned flags) { \
    const int n[2] = {n0, n1};                                                 \
    return PREFIX##plan_dft_r2c(2, n, in, out, flags);                         \
  }                                                                            \
  CUEMU_FFT_EXPORT void *PREFIX##plan_dft_r2c_3d(int n0, int n1, int n2,       \
                                                 REAL *in, void *out,         \
                                                 unsigned flags) {            \
    const int n[3] = {n0, n1, n2};                                             \
    return PREFIX##plan_dft_r2c(3, n, in, out, flags);                         \
  }                                                                            \
  CUEMU_FFT_EXPORT void *PREFIX##plan_dft_c2r(int rank, const int *n,          \
                                              void *in, REAL *out,            \
                                              unsigned flags) {               \
    (void)flags;                                                               \
    return make(rank, n, 1, in, NULL, 1, 0, out, NULL, 1, 0,                   \
                cufft_type(SINGLE, KIND_C2R), 1);                              \
  }                                                                            \
  CUEMU_FFT_EXPORT void *PREFIX##plan_dft_c2r_1d(int n, void *in, REAL *out,   \
                                                 unsigned flags) {            \
    return PREFIX##plan_dft_c2r(1, &n, in, out, flags);                        \
  }                                                                            \
  CUEMU_FFT_EXPORT void *PREFIX##plan_dft_c2r_2d(int n0, int n1, void *in,     \
                                                 REAL *out, unsigned flags) { \
    const int n[2] = {n0, n1};                                                 \
    return PREFIX##plan_dft_c2r(2, n, in, out, flags);                         \
  }                                                                            \
  CUEMU_FFT_EXPORT void *PREFIX##plan_dft_c2r_3d(int n0, int n1, int n2,       \
                                                 void *in, REAL *out,         \
                                                 unsigned flags) {            \
    const int n[3] = {n0, n1, n2};                                             \
    return PREFIX##plan_dft_c2r(3, n, in, out, flags);                         \
  }                                                                            \
  CUEMU_FFT_EXPORT void *PREFIX##plan_many_dft(                                \
      int rank, const int *n, int batch, void *in, const int *inembed,         \
      int istride, int idist, void *out, const int *onembed, int ostride,      \
      int odist, int sign, unsigned flags) {                                   \
    (void)flags;                                                               \
    return make_many(rank, n, batch, in, inembed, istride, idist, out,         \
                     onembed, ostride, odist, SINGLE, KIND_C2C, sign);         \
  }                                                                            \
  CUEMU_FFT_EXPORT void *PREFIX##plan_many_dft_r2c(                            \
      int rank, const int *n, int batch, REAL *in, const int *inembed,         \
      int istride, int idist, void *out, const int *onembed, int ostride,      \
      int odist, unsigned flags) {                                             \
    (void)flags;                                                               \
    return make_many(rank, n, batch, in, inembed, istride, idist, out,         \
                     onembed, ostride, odist, SINGLE, KIND_R2C, -1);           \
  }                                                                            \
  CUEMU_FFT_EXPORT void *PREFIX##plan_many_dft_c2r(                            \
      int rank, const int *n, int batch, void *in, const int *inembed,         \
      int istride, int idist, REAL *out, const int *onembed, int ostride,      \
      int odist, unsigned flags) {                                             \
    (void)flags;                                                               \
    return make_many(rank, n, batch, in, inembed, istride, idist, out,         \
                     onembed, ostride, odist, SINGLE, KIND_C2R, 1);            \
  }                                                                            \
  /* The guru planners: not emulated, a NULL plan. */                          \
  CUEMU_FFT_EXPORT void *PREFIX##plan_guru_dft(                                \
      int rank, const void *dims, int batch_rank, const void *batch_dims,      \
      void *in, void *out, int sign, unsigned flags) {                         \
    (void)rank, (void)dims, (void)batch_rank, (void)batch_dims, (void)in;      \
    (void)out, (void)sign, (void)flags;                                        \
    return NULL;                                                               \
  }                                                                            \
  CUEMU_FFT_EXPORT void *PREFIX##plan_guru_dft_r2c(                            \
      int rank, const void *dims, int batch_rank, const void *batch_dims,      \
      REAL *in, void *out, unsigned flags) {                                   \
    (void)rank, (void)dims, (void)batch_rank, (void)batch_dims, (void)in;      \
    (void)out, (void)flags;                                                    \
    return NULL;                                                               \
  }                                                                            \
  CUEMU_FFT_EXPORT void *PREFIX##plan_guru_dft_c2r(                            \
      int rank, const void *dims, int batch_rank, const void *batch_dims,      \
      void *in, REAL *out, unsigned flags) {                                   \
    (void)rank, (void)dims, (void)batch_rank, (void)batch_dims, (void)in;      \
    (void)out, (void)flags;                                                    \
    return NULL;                                                               \
  }                                                                            \
  CUEMU_FFT_EXPORT void *PREFIX##plan_guru64_dft(                              \
      int rank, const void *dims, int batch_rank, const void *batch_dims,      \
      void *in, void *out, int sign, unsigned flags) {                         \
    return PREFIX##plan_guru_dft(rank, dims, batch_rank, batch_dims, in, out,  \
                                 sign, flags);                                 \
  }                                                                            \
  CUEMU_FFT_EXPORT void *PREFIX##plan_guru64_dft_r2c(                          \
      int rank, const void *dims, int batch_rank, const void *batch_dims,      \
      REAL *in, void *out, unsigned flags) {                                   \
    return PREFIX##plan_guru_dft_r2c(rank, dims, batch_rank, batch_dims, in,   \
                                     out, flags);                              \
  }                                                                            \
  CUEMU_FFT_EXPORT void *PREFIX##plan_guru64_dft_c2r(                          \
      int rank, const void *dims, int batch_rank, const void *batch_dims,      \
      void *in, REAL *out, unsigned flags) {                                   \
    return PREFIX##plan_guru_dft_c2r(rank, dims, batch_rank, batch_dims, in,   \
                                     out, flags);                              \
  }                                                                            \
  CUEMU_FFT_EXPORT void PREFIX##execute(const void *plan) {                    \
    const cuemu_fftw_plan *p = plan;                                           \
    if (p)                                                                     \
      execute(p, p->in, p->out);                                               \
  }                                                                            \
  CUEMU_FFT_EXPORT void PREFIX##execute_dft(const void *plan, void *in,        \
                                            void *out) {                      \
    execute(plan, in, out);                                                    \
  }                                                                            \
  CUEMU_FFT_EXPORT void PREFIX##execute_dft_r2c(const void *plan, REAL *in,    \
                                                void *out) {                  \
    execute(plan, in, out);                                                    \
  }                                                                            \
  CUEMU_FFT_EXPORT void PREFIX##execute_dft_c2r(const void *plan, void *in,    \
                                                REAL *out) {                  \
    execute(plan, in, out);                                                    \
  }                                                                            \
  CUEMU_FFT_EXPORT void PREFIX##destroy_plan(void *plan) { destroy(plan); }    \
  CUEMU_FFT_EXPORT void *PREFIX##malloc(size_t n) { return aligned(n); }       \
  CUEMU_FFT_EXPORT void PREFIX##free(void *pointer) { free(pointer); }         \
  CUEMU_FFT_EXPORT void PREFIX##cleanup(void) {}                               \
  CUEMU_FFT_EXPORT void PREFIX##set_timelimit(double seconds) {                \
    (void)seconds;                                                             \
  }                                                                            \
  CUEMU_FFT_EXPORT double PREFIX##cost(const void *plan) {                     \
    (void)plan;                                                                \
    return 0.0;                                                                \
  }                                                                            \
  CUEMU_FFT_EXPORT void PREFIX##flops(const void *plan, double *add,           \
                                      double *mul, double *fma) {             \
    (void)plan;                                                                \
    *add = *mul = *fma = 0.0;                                                  \
  }                                                                            \
  CUEMU_FFT_EXPORT void PREFIX##export_wisdom_to_file(FILE *output_file) {     \
    (void)output_file;                                                         \
  }                                                                            \
  CUEMU_FFT_EXPORT int PREFIX##import_wisdom_from_file(FILE *input_file) {     \
    (void)input_file;                                                          \
    return 0;                                                                  \
  }                                                                            \
  CUEMU_FFT_EXPORT void PREFIX##print_plan(const void *plan) {                 \
    const cuemu_fftw_plan *p = plan;                                           \
    if (p)                                                                     \
      printf("(cuemu cuFFTW plan: cuFFT type 0x%x)", (unsigned)p->type);       \
  }

CUEMU_FFTW_FUNCTIONS(fftw_, double, 0)
CUEMU_FFTW_FUNCTIONS(fftwf_, float, 1)
