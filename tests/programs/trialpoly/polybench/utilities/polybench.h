/*
 * polybench.h: a PolyBench-like header (timing, array macros, dataset sizes).
 */
#ifndef POLYBENCH_H
# define POLYBENCH_H

# include <stdlib.h>

/* Array padding: by default none. */
# ifndef POLYBENCH_PADDING_FACTOR
#  define POLYBENCH_PADDING_FACTOR 0
# endif

/* C99 arrays in function prototypes: off by default (C++ has no VLA parameters). */
# ifndef POLYBENCH_USE_C99_PROTO
#  define POLYBENCH_C99_SELECT(x,y) x
# else
#  define POLYBENCH_C99_SELECT(x,y) y
# endif

/* Macros to reference an array. */
# define POLYBENCH_ARRAY(x) *x
# define POLYBENCH_FREE_ARRAY(x) free((void*)x);
# define POLYBENCH_DECL_VAR(x) (*x)

# define POLYBENCH_1D(var, dim1,ddim1) var[POLYBENCH_C99_SELECT(dim1,ddim1) + POLYBENCH_PADDING_FACTOR]
# define POLYBENCH_2D(var, dim1, dim2, ddim1, ddim2) var[POLYBENCH_C99_SELECT(dim1,ddim1) + POLYBENCH_PADDING_FACTOR][POLYBENCH_C99_SELECT(dim2,ddim2) + POLYBENCH_PADDING_FACTOR]
# define POLYBENCH_3D(var, dim1, dim2, dim3, ddim1, ddim2, ddim3) var[POLYBENCH_C99_SELECT(dim1,ddim1) + POLYBENCH_PADDING_FACTOR][POLYBENCH_C99_SELECT(dim2,ddim2) + POLYBENCH_PADDING_FACTOR][POLYBENCH_C99_SELECT(dim3,ddim3) + POLYBENCH_PADDING_FACTOR]

# define POLYBENCH_1D_ARRAY_DECL(var, type, dim1, ddim1) \
  type POLYBENCH_1D(POLYBENCH_DECL_VAR(var), dim1, ddim1) = \
    (type(*)[dim1 + POLYBENCH_PADDING_FACTOR])polybench_alloc_data (dim1 + POLYBENCH_PADDING_FACTOR, sizeof(type));
# define POLYBENCH_2D_ARRAY_DECL(var, type, dim1, dim2, ddim1, ddim2) \
  type POLYBENCH_2D(POLYBENCH_DECL_VAR(var), dim1, dim2, ddim1, ddim2) = \
    (type(*)[dim1 + POLYBENCH_PADDING_FACTOR][dim2 + POLYBENCH_PADDING_FACTOR])polybench_alloc_data ((dim1 + POLYBENCH_PADDING_FACTOR) * (dim2 + POLYBENCH_PADDING_FACTOR), sizeof(type));

/* Dead-code elimination guard. */
# define polybench_prevent_dce(func) \
  if (argc > 42 && ! strcmp(argv[0], "")) func

/* Timing. */
# if defined(POLYBENCH_TIME) || defined(POLYBENCH_GFLOPS)
#  undef POLYBENCH_TIME
#  define POLYBENCH_TIME
#  define polybench_start_instruments polybench_timer_start();
#  define polybench_stop_instruments polybench_timer_stop();
#  define polybench_print_instruments polybench_timer_print();
# else
#  define polybench_start_instruments
#  define polybench_stop_instruments
#  define polybench_print_instruments
# endif

#ifdef __cplusplus
extern "C" {
#endif
extern void polybench_flush_cache(void);
extern void polybench_prepare_instruments(void);
extern void polybench_timer_start(void);
extern void polybench_timer_stop(void);
extern void polybench_timer_print(void);
extern double polybench_timer_elapsed(void);
extern void* polybench_alloc_data(unsigned long long int n, int elt_size);
#ifdef __cplusplus
}
#endif

#endif /* !POLYBENCH_H */
