/*
 * cuemu_blas_gemm_api.c: the GEMM entry points of cuemu's cuBLAS
 * (cublas<t>gemm, cublasHgemm, the batched and strided batched forms and
 * cublasGemmEx and its batched forms), each a description of one
 * cuemu__blas_gemm_call() (cuemu_blas_gemm.c).
 */
#include "cuemu_blas.h"

/* A call of cublas<t>gemm, the batched form or the strided batched form
 * with every matrix of type t and alpha and beta of type t (half sums in
 * float); the caller adds the matrices and the batch. */
static cuemu_blas_gemm_call typed(const char *name, int t, int transa,
                                  int transb, int64_t m, int64_t n, int64_t k,
                                  int64_t lda, int64_t ldb, int64_t ldc,
                                  const void *alpha, const void *beta) {
  cuemu_blas_gemm_call c = {0};
  c.name = name;
  c.g = (cuemu_blas_gemm_args){
      transa, transb, m,   n, k, t, t, t, t == CUEMU_R_16F ? CUEMU_R_32F : t,
      lda,    ldb,    ldc, 0, 0, 0};
  c.scalar_type = t;
  c.alpha = alpha, c.beta = beta;
  return c;
}

#define CUEMU_BLAS_GEMM_DEF(NAME, I, T, TYPE, ...)                             \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(                                       \
      cublasHandle_t h, int transa, int transb, I m, I n, I k, const T *alpha, \
      const T *A, I lda, const T *B, I ldb, const T *beta, T *C, I ldc) {      \
    cuemu_blas_gemm_call c = typed(#NAME, TYPE, transa, transb, m, n, k, lda,  \
                                   ldb, ldc, alpha, beta);                     \
    c.A = A, c.B = B, c.C = C, c.batch = 1;                                    \
    return cuemu__blas_gemm_call(h, &c);                                       \
  }
#define CUEMU_BLAS_GEMM(...) CUEMU_BLAS_ILP64(CUEMU_BLAS_GEMM_DEF, __VA_ARGS__)
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_BLAS_GEMM, gemm_v2)
/* Hgemm: half matrices and scalars; cuemu sums in float and rounds once. */
CUEMU_BLAS_GEMM(cublasHgemm, uint16_t, CUEMU_R_16F)
/* The Gauss complex multiplication (3M) forms: the same GEMM here. */
CUEMU_BLAS_CZ(CUEMU_BLAS_TYPED, CUEMU_BLAS_GEMM, gemm3m)

#define CUEMU_BLAS_GEMM_BATCHED_DEF(NAME, I, T, TYPE, ...)                     \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(                                       \
      cublasHandle_t h, int transa, int transb, I m, I n, I k, const T *alpha, \
      const T *const A[], I lda, const T *const B[], I ldb, const T *beta,     \
      T *const C[], I ldc, I batch) {                                          \
    cuemu_blas_gemm_call c = typed(#NAME, TYPE, transa, transb, m, n, k, lda,  \
                                   ldb, ldc, alpha, beta);                     \
    c.Aarray = (const void *const *)A, c.Barray = (const void *const *)B;      \
    c.Carray = (void *const *)C;                                               \
    c.batch = batch;                                                           \
    return cuemu__blas_gemm_call(h, &c);                                       \
  }
#define CUEMU_BLAS_GEMM_BATCHED(...)                                           \
  CUEMU_BLAS_ILP64(CUEMU_BLAS_GEMM_BATCHED_DEF, __VA_ARGS__)
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_BLAS_GEMM_BATCHED, gemmBatched)
CUEMU_BLAS_GEMM_BATCHED(cublasHgemmBatched, uint16_t, CUEMU_R_16F)
CUEMU_BLAS_GEMM_BATCHED(cublasCgemm3mBatched, float complex, CUEMU_C_32F)

#define CUEMU_BLAS_GEMM_STRIDED_DEF(NAME, I, T, TYPE, ...)                     \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(                                       \
      cublasHandle_t h, int transa, int transb, I m, I n, I k, const T *alpha, \
      const T *A, I lda, long long sa, const T *B, I ldb, long long sb,        \
      const T *beta, T *C, I ldc, long long sc, I batch) {                     \
    cuemu_blas_gemm_call c = typed(#NAME, TYPE, transa, transb, m, n, k, lda,  \
                                   ldb, ldc, alpha, beta);                     \
    c.A = A, c.B = B, c.C = C;                                                 \
    c.stride_a = sa, c.stride_b = sb, c.stride_c = sc;                         \
    c.batch = batch;                                                           \
    return cuemu__blas_gemm_call(h, &c);                                       \
  }
