/* 2mm.cuh: sizes, types and thread-block shape of the 2mm kernel. */
#ifndef TWOMM_H
# define TWOMM_H

/* Default to STANDARD_DATASET. */
# if !defined(MINI_DATASET) && !defined(SMALL_DATASET) && !defined(LARGE_DATASET) && !defined(EXTRALARGE_DATASET)
#  define STANDARD_DATASET
# endif

# if !defined(NI) && !defined(NJ) && !defined(NK) && !defined(NL)
#  ifdef MINI_DATASET
#   define NI 37
#   define NJ 45
#   define NK 51
#   define NL 29
#  endif
#  ifdef SMALL_DATASET
#   define NI 128
#   define NJ 128
#   define NK 128
#   define NL 128
#  endif
#  ifdef STANDARD_DATASET
#   define NI 1024
#   define NJ 1024
#   define NK 1024
#   define NL 1024
#  endif
# endif

# define _PB_NI POLYBENCH_LOOP_BOUND(NI,ni)
# define _PB_NJ POLYBENCH_LOOP_BOUND(NJ,nj)
# define _PB_NK POLYBENCH_LOOP_BOUND(NK,nk)
# define _PB_NL POLYBENCH_LOOP_BOUND(NL,nl)
# define POLYBENCH_LOOP_BOUND(x,y) y

# ifndef DATA_TYPE
#  define DATA_TYPE float
#  define DATA_PRINTF_MODIFIER "%0.2f "
# endif

/* Thread block dimensions */
#define DIM_THREAD_BLOCK_X 32
#define DIM_THREAD_BLOCK_Y 8

#endif
