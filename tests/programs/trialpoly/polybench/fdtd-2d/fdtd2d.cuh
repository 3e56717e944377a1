/* fdtd2d.cuh: sizes, type and block shape of fdtd-2d. */
#ifndef FDTD2D_CUH
# define FDTD2D_CUH

# if !defined(MINI_DATASET) && !defined(SMALL_DATASET) && !defined(LARGE_DATASET)
#  define STANDARD_DATASET
# endif

# if !defined(TMAX) && !defined(NX) && !defined(NY)
#  ifdef MINI_DATASET
#   define TMAX 12
#   define NX 70
#   define NY 90
#  endif
#  ifdef SMALL_DATASET
#   define TMAX 100
#   define NX 500
#   define NY 500
#  endif
#  ifdef STANDARD_DATASET
#   define TMAX 500
#   define NX 2048
#   define NY 2048
#  endif
# endif

# define _PB_TMAX POLYBENCH_LOOP_BOUND(TMAX,tmax)
# define _PB_NX POLYBENCH_LOOP_BOUND(NX,nx)
# define _PB_NY POLYBENCH_LOOP_BOUND(NY,ny)
# define POLYBENCH_LOOP_BOUND(x,y) y

# ifndef DATA_TYPE
#  define DATA_TYPE float
#  define DATA_PRINTF_MODIFIER "%0.2f "
# endif

/* Thread block dimensions */
#define DIM_THREAD_BLOCK_X 32
#define DIM_THREAD_BLOCK_Y 8

#endif
