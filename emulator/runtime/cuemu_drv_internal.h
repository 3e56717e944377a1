/*
 * cuemu_drv_internal.h: what the files of the driver API share inside
 * libcuemu (see cuemu_driver_api.h).
 */
#ifndef CUEMU_DRV_INTERNAL_H
#define CUEMU_DRV_INTERNAL_H

typedef struct cuemu_drv_context cuemu_drv_context;

/* Non-zero once cuInit(0) has succeeded. */
int cuemu__drv_initialised(void);

/* The calling thread's current context, or NULL. */
cuemu_drv_context *cuemu__drv_current(void);

/* Non-zero when `code` is a CUresult of CUDA 13. */
int cuemu__drv_known(int code);

/* The kernels of modules that driver calls have made graph nodes of or
 * captured (cuemu_drv_graph.c): noted, and forgotten when their module is
 * unloaded. */
struct cuemu_kernel;
struct cuemu_module;
void cuemu__drv_graph_note(struct cuemu_kernel *k);
void cuemu__drv_graph_forget(struct cuemu_module *m);

#endif /* CUEMU_DRV_INTERNAL_H */