#define CUEMU_BLAS_GEMM_STRIDED(...)                                           \
  CUEMU_BLAS_ILP64(CUEMU_BLAS_GEMM_STRIDED_DEF, __VA_ARGS__)
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_BLAS_GEMM_STRIDED, gemmStridedBatched)
CUEMU_BLAS_GEMM_STRIDED(cublasHgemmStridedBatched, uint16_t, CUEMU_R_16F)
CUEMU_BLAS_GEMM_STRIDED(cublasCgemm3mStridedBatched, float complex, CUEMU_C_32F)

/* The combinations of cublasGemmEx's table (cuBLAS documentation,
 * cublasGemmEx): sets the type cuemu computes in and the type of alpha
 * and beta. INVALID_VALUE for a compute type cuBLAS does not have,
 * NOT_SUPPORTED for a combination it does not list. */
static cublasStatus_t ex_types(int compute, int at, int bt, int ct, int *work,
                               int *scalar, int *round) {
  switch (compute) {
  case CUBLAS_COMPUTE_16F:
  case CUBLAS_COMPUTE_16F_PEDANTIC:
    if (at != CUEMU_R_16F || bt != CUEMU_R_16F || ct != CUEMU_R_16F)
      return CUBLAS_STATUS_NOT_SUPPORTED;
    *work = CUEMU_R_32F, *scalar = CUEMU_R_16F;
    return CUBLAS_STATUS_SUCCESS;
  case CUBLAS_COMPUTE_32F:
  case CUBLAS_COMPUTE_32F_PEDANTIC:
    if (at != bt)
      return CUBLAS_STATUS_NOT_SUPPORTED;
    if (at == CUEMU_C_32F && ct == CUEMU_C_32F) {
      *work = CUEMU_C_32F, *scalar = CUEMU_C_32F;
      return CUBLAS_STATUS_SUCCESS;
    }
    if ((at == CUEMU_R_16F || at == CUEMU_R_16BF) &&
        (ct == at || ct == CUEMU_R_32F)) {
      *work = CUEMU_R_32F, *scalar = CUEMU_R_32F;
      return CUBLAS_STATUS_SUCCESS;
    }
    if ((at == CUEMU_R_8I || at == CUEMU_R_32F) && ct == CUEMU_R_32F) {
      *work = CUEMU_R_32F, *scalar = CUEMU_R_32F;
      return CUBLAS_STATUS_SUCCESS;
    }
    return CUBLAS_STATUS_NOT_SUPPORTED;
  case CUBLAS_COMPUTE_32F_FAST_16F:
  case CUBLAS_COMPUTE_32F_FAST_16BF:
  case CUBLAS_COMPUTE_32F_FAST_TF32:
    /* The inputs rounded as a GPU's tensor cores take them (half,
     * bfloat16 or TF32), then products summed in float: a program that
     * needs more precision than the mode gives sees it here too. */
    if (at == bt && at == ct && (at == CUEMU_R_32F || at == CUEMU_C_32F)) {
      *work = *scalar = at;
      *round = compute == CUBLAS_COMPUTE_32F_FAST_16F ? CUEMU_BLAS_ROUND_16F
               : compute == CUBLAS_COMPUTE_32F_FAST_16BF
                   ? CUEMU_BLAS_ROUND_16BF
                   : CUEMU_BLAS_ROUND_TF32;
      return CUBLAS_STATUS_SUCCESS;
    }
    return CUBLAS_STATUS_NOT_SUPPORTED;
  case CUBLAS_COMPUTE_32F_EMULATED_16BFX9:
    /* Float computed through three bfloat16 parts per input (CUDA 13):
     * float accuracy, so computed in float here. */
    if (at == bt && at == ct && (at == CUEMU_R_32F || at == CUEMU_C_32F)) {
      *work = *scalar = at;
      return CUBLAS_STATUS_SUCCESS;
    }
    return CUBLAS_STATUS_NOT_SUPPORTED;
  case CUBLAS_COMPUTE_64F:
  case CUBLAS_COMPUTE_64F_PEDANTIC:
  case CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT:
    /* The fixed-point emulation keeps at least double's accuracy (dynamic
     * mantissa control) or the bits the handle asks for: computed in
     * double here (cuemu_blas_emulation.c). */
    if (at == bt && at == ct && (at == CUEMU_R_64F || at == CUEMU_C_64F)) {
      *work = *scalar = at;
      return CUBLAS_STATUS_SUCCESS;
    }
    return CUBLAS_STATUS_NOT_SUPPORTED;
  case CUBLAS_COMPUTE_32I:
  case CUBLAS_COMPUTE_32I_PEDANTIC:
    /* int8 products summed exactly (in double) into int32. */
    if (at == CUEMU_R_8I && bt == CUEMU_R_8I && ct == CUEMU_R_32I) {
      *work = CUEMU_R_64F, *scalar = CUEMU_R_32I;
      return CUBLAS_STATUS_SUCCESS;
    }
    return CUBLAS_STATUS_NOT_SUPPORTED;
  }
  return CUBLAS_STATUS_INVALID_VALUE;
}

