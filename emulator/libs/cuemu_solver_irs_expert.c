/*
 * cuemu_solver_irs_expert.c: the expert interface of cuSOLVER's
 * iterative-refinement solvers: cusolverDnIRSParams_t (the main and lowest
 * precisions, the refinement solver, the iterations allowed, the
 * fallback), cusolverDnIRSInfos_t (what the last call did) and
 * cusolverDnIRSXgesv / cusolverDnIRSXgels with their buffer sizes, which
 * run as cusolverDn<T1><T2>gesv and gels do (cuemu_solver_irs.c). Every
 * refinement solver computes as CUSOLVER_IRS_REFINE_CLASSICAL (the GMRES
 * ones converge to the same solution), but CUSOLVER_IRS_REFINE_NONE, which
 * solves once with the low-precision factors; the tolerances are kept and
 * not used (refinement stops at the main precision's rounding).
 */
#include <stdio.h>
#include <stdlib.h>

#include "cuemu_solver.h"

/* cusolverIRSRefinement_t and cusolverPrecType_t (cusolver_common.h). */
enum {
  CUEMU_REFINE_NOT_SET = 1100,
  CUEMU_REFINE_NONE = 1101,
  CUEMU_REFINE_LAST = 1106,
  CUEMU_PREC_R_64F = 1203,
  CUEMU_PREC_R_32F = 1204,
  CUEMU_PREC_R_16F = 1205,
  CUEMU_PREC_R_16BF = 1206,
  CUEMU_PREC_R_TF32 = 1207,
  CUEMU_PREC_C_64F = 1213,
  CUEMU_PREC_C_32F = 1214,
  CUEMU_PREC_C_16F = 1215,
  CUEMU_PREC_C_16BF = 1216,
  CUEMU_PREC_C_TF32 = 1217
};

typedef struct cusolverDnIRSParams {
  int refinement, main, lowest, max_iters, max_iters_inner, no_fallback;
  double tol, tol_inner;
} * cusolverDnIRSParams_t;

typedef struct cusolverDnIRSInfos {
  int niters, outer_niters, max_iters;
} * cusolverDnIRSInfos_t;

/* ---- Parameters ------------------------------------------------------------
 */

CUEMU_SOLVER_EXPORT cusolverStatus_t
cusolverDnIRSParamsCreate(cusolverDnIRSParams_t *params) {
  if (!params)
    return CUSOLVER_STATUS_INVALID_VALUE;
  cusolverDnIRSParams_t p = calloc(1, sizeof *p);
  if (!p)
    return CUSOLVER_STATUS_ALLOC_FAILED;
  p->refinement = CUEMU_REFINE_NOT_SET;
  p->max_iters = 50;
  p->max_iters_inner = 50;
  *params = p;
  return CUSOLVER_STATUS_SUCCESS;
}

CUEMU_SOLVER_EXPORT cusolverStatus_t
cusolverDnIRSParamsDestroy(cusolverDnIRSParams_t params) {
  if (!params)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  free(params);
  return CUSOLVER_STATUS_SUCCESS;
}

CUEMU_SOLVER_EXPORT cusolverStatus_t
cusolverDnIRSParamsSetRefinementSolver(cusolverDnIRSParams_t params,
                                       int solver) {
  if (!params)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (solver < CUEMU_REFINE_NOT_SET || solver > CUEMU_REFINE_LAST)
    return CUSOLVER_STATUS_INVALID_VALUE;
  params->refinement = solver;
  return CUSOLVER_STATUS_SUCCESS;
}

CUEMU_SOLVER_EXPORT cusolverStatus_t
cusolverDnIRSParamsSetSolverMainPrecision(cusolverDnIRSParams_t params,
                                          int precision) {
  if (!params)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  params->main = precision;
  return CUSOLVER_STATUS_SUCCESS;
}

CUEMU_SOLVER_EXPORT cusolverStatus_t
cusolverDnIRSParamsSetSolverLowestPrecision(cusolverDnIRSParams_t params,
                                            int precision) {
  if (!params)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  params->lowest = precision;
  return CUSOLVER_STATUS_SUCCESS;
}

CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnIRSParamsSetSolverPrecisions(
    cusolverDnIRSParams_t params, int main_precision, int lowest_precision) {
  if (!params)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  params->main = main_precision;
  params->lowest = lowest_precision;
  return CUSOLVER_STATUS_SUCCESS;
}

CUEMU_SOLVER_EXPORT cusolverStatus_t
cusolverDnIRSParamsSetTol(cusolverDnIRSParams_t params, double tol) {
  if (!params)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  params->tol = tol;
  return CUSOLVER_STATUS_SUCCESS;
}

CUEMU_SOLVER_EXPORT cusolverStatus_t
cusolverDnIRSParamsSetTolInner(cusolverDnIRSParams_t params, double tol) {
  if (!params)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  params->tol_inner = tol;
  return CUSOLVER_STATUS_SUCCESS;
}

