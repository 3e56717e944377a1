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
 * report for a kernel. */
typedef struct cuemu_cluster_attributes {
  unsigned required[3]; /* its __cluster_dims__, zeros without */
  int must_be_set;      /* 1 with __cluster_dims__: nvcc marks such a kernel
                           .explicitcluster as well as .reqnctapercluster */
  int nonportable;      /* cudaFuncAttributeNonPortableClusterSizeAllowed */
  int scheduling;       /* cudaFuncAttributeClusterSchedulingPolicyPreference */
} cuemu_cluster_attributes;

/* Fills *a for the kernel at `function` (NULL: all zeros). */
void cuemu__cluster_attributes(const void *function,
                               cuemu_cluster_attributes *a);

#endif /* CUEMU_CLUSTER_SHAPE_H */