int cuemu__blas_ex_supported(int compute, int at, int bt, int ct) {
  int work, scalar, round = 0;
  return ex_types(compute, at, bt, ct, &work, &scalar, &round) ==
         CUBLAS_STATUS_SUCCESS;
}

/* cublasGemmAlgo_t: CUBLAS_GEMM_DEFAULT (-1), ALGO0-23, DEFAULT_TENSOR_OP
 * (99), ALGO0_TENSOR_OP-ALGO15_TENSOR_OP (100-115) and CUDA 13's
 * CUBLAS_GEMM_AUTOTUNE (999, which benchmarks the algorithms on its first
 * call and keeps the fastest in the handle); every one computes the same
 * here. */
static int algo_valid(int algo) {
  return (algo >= -1 && algo <= 23) || (algo >= 99 && algo <= 115) ||
         algo == CUEMU_BLAS_GEMM_AUTOTUNE;
}

cublasStatus_t cuemu__blas_ex_call(cublasHandle_t h, cuemu_blas_gemm_call *c,
                                   int compute, int algo) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  int work, scalar,
      round = compute == CUBLAS_COMPUTE_32F_PEDANTIC ? CUEMU_BLAS_ROUND_NEVER
                                                     : CUEMU_BLAS_ROUND_NONE;
  cublasStatus_t st =
      ex_types(compute, c->g.at, c->g.bt, c->g.ct, &work, &scalar, &round);
  if (st != CUBLAS_STATUS_SUCCESS)
    return st;
  if (!algo_valid(algo))
    return CUBLAS_STATUS_NOT_SUPPORTED;
  c->g.compute = work;
  c->g.round = round;
  c->scalar_type = scalar;
  return cuemu__blas_gemm_call(h, c);
}

#define CUEMU_BLAS_GEMMEX_DEF(NAME, I, ...)                                    \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(                                       \
      cublasHandle_t h, int transa, int transb, I m, I n, I k,                 \
      const void *alpha, const void *A, int at, I lda, const void *B, int bt,  \
      I ldb, const void *beta, void *C, int ct, I ldc, int compute,            \
      int algo) {                                                              \
    cuemu_blas_gemm_call c = {0};                                              \
    c.name = #NAME;                                                            \
    c.g = (cuemu_blas_gemm_args){transa, transb, m,   n,   k, at, bt, ct,      \
                                 0,      lda,    ldb, ldc, 0, 0,  0};          \
    c.alpha = alpha, c.beta = beta, c.A = A, c.B = B, c.C = C;                 \
    c.batch = 1;                                                               \
    return cuemu__blas_ex_call(h, &c, compute, algo);                          \
  }
CUEMU_BLAS_ILP64(CUEMU_BLAS_GEMMEX_DEF, cublasGemmEx)

#define CUEMU_BLAS_GEMMBATCHEDEX_DEF(NAME, I, ...)                             \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(                                       \
      cublasHandle_t h, int transa, int transb, I m, I n, I k,                 \
      const void *alpha, const void *const A[], int at, I lda,                 \
      const void *const B[], int bt, I ldb, const void *beta, void *const C[], \
      int ct, I ldc, I batch, int compute, int algo) {                         \
    cuemu_blas_gemm_call c = {0};                                              \
    c.name = #NAME;                                                            \
    c.g = (cuemu_blas_gemm_args){transa, transb, m,   n,   k, at, bt, ct,      \
                                 0,      lda,    ldb, ldc, 0, 0,  0};          \
    c.alpha = alpha, c.beta = beta;                                            \
    c.Aarray = A, c.Barray = B, c.Carray = C;                                  \
    c.batch = batch;                                                           \
    return cuemu__blas_ex_call(h, &c, compute, algo);                          \
  }