CUEMU_SOLVER_EXPORT cusolverStatus_t
cusolverDnIRSParamsSetMaxIters(cusolverDnIRSParams_t params, int max_iters) {
  if (!params)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (max_iters < 1)
    return CUSOLVER_STATUS_INVALID_VALUE;
  params->max_iters = max_iters;
  return CUSOLVER_STATUS_SUCCESS;
}

CUEMU_SOLVER_EXPORT cusolverStatus_t
cusolverDnIRSParamsSetMaxItersInner(cusolverDnIRSParams_t params,
                                    int max_iters) {
  if (!params)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (max_iters < 1)
    return CUSOLVER_STATUS_INVALID_VALUE;
  params->max_iters_inner = max_iters;
  return CUSOLVER_STATUS_SUCCESS;
}

CUEMU_SOLVER_EXPORT cusolverStatus_t
cusolverDnIRSParamsGetMaxIters(cusolverDnIRSParams_t params, int *max_iters) {
  if (!params)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!max_iters)
    return CUSOLVER_STATUS_INVALID_VALUE;
  *max_iters = params->max_iters;
  return CUSOLVER_STATUS_SUCCESS;
}

CUEMU_SOLVER_EXPORT cusolverStatus_t
cusolverDnIRSParamsEnableFallback(cusolverDnIRSParams_t params) {
  if (!params)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  params->no_fallback = 0;
  return CUSOLVER_STATUS_SUCCESS;
}

CUEMU_SOLVER_EXPORT cusolverStatus_t
cusolverDnIRSParamsDisableFallback(cusolverDnIRSParams_t params) {
  if (!params)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  params->no_fallback = 1;
  return CUSOLVER_STATUS_SUCCESS;
}

/* ---- Infos -----------------------------------------------------------------
 */

CUEMU_SOLVER_EXPORT cusolverStatus_t
cusolverDnIRSInfosCreate(cusolverDnIRSInfos_t *infos) {
  if (!infos)
    return CUSOLVER_STATUS_INVALID_VALUE;
  *infos = calloc(1, sizeof **infos);
  return *infos ? CUSOLVER_STATUS_SUCCESS : CUSOLVER_STATUS_ALLOC_FAILED;
}

CUEMU_SOLVER_EXPORT cusolverStatus_t
cusolverDnIRSInfosDestroy(cusolverDnIRSInfos_t infos) {
  if (!infos)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  free(infos);
  return CUSOLVER_STATUS_SUCCESS;
}

CUEMU_SOLVER_EXPORT cusolverStatus_t
cusolverDnIRSInfosGetNiters(cusolverDnIRSInfos_t infos, int *niters) {
  if (!infos)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!niters)
    return CUSOLVER_STATUS_INVALID_VALUE;
  *niters = infos->niters;
  return CUSOLVER_STATUS_SUCCESS;
}

CUEMU_SOLVER_EXPORT cusolverStatus_t
cusolverDnIRSInfosGetOuterNiters(cusolverDnIRSInfos_t infos, int *niters) {
  if (!infos)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!niters)
    return CUSOLVER_STATUS_INVALID_VALUE;
  *niters = infos->outer_niters;
  return CUSOLVER_STATUS_SUCCESS;
}

CUEMU_SOLVER_EXPORT cusolverStatus_t
cusolverDnIRSInfosGetMaxIters(cusolverDnIRSInfos_t infos, int *max_iters) {
  if (!infos)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!max_iters)
    return CUSOLVER_STATUS_INVALID_VALUE;
  *max_iters = infos->max_iters;
  return CUSOLVER_STATUS_SUCCESS;
}

CUEMU_SOLVER_EXPORT cusolverStatus_t
cusolverDnIRSInfosRequestResidual(cusolverDnIRSInfos_t infos) {
  return infos ? CUSOLVER_STATUS_SUCCESS : CUSOLVER_STATUS_NOT_INITIALIZED;
}

/* The residual history is not kept: said on stderr, as every call cuemu
 * does not emulate. */
CUEMU_SOLVER_EXPORT cusolverStatus_t
cusolverDnIRSInfosGetResidualHistory(cusolverDnIRSInfos_t infos,
                                     void **history) {
  (void)history;
  if (!infos)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  fprintf(stderr, "cuemu: cusolverDnIRSInfosGetResidualHistory: the "
                  "residual history is not emulated "
                  "(CUSOLVER_STATUS_NOT_SUPPORTED)\n");
  return CUSOLVER_STATUS_NOT_SUPPORTED;
}

/* ---- The solvers -----------------------------------------------------------
 */

/* The call that params describe: its element type and lowest precision;
 * 0 when the pair is not one of cuSOLVER's (or the main precision is not
 * set). */
