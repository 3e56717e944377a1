/*
 * cuemu_blas_lt_algo.c: cuBLASLt's explicit algorithm interface, as
 * programs that tune their matmuls use it: cublasLtMatmulAlgoGetIds (one
 * algorithm, ID 0, for the type combinations cublasLtMatmul computes),
 * cublasLtMatmulAlgoInit, cublasLtMatmulAlgoConfigSetAttribute and
 * GetAttribute (the configuration is kept in the algorithm's 64 bytes and
 * changes nothing: every configuration computes as cublasLtMatmul does),
 * cublasLtMatmulAlgoCapGetAttribute (what that one algorithm supports)
 * and cublasLtMatmulAlgoCheck (cublasLtMatmul's checks; no workspace).
 */
#include <string.h>

#include "cuemu_blas.h"

/* cublasLtMatmulAlgoConfigAttributes_t and cublasLtMatmulAlgoCapAttributes_t */
enum { CONFIG_ID = 0, CONFIG_TILE_ID = 1, CONFIG_SPLITK_NUM = 2,
       CONFIG_REDUCTION_SCHEME = 3, CONFIG_CTA_SWIZZLING = 4,
       CONFIG_CUSTOM_OPTION = 5, CONFIG_STAGES_ID = 6,
       CONFIG_INNER_SHAPE_ID = 7, CONFIG_CLUSTER_SHAPE_ID = 8 };
enum { CAP_SPLITK_SUPPORT = 0, CAP_REDUCTION_SCHEME_MASK = 1,
       CAP_CTA_SWIZZLING_SUPPORT = 2, CAP_STRIDED_BATCH_SUPPORT = 3,
       CAP_OUT_OF_PLACE_RESULT_SUPPORT = 4, CAP_UPLO_SUPPORT = 5,
       CAP_TILE_IDS = 6, CAP_CUSTOM_OPTION_MAX = 7,
       CAP_CUSTOM_MEMORY_ORDER = 10, CAP_POINTER_MODE_MASK = 11,
       CAP_EPILOGUE_MASK = 12, CAP_STAGES_IDS = 13, CAP_LD_NEGATIVE = 14,
       CAP_NUMERICAL_IMPL_FLAGS = 15, CAP_MIN_ALIGNMENT_A_BYTES = 16,
       CAP_MIN_ALIGNMENT_D_BYTES = 19, CAP_POINTER_ARRAY_BATCH_SUPPORT = 21,
       CAP_FLOATING_POINT_EMULATION_SUPPORT = 22 };

/* cublasLtMatmulAlgo_t: 64 bytes. cuemu's: a mark that Init made it, the
 * configuration's values, and the types it was made for. */
typedef struct {
  uint32_t made; /* ALGO_MADE */
  int32_t id, splitk;
  uint32_t tile, reduction, swizzling, custom, stages;
  uint16_t inner_shape, cluster_shape;
  int32_t compute, scale, at, bt, ct, dt;
} lt_algo;
_Static_assert(sizeof(lt_algo) <= 64, "cublasLtMatmulAlgo_t");
#define ALGO_MADE 0x63756c74u

/* The configuration's attributes: offset and size in lt_algo. */
static const struct {
  int attr;
  size_t offset, size;
} config_fields[] = {
    {CONFIG_ID, offsetof(lt_algo, id), 4},
    {CONFIG_TILE_ID, offsetof(lt_algo, tile), 4},
    {CONFIG_SPLITK_NUM, offsetof(lt_algo, splitk), 4},
    {CONFIG_REDUCTION_SCHEME, offsetof(lt_algo, reduction), 4},
    {CONFIG_CTA_SWIZZLING, offsetof(lt_algo, swizzling), 4},
    {CONFIG_CUSTOM_OPTION, offsetof(lt_algo, custom), 4},
    {CONFIG_STAGES_ID, offsetof(lt_algo, stages), 4},
    {CONFIG_INNER_SHAPE_ID, offsetof(lt_algo, inner_shape), 2},
    {CONFIG_CLUSTER_SHAPE_ID, offsetof(lt_algo, cluster_shape), 2},
};
#define CONFIG_COUNT (sizeof config_fields / sizeof *config_fields)

/* Whether cublasLtMatmul computes these types (C and D alike, and the
 * scale type that cublasGemmEx's table gives the compute type). */
static int types_supported(int compute, int at, int bt, int ct, int dt) {
  return ct == dt && cuemu__blas_ex_supported(compute, at, bt, ct);
}

CUEMU_BLAS_EXPORT cublasStatus_t cublasLtMatmulAlgoGetIds(
    cublasHandle_t lt, int compute, int scale, int at, int bt, int ct, int dt,
    int requested, int *ids, int *returned) {
  (void)scale;
  if (!lt)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (requested <= 0 || !ids || !returned)
    return CUBLAS_STATUS_INVALID_VALUE;
  *returned = 0;
  if (types_supported(compute, at, bt, ct, dt)) {
    ids[0] = 0; /* cuemu's one GEMM */
    *returned = 1;
  }
  return CUBLAS_STATUS_SUCCESS;
}

CUEMU_BLAS_EXPORT cublasStatus_t cublasLtMatmulAlgoInit(
    cublasHandle_t lt, int compute, int scale, int at, int bt, int ct, int dt,
    int id, void *algo) {
  if (!lt)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!algo || id != 0)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (!types_supported(compute, at, bt, ct, dt))
    return CUBLAS_STATUS_NOT_SUPPORTED;
  lt_algo a = {ALGO_MADE, id, 1, 0, 0, 0, 0, 0, 0, 0,
               compute, scale, at, bt, ct, dt};
  memset(algo, 0, 64);
  memcpy(algo, &a, sizeof a);
  return CUBLAS_STATUS_SUCCESS;
}

