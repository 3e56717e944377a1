/* gramschmidt.cuh: sizes, type and block shape of gramschmidt. */
#ifndef GRAMSCHMIDT_CUH
# define GRAMSCHMIDT_CUH

# if !defined(MINI_DATASET) && !defined(SMALL_DATASET) && !defined(LARGE_DATASET)
#  define STANDARD_DATASET
# endif

# if !defined(NI) && !defined(NJ)
#  ifdef MINI_DATASET
#   define NI 40
#   define NJ 40
#  endif
#  ifdef SMALL_DATASET
#   define NI 500
#   define NJ 500
#  endif
#  ifdef STANDARD_DATASET
#   define NI 2048
#   define NJ 2048
#  endif
# endif

# define _PB_NI POLYBENCH_LOOP_BOUND(NI,ni)
# define _PB_NJ POLYBENCH_LOOP_BOUND(NJ,nj)
# define POLYBENCH_LOOP_BOUND(x,y) y

# ifndef DATA_TYPE
#  define DATA_TYPE float
#  define DATA_PRINTF_MODIFIER "%0.2f "
# endif

/* Thread block dimensions */
#define DIM_THREAD_BLOCK_X 256
#define DIM_THREAD_BLOCK_Y 1

#endif
