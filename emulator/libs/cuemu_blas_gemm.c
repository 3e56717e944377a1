/*
 * cuemu_blas_gemm.c: the one GEMM of cuemu's cuBLAS, under every GEMM
 * entry point (S/D/C/Z/H, batched, strided batched, Ex), SYRK and the
 * triangular products: op(A) and op(B) are packed into contiguous
 * column-major buffers of the compute type, multiplied by a blocked loop
 * whose innermost loop runs down a column (which the compiler vectorises
 * without reassociating sums), then combined with C.
 */
#include <stdlib.h>
#include <string.h>

#include "cuemu_blas.h"

/* The loops below are written for the vectoriser, which GCC 12 runs at -O2
 * only when asked (clang's -O2 runs it). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-loop-vectorize", "vect-cost-model=dynamic")
#endif

/* Rows of a block of op(A) and of its columns: a block of 128 x 256
 * floats (128 KiB) stays in the L2 cache while every column of op(B)
 * passes over it. */
enum { BLOCK_M = 128, BLOCK_K = 256 };

/* p (m x n, packed) = a (m x k, packed) * b (k x n, packed); p is zeroed
 * first. Four columns of p at a time, so that each element of a is loaded
 * once for four multiply-adds. */
#define CUEMU_GEMM_KERNEL(NAME, T)                                             \
  static void NAME(int64_t m, int64_t n, int64_t k, const T *restrict a,       \
                   const T *restrict b, T *restrict p) {                       \
    memset(p, 0, (size_t)m * (size_t)n * sizeof(T));                           \
    for (int64_t i0 = 0; i0 < m; i0 += BLOCK_M) {                              \
      int64_t mc = m - i0 < BLOCK_M ? m - i0 : BLOCK_M;                        \
      for (int64_t q0 = 0; q0 < k; q0 += BLOCK_K) {                            \
        int64_t kc = k - q0 < BLOCK_K ? k - q0 : BLOCK_K;                      \
        int64_t j = 0;                                                         \
        for (; j + 4 <= n; j += 4) {                                           \
          T *restrict c0 = p + j * m + i0;                                     \
          T *restrict c1 = c0 + m;                                             \
          T *restrict c2 = c1 + m;                                             \
          T *restrict c3 = c2 + m;                                             \
          const T *b0 = b + j * k + q0, *b1 = b0 + k, *b2 = b1 + k,            \
                  *b3 = b2 + k;                                                \
          for (int64_t q = 0; q < kc; ++q) {                                   \
            const T *restrict ac = a + (q0 + q) * m + i0;                      \
            T s0 = b0[q], s1 = b1[q], s2 = b2[q], s3 = b3[q];                  \
            for (int64_t i = 0; i < mc; ++i) {                                 \
              T av = ac[i];                                                    \
              c0[i] += av * s0;                                                \
              c1[i] += av * s1;                                                \
              c2[i] += av * s2;                                                \
              c3[i] += av * s3;                                                \
            }                                                                  \
          }                                                                    \
        }                                                                      \
        for (; j < n; ++j) {                                                   \
          T *restrict c0 = p + j * m + i0;                                     \
          const T *b0 = b + j * k + q0;                                        \
          for (int64_t q = 0; q < kc; ++q) {                                   \
            const T *restrict ac = a + (q0 + q) * m + i0;                      \
            T s0 = b0[q];                                                      \
            for (int64_t i = 0; i < mc; ++i)                                   \
              c0[i] += ac[i] * s0;                                             \
          }                                                                    \
        }                                                                      \
      }                                                                        \
    }                                                                          \
  }

CUEMU_GEMM_KERNEL(gemm_s, float)
CUEMU_GEMM_KERNEL(gemm_d, double)
CUEMU_GEMM_KERNEL(gemm_c, float complex)
CUEMU_GEMM_KERNEL(gemm_z, double complex)

/* Packs op(X) (rows x cols, X of type t with leading dimension ld) into
 * out, column-major, in the compute type ct. */