static int find_config(int attr) {
  for (size_t i = 0; i < CONFIG_COUNT; ++i)
    if (config_fields[i].attr == attr)
      return (int)i;
  return -1;
}

CUEMU_BLAS_EXPORT cublasStatus_t cublasLtMatmulAlgoConfigSetAttribute(
    void *algo, int attr, const void *buf, size_t size) {
  int f = find_config(attr);
  if (!algo || !buf || f < 0 || size != config_fields[f].size)
    return CUBLAS_STATUS_INVALID_VALUE;
  memcpy((char *)algo + config_fields[f].offset, buf, size);
  return CUBLAS_STATUS_SUCCESS;
}

CUEMU_BLAS_EXPORT cublasStatus_t cublasLtMatmulAlgoConfigGetAttribute(
    const void *algo, int attr, void *buf, size_t size, size_t *written) {
  int f = find_config(attr);
  if (!algo || f < 0)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (size == 0 && written) {
    *written = config_fields[f].size;
    return CUBLAS_STATUS_SUCCESS;
  }
  if (!buf || size != config_fields[f].size)
    return CUBLAS_STATUS_INVALID_VALUE;
  memcpy(buf, (const char *)algo + config_fields[f].offset, size);
  if (written)
    *written = size;
  return CUBLAS_STATUS_SUCCESS;
}

/* The capabilities of cuemu's one algorithm: strided batches and C apart
 * from D, host and device pointer modes, the epilogues cublasLtMatmul has
 * (DEFAULT, RELU, BIAS, RELU_BIAS, GELU, GELU_BIAS: bits 1, 2, 4, 32), no
 * split-K, tiles or stages to choose, no alignment needed. */
CUEMU_BLAS_EXPORT cublasStatus_t cublasLtMatmulAlgoCapGetAttribute(
    const void *algo, int attr, void *buf, size_t size, size_t *written) {
  if (!algo)
    return CUBLAS_STATUS_INVALID_VALUE;
  int32_t i32 = 0;
  uint32_t u32 = 0;
  uint64_t u64 = 0;
  const void *value = &i32;
  size_t bytes = 4;
  switch (attr) {
  case CAP_SPLITK_SUPPORT:
  case CAP_CTA_SWIZZLING_SUPPORT:
  case CAP_UPLO_SUPPORT:
  case CAP_CUSTOM_OPTION_MAX:
  case CAP_CUSTOM_MEMORY_ORDER:
  case CAP_LD_NEGATIVE:
  case CAP_POINTER_ARRAY_BATCH_SUPPORT:
  case CAP_FLOATING_POINT_EMULATION_SUPPORT:
    break;
  case CAP_STRIDED_BATCH_SUPPORT:
  case CAP_OUT_OF_PLACE_RESULT_SUPPORT:
    i32 = 1;
    break;
  case CAP_REDUCTION_SCHEME_MASK:
    value = &u32; /* CUBLASLT_REDUCTION_SCHEME_NONE */
    break;
  case CAP_POINTER_MODE_MASK:
    u32 = 1u | 2u; /* host and device */
    value = &u32;
    break;
  case CAP_EPILOGUE_MASK:
    u32 = 1u | 2u | 4u | 32u;
    value = &u32;
    break;
  case CAP_TILE_IDS:
  case CAP_STAGES_IDS:
    bytes = 0; /* no tiles or stages to choose */
    break;
  case CAP_NUMERICAL_IMPL_FLAGS:
    value = &u64;
    bytes = 8;
    break;
  default:
    if (attr >= CAP_MIN_ALIGNMENT_A_BYTES && attr <= CAP_MIN_ALIGNMENT_D_BYTES) {
      u32 = 1;
      value = &u32;
      break;
    }
    return CUBLAS_STATUS_INVALID_VALUE;
  }
  if (size == 0 && written) {
    *written = bytes;
    return CUBLAS_STATUS_SUCCESS;
  }
  if ((bytes > 0 && !buf) || size < bytes)
    return CUBLAS_STATUS_INVALID_VALUE;
  memcpy(buf, value, bytes);
  if (written)
    *written = bytes;
  return CUBLAS_STATUS_SUCCESS;
}

CUEMU_BLAS_EXPORT cublasStatus_t cublasLtMatmulAlgoCheck(
    cublasHandle_t lt, const void *desc, const void *a, const void *b,
    const void *c, const void *d, const void *algo, void *result) {
  if (!lt)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  lt_algo al;
  if (!algo || !result)
    return CUBLAS_STATUS_INVALID_VALUE;
  memcpy(&al, algo, sizeof al);
  if (al.made != ALGO_MADE || al.id != 0)
    return CUBLAS_STATUS_INVALID_VALUE;
  cublasStatus_t st = cuemu__blas_lt_check(desc, a, b, c, d);
  if (st != CUBLAS_STATUS_SUCCESS)
    return st;
  /* cublasLtMatmulHeuristicResult_t: the algorithm (never updated),
   * workspaceSize, state, wavesCount. */
  struct {
    uint64_t algo[8];
    size_t workspace;
    int state;
    float waves;
    int reserved[4];
  } *r = result;
  r->workspace = 0;
  r->state = CUBLAS_STATUS_SUCCESS;
  r->waves = 1.0f;
  return CUBLAS_STATUS_SUCCESS;
}
