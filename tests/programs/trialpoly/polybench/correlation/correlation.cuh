/* correlation.cuh: sizes, data type and block shapes of correlation. */
#ifndef CORRELATION_CUH
# define CORRELATION_CUH

# if !defined(MINI_DATASET) && !defined(SMALL_DATASET) && !defined(LARGE_DATASET)
#  define STANDARD_DATASET
# endif

# if !defined(N) && !defined(M)
#  ifdef MINI_DATASET
#   define M 80
#   define N 80
#  endif
#  ifdef SMALL_DATASET
#   define M 500
#   define N 500
#  endif
#  ifdef STANDARD_DATASET
#   define M 2048
#   define N 2048
#  endif
# endif

# define _PB_M POLYBENCH_LOOP_BOUND(M,m)
# define _PB_N POLYBENCH_LOOP_BOUND(N,n)
# define POLYBENCH_LOOP_BOUND(x,y) y

/* The element type: double unless -DPOLYBENCH_USE_SINGLE. */
# ifdef POLYBENCH_USE_SINGLE
typedef float DATA_TYPE;
#  define DATA_PRINTF_MODIFIER "%0.2f "
#  define SQRT_FUN(x) sqrtf(x)
# else
typedef double DATA_TYPE;
#  define DATA_PRINTF_MODIFIER "%0.2lf "
#  define SQRT_FUN(x) sqrt(x)
# endif

/* Thread block dimensions for kernel 1 */
#define DIM_THREAD_BLOCK_KERNEL_1_X 256
#define DIM_THREAD_BLOCK_KERNEL_1_Y 1

/* Thread block dimensions for kernel 2 */
#define DIM_THREAD_BLOCK_KERNEL_2_X 256
#define DIM_THREAD_BLOCK_KERNEL_2_Y 1

/* Thread block dimensions for kernel 3 */
#define DIM_THREAD_BLOCK_KERNEL_3_X 32
#define DIM_THREAD_BLOCK_KERNEL_3_Y 8

/* Thread block dimensions for kernel 4 */
#define DIM_THREAD_BLOCK_KERNEL_4_X 256
#define DIM_THREAD_BLOCK_KERNEL_4_Y 1

#define sqrt_of_array_cell(x,j) SQRT_FUN(x[j])

#define FLOAT_N 3214212.01f
#define EPS 0.005f

#endif
