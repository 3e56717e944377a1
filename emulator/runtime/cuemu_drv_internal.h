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

#endif /* CUEMU_DRV_INTERNAL_H */