static void pack(int op, int64_t rows, int64_t cols, int t, const void *x,
                 int64_t ld, int ct, void *out) {
  size_t es = cuemu__blas_type_size(ct);
  /* The common cases without conversion: a column copy or a transpose. */
  if (t == ct && (ct == CUEMU_R_32F || ct == CUEMU_R_64F || op == CUBLAS_OP_N)) {
    const char *src = x;
    char *dst = out;
    if (op == CUBLAS_OP_N) {
      for (int64_t c = 0; c < cols; ++c)
        memcpy(dst + (size_t)(c * rows) * es, src + (size_t)(c * ld) * es,
               (size_t)rows * es);
      return;
    }
    if (ct == CUEMU_R_32F) {
      const float *s = x;
      float *d = out;
      for (int64_t c = 0; c < cols; ++c)
        for (int64_t r = 0; r < rows; ++r)
          d[c * rows + r] = s[r * ld + c];
    } else {
      const double *s = x;
      double *d = out;
      for (int64_t c = 0; c < cols; ++c)
        for (int64_t r = 0; r < rows; ++r)
          d[c * rows + r] = s[r * ld + c];
    }
    return;
  }
  for (int64_t c = 0; c < cols; ++c)
    for (int64_t r = 0; r < rows; ++r) {
      double complex v = op == CUBLAS_OP_N ? cuemu__blas_load(t, x, r + c * ld)
                                           : cuemu__blas_load(t, x, c + r * ld);
      if (op == CUBLAS_OP_C)
        v = conj(v);
      cuemu__blas_store(ct, out, c * rows + r, v);
    }
}

/* Rounds `count` floats as a tensor core takes them: TF32 (8 exponent
 * and 10 mantissa bits, to nearest with ties away from zero, as
 * cvt.rna.tf32.f32), half or bfloat16 (to nearest even). */
static void round_inputs(float *p, size_t count, int round) {
  for (size_t i = 0; i < count; ++i) {
    float f = p[i];
    if (round == CUEMU_BLAS_ROUND_TF32) {
      uint32_t u;
      memcpy(&u, &f, sizeof u);
      if ((u & 0x7f800000u) != 0x7f800000u) { /* not inf or NaN */
        u += 0x1000u;
        u &= 0xffffe000u;
      }
      memcpy(&f, &u, sizeof u);
    } else if (round == CUEMU_BLAS_ROUND_16F) {
      f = cuemu__half_to_float(cuemu__float_to_half(f));
    } else if (round == CUEMU_BLAS_ROUND_16BF) {
      f = cuemu__bf16_to_float(cuemu__float_to_bf16(f));
    }
    p[i] = f;
  }
}

/* Allocates n elements of `size` bytes, NULL on overflow or no memory. */
static void *alloc_array(int64_t a, int64_t b, size_t size) {
  size_t bytes;
  if (__builtin_mul_overflow((size_t)a, (size_t)b, &bytes) ||
      __builtin_mul_overflow(bytes, size, &bytes))
    return NULL;
  return malloc(bytes ? bytes : 1);
}

int cuemu__blas_gemm(const cuemu_blas_gemm_args *g, const void *A,
                     const void *B, void *C) {
  int64_t m = g->m, n = g->n, k = g->k;
  if (m <= 0 || n <= 0)
    return 0;
  int ct = g->compute;
  size_t es = cuemu__blas_type_size(ct);
  void *p = NULL;
  /* BLAS: with k == 0 or alpha == 0, A and B are not read. */
  if (k > 0 && g->alpha != 0) {
    void *a = alloc_array(m, k, es), *b = alloc_array(k, n, es);
    p = alloc_array(m, n, es);
    if (!a || !b || !p) {
      free(a), free(b), free(p);
      return -1;
    }
    pack(g->transa, m, k, g->at, A, g->lda, ct, a);
    pack(g->transb, k, n, g->bt, B, g->ldb, ct, b);
    if (g->round > CUEMU_BLAS_ROUND_NONE && g->round < CUEMU_BLAS_ROUND_NEVER &&
        (ct == CUEMU_R_32F || ct == CUEMU_C_32F)) {
      size_t parts = ct == CUEMU_C_32F ? 2 : 1;
      round_inputs(a, (size_t)(m * k) * parts, g->round);
      round_inputs(b, (size_t)(k * n) * parts, g->round);
    }
    switch (ct) {
    case CUEMU_R_32F:
      gemm_s(m, n, k, a, b, p);
      break;
    case CUEMU_R_64F:
      gemm_d(m, n, k, a, b, p);
      break;
    case CUEMU_C_32F:
      gemm_c(m, n, k, a, b, p);
      break;
    default:
      gemm_z(m, n, k, a, b, p);
      break;
    }
    free(a), free(b);
  }
  /* C = alpha P + beta C; with beta == 0, C is not read (a NaN there does
   * not propagate). The compute type's arithmetic, then C's type. */
  int beta_zero = g->beta == 0;
  if (ct == CUEMU_R_32F && g->ct == CUEMU_R_32F) {
    float al = (float)creal(g->alpha), be = (float)creal(g->beta);
    const float *pp = p;
    for (int64_t j = 0; j < n; ++j) {
      float *c = (float *)C + j * g->ldc;
      for (int64_t i = 0; i < m; ++i) {
        float v = pp ? al * pp[j * m + i] : 0.0f;
        c[i] = beta_zero ? v : v + be * c[i];
      }
    }
  } else if (ct == CUEMU_R_64F && g->ct == CUEMU_R_64F) {
    double al = creal(g->alpha), be = creal(g->beta);
    const double *pp = p;
    for (int64_t j = 0; j < n; ++j) {
      double *c = (double *)C + j * g->ldc;
      for (int64_t i = 0; i < m; ++i) {
        double v = pp ? al * pp[j * m + i] : 0.0;
        c[i] = beta_zero ? v : v + be * c[i];
      }
    }
  } else {
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < m; ++i) {
        int64_t at = i + j * g->ldc;
        double complex v =
            p ? g->alpha * cuemu__blas_load(ct, p, j * m + i) : 0;
        if (ct == CUEMU_R_32F || ct == CUEMU_C_32F)
          v = (float complex)v; /* the compute type's rounding */
        if (!beta_zero)
          v += g->beta * cuemu__blas_load(g->ct, C, at);
        cuemu__blas_store(g->ct, C, at, v);
      }
  }
  free(p);
  return 0;
}

