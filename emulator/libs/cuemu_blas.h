/*
 * cuemu_blas.h: the internal header of cuemu's cuBLAS (libcuemu_cublas.so,
 * emulator/libs/libs.am). Programs include NVIDIA's own <cublas_v2.h>;
 * this header declares the same types with the same values (cuBLAS's ABI:
 * every enum is an int, every handle a pointer, complex numbers are pairs
 * of float or double, as C99's _Complex types are) so that the library
 * builds without the toolkit. Only the files of emulator/libs include it.
 *
 * Every call that computes is enqueued on the handle's stream as host work
 * (cuemu_rt_launch_host_func(), docs/streams.md), so that it runs in the
 * stream's order with kernels and copies and is captured into a graph as a
 * host node; cuemu_blas_submit() owns that path.
 */
#ifndef CUEMU_BLAS_H
#define CUEMU_BLAS_H

#include <complex.h>
#include <stddef.h>
#include <stdint.h>

#include "cuemu_libs.h"

#define CUEMU_BLAS_EXPORT __attribute__((visibility("default")))

/* Every function of cuBLAS that takes sizes exists twice: with int sizes,
 * and with int64_t sizes and the name suffixed _64 (CUDA 12's ILP64 API,
 * cublas_api.h). DEF(NAME, I, ...) defines one entry point for the integer
 * type I; CUEMU_BLAS_ILP64 expands it for both, so that the two share one
 * definition and every internal routine takes int64_t. */