CUEMU_BLAS_ILP64(CUEMU_BLAS_GEMMBATCHEDEX_DEF, cublasGemmBatchedEx)

#define CUEMU_BLAS_GEMMSTRIDEDBATCHEDEX_DEF(NAME, I, ...)                      \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(                                       \
      cublasHandle_t h, int transa, int transb, I m, I n, I k,                 \
      const void *alpha, const void *A, int at, I lda, long long sa,           \
      const void *B, int bt, I ldb, long long sb, const void *beta, void *C,   \
      int ct, I ldc, long long sc, I batch, int compute, int algo) {           \
    cuemu_blas_gemm_call c = {0};                                              \
    c.name = #NAME;                                                            \
    c.g = (cuemu_blas_gemm_args){transa, transb, m,   n,   k, at, bt, ct,      \
                                 0,      lda,    ldb, ldc, 0, 0,  0};          \
    c.alpha = alpha, c.beta = beta, c.A = A, c.B = B, c.C = C;                 \
    c.stride_a = sa, c.stride_b = sb, c.stride_c = sc;                         \
    c.batch = batch;                                                           \
    return cuemu__blas_ex_call(h, &c, compute, algo);                          \
  }
CUEMU_BLAS_ILP64(CUEMU_BLAS_GEMMSTRIDEDBATCHEDEX_DEF,
                 cublasGemmStridedBatchedEx)

/* cublasSgemmEx, cublasCgemmEx and cublasCgemm3mEx: cublasGemmEx's float
 * compute with real types (S: the CUBLAS_COMPUTE_32F rows of its table
 * with a real C) or complex ones (C: complex float throughout; cuemu has
 * no complex int8), NOT_SUPPORTED for the others. */
#define CUEMU_BLAS_TYPED_EX_DEF(NAME, I, S, CPLX)                              \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(                                       \
      cublasHandle_t h, int transa, int transb, I m, I n, I k, const S *alpha, \
      const void *A, int at, I lda, const void *B, int bt, I ldb,              \
      const S *beta, void *C, int ct, I ldc) {                                 \
    if (CPLX ? at != CUEMU_C_32F || bt != CUEMU_C_32F || ct != CUEMU_C_32F     \
             : at == CUEMU_C_32F || bt == CUEMU_C_32F || ct == CUEMU_C_32F)    \
      return h ? CUBLAS_STATUS_NOT_SUPPORTED : CUBLAS_STATUS_NOT_INITIALIZED;  \
    cuemu_blas_gemm_call c = {0};                                              \
    c.name = #NAME;                                                            \
    c.g = (cuemu_blas_gemm_args){transa, transb, m,   n,   k, at, bt, ct,      \
                                 0,      lda,    ldb, ldc, 0, 0,  0};          \
    c.alpha = alpha, c.beta = beta, c.A = A, c.B = B, c.C = C;                 \
    c.batch = 1;                                                               \
    return cuemu__blas_ex_call(h, &c, CUBLAS_COMPUTE_32F, -1);                 \
  }
#define CUEMU_BLAS_TYPED_EX(...)                                               \
  CUEMU_BLAS_ILP64(CUEMU_BLAS_TYPED_EX_DEF, __VA_ARGS__)
CUEMU_BLAS_TYPED_EX(cublasSgemmEx, float, 0)
CUEMU_BLAS_TYPED_EX(cublasCgemmEx, float complex, 1)
CUEMU_BLAS_TYPED_EX(cublasCgemm3mEx, float complex, 1)

/* The legacy cublas<t>gemm of cublas.h (cuemu_blas_legacy.c). */
#define CUEMU_LEGACY_GEMM(L, T, TYPE, R, RTYPE, ...)                           \
  CUEMU_BLAS_EXPORT void cublas##L##gemm(                                      \
      char transa, char transb, int m, int n, int k, T alpha, const T *A,      \
      int lda, const T *B, int ldb, T beta, T *C, int ldc) {                   \
    CUEMU_BLAS_LEGACY(cublas##L##gemm_v2, CUEMU_OP(transa), CUEMU_OP(transb),  \
                      m, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc);         \
  }
CUEMU_BLAS_SDCZ(CUEMU_LEGACY_GEMM)