int cuemu__blas_op_valid(int op) {
  return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C;
}

/* ---- A GEMM call on the stream --------------------------------------------- */

typedef struct gemm_op {
  cuemu_blas_op base;
  cuemu_blas_gemm_call call;
  size_t a_bytes, b_bytes, c_bytes; /* the span of one matrix of each */
} gemm_op;

static void run_gemm(cuemu_blas_op *base) {
  gemm_op *op = (gemm_op *)base;
  cuemu_blas_gemm_call *c = &op->call;
  cuemu_blas_gemm_args g = c->g;
  g.alpha = cuemu__blas_load(c->scalar_type, c->alpha, 0);
  g.beta = cuemu__blas_load(c->scalar_type, c->beta, 0);
  size_t sa = cuemu__blas_type_size(g.at), sb = cuemu__blas_type_size(g.bt),
         sc = cuemu__blas_type_size(g.ct);
  for (int64_t i = 0; i < c->batch; ++i) {
    const void *A, *B;
    void *C;
    if (c->Carray) {
      /* The arrays of pointers are read as the kernels read them: when
       * the work runs, after the stream's earlier copies into them. */
      A = c->Aarray[i], B = c->Barray[i], C = c->Carray[i];
      if (!cuemu__libs_device_range(c->name, "Aarray[i]", A, op->a_bytes) ||
          !cuemu__libs_device_range(c->name, "Barray[i]", B, op->b_bytes) ||
          !cuemu__libs_device_range(c->name, "Carray[i]", C, op->c_bytes))
        return;
    } else {
      A = (const char *)c->A + (size_t)(i * c->stride_a) * sa;
      B = (const char *)c->B + (size_t)(i * c->stride_b) * sb;
      C = (char *)c->C + (size_t)(i * c->stride_c) * sc;
    }
    if (cuemu__blas_gemm(&g, A, B, C) != 0) {
      cuemu__blas_out_of_memory(c->name);
      return;
    }
    cuemu__blas_matrix_wrote(C, g.m, g.n, g.ldc, sc);
  }
}

/* Checks the device memory that a strided batch of matrices spans: each
 * `bytes` long, the first at p and the one of batch `last` `last * stride`
 * elements of `elem` bytes away, below p for a negative stride. */
static int batch_range(const char *name, const char *arg, const void *p,
                       size_t bytes, int64_t last, int64_t stride,
                       size_t elem) {
  if (!bytes)
    return 1;
  int64_t reach = last * stride;
  size_t away = (size_t)(reach < 0 ? -reach : reach) * elem;
  const char *lo = (const char *)p - (reach < 0 ? away : 0);
  return cuemu__libs_device_range(name, arg, lo, bytes + away);
}