static int irs_types(cusolverDnIRSParams_t p, cuemu_solver_type *type,
                     cuemu_solver_low *low) {
  int real = p->main == CUEMU_PREC_R_64F || p->main == CUEMU_PREC_R_32F;
  int lowest = p->lowest ? p->lowest : p->main;
  switch (p->main) {
  case CUEMU_PREC_R_64F:
  case CUEMU_PREC_C_64F:
    *type = real ? CUEMU_SOLVER_D : CUEMU_SOLVER_Z;
    break;
  case CUEMU_PREC_R_32F:
  case CUEMU_PREC_C_32F:
    *type = real ? CUEMU_SOLVER_S : CUEMU_SOLVER_C;
    break;
  default:
    return 0;
  }
  int single = *type == CUEMU_SOLVER_S || *type == CUEMU_SOLVER_C;
  int offset = real ? 0 : CUEMU_PREC_C_64F - CUEMU_PREC_R_64F;
  if (lowest == p->main)
    *low = CUEMU_IRS_SAME;
  else if (lowest == CUEMU_PREC_R_32F + offset && !single)
    *low = CUEMU_IRS_SINGLE;
  else if (lowest == CUEMU_PREC_R_16F + offset)
    *low = CUEMU_IRS_HALF;
  else if (lowest == CUEMU_PREC_R_16BF + offset)
    *low = CUEMU_IRS_BF16;
  else if (lowest == CUEMU_PREC_R_TF32 + offset)
    *low = CUEMU_IRS_TF32;
  else
    return 0;
  return 1;
}

static cusolverStatus_t irsx(cusolverDnHandle_t h, const char *name,
                             cusolverDnIRSParams_t p, cusolverDnIRSInfos_t in,
                             cuemu_solver_irs c) {
  if (!h || !p)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!irs_types(p, &c.type, &c.low) || p->refinement == CUEMU_REFINE_NOT_SET)
    return CUSOLVER_STATUS_INVALID_VALUE;
  c.max_iters = p->max_iters;
  c.no_fallback = p->no_fallback;
  c.no_refinement = p->refinement == CUEMU_REFINE_NONE;
  c.expert = 1;
  cusolverStatus_t s = cuemu__solver_irs(h, name, c);
  if (s == CUSOLVER_STATUS_SUCCESS && in) {
    in->niters = in->outer_niters = *c.niters;
    in->max_iters = p->max_iters;
  }
  return s;
}

static cusolverStatus_t irsx_size(cusolverDnHandle_t h,
                                  cusolverDnIRSParams_t p, int bad,
                                  size_t *bytes) {
  cuemu_solver_type type;
  cuemu_solver_low low;
  if (!h || !p)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (bad || !bytes || !irs_types(p, &type, &low))
    return CUSOLVER_STATUS_INVALID_VALUE;
  *bytes = cuemu__solver_size(type);
  return CUSOLVER_STATUS_SUCCESS;
}

CUEMU_SOLVER_EXPORT cusolverStatus_t
cusolverDnIRSXgesv_bufferSize(cusolverDnHandle_t h, cusolverDnIRSParams_t p,
                              int n, int nrhs, size_t *bytes) {
  return irsx_size(h, p, n < 0 || nrhs < 0, bytes);
}

CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnIRSXgesv(
    cusolverDnHandle_t h, cusolverDnIRSParams_t p, cusolverDnIRSInfos_t in,
    int n, int nrhs, void *a, int lda, void *b, int ldb, void *x, int ldx,
    void *work, size_t bytes, int *niters, int *info) {
  (void)work, (void)bytes;
  return irsx(h, "cusolverDnIRSXgesv", p, in,
              (cuemu_solver_irs){.m = n, .n = n, .nrhs = nrhs, .a = a,
                                 .lda = lda, .b = b, .ldb = ldb, .x = x,
                                 .ldx = ldx, .info = info, .niters = niters});
}

CUEMU_SOLVER_EXPORT cusolverStatus_t
cusolverDnIRSXgels_bufferSize(cusolverDnHandle_t h, cusolverDnIRSParams_t p,
                              int m, int n, int nrhs, size_t *bytes) {
  return irsx_size(h, p, m < 0 || n < 0 || n > m || nrhs < 0, bytes);
}

CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnIRSXgels(
    cusolverDnHandle_t h, cusolverDnIRSParams_t p, cusolverDnIRSInfos_t in,
    int m, int n, int nrhs, void *a, int lda, void *b, int ldb, void *x,
    int ldx, void *work, size_t bytes, int *niters, int *info) {
  (void)work, (void)bytes;
  return irsx(h, "cusolverDnIRSXgels", p, in,
              (cuemu_solver_irs){.gels = 1, .m = m, .n = n, .nrhs = nrhs,
                                 .a = a, .lda = lda, .b = b, .ldb = ldb,
                                 .x = x, .ldx = ldx, .info = info,
                                 .niters = niters});
}