/* The grouped GEMMs: group g is a batch of group_size[g] GEMMs with its own
 * operations, sizes, leading dimensions and scalars (host arrays of
 * group_count; alpha and beta arrays in host or, in device pointer mode,
 * device memory); Aarray, Barray and Carray are device arrays of every
 * problem's pointers, group after group. Each group is one batched call,
 * in stream order. st: the scalars' type (their stride in alpha_array). */
#define CUEMU_BLAS_GROUPED_BODY(I, ST, CALL)                                   \
  if (!h)                                                                      \
    return CUBLAS_STATUS_NOT_INITIALIZED;                                      \
  if (group_count < 0 ||                                                       \
      (group_count > 0 && (!group_size || !m || !n || !k || !transa ||         \
                           !transb || !lda || !ldb || !ldc)))                  \
    return CUBLAS_STATUS_INVALID_VALUE;                                        \
  size_t ss = cuemu__blas_type_size(ST);                                       \
  int64_t first = 0;                                                           \
  for (I g = 0; g < group_count; ++g) {                                        \
    if (group_size[g] < 0)                                                     \
      return CUBLAS_STATUS_INVALID_VALUE;                                      \
    c.g.transa = transa[g], c.g.transb = transb[g];                            \
    c.g.m = m[g], c.g.n = n[g], c.g.k = k[g];                                  \
    c.g.lda = lda[g], c.g.ldb = ldb[g], c.g.ldc = ldc[g];                      \
    c.alpha = (const char *)alpha + g * ss;                                    \
    c.beta = (const char *)beta + g * ss;                                      \
    c.Aarray = A + first, c.Barray = B + first, c.Carray = C + first;          \
    c.batch = group_size[g];                                                   \
    first += group_size[g];                                                    \
    cublasStatus_t st = CALL;                                                  \
    if (st != CUBLAS_STATUS_SUCCESS)                                           \
      return st;                                                               \
  }                                                                            \
  return CUBLAS_STATUS_SUCCESS;

#define CUEMU_BLAS_GROUPED_DEF(NAME, I, T, TYPE, ...)                          \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(                                       \
      cublasHandle_t h, const int transa[], const int transb[], const I m[],   \
      const I n[], const I k[], const T alpha[], const T *const Aarr[],        \
      const I lda[], const T *const Barr[], const I ldb[], const T beta[],     \
      T *const Carr[], const I ldc[], I group_count, const I group_size[]) {   \
    cuemu_blas_gemm_call c =                                                   \
        typed(#NAME, TYPE, 0, 0, 0, 0, 0, 1, 1, 1, alpha, beta);               \
    const void *const *A = (const void *const *)Aarr;                          \
    const void *const *B = (const void *const *)Barr;                          \
    void *const *C = (void *const *)Carr;                                      \
    CUEMU_BLAS_GROUPED_BODY(I, TYPE, cuemu__blas_gemm_call(h, &c))             \
  }
#define CUEMU_BLAS_GROUPED(...)                                                \
  CUEMU_BLAS_ILP64(CUEMU_BLAS_GROUPED_DEF, __VA_ARGS__)
CUEMU_BLAS_SD(CUEMU_BLAS_TYPED, CUEMU_BLAS_GROUPED, gemmGroupedBatched)

#define CUEMU_BLAS_GROUPED_EX_DEF(NAME, I, ...)                                \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(                                       \
      cublasHandle_t h, const int transa[], const int transb[], const I m[],   \
      const I n[], const I k[], const void *alpha, const void *const A[],      \
      int at, const I lda[], const void *const B[], int bt, const I ldb[],     \
      const void *beta, void *const C[], int ct, const I ldc[], I group_count, \
      const I group_size[], int compute) {                                     \
    int work, scalar, round = CUEMU_BLAS_ROUND_NONE;                           \
    cublasStatus_t types =                                                     \
        ex_types(compute, at, bt, ct, &work, &scalar, &round);                 \
    if (h && types != CUBLAS_STATUS_SUCCESS)                                   \
      return types;                                                            \
    cuemu_blas_gemm_call c = {0};                                              \
    c.name = #NAME;                                                            \
    c.g.at = at, c.g.bt = bt, c.g.ct = ct;                                     \
    CUEMU_BLAS_GROUPED_BODY(I, scalar,                                         \
                            cuemu__blas_ex_call(h, &c, compute, -1))           \
  }
CUEMU_BLAS_ILP64(CUEMU_BLAS_GROUPED_EX_DEF, cublasGemmGroupedBatchedEx)
