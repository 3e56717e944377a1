/*
 * cuemu_cluster_shape.h: the cluster shape of a launch: the launch's own
 * (cudaLaunchKernelEx's attribute) or the kernel's __cluster_dims__. CUDA's
 * rules for it are checked by the launch path (cuemu_device_launch.c).
 * Internal to libcuemu; host code, any thread.
 */
#ifndef CUEMU_CLUSTER_SHAPE_H
#define CUEMU_CLUSTER_SHAPE_H

#include "device/cuemu_device_launch.h"

/* Sets *cluster to the launch's cluster shape (zero for none), or returns
 * CLUSTER_SIZE for a shape that differs from the kernel's
 * __cluster_dims__. */
cuemu_status cuemu__cluster_shape(const cuemu_launch_request *r,
                                  const void *function, cuemu_dim3 *cluster);

/* The cluster attributes that cudaFuncGetAttributes and cuFuncGetAttribute
 * report for the kernel at `function`: required[] its __cluster_dims__
 * (zeros for a kernel without them), *nonportable whether
 * cudaFuncAttributeNonPortableClusterSizeAllowed is set. */
void cuemu__cluster_attributes(const void *function, unsigned required[3],
                               int *nonportable);

#endif /* CUEMU_CLUSTER_SHAPE_H */