#define CUEMU_BLAS_ILP64(DEF, NAME, ...)                                       \
  DEF(NAME, int, __VA_ARGS__) DEF(NAME##_64, int64_t, __VA_ARGS__)

/* The typed forms of a routine come from one table: X(L, T, TYPE, R,
 * RTYPE, ...) for each type, L the letter of its name, T its C type, TYPE
 * its cudaDataType, R and RTYPE the real type of its magnitudes (and of the
 * real scalars of the Hermitian forms); the other arguments are passed on.
 * CUEMU_BLAS_TYPED names each entry point cublas<L>NAME for FAMILY:
 * CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_GEAM, geam) defines cublasSgeam,
 * cublasDgeam, cublasCgeam and cublasZgeam (and their _64 forms where
 * CUEMU_GEAM makes them). */
#define CUEMU_BLAS_SD(X, ...)                                                  \
  X(S, float, CUEMU_R_32F, float, CUEMU_R_32F, __VA_ARGS__)                    \
  X(D, double, CUEMU_R_64F, double, CUEMU_R_64F, __VA_ARGS__)
#define CUEMU_BLAS_CZ(X, ...)                                                  \
  X(C, float complex, CUEMU_C_32F, float, CUEMU_R_32F, __VA_ARGS__)            \
  X(Z, double complex, CUEMU_C_64F, double, CUEMU_R_64F, __VA_ARGS__)
#define CUEMU_BLAS_SDCZ(X, ...)                                                \
  CUEMU_BLAS_SD(X, __VA_ARGS__) CUEMU_BLAS_CZ(X, __VA_ARGS__)
#define CUEMU_BLAS_TYPED(L, T, TYPE, R, RTYPE, FAMILY, NAME, ...)              \
  FAMILY(cublas##L##NAME, T, TYPE, R, RTYPE, __VA_ARGS__)

/* cuBLAS's version that cuemu's cuBLAS reports (CUBLAS_VERSION 13.1.0). */
#define CUEMU_BLAS_VERSION 130100

typedef enum {
  CUBLAS_STATUS_SUCCESS = 0,
  CUBLAS_STATUS_NOT_INITIALIZED = 1,
  CUBLAS_STATUS_ALLOC_FAILED = 3,
  CUBLAS_STATUS_INVALID_VALUE = 7,
  CUBLAS_STATUS_ARCH_MISMATCH = 8,
  CUBLAS_STATUS_MAPPING_ERROR = 11,
  CUBLAS_STATUS_EXECUTION_FAILED = 13,
  CUBLAS_STATUS_INTERNAL_ERROR = 14,
  CUBLAS_STATUS_NOT_SUPPORTED = 15,
  CUBLAS_STATUS_LICENSE_ERROR = 16
} cublasStatus_t;

/* cublasOperation_t, cublasFillMode_t, cublasDiagType_t, cublasSideMode_t,
 * cublasPointerMode_t, cublasAtomicsMode_t, cublasMath_t,
 * cublasComputeType_t, cublasGemmAlgo_t and cudaDataType are ints here. */
enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1, CUBLAS_OP_C = 2 };
enum { CUBLAS_FILL_MODE_LOWER = 0, CUBLAS_FILL_MODE_UPPER = 1,
       CUBLAS_FILL_MODE_FULL = 2 };
enum { CUBLAS_DIAG_NON_UNIT = 0, CUBLAS_DIAG_UNIT = 1 };
enum { CUBLAS_SIDE_LEFT = 0, CUBLAS_SIDE_RIGHT = 1 };
enum { CUBLAS_POINTER_MODE_HOST = 0, CUBLAS_POINTER_MODE_DEVICE = 1 };
enum { CUBLAS_COMPUTE_16F = 64, CUBLAS_COMPUTE_16F_PEDANTIC = 65,
       CUBLAS_COMPUTE_32F = 68, CUBLAS_COMPUTE_32F_PEDANTIC = 69,
       CUBLAS_COMPUTE_32F_FAST_16F = 74, CUBLAS_COMPUTE_32F_FAST_16BF = 75,
       CUBLAS_COMPUTE_32F_FAST_TF32 = 77, CUBLAS_COMPUTE_64F = 70,
       CUBLAS_COMPUTE_64F_PEDANTIC = 71, CUBLAS_COMPUTE_32I = 72,
       CUBLAS_COMPUTE_32I_PEDANTIC = 73,
       CUBLAS_COMPUTE_32F_EMULATED_16BFX9 = 78,
       CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT = 79 };
enum { CUEMU_BLAS_GEMM_AUTOTUNE = 999 };
/* cudaEmulationSpecialValuesSupport's default: infinities and NaNs. */
enum { CUEMU_BLAS_SPECIAL_VALUES_DEFAULT = 0xFFFF };
/* cudaDataType values (library_types.h). */
enum { CUEMU_R_32F = 0, CUEMU_R_64F = 1, CUEMU_R_16F = 2, CUEMU_R_8I = 3,
       CUEMU_C_32F = 4, CUEMU_C_64F = 5, CUEMU_R_32I = 10,
       CUEMU_R_16BF = 14, CUEMU_R_64I = 24 };
/* The cudaDataType of the integer type I (int or int64_t). */
#define CUEMU_BLAS_INT_TYPE(I) (sizeof(I) == 8 ? CUEMU_R_64I : CUEMU_R_32I)

typedef struct cuemu_blas_handle *cublasHandle_t;

/* A handle's floating-point emulation settings (CUDA 13's
 * cublasSetEmulationStrategy and cublasSetFixedPointEmulation*): kept and
 * read back. cuemu computes every type natively, as cuBLAS does where its
 * heuristics find emulation no faster (cuemu_blas_emulation.c). */
typedef struct cuemu_blas_emulation {
  int strategy;          /* cublasEmulationStrategy_t, 0 to 2 */
  int special_values;    /* cudaEmulationSpecialValuesSupport mask */
  int mantissa_control;  /* cudaEmulationMantissaControl, 0 or 1 */
  int max_mantissa_bits; /* 0: the library's choice */
  int mantissa_offset;
  int *mantissa_bits_out; /* the user's pointer, never written here */
} cuemu_blas_emulation;
typedef struct cuemu_blas_op cuemu_blas_op;

/* A handle: the device it was created on, its stream and modes. Nothing
 * in it changes as calls compute, so that several host threads may use
 * one handle at once, as cuBLAS allows (cuBLAS documentation, Thread
 * Safety); only the setters change it. */
struct cuemu_blas_handle {
  int device;
  void *stream;
  int pointer_mode;
  int math_mode;
  int atomics_mode;
  cuemu_blas_emulation emulation;
};

/* One operation on a stream: `run` computes it when the stream gets to it;
 * the rest of the record is the operation's own (a larger struct beginning
 * with this one). Scalars given in host pointer mode are copied into
 * `scalars` at the call, as cuBLAS passes them to its kernels by value.
 * A graph being captured owns the record and may replay it
 * (cuemu__libs_submit), as a GPU's graph keeps its kernels' arguments. */
struct cuemu_blas_op {
  void (*run)(cuemu_blas_op *op);
  const char *name;
  unsigned char scalars[2][16];
};

/* Allocates an operation record of `size` bytes (zeroed) for `run`. */
cuemu_blas_op *cuemu__blas_op_new(size_t size, const char *name,
                                  void (*run)(cuemu_blas_op *op));

/* Enqueues op on the handle's stream and takes it over (it is freed after
 * it runs, or with the graph when the stream captures one). Returns
 * CUBLAS_STATUS_EXECUTION_FAILED where the stream refuses work (a sticky
 * error, an invalid stream). */
cublasStatus_t cuemu__blas_submit(cublasHandle_t h, cuemu_blas_op *op);

/* Waits for the handle's stream: the calls that return a result to host
 * memory block until it is written, as cuBLAS's do. NOT_SUPPORTED while
 * the stream captures (such a result cannot exist before the graph runs). */
cublasStatus_t cuemu__blas_wait(cublasHandle_t h, const char *name);

/* Reads a scalar argument `s` (alpha, beta) of `bytes` bytes into the
 * op's slot `slot`: copied now in host pointer mode, or the device address
 * kept in device pointer mode. Returns the pointer the operation reads. */
const void *cuemu__blas_scalar(cublasHandle_t h, cuemu_blas_op *op, int slot,
                               const void *s, size_t bytes);

/* The bytes that a vector of n elements of `elem` bytes with increment inc
 * spans, and a rows x cols matrix with leading dimension ld (0 for none). */
size_t cuemu__blas_vector_bytes(int64_t n, int64_t inc, size_t elem);
size_t cuemu__blas_matrix_bytes(int64_t rows, int64_t cols, int64_t ld,
                                size_t elem);

/* Records that an operation wrote the rows x cols matrix at p (leading
 * dimension ld, elements of `elem` bytes), column by column, as its GPU
 * kernel's stores would be seen (cuemu_rt_library_wrote(): initcheck). */
void cuemu__blas_matrix_wrote(void *p, int64_t rows, int64_t cols, int64_t ld,
                              size_t elem);
/* The same for the n elements of a vector with increment inc. */
void cuemu__blas_vector_wrote(void *p, int64_t n, int64_t inc, size_t elem);

/* Reports that host memory for an operation's scratch ran out while it
 * ran: as a fault (cuemu_rt_library_fault()), never a silent wrong
 * result. */
void cuemu__blas_out_of_memory(const char *name);

/* ---- Element types (cudaDataType values) ---------------------------------- */

/* The size of one element of type t (0 for a type cuemu does not have). */
size_t cuemu__blas_type_size(int t);
/* Loads element i of an array of type t as a double complex, and stores. */
double complex cuemu__blas_load(int t, const void *p, int64_t i);
void cuemu__blas_store(int t, void *p, int64_t i, double complex v);
/* IEEE binary16 and bfloat16 conversions (round to nearest even). */
float cuemu__half_to_float(uint16_t h);
uint16_t cuemu__float_to_half(float f);
float cuemu__bf16_to_float(uint16_t h);
uint16_t cuemu__float_to_bf16(float f);

/* ---- GEMM, the core of level 3 (cuemu_blas_gemm.c) ------------------------ */

/* One GEMM of a batch: C = alpha op(A) op(B) + beta C, with A, B and C of
 * types at, bt and ct, computed in `compute` (CUEMU_R_32F, CUEMU_R_64F,
 * CUEMU_C_32F or CUEMU_C_64F); alpha and beta are given in that type. When
 * beta is 0, C is not read. Returns 0, or -1 when memory ran out. */
typedef struct cuemu_blas_gemm_args {
  int transa, transb;
  int64_t m, n, k;
  int at, bt, ct, compute;
  int64_t lda, ldb, ldc;
  double complex alpha, beta;
  /* How the elements of op(A) and op(B) are rounded before the float
   * products, as a GPU's tensor cores take them (CUEMU_BLAS_ROUND_*): the
   * CUBLAS_COMPUTE_32F_FAST_* types and CUBLAS_TF32_TENSOR_OP_MATH. */
  int round;
} cuemu_blas_gemm_args;
enum { CUEMU_BLAS_ROUND_NONE = 0, CUEMU_BLAS_ROUND_TF32 = 1,
       CUEMU_BLAS_ROUND_16F = 2, CUEMU_BLAS_ROUND_16BF = 3,
       /* CUBLAS_COMPUTE_32F_PEDANTIC: never rounded, whatever the math
        * mode. */
       CUEMU_BLAS_ROUND_NEVER = 4 };
int cuemu__blas_gemm(const cuemu_blas_gemm_args *g, const void *A,
                     const void *B, void *C);

/* A whole GEMM call (every form: S/D/C/Z/H, batched, strided, Ex), checked
 * and enqueued. Aarray, Barray, Carray are the device arrays of pointers of
 * the batched forms (NULL otherwise); the strides are in elements. */
typedef struct cuemu_blas_gemm_call {
  const char *name;
  cuemu_blas_gemm_args g;
  int scalar_type; /* the type of alpha and beta */
  const void *alpha, *beta;
  const void *A, *B;
  void *C;
  const void *const *Aarray, *const *Barray;
  void *const *Carray;
  int64_t stride_a, stride_b, stride_c;
  int64_t batch;
} cuemu_blas_gemm_call;
cublasStatus_t cuemu__blas_gemm_call(cublasHandle_t h,
                                     const cuemu_blas_gemm_call *call);

/* A cublasGemmEx-style call (cuemu_blas_gemm_api.c): the types of A, B
 * and C in c->g checked against the compute type's table, which sets the
 * compute, rounding and scalar types, then cuemu__blas_gemm_call(). The
 * cuBLASLt matmul (cuemu_blas_lt.c) goes through it too. */
cublasStatus_t cuemu__blas_ex_call(cublasHandle_t h, cuemu_blas_gemm_call *c,
                                   int compute, int algo);

/* Non-zero where cublasGemmEx's table has the compute type with A's, B's
 * and C's types. */
int cuemu__blas_ex_supported(int compute, int at, int bt, int ct);

/* cublasLtMatmul's checks of its descriptor and layouts (cuemu_blas_lt.c):
 * what cublasLtMatmul would refuse them with, or CUBLAS_STATUS_SUCCESS. */
cublasStatus_t cuemu__blas_lt_check(const void *desc, const void *a,
                                    const void *b, const void *c,
                                    const void *d);

/* Non-zero for CUBLAS_OP_N, CUBLAS_OP_T or CUBLAS_OP_C. */
int cuemu__blas_op_valid(int op);

/* ---- How a matrix is stored (cuemu_blas_shape.c) --------------------------- */

/* cuBLAS's storage conventions (column-major throughout):
 * - CUEMU_BLAS_FULL: element (i, j) at i + j ld;
 * - CUEMU_BLAS_BAND (gbmv, sbmv, tbmv, ...): column j holds rows j - ku to
 *   j + kl, element (i, j) at ku + i - j + j ld;
 * - CUEMU_BLAS_PACKED (spmv, tpmv, spr, ...): the one triangle stored
 *   column after column without gaps: upper (kl 0) (i, j) at
 *   i + j (j + 1) / 2, lower (ku 0) at i - j + j (2 rows - j + 1) / 2.
 * Column j stores rows max(0, j - ku) to min(rows - 1, j + kl): a triangle
 * (uplo CUBLAS_FILL_MODE_UPPER or _LOWER, -1 for a general matrix) has
 * kl = 0 (upper) or ku = 0 (lower). */
enum { CUEMU_BLAS_FULL, CUEMU_BLAS_BAND, CUEMU_BLAS_PACKED };
typedef struct cuemu_blas_shape {
  int storage, uplo;
  int64_t rows, ld, kl, ku;
} cuemu_blas_shape;

/* A rows x cols matrix stored whole; the uplo triangle of a full n x n
 * matrix, of a band matrix of k off-diagonals and of a packed matrix. */
cuemu_blas_shape cuemu__blas_general(int64_t rows, int64_t cols, int64_t ld);
cuemu_blas_shape cuemu__blas_triangle(int storage, int uplo, int64_t n,
                                      int64_t k, int64_t ld);
/* The offset of stored element (i, j), and the first and last rows that
 * column j stores (none where first > last). */
int64_t cuemu__blas_shape_at(const cuemu_blas_shape *s, int64_t i, int64_t j);
int64_t cuemu__blas_shape_first(const cuemu_blas_shape *s, int64_t j);
int64_t cuemu__blas_shape_last(const cuemu_blas_shape *s, int64_t j);
/* Runs the statement that follows for each stored element (i, j) of the
 * first `cols` columns, column after column. */
#define CUEMU_BLAS_FOR_STORED(s, cols, i, j)                                   \
  for (int64_t j = 0; j < (cols); ++j)                                         \
    for (int64_t i = cuemu__blas_shape_first(s, j),                            \
                 i##_last = cuemu__blas_shape_last(s, j);                      \
         i <= i##_last; ++i)
/* The bytes the storage of `cols` columns spans. */
size_t cuemu__blas_shape_bytes(const cuemu_blas_shape *s, int64_t cols,
                               size_t elem);

/* ---- Triangular matrices (cuemu_blas_triangle.c) --------------------------- */

/* op(A) for an n x n triangular A of type t stored as `s` (a triangle: a
 * unit diagonal with CUBLAS_DIAG_UNIT, nothing outside it read), where
 * trans may also be CUEMU_BLAS_OP_CONJ_N (conj(A), not transposed):
 * solve op(A) v = v, or v = op(A) v, in place. The _full forms take the
 * uplo triangle of a full matrix with leading dimension lda. */
enum { CUEMU_BLAS_OP_CONJ_N = 3 };
void cuemu__blas_tri_solve_shaped(const cuemu_blas_shape *s, int trans,
                                  int diag, int64_t n, int t, const void *A,
                                  double complex *v);
void cuemu__blas_tri_multiply_shaped(const cuemu_blas_shape *s, int trans,
                                     int diag, int64_t n, int t,
                                     const void *A, double complex *v);
void cuemu__blas_tri_solve(int uplo, int trans, int diag, int64_t n, int t,
                           const void *A, int64_t lda, double complex *v);
void cuemu__blas_tri_multiply(int uplo, int trans, int diag, int64_t n, int t,
                              const void *A, int64_t lda, double complex *v);

/* ---- The legacy API of cublas.h (cuemu_blas_legacy.c) -------------------- */

/* The handle of cublasInit (NULL before it and after cublasShutdown). */
cublasHandle_t cuemu__blas_legacy_handle(void);
/* Keeps a legacy function's status for cublasGetError (success keeps the
 * earlier error, as cublasGetError reports the last error). */
void cuemu__blas_legacy_status(cublasStatus_t status);
/* The legacy character arguments as the v2 enums; -1 for another
 * character (the v2 call then returns INVALID_VALUE). */
int cuemu__blas_legacy_op(char c);
int cuemu__blas_legacy_fill(char c);
int cuemu__blas_legacy_diag(char c);
int cuemu__blas_legacy_side(char c);
/* The body of a legacy function: the v2 call V2 on the legacy handle, its
 * status kept. */
#define CUEMU_BLAS_LEGACY(V2, ...)                                             \
  cuemu__blas_legacy_status(V2(cuemu__blas_legacy_handle(), __VA_ARGS__))
#define CUEMU_OP(c) cuemu__blas_legacy_op(c)
#define CUEMU_FILL(c) cuemu__blas_legacy_fill(c)
#define CUEMU_DIAG(c) cuemu__blas_legacy_diag(c)
#define CUEMU_SIDE(c) cuemu__blas_legacy_side(c)

#endif /* CUEMU_BLAS_H */