cublasStatus_t cuemu__blas_gemm_call(cublasHandle_t h,
                                     const cuemu_blas_gemm_call *call) {
  const cuemu_blas_gemm_args *g = &call->g;
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  /* The argument checks of cublas<t>gemm, in its order. */
  if (!cuemu__blas_op_valid(g->transa) || !cuemu__blas_op_valid(g->transb) ||
      g->m < 0 || g->n < 0 || g->k < 0 || call->batch < 0)
    return CUBLAS_STATUS_INVALID_VALUE;
  int64_t arows = g->transa == CUBLAS_OP_N ? g->m : g->k;
  int64_t acols = g->transa == CUBLAS_OP_N ? g->k : g->m;
  int64_t brows = g->transb == CUBLAS_OP_N ? g->k : g->n;
  int64_t bcols = g->transb == CUBLAS_OP_N ? g->n : g->k;
  if (g->lda < (arows > 1 ? arows : 1) || g->ldb < (brows > 1 ? brows : 1) ||
      g->ldc < (g->m > 1 ? g->m : 1))
    return CUBLAS_STATUS_INVALID_VALUE;
  if (g->m == 0 || g->n == 0 || call->batch == 0)
    return CUBLAS_STATUS_SUCCESS;
  if (!call->alpha || !call->beta)
    return CUBLAS_STATUS_INVALID_VALUE;
  gemm_op *op = (gemm_op *)cuemu__blas_op_new(sizeof *op, call->name, run_gemm);
  if (!op)
    return CUBLAS_STATUS_ALLOC_FAILED;
  op->call = *call;
  /* CUBLAS_TF32_TENSOR_OP_MATH (3, whatever flags are or'ed in) lets the
   * float GEMMs use TF32 tensor cores; the FAST compute types of GemmEx
   * say so themselves, and CUBLAS_COMPUTE_32F_PEDANTIC never does.
   * NVIDIA_TF32_OVERRIDE=0 turns TF32 off whatever the program asks, as
   * with cuBLAS. */
  if (op->call.g.round == CUEMU_BLAS_ROUND_NONE && (h->math_mode & 15) == 3 &&
      (g->at == CUEMU_R_32F || g->at == CUEMU_C_32F) && g->bt == g->at)
    op->call.g.round = CUEMU_BLAS_ROUND_TF32;
  const char *override = getenv("NVIDIA_TF32_OVERRIDE");
  if (op->call.g.round == CUEMU_BLAS_ROUND_TF32 && override &&
      strcmp(override, "0") == 0)
    op->call.g.round = CUEMU_BLAS_ROUND_NONE;
  size_t ss = cuemu__blas_type_size(call->scalar_type);
  op->call.alpha = cuemu__blas_scalar(h, &op->base, 0, call->alpha, ss);
  op->call.beta = cuemu__blas_scalar(h, &op->base, 1, call->beta, ss);
  /* Device memory: the matrices of every batch (those of the batched
   * forms when the work runs, run_gemm). */
  const char *name = call->name;
  int ok = 1;
  if (h->pointer_mode == CUBLAS_POINTER_MODE_DEVICE)
    ok = cuemu__libs_device_range(name, "alpha", call->alpha, ss) &&
         cuemu__libs_device_range(name, "beta", call->beta, ss);
  size_t sa = cuemu__blas_type_size(g->at), sb = cuemu__blas_type_size(g->bt),
         sc = cuemu__blas_type_size(g->ct);
  size_t abytes = g->k ? cuemu__blas_matrix_bytes(arows, acols, g->lda, sa) : 0;
  size_t bbytes = g->k ? cuemu__blas_matrix_bytes(brows, bcols, g->ldb, sb) : 0;
  size_t cbytes = cuemu__blas_matrix_bytes(g->m, g->n, g->ldc, sc);
  if (ok && call->Carray) {
    size_t pb = (size_t)call->batch * sizeof(void *);
    ok = cuemu__libs_device_range(name, "Aarray", call->Aarray, pb) &&
         cuemu__libs_device_range(name, "Barray", call->Barray, pb) &&
         cuemu__libs_device_range(name, "Carray", call->Carray, pb);
    op->a_bytes = abytes, op->b_bytes = bbytes, op->c_bytes = cbytes;
  } else if (ok) {
    /* The span of every batch, from the lowest matrix's start to the
     * highest one's end (strides may be 0, overlap or be negative: a
     * negative stride puts the later batches below the pointer). */
    int64_t last = call->batch - 1;
    ok = (!abytes || cuemu__libs_aligned(name, "A", call->A, sa)) &&
         (!bbytes || cuemu__libs_aligned(name, "B", call->B, sb)) &&
         cuemu__libs_aligned(name, "C", call->C, sc) &&
         batch_range(name, "A", call->A, abytes, last, call->stride_a, sa) &&
         batch_range(name, "B", call->B, bbytes, last, call->stride_b, sb) &&
         batch_range(name, "C", call->C, cbytes, last, call->stride_c, sc);
  }
  if (!ok) {
    free(op);
    return CUBLAS_STATUS_SUCCESS;
  }
  return cuemu__blas_submit(h, &op->base);
}
